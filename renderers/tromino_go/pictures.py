"""Tromino Go pictures (rules §1.10): the window around the trominoes with a 2-cell margin, axis
labels as in the notation (x along the bottom, y up the left), the first player's trominoes blue
with white capitals and the second's orange with black lower case, each outlined thickly, No
Man's Land hatched grey, surrounded trominoes crossed out, the last play haloed, and a header:
the round, whose letter is to be played, `placed/30` or "moving ×2", and the TGpoints.

Right after a round ends the new round's grid is empty, so the picture shows the round that just
ended, as it ended (the surround that decided it), under a banner with its result. Nothing in
it is secret: it is drawn from `game.view(None)`."""

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
    draw_text,
    encode_png,
    fit_text,
    hatch_tile,
    palette_image,
    say,
)
from renderers.tromino_go.text_board import shown

CELL = 32
MARGIN = 2
LABEL = 30
HEADER = 96
MIN_WIDTH = 520
BANNER = 36
FIRST: RGB = (0x00, 0x72, 0xB2)
SECOND: RGB = (0xE6, 0x9F, 0x00)
EMPTY: RGB = (0xEC, 0xE7, 0xDC)
GRID: RGB = (0xD6, 0xCE, 0xBD)
NML: RGB = (0x9A, 0x93, 0x86)
SURROUNDED: RGB = (0xB0, 0x00, 0x3C)

Cell = tuple[int, int]


def board(game: Any, viewer: int | None = None, *, feet: Mapping[int, Image.Image] | None = None,
          deadline: float | None = None) -> bytes:
    """The public board (from `game.view(None)` only); `deadline`, seconds since the epoch, is
    when the player to act runs out of time (a missed deadline loses the game)."""
    return encode_png(board_image(game.view(None), deadline), _palette())


@dataclass(frozen=True)
class Layout:
    """Where the grid sits in the picture: cell (x, y) is the CELL-pixel square at `box`."""

    low_x: int
    high_x: int
    low_y: int
    high_y: int
    left: int
    top: int
    width: int
    height: int

    def box(self, cell: Cell) -> tuple[int, int, int, int]:
        x0 = self.left + LABEL + (cell[0] - self.low_x) * CELL
        y0 = self.top + (self.high_y - cell[1]) * CELL
        return x0, y0, x0 + CELL, y0 + CELL


def layout(view: Mapping[str, Any]) -> Layout:
    grid = shown(view)
    cells = [tuple(c) for p in grid["pieces"] for c in p["cells"]]
    xs = [x for x, _ in cells] or [0]
    ys = [y for _, y in cells] or [0]
    low_x, high_x = min(xs) - MARGIN, max(xs) + MARGIN
    low_y, high_y = min(ys) - MARGIN, max(ys) + MARGIN
    columns, rows = high_x - low_x + 1, high_y - low_y + 1
    width = max(LABEL + columns * CELL + 16, MIN_WIDTH)
    left = (width - 16 - columns * CELL - LABEL) // 2
    top = HEADER + (BANNER if grid is not view else 0)
    return Layout(low_x, high_x, low_y, high_y, left, top, width, top + rows * CELL + LABEL)


def board_image(view: Mapping[str, Any], deadline: float | None = None) -> Image.Image:
    grid = shown(view)
    at = layout(view)
    low_x, high_x, low_y, high_y, left, top, width = at.low_x, at.high_x, at.low_y, at.high_y, at.left, at.top, \
        at.width
    rows = high_y - low_y + 1
    banner = top - HEADER
    image = Image.new("RGB", (width, at.height), PAPER)
    draw = ImageDraw.Draw(image)
    box = at.box

    _header(image, view, grid["first"], deadline)
    if banner:
        draw.rectangle((0, HEADER, width, HEADER + banner - 4), fill=INK)
        result = fit_text(f"Ended: {grid['result']}", 17, width - 24, bold=True)
        draw_text(image, (12, HEADER + (banner - 4) / 2), result, 17, WHITE, anchor="lm", bold=True)
    for x in range(low_x, high_x + 1):
        for y in range(low_y, high_y + 1):
            x0, y0, x1, y1 = box((x, y))
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=EMPTY, outline=GRID)
    for x, y in (tuple(c) for c in grid["nml"]):
        x0, y0, _, _ = box((x, y))
        image.paste(hatch_tile(CELL - 2, EMPTY, NML), (x0 + 1, y0 + 1))
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
            draw_text(image, ((x0 + x1) / 2, (y0 + y1) / 2), piece["letter"], 18, WHITE if first else INK,
                      anchor="mm", bold=True)
            if piece["id"] in movable:  # a tromino the player to act may move: a dot in each cell
                draw.ellipse((x1 - 12, y0 + 3, x1 - 3, y0 + 12), fill=WHITE, outline=INK, width=2)
    last = {(c[0], c[1]) for c in grid["last"]}
    halo = [(c, e) for c, e in _outline(owner_of, box) if c in last]
    for cell, edge in _outline(owner_of, box):
        draw.line(edge, fill=SURROUNDED if owner_of[cell] in dead else INK, width=3)
    for _, (x0, y0, x1, y1) in halo:  # the last play's outline on top, a little wider
        draw.line((x0, y0, x1, y1), fill=HIGHLIGHT, width=5)
    for x in range(low_x, high_x + 1):
        x0, _, x1, _ = box((x, low_y))
        draw_text(image, ((x0 + x1) / 2, top + rows * CELL + LABEL / 2), str(x), 15, MUTED, anchor="mm")
    for y in range(low_y, high_y + 1):
        _, y0, _, y1 = box((low_x, y))
        draw_text(image, (left + LABEL / 2, (y0 + y1) / 2), str(y), 15, MUTED, anchor="mm")
    return image


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


def _header(image: Image.Image, view: Mapping[str, Any], first: int, deadline: float | None) -> None:
    """The title (round, who plays which letter), the two sides as the grid below colours them
    (`first`: the seat with capitals there), and the stage."""
    names, points = view["names"], view["points"]
    if view.get("winner") is not None:
        title = say(N_("{player} wins the game")).format(player=names[view["winner"]])
        stage = say(N_("Game over"))
    else:
        stage = say(N_("turn {count}")).format(count=view["t"] + 1) + " · " + (
            say(N_("moving phase: points ×2")) if view["phase"] == "moving" else
            say(N_("{count}/30 placed")).format(count=view["placed"]))
        title = say(N_("Round {round} · {player} plays {letter}")).format(
            round=view["round"], player=names[view["mover"]], letter=view["letter"])
        if view.get("passes"):
            stage += " · " + say(N_("{count} pass in a row") if view["passes"] == 1 else
                                 N_("{count} passes in a row")).format(count=view["passes"])
    draw_text(image, (12, 20), fit_text(title, 22, image.width - 24, bold=True), 22, INK, anchor="lm", bold=True)
    x = 12
    for seat, colour, sample in ((first, FIRST, "A"), (1 - first, SECOND, "a")):
        draw = ImageDraw.Draw(image)
        draw.rectangle((x, 42, x + 22, 64), fill=colour, outline=INK, width=2)
        draw_text(image, (x + 11, 53), sample, 15, WHITE if colour == FIRST else INK, anchor="mm", bold=True)
        label = fit_text(say(N_("{player}: {count} TGpoint") if points[seat] == 1 else
                             N_("{player}: {count} TGpoints")).format(player=names[seat], count=points[seat]), 17,
                         image.width // 2 - 50, bold=True)
        draw_text(image, (x + 30, 53), label, 17, INK, anchor="lm", bold=True)
        x = image.width // 2
    stage += " · " + (say(N_("{player} must play by {when}")).format(
        player=names[view["mover"]], when=deadline_text(deadline)) if deadline is not None and
        view.get("winner") is None else say(N_("7 TGpoints win")))
    moving = view["phase"] == "moving" and view.get("winner") is None
    if moving:
        stage += " · " + say(N_("dots: movable"))
    draw_text(image, (12, 80), fit_text(stage, 16, image.width - 24, bold=moving), 16, INK if moving else MUTED,
              anchor="lm", bold=moving)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Every colour the pictures use, with the soft edges of their text: stored as 8-bit indices,
    the PNG is smaller and much faster to write."""
    flat = [PAPER, INK, MUTED, WHITE, HIGHLIGHT, FIRST, SECOND, EMPTY, GRID, NML, SURROUNDED]
    blends = [(INK, PAPER, 6), (MUTED, PAPER, 6), (WHITE, FIRST, 6), (INK, SECOND, 6), (WHITE, INK, 6),
              (NML, EMPTY, 3), (MUTED, EMPTY, 3), (SURROUNDED, FIRST, 2), (SURROUNDED, SECOND, 2),
              (INK, FIRST, 3), (INK, EMPTY, 3), (HIGHLIGHT, INK, 2)]
    return palette_image(blend_palette(flat, blends))


def hand(game: Any, seat: int) -> bytes:
    """Tromino Go hides nothing: a card with the player's side, whose turn it is, the letter to
    play and the score."""
    view = game.view(seat)
    image = Image.new("RGB", (MIN_WIDTH, 120), PAPER)
    draw = ImageDraw.Draw(image)
    capitals = seat == view["first"]
    colour = FIRST if capitals else SECOND
    draw.rectangle((12, 12, 52, 52), fill=colour, outline=INK, width=2)
    draw_text(image, (32, 32), "A" if capitals else "a", 24, WHITE if capitals else INK, anchor="mm", bold=True)
    side = say(N_("You play capitals (A B C), blue") if capitals else N_("You play lower case (a b c), orange"))
    draw_text(image, (64, 24), fit_text(side, 18, MIN_WIDTH - 76, bold=True), 18, INK,
              anchor="lm", bold=True)
    if view.get("winner") is not None:
        status = say(N_("You won the game") if view["winner"] == seat else N_("The game is over"))
    elif view["mover"] == seat:
        status = say(N_("Your turn: play {letter}") if view["phase"] == "placing" else
                     N_("Your turn: move one of your {letter} trominoes")).format(letter=view["letter"])
    else:
        status = say(N_("{player} plays {letter}")).format(player=view["names"][view["mover"]], letter=view["letter"])
    draw_text(image, (64, 48), fit_text(status, 16, MIN_WIDTH - 76), 16, INK, anchor="lm")
    names, points = view["names"], view["points"]
    score = say(N_("Round {round} · TGpoints: you {mine}, {player} {theirs} (7 win)")).format(
        round=view["round"], mine=points[seat], player=names[1 - seat], theirs=points[1 - seat])
    draw_text(image, (12, 84), fit_text(score, 15, MIN_WIDTH - 24), 15, MUTED, anchor="lm")
    offers = [c["points"] for c in view.get("concessions", ()) if c["seat"] != seat]
    if offers:
        draw_text(image, (12, 106), say(N_("{player} concedes {count}: `accept` to take it")).format(
            player=names[1 - seat], count=max(offers)), 14, MUTED,
                  anchor="lm")
    return encode_png(image, _palette())
