"""Triominoes pictures: the table of triangles with each corner's number, each tile tinted and
edged in the colour of the player who laid it and marked at its centre with that player's shape
(the colours and shapes of the scores in the header: the shape tells players apart where colour
does not), rows labelled down the left (`r0`) and columns along the top and bottom (`c-1`, on
two staggered lines, each with a tick to its column's middle), so a cell reads off as `r0c-1`;
every open cell
some unplayed tile could fill numbered for `122 at 7`; the last tile haloed, the hexagon or
bridge it just made outlined; a header with whose turn it is, the well and the scores. A board
too big to show at full size is drawn with smaller triangles, its texts keeping their size, so
that the picture stays legible in a chat's preview. Drawn from `game.view(None)` only: nothing
in it comes from anyone's hand.

The hand picture shows one player's tiles, those that fit now marked."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    N_,
    PAPER,
    RGB,
    SEAT_COLOURS,
    WHITE,
    blend_palette,
    deadline_text,
    encode_png,
    fitted_cell,
    legible,
    mix,
    palette_image,
    say,
    seat_colour,
)
from renderers.glyphs import seat_shape
from renderers.palettes import Palette, mono, register, set_grey
from renderers.text import draw_lines, draw_text, fit_name, fit_text, leading, text_width, wrap_text

SIDE = 76
"""A triangle's side in pixels (the hand's, and the table's while it fits GRID_ROOM)."""
SMALLEST_SIDE = 44
"""The table's triangles are never drawn smaller than this."""
GRID_ROOM = (560, 500)
"""The most room the table's triangles take (width, height) before they are drawn smaller."""
INWARD = 0.36
"""How far from a triangle's centre towards a corner its number sits (of the whole way): far
enough in that the numbers of the tiles meeting at a corner stay apart."""
BOARD_INWARD = 0.41
"""The same on the table, where the tile's centre carries the number of the seat that laid it."""
DIGITS = 0.31
"""A corner number's size, of the triangle's side."""
HEIGHT = SIDE * math.sqrt(3) / 2
MARGIN = 1
"""Empty cells shown around the tiles and spots, on every side."""
ROW_LABEL, COLUMN_LABEL = 17, 15
"""Sizes of the row labels (`r0`) and the column labels (`c-1`)."""
TICK = 6
"""The length of the tick under a column label, pointing at its column's middle."""
TITLE = 22
STAGE = 16
BANNER = 16
MIN_WIDTH = 560
DIGIT = 20
"""The numbers on the hand's tiles."""
TILE: RGB = (0xFF, 0xFC, 0xF2)
EMPTY: RGB = (0xE4, 0xDD, 0xCC)
GRID: RGB = (0xD3, 0xCA, 0xB4)
BONUS: RGB = (0xB0, 0x00, 0x3C)
SPOT_FILL: RGB = (0x00, 0x00, 0x00)
"""The numbered open spots: black discs (blacker than ink), told apart from every seat's colour."""
register("triominoes", Palette("triominoes", "seats", tuple(SEAT_COLOURS), (
    ("tile", TILE), ("empty cell", EMPTY), ("paper", PAPER), ("ink", INK), ("highlight", HIGHLIGHT))))
"""The seats' colours edge their tiles (on the tile's face, next to the ink outline) and mark
their scores on the paper; the tile's face is the colour's light tint."""
for _colour, _grey in ((TILE, 255), (EMPTY, 232), (GRID, 205), (BONUS, 60)):
    set_grey(_colour, _grey)

Cell = tuple[int, int]
Point = tuple[float, float]


def _cell(text: str) -> Cell:
    row, column = text[1:].split("c")
    return int(row), int(column)


def _up(cell: Cell) -> bool:
    return (cell[0] + cell[1]) % 2 == 0


def _lattice_corners(cell: Cell) -> tuple[tuple[int, int], ...]:
    r, c = cell
    if _up(cell):
        return (c, r), (c + 1, r + 1), (c - 1, r + 1)
    return (c - 1, r), (c + 1, r), (c, r + 1)


@dataclass(frozen=True)
class Sizes:
    """The picture's text sizes: as designed, or larger on a picture wide enough that the chat's
    preview shrinks it (see `renderers.common.legible`)."""

    title: int = TITLE
    score: int = 17
    stage: int = STAGE
    banner: int = BANNER
    row: int = ROW_LABEL
    column: int = COLUMN_LABEL

    def at(self, width: int) -> Sizes:
        return Sizes(*(legible(size, width) for size in (self.title, self.score, self.stage, self.banner, self.row,
                                                         self.column)))


@dataclass(frozen=True)
class Layout:
    """Where the grid lies: lattice point (X, Y) is at (left + (X - low_c + 1) * side/2, top +
    (Y - low_r) * row_height); `side` is a triangle's side."""

    low_r: int
    high_r: int
    low_c: int
    high_c: int
    left: float
    top: float
    width: int
    height: int
    header: int
    title: tuple[str, ...] = ()
    stage: tuple[str, ...] = ()
    banner: tuple[str, ...] = ()
    scores: tuple[tuple[int, str, bool, float, float], ...] = ()
    side: int = SIDE
    sizes: Sizes = Sizes()

    @property
    def row_height(self) -> float:
        return self.side * math.sqrt(3) / 2

    @property
    def digit(self) -> int:
        """The size of the numbers on the table's tiles: a share of the side, larger (as far as
        the triangle has room) on a picture the chat's preview shrinks."""
        return min(legible(round(self.side * DIGITS), self.width), round(self.side * 0.37))

    @property
    def spot(self) -> int:
        """The size of the spots' numbers."""
        return min(legible(max(13, round(self.side * 0.22)), self.width), round(self.side * 0.37))

    @property
    def band(self) -> int:
        """The height of each column-label band (two staggered lines and their ticks)."""
        return 2 * leading(self.sizes.column) + TICK + 6

    @property
    def bottom(self) -> float:
        """The bottom edge of the grid."""
        return self.top + (self.high_r - self.low_r + 1) * self.row_height

    def point(self, lattice: tuple[int, int]) -> Point:
        x, y = lattice
        return self.left + (x - self.low_c + 1) * self.side / 2, self.top + (y - self.low_r) * self.row_height

    def column_x(self, column: int) -> float:
        """The x of a column's middle: its up cells' apex, its down cells' bottom corner."""
        return self.left + (column - self.low_c + 1) * self.side / 2

    def triangle(self, cell: Cell) -> list[Point]:
        return [self.point(p) for p in _lattice_corners(cell)]

    def centre(self, cell: Cell) -> Point:
        corners = self.triangle(cell)
        return sum(x for x, _ in corners) / 3, sum(y for _, y in corners) / 3


def shown(view: Mapping[str, Any]) -> tuple[list[dict[str, Any]], list[str], str | None]:
    """The tiles, spots and banner the picture shows: the round in play, or, while a new round
    waits for its opening tile, the round that just ended. A finished game shows no spots."""
    previous = view.get("previous")
    if not view["board"] and previous:
        return previous["board"], [], previous["text"]
    return view["board"], [] if view.get("outcome") else view["spots"], None


def layout(view: Mapping[str, Any], deadline: float | None = None, *, instructions: bool = True) -> Layout:
    """Where everything goes, for the picture with that `deadline` in its header (and how to
    type a move, unless `instructions` is False)."""
    tiles, spots, banner = shown(view)
    cells = [_cell(t["at"]) for t in tiles] + [_cell(s) for s in spots] or [(0, 0)]
    low_r, high_r = min(r for r, _ in cells) - MARGIN, max(r for r, _ in cells) + MARGIN
    low_c, high_c = min(c for _, c in cells) - MARGIN - 1, max(c for _, c in cells) + MARGIN + 1
    side = fitted_cell(SIDE, SMALLEST_SIDE, (high_c - low_c + 2) / 2, (high_r - low_r + 1) * math.sqrt(3) / 2,
                       GRID_ROOM)
    grid_width = (high_c - low_c + 2) * side / 2
    label = text_width(f"r{min(low_r, -high_r - 1)}", ROW_LABEL, bold=True) + 14
    width = max(int(label + grid_width + 16), MIN_WIDTH)
    sizes = Sizes().at(width)
    left = label + (width - label - 16 - grid_width) / 2
    title_text, stage_text = _header_texts(view, deadline, sizes, instructions=instructions)
    title = tuple(wrap_text(title_text, sizes.title, width - 24, bold=True, lines=3))
    scores = score_places(view, width, 10 + leading(sizes.title) * len(title) + 16, sizes.score)
    stage = tuple(wrap_text(stage_text, sizes.stage, width - 24, lines=4))
    header = int(max(y for *_, y in scores)) + 18 + leading(sizes.stage) * len(stage) + 6
    banner_lines = tuple(wrap_text(say(banner), sizes.banner, width - 24, bold=True, lines=4)) if banner else ()
    at = Layout(low_r, high_r, low_c, high_c, left, 0, width, 0, header, title, stage, banner_lines, tuple(scores),
                side, sizes)
    top = header + (leading(sizes.banner) * len(banner_lines) + 10 if banner else 0) + at.band
    height = int(top + (high_r - low_r + 1) * at.row_height + at.band)
    return replace(at, top=top, height=height)


SCORE = 17
NAME_ROOM = 200
"""The most pixels a name takes; longer names are shortened with an ellipsis, never the score."""


def score_places(view: Mapping[str, Any], width: int, top: float = 48.0,
                 size: int = SCORE) -> list[tuple[int, str, bool, float, float]]:
    """Each seat's score label in the header and where it goes: (seat, label, bold, x, y),
    wrapping onto further lines when the seats do not fit on one. A long name is shortened; its
    score and tile count always show. The winners of a finished game are in bold."""
    places = []
    x, y = 12.0, top
    outcome = view.get("outcome")
    for index, seat in enumerate(view["seats"]):
        bold = index in outcome["winners"] if outcome else index == view.get("turn")
        rest = f": {seat['score']}" + (" " + say(N_("(left)")) if seat["resigned"] else " · " + say(
            N_("{count} tile") if seat["hand_size"] == 1 else N_("{count} tiles")).format(count=seat["hand_size"]))
        if outcome and index in outcome["winners"]:
            rest += " ★"
        label = fit_name(str(seat["name"]), rest, size, NAME_ROOM + text_width(rest, size, bold=bold), bold=bold)
        room = text_width(label, size, bold=bold) + 40
        if x + room > width - 12 and x > 12:
            x, y = 12.0, y + leading(size) + 6
        places.append((index, label, bold, x, y))
        x += room
    return places


def board(game: Any, viewer: int | None = None, *, feet: Mapping[int, Image.Image] | None = None,
          deadline: float | None = None, instructions: bool = True) -> bytes:
    """The public table as PNG bytes (`deadline`: when the player to act runs out of time;
    `instructions=False`: without how to type a move, for spectators)."""
    return encode_png(board_image(game.view(None), deadline, instructions=instructions), _palette())


def board_image(view: Mapping[str, Any], deadline: float | None = None, *, instructions: bool = True) -> Image.Image:
    tiles, spots, banner = shown(view)
    at = layout(view, deadline, instructions=instructions)
    image = Image.new("RGB", (at.width, at.height), PAPER)
    draw = ImageDraw.Draw(image)
    _header(image, view, at)
    if banner:
        draw.rectangle((0, at.header, at.width, at.top - at.band - 4), fill=INK)
        draw_lines(image, 12, at.header + 3, list(at.banner), at.sizes.banner, WHITE, bold=True)
    for r in range(at.low_r, at.high_r + 1):
        for c in range(at.low_c, at.high_c + 1):
            draw.polygon(at.triangle((r, c)), fill=EMPTY, outline=GRID)
    last = view.get("last") or {}
    by_cell = {t["at"]: t for t in tiles}
    for entry in tiles:
        _tile(image, at, _cell(entry["at"]), entry["corners"], entry.get("seat"),
              halo=not banner and last.get("cell") == entry["at"])
    for number, spot in enumerate(spots, start=1):
        x, y = at.centre(_cell(spot))
        radius = max(round(at.side * 0.18), text_width(str(number), at.spot, bold=True) // 2 + 4)
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=SPOT_FILL)
        draw_text(image, (x, y), str(number), at.spot, WHITE, anchor="mm", bold=True)
    if not banner and last.get("kind") == "lay" and last.get("cell") in by_cell:
        _bonus_marks(draw, at, last)
    _labels(image, at)
    return image


def face(seat: int | None) -> RGB:
    """The face of a tile laid by `seat`: a light tint of their colour (plain when unknown, and
    in the high-contrast look)."""
    return TILE if seat is None or mono() else _tint(seat_colour(seat))


def _tint(colour: RGB) -> RGB:
    return mix(colour, WHITE, TINT)


TINT = 0.8
"""How far a tile's face is lightened from its player's colour towards white."""


def _inset(corners: Sequence[Point], centre: Point, by: float) -> list[Point]:
    """The triangle `corners` shrunk towards `centre` so each edge moves `by` pixels in."""
    cx, cy = centre
    inradius = math.dist(centre, corners[0]) / 2
    keep = max(0.0, 1 - by / inradius) if inradius else 0.0
    return [(cx + (x - cx) * keep, cy + (y - cy) * keep) for x, y in corners]


def _tile(image: Image.Image, at: Layout, cell: Cell, numbers: Sequence[int], seat: int | None, *,
          halo: bool) -> None:
    draw = ImageDraw.Draw(image)
    corners = at.triangle(cell)
    centre = at.centre(cell)
    draw.polygon(corners, fill=face(seat), outline=INK, width=2)
    if seat is not None:  # an edge in the player's colour just inside the tile's outline
        edge = max(2, at.side // 24)
        draw.line([*(ring := _inset(corners, centre, 1 + edge / 2)), ring[0]], fill=seat_colour(seat), width=edge,
                  joint="curve")
    if halo:
        draw.line([*corners, corners[0]], fill=HIGHLIGHT, width=6, joint="curve")
        draw.polygon(corners, outline=INK, width=1)
    cx, cy = centre
    for (x, y), number in zip(corners, numbers, strict=True):
        draw_text(image, (cx + (x - cx) * BOARD_INWARD, cy + (y - cy) * BOARD_INWARD), str(number), at.digit, INK,
                  anchor="mm", bold=True)
    if seat is not None:  # who laid it, by their mark's shape: never the colour alone
        _paste_centred(image, seat_shape(seat, seat_colour(seat), seat_mark(at)), centre)


def seat_mark(at: Layout) -> int:
    """The size of the mark (its shape the seat's, see `renderers.glyphs.SHAPES`) at the centre
    of a tile, telling who laid it."""
    return max(10, round(at.side * 0.19))


def _paste_centred(image: Image.Image, sprite: Image.Image, centre: Point) -> None:
    image.paste(sprite, (round(centre[0] - sprite.width / 2), round(centre[1] - sprite.height / 2)), sprite)


def _bonus_marks(draw: ImageDraw.ImageDraw, at: Layout, last: Mapping[str, Any]) -> None:
    """A hexagon just closed: its outline; a bridge just made: a ring round its point."""
    for x, y in last.get("hexagons") or ():
        outline = [at.point(p) for p in ((x + 2, y), (x + 1, y + 1), (x - 1, y + 1), (x - 2, y), (x - 1, y - 1),
                                         (x + 1, y - 1))]
        draw.line([*outline, outline[0]], fill=BONUS, width=5, joint="curve")
    bridge = last.get("bridge")
    if bridge:
        px, py = at.point((bridge[0], bridge[1]))
        draw.ellipse((px - 11, py - 11, px + 11, py + 11), outline=BONUS, width=4)


def _labels(image: Image.Image, at: Layout) -> None:
    """Row labels down the left; column labels along the top and the bottom, every column's:
    columns are only half a side apart, so their labels alternate between two lines, and a tick
    from each label points at its column's middle (the apex of its up triangles, the bottom
    corner of its down ones) on the grid's edge."""
    draw = ImageDraw.Draw(image)
    size = at.sizes.column
    for r in range(at.low_r, at.high_r + 1):
        y = at.top + (r - at.low_r + 0.5) * at.row_height
        draw_text(image, (at.left - 8, y), f"r{r}", at.sizes.row, MUTED, anchor="rm", bold=True)
    line = leading(size)
    for c in range(at.low_c, at.high_c + 1):
        x = at.column_x(c)
        far = c % 2 != 0
        reach = TICK + (line if far else 0)
        for edge, way in ((at.top, -1), (at.bottom, 1)):
            draw.line((x, edge + way * 2, x, edge + way * (2 + reach)), fill=MUTED, width=1)
            y = edge + way * (4 + reach + line / 2)
            draw_text(image, (x, y), f"c{c}", size, MUTED, anchor="mm", bold=True)


def _header_texts(view: Mapping[str, Any], deadline: float | None, sizes: Sizes = Sizes(), *,
                  instructions: bool = True) -> tuple[str, str]:
    """The title and the stage line, names shortened (the stage line says how to type a move
    unless `instructions` is False)."""
    seats = view["seats"]
    outcome = view.get("outcome")
    if outcome:
        names = ", ".join(fit_text(str(seats[w]["name"]), sizes.title, NAME_ROOM, bold=True)
                          for w in outcome["winners"])
        title = (say(N_("Game over · nobody wins")) if not names else
                 say(N_("Game over · {players} wins") if len(outcome["winners"]) == 1 else
                     N_("Game over · {players} win")).format(players=names))
        final = say(N_("Final scores above"))
        return title, f"{final} · {say(outcome['reason'])}" if outcome.get("reason") else final
    mover = seats[view["turn"]]
    title = say(N_("Round {round} · {player} to play")).format(
        round=view["round"], player=fit_text(str(mover["name"]), sizes.title, NAME_ROOM, bold=True))
    if view.get("opening"):
        opening = list(view["opening"])
        tiles = opening[0] if len(opening) == 1 else say(N_("{a} or {b}")).format(a=", ".join(opening[:-1]),
                                                                                     b=opening[-1])
        title += say(N_(": opens with {tiles}")).format(tiles=tiles)
    elif mover["drawn"]:
        title += say(N_(" (drew {count})")).format(count=mover["drawn"])
    if instructions:
        stage = say(N_("Well: {count} tile · type a tile and a numbered spot: 1-2-2 at 7") if view["well_size"] == 1
                    else N_("Well: {count} tiles · type a tile and a numbered spot: 1-2-2 at 7")).format(
            count=view["well_size"])
    else:
        stage = say(N_("Well: {count} tile") if view["well_size"] == 1 else N_("Well: {count} tiles")).format(
            count=view["well_size"])
    if deadline is not None:
        stage = say(N_("Well: {count} · {player} must play by {when}")).format(
            count=view["well_size"], player=fit_text(str(mover["name"]), sizes.stage, NAME_ROOM),
            when=deadline_text(deadline))
    return title, stage


def _header(image: Image.Image, view: Mapping[str, Any], at: Layout) -> None:
    seats = view["seats"]
    outcome = view.get("outcome")
    draw_lines(image, 12, 10, list(at.title), at.sizes.title, INK, bold=True)
    draw = ImageDraw.Draw(image)
    size = at.sizes.score
    half = leading(size) // 2 + 1
    for index, label, bold, x, y in at.scores:
        gone = seats[index]["resigned"]
        if outcome and index in outcome["winners"]:
            draw.rounded_rectangle((x - 5, y - half, x + 25 + text_width(label, size, bold=True), y + half),
                                   radius=5, fill=HIGHLIGHT)
        _paste_centred(image, seat_shape(index, MUTED if gone else seat_colour(index), 17), (x + 7, y))
        draw_text(image, (x + 20, y), label, size, MUTED if gone else INK, anchor="lm", bold=bold)
    top = max(y for *_, y in at.scores) + 18
    draw_lines(image, 12, top, list(at.stage), at.sizes.stage, MUTED)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    seats = [colour for _, colour in SEAT_COLOURS]
    faces = [_tint(colour) for colour in seats]
    flat = [PAPER, INK, MUTED, WHITE, HIGHLIGHT, TILE, EMPTY, GRID, BONUS, SPOT_FILL, *seats, *faces]
    blends = [(INK, PAPER, 6), (MUTED, PAPER, 6), (INK, TILE, 6), (WHITE, SPOT_FILL, 6), (WHITE, INK, 6),
              (MUTED, EMPTY, 3), (GRID, EMPTY, 2), (HIGHLIGHT, TILE, 2), (HIGHLIGHT, EMPTY, 2), (INK, HIGHLIGHT, 3),
              (BONUS, TILE, 3), (BONUS, EMPTY, 3), (SPOT_FILL, EMPTY, 3), (SPOT_FILL, TILE, 3), (INK, EMPTY, 3),
              (HIGHLIGHT, PAPER, 2), *((colour, HIGHLIGHT, 1) for colour in seats),
              *((INK, tint, 5) for tint in faces),
              *((colour, tint, 2) for colour, tint in zip(seats, faces, strict=True)),
              *((INK, colour, 4) for colour in seats), *((HIGHLIGHT, tint, 1) for tint in faces),
              *((BONUS, tint, 2) for tint in faces), *((WHITE, colour, 3) for colour in seats),
              (WHITE, MUTED, 3), (INK, MUTED, 2)]
    return palette_image(blend_palette(flat, blends))


def hand(game: Any, seat: int) -> bytes:
    """`seat`'s tiles, each drawn pointing up with its name below; those that fit now are
    outlined in yellow when it is the player's turn."""
    return encode_png(hand_image(game.view(seat), seat), _palette())


def hand_image(view: Mapping[str, Any], seat: int) -> Image.Image:
    """The tiles of `hand` as an RGB image, the title wrapped to the width."""
    tiles: list[str] = view["hand"]
    playable = set(view.get("playable", ()))
    per_row = 6
    rows = max(1, math.ceil(len(tiles) / per_row))
    width = max(MIN_WIDTH, 24 + per_row * (SIDE + 24))
    me = view["seats"][seat]
    status = say(N_("Your tiles ({count}) · score {score}")).format(count=len(tiles), score=me["score"])
    if view.get("turn") == seat and not view.get("outcome"):
        status += say(N_(" · your turn: yellow tiles fit") if playable else N_(" · your turn: nothing fits (draw)"))
    lines = wrap_text(status, 18, width - 24, bold=True, lines=3)
    top = 10 + leading(18) * len(lines) + 10
    image = Image.new("RGB", (width, top + rows * (int(HEIGHT) + 40)), PAPER)
    draw = ImageDraw.Draw(image)
    draw_lines(image, 12, 10, lines, 18, INK, bold=True)
    if not tiles:
        draw_text(image, (12, top + 12), say(N_("No tiles left.")), 16, MUTED, anchor="lm")
    for index, name in enumerate(tiles):
        row, column = divmod(index, per_row)
        x0 = 24 + column * (SIDE + 24)
        y0 = top + row * (int(HEIGHT) + 40)
        corners = [(x0 + SIDE / 2, y0), (x0 + SIDE, y0 + HEIGHT), (x0, y0 + HEIGHT)]
        if name in playable:
            draw.line([*corners, corners[0]], fill=HIGHLIGHT, width=8, joint="curve")
        draw.polygon(corners, fill=TILE, outline=INK, width=2)
        cx, cy = x0 + SIDE / 2, y0 + HEIGHT * 2 / 3
        for (x, y), number in zip(corners, name.split("-"), strict=True):
            draw_text(image, (cx + (x - cx) * INWARD, cy + (y - cy) * INWARD), number, DIGIT, INK, anchor="mm",
                      bold=True)
        draw_text(image, (x0 + SIDE / 2, y0 + HEIGHT + 16), name, 15, INK, anchor="mm", bold=name in playable)
    return image
