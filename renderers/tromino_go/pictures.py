"""Tromino Go pictures (rules §1.10): the window around the trominoes with a 2-cell margin, axis
labels as in the notation (x along the bottom, y up the left), the first player's trominoes blue
with white capitals and the second's orange with black lower case, each outlined thickly, No
Man's Land hatched grey, the last play haloed, and a header: the round, whose letter is to be
played, `placed/30` or "moving ×2", and the TGpoints. Nothing in it is secret."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import HIGHLIGHT, INK, MUTED, PAPER, RGB, WHITE, draw_text, encode_png, fit_text

CELL = 32
MARGIN = 2
LABEL = 30
HEADER = 74
FIRST: RGB = (0x00, 0x72, 0xB2)
SECOND: RGB = (0xE6, 0x9F, 0x00)
EMPTY: RGB = (0xEC, 0xE7, 0xDC)
GRID: RGB = (0xD6, 0xCE, 0xBD)
NML: RGB = (0x9A, 0x93, 0x86)


def board(game: Any, viewer: int | None = None, *, feet: Mapping[int, Image.Image] | None = None) -> bytes:
    return encode_png(board_image(game.view(None)))


def board_image(view: Mapping[str, Any]) -> Image.Image:
    cells = [tuple(c) for p in view["pieces"] for c in p["cells"]]
    xs = [x for x, _ in cells] or [0]
    ys = [y for _, y in cells] or [0]
    low_x, high_x = min(xs) - MARGIN, max(xs) + MARGIN
    low_y, high_y = min(ys) - MARGIN, max(ys) + MARGIN
    columns, rows = high_x - low_x + 1, high_y - low_y + 1
    width = max(LABEL + columns * CELL + 16, 420)
    image = Image.new("RGB", (width, HEADER + rows * CELL + LABEL), PAPER)
    draw = ImageDraw.Draw(image)

    def box(cell: tuple[int, int]) -> tuple[int, int, int, int]:
        x0 = LABEL + (cell[0] - low_x) * CELL
        y0 = HEADER + (high_y - cell[1]) * CELL
        return x0, y0, x0 + CELL, y0 + CELL

    _header(image, view)
    for x in range(low_x, high_x + 1):
        for y in range(low_y, high_y + 1):
            x0, y0, x1, y1 = box((x, y))
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=EMPTY, outline=GRID)
    for x, y in (tuple(c) for c in view["nml"]):
        x0, y0, _, _ = box((x, y))
        image.paste(_hatch(), (x0 + 1, y0 + 1))
    owner_of = {}
    for piece in view["pieces"]:
        first = piece["owner"] == view["first"]
        colour = FIRST if first else SECOND
        for cell in piece["cells"]:
            owner_of[tuple(cell)] = piece["id"]
            x0, y0, x1, y1 = box(tuple(cell))
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=colour)
            draw_text(image, ((x0 + x1) / 2, (y0 + y1) / 2), piece["letter"], 18, WHITE if first else INK,
                      anchor="mm", bold=True)
    last = {tuple(c) for c in view["last"]}
    for cell, ident in owner_of.items():  # thick outlines where a tromino ends
        x0, y0, x1, y1 = box(cell)
        x, y = cell
        for (dx, dy), edge in (((1, 0), (x1, y0, x1, y1)), ((-1, 0), (x0, y0, x0, y1)),
                               ((0, 1), (x0, y0, x1, y0)), ((0, -1), (x0, y1, x1, y1))):
            if owner_of.get((x + dx, y + dy)) != ident:
                draw.line(edge, fill=HIGHLIGHT if cell in last else INK, width=5 if cell in last else 3)
    for x in range(low_x, high_x + 1):
        x0, _, x1, _ = box((x, low_y))
        draw_text(image, ((x0 + x1) / 2, HEADER + rows * CELL + LABEL / 2), str(x), 14, MUTED, anchor="mm")
    for y in range(low_y, high_y + 1):
        _, y0, _, y1 = box((low_x, y))
        draw_text(image, (LABEL / 2, (y0 + y1) / 2), str(y), 14, MUTED, anchor="mm")
    return image


def _header(image: Image.Image, view: Mapping[str, Any]) -> None:
    names, points = view["names"], view["points"]
    if view.get("winner") is not None:
        title = f"{names[view['winner']]} wins the game"
    else:
        stage = "moving ×2" if view["phase"] == "moving" else f"{view['placed']}/30 placed"
        title = f"Round {view['round']} · {names[view['mover']]} plays {view['letter']} · {stage}"
    draw_text(image, (12, 20), fit_text(title, 20, image.width - 24, bold=True), 20, INK, anchor="lm", bold=True)
    first = view["first"]
    line = (f"{names[first]} (capitals) {points[first]} TGpoints · {names[1 - first]} (lower case) "
            f"{points[1 - first]} TGpoints · 7 wins")
    draw_text(image, (12, 50), fit_text(line, 15, image.width - 24), 15, MUTED, anchor="lm")


@lru_cache(maxsize=1)
def _hatch() -> Image.Image:
    tile = Image.new("RGB", (CELL - 2, CELL - 2), EMPTY)
    lines = ImageDraw.Draw(tile)
    for offset in range(-CELL, CELL, 7):
        lines.line((offset, CELL - 2, offset + CELL - 2, 0), fill=NML, width=2)
    return tile


def hand(game: Any, seat: int) -> bytes:
    """Tromino Go hides nothing: a card with the player's side and what is to be played."""
    view = game.view(seat)
    image = Image.new("RGB", (420, 96), PAPER)
    side = "capitals (A B C)" if seat == view["first"] else "lower case (a b c)"
    draw_text(image, (12, 24), f"You play {side} this round", 18, INK, anchor="lm", bold=True)
    to_play = "your turn" if view["mover"] == seat else "the other player's turn"
    draw_text(image, (12, 62), f"Next: {view['letter']}, {to_play}", 16, MUTED, anchor="lm")
    return encode_png(image)
