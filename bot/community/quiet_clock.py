"""Quiet hours stop clocks: the source of the times a table's players are unavailable that their
quiet hours give (`/notify quiet`), read by the clock like vacations (`bot.tables.core.Tables`).

A table that allows vacations allows quiet hours too: `vacation=off` (a tournament's table) keeps
both from stopping its clocks. Quiet hours repeat every day, so the stretches are given from the
earliest turn still running at the table to `HORIZON` after now: more than any turn can last
(the longest bank is days, and a player's quiet hours take at most part of each day).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.community.quiet_hours import parse_stored, quiet_intervals
from bot.community.vacations import allows_vacations, earliest_turn
from bot.core.clock import Clock
from bot.core.records import TableRecord
from bot.core.running_time import Interval, Unavailability
from bot.storage.store import Store

HORIZON = 120 * 24 * 3600.0
"""How far past now quiet stretches are given."""


def quiet_hours_intervals(store: Store, clock: Clock) -> Unavailability:
    """The quiet hours source of unavailable intervals: each seated player's quiet stretches, at
    tables that allow players' time off (none at a table with `vacation=off`)."""

    async def intervals(table: TableRecord) -> Mapping[str, Sequence[Interval]]:
        if not allows_vacations(table):
            return {}
        users = [s.user_id for s in table.seats if s.user_id]
        choices = await store.standings.player_choices(users)
        since = earliest_turn(table)
        until = max(clock.now(), since) + HORIZON
        return {user: quiet_intervals(parse_stored(choice.quiet), since, until)
                for user, choice in choices.items() if choice.quiet}

    return intervals
