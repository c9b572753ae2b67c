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
during the player's quiet hours (`/notify quiet`): a turn that begins then pings them once when
their quiet hours end, if it is still theirs (`deferred_pings`, a durable timer). A player who
keeps the standing "your turn" list (`/notify list`) gets no private message a turn: their list
is edited instead (see `list_keepers`), which pings nobody.

Reminders are reminders, not pings: a reminder is posted at the table, and it pings its player
(their mention, or their private message if they chose those) only when nothing has pinged them
this turn yet (they began it themselves, or it began in their quiet hours and they are still in
them) and they are not in their quiet hours; it then counts as the turn's ping
(`reminder_messages`). So a player is pinged at most once a turn, whatever sends it.

The players' choices that hold everywhere (`PlayerChoices`) are read once per change and handed
down (`choices`), never read again by each step.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.community.quiet_clock import quiet_ends
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


async def _modes(store: Store, table: TableRecord, users: list[str]) -> dict[str, str]:
    """Each user's choice of DMs on the table's server."""
    if not users or table.guild is None:
        return {}
    return await store.standings.notify_choices(table.guild, users)


def pinged_for(table: TableRecord, seat: int, turn: Sequence[int]) -> bool:
    """Whether the turn `turn` (the game's turn number and the move its clock started at) has
    pinged the player of `seat` already."""
    return (table.meta.get(PINGED) or {}).get(str(seat)) == list(turn)


def note_pinged(table: TableRecord, seat: int, turn: Sequence[int]) -> None:
    """Note on the table (committed with it) that `turn` has pinged the player of `seat`."""
    table.meta.setdefault(PINGED, {})[str(seat)] = list(turn)


def quiet_now(choices: PlayerChoices | None, now: float) -> bool:
    """Whether a player with these choices is in their quiet hours at `now`."""
    return choices is not None and is_quiet(parse_stored(choices.quiet), now)


async def plan_pings(store: Store, table: TableRecord, seats: Iterable[int], mentioned: Iterable[str],
                     deadlines: Mapping[int, float], now: float, turns: Mapping[int, list[int]],
                     everywhere: Mapping[str, PlayerChoices]) -> Pings:
    """How to tell the players of `seats`, whose turn just began (and whose user ids in
    `mentioned` the announcement mentions), following the rules above; notes the turns that
    ping on the table (`PINGED`, committed with the change). `turns` names each waiting seat's
    turn: the game's turn number and the move at which the seat's clock started (so a rollback
    that brings a turn back begins it anew). `everywhere`: the players' choices, read once for
    the change."""
    pinged: dict[str, list[int]] = table.meta.setdefault(PINGED, {})
    people = _people(table, seats)
    mentioned = set(mentioned)
    by_user = {user: seat for seat, user in _people(table, range(len(table.seats))).items()}
    users = sorted(set(people.values()) | mentioned)
    modes = await _modes(store, table, users)
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


def quiet_users(everywhere: Mapping[str, PlayerChoices], users: Iterable[str], now: float) -> set[str]:
    """Those of `users` in their quiet hours at `now` (by their choices `everywhere`): a private
    message to them goes out without a notification."""
    return {user for user in set(users) if quiet_now(everywhere.get(user), now)}


def deferred_pings(table: TableRecord, seats: Iterable[int], everywhere: Mapping[str, PlayerChoices],
                   now: float, turns: Mapping[int, list[int]]) -> dict[int, float]:
    """Of `seats` (whose turn began and was not their own doing), those whose turn has not pinged
    them because it began in their quiet hours: when those end (seat -> moment), for a timer that
    pings them then if the turn is still theirs."""
    found = {}
    for seat, user in _people(table, seats).items():
        ends = quiet_ends(everywhere.get(user), now)
        if ends is not None and seat in turns and not pinged_for(table, seat, turns[seat]):
            found[seat] = ends
    return found


async def _turn_may_ping(store: Store, table: TableRecord, seat: int, now: float,
                         turn: Sequence[int]) -> tuple[str, PlayerChoices | None] | None:
    """`seat`'s player and their choices, if a ping may still reach them in the turn `turn` (it
    has not pinged them yet and they are not in their quiet hours), the turn then noted as
    pinged (on the table, to commit with the ping); else None."""
    people = _people(table, [seat])
    if not people:
        return None
    user = people[seat]
    choices = (await store.standings.player_choices([user])).get(user)
    if quiet_now(choices, now) or pinged_for(table, seat, turn):
        return None
    note_pinged(table, seat, turn)
    return user, choices


async def reminder_messages(store: Store, table: TableRecord, seat: int, deadline: float, now: float,
                            turn: Sequence[int]) -> tuple[dict[int, str], bool]:
    """The reminder for `seat`, in its turn `turn`: its private message, if its player chose them
    (seat -> text), and whether the public reminder may ping them. Either pings, so either is
    made only when the turn has not pinged them yet and they are not in their quiet hours; the
    turn is then noted as pinged (on the table, to commit with the reminder)."""
    allowed = await _turn_may_ping(store, table, seat, now, turn)
    if allowed is None:
        return {}, False
    user, choices = allowed
    modes = await _modes(store, table, [user])
    if not notified(modes.get(user), table.turn_seconds) or (choices and choices.listed):
        return {}, True
    return {seat: _("⏰ Your turn in **{game}** ends {when}: {link}").format(
        game=GAMES[table.game].title, when=deadline_token(deadline), link=link_token(table.place, table.guild))}, False


async def late_ping(store: Store, table: TableRecord, seat: int, deadline: float | None, now: float,
                    turn: Sequence[int]) -> tuple[dict[int, str], bool]:
    """The ping a turn that began in its player's quiet hours makes when they end: its private
    message, for a player who chose those (seat -> text), and whether the table's message may
    ping them by their mention. Nothing (and no ping) if the turn pinged them already, or they
    are quiet again; else the turn is noted as pinged (to commit with it)."""
    allowed = await _turn_may_ping(store, table, seat, now, turn)
    if allowed is None:
        return {}, False
    user, choices = allowed
    modes = await _modes(store, table, [user])
    if notified(modes.get(user), table.turn_seconds) and not (choices and choices.listed):
        return {seat: _turn_text(table, deadline)}, False
    return {}, True


async def list_keepers(store: Store, table: TableRecord, seats: Iterable[int],
                       everywhere: Mapping[str, PlayerChoices] | None = None) -> dict[int, str]:
    """Of `seats` (those whose turn began or ended), the players who keep a standing list
    (seat -> user id): theirs is to be shown again. `everywhere`: the players' choices, if read
    already (else read here)."""
    people = _people(table, seats)
    if not people or table.guild is None:
        return {}
    if everywhere is None:
        everywhere = await store.standings.player_choices(sorted(set(people.values())))
    return {seat: user for seat, user in people.items() if (c := everywhere.get(user)) is not None and c.listed}


def _turn_text(table: TableRecord, deadline: float | None) -> str:
    game, link = GAMES[table.game].title, link_token(table.place, table.guild)
    if deadline is None:
        return _("🔔 Your turn in **{game}**: {link}").format(game=game, link=link)
    return _("🔔 Your turn in **{game}**, until {when}: {link}").format(game=game, when=deadline_token(deadline),
                                                                       link=link)
