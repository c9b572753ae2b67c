"""The clock's duties: firing due deadlines and reminders, and announcing what they did.

The timer dispatcher (`timers`) wakes whenever a commit leaves the table timers.

A deadline is when a seat's clock runs out as last planned; before it makes a seat's timeout
move, the duty asks the clock again (`Change.runs_out`), for the player may have gone on vacation
since (their clock stopped), and at a bank table a seat whose bank is empty spends a vacation day
if its player has one left this year (Little Golem's rule: it adds 24 h to all their games on the
server). Only a seat whose bank and vacation are both spent times out."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.community.notifications import reminder_messages
from bot.community.vacations import allows_vacations
from bot.core import logs
from bot.core.i18n import _
from bot.core.records import DEADLINE, PLAYING, REMINDER, TableRecord, Timer
from bot.core.refusals import Refused
from bot.core.replies import Message, Reply, deadline_token, mention, name_token
from bot.durable.timers import TimerDispatcher
from bot.storage.sql import Sql
from bot.storage.store import StaleLog, StaleTable
from bot.storage.vacations import DAY, VacationTaken, year_of
from bot.tables.change import Change
from bot.tables.core import Tables
from bot.tables.move_reply import addressed
from bot.tables.notices import nonce_of
from bot.words import narration
from engine import Game

log = logging.getLogger(__name__)


class ClockDuties:
    """Fires the timers its dispatcher hands it; `announce` delivers what they did."""

    def __init__(self, tables: Tables, announce: Callable[[Reply], Awaitable[None]]) -> None:
        self.tables = tables
        self.store = tables.store
        self.clock = tables.clock
        self.announce = announce
        self.timers = TimerDispatcher(tables.store, tables.clock, self.on_timer)
        tables.on_commit(self._committed)

    def _committed(self, timers: list[Timer] | None) -> None:
        """A commit that left the table timers (or may have) wakes the dispatcher."""
        if timers is None or timers:
            self.timers.wake()

    async def on_timer(self, timer: Timer) -> None:
        """Fire a due deadline or reminder and announce what it did (nothing if another process
        or a move handled it first)."""
        with logs.scope(f"clock {timer.kind}", table=timer.table_id, fresh=True):
            await self._on_timer(timer)

    async def _on_timer(self, timer: Timer) -> None:
        assert timer.id is not None
        table = await self.store.get_table(timer.table_id)
        if table is None or table.status != PLAYING or table.paused:
            await self.store.delete_timer(timer.id)
            return
        try:
            reply = await self._fire(table.place, timer)
        except (StaleLog, StaleTable, VacationTaken):
            logs.outcome("stale")
            log.info("timer %s was handled elsewhere first", timer.id)
            return
        except Refused:  # the game ended or stopped meanwhile (another process): its timers go with it
            logs.outcome("refused")
            log.info("timer %s belongs to a game that is no longer played; dropped", timer.id)
            await self.store.delete_timer(timer.id)
            return
        if reply is not None:
            await self.announce(reply)

    async def _fire(self, place: str, timer: Timer) -> Reply | None:
        assert timer.id is not None
        async with self.tables.lock(place):
            table, game = await self.tables.playing(place)
            current = await self.tables.table_timers(table)
            if timer.id not in {t.id for t in current}:
                return None
            if timer.seat not in game.to_move():
                await self.store.delete_timer(timer.id)
                return None
            seat = table.seats[timer.seat]
            if timer.kind == REMINDER:
                deadline = next((t.due for t in current if t.kind == DEADLINE and t.seat == timer.seat), None)
                if deadline is None or deadline <= self.clock.now() or await self._moved(table, game, current,
                                                                                         timer.seat, deadline):
                    await self.store.delete_timer(timer.id)
                    return None
                who = mention(seat.user_id, seat.name) if seat.user_id else name_token(seat.name)
                text = _("⏰ {player}, your turn ends {when}.").format(player=who, when=deadline_token(deadline))
                now = self.clock.now()
                notice = self.tables.notice(table, game, text, kind="reminder",
                                             mentions=[seat.user_id] if seat.user_id else [], now=now)
                direct = await reminder_messages(self.store, table, timer.seat, deadline)
                notices = [notice, *(self.tables.notice(table, game, note, seat=s, kind="private", now=now)
                                     for s, note in direct.items())]
                await self.store.commit(table.id, expected=len(game.log), delete_timer=timer.id, notices=notices)
                nonces = {n.seat: nonce_of(n) for n in notices}
                reply = Reply(public=Message(text, nonce=nonces[None]),
                              private={s: Message(note, nonce=nonces[s]) for s, note in direct.items()},
                              table_id=table.id, place=table.place, notices=[n.id for n in notices if n.id],
                              mentions=list(notice.mentions), ply=len(game.log), status=table.status)
                return addressed(reply, table, game)
            now = self.clock.now()
            late = sorted({t.seat for t in current if t.kind == DEADLINE and t.due <= now and t.seat in game.to_move()}
                          | {timer.seat})
            change = await self.tables.change(table, game, current)
            late, away = await self._vacation_days(change, late, now)
            if not late:  # nobody's time is up after all: the clock is planned again
                return await self._held_over(change, timer, away)
            for late_seat in late:  # every seat whose time ran out: one announcement (a phase that ends)
                if late_seat in change.game.to_move():
                    change.time_out(late_seat, "clock")
            names = narration.join([name_token(table.seats[s].name) for s in late])
            headline = "\n".join([*(text for text, _write in away), _("⏰ {players} ran out of time.").format(
                players=names)])
            return await self.tables.finish(change, headline=headline, also=_all([w for _text, w in away]))

    # ---- what stops a deadline: vacations -----------------------------------------------------

    async def _moved(self, table: TableRecord, game: Game, current: list[Timer], seat: int,
                     deadline: float) -> bool:
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

    async def _vacation_days(self, change: Change, late: list[int],
                             now: float) -> tuple[list[int], list[tuple[str, Callable[[Sql], Awaitable[None]]]]]:
        """Of the seats whose deadline fell due, those whose time is really up; the others' clocks
        were stopped since (a vacation), or their bank ran out and a vacation day is spent for
        them now: its announcement and the writes that spend it, to commit with the change."""
        table = change.table
        out: list[int] = []
        away: list[tuple[str, Callable[[Sql], Awaitable[None]]]] = []
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
                    away.append((text, self.store.vacations.spend_day(table.guild, user_id, now, allowance)))
                    continue
            out.append(seat)
        return out, away

    async def _held_over(self, change: Change, timer: Timer,
                         away: list[tuple[str, Callable[[Sql], Awaitable[None]]]]) -> Reply | None:
        """No seat's time is up: plan the clock again (its deadlines now later), spending the
        vacation days `away` says, announced at the table, all in one commit that also deletes
        the timer that fired (so it is done once, whichever process fires it)."""
        assert timer.id is not None
        table, game = change.table, change.game
        change.plan()
        now = self.clock.now()
        notices = [self.tables.notice(table, game, text, kind="vacation", now=now) for text, _write in away]
        await self.tables.commit(change, notices=notices, also=_all([w for _text, w in away]), spent=timer.id)
        if not notices:
            return None
        text = "\n".join(n.text for n in notices)
        reply = Reply(public=Message(text, nonce=nonce_of(notices[0])), table_id=table.id, place=table.place,
                      notices=[n.id for n in notices if n.id], ply=len(game.log), status=table.status)
        return addressed(reply, table, game)


def _all(writes: list[Callable[[Sql], Awaitable[None]]]) -> Callable[[Sql], Awaitable[None]] | None:
    """The writes made one after the other in one transaction (None when there are none)."""
    if not writes:
        return None

    async def write(db: Sql) -> None:
        for each in writes:
            await each(db)

    return write
