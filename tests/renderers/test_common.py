"""What all renderers share: the palette, the bundled font, the labelled grid, PNG encoding and
dispatch by game name."""

from __future__ import annotations

import io
import itertools
import math

import pytest
from PIL import Image

from renderers import RENDERERS, NoRenderer, render, render_hand
from renderers.common import (
    BOARD,
    DEAD,
    INK,
    NEUTRAL,
    PAPER,
    SEAT_COLOURS,
    blend_palette,
    column_label,
    encode_png,
    grid_canvas,
    palette_image,
    seat_colour,
    seat_colour_name,
)
from tests.renderers.golden import MAX_DIFFERENT, assert_golden, decode, difference

# ---------------------------------------------------------------------------------------------
# colour vision: Machado, Oliveira & Fernandes (2009) simulation matrices at full severity,
# applied in linear RGB, compared in CIELAB.

SIMULATIONS = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb, matrix):
    lin = [_linear(c) for c in rgb]
    r, g, b = (min(1.0, max(0.0, sum(m * v for m, v in zip(row, lin, strict=True)))) for row in matrix)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _closest_pair(colours, matrix):
    labs = [_lab(c, matrix) for c in colours]
    return min(math.dist(a, b) for a, b in itertools.combinations(labs, 2))


def test_six_named_seat_colours():
    assert len(SEAT_COLOURS) == 6
    names = [name for name, _ in SEAT_COLOURS]
    assert len(set(names)) == 6 and all(name.replace(" ", "").isalpha() for name in names)
    assert [seat_colour(i) for i in range(6)] == [rgb for _, rgb in SEAT_COLOURS]
    assert seat_colour_name(1) == names[1]


@pytest.mark.parametrize("vision", sorted(SIMULATIONS))
def test_seat_colours_stay_apart_for_colour_blind_players(vision):
    colours = [rgb for _, rgb in SEAT_COLOURS]
    assert _closest_pair(colours, SIMULATIONS[vision]) >= 15


@pytest.mark.parametrize("vision", sorted(SIMULATIONS))
def test_dead_grey_and_the_neutral_stand_apart_from_every_seat_colour(vision):
    """Dead lines are a light grey (and faint all through: grey face, grey pips), free lines a
    near-black; neither can be taken for a seat, whatever the player's colour vision."""
    matrix = SIMULATIONS[vision]
    for _, rgb in SEAT_COLOURS:
        assert math.dist(_lab(rgb, matrix), _lab(DEAD, matrix)) >= 15
        assert math.dist(_lab(rgb, matrix), _lab(NEUTRAL, matrix)) >= 15
    assert math.dist(_lab(DEAD, matrix), _lab(NEUTRAL, matrix)) >= 30
    assert math.dist(_lab(DEAD, matrix), _lab(BOARD, matrix)) >= 10


def test_the_grid_canvas_labels_every_column_and_row_on_both_sides():
    image, layout = grid_canvas(5, 4, 40, header=30)
    assert image.size == (layout.width, 30 + layout.height)
    assert layout.box(0, 0) == (layout.left, layout.top, layout.left + 40, layout.top + 40)
    assert layout.box(4, 3)[2:] == (layout.right, layout.bottom)
    assert [column_label(x) for x in range(5)] == list("abcde")
    half = layout.margin // 2

    def inked(cx, cy):
        patch = image.crop((cx - 12, cy - 12, cx + 12, cy + 12)).convert("L")
        return patch.getextrema()[0] < 80

    for x in range(5):
        cx = int(layout.centre(x, 0)[0])
        assert inked(cx, layout.top - half) and inked(cx, layout.bottom + half), column_label(x)
    for y in range(4):
        cy = int(layout.centre(0, y)[1])
        assert inked(layout.left - half, cy) and inked(layout.right + half, cy), y + 1
    assert image.getpixel((5, 5)) == PAPER
    assert image.getpixel((int(layout.centre(2, 2)[0]) + 5, int(layout.centre(2, 2)[1]) + 5)) == BOARD


def test_png_encoding_is_deterministic_and_palette_based():
    image = Image.new("RGB", (40, 20), PAPER)
    image.paste(INK, (5, 5, 15, 15))
    palette = palette_image(blend_palette([PAPER, INK], [(PAPER, INK, 2)]))
    first = encode_png(image, palette)
    assert first == encode_png(image.copy(), palette)
    decoded = Image.open(io.BytesIO(first))
    assert decoded.format == "PNG" and decoded.mode == "P"
    assert decoded.convert("RGB").getpixel((10, 10)) == INK
    assert b"tIME" not in first and b"tEXt" not in first
    assert decode(encode_png(image)).size == (40, 20)


def test_a_palette_holds_at_most_256_colours():
    with pytest.raises(ValueError, match="256"):
        blend_palette([(i, i, i) for i in range(200)], [((0, 0, 0), (255, 0, 0), 100)])


def test_spare_palette_entries_go_to_a_players_picture():
    picture = Image.new("RGB", (8, 8), (10, 200, 30))
    palette = palette_image([PAPER, INK], picture, spare=8)
    colours = palette.getpalette()[:9]
    assert colours[6:9] == [10, 200, 30]


class _Chess:
    name = "chess"


def test_a_game_without_a_renderer_is_refused_clearly():
    assert "tronimoes" in RENDERERS
    with pytest.raises(NoRenderer, match=r"no board renderer for the game 'chess'.*tronimoes"):
        render(_Chess())
    with pytest.raises(NoRenderer):
        render_hand(_Chess(), 0)


def test_the_golden_comparison_forgives_soft_edges_but_not_a_missing_pip():
    base = Image.new("RGB", (300, 200), BOARD)
    base.paste(INK, (100, 50, 200, 150))
    softened = base.copy()
    for x in range(100, 200, 3):
        softened.putpixel((x, 50), (70, 70, 70))
    assert difference(softened, base)[0] == 0
    pip = base.copy()
    pip.paste(INK, (20, 20, 31, 31))
    assert difference(pip, base)[0] > MAX_DIFFERENT


def test_a_missing_golden_image_fails_instead_of_passing(monkeypatch):
    monkeypatch.delenv("UPDATE_GOLDEN", raising=False)
    with pytest.raises(AssertionError, match="no golden image"):
        assert_golden("no-such-picture", encode_png(Image.new("RGB", (4, 4), PAPER)))
