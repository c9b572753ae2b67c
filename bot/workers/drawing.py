"""Board pictures drawn in a process of their own, for announcements nobody is waiting on (the
AI seats' runs): drawing a picture takes tens of milliseconds of Python, which in the bot's own
process would hold up every other table's commands meanwhile (even from a thread: they share
one interpreter lock).

The worker gets a copy of the game (pickled), the language being spoken and the look being drawn
(the table's `palette=`), and answers with the PNG bytes of its public board, exactly as
`renderers.render` draws it in the bot for that table (nothing hidden is drawn: the renderers
draw from the public view).
"""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from PIL import Image

import renderers
from bot.core.i18n import current_language, speaking
from bot.workers.pools import stop_now, worker_pool
from engine import Game
from renderers.palettes import NORMAL, current_palette, drawing_in

T = TypeVar("T")


def draw(copy: bytes, viewer: int | None, feet: Mapping[int, Image.Image] | None, deadline: float | None) -> bytes:
    """In the worker: the public board picture of a pickled game."""
    return renderers.render(pickle.loads(copy), viewer, feet=feet, deadline=deadline)


def _spoken(language: str, function: Callable[..., T], args: tuple[Any, ...], palette: str = NORMAL) -> T:
    """In the worker: `function(*args)`, its words in `language`, its pictures in `palette`'s look."""
    with speaking(language), drawing_in(palette):
        return function(*args)


class DrawingPool:
    """One worker process drawing pictures (started on first use), in the language being spoken
    where it is asked."""

    def __init__(self) -> None:
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = worker_pool(1, preload=["engine", "renderers", "bot.core.i18n", "bot.workers.drawing"])
        return self._executor

    async def render(self, game: Game, viewer: int | None = None, *, feet: Mapping[int, Image.Image] | None = None,
                     deadline: float | None = None) -> bytes:
        """`renderers.render(game, …)` in the language being spoken, drawn in the worker (`game`
        is copied at once)."""
        return await self.call(draw, pickle.dumps(game), viewer, feet, deadline)

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        """`function(*args)` run in the worker, in the language being spoken and the look being
        drawn (`function` must be
        a module-level function; it and `args` are pickled at once)."""
        language, palette = current_language(), current_palette()
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), _spoken, language, function, args, palette)
        except BrokenProcessPool:
            self._executor = None
            return await loop.run_in_executor(self._pool(), _spoken, language, function, args, palette)

    def close(self) -> None:
        if self._executor is not None:
            stop_now(self._executor)
            self._executor = None
