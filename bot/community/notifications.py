"""Turn notifications: who is pinged when a turn begins, and how.

A turn pings its player at most once, however many steps it takes (a double's extra turn, a
draw then a lay) and whatever else is committed while it lasts: the turn's number (the game's
`turn_count`, with the move at which the seat's clock started) is noted on the table
(`PINGED`) when it pings. The ping is one of:
- a private message (Discord: a DM) with the way to the table and the deadline, for a player who
  asked for one on that server (`/notify dm`); their mention in the table's announcement then
  shows their name without pinging them;
- else their mention in the table's announcement.
Never the player who began the turn by their own action, never an AI seat, and nothing at all
during the player's quiet hours (`/notify quiet`). A player who keeps the standing "your turn"
list (`/notify list`) gets no private message a turn: their list is edited instead (see
`list_keepers`), which pings nobody. Reminders follow the same choices (`reminder_messages`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.community.quiet_hours import is_quiet, parse_stored
from bot.core.i18n import _
from bot.core.meta import PINGED
from bot.core.records import TableRecord
from bot.core.replies import deadline_token, link_token
from bot.storage.standings import PlayerChoices, notified
from bot.storage.store import Store
from engine import GAMES

TURN_LIST = "turns"
"""The outbox kind of a note that a player's standing list of turns is to be shown again (its
`mentions` name the player); a transport that keeps such lists redraws it from the store."""


@dataclass
class Pings:
    """How the players whose turn began are told: `direct` (seat -> private message) and the
    user ids whose mention in the announcement must not ping (`silenced`)."""

    direct: dict[int, str] = field(default_factory=dict)
    silenced: set[str] = field(default_factory=set)


def _people(table: TableRecord, seats: Iterable[int]) -> dict[int, str]:
    return {seat: user for seat in seats if 0 <= seat < len(table.seats) and (user := table.seats[seat].user_id)}


async def _choices(store: Store, table: TableRecord,
                   users: list[str]) -> tuple[dict[str, str], dict[str, PlayerChoices]]:
    """Each user's choice of DMs on the table's server, and their choices that hold everywhere."""
    if not users or table.guild is None:
        return {}, {}
    return (await store.standings.notify_choices(table.guild, users),
            await store.standings.player_choices(users))


def quiet_now(choices: PlayerChoices | None, now: float) -> bool:
    """Whether a player with these choices is in their quiet hours at `now`."""
    return choices is not None and is_quiet(parse_stored(choices.quiet), now)


async def plan_pings(store: Store, table: TableRecord, seats: Iterable[int], mentioned: Iterable[str],
                     deadlines: Mapping[int, float], now: float, turns: Mapping[int, list[int]]) -> Pings:
    """How to tell the players of `seats`, whose turn just began (and whose user ids in
    `mentioned` the announcement mentions), following the rules above; notes the turns that
    ping on the table (`PINGED`, committed with the change). `turns` names each waiting seat's
    turn: the game's turn number and the move at which the seat's clock started (so a rollback
    that brings a turn back begins it anew)."""
    pinged: dict[str, list[int]] = table.meta.setdefault(PINGED, {})
    people = _people(table, seats)
    mentioned = set(mentioned)
    by_user = {user: seat for seat, user in _people(table, range(len(table.seats))).items()}
    users = sorted(set(people.values()) | mentioned)
    modes, everywhere = await _choices(store, table, users)
    pings = Pings()
    for user in users:
        seat = by_user.get(user)
        if seat is None:
            continue
        choices = everywhere.get(user)
        turn = list(turns.get(seat, []))
        if pinged.get(str(seat)) == turn or quiet_now(choices, now):
            pings.silenced.add(user)
            continue
        if seat in people and notified(modes.get(user), table.turn_seconds) and not (choices and choices.listed):
            pings.direct[seat] = _turn_text(table, deadlines.get(seat))
            pings.silenced.add(user)
        elif user not in mentioned:
            continue
        pinged[str(seat)] = turn
    return pings


async def quiet_users(store: Store, users: Iterable[str], now: float) -> set[str]:
    """Those of `users` in their quiet hours at `now`: a private message to them goes out without
    a notification."""
    wanted = sorted(set(users))
    everywhere = await store.standings.player_choices(wanted) if wanted else {}
    return {user for user in wanted if quiet_now(everywhere.get(user), now)}


async def reminder_messages(store: Store, table: TableRecord, seat: int, deadline: float,
                            now: float) -> tuple[dict[int, str], bool]:
    """The reminder for `seat`: its private message, if its player chose them (seat -> text), and
    whether the public reminder may ping them (not during their quiet hours)."""
    people = _people(table, [seat])
    if not people:
        return {}, True
    user = people[seat]
    modes, everywhere = await _choices(store, table, [user])
    choices = everywhere.get(user)
    if quiet_now(choices, now):
        return {}, False
    if not notified(modes.get(user), table.turn_seconds) or (choices and choices.listed):
        return {}, True
    return {seat: _("⏰ Your turn in **{game}** ends {when}: {link}").format(
        game=GAMES[table.game].title, when=deadline_token(deadline), link=link_token(table.place, table.guild))}, True


async def list_keepers(store: Store, table: TableRecord, seats: Iterable[int]) -> dict[int, str]:
    """Of `seats` (those whose turn began or ended), the players who keep a standing list
    (seat -> user id): theirs is to be shown again."""
    people = _people(table, seats)
    if not people or table.guild is None:
        return {}
    everywhere = await store.standings.player_choices(sorted(set(people.values())))
    return {seat: user for seat, user in people.items() if (c := everywhere.get(user)) is not None and c.listed}


def _turn_text(table: TableRecord, deadline: float | None) -> str:
    game, link = GAMES[table.game].title, link_token(table.place, table.guild)
    if deadline is None:
        return _("🔔 Your turn in **{game}**: {link}").format(game=game, link=link)
    return _("🔔 Your turn in **{game}**, until {when}: {link}").format(game=game, when=deadline_token(deadline),
                                                                       link=link)
