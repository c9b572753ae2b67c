"""Tromino Go pictures, decoded: trominoes in their player's colour where the notation puts them,
No Man's Land hatched, surrounded trominoes crossed out, the last play haloed, the round that just
ended shown under its result, the window with its margin and labels; golden pictures; the text
board; many positions drawn without a crash."""

from __future__ import annotations

import io
import random

from PIL import Image

from engine.tromino_go import TrominoGo
from renderers import RENDERERS, render, render_hand, text_board
from renderers.common import HIGHLIGHT
from renderers.text import recording
from renderers.tromino_go import LEGEND, board, hand, text
from renderers.tromino_go.pictures import (
    BANNER,
    CELL,
    EMPTY,
    FIRST,
    HEADER,
    LABEL,
    MARGIN,
    MIN_WIDTH,
    SECOND,
    SURROUNDED,
    layout,
)
from tests.engine.test_tromino_go import OPENING, RING, SURROUND_BY_NML, game
from tests.engine.test_tromino_go import board as from_spec
from tests.renderers.golden import assert_golden


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def corner(g: TrominoGo, cell: tuple[int, int]) -> tuple[int, int]:
    """A point inside `cell`, near its top-left corner (clear of the letter and the outline)."""
    x0, y0, _, _ = layout(g.view(None)).box(cell)
    return x0 + 6, y0 + 6


def colours_in(image: Image.Image, g: TrominoGo, cell: tuple[int, int]) -> set[tuple[int, int, int]]:
    x0, y0, x1, y1 = layout(g.view(None)).box(cell)
    return {image.getpixel((x, y)) for x in range(x0 + 4, x1 - 4) for y in range(y0 + 4, y1 - 4)}


def test_the_package_exports_functions_and_is_registered():
    assert callable(board) and callable(hand) and callable(text) and "No Man's Land" in LEGEND
    assert RENDERERS["tromino_go"].board is board


def test_trominoes_are_drawn_in_their_players_colours_where_the_notation_puts_them():
    g = game(OPENING)
    image = decode(render(g))
    assert image.getpixel(corner(g, (0, 0))) == FIRST  # A, capitals: the first player
    assert image.getpixel(corner(g, (1, 2))) == SECOND  # b
    assert image.getpixel(corner(g, (4, 0))) == EMPTY


def test_colours_follow_the_round_not_the_seat():
    swapped = [(1 - owner, letter, cells) for owner, letter, cells in OPENING]
    g = game(swapped, first=1)  # seat 1 starts: its trominoes are the capitals, in blue
    assert g.pieces[0].owner == 1
    image = decode(render(g))
    assert image.getpixel(corner(g, (0, 0))) == FIRST and image.getpixel(corner(g, (1, 2))) == SECOND


def test_the_window_is_the_pieces_with_a_two_cell_margin_and_labels():
    g = game(OPENING)  # cells from 0,0 to 4,4
    at = layout(g.view(None))
    assert (at.low_x, at.high_x, at.low_y, at.high_y) == (-MARGIN, 4 + MARGIN, -MARGIN, 4 + MARGIN)
    image = decode(render(g))
    assert image.size == (at.width, HEADER + 9 * CELL + LABEL) and image.width >= MIN_WIDTH
    x0, y0, x1, y1 = at.box((0, 0))
    assert (x1 - x0, y1 - y0) == (CELL, CELL)
    label_row = [image.getpixel((x, y1 + 2 * CELL + LABEL // 2)) for x in range(x0, x1)]
    assert any(sum(p) < 600 for p in label_row)  # the 0 under column 0


def test_no_mans_land_is_hatched():
    g = game([(0, "ACAB"[i], sorted(c)) for i, c in enumerate(RING)], t=4)
    image = decode(render(g))
    x, y = corner(g, (0, 0))
    assert len({image.getpixel((x + dx, y + dy)) for dx in range(18) for dy in range(18)}) >= 2


def test_the_last_play_is_haloed():
    g = game(OPENING)
    g.apply(0, "play 5,3 SW")
    image = decode(render(g))
    x0, y0, _, _ = layout(g.view(None)).box((5, 4))  # the top of SW at 5,3
    assert HIGHLIGHT in {image.getpixel((x0 + d, y0 + 1)) for d in range(4, CELL - 4)}
    assert HIGHLIGHT not in colours_in(image, g, (0, 0))


def _contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    def luminance(colour: tuple[int, int, int]) -> float:
        linear = [(c / 255) / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in colour]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_last_plays_outline_stands_out_on_an_orange_tromino():
    g = game(OPENING)
    g.apply(0, "play 5,3 SW")
    g.apply(1, g.legal_actions(1)[0])
    view = g.view(None)
    assert g.pieces[-1].owner != view["first"]  # the last play is orange
    image = decode(render(g))
    at = layout(view)
    cells = {tuple(c) for c in view["last"]}
    x, y = next((x, y) for x, y in sorted(cells) if (x, y + 1) not in cells)  # a cell whose top edge is outlined
    x0, y0, x1, _ = at.box((x, y))
    column = [image.getpixel(((x0 + x1) // 2, y0 + dy)) for dy in range(-8, 9)]
    assert HIGHLIGHT in column
    inside = next(i for i, colour in enumerate(column) if colour == SECOND)  # going down into the tromino
    assert _contrast(column[inside - 1], SECOND) >= 3, column


def test_the_picture_after_a_round_is_headed_with_the_round_that_ended():
    g = from_spec(SURROUND_BY_NML, first=1, t=8)
    g.apply(1, "play -1,2 NE")
    assert g.round == 2
    with recording() as record:
        render(g)
    assert record.page is not None
    words = [text for text, _ in record.on(record.page)]
    assert words[0] == "Round 1 is over", words
    assert not any(text.startswith("Round 2") for text in words)
    assert any("next: round 2" in text for text in words)


def test_after_a_surround_the_ended_round_is_shown_with_the_surrounded_tromino_crossed_out():
    g = from_spec(SURROUND_BY_NML, first=1, t=8)
    g.apply(1, "play -1,2 NE")
    assert g.pieces == []
    view = g.view(None)
    at = layout(view)
    assert at.top == HEADER + BANNER
    image = decode(render(g))
    assert SURROUNDED in colours_in(image, g, (-1, 0))  # the b that was surrounded
    assert SURROUNDED not in colours_in(image, g, (0, 0))  # an A still free
    assert image.getpixel((6, HEADER + 6)) != image.getpixel((6, 6))  # the result banner


def test_the_game_over_picture_keeps_the_last_round():
    g = from_spec(SURROUND_BY_NML, first=1, t=8)
    g.points = [0, 6]
    g.apply(1, "play -1,2 NE")
    assert g.outcome() is not None
    image = decode(render(g))
    assert SURROUNDED in colours_in(image, g, (-1, 0)) and image.height > HEADER + 5 * CELL


def test_the_opening_matches_its_golden_picture():
    assert_golden("tromino_go_opening", render(game(OPENING)))


def test_a_round_just_ended_matches_its_golden_picture():
    g = from_spec(SURROUND_BY_NML, first=1, t=8)
    g.apply(1, "play -1,2 NE")
    assert_golden("tromino_go_round_end", render(g))


def test_the_player_card_shows_the_players_side_in_its_colour():
    g = game(OPENING)
    capitals, lower = decode(render_hand(g, 0)), decode(render_hand(g, 1))
    assert capitals.size == lower.size and capitals.width == MIN_WIDTH
    assert capitals.getpixel((20, 20)) == FIRST and lower.getpixel((20, 20)) == SECOND


def test_the_text_board_spells_each_tromino_with_its_letter():
    lines = text_board(game(OPENING)).splitlines()
    assert lines[5] == "   0  .  A  A  .  .  .  ." and lines[4] == "   1  .  A  b  b  .  .  ."
    assert lines[7] == "     -1  0  1  2  3  4  5" and lines[8].startswith("Round 1 · ana plays B · 4/30 placed")


def test_the_text_board_shows_the_ended_round_and_stars_the_surrounded():
    g = from_spec(SURROUND_BY_NML, first=1, t=8)
    g.apply(1, "play -1,2 NE")
    board_text = text(g)
    assert board_text.startswith("Ended: Round 1 to P2, +1")
    assert board_text.count("*b") == 3 and "~" in board_text
    assert board_text.splitlines()[-1].startswith("Round 2 · P1 plays A · 0/30 placed")


def test_many_positions_draw_without_a_crash_and_stay_small():
    rng = random.Random(7)
    for seed in range(6):
        g = TrominoGo.new(2, seed=seed)
        for _ in range(rng.randrange(5, 70)):
            if g.outcome() is not None:
                break
            seat = g.mover
            actions = [a for a in g.legal_actions(seat) if a.split()[0] in ("play", "move", "pass")]
            g.apply(seat, rng.choice(actions))
        png = render(g)
        image = decode(png)
        assert image.size == (layout(g.view(None)).width, layout(g.view(None)).height) and len(png) < 300_000
        for seat in (0, 1):
            decode(render_hand(g, seat))
        assert text_board(g)


def test_the_header_shows_the_deadline_when_the_referee_gives_one():
    g = game(OPENING)
    plain = decode(render(g))
    timed = decode(render(g, deadline=1_800_000_000.0))
    assert plain.size == timed.size
    header = (0, 70, plain.width, 92)
    assert plain.crop(header).tobytes() != timed.crop(header).tobytes()
    assert plain.crop((0, HEADER, plain.width, plain.height)).tobytes() == \
        timed.crop((0, HEADER, timed.width, timed.height)).tobytes()


def test_the_coloured_text_board_reads_the_same_without_its_colours():
    import re

    g = from_spec(SURROUND_BY_NML, first=1, t=8)
    g.apply(1, "play -1,2 NE")
    coloured = text(g, colour=True)
    assert "\x1b[1;31m*b" in coloured and "\x1b[1;34m" in coloured and "\x1b[1;33m" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == text(g)


def test_in_the_moving_phase_movable_trominoes_carry_a_dot():
    from tests.engine.test_tromino_go import MOVING

    g = from_spec(MOVING, first=1, t=65, phase="moving")
    image = decode(render(g))
    at = layout(g.view(None))
    movable = {c for i in g.movable() for c in g.pieces[i].cells}
    fixed = next(c for p in g.pieces if p.owner == 0 for c in p.cells if c not in movable)
    for cell, expected in ((next(iter(movable)), True), (fixed, False)):
        _, y0, x1, _ = at.box(cell)
        assert (image.getpixel((x1 - 7, y0 + 7)) == (255, 255, 255)) is expected
    assert_golden("tromino_go_moving", render(g))
