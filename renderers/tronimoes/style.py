"""The look of Tronimoes pictures: tile styles, tints, and the fixed palette PNGs are stored in.

Every colour the board and hand images paint comes from here, so the palette can list them all
(and the soft edges between the pairs that meet) and PNG encoding can map each pixel to its
own colour exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from PIL import Image

from renderers.common import (
    BOARD,
    DEAD,
    GRID_LINE,
    HIGHLIGHT,
    INK,
    MUTED,
    NEUTRAL,
    PAPER,
    RGB,
    SEAT_COLOURS,
    WHITE,
    blend_palette,
    ink_on,
    mix,
    palette_image,
    seat_colour,
)
from renderers.dominoes import TileStyle
from renderers.palettes import Palette, mono, register, set_grey

LEADER_STYLE = TileStyle(NEUTRAL, WHITE, INK, NEUTRAL)
"""The round leader belongs to nobody: neutral frame, white face."""
FREE_STYLE = TileStyle(NEUTRAL, WHITE, INK, NEUTRAL)
"""Free lines are everybody's: the same neutral look as the leader."""
DEAD_FACE, DEAD_PIPS = (0xEC, 0xEC, 0xEC), (0x9C, 0x9C, 0x9C)
DEAD_STYLE = TileStyle(DEAD, DEAD_FACE, DEAD_PIPS, DEAD)
"""Dead lines: grey all through, pips still readable."""
DIM_FRAME, DIM_FACE, DIM_PIPS = (0x8C, 0x8C, 0x8C), (0xF0, 0xF0, 0xF0), (0x55, 0x55, 0x55)
DIM_STYLE = TileStyle(DIM_FRAME, DIM_FACE, DIM_PIPS, DIM_FRAME)
"""A hand tile that cannot be played now."""
GONE_CARD = (0xEE, 0xEE, 0xEE)
"""A dead or departed seat's card in the header."""
SPACER_FILL, SPACER_STRIPE = (0xF7, 0xEE, 0xD6), (0xC9, 0xBD, 0xA0)
register("tronimoes", Palette("tronimoes", "seats", tuple(SEAT_COLOURS), (
    ("board", BOARD), ("paper", PAPER), ("white", WHITE), ("ink", INK), ("neutral", NEUTRAL), ("dead", DEAD),
    ("highlight", HIGHLIGHT), ("spacer", SPACER_FILL))))
"""The seats' colours are drawn as tile frames on the board, badges on tiles and white, cards on
the paper; beside them the leader's and free lines' neutral, dead lines' grey, the highlight."""
for _colour, _grey in ((DEAD_FACE, 230), (DEAD_PIPS, 110), (DIM_FRAME, 110), (DIM_FACE, 240), (DIM_PIPS, 60),
                       (GONE_CARD, 225), (SPACER_FILL, 250), (SPACER_STRIPE, 170)):
    set_grey(_colour, _grey)


def seat_style(seat: int) -> TileStyle:
    """A living player line: the seat's colour as frame and divider, a faint tint on the face."""
    colour = seat_colour(seat)
    return TileStyle(colour, face_tint(colour), INK, colour)


def playable_style(seat: int) -> TileStyle:
    """A hand tile that can be played now: the seat's colour round a white face."""
    colour = seat_colour(seat)
    return TileStyle(colour, WHITE, INK, colour)


FACE, CARD, RESERVED = 0.16, 0.10, 0.30
"""How much of a seat's colour tints its tiles' faces, its header card and its reserved square."""


def face_tint(colour: RGB) -> RGB:
    """A player's tile face: white in the high-contrast look."""
    return WHITE if mono() else mix(WHITE, colour, FACE)


def card_tint(colour: RGB) -> RGB:
    """A player's header card: white in the high-contrast look."""
    return WHITE if mono() else mix(WHITE, colour, CARD)


def reserved_tint(colour: RGB) -> RGB:
    """A reserved foot square: white in the high-contrast look."""
    return WHITE if mono() else mix(WHITE, colour, RESERVED)


def _colours() -> list[RGB]:
    seats = [colour for _, colour in SEAT_COLOURS]
    flat = [PAPER, BOARD, GRID_LINE, MUTED, INK, WHITE, HIGHLIGHT, DEAD, NEUTRAL, DEAD_FACE, DEAD_PIPS,
            DIM_FRAME, DIM_FACE, DIM_PIPS, GONE_CARD, SPACER_FILL, SPACER_STRIPE]
    tints = {colour: (mix(WHITE, colour, FACE), mix(WHITE, colour, CARD), mix(WHITE, colour, RESERVED))
             for colour in seats}
    for colour in seats:
        flat += [colour, *tints[colour]]
    text = [(INK, PAPER, 3), (INK, BOARD, 3), (INK, WHITE, 3), (MUTED, PAPER, 2), (MUTED, GONE_CARD, 2),
            (INK, GONE_CARD, 2), (INK, HIGHLIGHT, 2), (INK, SPACER_FILL, 2), (DEAD_PIPS, DEAD_FACE, 2),
            (DIM_PIPS, DIM_FACE, 2), (DEAD, BOARD, 2), (DEAD, DEAD_FACE, 1), (DIM_FRAME, PAPER, 2),
            (DIM_FRAME, DIM_FACE, 1), (NEUTRAL, BOARD, 2), (NEUTRAL, WHITE, 2), (NEUTRAL, HIGHLIGHT, 1),
            (HIGHLIGHT, BOARD, 1), (GRID_LINE, BOARD, 1), (DEAD, PAPER, 1), (SPACER_STRIPE, SPACER_FILL, 1),
            (WHITE, BOARD, 2), (INK, DEAD, 2)]
    blends: list[tuple[RGB, RGB, int]] = list(text)
    for colour in seats:
        face, card, reserved = tints[colour]
        blends += [(INK, face, 3), (INK, card, 3), (colour, BOARD, 2), (colour, face, 1), (colour, WHITE, 2),
                   (ink_on(colour), colour, 2), (INK, colour, 2), (colour, HIGHLIGHT, 1), (colour, PAPER, 1),
                   (colour, reserved, 1)]
    return blend_palette(flat, blends)


@lru_cache(maxsize=1)
def colours() -> tuple[RGB, ...]:
    """Every colour Tronimoes pictures are stored with (fewer than 256)."""
    return tuple(_colours())


@lru_cache(maxsize=1)
def base_palette() -> Image.Image:
    return palette_image(list(colours()))


def palette(pictures: Iterable[Image.Image] = ()) -> Image.Image:
    """The palette for one image: the fixed colours, plus the spare entries chosen for the
    players' own pictures (foot images) when there are any."""
    shown = []
    for picture in pictures:
        small = picture.convert("RGBA")
        small.thumbnail((64, 64), Image.Resampling.LANCZOS)
        flat = Image.new("RGB", small.size, WHITE)
        flat.paste(small, (0, 0), small)
        shown.append(flat)
    if not shown:
        return base_palette()
    sheet = Image.new("RGB", (sum(p.width for p in shown), max(p.height for p in shown)), WHITE)
    left = 0
    for picture in shown:
        sheet.paste(picture, (left, 0))
        left += picture.width
    return palette_image(list(colours()), sheet, spare=256 - len(colours()))


def foot_pictures(feet: Mapping[int, Image.Image], seats: Iterable[int]) -> list[Image.Image]:
    """The pictures of `seats` that have one, in seat order."""
    return [feet[s] for s in sorted(set(seats)) if s in feet]


def cell_size(columns: int) -> int:
    """Pixels per square for a board `columns` wide: the grid is about 1024 pixels wide (64 per
    square on the 16-column six-player board), 48 to 96 per square."""
    return max(48, min(96, 1024 // columns))
