"""A loop that runs as one background task until stopped."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable


class Background:
    """One asyncio task running `loop` (a coroutine function that runs until cancelled)."""

    def __init__(self, loop: Callable[[], Awaitable[None]], name: str) -> None:
        self.loop = loop
        self.name = name
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the task unless it is running."""
        if self._task is None:
            self._task = asyncio.ensure_future(self.loop())
            self._task.set_name(self.name)

    async def stop(self) -> None:
        """Cancel the task and wait for it to end. A cancellation the loop swallowed (Python 3.11's
        `asyncio.wait_for` can, when what it waits for finishes at the same moment) is repeated, so
        stopping never hangs."""
        task, self._task = self._task, None
        while task is not None and not task.done():
            task.cancel()
            await asyncio.wait({task}, timeout=1.0)
        if task is not None and not task.cancelled():
            with contextlib.suppress(Exception):
                task.result()


async def woken(event: asyncio.Event, seconds: float) -> bool:
    """Wait until `event` is set or `seconds` have passed; whether it was set. Cancelling the
    waiter always cancels it (unlike Python 3.11's `asyncio.wait_for`, which may swallow a
    cancellation that comes as the event is set)."""
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        return False
    return True


