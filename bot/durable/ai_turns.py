"""AI seats' turns as durable work, played by a worker after the command that led to them.

When the game waits for an AI seat, the command's commit records an AI turn (a timer of kind
`AI_TURN`, due at once) with the log length it is for. `AiTurns`, which every process runs,
claims due AI turns in the store with a lease (so two processes never plan the same one; a
process that dies leaves it to another when the lease ends), has the seat's move planned in the
process pool (`bot.workers.planning`), and has it played (`AiMoves.play`), which plays it
under the table's lock only if that very AI turn is still current: one AI move per commit, the
commit spending the AI turn, so a move is played once however many processes try. A result
planned on a position that has changed since (a rollback, a kick, an abort, a pause, a
resignation, a person's move) is dropped; if the seat is still to move, its new AI turn is
planned again.

The AI moves up to the next person's turn are announced together, in one message with the board
as it then is (a run that goes on for longer than `split_after` seconds is announced in parts).
Each move's announcement is in the outbox from its commit on, so a crash loses none of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.core import logs, metrics
from bot.core.background import Background, woken
from bot.core.clock import settle
from bot.core.i18n import speaking
from bot.core.records import AI_TURN, Timer
from bot.core.replies import LONGEST_ANNOUNCEMENT, Reply
from bot.durable.ai_moves import AiMoves
from bot.durable.ai_runs import AiMove, told_together
from bot.tables.core import Tables
from bot.workers.planning import PlanningPool

log = logging.getLogger(__name__)

DEFAULT_AI_LEASE = 45.0
"""Seconds an AI turn stays with the process that claimed it (longer than any plan: 30 s at most)."""
SPLIT_AFTER = 10.0
"""Seconds after which a long run of AI moves is announced so far, the rest later."""


@dataclass
class Run:
    """AI moves of one table committed but not yet announced."""

    moves: list[AiMove] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)


class AiTurns:
    """The worker: plays due AI turns, at most as many at once as the pool has processes.
    `thinking(place, name)` is told when a seat starts thinking (Discord: the typing indicator;
    the terminal: "Pip is thinking…"). `wake()` makes it look for work at once (after a commit
    that recorded an AI turn); it also looks every `poll` seconds, for turns other processes
    left behind."""

    def __init__(self, tables: Tables, pool: PlanningPool, announce: Callable[[Reply], Awaitable[None]], *,
                 ai_seconds: float, lease: float = DEFAULT_AI_LEASE, split_after: float = SPLIT_AFTER,
                 poll: float = 1.0) -> None:
        self.tables = tables
        self.store = tables.store
        self.clock = tables.clock
        self.moves = AiMoves(tables, announce, ai_seconds=ai_seconds, split_after=split_after)
        self.pool = pool
        self.lease = lease
        self.split_after = split_after
        self.poll = poll
        self.thinking: Callable[[str, str], Awaitable[None]] | None = None
        self._busy: dict[tuple[int, int], asyncio.Task[None]] = {}
        """AI turns being played here, by table and AI turn (a turn recorded again for the same
        position, after a pause, is another one: the first is then stale)."""
        self._unplanned: set[tuple[int, int]] = set()
        """Those of them not yet planned (each takes, or waits for, a planning process)."""
        self._claiming = 0
        self._runs: dict[int, Run] = {}
        self._announcing: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        """One announcement of a table's AI moves at a time; a command waits for the one under way."""
        self._wake = asyncio.Event()
        self.background = Background(self._loop, "tileref-ai")
        tables.on_commit(self._committed)
        tables.before_finish(self.flush)  # AI moves made before a command are announced before it

    def _committed(self, timers: list[Timer] | None) -> None:
        """A commit that recorded an AI turn wakes the worker (one that may or may not have been
        stored is left to the worker's own look, every `poll` seconds)."""
        if timers and any(t.kind == AI_TURN for t in timers):
            self.wake()

    def start(self) -> None:
        self.background.start()

    async def stop(self) -> None:
        await self.background.stop()
        for task in list(self._busy.values()):
            task.cancel()
        for task in list(self._busy.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def wake(self) -> None:
        self._wake.set()

    async def idle(self, timeout: float = 60.0) -> None:
        """Wait (in real time) until no AI turn is due and none is being played here: every AI
        move the games wait for has been played and announced."""

        async def settled() -> None:
            while True:
                await settle()
                if self._busy:
                    await asyncio.wait(list(self._busy.values()))
                    continue
                if self._claiming or await self.claim() or self._busy:
                    await asyncio.sleep(0.005)
                    continue
                await self._flush_orphans()
                return

        await asyncio.wait_for(settled(), timeout)

    async def claim(self) -> int:
        """Claim as many due AI turns as there are idle planning processes and start playing
        them; returns how many were started."""
        free = self.pool.size - len(self._unplanned)
        if free <= 0:
            return 0
        self._claiming += 1
        try:
            claimed = await self.store.claim_ai_turns(self.clock.now(), self.lease, free, places=self.tables.places)
        finally:
            self._claiming -= 1
        started = 0
        for turn in claimed:
            key = (turn.table_id, turn.id or 0)
            if key in self._busy:
                continue
            self._unplanned.add(key)
            task = asyncio.ensure_future(self._play(turn))
            self._busy[key] = task
            metrics.ai_queue.inc()
            task.add_done_callback(lambda _t, key=key: self._done(key))
            started += 1
        return started

    def _done(self, key: tuple[int, int]) -> None:
        if self._busy.pop(key, None) is not None:
            metrics.ai_queue.dec()
        self._unplanned.discard(key)
        self.wake()

    async def _loop(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.claim()
                await self._flush_orphans()
            except Exception:
                log.warning("looking for AI turns failed; trying again in %ss", self.poll, exc_info=True)
            await woken(self._wake, self.poll)

    async def _play(self, turn: Timer) -> None:
        """Plan and play one AI turn, and announce the run it ends."""
        with logs.scope("ai turn", table=turn.table_id, fresh=True):
            await self._play_turn(turn)

    async def _play_turn(self, turn: Timer) -> None:
        key = (turn.table_id, turn.id or 0)
        try:
            job = await self.moves.job(turn)
            if job is None:
                await self.flush(turn.table_id)
                return
            if self.thinking is not None:
                try:
                    with speaking(job.language):
                        await self.thinking(job.place, job.name)
                except Exception:
                    log.warning("showing that %s thinks failed", job.name, exc_info=True)
            try:
                action = await self.pool.plan_view(job.view, job.seat, job.agent, job.budget)
            finally:
                self._unplanned.discard(key)
            move = await self.moves.play(turn, action)
        except asyncio.CancelledError:
            raise
        except Exception:
            logs.outcome("error")
            log.exception("AI turn %s failed; it is tried again when its lease ends", turn)
            await self.flush(turn.table_id)
            return
        if move is None:
            logs.outcome("stale")
            log.info("AI turn %s went stale while planning; dropped", turn)
            await self.flush(turn.table_id)
            return
        run = self._runs.setdefault(turn.table_id, Run())
        if run.moves and len(told_together([*run.moves, move]).text) > LONGEST_ANNOUNCEMENT:
            # what fits in one message first (none is cut to fit). The move starts the next run at
            # once, before anything is awaited: a later AI move committed meanwhile joins the run
            # after it, never before it (runs are told in the order of the log)
            earlier, run = run, Run(moves=[move])
            self._runs[turn.table_id] = run
            await self._announce(turn.table_id, earlier)
        else:
            run.moves.append(move)
        if move.more and time.monotonic() - run.started < self.split_after:
            await self.claim()
            if any(k[0] == turn.table_id and k != key for k in self._busy):
                return  # the table's next AI turn is played here: the run goes on
        await self.flush(turn.table_id)  # else announce it now (the next turn went to another process)

    async def _flush_orphans(self) -> None:
        """Announce the runs no AI turn played here goes on with (their table's next AI turn went
        elsewhere, or its game ended by other means)."""
        for table_id in [t for t in self._runs if not any(k[0] == t for k in self._busy)]:
            await self.flush(table_id)

    async def flush(self, table_id: int) -> None:
        """Announce the table's AI moves not yet announced, as one message. A command calls it
        before it commits (`Tables.finish`): it returns once every AI move committed before the
        command has been announced, one being announced meanwhile included, so the thread keeps
        the order of the log."""
        async with self._announcing_lock(table_id):
            run = self._runs.pop(table_id, None)
            if run is not None:
                await self._told(table_id, run)

    async def _announce(self, table_id: int, run: Run) -> None:
        """Announce `run`, already taken off the table's runs, after any announcement under way."""
        async with self._announcing_lock(table_id):
            await self._told(table_id, run)

    def _announcing_lock(self, table_id: int) -> asyncio.Lock:
        lock = self._announcing.get(table_id)
        if lock is None:
            lock = self._announcing[table_id] = asyncio.Lock()
        return lock

    async def _told(self, table_id: int, run: Run) -> None:
        """Announce a run's moves as one message (the announcing lock held)."""
        if not run.moves:
            return
        try:
            await self.moves.announce(run.moves)
        except Exception:
            log.exception("announcing AI moves of table %s failed; the outbox sends them", table_id)
