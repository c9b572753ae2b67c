"""Tromino Go pictures, decoded: trominoes in their player's colour where the notation puts them,
No Man's Land hatched, the window with its margin and labels; a golden picture; the text board."""

from __future__ import annotations

import io

from PIL import Image

from engine.tromino_go import TrominoGo
from renderers import render, render_hand, text_board
from renderers.tromino_go.pictures import CELL, EMPTY, FIRST, HEADER, LABEL, MARGIN, SECOND
from tests.engine.test_tromino_go import OPENING, RING, game
from tests.renderers.golden import assert_golden


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def corner(g: TrominoGo, cell: tuple[int, int]) -> tuple[int, int]:
    """A point inside `cell`, near its top-left corner (clear of the letter)."""
    cells = [c for p in g.pieces for c in p.cells]
    low_x = min(x for x, _ in cells) - MARGIN
    high_y = max(y for _, y in cells) + MARGIN
    return LABEL + (cell[0] - low_x) * CELL + 6, HEADER + (high_y - cell[1]) * CELL + 6


def test_trominoes_are_drawn_in_their_players_colours_where_the_notation_puts_them():
    g = game(OPENING)
    image = decode(render(g))
    assert image.getpixel(corner(g, (0, 0))) == FIRST  # A, capitals: the first player
    assert image.getpixel(corner(g, (1, 2))) == SECOND  # b
    assert image.getpixel(corner(g, (4, 0))) == EMPTY


def test_no_mans_land_is_hatched():
    g = game([(0, "ACAB"[i], sorted(c)) for i, c in enumerate(RING)], t=4)
    image = decode(render(g))
    x, y = corner(g, (0, 0))
    assert len({image.getpixel((x + dx, y + dy)) for dx in range(18) for dy in range(18)}) >= 2


def test_the_opening_matches_its_golden_picture():
    assert_golden("tromino_go_opening", render(game(OPENING)))


def test_the_player_card_says_which_side_the_player_plays():
    g = game(OPENING)
    assert decode(render_hand(g, 0)).size == (420, 96)


def test_the_text_board_spells_each_tromino_with_its_letter():
    lines = text_board(game(OPENING)).splitlines()
    assert lines[5] == "   0  .  A  A  .  .  .  ." and lines[4] == "   1  .  A  b  b  .  .  ."
    assert lines[7] == "     -1  0  1  2  3  4  5" and lines[8].startswith("Round 1 · ana plays B · 4/30 placed")
