"""Keeping Python's garbage collector from pausing the bot.

A busy process holds thousands of games in memory (`TILEREF_GAME_CACHE`), half a million
objects or more, and each of Python's full collections walks all of them: 140 ms with 2,500
Tronimoes games, a pause every move in flight waits through. The games are long-lived and free
of reference cycles (refcounting frees an evicted one at once), so the process moves what has
survived into the collector's permanent generation (`gc.freeze`): automatic collections then
walk only what was made since. Moves keep making long-lived objects, so Python's own oldest-
generation collections would grow again (to 50 ms within 10 seconds at 150 moves a second);
what survives each of them is frozen too, so each walks only what the last few seconds made.
Every `every` seconds one full collection runs over everything (anything cyclic is freed) and
the survivors are frozen again.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

from bot.core.background import Background

log = logging.getLogger(__name__)

FULL_COLLECTION_EVERY = 600.0
"""Seconds between the full collections the process makes itself."""


class CollectorMaintenance:
    """The process's garbage-collection schedule (one per process, started once it serves)."""

    def __init__(self, every: float = FULL_COLLECTION_EVERY) -> None:
        self.every = every
        self.background = Background(self._run, "tileref-gc")

    def start(self) -> None:
        self.collect()
        gc.callbacks.append(_freeze_after_oldest)
        self.background.start()

    async def stop(self) -> None:
        await self.background.stop()
        if _freeze_after_oldest in gc.callbacks:
            gc.callbacks.remove(_freeze_after_oldest)
        gc.unfreeze()

    @staticmethod
    def collect() -> float:
        """Collect everything, then freeze what survived; returns the seconds it took."""
        begin = time.perf_counter()
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        took = time.perf_counter() - begin
        log.debug("full collection: %.0f ms, %d objects frozen", took * 1000, gc.get_freeze_count())
        return took

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.collect()


def _freeze_after_oldest(phase: str, info: dict[str, int]) -> None:
    """After each collection of the oldest generation, freeze what survived it."""
    if phase == "stop" and info["generation"] == 2:
        gc.freeze()
