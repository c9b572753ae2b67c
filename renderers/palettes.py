"""Every game's colours, listed so they can be checked, and the high-contrast look.

Each game's renderer registers the colours that tell its players (or teams, or pieces) apart,
with the backgrounds and marks they are drawn on or next to (`register`). `PALETTES` then holds
them all: tests/renderers/test_palettes.py checks that every pair stays apart, and every colour
stands off every background, under simulated protanopia, deuteranopia and tritanopia, and
`python bench/palettes.py` prints the distances.

A table may ask for the high-contrast look (`palette=mono`): the pictures drawn while
`drawing_in("mono")` (or after `use_palette("mono")`) paint every seat in ink, tell seats apart
by what is not colour (numbers, letters, dashes), and are stored in greys only. The mode is a
context variable, like the table's language: the bot sets it where it reads a table.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass

RGB = tuple[int, int, int]

NORMAL = "normal"
MONO = "mono"
MODES = (NORMAL, MONO)
"""The looks a table may ask for: `palette=normal` (the colours) or `palette=mono`."""

_mode: contextvars.ContextVar[str] = contextvars.ContextVar("tileref_palette", default=NORMAL)


def use_palette(mode: str | None) -> None:
    """Draw in `mode` from now on in this task (anything but "mono" is the normal look)."""
    _mode.set(MONO if mode == MONO else NORMAL)


@contextlib.contextmanager
def drawing_in(mode: str | None) -> Iterator[None]:
    """Draw in `mode` inside the `with` block."""
    token = _mode.set(MONO if mode == MONO else NORMAL)
    try:
        yield
    finally:
        _mode.reset(token)


def current_palette() -> str:
    """The look being drawn: "normal" or "mono"."""
    return _mode.get()


def mono() -> bool:
    """Whether the high-contrast look is being drawn."""
    return _mode.get() == MONO


@dataclass(frozen=True)
class Palette:
    """The colours a game tells its `what` apart by (seats, teams, pieces), each named, and the
    colours they are drawn on or beside (`backgrounds`: the board, tiles, paper, ink, other
    marks), each named too."""

    game: str
    what: str
    colours: tuple[tuple[str, RGB], ...]
    backgrounds: tuple[tuple[str, RGB], ...]


PALETTES: dict[str, Palette] = {}
"""Every registered palette, by its name (a game's, or `common` for the shared seat colours)."""


def register(name: str, palette: Palette) -> Palette:
    """List `palette` under `name` (a renderer does it when it is imported)."""
    PALETTES[name] = palette
    return palette


# ---------------------------------------------------------------------------------------------
# The high-contrast look: greys only

_recipes: dict[RGB, tuple[RGB, RGB, float]] = {}
"""Colours that are a blend of two others (soft edges), as `blend_palette` made them."""
_greys: dict[RGB, int] = {}
"""Colours whose grey in the high-contrast look is chosen, not computed from their lightness."""


def note_blend(colour: RGB, a: RGB, b: RGB, amount: float) -> None:
    """`colour` is `a` moved `amount` of the way to `b`: its grey is the same blend of theirs."""
    _recipes.setdefault(colour, (a, b, amount))


def set_grey(colour: RGB, grey: int) -> None:
    """In the high-contrast look `colour` becomes this grey (0 black .. 255 white)."""
    _greys[colour] = grey


def luminance_grey(colour: RGB) -> int:
    """The grey of `colour`'s lightness (Rec. 601 luma), pushed apart: light colours lighter,
    dark ones darker, so a picture in greys keeps its contrast."""
    r, g, b = colour
    luma = (299 * r + 587 * g + 114 * b) / 1000
    pushed = (luma - 128) * 1.25 + 128
    return max(0, min(255, round(pushed)))


def grey_of(colour: RGB, depth: int = 0) -> int:
    """The grey `colour` is stored as in the high-contrast look: a chosen grey, or the blend of
    the greys of the two colours it was blended from, or its own lightness."""
    if colour in _greys:
        return _greys[colour]
    recipe = _recipes.get(colour)
    if recipe is not None and depth < 4:
        a, b, amount = recipe
        ga, gb = grey_of(a, depth + 1), grey_of(b, depth + 1)
        return round(ga + (gb - ga) * amount)
    return luminance_grey(colour)
