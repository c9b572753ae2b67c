"""The standings picture: a real PNG holding the table's rows, legible in Discord's preview,
nothing drawn over anything else, a league's movement shown by arrows and words as well as
colour; and the same table in words within Discord's 1,024 characters."""

from __future__ import annotations

import itertools

import pytest

from bench.palettes import BACKGROUND_MIN, PAIR_MIN, VISIONS, closest_background, closest_pair
from renderers.common import LEGIBLE_DIGITS
from renderers.palettes import drawing_in
from renderers.text import digit_height, recording
from renderers.tournament import MAX_ROWS, StandingsView, describe_standings, standings_png
from renderers.tournament.standings import DOWN, NOT_APPLIED, PALETTE, PREVIEW, UP
from tests.renderers.golden import decode

NAMES = ["Ana Pérez", "Bo", "大卫大卫大卫大卫大卫大卫大卫大卫", "Maximiliana Wolfeschlegelsteinhausen-Bergerdorff",
         "Ёлка", "🐉🐉🐉 龍の王様 🐉🐉🐉🐉🐉", "たろう", "김민준김민준김민준김민준김민준", "Ωμέγα",
         "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", "Frank", "Gus", "Hal", "Ivy"]
COLUMNS = ("#", "Player", "Pts", "BH", "BH-C1", "SB", "DE")
SPOKEN = ("rank", "player", "points", "Buchholz", "Buchholz cut-1", "Sonneborn–Berger", "direct encounter")


def _swiss(players: int = len(NAMES), note: str = "BH: Buchholz · BH-C1: Buchholz cut-1 · SB: Sonneborn–Berger · "
           "DE: direct encounter · the whole table is on the tournament's web page") -> StandingsView:
    rows = tuple((str(i + 1), NAMES[i % len(NAMES)], f"{7 - i * 0.5:g}", f"{30 - i:.1f}", f"{28 - i:.1f}",
                  f"{25 - i:.2f}", "") for i in range(players))
    return StandingsView("Autumn Swiss · Tromino Go", "After round 5 of 7", COLUMNS, rows, note=note, spoken=SPOKEN)


def _league() -> StandingsView:
    rows = tuple((str(i + 1), NAMES[i], f"{6 - i}", "", f"{9 - i:.1f}") for i in range(6))
    return StandingsView("Winter league · Division 2", "Season 3", ("#", "Player", "Pts", "DE", "SB"), rows,
                         movement=("up", None, None, None, None, "down"), moves={"up": "promoted", "down": "relegated"})


def test_the_picture_is_a_png_as_wide_as_discords_preview_is_shaped():
    image = decode(standings_png(_swiss()))
    assert image.width == 960 and 300 < image.height < 700


@pytest.mark.parametrize("view", [_swiss(), _swiss(3, ""), _league()], ids=["swiss", "short", "league"])
def test_every_text_keeps_its_digits_legible_in_discords_preview(view):
    with recording() as record:
        standings_png(view)
    page = record.page
    assert page is not None
    scale = min(1.0, PREVIEW[0] / page.width, PREVIEW[1] / page.height)
    small = [(text, size) for text, size in record.sizes_on(page) if digit_height(size) * scale < LEGIBLE_DIGITS]
    assert not small


@pytest.mark.parametrize("view", [_swiss(), _league()], ids=["swiss", "league"])
def test_no_text_crosses_the_edge_or_another_text(view):
    with recording() as record:
        standings_png(view)
    page = record.page
    assert page is not None
    boxes = record.on(page)
    for text, (left, top, right, bottom) in boxes:
        assert left >= 0 and right <= page.width and top >= 0 and bottom <= page.height, text
    for (one, a), (other, b) in itertools.combinations(boxes, 2):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], f"{one!r} overlaps {other!r}"


def test_a_long_name_is_cut_with_an_ellipsis_and_the_figures_show_whole():
    with recording() as record:
        standings_png(_swiss())
    assert record.page is not None
    drawn = [text for text, _ in record.on(record.page)]
    assert any(text.startswith("Maximiliana") and text.endswith("…") for text in drawn)
    assert "27.0" in drawn and "25.00" in drawn


def test_at_most_max_rows_rows_are_drawn_and_the_note_says_where_the_rest_are():
    with recording() as record:
        standings_png(_swiss(30))
    assert record.page is not None
    drawn = [text for text, _ in record.on(record.page)]
    assert str(MAX_ROWS) in drawn and str(MAX_ROWS + 1) not in drawn
    assert any("web page" in text for text in drawn)


def test_a_tie_break_that_did_not_apply_shows_a_dash_in_the_picture_and_nothing_in_words():
    view = _swiss(3, "")
    with recording() as record:
        standings_png(view)
    assert record.page is not None
    assert [text for text, _ in record.on(record.page)].count(NOT_APPLIED) == 3  # the DE column of each row
    assert "direct encounter" not in describe_standings(view)


def _colour_pixels(image, colour, box):
    crop = image.crop(box)
    return sum(count for count, rgb in crop.getcolors(1 << 16) or [] if rgb == colour)


def test_a_promoted_and_a_relegated_row_carry_an_arrow_and_a_word_not_colour_alone():
    with recording() as record:
        png = standings_png(_league())
    image = decode(png)
    assert record.page is not None
    drawn = [text for text, _ in record.on(record.page)]
    assert any("promoted" in text for text in drawn) and any("relegated" in text for text in drawn)
    arrows = (28, 0, 28 + 34, image.height)
    assert _colour_pixels(image, UP, arrows) > 50 and _colour_pixels(image, DOWN, arrows) > 50
    with drawing_in("mono"):
        grey = decode(standings_png(_league()))
    left = grey.crop(arrows)
    assert min(left.convert("L").getdata()) < 100, "the arrows stay dark in the high-contrast look"


@pytest.mark.parametrize("vision", sorted(VISIONS))
def test_promotion_and_relegation_colours_stay_apart_for_every_colour_vision(vision):
    distance, a, b = closest_pair(PALETTE, vision)
    assert distance >= PAIR_MIN, f"{a} and {b}: {distance:.1f}"
    distance, colour, behind = closest_background(PALETTE, vision)
    assert distance >= BACKGROUND_MIN, f"{colour} on {behind}: {distance:.1f}"


def test_the_description_reads_every_row_in_order_with_the_full_names_of_the_figures():
    text = describe_standings(_swiss(3))
    assert text.startswith("Autumn Swiss · Tromino Go. After round 5 of 7.")
    assert "1. Ana Pérez: points 7, Buchholz 30.0, Buchholz cut-1 28.0, Sonneborn–Berger 25.00;" in text
    assert text.index("Ana Pérez") < text.index("Bo:") < text.index("大卫")


def test_the_description_says_a_leagues_movement():
    text = describe_standings(_league())
    assert "1. Ana Pérez (promoted):" in text and "(relegated)" in text


@pytest.mark.parametrize("players", [14, 64])
def test_the_description_fits_discords_limit_and_counts_the_rows_it_leaves_out(players):
    text = describe_standings(_swiss(players))
    assert len(text) <= 1024
    said = text.count(": points ")
    if said < players:
        assert text.endswith(f"and {players - said} more.")
