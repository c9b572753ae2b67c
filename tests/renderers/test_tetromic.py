"""Tetromic pictures, decoded and looked at: every board side by side (two rows past four), cells
in their kind's colour where the notation puts them, the last placement outlined, rows just
cleared hatched, the hand as icons with counts; and the console's text board."""

from __future__ import annotations

import io

from PIL import Image

from engine.tetromic import Tetromic
from renderers import render, render_hand, text_board
from renderers.common import HIGHLIGHT, PAPER
from renderers.tetromic.pictures import CELL, KIND_COLOURS, layout
from renderers.text import recording
from tests.engine.test_tetromic import position
from tests.renderers.test_finished_games import finished


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def cell_centre(game: Tetromic, seat_place: int, x: int, y: int) -> tuple[int, int]:
    """A point near the middle of a cell of the `seat_place`-th board (off the kind's letter)."""
    view = game.view(None)
    left, top = layout(view, "Tetromic").grid(seat_place)
    return left + x * CELL + CELL // 2 - 8, top + (view["height"] - 1 - y) * CELL + CELL // 2 - 8


def test_cells_are_drawn_in_their_kinds_colour_where_the_notation_puts_them():
    g = Tetromic.from_position(position({"hand": ["T"]}, {}))
    g.apply(0, "play T-u 2,3")
    image = decode(render(g))
    assert image.getpixel(cell_centre(g, 0, 3, 4)) == KIND_COLOURS["T"]
    assert image.getpixel(cell_centre(g, 0, 3, 5)) != KIND_COLOURS["T"]
    assert image.getpixel(cell_centre(g, 1, 3, 4)) != KIND_COLOURS["T"]  # the other board is empty


def test_eight_boards_sit_in_two_rows_of_four_and_the_picture_stays_small():
    g = Tetromic.new(8, seed=1)
    data = render(g)
    image = decode(data)
    assert len(data) < 300_000
    four = decode(render(Tetromic.new(4, seed=1)))
    assert image.width == four.width and 1.7 * four.height < image.height < 2.1 * four.height


def test_rows_just_cleared_are_hatched_and_the_last_placement_outlined():
    g = Tetromic.from_position(position({"hand": ["I"], "board": ["......"] * 6 + ["OOOOO."] * 4}))
    g.apply(0, "play I-v 5,0")
    image = decode(render(g))
    left, top = cell_centre(g, 0, 0, 0)
    colours = {image.getpixel((left + dx, top + dy)) for dx in range(16) for dy in range(16)}
    assert len(colours) >= 2  # hatching: two colours inside an off cell
    x0, y0 = cell_centre(g, 0, 5, 0)
    assert image.getpixel((x0 - 6, y0)) == (0x1E, 0x1E, 0x1E)  # the outline's ink


def test_no_text_straddles_the_edge_of_the_winners_panel():
    """The winner's yellow panel takes in its whole board, labels included: every text lies on
    the panel or off it, never across its edge."""
    g = finished("tetromic", seed=3)
    with recording() as record:
        image = decode(render(g))
    assert record.page is not None
    assert HIGHLIGHT in {colour for _, colour in image.getcolors(1 << 16) or []}
    for words, (left, top, right, bottom) in record.on(record.page):
        frame = [(x, y) for x in range(left - 2, right + 2) for y in (top - 2, bottom + 1)] + \
                [(x, y) for y in range(top - 2, bottom + 2) for x in (left - 2, right + 1)]
        around = {image.getpixel(p) for p in frame}
        assert not {PAPER, HIGHLIGHT} <= around, (words, (left, top, right, bottom))


def test_the_viewers_board_comes_first():
    g = Tetromic.from_position(position({"hand": ["O"]}, {"hand": ["O"]}))
    g.apply(1, "play O 0,0")
    assert decode(render(g, 1)).getpixel(cell_centre(g, 0, 0, 0)) == KIND_COLOURS["O"]
    assert decode(render(g, 0)).getpixel(cell_centre(g, 0, 0, 0)) != KIND_COLOURS["O"]


def test_the_hand_shows_each_kind_with_its_count():
    g = Tetromic.from_position(position({"hand": ["T", "T", "I"]}))
    image = decode(render_hand(g, 0))
    assert image.width >= 320
    colours = {image.getpixel((x, y)) for x in range(0, image.width, 2) for y in range(0, image.height, 2)}
    assert KIND_COLOURS["T"] in colours and KIND_COLOURS["I"] in colours and KIND_COLOURS["O"] not in colours


def test_the_text_board_shows_every_board_with_its_labels():
    g = Tetromic.from_position(position({"name": "ana", "hand": ["O"]}, {"name": "bo"}))
    g.apply(0, "play O 4,0")
    text = text_board(g)
    assert "ana" in text and "bo" in text and " 0 . . . . O O" in text and "0 1 2 3 4 5" in text


def test_the_text_board_writes_levels_so_they_cannot_be_read_as_a_piece():
    """`L0` is the name of an L piece's orientation: a level reads `lv 0`."""
    g = Tetromic.from_position(position({"name": "ana", "level": 3, "points": 2}, {"name": "bo"}))
    text = text_board(g, legend=True) or ""
    assert "lv 3 · 2/4" in text and "lv 0 · 0/1" in text and " L0 " not in text and "L3 " not in text
    assert "lv the level" in text


def three_boards() -> Tetromic:
    """Three players: ana just cleared two rows with an I, bo's board is half full, Zoë is new."""
    g = Tetromic.from_position(position(
        {"name": "ana", "level": 1, "hand": ["I", "T"], "drew": True,
         "board": ["......"] * 6 + ["T.....", "TT..S.", "OOOOO.", "OOOOO."]},
        {"name": "bo", "level": 3, "points": 2, "hand": ["L"],
         "board": ["......"] * 5 + ["..L...", "..LLL.", "SS.OO.", ".SSOO.", "IIII.."]},
        {"name": "Zoë"}, done=[True, False, False]))
    g.apply(0, "play I-v 5,0")
    return g


def test_three_boards_match_their_golden_picture():
    from tests.renderers.golden import assert_golden

    assert_golden("tetromic_three", render(three_boards(), 0))


def test_eight_boards_match_their_golden_picture():
    from tests.renderers.golden import assert_golden

    g = Tetromic.new(8, seed=4, names=[f"player {n}" for n in range(1, 9)])
    for seat in range(8):
        g.seats[seat].hand = ["O", "I"]
        g.apply(seat, f"play O {seat % 5},{seat}")
    assert_golden("tetromic_eight", render(g))
