"""The clock's duties: firing due deadlines and reminders, and announcing what they did.

The timer dispatcher (`timers`) wakes whenever a commit leaves the table timers.

A deadline is when a seat's clock runs out as last planned; before it makes a seat's timeout move,
the duty asks `bot.durable.vacation_days` whether the seat's time is really up: its player may
have gone on vacation since, or have a vacation day to spend on an empty bank. Only a seat whose
bank and vacation are both spent times out."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.community.notifications import late_ping, reminder_messages
from bot.core import logs
from bot.core.i18n import _
from bot.core.meta import BEGAN
from bot.core.records import DEADLINE, LATE_PING, PLAYING, REMINDER, REPLAN, TableRecord, Timer
from bot.core.refusals import Refused
from bot.core.replies import Message, Reply, deadline_token, mention, name_token
from bot.durable.timers import TimerDispatcher
from bot.durable.vacation_days import VacationDays, writes_of
from bot.storage.store import StaleLog, StaleTable
from bot.storage.vacations import VacationTaken
from bot.tables.absence import time_ran_out
from bot.tables.core import Tables
from bot.tables.move_reply import addressed
from bot.tables.notices import nonce_of
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
        self.vacations = VacationDays(tables)
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
            if timer.kind == REPLAN:
                await self.vacations.plan_again(table, game, current, timer)
                return None
            turn = self._turn(table, game, timer.seat)
            if timer.kind == LATE_PING:
                if turn is None or turn[1] != timer.ply:  # the turn it was for is over
                    await self.store.delete_timer(timer.id)
                    return None
                deadline = next((t.due for t in current if t.kind == DEADLINE and t.seat == timer.seat), None)
                who = mention(seat.user_id, seat.name) if seat.user_id else name_token(seat.name)
                text = (_("🔔 {player}, it is your turn (until {when}).").format(player=who,
                                                                               when=deadline_token(deadline))
                        if deadline is not None else _("🔔 {player}, it is your turn.").format(player=who))
                direct, ping = await late_ping(self.store, table, timer.seat, deadline, self.clock.now(), turn)
                if not direct and not ping:  # pinged meanwhile, or quiet again: nothing to say
                    await self.store.delete_timer(timer.id)
                    return None
                return await self._tell(table, game, timer, text, "ping", direct, ping)
            if timer.kind == REMINDER:
                deadline = next((t.due for t in current if t.kind == DEADLINE and t.seat == timer.seat), None)
                if deadline is None or deadline <= self.clock.now() or await self.vacations.moved(
                        table, game, current, timer.seat, deadline):
                    await self.store.delete_timer(timer.id)
                    return None
                who = mention(seat.user_id, seat.name) if seat.user_id else name_token(seat.name)
                text = _("⏰ {player}, your turn ends {when}.").format(player=who, when=deadline_token(deadline))
                direct, ping = await reminder_messages(self.store, table, timer.seat, deadline, self.clock.now(),
                                                       turn or [game.turn_count(), timer.ply])
                return await self._tell(table, game, timer, text, "reminder", direct, ping)
            now = self.clock.now()
            late = sorted({t.seat for t in current if t.kind == DEADLINE and t.due <= now and t.seat in game.to_move()}
                          | {timer.seat})
            change = await self.tables.change(table, game, current)
            late, away = await self.vacations.still_in_time(change, late, now)
            if not late:  # nobody's time is up after all: the clock is planned again
                return await self.vacations.hold_over(change, timer, away)
            # every seat whose time ran out: one announcement (a phase that ends); what it does
            # depends on the table (the game's own rule at two seats, `absent=` at three or more)
            ran_out = time_ran_out(change, late)
            headline = "\n".join([*(day.text for day in away), ran_out])
            return await self.tables.finish(change, headline=headline, also=writes_of(away))

    @staticmethod
    def _turn(table: TableRecord, game: Game, seat: int) -> list[int] | None:
        """The turn `seat` is in (the game's turn number and the move its clock started at), or
        None if its clock is not running."""
        began = table.meta.get(BEGAN) or {}
        entry = began.get(str(seat)) if isinstance(began, dict) else None
        return None if entry is None else [game.turn_count(), int(entry[0])]

    async def _tell(self, table: TableRecord, game: Game, timer: Timer, text: str, kind: str,
                    direct: dict[int, str], ping: bool) -> Reply:
        """Post `text` at the table (pinging the timer's player by their mention if `ping`) and
        `direct`'s private messages, committed with the table (whose notes of who was pinged this
        turn may have changed) in one commit that deletes the timer: once, whichever process fires it."""
        assert timer.id is not None
        seat = table.seats[timer.seat]
        now = self.clock.now()
        notice = self.tables.notice(table, game, text, kind=kind,
                                     mentions=[seat.user_id] if seat.user_id and ping else [], now=now)
        notices = [notice, *(self.tables.notice(table, game, note, seat=s, kind="private", now=now)
                             for s, note in direct.items())]
        await self.store.commit(table.id, expected=len(game.log), table=table, delete_timer=timer.id,
                                notices=notices)
        nonces = {n.seat: nonce_of(n) for n in notices}
        reply = Reply(public=Message(text, nonce=nonces[None]),
                      private={s: Message(note, nonce=nonces[s]) for s, note in direct.items()},
                      table_id=table.id, place=table.place, notices=[n.id for n in notices if n.id],
                      mentions=list(notice.mentions), ply=len(game.log), status=table.status)
        return addressed(reply, table, game)
