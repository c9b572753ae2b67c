"""The timer dispatcher: one task that fires durable deadlines and reminders as they fall due.

Timers are rows in the store, so they survive a restart. The dispatcher sleeps until the earliest
one falls due and hands it to whoever fires it (the clock duties). The clock is injected.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.core import metrics
from bot.core.background import Background
from bot.core.clock import Clock, settle
from bot.core.records import Timer

log = logging.getLogger(__name__)


class TimerSource(Protocol):
    async def due_timers(self, now: float) -> list[Timer]:
        """Timers due at or before `now`, earliest first."""
        ...


class TimerDispatcher:
    """One task that fires due timers in order. `wake()` makes it look again at once (call it
    after writing a timer that may be earlier than the one it sleeps for)."""

    RECHECK_SECONDS = 300.0
    RETRY_SECONDS = 60.0

    def __init__(self, store: TimerSource, clock: Clock, fire: Callable[[Timer], Awaitable[None]]) -> None:
        self.store = store
        self.clock = clock
        self.fire = fire
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._failed: dict[int, float] = {}
        self.background = Background(self._run, "tileref-timers")

    def start(self) -> None:
        self.background.start()

    async def stop(self) -> None:
        await self.background.stop()

    def wake(self) -> None:
        self._idle.clear()
        self._wake.set()

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait (in real time) until nothing is due at the clock's current time and the
        dispatcher is asleep: after `ManualClock.advance`, every timer due has fired."""

        async def settled() -> None:
            while True:
                await settle()
                await self._idle.wait()
                if await self._next_wake() > self.clock.now():
                    return
                self.wake()

        await asyncio.wait_for(settled(), timeout)

    async def _next_wake(self) -> float:
        """When there is next something to fire: the earliest due timer, or a failed timer's
        retry time, looking at most RECHECK_SECONDS ahead."""
        now = self.clock.now()
        horizon = now + self.RECHECK_SECONDS
        upcoming = await self.store.due_timers(horizon)
        times = [max(t.due, self._failed.get(t.id or 0, 0.0)) for t in upcoming]
        return min([horizon, *times])

    async def run_due(self) -> int:
        """Fire every timer due now; returns how many fired."""
        now = self.clock.now()
        fired = 0
        due = await self.store.due_timers(now)
        live = {t.id for t in due}
        self._failed = {key: when for key, when in self._failed.items() if key in live}
        for timer in due:
            assert timer.id is not None
            if self._failed.get(timer.id, 0) > now:
                continue
            metrics.timer_lag.observe(max(0.0, now - timer.due))
            try:
                await self.fire(timer)
                self._failed.pop(timer.id, None)
                fired += 1
            except Exception:
                log.exception("timer %s failed; retrying in %ss", timer, self.RETRY_SECONDS)
                self._failed[timer.id] = now + self.RETRY_SECONDS
        return fired

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            await self.run_due()
            delay = max(0.0, await self._next_wake() - self.clock.now())
            sleeper = asyncio.ensure_future(self.clock.sleep(delay))
            waker = asyncio.ensure_future(self._wake.wait())
            self._idle.set()
            try:
                await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                self._idle.clear()
                for task in (sleeper, waker):
                    task.cancel()
