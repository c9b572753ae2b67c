"""Tronimoes pictures: the public board (`board`) and one player's hand (`hand`).

The board is drawn from `game.view(None)` and nothing else, so no hand tile and no bag order
can reach a public image. Squares are labelled as in the notation: column letters along the
top and bottom, row numbers down both sides, `a1` at the top left.

What the board shows (see `draw_board`):
* every tile with its pips, framed in its line's colour: seat colours for player lines, a dark
  neutral for the round leader and free lines, grey for dead lines;
* a gold star on the round leader and a white star on each free-line leader;
* a numbered badge (the seat number, or `F1` for a free line) at each open end of a living line,
  sitting on the edge the line can grow across, and where each line leaves the round leader;
  the same number, smaller, on every joint between two tiles of a line: whose line a tile is on,
  and where the line runs, never rest on its colour alone (nor in the high-contrast look, where
  every line is ink);
* a chicken-footed player's foot picture at the open end of their line, or on the square they
  reserved when they were footed before their line started;
* the spacer while it is down (a white star and arrows at the far end, where the free-line
  leader goes), and a yellow halo round the last tile laid;
* a header: round, leader, bag, whose turn, and per seat the score, hand size and state.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from renderers.common import DEAD, HIGHLIGHT, INK, NEUTRAL, WHITE, GridLayout, encode_png, grid_canvas, seat_colour
from renderers.dominoes import TileStyle, inset, paste_tile
from renderers.glyphs import badge, framed_picture, star
from renderers.palettes import mono
from renderers.text import draw_text, text_width
from renderers.tronimoes import panel
from renderers.tronimoes.style import (
    DEAD_STYLE,
    FREE_STYLE,
    LEADER_STYLE,
    SPACER_FILL,
    SPACER_STRIPE,
    cell_size,
    foot_pictures,
    palette,
    reserved_tint,
    seat_style,
)

if TYPE_CHECKING:
    from engine.tronimoes import Tronimoes

Square = tuple[int, int]
View = Mapping[str, Any]

# ---------------------------------------------------------------------------------------------
# Entry points


def board(game: Tronimoes, viewer: int | None = None, *,
          feet: Mapping[int, Image.Image] | None = None, instructions: bool = True) -> bytes:
    """The public board as PNG bytes. Drawn from `game.view(None)` only; `viewer` merely marks
    that seat as "you" in the header. `feet` gives a picture per seat for the chicken foot.
    `instructions=False`: no words for players only ("Type ready to start round 2")."""
    public = game.view(None)
    image = draw_board(public, you=_checked(public, viewer), feet=feet, instructions=instructions)
    return encode_png(image, palette(foot_pictures(feet or {}, footed_seats(public))))


def board_image(game: Tronimoes, viewer: int | None = None, *,
                feet: Mapping[int, Image.Image] | None = None) -> Image.Image:
    """The public board as an RGB image (see `board`), before PNG encoding."""
    public = game.view(None)
    return draw_board(public, you=_checked(public, viewer), feet=feet)


def _checked(public: View, viewer: int | None) -> int | None:
    if viewer is not None and not 0 <= viewer < len(public["seats"]):
        raise ValueError(f"seat {viewer!r} is not in this {len(public['seats'])}-player game")
    return viewer


def hand(game: Tronimoes, seat: int) -> bytes:
    """`seat`'s hand as PNG bytes: the tiles numbered from 1, the ones playable now highlighted.
    Private: send it to that player only."""
    return encode_png(hand_image(game, seat), palette())


def hand_image(game: Tronimoes, seat: int) -> Image.Image:
    """`seat`'s hand as an RGB image (see `hand`), drawn from `game.view(seat)`."""
    return panel.draw_hand(game.view(seat))


# ---------------------------------------------------------------------------------------------
# Reading the view


def square_xy(name: str) -> Square:
    """`c4` -> (2, 3): column from 0 at the left, row from 0 at the top."""
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


@dataclass(frozen=True)
class Tile:
    """A tile on the board as the public view shows it."""

    pips: tuple[int, int]
    squares: tuple[Square, Square]
    line: int | str
    dead: bool


def read_tiles(view: View) -> list[Tile]:
    """The board's tiles, in the order they were laid."""
    tiles = []
    for entry in view["board"]:
        a, b = entry["tile"].split(":")
        first, second = entry["at"]
        tiles.append(Tile((int(a), int(b)), (square_xy(first), square_xy(second)), entry["line"],
                          bool(entry.get("dead", False))))
    return tiles


def style_of(tile: Tile) -> TileStyle:
    if tile.line == "leader":
        return LEADER_STYLE
    if tile.dead:
        return DEAD_STYLE
    if isinstance(tile.line, int):
        return seat_style(tile.line)
    return FREE_STYLE


def line_colour(key: int | str) -> tuple[int, int, int]:
    return seat_colour(key) if isinstance(key, int) else NEUTRAL


def line_badge_text(key: int | str) -> str:
    """What marks a line on the board: the seat number from 1, or F1, F2... for free lines."""
    return str(key + 1) if isinstance(key, int) else "F" + key[4:]


# ---------------------------------------------------------------------------------------------
# Drawing the board


def draw_board(view: View, *, you: int | None = None,
               feet: Mapping[int, Image.Image] | None = None, instructions: bool = True) -> Image.Image:
    """The board picture for a public view (`Tronimoes.view(None)`). It reads no hand: a view
    with or without `hand` gives the same picture."""
    columns, rows = int(view["width"]), int(view["height"])
    cell = cell_size(columns)
    width = GridLayout(columns, rows, cell, 0, 0).width
    header = panel.Header(view, you, feet or {}, width, instructions=instructions)
    image, layout = grid_canvas(columns, rows, cell, header=header.height)
    header.draw(image)

    tiles = read_tiles(view)
    occupied = {square for tile in tiles for square in tile.squares}
    spacer = _spacer_squares(view)
    heads = _heads(tiles)
    _draw_spacer(image, layout, view)
    _draw_reserved_feet(image, layout, view, feet or {})
    last = view.get("last")
    if last and last.get("kind") == "lay" and len(last.get("squares", ())) == 2:
        _draw_halo(image, layout, tuple(square_xy(s) for s in last["squares"]))
    for tile in tiles:
        boxes = (layout.box(*tile.squares[0]), layout.box(*tile.squares[1]))
        paste_tile(image, style_of(tile), cell, boxes, tile.pips)
    joints = _draw_junctions(image, layout, tiles)
    _draw_leader_marks(image, layout, tiles, joints)
    for line in view["lines"] if view["phase"] == "playing" else ():
        key = line["line"]
        if line["dead"] or not line["started"] or key not in heads:
            continue
        seat = key if isinstance(key, int) else None
        footed = seat is not None and _footed(view, seat)
        for open_name in line["open"]:
            square = square_xy(open_name)
            if footed and seat is not None:
                _draw_foot_at_end(image, layout, heads[key], square, occupied, seat, (feet or {}).get(seat), spacer)
            else:
                _draw_end_badge(image, layout, heads[key], square, occupied, key, spacer)
    return image


def footed_seats(view: View) -> list[int]:
    """Seats whose foot picture is on the board: chicken-footed, alive, while a round is played."""
    return [seat for seat in range(len(view["seats"])) if _footed(view, seat)]


def _footed(view: View, seat: int) -> bool:
    info = view["seats"][seat]
    return (view["phase"] == "playing" and bool(info["footed"]) and not info["dead"]
            and not info.get("resigned", False))


def _heads(tiles: list[Tile]) -> dict[int | str, Tile]:
    """The last tile of every line that has one (free lines start with their leader)."""
    heads: dict[int | str, Tile] = {}
    for tile in tiles:
        if tile.line != "leader":
            heads[tile.line] = tile
    return heads


DIRECTIONS: tuple[Square, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))


def _spacer_squares(view: View) -> set[Square]:
    """The six squares the spacer covers while it is down (none otherwise)."""
    spacer = view.get("spacer")
    if not spacer:
        return set()
    (ax, ay), (bx, by) = square_xy(spacer[0]), square_xy(spacer[1])
    return {(x, y) for x in range(min(ax, bx), max(ax, bx) + 1) for y in range(min(ay, by), max(ay, by) + 1)}


def _outward(tile: Tile, square: Square, occupied: set[Square], layout: GridLayout,
             spacer: set[Square]) -> Square:
    """The side of an open-end square to put its marker on: straight on away from the tile's
    other half if that square is free (no tile, no spacer: a spacer starts next to an open end,
    and a marker on it would hide both), else a free side, else a side off the spacer, else
    straight on."""
    other = tile.squares[1] if tile.squares[0] == square else tile.squares[0]
    ahead = (square[0] - other[0], square[1] - other[1])
    sides = [ahead] + [d for d in DIRECTIONS if d not in (ahead, (-ahead[0], -ahead[1]))]

    def inside(d: Square) -> bool:
        x, y = square[0] + d[0], square[1] + d[1]
        return 0 <= x < layout.columns and 0 <= y < layout.rows

    def off_spacer(d: Square) -> bool:
        return inside(d) and (square[0] + d[0], square[1] + d[1]) not in spacer

    def free(d: Square) -> bool:
        return off_spacer(d) and (square[0] + d[0], square[1] + d[1]) not in occupied

    for test in (free, off_spacer, inside):
        for d in sides:
            if test(d):
                return d
    return ahead


def _edge_point(layout: GridLayout, square: Square, direction: Square, push: float) -> tuple[int, int]:
    """The middle of `square`'s edge facing `direction`, pushed `push` pixels further out."""
    cx, cy = layout.centre(*square)
    reach = layout.cell / 2 + push
    return round(cx + direction[0] * reach), round(cy + direction[1] * reach)


def _paste_centred(image: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    image.paste(sprite, (round(centre[0] - sprite.width / 2), round(centre[1] - sprite.height / 2)), sprite)


def _joint(before: Tile, after: Tile) -> tuple[Square, Square] | None:
    """Where `after` joins `before` on a line: a square of each, side by side, with the same
    pips (the square `after` was laid from first), or None if they do not touch."""
    best = None
    for i, a in enumerate(before.squares):
        for j, b in enumerate(after.squares):
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 and before.pips[i] == after.pips[j]:
                if j == 0:
                    return a, b
                best = best or (a, b)
    return best


def _draw_junctions(image: Image.Image, layout: GridLayout, tiles: list[Tile]) -> list[tuple[float, float]]:
    """On every joint between two tiles of a line, a small badge with the line's number (the
    line's colour, grey once it is dead); where a player's line leaves the round leader, a
    larger one. Returns where the badges are."""
    placed: list[tuple[float, float]] = []
    leader = next((tile for tile in tiles if tile.line == "leader"), None)
    last: dict[int | str, Tile] = {}
    small, large = max(14, layout.cell * 5 // 16), layout.cell * 7 // 16
    for tile in tiles:
        if tile.line == "leader":
            continue
        before = last.get(tile.line)
        if before is None and isinstance(tile.line, int):
            before, size = leader, large
        else:
            size = small
        last[tile.line] = tile
        joint = _joint(before, tile) if before is not None else None
        if joint is None:
            continue
        (ax, ay), (bx, by) = (layout.centre(*joint[0]), layout.centre(*joint[1]))
        colour = DEAD if tile.dead else WHITE if mono() else line_colour(tile.line)  # small digits read best in ink
        placed.append(((ax + bx) / 2, (ay + by) / 2))
        _paste_centred(image, badge(line_badge_text(tile.line), colour, size, ring=INK), placed[-1])
    return placed


def _draw_end_badge(image: Image.Image, layout: GridLayout, head: Tile, square: Square,
                    occupied: set[Square], key: int | str, spacer: set[Square]) -> None:
    """The numbered badge marking an open end of a living line (off the spacer)."""
    size = layout.cell * 9 // 16
    direction = _outward(head, square, occupied, layout, spacer)
    centre = _edge_point(layout, square, direction, layout.cell * 0.12)
    _paste_centred(image, badge(line_badge_text(key), line_colour(key), size, ring=INK), centre)


def _draw_foot_at_end(image: Image.Image, layout: GridLayout, head: Tile, square: Square,
                      occupied: set[Square], seat: int, picture: Image.Image | None, spacer: set[Square]) -> None:
    """A chicken-footed line: the foot picture at its open end, with the seat number on the
    medallion's far side (off the tile and the spacer)."""
    size = layout.cell * 7 // 8
    dx, dy = _outward(head, square, occupied, layout, spacer)
    centre = _edge_point(layout, square, (dx, dy), layout.cell * 0.3)
    _paste_centred(image, framed_picture(picture, size, seat_colour(seat)), centre)
    small = layout.cell * 3 // 8
    across = (dx or 1, dy or 1)
    corner = (centre[0] + size * 0.38 * across[0], centre[1] + size * 0.38 * across[1])
    _paste_centred(image, badge(str(seat + 1), seat_colour(seat), small, ring=INK), corner)


def _draw_reserved_feet(image: Image.Image, layout: GridLayout, view: View,
                        feet: Mapping[int, Image.Image]) -> None:
    """The square a player reserved when footed before their line started: tinted in their
    colour, outlined, with their foot picture."""
    draw = ImageDraw.Draw(image)
    for seat, info in enumerate(view["seats"]):
        if not info.get("foot") or not _footed(view, seat):
            continue
        square = square_xy(info["foot"])
        left, top, right, bottom = layout.box(*square)
        colour = seat_colour(seat)
        gap = inset(layout.cell)
        draw.rounded_rectangle((left + gap, top + gap, right - 1 - gap, bottom - 1 - gap),
                               radius=layout.cell // 6, fill=reserved_tint(colour), outline=colour,
                               width=max(2, layout.cell // 20))
        size = layout.cell * 3 // 4
        centre = layout.centre(*square)
        _paste_centred(image, framed_picture(feet.get(seat), size, colour), centre)
        small = layout.cell * 3 // 8
        _paste_centred(image, badge(str(seat + 1), colour, small, ring=INK),
                       (centre[0] + size * 0.4, centre[1] + size * 0.4))


def _draw_halo(image: Image.Image, layout: GridLayout, squares: tuple[Square, ...]) -> None:
    """A yellow ring round the last tile laid (drawn under it)."""
    boxes = [layout.box(*s) for s in squares]
    left = min(b[0] for b in boxes)
    top = min(b[1] for b in boxes)
    right = max(b[2] for b in boxes)
    bottom = max(b[3] for b in boxes)
    grow = max(3, layout.cell // 14)
    ImageDraw.Draw(image).rounded_rectangle((left - grow, top - grow, right - 1 + grow, bottom - 1 + grow),
                                            radius=layout.cell // 4, fill=HIGHLIGHT, outline=INK,
                                            width=max(2, layout.cell // 32))


def _draw_leader_marks(image: Image.Image, layout: GridLayout, tiles: list[Tile],
                       joints: Sequence[tuple[float, float]] = ()) -> None:
    """A gold star on the round leader, a white one on each free-line leader (grey once dead), in
    the tile's top left corner, or the corner farthest from the joints' badges when those would
    cover it."""
    seen: set[int | str] = set()
    size = layout.cell // 2
    for tile in tiles:
        if tile.line in seen or isinstance(tile.line, int):
            continue
        seen.add(tile.line)
        left = min(layout.box(*s)[0] for s in tile.squares) + inset(layout.cell) + size * 0.3
        top = min(layout.box(*s)[1] for s in tile.squares) + inset(layout.cell) + size * 0.3
        right = max(layout.box(*s)[2] for s in tile.squares) - inset(layout.cell) - size * 0.3
        bottom = max(layout.box(*s)[3] for s in tile.squares) - inset(layout.cell) - size * 0.3
        corners = [(left, top), (right, top), (left, bottom), (right, bottom)]

        def room(point: tuple[float, float]) -> float:
            return min((math.dist(point, joint) for joint in joints), default=math.inf)

        corner = next((c for c in corners if room(c) >= layout.cell * 0.6), max(corners, key=room))
        if tile.line == "leader":
            sprite = star(size, INK, HIGHLIGHT)
        else:
            sprite = star(size, DEAD if tile.dead else NEUTRAL, WHITE)
        _paste_centred(image, sprite, corner)


def _draw_spacer(image: Image.Image, layout: GridLayout, view: View) -> None:
    """The spacer: a striped bar labelled "spacer" over its six squares; a white star on its far
    end and arrows off that end's free sides, where the free-line leader may go."""
    spacer = view.get("spacer")
    if not spacer:
        return
    start, end = square_xy(spacer[0]), square_xy(spacer[1])
    a, b = layout.box(*start), layout.box(*end)
    gap = inset(layout.cell) * 2
    box = (min(a[0], b[0]) + gap, min(a[1], b[1]) + gap, max(a[2], b[2]) - 1 - gap, max(a[3], b[3]) - 1 - gap)
    bar = _spacer_bar(box[2] - box[0] + 1, box[3] - box[1] + 1, layout.cell)
    image.paste(bar, (box[0], box[1]), bar)
    _paste_centred(image, star(layout.cell // 2, NEUTRAL, WHITE), layout.centre(*end))
    direction = (_sign(end[0] - start[0]), _sign(end[1] - start[1]))
    draw = ImageDraw.Draw(image)
    for side in DIRECTIONS:
        x, y = end[0] + side[0], end[1] + side[1]
        if side == (-direction[0], -direction[1]) or not (0 <= x < layout.columns and 0 <= y < layout.rows):
            continue
        tip = _edge_point(layout, end, side, layout.cell * 0.2)
        _draw_arrow(draw, tip, side, layout.cell // 4)


@lru_cache(maxsize=16)
def _spacer_bar(width: int, height: int, cell: int) -> Image.Image:
    """The spacer's striped, labelled bar as an RGBA sprite."""
    fill, stripe = SPACER_FILL, SPACER_STRIPE
    bar = Image.new("RGB", (width, height), fill)
    draw = ImageDraw.Draw(bar)
    step = max(8, cell // 5)
    for offset in range(-height, width, step):
        draw.line((offset, height, offset + height, 0), fill=stripe, width=max(2, cell // 24))
    size = max(14, cell * 3 // 8)
    label = Image.new("RGB", (text_width("spacer", size, bold=True) + 16, size + 10), fill)
    draw_text(label, (label.width / 2, label.height / 2), "spacer", size, INK, anchor="mm", bold=True)
    if height > width:
        label = label.transpose(Image.Transpose.ROTATE_90)
    bar.paste(label, ((width - label.width) // 2, (height - label.height) // 2))
    radius = cell // 5
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, outline=INK, width=max(2, cell // 24))
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=255)
    bar.putalpha(mask)
    return bar


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _draw_arrow(draw: ImageDraw.ImageDraw, tip: tuple[int, int], direction: Square, size: int) -> None:
    dx, dy = direction
    back = (tip[0] - dx * size, tip[1] - dy * size)
    side = (-dy * size * 0.6, dx * size * 0.6)
    draw.polygon([tip, (back[0] + side[0], back[1] + side[1]), (back[0] - side[0], back[1] - side[1])],
                 fill=INK)
