"""Pictures drawn off the event loop (the referee's drawing thread, the drawing process) speak
the language of the table being served, as pictures drawn in place do."""

from __future__ import annotations

import renderers
from bot.core.clock import ManualClock
from bot.core.i18n import speaking
from bot.workers.drawing import DrawingPool
from engine import GAMES
from renderers.palettes import drawing_in
from tests.bot.referees import running_referee


def spanish_table():
    return GAMES["tronix"].new(2, seed=3)


def drawn_in(language: str) -> bytes:
    with speaking(language):
        return renderers.render(spanish_table(), None)


def test_a_spanish_picture_differs_from_the_english_one():
    assert drawn_in("es") != drawn_in("en")


async def test_the_drawing_process_draws_in_the_language_being_spoken():
    pool = DrawingPool()
    try:
        with speaking("es"):
            drawn = await pool.render(spanish_table(), None)
    finally:
        pool.close()
    assert drawn == drawn_in("es")


async def test_the_referees_drawing_thread_draws_in_the_language_being_spoken(tmp_path):
    async with running_referee(tmp_path / "t.sqlite3", ManualClock(), render=True) as referee:
        with speaking("es"):
            [picture] = await referee.tables.pictures.board(spanish_table(), 1, deadlines={})
    assert picture.data == drawn_in("es")


async def test_the_drawing_process_draws_in_the_look_being_drawn():
    """A table with `palette=mono` gets its AI seats' boards, drawn in the process, in greys too."""
    pool = DrawingPool()
    try:
        with drawing_in("mono"):
            drawn = await pool.render(spanish_table(), None)
            here = renderers.render(spanish_table(), None)
        plain = await pool.render(spanish_table(), None)
    finally:
        pool.close()
    assert drawn == here and plain == renderers.render(spanish_table(), None) and drawn != plain
