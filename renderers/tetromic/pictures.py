"""Tetromic pictures: every player's board side by side (`board`) and one player's hand
(`hand`), drawn from the game's views only (the public one for the boards).

Each board shows its cells coloured by the kind that covered them (and marked with the kind's
letter, for colour-blind players), x labels 0… along the bottom and y labels 0… up the left as in
the notation, the last placement outlined, the rows it just cleared hatched, a header (the
player, their level, points and the points needed, whether they have drawn this phase) and
below it the hand as small icons with a count (the kinds are secret: the icons are blank). Up to
four boards a row, two rows for five to eight players. A finished game sets the winner's whole
board, labels and hand included, on a yellow panel and says so; nobody is "to draw" any more.
The wider the picture, the larger its texts, so that they stay legible in a chat's preview."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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
    encode_png,
    hatch_tile,
    ink_on,
    legible,
    mix,
    say,
)
from renderers.palettes import Palette, mono, register, set_grey
from renderers.text import draw_lines, draw_text, fit_name, fit_text, leading, text_width, wrap_text

CELL = 34
GAP = 26
NAME = 18
SMALL = 16
LABELS = 16
"""The size of the x and y labels, and of the kinds' letters in the cells."""
TITLE = 22
PER_ROW = 4
KIND_COLOURS: dict[str, RGB] = {
    "I": (0x00, 0x99, 0x88), "O": (0x77, 0xFF, 0x00), "L": (0xEE, 0x00, 0x00),
    "S": (0x00, 0x22, 0x88), "T": (0xAA, 0x55, 0xFF),
}
"""One colour per kind (teal, lime, red, navy, violet), chosen by search (bench/palettes.py) so
that every pair stays at least 30 apart in CAM02-UCS for every colour vision; each cell also
shows its kind's letter. Tetromic has no seat colours: every seat has a board of its own, under
its name."""
MONO_KINDS: dict[str, RGB] = {"I": (0xB8, 0xB8, 0xB8), "O": (0xA0, 0xA0, 0xA0), "L": (0x90, 0x90, 0x90),
                              "S": (0xAC, 0xAC, 0xAC), "T": (0x98, 0x98, 0x98)}
"""The kinds in the high-contrast look: greys under black letters, the letter telling the kind."""
EMPTY: RGB = (0xE9, 0xE4, 0xD8)
GRID: RGB = (0xCF, 0xC6, 0xB2)
HATCH: RGB = (0x9A, 0x93, 0x86)
HIDDEN: RGB = (0xB9, 0xB2, 0xA3)
"""A piece in someone's hand: its kind is theirs to know."""
register("tetromic", Palette("tetromic", "kinds of piece", tuple(KIND_COLOURS.items()), (
    ("empty cell", EMPTY), ("paper", PAPER), ("ink", INK), ("grid", GRID))))
"""The kinds fill cells on the empty board, between its grid lines, next to ink outlines. (The
grey hatching of a just-cleared row is a striped pattern on empty cells, never a solid fill, so
it is not listed.)"""
for _colour, _grey in ((EMPTY, 255), (GRID, 120), (HATCH, 90), (HIDDEN, 150)):
    set_grey(_colour, _grey)


def kind_colour(kind: str) -> RGB:
    """The colour of a kind's cells (a grey in the high-contrast look)."""
    return MONO_KINDS[kind] if mono() else KIND_COLOURS[kind]


def letter_colour(fill: RGB) -> RGB:
    """The colour of a kind's letter on its cell: a darker (on dark cells lighter) shade of the
    cell, ink in the high-contrast look."""
    if mono():
        return INK
    return mix(fill, ink_on(fill), 0.55)


@dataclass(frozen=True)
class Sizes:
    """The picture's text sizes: as designed, or larger on a picture wide enough that the chat's
    preview shrinks it (see `renderers.common.legible`); the bands they need."""

    title: int = TITLE
    name: int = NAME
    small: int = SMALL
    labels: int = LABELS

    def at(self, width: int) -> Sizes:
        return Sizes(*(legible(size, width) for size in (self.title, self.name, self.small, self.labels)))

    @property
    def label(self) -> int:
        """The width of the y labels' column, left of each board (and the x labels' band)."""
        return max(22, text_width("10", self.labels, bold=True) + 8)

    @property
    def header(self) -> int:
        """A board's header: the name, then two lines for level, points and state."""
        return 14 + leading(self.name) + 2 * leading(self.small)

    @property
    def hand(self) -> int:
        """The band under a board's labels: the hand's icons and count."""
        return max(30, leading(self.small) + 10)


@dataclass(frozen=True)
class Layout:
    """Where the boards go: the title's lines above, then panels `panel_w` × `panel_h`."""

    title: list[str]
    top: int
    panel_w: int
    panel_h: int
    width: int
    height: int
    sizes: Sizes = Sizes()

    def origin(self, place: int) -> tuple[int, int]:
        """The top left of the `place`-th panel (its header's top, its labels' left)."""
        return GAP + (place % PER_ROW) * self.panel_w, self.top + (place // PER_ROW) * self.panel_h

    def grid(self, place: int) -> tuple[int, int]:
        """The top left of the `place`-th board's cells."""
        left, top = self.origin(place)
        return left + self.sizes.label, top + self.sizes.header


def board(game: Any, viewer: int | None = None, *, feet: Mapping[int, Image.Image] | None = None,
          deadline: float | None = None, part: int | None = None) -> bytes:
    """Every board of the game (PNG); `viewer`'s comes first and is framed; the header says when
    the phase ends, or who won. `part`: only that seat's board, under the same header (for a
    phone, where the boards side by side would be too small)."""
    outcome = game.outcome()
    winners = outcome.winners if outcome else None
    if part is not None:
        return encode_png(seat_board_image(game.view(None), part, deadline, winners=winners))
    return encode_png(board_image(game.view(None), viewer, deadline, winners=winners))


def board_parts(game: Any) -> int:
    """The boards that can be drawn alone: one per seat."""
    return int(game.players)


def order(view: Mapping[str, Any], viewer: int | None) -> list[int]:
    """The seats in the order their boards are drawn: the viewer's first."""
    seats = list(range(len(view["seats"])))
    if viewer is not None and 0 <= viewer < len(seats):
        seats.remove(viewer)
        seats.insert(0, viewer)
    return seats


def layout(view: Mapping[str, Any], title: str) -> Layout:
    count = len(view["seats"])
    columns, rows = min(PER_ROW, count), (count + PER_ROW - 1) // PER_ROW
    sizes = Sizes()
    for _ in range(2):  # the texts' sizes follow the picture's width, which their labels widen a little
        panel_w = sizes.label + view["width"] * CELL + GAP
        width = max(GAP + columns * panel_w, 360)
        sizes = Sizes().at(width)
    panel_w = sizes.label + view["width"] * CELL + GAP
    width = max(GAP + columns * panel_w, 360)
    panel_h = sizes.header + view["height"] * CELL + sizes.label + sizes.hand + GAP
    lines = wrap_text(title, sizes.title, width - 2 * GAP, bold=True, lines=4)
    top = 12 + len(lines) * leading(sizes.title) + 8
    return Layout(lines, top, panel_w, panel_h, width, top + rows * panel_h, sizes)


def _title(view: Mapping[str, Any], deadline: float | None, winners: tuple[int, ...] | None) -> str:
    seats = view["seats"]
    won = list(winners) if winners is not None else [view["winner"]] if view.get("winner") is not None else None
    if won is not None:
        names = ", ".join(fit_text(str(seats[w]["name"]), TITLE, 260, bold=True) for w in won)
        if not names:
            return "Tetromic · " + say(N_("Game over · nobody wins"))
        return "Tetromic · " + say(N_("Game over · {players} wins") if len(won) == 1 else
                                   N_("Game over · {players} win")).format(players=names)
    title = "Tetromic · " + say(N_("phase {phase} · first to level {level} wins")).format(
        phase=view["phase"], level=view["target_level"])
    if deadline is not None:
        title += " · " + say(N_("phase ends {when}")).format(when=deadline_text(deadline))
    return title


def board_image(view: Mapping[str, Any], viewer: int | None = None, deadline: float | None = None, *,
                winners: tuple[int, ...] | None = None) -> Image.Image:
    """The boards as an RGB image (see `board`); `winners` once the game is over."""
    if winners is None and view.get("winner") is not None:
        winners = (view["winner"],)
    at = layout(view, _title(view, deadline, winners))
    image = Image.new("RGB", (at.width, at.height), PAPER)
    draw_lines(image, GAP, 12, at.title, at.sizes.title, INK, bold=True)
    for place, seat in enumerate(order(view, viewer)):
        _panel(image, view, seat, at, place, framed=seat == viewer, winners=winners)
    return image


def seat_board_image(view: Mapping[str, Any], seat: int, deadline: float | None = None, *,
                     winners: tuple[int, ...] | None = None) -> Image.Image:
    """`seat`'s board alone as an RGB image, under the whole game's header (see `board`)."""
    if winners is None and view.get("winner") is not None:
        winners = (view["winner"],)
    title = _title(view, deadline, winners)
    alone = {**view, "seats": [view["seats"][seat]]}
    at = layout(alone, title)
    image = Image.new("RGB", (at.width, at.height), PAPER)
    draw_lines(image, GAP, 12, at.title, at.sizes.title, INK, bold=True)
    _panel(image, alone, 0, at, 0, framed=False,
           winners=None if winners is None else (0,) if seat in winners else ())
    return image


def _status(info: Mapping[str, Any], seat: int, winners: tuple[int, ...] | None) -> str:
    if winners is not None:
        return say(N_("winner") if seat in winners else N_("final"))
    return say(N_("out") if info["resigned"] else N_("drew") if info["drew"] else N_("done") if info["done"]
               else N_("to draw"))


def _panel(image: Image.Image, view: Mapping[str, Any], seat: int, at: Layout, place: int, *, framed: bool,
           winners: tuple[int, ...] | None) -> None:
    info = view["seats"][seat]
    width, height = view["width"], view["height"]
    sizes = at.sizes
    draw = ImageDraw.Draw(image)
    left, top = at.origin(place)
    grid_left, grid_top = at.grid(place)
    box_w = width * CELL
    hand_top = grid_top + height * CELL + sizes.label + 4
    won = winners is not None and seat in winners
    if won:  # the whole board on the panel: its labels, hand and header too, none cut by its edge
        draw.rounded_rectangle((left - 8, top + 2, grid_left + box_w + 8, hand_top + sizes.hand + 2), radius=8,
                               fill=HIGHLIGHT)
    name = fit_name(str(info["name"]), " ★" if won else "", sizes.name, box_w, bold=True)
    draw_text(image, (grid_left, top + 4 + leading(sizes.name) / 2), name, sizes.name, INK, anchor="lm", bold=True)
    line = say(N_("level {level} · {points}/{needed} pts · {status}")).format(
        level=info["level"], points=info["points"], needed=info["needed"], status=_status(info, seat, winners))
    draw_lines(image, grid_left, top + 4 + leading(sizes.name), wrap_text(line, sizes.small, box_w, lines=2),
               sizes.small, INK if won else MUTED, bold=won)
    if framed:
        draw.rectangle((grid_left - 4, grid_top - 4, grid_left + box_w + 3, grid_top + height * CELL + 3),
                       outline=INK if winners is not None else HIGHLIGHT, width=3)
    cleared = set(info.get("just_cleared", []))
    rows = info["board"]
    for y in range(height):
        row = rows[height - 1 - y]
        for x in range(width):
            x0, y0 = grid_left + x * CELL, grid_top + (height - 1 - y) * CELL
            cell = row[x]
            fill = kind_colour(cell) if cell in KIND_COLOURS else EMPTY
            draw.rectangle((x0, y0, x0 + CELL - 1, y0 + CELL - 1), fill=fill, outline=GRID)
            if cell in KIND_COLOURS:
                draw_text(image, (x0 + CELL / 2, y0 + CELL / 2), cell, min(sizes.labels, CELL - 6),
                          letter_colour(fill), anchor="mm", bold=mono())
            elif y in cleared:
                image.paste(hatch_tile(CELL - 2, EMPTY, HATCH), (x0 + 1, y0 + 1))
    for x, y in info.get("last", []):
        x0, y0 = grid_left + x * CELL, grid_top + (height - 1 - y) * CELL
        draw.rectangle((x0 + 1, y0 + 1, x0 + CELL - 2, y0 + CELL - 2), outline=INK, width=3)
    labels = INK if won else MUTED
    for x in range(width):
        draw_text(image, (grid_left + x * CELL + CELL / 2, grid_top + height * CELL + sizes.label / 2 + 2), str(x),
                  sizes.labels, labels, anchor="mm")
    for y in range(height):
        draw_text(image, (left + sizes.label / 2, grid_top + (height - 1 - y) * CELL + CELL / 2), str(y),
                  sizes.labels, labels, anchor="mm")
    _hand_strip(image, grid_left, hand_top, box_w, int(info.get("hand_size", 0)), sizes, labels)


HIDDEN_ICON = 8
"""A hidden piece's icon: four squares of this size in a 2×2 block."""


def _hand_strip(image: Image.Image, left: int, top: int, width: int, count: int, sizes: Sizes = Sizes(),
                colour: RGB = MUTED) -> None:
    """The hand under a board: one blank tetromino icon per piece held (as many as fit), and
    the count."""
    draw = ImageDraw.Draw(image)
    label = say(N_("hand: {count}")).format(count=count) if count else say(N_("hand: empty"))
    room = width - 8 - text_width(label, sizes.small)
    step = 2 * HIDDEN_ICON + 4
    shown = min(count, max(0, room // step))
    for index in range(shown):
        x0 = left + index * step
        for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1)):
            x, y = x0 + dx * HIDDEN_ICON, top + 4 + dy * HIDDEN_ICON
            draw.rectangle((x, y, x + HIDDEN_ICON - 2, y + HIDDEN_ICON - 2), fill=HIDDEN)
    draw_text(image, (left + shown * step + (6 if shown else 0), top + sizes.hand / 2 - 2), label, sizes.small,
              colour, anchor="lm")


ICON = 14


def hand(game: Any, seat: int) -> bytes:
    """The pieces `seat` holds, as small icons with counts (for that player alone)."""
    return encode_png(hand_image(game.view(seat), over=game.outcome() is not None))


def hand_image(view: Mapping[str, Any], *, over: bool = False) -> Image.Image:
    """A seat's hand from `Tetromic.view(seat)` as an RGB image (see `hand`); once the game is
    `over` it asks for nothing."""
    held: dict[str, int] = view.get("hand", {})
    playable = set(view.get("playable", []))
    kinds = [k for k in "IOLST" if held.get(k)]
    width = max(360, 24 + len(kinds) * 110)
    title = say(N_("Your pieces · {count}")).format(count=sum(held.values())) if kinds else \
        say(N_("You hold no pieces") if over else N_("You hold no pieces: `draw` once a phase"))
    lines = wrap_text(title, 18, width - 28, bold=True, lines=3)
    top = 8 + len(lines) * leading(18) + 6
    image = Image.new("RGB", (width, top + 110), PAPER)
    draw = ImageDraw.Draw(image)
    draw_lines(image, 14, 8, lines, 18, INK, bold=True)
    for index, kind in enumerate(kinds):
        left = 14 + index * 110
        cells = ORIENTATIONS[BY_KIND[kind][0]]
        colour = kind_colour(kind) if kind in playable else mix(kind_colour(kind), WHITE, 0.55)
        span_y = max(y for _, y in cells)
        for x, y in cells:
            x0, y0 = left + x * ICON * 2, top + (span_y - y) * ICON * 2
            draw.rectangle((x0, y0, x0 + ICON * 2 - 2, y0 + ICON * 2 - 2), fill=colour, outline=INK)
        draw_text(image, (left, top + 94), f"{kind} ×{held[kind]}", 16, INK, anchor="lm", bold=True)
    return image
