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
        """Cancel the task and wait for it to end."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None


