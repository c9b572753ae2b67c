"""What every game renderer shares: the palette, fonts, a labelled grid canvas, PNG encoding,
and the `render` / `render_hand` entries that dispatch on the game's name.

Everything here is pure: a function takes values and returns an image or bytes. Nothing reads
files or the system's fonts; text uses Pillow's bundled scalable font.
"""

from __future__ import annotations

import inspect
import io
import re
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PIL import Image, ImageDraw, ImageFont

from engine.core import Term

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
# Fonts


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at `size` pixels: the first choice for every character it
    has (see `fonts` for the rest)."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow without FreeType
        raise RuntimeError("the board renderer needs Pillow built with FreeType")
    return loaded


ASSETS = Path(__file__).resolve().parent / "assets"
WIDE_FONT = ASSETS / "DejaVuSans.ttf"
"""Bundled with tileref: Latin, Greek and Cyrillic in full (and much else)."""
CJK_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf",
    "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/arphic/uming.ttc",
    "/System/Library/Fonts/PingFang.ttc",
    "C:/Windows/Fonts/msyh.ttc",
)
"""System fonts for Chinese, Japanese and Korean, used where one is installed (the Docker image
installs Noto Sans CJK); the first that exists is taken."""
PLACEHOLDER = "□"
"""Drawn for a character no font has, so nothing in a name silently disappears."""


@lru_cache(maxsize=1)
def _font_files() -> tuple[str, ...]:
    files = [str(WIDE_FONT)] if WIDE_FONT.exists() else []
    cjk = next((path for path in CJK_FONTS if Path(path).exists()), None)
    return (*files, cjk) if cjk else tuple(files)


@lru_cache(maxsize=64)
def fonts(size: int) -> tuple[ImageFont.FreeTypeFont, ...]:
    """Every font at `size`, in the order they are tried for a character: Pillow's own, the
    bundled wide one, then a system CJK font if there is one."""
    return (font(size), *(ImageFont.truetype(path, size) for path in _font_files()))


_PROBE = 24
_MISSING = "\U0010fffd"  # a private-use code point no font draws: its glyph is the font's "missing" box


def _glyph(face: ImageFont.FreeTypeFont, text: str) -> bytes:
    image = Image.new("L", (2 * _PROBE, 2 * _PROBE), 0)
    ImageDraw.Draw(image).text((4, 4), text, fill=255, font=face)
    return image.tobytes()


@lru_cache(maxsize=32768)
def _has(index: int, char: str) -> bool:
    """Whether font `index` of `fonts` has a glyph for `char`."""
    if char.isspace() or unicodedata.category(char).startswith(("M", "C")):
        return True
    face = fonts(_PROBE)[index]
    drawn = _glyph(face, char)
    return drawn != _glyph(face, _MISSING) and any(drawn)


def _runs(text: str) -> list[tuple[int, str]]:
    """`text` cut into runs drawn with one font each (font index, characters). A word is drawn in
    the first font that has all its letters (so "Zoë" is not a patchwork); otherwise letter by
    letter; a character no font has becomes PLACEHOLDER."""
    count = len(fonts(_PROBE))
    runs: list[tuple[int, str]] = []

    def add(index: int, chars: str) -> None:
        if runs and runs[-1][0] == index:
            runs[-1] = (index, runs[-1][1] + chars)
        else:
            runs.append((index, chars))

    for word in re.split(r"(\s+)", unicodedata.normalize("NFC", text)):
        whole = next((i for i in range(count) if all(_has(i, ch) for ch in word)), None)
        if whole is not None:
            add(whole, word)
            continue
        for char in word:
            index = next((i for i in range(count) if _has(i, char)), None)
            if index is None:
                add(min(1, count - 1), PLACEHOLDER)
            else:
                add(index, char)
    return runs


def _needs_fallback(text: str) -> bool:
    return any(ch not in _PLAIN for ch in text)


@lru_cache(maxsize=2048)
def text_width(text: str, size: int, *, bold: bool = False) -> int:
    """How wide `text` is drawn at `size` (bold adds the stroke)."""
    stroke = 1 if bold else 0
    if not _needs_fallback(text):
        left, _, right, _ = font(size).getbbox(text, stroke_width=stroke)
        return int(right - left)
    faces = fonts(size)
    return int(sum(faces[i].getlength(run) for i, run in _runs(text))) + 2 * stroke


@lru_cache(maxsize=1024)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """`text` rendered once as a coverage mask, with the offset of its top left from the anchor."""
    stroke = 1 if bold else 0
    if not _needs_fallback(text):
        left, top, right, bottom = (int(v) for v in font(size).getbbox(text, anchor=anchor, stroke_width=stroke))
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font(size), anchor=anchor,
                                  stroke_width=stroke, stroke_fill=255 if bold else None)
        return mask, left, top
    return _mixed_mask(text, size, stroke, anchor)


def _mixed_mask(text: str, size: int, stroke: int, anchor: str) -> tuple[Image.Image, int, int]:
    """A mask of `text` drawn run by run in the fonts that have its characters, on a shared
    baseline; the anchor is placed as Pillow would for the primary font's metrics."""
    faces = fonts(size)
    ascent, descent = font(size).getmetrics()
    runs = _runs(text)
    width = int(sum(faces[i].getlength(run) for i, run in runs)) + 2 * stroke + 2
    above = max([ascent, *(faces[i].getmetrics()[0] for i, _ in runs)]) + stroke + 1
    below = max([descent, *(faces[i].getmetrics()[1] for i, _ in runs)]) + stroke + 1
    mask = Image.new("L", (max(1, width), above + below), 0)
    draw = ImageDraw.Draw(mask)
    x = float(stroke)
    for index, run in runs:
        draw.text((x, above), run, fill=255, font=faces[index], anchor="ls", stroke_width=stroke,
                  stroke_fill=255 if stroke else None)
        x += faces[index].getlength(run)
    horizontal = {"l": 0.0, "m": -x / 2, "r": -x}[anchor[0]]
    vertical = {"a": ascent, "t": ascent, "m": (ascent - descent) / 2, "s": 0, "b": -descent,
                "d": -descent}[anchor[1]]
    return mask, round(horizontal - stroke), round(vertical - above)


def draw_text(image: Image.Image, xy: tuple[float, float], text: str, size: int, colour: RGB, *,
              anchor: str = "la", bold: bool = False) -> None:
    """Draw `text` on `image` with its `anchor` point at `xy` (Pillow anchors: "mm" centres it,
    "lm" puts the left end's middle there). Any script a font here has is drawn in it (names in
    Greek, Cyrillic, CJK…); a character none has is drawn as a box. Rendered runs are cached."""
    if not text:
        return
    mask, left, top = _text_mask(text, size, bold, anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    image.paste(colour, (x, y, x + mask.width, y + mask.height), mask)


_PLAIN = frozenset(chr(c) for c in range(32, 127))
"""Characters Pillow's own font draws (the quick path: no fallback needed)."""


def drawable(text: str, fallback: str = "?") -> str:
    """`text` ready to draw: spaces normalised, control characters dropped; `fallback` if nothing
    is left. Every other character is kept: `draw_text` finds a font for it or draws a box."""
    kept = "".join(ch for ch in text if not unicodedata.category(ch).startswith("C"))
    kept = " ".join(kept.split())
    return kept or fallback


def fit_text(text: str, size: int, width: int, *, bold: bool = False) -> str:
    """`text`, cut with an ellipsis if needed so that it is at most `width` pixels wide."""
    if text_width(text, size, bold=bold) <= width:
        return text
    while text and text_width(text + "…", size, bold=bold) > width:
        text = text[:-1]
    return text + "…"


def wrap_text(text: str, size: int, width: int, *, bold: bool = False, lines: int = 2) -> list[str]:
    """`text` broken at spaces into at most `lines` lines of at most `width` pixels (the last
    one cut with an ellipsis if the text is longer still); [] for empty text."""
    result: list[str] = []
    words = text.split()
    while words and len(result) < lines:
        line = words.pop(0)
        while words and text_width(line + " " + words[0], size, bold=bold) <= width:
            line += " " + words.pop(0)
        result.append(line)
    if words:
        result[-1] = fit_text(result[-1] + " " + " ".join(words), size, width, bold=bold)
    return [fit_text(line, size, width, bold=bold) for line in result]


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


def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes for `image`, with no metadata or timestamp, so the same picture always gives the
    same bytes. With a `palette` (see `palette_image`) every pixel becomes its nearest palette
    colour (no dithering) and the PNG is stored with 8-bit indices: several times smaller and
    faster to write than RGB."""
    if palette is not None and image.mode == "RGB":
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


def text_board(game: Game, colour: bool = False, *, legend: bool = False) -> str | None:
    """The game's board as text for a terminal (ANSI colours if `colour`; with the key to its
    tags if `legend`), or None if the game has no renderer."""
    module = RENDERERS.get(game.name)
    if module is None:
        return None
    board = module.text(game, colour)
    return f"{board}\n{say(module.LEGEND)}" if legend else board
