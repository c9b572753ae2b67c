"""The Tromino Go grid in words states what a player needs: each group with its owner, its
trominoes as `play` writes them and its open edges (fewest first), what is surrounded, and the
No Man's Land."""

from __future__ import annotations

from renderers import describe
from tests.engine.test_tromino_go import OPENING, SURROUND_BY_NML, board, game


def test_each_group_says_its_owner_its_trominoes_and_its_open_edges():
    said = describe(game(OPENING))
    groups = next(line for line in said.splitlines() if line.startswith("Groups"))
    assert "ana (seat 1): A 0,0 SW (6 open edges)" in groups and "ana (seat 1): C 2,2 SW (4 open edges)" in groups
    assert "ben (seat 2): b 1,1 SW (4 open edges)" in groups and "ben (seat 2): a 3,3 SE (6 open edges)" in groups


def test_the_group_closest_to_being_surrounded_comes_first():
    said = describe(board(SURROUND_BY_NML, first=1, t=8))
    groups = next(line for line in said.splitlines() if line.startswith("Groups"))
    first = groups.split(": ", 1)[1].split("; ")[0]
    assert first == "P2 (seat 2): A 0,0 SE (1 open edge)"
    assert "P1 (seat 1): b -1,0 NW (2 open edges)" in groups


def test_a_surrounded_group_and_the_no_mans_land_are_said():
    g = board(SURROUND_BY_NML, first=1, t=8)
    g.apply(1, "play -1,2 NE")
    said = describe(g)
    assert "Surrounded: P1 (seat 1)'s b -1,0 NW." in said
    assert "No Man's Land (enclosed empty cells): -1,2." in said  # NE at -1,2 leaves its anchor cell empty
    assert "the grid shows the round that just ended: Round 1 to P2" in said
    assert "Scores: P1 0, P2 1." in said


def test_whose_letter_it_is_and_how_many_trominoes_are_placed():
    said = describe(board(SURROUND_BY_NML, first=1, t=8))
    assert "8 of 30 trominoes placed; P2 (seat 2) plays the letter C" in said
