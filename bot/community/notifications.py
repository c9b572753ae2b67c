"""Turn notifications: a private message (Discord: a DM) to each player whose turn begins, if
they asked for one on that server (`/notify`), with the way to the table and the deadline.

One message per turn: only the seats whose turn began in a commit (`Change.fresh`), never the
player who began it by their own action (a double's extra turn), never an AI seat. Reminders
follow the same choice (`reminder_messages`). The messages go out as the seat's private part of
the announcement, so the outbox delivers them like any other.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.core.i18n import _
from bot.core.records import TableRecord
from bot.core.replies import deadline_token, link_token
from bot.storage.standings import notified
from bot.storage.store import Store
from engine import GAMES


async def turn_messages(store: Store, table: TableRecord, seats: Iterable[int],
                        deadlines: Mapping[int, float]) -> dict[int, str]:
    """For each of `seats` (whose turn just began) whose player chose to be told of it: the
    message telling them (seat -> text)."""
    wanted = await _wanting(store, table, seats)
    return {seat: _turn_text(table, deadlines.get(seat)) for seat in wanted}


async def reminder_messages(store: Store, table: TableRecord, seat: int, deadline: float) -> dict[int, str]:
    """The reminder for `seat`, if its player chose to be told of their turns (seat -> text)."""
    if not await _wanting(store, table, [seat]):
        return {}
    return {seat: _("⏰ Your turn in **{game}** ends {when}: {link}").format(
        game=GAMES[table.game].title, when=deadline_token(deadline), link=link_token(table.place, table.guild))}


async def _wanting(store: Store, table: TableRecord, seats: Iterable[int]) -> list[int]:
    """Those of `seats` whose player (a person, at a table on a server) wants to be told."""
    if table.guild is None:
        return []
    people = {seat: user for seat in seats if 0 <= seat < len(table.seats) and (user := table.seats[seat].user_id)}
    if not people:
        return []
    choices = await store.standings.notify_choices(table.guild, sorted(set(people.values())))
    return [seat for seat, user in sorted(people.items()) if notified(choices.get(user), table.turn_seconds)]


def _turn_text(table: TableRecord, deadline: float | None) -> str:
    game, link = GAMES[table.game].title, link_token(table.place, table.guild)
    if deadline is None:
        return _("🔔 Your turn in **{game}**: {link}").format(game=game, link=link)
    return _("🔔 Your turn in **{game}**, until {when}: {link}").format(game=game, when=deadline_token(deadline),
                                                                       link=link)
