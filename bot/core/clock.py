"""Time, injected: `SystemClock` in production, `ManualClock` in tests, which never sleeps."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """Wall-clock time (seconds since the epoch)."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class ManualClock:
    """A clock that only moves when told: `await clock.advance(3600)` wakes every sleeper whose
    time has come, in order, and lets them run before returning."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._counter = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._counter), future))
        await future

    def next_wake(self) -> float | None:
        """When the earliest sleeper still waiting wakes (None: nobody sleeps): how far a
        simulation may advance the clock before some task has work to do."""
        while self._sleepers and self._sleepers[0][2].done():  # a sleep cancelled or already woken
            heapq.heappop(self._sleepers)
        return self._sleepers[0][0] if self._sleepers else None

    async def advance(self, seconds: float) -> None:
        target = self._now + seconds
        while self._sleepers and self._sleepers[0][0] <= target:
            wake_at, _, future = heapq.heappop(self._sleepers)
            self._now = max(self._now, wake_at)
            if not future.done():
                future.set_result(None)
            await settle()
        self._now = target
        await settle()


async def settle(rounds: int = 20) -> None:
    """Let ready tasks run (a few event-loop turns)."""
    for _round in range(rounds):
        await asyncio.sleep(0)


