"""Quiet hours stop clocks: the times a table's players are unavailable that their quiet hours
give (`/notify quiet`), read by the clock like vacations (`bot.tables.core.Tables`).

A table that allows vacations allows quiet hours too: `vacation=off` (a tournament's table) keeps
both from stopping its clocks. Quiet hours repeat every day, so the stretches are given from the
earliest turn still running at the table to `HORIZON` after now: more than any turn can last
(the longest bank is days, and a player's quiet hours take at most part of each day).

The players' choices are read once per change (`bot.tables.core.Tables.change`) and handed here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.community.quiet_hours import parse_stored, quiet_intervals
from bot.community.vacations import allows_vacations, earliest_turn
from bot.core.records import TableRecord
from bot.core.running_time import Interval, off_at
from bot.storage.standings import PlayerChoices

HORIZON = 120 * 24 * 3600.0
"""How far past now quiet stretches are given."""


def quiet_off(table: TableRecord, choices: Mapping[str, PlayerChoices], now: float) -> dict[str, Sequence[Interval]]:
    """Each seated player's quiet stretches (by user id), from their `choices`, at a table that
    allows players' time off (none at a table with `vacation=off`)."""
    if not allows_vacations(table):
        return {}
    seated = {s.user_id for s in table.seats if s.user_id}
    since = earliest_turn(table)
    until = max(now, since) + HORIZON
    return {user: quiet_intervals(parse_stored(choice.quiet), since, until)
            for user, choice in choices.items() if choice.quiet and user in seated}


def quiet_ends(choices: PlayerChoices | None, now: float) -> float | None:
    """When the quiet stretch a player with these choices is in at `now` ends (None: not quiet)."""
    if choices is None or not choices.quiet:
        return None
    found = off_at(now, quiet_intervals(parse_stored(choices.quiet), now - 86400.0, now + 2 * 86400.0))
    return None if found is None else found[1]
