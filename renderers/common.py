"""What every game renderer shares: the palette, fonts, a labelled grid canvas, PNG encoding,
and the `render` / `render_hand` entries that dispatch on the game's name.

Everything here is pure: a function takes values and returns an image or bytes. Words are drawn
by `renderers.text` (its fonts and fitting are re-exported here).
"""

from __future__ import annotations

import inspect
import io
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from PIL import Image, ImageDraw

from engine.core import Term
from renderers.text import COLOUR_GLYPHS, digit_height, draw_text, note_page

if TYPE_CHECKING:
    from engine.core import Game

RGB = tuple[int, int, int]

# ---------------------------------------------------------------------------------------------
# Palette

SEAT_COLOURS: list[tuple[str, RGB]] = [
    ("blue", (0x00, 0x72, 0xB2)),
    ("vermillion", (0xD5, 0x5E, 0x00)),
    ("sky blue", (0x56, 0xB4, 0xE9)),
    ("reddish purple", (0xCC, 0x79, 0xA7)),
    ("orange", (0xE6, 0x9F, 0x00)),
    ("bluish green", (0x00, 0x9E, 0x73)),
]
"""Seat i plays in colour i: six Okabe–Ito colours (yellow left out: too pale on a light board),
ordered so that the first k seats are as far apart as possible for every k, for normal vision
and simulated protanopia, deuteranopia and tritanopia (Machado et al. 2009; the closest pair
of all six is still ~16 CIELAB ΔE apart under every simulation)."""

NEUTRAL: RGB = (0x33, 0x33, 0x33)
"""Lines that belong to nobody: the round leader and free lines."""
DEAD: RGB = (0xC0, 0xC0, 0xC0)
"""Dead lines."""
INK: RGB = (0x1E, 0x1E, 0x1E)
"""Text and pips."""
PAPER: RGB = (0xF6, 0xF3, 0xEC)
"""The page behind everything."""
BOARD: RGB = (0xE2, 0xDA, 0xC6)
"""The playing area."""
GRID_LINE: RGB = (0xCB, 0xC1, 0xA9)
"""Lines between squares."""
MUTED: RGB = (0x6B, 0x66, 0x5C)
"""Secondary text."""
HIGHLIGHT: RGB = (0xFF, 0xD8, 0x1F)
"""The last move and playable tiles: a yellow no seat uses."""
WHITE: RGB = (0xFF, 0xFF, 0xFF)


def seat_colour(seat: int) -> RGB:
    """The RGB colour of a seat (seats beyond six reuse the palette)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)][1]


def seat_colour_name(seat: int) -> str:
    """The colour's name, for text ("vermillion")."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)][0]


def mix(colour: RGB, other: RGB, amount: float) -> RGB:
    """`colour` moved `amount` (0..1) of the way towards `other`."""
    return (round(colour[0] + (other[0] - colour[0]) * amount),
            round(colour[1] + (other[1] - colour[1]) * amount),
            round(colour[2] + (other[2] - colour[2]) * amount))


def ink_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on `colour`."""
    r, g, b = colour
    luminance = 0.299 * r + 0.587 * g + 0.114 * b
    return INK if luminance > 150 else WHITE


# ---------------------------------------------------------------------------------------------
# Words in the table's language


def _as_written(text: str) -> str:
    return text


translate: Callable[[str], str] = _as_written
"""How a picture's words are said at the table being served: English as written, unless the bot
sets its catalogs' lookup here (`bot.i18n` does). Pictures mark their words with `N_` and pass
them through `say`."""


def N_(text: str) -> str:
    """Mark a picture's words for the catalogs; returns them as they are."""
    return text


def say(text: str) -> str:
    """`text` (marked with `N_`, or a game's `Term`) in the language of the table being served."""
    if isinstance(text, Term):
        return text.say(translate)
    return translate(text)


# ---------------------------------------------------------------------------------------------
# Legible in a chat's preview

PREVIEW_WIDTH = 550
"""Discord first shows a picture posted in a message scaled down (never up) to fit its preview,
550 pixels wide (and 350 high); the picture opens at full size only when clicked. The width is
our reading of Discord's desktop and web clients; bench/legibility.py measures both limits."""
LEGIBLE_DIGITS = 9
"""The height in pixels every picture's smallest digits keep once it is scaled to PREVIEW_WIDTH:
as tall as those of the Tronimoes board's smallest text (25 pixels on a board 1,068 wide)."""


def preview_scale(width: int) -> float:
    """How much a picture `width` pixels wide is scaled down to the preview's width."""
    return min(1.0, PREVIEW_WIDTH / max(1, width))


@lru_cache(maxsize=256)
def legible(size: int, width: int) -> int:
    """`size`, or the smallest text size above it whose digits stay LEGIBLE_DIGITS pixels tall
    once a picture `width` pixels wide is scaled to PREVIEW_WIDTH."""
    scale = preview_scale(width)
    while digit_height(size) * scale < LEGIBLE_DIGITS:
        size += 1
    return size


def fitted_cell(base: int, smallest: int, columns: float, rows: float, room: tuple[float, float]) -> int:
    """Pixels per cell for a grid `columns` × `rows` cells big: `base`, or smaller (never below
    `smallest`) so that the grid fits in `room` (width, height), and the picture around it stays
    about the preview's size as the board grows (its texts then keep their size, and stay
    legible in the preview)."""
    return max(smallest, min(base, int(room[0] / max(columns, 1)), int(room[1] / max(rows, 1))))


# ---------------------------------------------------------------------------------------------
# A labelled grid


def column_label(x: int) -> str:
    """The letter naming column x in notation: a, b, c, ..."""
    return chr(ord("a") + x)


@dataclass(frozen=True)
class GridLayout:
    """Where a columns x rows grid of `cell`-pixel squares lies in an image. Square (x, y) is
    column x from the left, row y from the top; the labels around it name it `a1` for (0, 0)."""

    columns: int
    rows: int
    cell: int
    left: int
    top: int

    @property
    def margin(self) -> int:
        """Width of the label band on each side of the grid."""
        return max(24, self.cell * 9 // 16)

    @property
    def right(self) -> int:
        return self.left + self.columns * self.cell

    @property
    def bottom(self) -> int:
        return self.top + self.rows * self.cell

    @property
    def width(self) -> int:
        """Width of the grid with its label bands."""
        return self.columns * self.cell + 2 * self.margin

    @property
    def height(self) -> int:
        """Height of the grid with its label bands."""
        return self.rows * self.cell + 2 * self.margin

    def box(self, x: int, y: int) -> tuple[int, int, int, int]:
        """The pixel box (left, top, right, bottom) of square (x, y), right/bottom exclusive."""
        left, top = self.left + x * self.cell, self.top + y * self.cell
        return left, top, left + self.cell, top + self.cell

    def centre(self, x: int, y: int) -> tuple[float, float]:
        left, top, _, _ = self.box(x, y)
        return left + self.cell / 2, top + self.cell / 2


def grid_layout(columns: int, rows: int, cell: int, *, top: int = 0, left: int = 0) -> GridLayout:
    """A grid whose label bands start at (left, top) of the image."""
    probe = GridLayout(columns, rows, cell, 0, 0)
    return GridLayout(columns, rows, cell, left + probe.margin, top + probe.margin)


def draw_grid(image: Image.Image, layout: GridLayout) -> None:
    """The playing area, its square lines and the labels of every column (top and bottom) and
    row (left and right), so a player can read any square's name off the image."""
    draw = ImageDraw.Draw(image)
    draw.rectangle((layout.left, layout.top, layout.right - 1, layout.bottom - 1), fill=BOARD)
    for x in range(1, layout.columns):
        px = layout.left + x * layout.cell
        draw.line((px, layout.top, px, layout.bottom - 1), fill=GRID_LINE, width=1)
    for y in range(1, layout.rows):
        py = layout.top + y * layout.cell
        draw.line((layout.left, py, layout.right - 1, py), fill=GRID_LINE, width=1)
    draw.rectangle((layout.left - 2, layout.top - 2, layout.right + 1, layout.bottom + 1), outline=MUTED, width=2)
    size = max(14, layout.cell * 13 // 32)
    half = layout.margin / 2
    for x in range(layout.columns):
        cx = layout.left + (x + 0.5) * layout.cell
        for cy in (layout.top - half, layout.bottom + half):
            draw_text(image, (cx, cy), column_label(x), size, INK, anchor="mm", bold=True)
    for y in range(layout.rows):
        cy = layout.top + (y + 0.5) * layout.cell
        for cx in (layout.left - half, layout.right + half):
            draw_text(image, (cx, cy), str(y + 1), size, INK, anchor="mm", bold=True)


@lru_cache(maxsize=16)
def _grid_base(columns: int, rows: int, cell: int, header: int) -> Image.Image:
    layout = grid_layout(columns, rows, cell, top=header)
    image = Image.new("RGB", (layout.width, header + layout.height), PAPER)
    draw_grid(image, layout)
    return image


def grid_canvas(columns: int, rows: int, cell: int, *, header: int = 0) -> tuple[Image.Image, GridLayout]:
    """A fresh RGB image: a `header`-pixel band on top (paper colour) above a labelled grid.
    The drawn grid is cached, so asking again costs one copy."""
    return _grid_base(columns, rows, cell, header).copy(), grid_layout(columns, rows, cell, top=header)


# ---------------------------------------------------------------------------------------------
# PNG

PALETTE_SIZE = 256


def blend_palette(flat: Iterable[RGB], blends: Iterable[tuple[RGB, RGB, int]]) -> list[RGB]:
    """The colours a picture is made of: every `flat` colour, and for each blend (a, b, steps)
    `steps` evenly spaced colours between a and b (the soft edges where a meets b). Duplicates
    are dropped; the order is fixed, so the palette is too."""
    colours: dict[RGB, None] = dict.fromkeys(flat)
    for a, b, steps in blends:
        for k in range(1, steps + 1):
            colours.setdefault(mix(a, b, k / (steps + 1)))
    if len(colours) > PALETTE_SIZE:
        raise ValueError(f"a palette holds {PALETTE_SIZE} colours, not {len(colours)}")
    return list(colours)


def palette_image(colours: list[RGB], extra: Image.Image | None = None, spare: int = 0) -> Image.Image:
    """A "P" image carrying `colours` (then up to `spare` colours chosen for `extra`, an RGB
    picture such as a player's foot image), for `encode_png(palette=...)`."""
    entries = list(colours)
    if extra is not None and spare > 0:
        reduced = extra.convert("RGB").quantize(colors=spare, method=Image.Quantize.FASTOCTREE,
                                                dither=Image.Dither.NONE)
        raw = reduced.getpalette() or []
        used = sorted({int(index) for _, index in (reduced.getcolors(spare) or [])
                       if isinstance(index, int)})
        entries += [(raw[3 * i], raw[3 * i + 1], raw[3 * i + 2]) for i in used][: PALETTE_SIZE - len(entries)]
    flat = [channel for colour in entries for channel in colour]
    flat += list(entries[0]) * (PALETTE_SIZE - len(entries))
    holder = Image.new("P", (1, 1))
    holder.putpalette(flat)
    return holder


def _with_colour_glyphs(palette: Image.Image, glyphs: list[Image.Image]) -> Image.Image:
    """`palette` with its unused entries given to the colours of `glyphs` (emoji in names)."""
    flat = palette.getpalette() or []
    used = list(dict.fromkeys(tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)))
    if not glyphs or len(used) > PALETTE_SIZE - 8:
        return palette
    sheet = Image.new("RGB", (sum(g.width for g in glyphs), max(g.height for g in glyphs)), WHITE)
    left = 0
    for glyph in glyphs:
        sheet.paste(glyph, (left, 0), glyph)
        left += glyph.width
    return palette_image([(r, g, b) for r, g, b in used], sheet, spare=PALETTE_SIZE - len(used))


def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes for `image`, with no metadata or timestamp, so the same picture always gives the
    same bytes. With a `palette` (see `palette_image`) every pixel becomes its nearest palette
    colour (no dithering) and the PNG is stored with 8-bit indices: several times smaller and
    faster to write than RGB."""
    note_page(image)
    if palette is not None and image.mode == "RGB":
        palette = _with_colour_glyphs(palette, image.info.get(COLOUR_GLYPHS, []))
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=4)
    return out.getvalue()


# ---------------------------------------------------------------------------------------------
# Dispatch


class GameRenderer(Protocol):
    """What a game's renderer module provides."""

    def board(self, game: Any, viewer: int | None = None, *,
              feet: Mapping[int, Image.Image] | None = None) -> bytes:
        """The public board; a renderer may also take `deadline` (see `render`)."""

    def hand(self, game: Any, seat: int) -> bytes: ...

    def text(self, game: Any, colour: bool = False) -> str: ...

    def describe_parts(self, game: Any, view: dict[str, Any]) -> list[Any]:
        """The position in words, as `renderers.description.Part`s (see `renderers.describe`)."""

    def spoken_groups(self, game: Any, seat: int) -> list[Any]:
        """`seat`'s legal moves grouped to be read aloud (`renderers.spoken.Group`s)."""

    LEGEND: str


RENDERERS: dict[str, GameRenderer] = {}
"""Game name -> its renderer module (filled in by `renderers/__init__.py`)."""


class NoRenderer(LookupError):
    """There is no renderer for this game."""


def renderer_for(game: Game) -> GameRenderer:
    """The renderer of `game`, or NoRenderer naming the games that have one."""
    try:
        return RENDERERS[game.name]
    except KeyError:
        known = ", ".join(sorted(RENDERERS)) or "none"
        raise NoRenderer(f"no board renderer for the game {game.name!r} (renderers exist for: {known})") from None


def render(game: Game, viewer: int | None = None, *, feet: Mapping[int, Image.Image] | None = None,
           deadline: float | None = None) -> bytes:
    """The public board of any game with a renderer, as PNG bytes. `viewer` only emphasises
    that seat; no hidden information is ever drawn. `feet` maps seats to pictures where the
    game has a use for them (Tronimoes: the chicken-foot image). `deadline` (seconds since the
    epoch) is when the turn or phase shown ends, for games whose header shows it."""
    draw: Any = renderer_for(game).board
    if deadline is not None and "deadline" in inspect.signature(draw).parameters:
        return bytes(draw(game, viewer, feet=feet, deadline=deadline))
    return bytes(draw(game, viewer, feet=feet))


def _moment_as_written(moment: float) -> str:
    return time.strftime("%a %d %b %H:%M UTC", time.gmtime(moment))


moment_text: Callable[[float], str] = _moment_as_written
"""How a picture writes a moment at the table being served: in English, unless the bot sets its
locale-aware formatting here (`bot.i18n` does, through Babel)."""


def deadline_text(deadline: float) -> str:
    """A moment as a picture's header shows it: "Tue 27 Nov 14:05 UTC" (in the table's language)."""
    return moment_text(deadline)


def render_hand(game: Game, seat: int) -> bytes:
    """`seat`'s private hand image (PNG bytes), for that player's eyes only."""
    return renderer_for(game).hand(game, seat)


@lru_cache(maxsize=16)
def hatch_tile(size: int, background: RGB, ink: RGB) -> Image.Image:
    """A `size`-pixel square of diagonal hatching (a cleared row, No Man's Land)."""
    tile = Image.new("RGB", (size, size), background)
    lines = ImageDraw.Draw(tile)
    for offset in range(-size - 2, size + 2, 7):
        lines.line((offset, size, offset + size, 0), fill=ink, width=2)
    return tile


_TERMINAL_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def pad_to(text: str, width: int, *, gap: int = 0) -> str:
    """`text` followed by spaces up to `width` columns on a terminal, and at least `gap`: the
    colour codes in it take no room."""
    return text + " " * max(gap, width - len(_TERMINAL_COLOUR.sub("", text)))


def text_board(game: Game, colour: bool = False, *, legend: bool = False) -> str | None:
    """The game's board as text for a terminal (ANSI colours if `colour`; with the key to its
    tags if `legend`), or None if the game has no renderer."""
    module = RENDERERS.get(game.name)
    if module is None:
        return None
    board = module.text(game, colour)
    return f"{board}\n{say(module.LEGEND)}" if legend else board
