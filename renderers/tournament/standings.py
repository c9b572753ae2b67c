"""A tournament's standings as a picture, and the same table in words for the attachment.

The caller (the bot) says everything in the table's language: the title, the line under it, the
column headings and every cell, already formatted; this module lays them out. The first column
is the rank, the second the player's name (cut with an ellipsis where it must be), the rest are
figures, right-aligned (a dash, in grey, where a tie-break did not apply). A league's rows going
up or down are tinted and carry an arrow pointing their way and the word the caller gives (never
colour alone); blue and orange, the pair every colour vision tells apart.

The picture is shaped for Discord's preview (550 × 350): at most `MAX_ROWS` rows are drawn (the
caller says where the rest are, in `note`), and its text keeps its digits LEGIBLE_DIGITS pixels
tall once scaled to the preview.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from PIL import Image, ImageDraw

from renderers.common import INK, MUTED, N_, PAPER, blend_palette, encode_png, palette_image, say
from renderers.palettes import Palette, set_grey
from renderers.text import digit_height, draw_lines, draw_text, drawable, fit_text, leading, text_width, wrap_text

RGB = tuple[int, int, int]
Movement = Literal["up", "down"] | None

WIDTH = 960
MAX_ROWS = 10
"""Rows a picture holds: more would shrink it below legibility in the preview."""
PREVIEW = (550, 350)
"""Discord's preview box (renderers.common.PREVIEW_WIDTH and its height)."""
TITLE_SIZE = 34
TEXT_SIZE = 24
SMALL_SIZE = 23
MARGIN = 28
ROW = 34
GAP = 22
"""Space between columns."""
NOT_APPLIED = "–"
"""Drawn in a figure's column where the caller gives no figure: the tie-break did not apply."""

STRIPE: RGB = (0xEC, 0xE6, 0xD8)
RULE: RGB = (0xB9, 0xAE, 0x95)
UP: RGB = (0x00, 0x4E, 0x9A)
"""Promotion: a dark blue."""
DOWN: RGB = (0xB3, 0x4A, 0x00)
"""Relegation: a dark orange."""
UP_TINT: RGB = (0xD5, 0xE5, 0xF6)
DOWN_TINT: RGB = (0xF8, 0xDD, 0xC4)
for _colour, _grey in ((STRIPE, 232), (RULE, 150), (UP, 40), (DOWN, 90), (UP_TINT, 215), (DOWN_TINT, 190)):
    set_grey(_colour, _grey)

COLOURS = {"up": UP, "down": DOWN}
TINTS = {"up": UP_TINT, "down": DOWN_TINT}


@dataclass(frozen=True)
class StandingsView:
    """A standings table as it is to be shown, every word already in the table's language.

    `columns`: the headings (rank, player, then the figures: points and tie-breaks);
    `spoken`: the same headings in full for the description ("Buchholz" for "BH"; defaults to
    `columns`); `rows`: one tuple of cells per player, best first; `movement`: per row, "up",
    "down" or None (leagues); `moves`: the words for "up" and "down" shown beside the arrows;
    `note`: a line under the table (what the abbreviations mean, where the rest of the table is)."""

    title: str
    subtitle: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    movement: tuple[Movement, ...] = ()
    moves: dict[str, str] = field(default_factory=dict)
    note: str = ""
    spoken: tuple[str, ...] = ()

    def moving(self, index: int) -> Movement:
        return self.movement[index] if index < len(self.movement) else None


def _palette() -> Image.Image:
    backgrounds = (PAPER, STRIPE, UP_TINT, DOWN_TINT)
    flat = [*backgrounds, INK, MUTED, RULE, UP, DOWN]
    blends = [(ink, back, 8) for ink in (INK, MUTED, UP, DOWN) for back in backgrounds]
    return palette_image(blend_palette(flat, blends))


def _widths(view: StandingsView, shown: Sequence[tuple[str, ...]]) -> list[int]:
    """Each column's width: the widest of its heading and cells; the name takes what is left."""
    count = len(view.columns)
    widths = []
    for index in range(count):
        cells = [row[index] for row in shown if index < len(row)]
        widths.append(max(text_width(text, TEXT_SIZE, bold=True) for text in [view.columns[index], *cells]))
    arrows = ROW if any(view.movement) else 0
    widths[1] = WIDTH - 2 * MARGIN - arrows - sum(w for i, w in enumerate(widths) if i != 1) - GAP * (count - 1)
    return widths


def standings_png(view: StandingsView) -> bytes:
    """The standings table of `view` as PNG bytes (at most MAX_ROWS rows; see the module)."""
    shown = view.rows[:MAX_ROWS]
    width = WIDTH - 2 * MARGIN
    note = wrap_text(drawable(view.note, ""), SMALL_SIZE, width, lines=2)
    height = MARGIN + TITLE_SIZE + 14 + (SMALL_SIZE + 12 if view.subtitle else 0) + ROW * (len(shown) + 1) \
        + (GAP // 2 + leading(SMALL_SIZE) * len(note) if note else 0) + MARGIN
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    top = MARGIN
    draw_text(image, (MARGIN, top), fit_text(drawable(view.title), TITLE_SIZE, width, bold=True), TITLE_SIZE, INK,
              bold=True)
    top += TITLE_SIZE + 14
    if view.subtitle:
        draw_text(image, (MARGIN, top), fit_text(drawable(view.subtitle), SMALL_SIZE, width), SMALL_SIZE, MUTED)
        top += SMALL_SIZE + 12
    widths = _widths(view, shown)
    arrows = ROW if any(view.movement) else 0
    _row(image, top, view.columns, widths, arrows, heading=True)
    top += ROW
    draw.line((MARGIN, top - 1, WIDTH - MARGIN, top - 1), fill=RULE, width=2)
    for index, cells in enumerate(shown):
        moving = view.moving(index)
        back = TINTS[moving] if moving else (STRIPE if index % 2 else PAPER)
        draw.rectangle((MARGIN, top, WIDTH - MARGIN - 1, top + ROW - 1), fill=back)
        if moving:
            _arrow(draw, MARGIN + ROW // 2, top + ROW // 2, moving)
        word = view.moves.get(moving, "") if moving else ""
        _row(image, top, cells, widths, arrows, word=word, colour=COLOURS[moving] if moving else INK)
        top += ROW
    draw.line((MARGIN, top, WIDTH - MARGIN, top), fill=RULE, width=2)
    draw_lines(image, MARGIN, top + GAP // 2, note, SMALL_SIZE, MUTED)
    return encode_png(image, _palette())


def _row(image: Image.Image, top: int, cells: Sequence[str], widths: Sequence[int], arrows: int, *,
         heading: bool = False, word: str = "", colour: RGB = INK) -> None:
    """One line of the table: the rank and the figures right-aligned, the name on the left (with
    the movement's word after it, in its colour)."""
    x = MARGIN + arrows
    middle = top + ROW / 2
    for index, width in enumerate(widths):
        text = drawable(cells[index], "") if index < len(cells) else ""
        ink = MUTED if heading else INK
        if index == 1:
            suffix = f"  {word}" if word else ""
            name = fit_text(text, TEXT_SIZE, width - text_width(suffix, TEXT_SIZE, bold=True), bold=heading)
            draw_text(image, (x, middle), name, TEXT_SIZE, ink, anchor="lm", bold=heading)
            if suffix:
                draw_text(image, (x + text_width(name, TEXT_SIZE, bold=heading), middle), suffix, TEXT_SIZE, colour,
                          anchor="lm", bold=True)
        elif text:
            draw_text(image, (x + width, middle), text, TEXT_SIZE, ink, anchor="rm", bold=heading)
        elif not heading and index >= 2:  # a tie-break that did not apply (tied players who never met)
            draw_text(image, (x + width, middle), NOT_APPLIED, TEXT_SIZE, MUTED, anchor="rm")
        x += width + GAP


def _arrow(draw: ImageDraw.ImageDraw, x: int, y: int, moving: str) -> None:
    """A filled triangle pointing up (promoted) or down (relegated)."""
    half = ROW // 4
    if moving == "up":
        points = [(x - half, y + half * 0.7), (x + half, y + half * 0.7), (x, y - half)]
    else:
        points = [(x - half, y - half * 0.7), (x + half, y - half * 0.7), (x, y + half)]
    draw.polygon(points, fill=COLOURS[moving])


def preview_digits(height: int) -> float:
    """How tall the table's digits are once a picture `height` pixels high is scaled into the
    preview (never scaled up)."""
    scale = min(1.0, PREVIEW[0] / WIDTH, PREVIEW[1] / height)
    return digit_height(min(TEXT_SIZE, SMALL_SIZE)) * scale


# ---------------------------------------------------------------------------------------------
# In words

LIMIT = 1024


def describe_standings(view: StandingsView, limit: int = LIMIT) -> str:
    """The whole table in words, at most `limit` characters: the title, then each row ("1. Ana:
    points 3, Buchholz 4.5"), and where rows must be left out, how many."""
    spoken = view.spoken or view.columns
    head = f"{drawable(view.title)}. {drawable(view.subtitle, '')}".strip()
    if not head.endswith("."):
        head += "."
    parts = []
    for index, cells in enumerate(view.rows):
        figures = ", ".join(f"{spoken[i]} {cells[i]}" for i in range(2, min(len(cells), len(spoken))) if cells[i])
        moving = view.moving(index)
        word = f" ({view.moves.get(moving, moving)})" if moving else ""
        parts.append(f"{cells[0]}. {drawable(cells[1])}{word}: {figures}")
    text = head
    for index, part in enumerate(parts):
        left = len(parts) - index - 1
        piece = f" {part}{';' if left else '.'}"
        reserve = len(_more(left)) + 1 if left else 0
        if len(text) + len(piece) + reserve > limit:
            return f"{text} {_more(left + 1)}"[:limit]
        text += piece
    return text[:limit]


def _more(count: int) -> str:
    return say(N_("and {count} more.")).format(count=count)


PALETTE = Palette("tournament standings", "promotion and relegation", (("promoted", UP), ("relegated", DOWN)),
                  (("paper", PAPER), ("stripe", STRIPE), ("promoted row", UP_TINT), ("relegated row", DOWN_TINT),
                   ("ink", INK)))
"""The colours that mark a league's movement, and what they are drawn on (checked for every
colour vision by tests/renderers/tournament; not a game's, so not in `palettes.PALETTES`)."""
