"""The bot's sentences about a game, as players read them."""

from __future__ import annotations

from bot.wording import hand_text
from engine.tetromic import Tetromic


def tetromic_hand(*kinds: str, board: list[str] | None = None) -> Tetromic:
    return Tetromic.from_position({
        "game": "tetromic", "phase": 1, "done": [False], "queue": [], "winner": None,
        "seats": [{"name": "ana", "level": 0, "points": 0, "hand": list(kinds), "drew": False,
                   "board": board or ["......"] * 10}]})


def test_a_hand_of_counted_pieces_counts_every_piece_and_bolds_the_playable_kinds():
    text = hand_text(tetromic_hand("S", "T", "T"), 0)
    assert text.startswith("Your hand (3): **S**, **T** ×2")


def test_a_piece_that_fits_nowhere_is_not_bold():
    full_but_one_row = ["......"] + ["OOOOO."] * 9
    text = hand_text(tetromic_hand("O", "I", "I", board=full_but_one_row), 0)
    assert text.startswith("Your hand (3): **I** ×2, O")
