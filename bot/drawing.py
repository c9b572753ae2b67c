"""Board pictures drawn in a process of their own, for announcements nobody is waiting on (the
AI seats' runs): drawing a picture takes tens of milliseconds of Python, which in the bot's own
process would hold up every other table's commands meanwhile (even from a thread: they share
one interpreter lock).

The worker gets a copy of the game (pickled) and the language being spoken, and answers with the
PNG bytes of its public board, exactly as `renderers.render` draws it in the bot for that table
(nothing hidden is drawn: the renderers draw from the public view).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import pickle
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from PIL import Image

import renderers
from bot.i18n import current_language, speaking
from engine import Game


def draw(copy: bytes, language: str, viewer: int | None, feet: Mapping[int, Image.Image] | None,
         deadline: float | None) -> bytes:
    """In the worker: the public board picture of a pickled game, its words in `language`."""
    with speaking(language):
        return renderers.render(pickle.loads(copy), viewer, feet=feet, deadline=deadline)


class DrawingPool:
    """One worker process drawing board pictures (started on first use)."""

    def __init__(self) -> None:
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["engine", "renderers", "bot.i18n", "bot.drawing"])
            self._executor = ProcessPoolExecutor(1, mp_context=context)
        return self._executor

    async def render(self, game: Game, viewer: int | None = None, *, feet: Mapping[int, Image.Image] | None = None,
                     deadline: float | None = None) -> bytes:
        """`renderers.render(game, …)` in the language being spoken, drawn in the worker (`game`
        is copied at once)."""
        copy = pickle.dumps(game)
        language = current_language()
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), draw, copy, language, viewer, feet, deadline)
        except BrokenProcessPool:
            self._executor = None
            return await loop.run_in_executor(self._pool(), draw, copy, language, viewer, feet, deadline)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
