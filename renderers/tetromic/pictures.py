"""Tetromic pictures: every player's board side by side (`board`) and one player's hand
(`hand`), drawn from the game's views only (the public one for the boards).

Each board shows its cells coloured by the kind that covered them (and marked with the kind's
letter, for colour-blind players), x labels 0… along the bottom and y labels 0… up the left as in
the notation, the last placement outlined, the rows it just cleared hatched, and a header: the
player, their level, points and the points needed, and whether they have drawn this phase. Up to
four boards a row, two rows for five to eight players."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from engine.tetromic.pieces import BY_KIND, ORIENTATIONS
from renderers.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    N_,
    PAPER,
    RGB,
    WHITE,
    deadline_text,
    draw_text,
    encode_png,
    fit_text,
    hatch_tile,
    mix,
    say,
)

CELL = 34
GAP = 26
LABEL = 22
HEADER = 58
TOP = 44
PER_ROW = 4
KIND_COLOURS: dict[str, RGB] = {
    "I": (0x56, 0xB4, 0xE9), "O": (0xE6, 0x9F, 0x00), "L": (0xD5, 0x5E, 0x00),
    "S": (0x00, 0x9E, 0x73), "T": (0xCC, 0x79, 0xA7),
}
"""Okabe–Ito colours, one per kind; each cell also shows its kind's letter."""
EMPTY: RGB = (0xE9, 0xE4, 0xD8)
GRID: RGB = (0xCF, 0xC6, 0xB2)
HATCH: RGB = (0x9A, 0x93, 0x86)


def board(game: Any, viewer: int | None = None, *, feet: Mapping[int, Image.Image] | None = None,
          deadline: float | None = None) -> bytes:
    """Every board of the game (PNG); `viewer`'s comes first and is framed; the header says when
    the phase ends."""
    return encode_png(board_image(game.view(None), viewer, deadline))


def board_image(view: Mapping[str, Any], viewer: int | None = None, deadline: float | None = None) -> Image.Image:
    seats = list(range(len(view["seats"])))
    if viewer is not None and 0 <= viewer < len(seats):
        seats.remove(viewer)
        seats.insert(0, viewer)
    width, height = view["width"], view["height"]
    panel_w = LABEL + width * CELL + GAP
    panel_h = HEADER + height * CELL + LABEL + GAP
    columns = min(PER_ROW, len(seats))
    rows = (len(seats) + PER_ROW - 1) // PER_ROW
    image = Image.new("RGB", (GAP + columns * panel_w, TOP + rows * panel_h), PAPER)
    title = "Tetromic · " + say(N_("phase {phase} · first to level {level} wins")).format(
        phase=view["phase"], level=view["target_level"])
    if deadline is not None:
        title += " · " + say(N_("phase ends {when}")).format(when=deadline_text(deadline))
    if view.get("winner") is not None:
        title = "Tetromic · " + say(N_("{player} wins!")).format(player=view["seats"][view["winner"]]["name"])
    draw_text(image, (GAP, TOP // 2 + 2), fit_text(title, 22, image.width - 2 * GAP, bold=True), 22, INK,
              anchor="lm", bold=True)
    for place, seat in enumerate(seats):
        left = GAP + (place % PER_ROW) * panel_w
        top = TOP + (place // PER_ROW) * panel_h
        _panel(image, view, seat, left, top, framed=seat == viewer)
    return image


def _panel(image: Image.Image, view: Mapping[str, Any], seat: int, left: int, top: int, *, framed: bool) -> None:
    info = view["seats"][seat]
    width, height = view["width"], view["height"]
    draw = ImageDraw.Draw(image)
    grid_left, grid_top = left + LABEL, top + HEADER
    box_w = width * CELL
    name = fit_text(str(info["name"]), 17, box_w, bold=True)
    draw_text(image, (grid_left, top + 14), name, 17, INK, anchor="lm", bold=True)
    status = say(N_("out") if info["resigned"] else N_("drew") if info["drew"] else N_("done") if info["done"]
                 else N_("to draw"))
    line = say(N_("level {level} · {points}/{needed} pts · {status}")).format(
        level=info["level"], points=info["points"], needed=info["needed"], status=status)
    draw_text(image, (grid_left, top + 38), fit_text(line, 14, box_w), 14, MUTED, anchor="lm")
    if framed:
        draw.rectangle((grid_left - 4, grid_top - 4, grid_left + box_w + 3, grid_top + height * CELL + 3),
                       outline=HIGHLIGHT, width=3)
    cleared = set(info.get("just_cleared", []))
    rows = info["board"]
    for y in range(height):
        row = rows[height - 1 - y]
        for x in range(width):
            x0, y0 = grid_left + x * CELL, grid_top + (height - 1 - y) * CELL
            cell = row[x]
            fill = KIND_COLOURS.get(cell, EMPTY)
            draw.rectangle((x0, y0, x0 + CELL - 1, y0 + CELL - 1), fill=fill, outline=GRID)
            if cell in KIND_COLOURS:
                draw_text(image, (x0 + CELL / 2, y0 + CELL / 2), cell, 14, mix(fill, INK, 0.55), anchor="mm")
            elif y in cleared:
                image.paste(hatch_tile(CELL - 2, EMPTY, HATCH), (x0 + 1, y0 + 1))
    for x, y in info.get("last", []):
        x0, y0 = grid_left + x * CELL, grid_top + (height - 1 - y) * CELL
        draw.rectangle((x0 + 1, y0 + 1, x0 + CELL - 2, y0 + CELL - 2), outline=INK, width=3)
    for x in range(width):
        draw_text(image, (grid_left + x * CELL + CELL / 2, grid_top + height * CELL + LABEL / 2 + 2), str(x), 14,
                  MUTED, anchor="mm")
    for y in range(height):
        draw_text(image, (left + LABEL / 2, grid_top + (height - 1 - y) * CELL + CELL / 2), str(y), 14, MUTED,
                  anchor="mm")


ICON = 14


def hand(game: Any, seat: int) -> bytes:
    """The pieces `seat` holds, as small icons with counts (for that player alone)."""
    view = game.view(seat)
    held: dict[str, int] = view.get("hand", {})
    playable = set(view.get("playable", []))
    kinds = [k for k in "IOLST" if held.get(k)]
    width = max(320, 24 + len(kinds) * 110)
    image = Image.new("RGB", (width, 150), PAPER)
    draw = ImageDraw.Draw(image)
    title = (say(N_("Your pieces · {count}")).format(count=sum(held.values())) if kinds
             else say(N_("You hold no pieces: `draw` once a phase")))
    draw_text(image, (14, 20), title, 18, INK, anchor="lm", bold=True)
    for index, kind in enumerate(kinds):
        left = 14 + index * 110
        cells = ORIENTATIONS[BY_KIND[kind][0]]
        colour = KIND_COLOURS[kind] if kind in playable else mix(KIND_COLOURS[kind], WHITE, 0.55)
        span_y = max(y for _, y in cells)
        for x, y in cells:
            x0, y0 = left + x * ICON * 2, 44 + (span_y - y) * ICON * 2
            draw.rectangle((x0, y0, x0 + ICON * 2 - 2, y0 + ICON * 2 - 2), fill=colour, outline=INK)
        draw_text(image, (left, 138), f"{kind} ×{held[kind]}", 16, INK, anchor="lm", bold=True)
    return encode_png(image)
