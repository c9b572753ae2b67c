"""Tronix pictures: square cards with their green and pink lines as they run (quarter arcs for
curves, straights crossing with the green one bridging the pink), the two colours also told
apart by style (green solid, pink dashed) for colour-blind players; x along the top and the
bottom, y down both sides, as the notation writes a cell; the locked card padlocked, the last
card haloed, the cards just scored drawn faintly where they were; a header with both teams'
piles, the phase and whose turn it is. A table too big to show at full size is drawn with
smaller cards, its texts keeping their size, so that the picture stays legible in a chat's
preview. Drawn from `game.view(None)` only.

The hand picture shows the six patterns a card can be placed in, named as they are typed."""

from __future__ import annotations

import math
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
    legible,
    mix,
    palette_image,
    say,
)
from renderers.palettes import Palette, mono, note_blend, register, set_grey
from renderers.text import draw_lines, draw_text, fit_text, leading, wrap_items, wrap_text

CELL = 56
"""A card's cell in pixels (the hand's, and the table's while it fits GRID_ROOM)."""
SMALLEST_CELL = 36
"""The table's cards are never drawn smaller than this."""
GRID_ROOM = (560, 520)
"""The most room the table's cells take (width, height) before they are drawn smaller."""
LINE = 7
"""The width of a card's lines at CELL (they scale with the card)."""
LABEL = 34
LABELS = 16
"""The size of the x and y labels round the table."""
TITLE, TEAM, STAGE = 21, 17, 16
NAME_ROOM = 200
"""The most pixels a name takes; longer names are shortened with an ellipsis."""
MARGIN = 1
MIN_WIDTH = 560
GREEN: RGB = (0x00, 0x78, 0x3C)
PINK: RGB = (0xFF, 0x5F, 0xC3)
CARD: RGB = (0xFF, 0xFC, 0xF2)
EMPTY: RGB = (0xE8, 0xE2, 0xD3)
GRID: RGB = (0xD6, 0xCE, 0xBD)
GHOST = 0.72
"""How far a card just scored fades towards the background."""
COLOURS = {"green": GREEN, "pink": PINK}
register("tronix", Palette("tronix", "teams (line colours)", (("green", GREEN), ("pink", PINK)), (
    ("card", CARD), ("empty cell", EMPTY), ("paper", PAPER), ("ink", INK), ("highlight", HIGHLIGHT))))
"""A dark green and a light pink, chosen by search (bench/palettes.py) so that they stay apart
for every colour vision (at least 35 in CAM02-UCS); green lines are solid and pink ones dashed."""
for _colour, _grey in ((GREEN, 0), (PINK, 125), (CARD, 255), (EMPTY, 232), (GRID, 205)):
    set_grey(_colour, _grey)  # the high-contrast look: black solid green lines, grey dashed pink ones
for _colour in (GREEN, PINK, CARD, INK):
    note_blend(mix(_colour, EMPTY, GHOST), _colour, EMPTY, GHOST)
PHASES = {"placement": N_("Placement"), "god": N_("God Mode"), "over": N_("Game over")}
RESULTS = {None: N_("a draw"), "green": N_("green wins"), "pink": N_("pink wins")}
"""How a finished game's result is written, by the winning team the engine names (None: a draw)."""

PORTS = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}
LINES = {"NE": ("NE", "SW"), "SE": ("SE", "NW"), "SW": ("SW", "NE"), "NW": ("NW", "SE"),
         "NS": ("NS", "EW"), "EW": ("EW", "NS")}
"""Pattern -> (the ports of the green line, the ports of the pink line)."""

Cell = tuple[int, int]


@dataclass(frozen=True)
class Sizes:
    """The picture's text sizes: as designed, or larger on a picture wide enough that the chat's
    preview shrinks it (see `renderers.common.legible`)."""

    title: int = TITLE
    team: int = TEAM
    stage: int = STAGE
    labels: int = LABELS

    def at(self, width: int) -> Sizes:
        return Sizes(*(legible(size, width) for size in (self.title, self.team, self.stage, self.labels)))


@dataclass(frozen=True)
class Header:
    """The header's texts wrapped to the picture's width: the title, each team's members (under
    its name and pile), the stage; `height` in pixels."""

    title: list[str]
    members: dict[str, list[str]]
    stage: list[str]
    height: int
    sizes: Sizes = Sizes()


@dataclass(frozen=True)
class Layout:
    low_x: int
    high_x: int
    low_y: int
    high_y: int
    left: int
    top: int
    width: int
    height: int
    header: Header | None = None
    cell: int = CELL

    def box(self, cell: Cell) -> tuple[int, int, int, int]:
        x0 = self.left + (cell[0] - self.low_x) * self.cell
        y0 = self.top + (cell[1] - self.low_y) * self.cell
        return x0, y0, x0 + self.cell, y0 + self.cell


def layout(view: Mapping[str, Any], deadline: float | None = None) -> Layout:
    """Where everything goes, for the picture with that `deadline` in its header."""
    cells = [tuple(c["at"]) for c in (*view["table"], *view.get("scored", ()))] or [(0, 0)]
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    low_x, high_x, low_y, high_y = min(xs) - MARGIN, max(xs) + MARGIN, min(ys) - MARGIN, max(ys) + MARGIN
    size = fitted_cell(CELL, SMALLEST_CELL, high_x - low_x + 1, high_y - low_y + 1, GRID_ROOM)
    grid_width = (high_x - low_x + 1) * size
    width = max(grid_width + 2 * LABEL + 24, MIN_WIDTH)
    left = (width - grid_width) // 2
    header = _header_texts(view, deadline, width)
    top = header.height + LABEL
    return Layout(low_x, high_x, low_y, high_y, left, top, width, top + (high_y - low_y + 1) * size + LABEL, header,
                  size)


def board(game: Any, viewer: int | None = None, *, feet: Mapping[int, Image.Image] | None = None,
          deadline: float | None = None) -> bytes:
    """The public table as PNG bytes (`deadline`: when the player to act runs out of time)."""
    return encode_png(board_image(game.view(None), deadline), _palette())


def board_image(view: Mapping[str, Any], deadline: float | None = None) -> Image.Image:
    at = layout(view, deadline)
    image = Image.new("RGB", (at.width, at.height), PAPER)
    draw = ImageDraw.Draw(image)
    assert at.header is not None
    _header(image, view, at.header)
    for x in range(at.low_x, at.high_x + 1):
        for y in range(at.low_y, at.high_y + 1):
            x0, y0, x1, y1 = at.box((x, y))
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=EMPTY, outline=GRID)
    for ghost in view.get("scored", ()):
        card(draw, at.box(tuple(ghost["at"])), ghost["pattern"], faded=True)
    last = tuple((view.get("last") or {}).get("cell") or ()) or None
    locked = tuple(view["locked"]) if view.get("locked") else None
    for entry in view["table"]:
        cell = tuple(entry["at"])
        card(draw, at.box(cell), entry["pattern"])
        if cell == last:
            x0, y0, x1, y1 = at.box(cell)
            draw.rectangle((x0 + 1, y0 + 1, x1 - 2, y1 - 2), outline=INK if mono() else HIGHLIGHT,
                           width=max(3, at.cell // 14))
        if cell == locked:
            padlock(draw, at.box(cell), entry["pattern"])
    _labels(image, at)
    return image


def card(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], pattern: str, *, faded: bool = False) -> None:
    """One card in `box`: the pink line first, then the green one (over it where they cross)."""
    x0, y0, x1, y1 = box
    fill = mix(CARD, EMPTY, GHOST) if faded else CARD
    draw.rectangle((x0 + 2, y0 + 2, x1 - 3, y1 - 3), fill=fill, outline=mix(INK, EMPTY, GHOST) if faded else INK,
                   width=1 if faded else 2)
    green_ports, pink_ports = LINES[pattern]
    green = mix(GREEN, EMPTY, GHOST) if faded else GREEN
    pink = mix(PINK, EMPTY, GHOST) if faded else PINK
    crossing = pattern in ("NS", "EW")
    _line(draw, box, pink_ports, pink, dashed=True, gap=crossing, under=fill)
    _line(draw, box, green_ports, green, dashed=False, gap=False, under=fill)


def _width(size: int) -> int:
    """The width of a card's lines on a card `size` pixels wide."""
    return max(4, round(LINE * size / CELL))


def _line(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], ports: str, colour: RGB, *, dashed: bool,
          gap: bool, under: RGB) -> None:
    x0, y0, x1, _ = box
    size = x1 - x0
    width = _width(size)
    (ax, ay), (bx, by) = PORTS[ports[0]], PORTS[ports[1]]
    if ax == bx or ay == by:  # a straight line across the card
        start, end = (x0 + ax * size, y0 + ay * size), (x0 + bx * size, y0 + by * size)
        pieces = _split(start, end, gap, size)
        for a, b in pieces:
            _dashes(draw, a, b, colour, dashed, size)
        return
    corner = (x0 + (ax if ax in (0.0, 1.0) else bx) * size, y0 + (ay if ay in (0.0, 1.0) else by) * size)
    steps = 12
    points = []
    start_angle = math.atan2(y0 + ay * size - corner[1], x0 + ax * size - corner[0])
    end_angle = math.atan2(y0 + by * size - corner[1], x0 + bx * size - corner[0])
    sweep = (end_angle - start_angle + math.pi) % (2 * math.pi) - math.pi
    for k in range(steps + 1):
        angle = start_angle + sweep * k / steps
        points.append((corner[0] + size / 2 * math.cos(angle), corner[1] + size / 2 * math.sin(angle)))
    for k in range(steps):
        if dashed and k % 3 == 2:
            continue
        draw.line((points[k], points[k + 1]), fill=colour, width=width)


def _split(start: tuple[float, float], end: tuple[float, float], gap: bool,
           size: int) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The straight line, with a gap in the middle where the other line bridges it."""
    if not gap:
        return [(start, end)]
    mx, my = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
    dx, dy = (end[0] - start[0]) / size, (end[1] - start[1]) / size
    cut = _width(size) + 3
    return [(start, (mx - dx * cut, my - dy * cut)), ((mx + dx * cut, my + dy * cut), end)]


def _dashes(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], colour: RGB,
            dashed: bool, size: int) -> None:
    width = _width(size)
    if not dashed:
        draw.line((start, end), fill=colour, width=width)
        return
    length = math.dist(start, end)
    dash, space = 9.0 * size / CELL, 5.0 * size / CELL
    done = 0.0
    while done < length:
        a = done / length
        b = min(done + dash, length) / length
        draw.line(((start[0] + (end[0] - start[0]) * a, start[1] + (end[1] - start[1]) * a),
                   (start[0] + (end[0] - start[0]) * b, start[1] + (end[1] - start[1]) * b)), fill=colour, width=width)
        done += dash + space


FREE_CORNER = {"NE": (0, 0), "SW": (0, 0), "NW": (1, 0), "SE": (1, 0), "NS": (0, 0), "EW": (0, 0)}
"""A corner of a card no line passes near, by pattern, as (0 left / 1 right, 0 top): curves run
round two opposite corners and leave the other two free; straights leave all four."""


def padlock(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], pattern: str) -> None:
    """The lock on the card moved last: a small padlock in a corner of the card no line crosses."""
    x0, y0, x1, _ = box
    size = x1 - x0
    unit = size / CELL
    right, _ = FREE_CORNER[pattern]
    width, inset = 14 * unit, 7 * unit
    left = x1 - inset - width if right else x0 + inset
    top = y0 + 5 * unit
    draw.rounded_rectangle((left, top + 7 * unit, left + width, top + 16 * unit), radius=2, fill=INK)
    draw.arc((left + 3 * unit, top, left + width - 3 * unit, top + 13 * unit), 180, 360, fill=INK,
             width=max(2, round(3 * unit)))


def _labels(image: Image.Image, at: Layout) -> None:
    bottom = at.top + (at.high_y - at.low_y + 1) * at.cell
    right = at.left + (at.high_x - at.low_x + 1) * at.cell
    size = at.header.sizes.labels if at.header else LABELS
    for x in range(at.low_x, at.high_x + 1):
        cx = at.left + (x - at.low_x + 0.5) * at.cell
        draw_text(image, (cx, at.top - LABEL / 2), str(x), size, MUTED, anchor="mm", bold=True)
        draw_text(image, (cx, bottom + LABEL / 2), str(x), size, MUTED, anchor="mm", bold=True)
    for y in range(at.low_y, at.high_y + 1):
        cy = at.top + (y - at.low_y + 0.5) * at.cell
        draw_text(image, (at.left - LABEL / 2, cy), str(y), size, MUTED, anchor="mm", bold=True)
        draw_text(image, (right + LABEL / 2, cy), str(y), size, MUTED, anchor="mm", bold=True)


def _name(name: Any, size: int, *, bold: bool = False) -> str:
    return fit_text(str(name), size, NAME_ROOM, bold=bold)


def _winner(view: Mapping[str, Any]) -> str | None:
    """The team that won a finished game, as the engine decides it (a team whose partners all
    left loses whatever its pile): None while playing, or for a draw."""
    return view.get("winner") if view.get("outcome") else None


def _header_texts(view: Mapping[str, Any], deadline: float | None, width: int) -> Header:
    sizes = Sizes().at(width)
    title_size, stage_size = sizes.title, sizes.stage
    seats = view["seats"]
    outcome = view.get("outcome")
    phase = say(PHASES[view["phase"]])
    if outcome:
        title = say(N_("Tronix · game over: {result}")).format(result=say(RESULTS[_winner(view)]))
    else:
        mover = seats[view["turn"]]
        extra = say(N_(" ({count} actions left)")).format(count=view["actions_left"]) \
            if view["actions_left"] > 1 else ""
        title = say(N_("Tronix · {phase} · {player} ({team}) to play{extra}")).format(
            phase=phase, player=_name(mover["name"], title_size, bold=True), team=say(mover["team"]), extra=extra)
    members = {team: wrap_items([_name(s["name"], stage_size) for s in seats if s["team"] == team], stage_size,
                                width // 2 - 56) for team in COLOURS}
    in_hands = sum(s["hand_size"] for s in seats)
    stage = say(N_("{hands} card in hands · {table} on the table · {discarded} discarded") if in_hands == 1 else
                N_("{hands} cards in hands · {table} on the table · {discarded} discarded")).format(
        hands=in_hands, table=len(view["table"]), discarded=view["discarded"])
    if outcome and outcome.get("reason"):
        stage = say(N_("Ended: {result}")).format(result=say(outcome["reason"])) + " · " + stage
    if view["phase"] == "god" and not outcome:
        stage += say(N_(" · {count} quiet")).format(count=view["quiet"])
    if deadline is not None and not outcome:
        stage += say(N_(" · plays by {when}")).format(when=deadline_text(deadline))
    stage += say(N_(" · green solid, pink dashed"))
    title_lines = wrap_text(title, title_size, width - 24, bold=True, lines=3)
    stage_lines = wrap_text(stage, stage_size, width - 24, lines=4)
    teams = _team_row(sizes) + 4 + leading(stage_size) * max(len(lines) for lines in members.values())
    height = 10 + leading(title_size) * len(title_lines) + 6 + teams + leading(stage_size) * len(stage_lines) + 8
    return Header(title_lines, members, stage_lines, height, sizes)


def _team_row(sizes: Sizes) -> int:
    """The height of the row with a team's colour and pile."""
    return max(26, leading(sizes.team) + 4)


def _header(image: Image.Image, view: Mapping[str, Any], header: Header) -> None:
    """The title, each team's pile and members (the winners' marked once the game is over), and
    the stage."""
    sizes = header.sizes
    y = draw_lines(image, 12, 10, header.title, sizes.title, INK, bold=True) + 6
    draw = ImageDraw.Draw(image)
    winner = _winner(view)
    rows = max(len(lines) for lines in header.members.values())
    row = _team_row(sizes)
    x = 12
    for team, colour in COLOURS.items():
        label = f"{say(team).capitalize()} {view['piles'][team]}" + (" ★" if team == winner else "")
        if team == winner:
            draw.rounded_rectangle((x - 6, y - 4, x + image.width // 2 - 24, y + row + leading(sizes.stage) * rows),
                                   radius=6, fill=HIGHLIGHT)
        middle = y + row // 2
        draw.rectangle((x, middle - 10, x + 26, middle + 10), fill=CARD, outline=INK)
        for start, end in ((3, 23),) if team == "green" else ((3, 10), (16, 23)):  # pink dashed, as on the cards
            draw.line((x + start, middle, x + end, middle), fill=colour, width=5)
        draw_text(image, (x + 34, middle), label, sizes.team, INK, anchor="lm", bold=True)
        draw_lines(image, x + 34, y + row, header.members[team], sizes.stage, INK)
        x = image.width // 2
    draw_lines(image, 12, y + row + 4 + leading(sizes.stage) * rows, header.stage, sizes.stage, MUTED)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    faded = [mix(c, EMPTY, GHOST) for c in (GREEN, PINK, CARD, INK)]
    flat = [PAPER, INK, MUTED, WHITE, HIGHLIGHT, GREEN, PINK, CARD, EMPTY, GRID, *faded]
    blends = [(INK, PAPER, 6), (MUTED, PAPER, 6), (GREEN, CARD, 4), (PINK, CARD, 4), (GREEN, PINK, 3),
              (INK, CARD, 4), (faded[0], faded[2], 3), (faded[1], faded[2], 3), (HIGHLIGHT, CARD, 2),
              (INK, EMPTY, 3), (MUTED, EMPTY, 3), (HIGHLIGHT, EMPTY, 2), (GREEN, EMPTY, 2), (PINK, EMPTY, 2),
              (INK, HIGHLIGHT, 3), (HIGHLIGHT, PAPER, 2), (CARD, HIGHLIGHT, 1)]
    return palette_image(blend_palette(flat, blends))


def hand(game: Any, seat: int) -> bytes:
    """`seat`'s cards: how many of each kind, and the six patterns a card may show, by name; how
    to play one only while the game goes on."""
    view = game.view(seat)
    playing = not view.get("outcome")
    held: Mapping[str, int] = view["hand"]
    me = view["seats"][seat]
    counts = ", ".join(f"{count} {kind}" for kind, count in held.items()) or say(N_("no cards"))
    status = say(N_("You play {team} · your hand: {cards}")).format(team=say(me["team"]), cards=counts)
    lines = wrap_text(status, 18, MIN_WIDTH - 24, bold=True, lines=3)
    top = 10 + leading(18) * len(lines) + 4
    image = Image.new("RGB", (MIN_WIDTH, top + (140 if playing else 118)), PAPER)
    draw_lines(image, 12, 10, lines, 18, INK, bold=True)
    draw = ImageDraw.Draw(image)
    shown = ("NE", "SE", "SW", "NW", "NS", "EW")
    for index, pattern in enumerate(shown):
        x0 = 16 + index * (CELL + 32)
        card(draw, (x0, top, x0 + CELL, top + CELL), pattern)
        draw_text(image, (x0 + CELL / 2, top + CELL + 16), say(pattern), 16, INK, anchor="mm", bold=True)
    if playing:
        draw_text(image, (12, top + 106), say(N_("The pattern is where the green line runs: `play 1,0 NE`")), 14,
                  MUTED, anchor="lm")
    return encode_png(image, _palette())
