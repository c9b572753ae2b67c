"""Tronix pictures: square cards with their green and pink lines as they run (quarter arcs for
curves, straights crossing with the green one bridging the pink), the two colours also told
apart by style (green solid, pink dashed) for colour-blind players; x along the top and the
bottom, y down both sides, as the notation writes a cell; the locked card padlocked, the last
card haloed, the cards just scored drawn faintly where they were; a header with both teams'
piles, the phase and whose turn it is. Drawn from `game.view(None)` only.

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
    mix,
    palette_image,
    say,
)
from renderers.text import draw_lines, draw_text, fit_text, leading, wrap_items, wrap_text

CELL = 56
LINE = 7
LABEL = 28
TITLE, TEAM, STAGE = 20, 16, 14
NAME_ROOM = 200
"""The most pixels a name takes; longer names are shortened with an ellipsis."""
MARGIN = 1
MIN_WIDTH = 560
GREEN: RGB = (0x00, 0x9E, 0x73)
PINK: RGB = (0xCC, 0x5F, 0xA0)
CARD: RGB = (0xFF, 0xFC, 0xF2)
EMPTY: RGB = (0xE8, 0xE2, 0xD3)
GRID: RGB = (0xD6, 0xCE, 0xBD)
GHOST = 0.72
"""How far a card just scored fades towards the background."""
COLOURS = {"green": GREEN, "pink": PINK}
PHASES = {"placement": N_("Placement"), "god": N_("God Mode"), "over": N_("Game over")}

PORTS = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}
LINES = {"NE": ("NE", "SW"), "SE": ("SE", "NW"), "SW": ("SW", "NE"), "NW": ("NW", "SE"),
         "NS": ("NS", "EW"), "EW": ("EW", "NS")}
"""Pattern -> (the ports of the green line, the ports of the pink line)."""

Cell = tuple[int, int]


@dataclass(frozen=True)
class Header:
    """The header's texts wrapped to the picture's width: the title, each team's members (under
    its name and pile), the stage; `height` in pixels."""

    title: list[str]
    members: dict[str, list[str]]
    stage: list[str]
    height: int


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

    def box(self, cell: Cell) -> tuple[int, int, int, int]:
        x0 = self.left + (cell[0] - self.low_x) * CELL
        y0 = self.top + (cell[1] - self.low_y) * CELL
        return x0, y0, x0 + CELL, y0 + CELL


def layout(view: Mapping[str, Any], deadline: float | None = None) -> Layout:
    """Where everything goes, for the picture with that `deadline` in its header."""
    cells = [tuple(c["at"]) for c in (*view["table"], *view.get("scored", ()))] or [(0, 0)]
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    low_x, high_x, low_y, high_y = min(xs) - MARGIN, max(xs) + MARGIN, min(ys) - MARGIN, max(ys) + MARGIN
    grid_width = (high_x - low_x + 1) * CELL
    width = max(grid_width + 2 * LABEL + 24, MIN_WIDTH)
    left = (width - grid_width) // 2
    header = _header_texts(view, deadline, width)
    top = header.height + LABEL
    return Layout(low_x, high_x, low_y, high_y, left, top, width, top + (high_y - low_y + 1) * CELL + LABEL, header)


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
            draw.rectangle((x0 + 1, y0 + 1, x1 - 2, y1 - 2), outline=HIGHLIGHT, width=4)
        if cell == locked:
            padlock(draw, at.box(cell))
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


def _line(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], ports: str, colour: RGB, *, dashed: bool,
          gap: bool, under: RGB) -> None:
    x0, y0, _, _ = box
    (ax, ay), (bx, by) = PORTS[ports[0]], PORTS[ports[1]]
    if ax == bx or ay == by:  # a straight line across the card
        start, end = (x0 + ax * CELL, y0 + ay * CELL), (x0 + bx * CELL, y0 + by * CELL)
        pieces = _split(start, end, gap)
        for a, b in pieces:
            _dashes(draw, a, b, colour, dashed)
        return
    corner = (x0 + (ax if ax in (0.0, 1.0) else bx) * CELL, y0 + (ay if ay in (0.0, 1.0) else by) * CELL)
    steps = 12
    points = []
    start_angle = math.atan2(y0 + ay * CELL - corner[1], x0 + ax * CELL - corner[0])
    end_angle = math.atan2(y0 + by * CELL - corner[1], x0 + bx * CELL - corner[0])
    sweep = (end_angle - start_angle + math.pi) % (2 * math.pi) - math.pi
    for k in range(steps + 1):
        angle = start_angle + sweep * k / steps
        points.append((corner[0] + CELL / 2 * math.cos(angle), corner[1] + CELL / 2 * math.sin(angle)))
    for k in range(steps):
        if dashed and k % 3 == 2:
            continue
        draw.line((points[k], points[k + 1]), fill=colour, width=LINE)


def _split(start: tuple[float, float], end: tuple[float, float], gap: bool) -> list[tuple[tuple[float, float],
                                                                                          tuple[float, float]]]:
    """The straight line, with a gap in the middle where the other line bridges it."""
    if not gap:
        return [(start, end)]
    mx, my = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
    dx, dy = (end[0] - start[0]) / CELL, (end[1] - start[1]) / CELL
    cut = LINE + 3
    return [(start, (mx - dx * cut, my - dy * cut)), ((mx + dx * cut, my + dy * cut), end)]


def _dashes(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], colour: RGB,
            dashed: bool) -> None:
    if not dashed:
        draw.line((start, end), fill=colour, width=LINE)
        return
    length = math.dist(start, end)
    dash, space = 9.0, 5.0
    done = 0.0
    while done < length:
        a = done / length
        b = min(done + dash, length) / length
        draw.line(((start[0] + (end[0] - start[0]) * a, start[1] + (end[1] - start[1]) * a),
                   (start[0] + (end[0] - start[0]) * b, start[1] + (end[1] - start[1]) * b)), fill=colour, width=LINE)
        done += dash + space


def padlock(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    """The lock on the card moved last: a small padlock in its top-left corner."""
    x0, y0, _, _ = box
    draw.rounded_rectangle((x0 + 4, y0 + 12, x0 + 20, y0 + 24), radius=2, fill=INK)
    draw.arc((x0 + 7, y0 + 4, x0 + 17, y0 + 17), 180, 360, fill=INK, width=3)


def _labels(image: Image.Image, at: Layout) -> None:
    bottom = at.top + (at.high_y - at.low_y + 1) * CELL
    right = at.left + (at.high_x - at.low_x + 1) * CELL
    for x in range(at.low_x, at.high_x + 1):
        cx = at.left + (x - at.low_x + 0.5) * CELL
        draw_text(image, (cx, at.top - LABEL / 2), str(x), 14, MUTED, anchor="mm", bold=True)
        draw_text(image, (cx, bottom + LABEL / 2), str(x), 14, MUTED, anchor="mm", bold=True)
    for y in range(at.low_y, at.high_y + 1):
        cy = at.top + (y - at.low_y + 0.5) * CELL
        draw_text(image, (at.left - LABEL / 2, cy), str(y), 14, MUTED, anchor="mm", bold=True)
        draw_text(image, (right + LABEL / 2, cy), str(y), 14, MUTED, anchor="mm", bold=True)


def _name(name: Any, size: int, *, bold: bool = False) -> str:
    return fit_text(str(name), size, NAME_ROOM, bold=bold)


def _winner(view: Mapping[str, Any]) -> str | None:
    """The team that won a finished game (None while playing, or for a draw)."""
    if not view.get("outcome"):
        return None
    piles = view["piles"]
    return None if piles["green"] == piles["pink"] else "green" if piles["green"] > piles["pink"] else "pink"


def _header_texts(view: Mapping[str, Any], deadline: float | None, width: int) -> Header:
    seats = view["seats"]
    outcome = view.get("outcome")
    phase = say(PHASES[view["phase"]])
    if outcome:
        piles = view["piles"]
        result = say(N_("a draw")) if piles["green"] == piles["pink"] else \
            say(N_("green wins")) if piles["green"] > piles["pink"] else say(N_("pink wins"))
        title = say(N_("Tronix · game over: {result}")).format(result=result)
    else:
        mover = seats[view["turn"]]
        extra = say(N_(" ({count} actions left)")).format(count=view["actions_left"]) \
            if view["actions_left"] > 1 else ""
        title = say(N_("Tronix · {phase} · {player} ({team}) to play{extra}")).format(
            phase=phase, player=_name(mover["name"], TITLE, bold=True), team=say(mover["team"]), extra=extra)
    members = {team: wrap_items([_name(s["name"], STAGE) for s in seats if s["team"] == team], STAGE,
                                width // 2 - 56) for team in COLOURS}
    in_hands = sum(s["hand_size"] for s in seats)
    stage = say(N_("{hands} card in hands · {table} on the table · {discarded} discarded") if in_hands == 1 else
                N_("{hands} cards in hands · {table} on the table · {discarded} discarded")).format(
        hands=in_hands, table=len(view["table"]), discarded=view["discarded"])
    if view["phase"] == "god" and not outcome:
        stage += say(N_(" · {count} quiet")).format(count=view["quiet"])
    if deadline is not None and not outcome:
        stage += say(N_(" · plays by {when}")).format(when=deadline_text(deadline))
    stage += say(N_(" · green solid, pink dashed"))
    title_lines = wrap_text(title, TITLE, width - 24, bold=True, lines=3)
    stage_lines = wrap_text(stage, STAGE, width - 24, lines=4)
    teams = 30 + leading(STAGE) * max(len(lines) for lines in members.values())
    height = 10 + leading(TITLE) * len(title_lines) + 6 + teams + leading(STAGE) * len(stage_lines) + 8
    return Header(title_lines, members, stage_lines, height)


def _header(image: Image.Image, view: Mapping[str, Any], header: Header) -> None:
    """The title, each team's pile and members (the winners' marked once the game is over), and
    the stage."""
    y = draw_lines(image, 12, 10, header.title, TITLE, INK, bold=True) + 6
    draw = ImageDraw.Draw(image)
    winner = _winner(view)
    rows = max(len(lines) for lines in header.members.values())
    x = 12
    for team, colour in COLOURS.items():
        label = f"{say(team).capitalize()} {view['piles'][team]}" + (" ★" if team == winner else "")
        if team == winner:
            draw.rounded_rectangle((x - 6, y - 4, x + image.width // 2 - 24, y + 26 + leading(STAGE) * rows),
                                   radius=6, fill=HIGHLIGHT)
        draw.rectangle((x, y + 3, x + 26, y + 23), fill=CARD, outline=INK)
        draw.line((x + 3, y + 13, x + 23, y + 13), fill=colour, width=5)
        draw_text(image, (x + 34, y + 13), label, TEAM, INK, anchor="lm", bold=True)
        draw_lines(image, x + 34, y + 26, header.members[team], STAGE, INK)
        x = image.width // 2
    draw_lines(image, 12, y + 30 + leading(STAGE) * rows, header.stage, STAGE, MUTED)


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
