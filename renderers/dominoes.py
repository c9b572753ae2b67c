"""Domino sprites: tile bodies and pip faces, drawn once per size and style and then pasted.

A tile covers two square cells. Its body is a rounded rectangle in the style's frame colour with
a face inside and a divider between the halves; each half carries a pip face. Pips 0–9 use the
standard domino dot layouts; 10 and up are written as a bold numeral, because ten or more dots
cannot be counted at a glance.

Sprites are drawn at four times their size and reduced, so edges are smooth, and cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers.common import RGB
from renderers.text import font

SCALE = 4
"""Sprites are drawn this many times larger, then reduced (smooth edges)."""

DOTS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
    7: ((0, 0), (0, 1), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)),
    8: ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)),
    9: tuple((x, y) for y in range(3) for x in range(3)),
}
"""Dot positions (column, row on a 3×3 grid) of each pip count on a half of an upright tile."""

MAX_DOTS = 9
"""Above this a half shows a numeral instead of dots."""


@dataclass(frozen=True)
class TileStyle:
    """How a tile looks: its frame (the line's colour), face, pips and divider."""

    frame: RGB
    face: RGB
    pips: RGB
    divider: RGB


def inset(cell: int) -> int:
    """Gap between a tile's edge and its square's edge."""
    return max(2, cell // 20)


def frame_width(cell: int) -> int:
    """Thickness of the coloured frame round a tile."""
    return max(3, cell // 9)


@lru_cache(maxsize=256)
def body(style: TileStyle, cell: int, horizontal: bool) -> Image.Image:
    """The RGBA body of a tile spanning two cells (no pips), `2*cell - 2*inset` long."""
    gap = inset(cell)
    long, short = 2 * cell - 2 * gap, cell - 2 * gap
    w, h = (long, short) if horizontal else (short, long)
    big = Image.new("RGBA", (w * SCALE, h * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    radius = cell * SCALE // 6
    draw.rounded_rectangle((0, 0, w * SCALE - 1, h * SCALE - 1), radius=radius, fill=style.frame)
    edge = frame_width(cell) * SCALE
    draw.rounded_rectangle((edge, edge, w * SCALE - 1 - edge, h * SCALE - 1 - edge),
                           radius=max(1, radius - edge), fill=style.face)
    line = max(SCALE * 2, edge // 2)
    reach = edge + SCALE * 2
    if horizontal:
        mid = w * SCALE // 2
        draw.rectangle((mid - line // 2, reach, mid + line // 2, h * SCALE - 1 - reach), fill=style.divider)
    else:
        mid = h * SCALE // 2
        draw.rectangle((reach, mid - line // 2, w * SCALE - 1 - reach, mid + line // 2), fill=style.divider)
    return big.reduce(SCALE)


@lru_cache(maxsize=512)
def pips(value: int, colour: RGB, cell: int, horizontal: bool) -> Image.Image:
    """An RGBA `cell`×`cell` overlay with the pips of `value` centred, to paste on one half.
    Dots follow the standard layouts (turned a quarter for a lying tile); 10+ is a numeral."""
    if value > MAX_DOTS:
        return _numeral(value, colour, cell)
    big = Image.new("RGBA", (cell * SCALE, cell * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    spread = 0.245 * cell * SCALE
    centre = cell * SCALE / 2
    radius = 0.086 * cell * SCALE
    for column, row in DOTS[value]:
        if horizontal:
            column, row = row, 2 - column
        cx = centre + (column - 1) * spread
        cy = centre + (row - 1) * spread
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour)
    return big.reduce(SCALE)


def _numeral(value: int, colour: RGB, cell: int) -> Image.Image:
    """A bold numeral for a pip count above nine, as large as a half allows."""
    big = Image.new("RGBA", (cell * SCALE, cell * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    size = int(cell * SCALE * 0.52)
    draw.text((cell * SCALE / 2, cell * SCALE / 2), str(value), fill=colour, font=font(size), anchor="mm",
              stroke_width=size // 14, stroke_fill=colour)
    return big.reduce(SCALE)


@lru_cache(maxsize=512)
def tile_sprite(style: TileStyle, cell: int, horizontal: bool, values: tuple[int, int]) -> Image.Image:
    """A whole tile (body and pips) as one RGBA sprite: `values[0]` on the left or top half."""
    sprite = body(style, cell, horizontal).copy()
    gap = inset(cell)
    for index, value in enumerate(values):
        if value == 0:
            continue
        face = pips(value, style.pips, cell, horizontal)
        offset = cell * index - gap
        sprite.alpha_composite(face, (offset, -gap) if horizontal else (-gap, offset))
    return sprite


def paste_tile(image: Image.Image, style: TileStyle, cell: int, boxes: tuple[tuple[int, int, int, int], ...],
               values: tuple[int, int]) -> None:
    """Draw a tile whose halves fill the two adjacent square `boxes` (pixel boxes of one cell
    each), `values[i]` pips on `boxes[i]`."""
    (ax, ay, _, _), (bx, by, _, _) = boxes
    horizontal = ay == by
    ordered = values if (ax, ay) <= (bx, by) else (values[1], values[0])
    gap = inset(cell)
    sprite = tile_sprite(style, cell, horizontal, ordered)
    image.paste(sprite, (min(ax, bx) + gap, min(ay, by) + gap), sprite)
