"""The Tetromic boards in words state what a player needs: each board's level, how high its
stack stands, and the rows one piece from clearing with the placements that clear them; no
hand is said but the viewer's own, and never the draw queue."""

from __future__ import annotations

from engine.tetromic import Tetromic
from renderers import describe
from tests.engine.test_tetromic import game

ANA_BOARD = ["......"] * 6 + ["OOOOO.", "TTT.OO", "T...OO", "IIII.."]
"""Row 3 lacks only 5,3; rows 1 and 2 lack 1,1 2,1 3,1 and 3,2, which one L90 at 1,1 fills;
row 0 lacks 4,0 and 5,0 under filled cells, so no piece clears it."""


def two_boards() -> Tetromic:
    return game({"name": "ana", "hand": ["I", "T"], "board": ANA_BOARD, "level": 2, "points": 1},
                {"name": "ben", "hand": ["S"], "drew": True}, done=[False, True], queue=["L", "O"])


def test_each_board_says_its_level_and_how_high_its_stack_stands():
    said = describe(two_boards())
    assert "ana (seat 1)'s board: level 2, 1 of 3 points to the next level; the stack is 4 of 10 rows high" in said
    assert "ben (seat 2)'s board: level 0, 0 of 1 points to the next level; the board is empty" in said


def test_a_row_one_piece_from_clearing_names_the_placements_that_clear_it():
    said = describe(two_boards())
    assert "row 3 is one piece from clearing: I-v 5,3" in said
    assert "row 1 is one piece from clearing: L90 1,1;" in said and "row 2 is one piece from clearing: L90 1,1;" in said
    assert "row 0 is" not in said


def test_a_said_placement_is_legal_and_clears_the_row():
    g = two_boards()
    g.apply(0, "play I-v 5,3")
    assert g.view(None)["seats"][0]["just_cleared"] == [3]


def test_who_has_drawn_this_phase_is_said():
    said = describe(two_boards())
    assert "pieces in hand: 2, may still draw this phase" in said
    assert "pieces in hand: 1, has drawn this phase" in said


def test_no_hand_and_no_queue_is_said_but_the_viewers_own_hand():
    g = two_boards()
    assert "Your hand" not in describe(g)
    assert "Your hand: I ×1; T ×1." in describe(g, 0)
    assert "Your hand: S ×1." in describe(g, 1) and "T ×1" not in describe(g, 1)
