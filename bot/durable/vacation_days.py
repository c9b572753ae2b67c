"""Vacation days at a deadline: before a seat times out, whether its time is really up.

A deadline timer is when a seat's clock ran out as last planned. Since then its player may have
gone on vacation (their clock stopped: the deadline is later), and at a bank table a seat whose
bank is empty spends a vacation day if its player has one left this year (Little Golem's rule: it
adds 24 hours to all their games on the server). The day is written in the same commit as the
table's new clock and deletes the timer that fired, so it is spent once whichever process fires
it; the store refuses a second day for a player already on vacation (`VacationTaken`), so two
of their games running out at once spend one. The same commit gives each of the player's other
games on the server a timer due at once (`REPLAN`), which plans that game's clock again with the
day (`plan_again`): their deadlines and reminders move when the day is spent, not when they come.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.community.vacations import allows_vacations
from bot.core.i18n import _
from bot.core.records import TableRecord, Timer
from bot.core.replies import Message, Reply, deadline_token, name_token
from bot.storage.sql import Sql
from bot.storage.standings import Write
from bot.storage.vacations import DAY, year_of
from bot.tables.change import Change
from bot.tables.core import Tables
from bot.tables.move_reply import addressed
from bot.tables.notices import nonce_of
from engine import Game


@dataclass
class DaySpent:
    """A vacation day spent for a seat whose bank ran out: what the table is told, and the writes
    that spend it (to commit with the table's change)."""

    text: str
    write: Write


class VacationDays:
    """What stops a deadline: vacations, declared or spent on an empty bank."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.store = tables.store
        self.clock = tables.clock

    async def moved(self, table: TableRecord, game: Game, current: list[Timer], seat: int, deadline: float) -> bool:
        """Whether `seat`'s deadline is no longer `deadline`, or its player is away now (a
        vacation began since it was planned): its reminders wait for the deadline to be planned
        again."""
        off = (await self.tables.unavailable(table)).get(seat)
        if not off:
            return False
        now = self.clock.now()
        if any(start <= now < end for start, end in off):
            return True
        change = await self.tables.change(table, game, current)
        ends = change.runs_out(seat)
        return ends is not None and abs(ends - deadline) > 1e-6

    async def still_in_time(self, change: Change, late: list[int], now: float) -> tuple[list[int], list[DaySpent]]:
        """Of the seats whose deadline fell due, those whose time is really up; the others' clocks
        were stopped since (a vacation), or their bank ran out and a vacation day is spent for
        them now (the days, to commit with the change)."""
        table = change.table
        out: list[int] = []
        away: list[DaySpent] = []
        for seat in late:
            ends = change.runs_out(seat)
            if ends is not None and ends > now + 1e-6 and (change.bank is not None or change.off.get(seat)):
                continue
            user_id = table.seats[seat].user_id
            if change.bank is not None and user_id and table.guild and allows_vacations(table):
                allowance = (await self.store.settings(table.guild)).vacation_days
                spent = await self.store.vacations.days_spent(table.guild, user_id, year_of(now))
                if spent < allowance:
                    change.off[seat] = [*change.off.get(seat, []), (now, now + DAY)]
                    text = _("🏖️ {player}'s bank ran out, so a vacation day is spent: their clocks stop for 24 hours in "
                             "all their games here (back {when}; {left} vacation days left this year).").format(
                        player=name_token(table.seats[seat].name), when=deadline_token(now + DAY),
                        left=allowance - spent - 1)
                    away.append(DaySpent(text, self.store.vacations.spend_day(table.guild, user_id, now, allowance,
                                                                              at_table=table.id)))
                    continue
            out.append(seat)
        return out, away

    async def plan_again(self, table: TableRecord, game: Game, current: list[Timer], timer: Timer) -> None:
        """A `REPLAN` timer fired: plan the table's clock again (a player's time off changed
        elsewhere) in one commit that deletes the timer, so it is done once whichever process
        fires it (StaleLog if another did)."""
        assert timer.id is not None
        change = await self.tables.change(table, game, current)
        change.plan()
        await self.tables.commit(change, spent=timer.id)

    async def hold_over(self, change: Change, timer: Timer, away: list[DaySpent]) -> Reply | None:
        """No seat's time is up: plan the clock again (its deadlines now later), spending the
        vacation days `away` says, announced at the table, all in one commit that also deletes
        the timer that fired (so it is done once, whichever process fires it)."""
        assert timer.id is not None
        table, game = change.table, change.game
        change.plan()
        now = self.clock.now()
        notices = [self.tables.notice(table, game, day.text, kind="vacation", now=now) for day in away]
        await self.tables.commit(change, notices=notices, also=writes_of(away), spent=timer.id)
        if not notices:
            return None
        text = "\n".join(n.text for n in notices)
        reply = Reply(public=Message(text, nonce=nonce_of(notices[0])), table_id=table.id, place=table.place,
                      notices=[n.id for n in notices if n.id], ply=len(game.log), status=table.status)
        return addressed(reply, table, game)


def writes_of(days: list[DaySpent]) -> Write | None:
    """The writes spending these days, one after the other in one transaction (None: no day)."""
    if not days:
        return None

    async def write(db: Sql) -> None:
        for day in days:
            await day.write(db)

    return write
