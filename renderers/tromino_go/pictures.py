"""Tromino Go pictures (rules §1.10): the window around the trominoes with a 2-cell margin, axis
labels as in the notation (x along the bottom, y up the left), the first player's trominoes blue
with white capitals and the second's orange with black lower case, each outlined thickly, No
Man's Land hatched grey, surrounded trominoes crossed out, the last play haloed, and a header:
the round, whose letter is to be played, `placed/30` or "moving ×2", and the TGpoints.

Right after a round ends the new round's grid is empty, so the picture shows the round that just
ended, as it ended (the surround that decided it), headed with that round and under a banner
with its result; the stage line says who opens the next. A window too big to show at full size
is drawn with smaller cells, its texts keeping their size, so that the picture stays legible in
a chat's preview. Nothing in it is secret: it is drawn from `game.view(None)`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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
    WHITE,
    blend_palette,
    deadline_text,
    encode_png,
    fitted_cell,
    hatch_tile,
    legible,
    palette_image,
    say,
)
from renderers.palettes import Palette, register, set_grey
from renderers.text import draw_lines, draw_text, fit_text, leading, text_width, wrap_text
from renderers.tromino_go.text_board import shown

CELL = 34
"""A cell's side in pixels, while the window fits GRID_ROOM."""
SMALLEST_CELL = 24
"""Cells are never drawn smaller than this."""
GRID_ROOM = (480, 480)
"""The most room the window's cells take (width, height) before they are drawn smaller."""
MARGIN = 2
LABEL = 30
TITLE, SIDE, STAGE, RESULT = 22, 17, 16, 17
"""Text sizes: the title, the two sides' labels, the stage line, the round's result."""
LABELS = 16
"""The size of the x and y labels."""
LETTER = 0.56
"""A tromino's letter's size, of the cell's side."""
HEADER = 10 + leading(TITLE) + 34 + leading(STAGE) + 8
"""The header's height when each of its texts takes one line."""
MIN_WIDTH = 520
BANNER = leading(RESULT) + 14
"""The result banner's height for a one-line result."""
NAME_ROOM = 220
"""The most pixels a name takes in a sentence; longer names are shortened with an ellipsis."""
FIRST: RGB = (0x00, 0x72, 0xB2)
SECOND: RGB = (0xE6, 0x9F, 0x00)
EMPTY: RGB = (0xEC, 0xE7, 0xDC)
GRID: RGB = (0xD6, 0xCE, 0xBD)
NML: RGB = (0x9A, 0x93, 0x86)
SURROUNDED: RGB = (0xB0, 0x00, 0x3C)
register("tromino_go", Palette("tromino_go", "seats", (("blue", FIRST), ("orange", SECOND)), (
    ("empty cell", EMPTY), ("paper", PAPER), ("ink", INK), ("no man's land", NML), ("surrounded", SURROUNDED))))
"""The two sides fill their trominoes' cells on the empty grid, ink-outlined; their letters
(capitals for the first player, lower case for the second) tell them apart without colour."""
for _colour, _grey in ((FIRST, 25), (SECOND, 215), (EMPTY, 248), (GRID, 200), (NML, 110), (SURROUNDED, 120)):
    set_grey(_colour, _grey)  # the high-contrast look: black and light grey sides, as in Go

Cell = tuple[int, int]


def board(game: Any, viewer: int | None = None, *, feet: Mapping[int, Image.Image] | None = None,
          deadline: float | None = None) -> bytes:
    """The public board (from `game.view(None)` only); `deadline`, seconds since the epoch, is
    when the player to act runs out of time (a missed deadline loses the game)."""
    return encode_png(board_image(game.view(None), deadline), _palette())


@dataclass(frozen=True)
class Layout:
    """Where the grid sits in the picture: cell (x, y) is the CELL-pixel square at `box`; the
    header's texts, already wrapped to the width, above it."""

    low_x: int
    high_x: int
    low_y: int
    high_y: int
    left: int
    top: int
    width: int
    height: int
    title: tuple[str, ...] = ()
    stage: tuple[str, ...] = ()
    result: tuple[str, ...] = ()
    header: int = HEADER
    stacked: bool = False
    """The two sides' labels one under the other (too long to sit side by side)."""
    cell: int = CELL
    labels: int = LABELS
    """The size of the x and y labels."""

    def box(self, cell: Cell) -> tuple[int, int, int, int]:
        x0 = self.left + LABEL + (cell[0] - self.low_x) * self.cell
        y0 = self.top + (self.high_y - cell[1]) * self.cell
        return x0, y0, x0 + self.cell, y0 + self.cell


def layout(view: Mapping[str, Any], deadline: float | None = None) -> Layout:
    """Where everything goes, for the picture with that `deadline` in its header."""
    grid = shown(view)
    cells = [tuple(c) for p in grid["pieces"] for c in p["cells"]]
    xs = [x for x, _ in cells] or [0]
    ys = [y for _, y in cells] or [0]
    low_x, high_x = min(xs) - MARGIN, max(xs) + MARGIN
    low_y, high_y = min(ys) - MARGIN, max(ys) + MARGIN
    columns, rows = high_x - low_x + 1, high_y - low_y + 1
    cell = fitted_cell(CELL, SMALLEST_CELL, columns, rows, GRID_ROOM)
    width = max(LABEL + columns * cell + 16, MIN_WIDTH)
    left = (width - 16 - columns * cell - LABEL) // 2
    title, stage = _header_texts(view, deadline)
    title_lines = tuple(wrap_text(title, TITLE, width - 24, bold=True, lines=3))
    moving = view["phase"] == "moving" and view.get("winner") is None
    stage_lines = tuple(wrap_text(stage, STAGE, width - 24, bold=moving, lines=4))
    stacked = any(text_width(label, SIDE, bold=True) > width // 2 - 50 for label in _side_labels(view))
    header = 10 + leading(TITLE) * len(title_lines) + 34 * (2 if stacked else 1) + leading(STAGE) * len(stage_lines) + 8
    ended = say(N_("Ended: {result}")).format(result=grid["result"]) if grid is not view else ""
    result = tuple(wrap_text(ended, RESULT, width - 24, bold=True, lines=4)) if ended else ()
    top = header + (leading(RESULT) * len(result) + 14 if result else 0)
    return Layout(low_x, high_x, low_y, high_y, left, top, width, top + rows * cell + LABEL, title_lines,
                  stage_lines, result, header, stacked, cell, legible(LABELS, width))


def board_image(view: Mapping[str, Any], deadline: float | None = None) -> Image.Image:
    grid = shown(view)
    at = layout(view, deadline)
    low_x, high_x, low_y, high_y, left, top, width = at.low_x, at.high_x, at.low_y, at.high_y, at.left, at.top, \
        at.width
    rows = high_y - low_y + 1
    image = Image.new("RGB", (width, at.height), PAPER)
    draw = ImageDraw.Draw(image)
    box = at.box

    _header(image, view, grid["first"], at)
    if at.result:
        draw.rectangle((0, at.header, width, top - 4), fill=INK)
        draw_lines(image, 12, at.header + 5, list(at.result), RESULT, WHITE, bold=True)
    for x in range(low_x, high_x + 1):
        for y in range(low_y, high_y + 1):
            x0, y0, x1, y1 = box((x, y))
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=EMPTY, outline=GRID)
    size = at.cell
    for x, y in (tuple(c) for c in grid["nml"]):
        x0, y0, _, _ = box((x, y))
        image.paste(hatch_tile(size - 2, EMPTY, NML), (x0 + 1, y0 + 1))
    owner_of: dict[Cell, int] = {}
    dead = set(grid.get("surrounded", ()))
    movable = set(grid.get("movable", ()))
    for piece in grid["pieces"]:
        first = piece["owner"] == grid["first"]
        colour = FIRST if first else SECOND
        for cell in piece["cells"]:
            owner_of[(cell[0], cell[1])] = piece["id"]
            x0, y0, x1, y1 = box((cell[0], cell[1]))
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=colour)
            if piece["id"] in dead:
                draw.line((x0 + 3, y0 + 3, x1 - 4, y1 - 4), fill=SURROUNDED, width=4)
                draw.line((x0 + 3, y1 - 4, x1 - 4, y0 + 3), fill=SURROUNDED, width=4)
            draw_text(image, ((x0 + x1) / 2, (y0 + y1) / 2), piece["letter"], round(size * LETTER),
                      WHITE if first else INK, anchor="mm", bold=True)
            if piece["id"] in movable:  # a tromino the player to act may move: a dot in each cell
                dot = max(7, size * 9 // 32)
                draw.ellipse((x1 - 3 - dot, y0 + 3, x1 - 3, y0 + 3 + dot), fill=WHITE, outline=INK, width=2)
    last = {(c[0], c[1]) for c in grid["last"]}
    halo = [(c, e) for c, e in _outline(owner_of, box) if c in last]
    for cell, edge in _outline(owner_of, box):
        draw.line(edge, fill=SURROUNDED if owner_of[cell] in dead else INK, width=3)
    _halo(draw, [edge for _, edge in halo])
    for x in range(low_x, high_x + 1):
        x0, _, x1, _ = box((x, low_y))
        draw_text(image, ((x0 + x1) / 2, top + rows * size + LABEL / 2), str(x), at.labels, MUTED, anchor="mm",
                  bold=True)
    for y in range(low_y, high_y + 1):
        _, y0, _, y1 = box((low_x, y))
        draw_text(image, (left + LABEL / 2, (y0 + y1) / 2), str(y), at.labels, MUTED, anchor="mm", bold=True)
    return image


HALO, RIM = 5, 2
"""The last play's outline: a HALO-pixel yellow band with an ink RIM on each side, so it stands
out on both players' colours (the yellow alone is lost on orange) and on the empty grid."""


def _halo(draw: ImageDraw.ImageDraw, edges: list[tuple[int, int, int, int]]) -> None:
    """The last play's outline along `edges` (unit edges of the grid): ink first, yellow on it."""
    for colour, width in ((INK, HALO + 2 * RIM), (HIGHLIGHT, HALO)):
        reach = width // 2
        for x0, y0, x1, y1 in edges:
            draw.rectangle((min(x0, x1) - reach, min(y0, y1) - reach, max(x0, x1) + reach, max(y0, y1) + reach),
                           fill=colour)


def _outline(owner_of: Mapping[Cell, int], box: Any) -> list[tuple[Cell, tuple[int, int, int, int]]]:
    """Every unit edge where a tromino ends, as (its cell, the line to draw)."""
    found = []
    for cell, ident in owner_of.items():
        x0, y0, x1, y1 = box(cell)
        x, y = cell
        for (dx, dy), edge in (((1, 0), (x1, y0, x1, y1)), ((-1, 0), (x0, y0, x0, y1)),
                               ((0, 1), (x0, y0, x1, y0)), ((0, -1), (x0, y1, x1, y1))):
            if owner_of.get((x + dx, y + dy)) != ident:
                found.append((cell, edge))
    return found


def _name(name: str, size: int, *, bold: bool = True) -> str:
    return fit_text(str(name), size, NAME_ROOM, bold=bold)


def _header_texts(view: Mapping[str, Any], deadline: float | None) -> tuple[str, str]:
    """The title and the stage line, names shortened. While the grid shows the round that just
    ended, the title names that round and the stage line the next one's opening."""
    names = view["names"]
    if view.get("winner") is not None:
        title = say(N_("{player} wins the game")).format(player=_name(names[view["winner"]], TITLE))
        return title, say(N_("Game over"))
    grid = shown(view)
    if grid is not view:
        title = say(N_("Round {round} is over")).format(round=grid["round"])
        stage = say(N_("next: round {round}, {player} plays {letter}")).format(
            round=view["round"], player=_name(names[view["mover"]], STAGE), letter=view["letter"])
        if deadline is not None:
            return title, stage + " · " + say(N_("{player} must play by {when}")).format(
                player=_name(names[view["mover"]], STAGE), when=deadline_text(deadline))
        return title, stage + " · " + say(N_("7 TGpoints win"))
    stage = say(N_("turn {count}")).format(count=view["t"] + 1) + " · " + (
        say(N_("moving phase: points ×2")) if view["phase"] == "moving" else
        say(N_("{count}/30 placed")).format(count=view["placed"]))
    title = say(N_("Round {round} · {player} plays {letter}")).format(
        round=view["round"], player=_name(names[view["mover"]], TITLE), letter=view["letter"])
    if view.get("passes"):
        stage += " · " + say(N_("{count} pass in a row") if view["passes"] == 1 else
                             N_("{count} passes in a row")).format(count=view["passes"])
    moving = view["phase"] == "moving"
    if deadline is not None:
        stage += " · " + say(N_("{player} must play by {when}")).format(
            player=_name(names[view["mover"]], STAGE, bold=moving), when=deadline_text(deadline))
    else:
        stage += " · " + say(N_("7 TGpoints win"))
    if moving:
        stage += " · " + say(N_("dots: movable"))
    return title, stage


def _side_labels(view: Mapping[str, Any]) -> list[str]:
    """Each seat's label in the header, in seat order: name, TGpoints, and the winner's mark."""
    labels = []
    for seat, (name, points) in enumerate(zip(view["names"], view["points"], strict=True)):
        score = ": " + say(N_("{count} TGpoint") if points == 1 else N_("{count} TGpoints")).format(count=points)
        labels.append(_name(name, SIDE) + score + (" " + say(N_("★ winner")) if seat == view.get("winner") else ""))
    return labels


def _header(image: Image.Image, view: Mapping[str, Any], first: int, at: Layout) -> None:
    """The title (round, who plays which letter), the two sides as the grid below colours them
    (`first`: the seat with capitals there) with their TGpoints, the winner's marked, and the
    stage."""
    winner = view.get("winner")
    labels = _side_labels(view)
    y = draw_lines(image, 12, 10, list(at.title), TITLE, INK, bold=True)
    draw = ImageDraw.Draw(image)
    x = 12
    row = y + 17
    for seat, colour, sample in ((first, FIRST, "A"), (1 - first, SECOND, "a")):
        label = fit_text(labels[seat], SIDE, image.width - 60 if at.stacked else image.width // 2 - 50, bold=True)
        if seat == winner:
            draw.rounded_rectangle((x - 6, row - 16, x + 36 + text_width(label, SIDE, bold=True), row + 15),
                                   radius=6, fill=HIGHLIGHT)
        draw.rectangle((x, row - 11, x + 22, row + 11), fill=colour, outline=INK, width=2)
        draw_text(image, (x + 11, row), sample, 15, WHITE if colour == FIRST else INK, anchor="mm", bold=True)
        draw_text(image, (x + 30, row), label, SIDE, INK, anchor="lm", bold=True)
        if at.stacked:
            row += 34
        else:
            x = image.width // 2
    moving = view["phase"] == "moving" and winner is None
    draw_lines(image, 12, y + 34 * (2 if at.stacked else 1), list(at.stage), STAGE, INK if moving else MUTED,
               bold=moving)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Every colour the pictures use, with the soft edges of their text: stored as 8-bit indices,
    the PNG is smaller and much faster to write."""
    flat = [PAPER, INK, MUTED, WHITE, HIGHLIGHT, FIRST, SECOND, EMPTY, GRID, NML, SURROUNDED]
    blends = [(INK, PAPER, 6), (MUTED, PAPER, 6), (WHITE, FIRST, 6), (INK, SECOND, 6), (WHITE, INK, 6),
              (NML, EMPTY, 3), (MUTED, EMPTY, 3), (SURROUNDED, FIRST, 2), (SURROUNDED, SECOND, 2),
              (INK, FIRST, 3), (INK, EMPTY, 3), (HIGHLIGHT, INK, 3), (HIGHLIGHT, PAPER, 2),
              (HIGHLIGHT, FIRST, 2), (HIGHLIGHT, SECOND, 2)]
    return palette_image(blend_palette(flat, blends))


def hand(game: Any, seat: int) -> bytes:
    """Tromino Go hides nothing: a card with the player's side, whose turn it is, the letter to
    play and the score."""
    return encode_png(hand_image(game.view(seat), seat), _palette())


def hand_image(view: Mapping[str, Any], seat: int) -> Image.Image:
    """The card of `hand` as an RGB image, as tall as its wrapped lines need."""
    names, points = view["names"], view["points"]
    other = _name(names[1 - seat], 15, bold=False)
    capitals = seat == view["first"]
    side = say(N_("You play capitals (A B C), blue") if capitals else N_("You play lower case (a b c), orange"))
    if view.get("winner") is not None:
        status = say(N_("You won the game") if view["winner"] == seat else N_("The game is over"))
    elif view["mover"] == seat:
        status = say(N_("Your turn: play {letter}") if view["phase"] == "placing" else
                     N_("Your turn: move one of your {letter} trominoes")).format(letter=view["letter"])
    else:
        status = say(N_("{player} plays {letter}")).format(player=_name(names[view["mover"]], 16, bold=False),
                                                           letter=view["letter"])
    score = say(N_("Round {round} · TGpoints: you {mine}, {player} {theirs} (7 win)")).format(
        round=view["round"], mine=points[seat], player=other, theirs=points[1 - seat])
    offers = [c["points"] for c in view.get("concessions", ()) if c["seat"] != seat and view.get("winner") is None]
    offer = say(N_("{player} concedes {count}: `accept` to take it")).format(player=other, count=max(offers)) \
        if offers else ""
    room = MIN_WIDTH - 76
    blocks = [(wrap_text(side, 18, room, bold=True), 18, INK, True),
              (wrap_text(status, 16, room), 16, INK, False)]
    under = [(wrap_text(score, 15, MIN_WIDTH - 24), 15, MUTED, False),
             (wrap_text(offer, 14, MIN_WIDTH - 24), 14, MUTED, False)]
    top_height = max(52, 12 + sum(leading(size) * len(lines) for lines, size, _, _ in blocks))
    height = top_height + 8 + sum(leading(size) * len(lines) for lines, size, _, _ in under) + 10
    image = Image.new("RGB", (MIN_WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    colour = FIRST if capitals else SECOND
    draw.rectangle((12, 12, 52, 52), fill=colour, outline=INK, width=2)
    draw_text(image, (32, 32), "A" if capitals else "a", 24, WHITE if capitals else INK, anchor="mm", bold=True)
    y: float = 12
    for lines, size, ink, bold in blocks:
        y = draw_lines(image, 64, y, lines, size, ink, bold=bold)
    y = top_height + 8
    for lines, size, ink, bold in under:
        y = draw_lines(image, 12, y, lines, size, ink, bold=bold)
    return image
