"""Players' vacations, in the store: the intervals when each player's clocks stop on a server, and
the vacation days each has spent there each year.

A vacation is declared ahead (`/vacation`) or spent automatically, a day at a time, when a bank
runs out (Little Golem's rule): either way it is an interval during which that player's clocks
do not run in any of their games on the server that allow vacations. The days are counted
against a yearly allowance (the server's setting) in one row per player, server and year, which a
spending transaction holds (`Sql.lock`) while it checks and adds to it: a day is never spent
twice, however many processes race to spend it.

The SQL is written once and runs on both databases (`bot.storage.sql.Sql`).
"""

from __future__ import annotations

import datetime
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from bot.core.records import PLAYING, REPLAN
from bot.core.running_time import Interval
from bot.storage.sql import Sql, marks

DAY = 86400.0
DECLARED, AUTOMATIC = "declared", "auto"
_COLUMNS = "guild, user_id, starts, ends, days, kind, year"


class VacationTaken(Exception):
    """A vacation could not be written as it was checked: the allowance was spent meanwhile, or
    the player is already on vacation then (another process got there first). Nothing is written."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


OVERLAP, NO_DAYS = "overlap", "no days"
NOT_FOUND = "not found"


class NotCancelled(Exception):
    """A vacation could not be cancelled: there is none such (`NOT_FOUND`), or it is a day spent
    automatically (`AUTOMATIC`). Nothing is written."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Vacation:
    """One vacation of a player on a server: when it starts and ends (seconds since the epoch),
    how many days of the year's allowance it took, and whether it was declared or spent
    automatically."""

    guild: str
    user_id: str
    starts: float
    ends: float
    days: int
    kind: str
    year: int


@dataclass(frozen=True)
class Cancelled:
    """A vacation cancelled: as it was, the days given back to its year's allowance, whether it
    was still to come (deleted; else it ended early), and the days now spent in its year."""

    vacation: Vacation
    returned: int
    deleted: bool
    spent: int


def year_of(when: float) -> int:
    """The (UTC) calendar year an allowance is counted in."""
    return datetime.datetime.fromtimestamp(when, datetime.UTC).year


class Vacations:
    """Vacations and the days spent on them. `read` runs a query outside any transaction;
    `transaction(lock)` opens one."""

    def __init__(self, read: Callable[[], AbstractAsyncContextManager[Sql]],
                 transaction: Callable[[str], AbstractAsyncContextManager[Sql]]) -> None:
        self._read = read
        self._transaction = transaction

    async def _fetch(self, sql: str, *args: Any) -> list[Mapping[str, Any]]:
        async with self._read() as db:
            return await db.fetch(sql, *args)

    async def intervals(self, guild: str, user_ids: Sequence[str], since: float) -> dict[str, list[Interval]]:
        """Each of these players' vacation intervals on the server that end after `since`."""
        if not user_ids:
            return {}
        rows = await self._fetch(f"SELECT user_id, starts, ends FROM vacations WHERE guild = ? AND user_id IN"
                                 f" ({marks(len(user_ids))}) AND ends > ? ORDER BY starts", guild, *user_ids, since)
        found: dict[str, list[Interval]] = {}
        for row in rows:
            found.setdefault(row["user_id"], []).append((float(row["starts"]), float(row["ends"])))
        return found

    async def of_player(self, guild: str, user_id: str, since: float) -> list[Vacation]:
        """The player's vacations on the server that end after `since`, earliest first."""
        rows = await self._fetch(f"SELECT {_COLUMNS} FROM vacations WHERE guild = ? AND user_id = ? AND ends > ?"
                                 " ORDER BY starts", guild, user_id, since)
        return [_vacation(row) for row in rows]

    async def days_spent(self, guild: str, user_id: str, year: int) -> int:
        """The vacation days the player has spent (or declared) on the server in `year`."""
        rows = await self._fetch("SELECT spent FROM vacation_days WHERE guild = ? AND user_id = ? AND year = ?",
                                 guild, user_id, year)
        return int(rows[0]["spent"]) if rows else 0

    async def declare(self, vacation: Vacation, allowance: int) -> int:
        """Write a declared vacation, its days taken from the allowance of its year; the days
        left that year. VacationTaken (nothing written) if it overlaps one of the player's
        vacations or there are not enough days left."""
        async with self._transaction(_lock(vacation.guild, vacation.user_id)) as db:
            return await _take(db, vacation, allowance)

    def spend_day(self, guild: str, user_id: str, now: float, allowance: int,
                  at_table: int | None = None) -> Callable[[Sql], Awaitable[None]]:
        """The writes spending one vacation day from `now` (a bank that ran out at the table
        `at_table`), to make inside the commit that announces it: VacationTaken (and nothing
        written) if the player is already on vacation at `now` or has no day left this year.
        With the day, each of the player's other games being played on the server gets a timer
        (`REPLAN`, due now) to plan its clock again at once: written in the same transaction, so
        they are there exactly when the day is, and each is fired (and deleted) once."""
        vacation = Vacation(guild, user_id, now, now + DAY, 1, AUTOMATIC, year_of(now))

        async def write(db: Sql) -> None:
            await db.lock(_lock(guild, user_id))
            await _take(db, vacation, allowance)
            await db.execute("INSERT INTO timers (table_id, seat, kind, due, ply) SELECT s.table_id, s.seat, ?, ?, 0"
                             " FROM seats s JOIN tables t ON t.id = s.table_id WHERE t.guild = ? AND s.user_id = ?"
                             " AND t.status = ? AND t.turn_seconds IS NOT NULL AND t.id <> ?",
                             REPLAN, now, guild, user_id, PLAYING, -1 if at_table is None else at_table)

        return write

    async def cancel(self, guild: str, user_id: str, starts: float, now: float) -> Cancelled:
        """Cancel the player's declared vacation that starts at `starts`: one still to come is
        deleted and all its days go back to its year's allowance; one under way ends now, and the
        days it has not begun (whole UTC days after today) go back. NotCancelled (nothing
        written) if there is no such vacation ending after `now`, or it was spent automatically
        (a bank's day, begun as soon as it was spent)."""
        async with self._transaction(_lock(guild, user_id)) as db:
            rows = await db.fetch(f"SELECT id, {_COLUMNS} FROM vacations WHERE guild = ? AND user_id = ? AND starts = ?"
                                  " AND ends > ?", guild, user_id, starts, now)
            if not rows:
                raise NotCancelled(NOT_FOUND)
            vacation = _vacation(rows[0])
            if vacation.kind != DECLARED:
                raise NotCancelled(AUTOMATIC)
            if vacation.starts > now:
                returned = vacation.days
                await db.execute("DELETE FROM vacations WHERE id = ?", rows[0]["id"])
            else:
                first = datetime.datetime.fromtimestamp(vacation.starts, datetime.UTC).date()
                today = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
                returned = max(0, vacation.days - ((today - first).days + 1))
                await db.execute("UPDATE vacations SET ends = ?, days = ? WHERE id = ?", now,
                                 vacation.days - returned, rows[0]["id"])
            await db.execute("UPDATE vacation_days SET spent = spent - ? WHERE guild = ? AND user_id = ? AND year = ?",
                             returned, guild, user_id, vacation.year)
            spent = await db.fetch("SELECT spent FROM vacation_days WHERE guild = ? AND user_id = ? AND year = ?",
                                   guild, user_id, vacation.year)
        return Cancelled(vacation, returned, vacation.starts > now, int(spent[0]["spent"]) if spent else 0)


async def _take(db: Sql, vacation: Vacation, allowance: int) -> int:
    """Check and write a vacation with the player's lock held; the days left in its year."""
    # a declared vacation may not overlap another; a day spent automatically, only not begin
    # within one (a bank that ran out then has its clock stopped already)
    until = vacation.ends if vacation.kind == DECLARED else vacation.starts + 1e-6
    overlapping = await db.fetch("SELECT 1 AS found FROM vacations WHERE guild = ? AND user_id = ? AND starts < ?"
                                 " AND ends > ?", vacation.guild, vacation.user_id, until, vacation.starts)
    if overlapping:
        raise VacationTaken(OVERLAP)
    rows = await db.fetch("SELECT spent FROM vacation_days WHERE guild = ? AND user_id = ? AND year = ?",
                          vacation.guild, vacation.user_id, vacation.year)
    spent = int(rows[0]["spent"]) if rows else 0
    if spent + vacation.days > allowance:
        raise VacationTaken(NO_DAYS)
    await db.execute("INSERT INTO vacation_days (guild, user_id, year, spent) VALUES (?, ?, ?, ?)"
                     " ON CONFLICT (guild, user_id, year) DO UPDATE SET spent = excluded.spent",
                     vacation.guild, vacation.user_id, vacation.year, spent + vacation.days)
    await db.execute(f"INSERT INTO vacations ({_COLUMNS}) VALUES ({marks(7)})", vacation.guild, vacation.user_id,
                     vacation.starts, vacation.ends, vacation.days, vacation.kind, vacation.year)
    return allowance - spent - vacation.days


def _lock(guild: str, user_id: str) -> str:
    return f"vacation:{guild}:{user_id}"


def _vacation(row: Mapping[str, Any]) -> Vacation:
    return Vacation(row["guild"], row["user_id"], float(row["starts"]), float(row["ends"]), int(row["days"]),
                    row["kind"], int(row["year"]))
