"""The bot's sentences about a game, as players read them."""

from __future__ import annotations

import pytest

from bot.core.replies import as_sentence
from bot.words.wording import hand_text
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


@pytest.mark.parametrize(("reason", "shown"), [
    ("you are not playing at this table", "You are not playing at this table."),
    ("a move must put the tromino somewhere else", "A move must put the tromino somewhere else."),
    ("say `draw`", "Say `draw`."),
    ("done!", "Done!"),
    ("¿seguro?", "¿Seguro?"),
    ("however, nothing changed", "However, nothing changed."),
    ("2,1 is taken", "2,1 is taken."),
    ("option deck takes one of cx, mixed, not 'x'", "Option deck takes one of cx, mixed, not 'x'."),
    # what a player types or reads off the board stays as written
    ("r9c9 does not share an edge with any tile", "r9c9 does not share an edge with any tile."),
    ("ai_seconds is how long AI players think", "ai_seconds is how long AI players think."),
    ("c4 and e4 are not next to each other", "c4 and e4 are not next to each other."),
    ("3:5 does not match the 4 at the end of your line", "3:5 does not match the 4 at the end of your line."),
    ("ouroboros=maybe is not an option", "ouroboros=maybe is not an option."),
    ("`b` must touch `A` along 2 units of edge", "`b` must touch `A` along 2 units of edge."),
    ("`lang` is the table's language", "`lang` is the table's language."),
    ("'banana' is not a move", "'banana' is not a move."),
    ("<n:bob> has not finished a rated game on this server yet.", "<n:bob> has not finished a rated game on this "
                                                                  "server yet."),
    ("", ""),
])
def test_a_refusal_reads_as_a_sentence_but_what_a_player_types_stays_as_typed(reason, shown):
    assert as_sentence(reason) == shown


def test_a_tetromic_hand_says_how_each_kind_held_is_placed():
    text = hand_text(tetromic_hand("L", "O", "T"), 0)
    assert "\nPlaced as: L: L0 L90 L180 L270 J0 J90 J180 J270 · T: T-u T-d T-r T-l" in text
    assert "O:" not in text


def test_a_terminal_without_bold_marks_the_playable_pieces_in_brackets_and_says_so():
    text = hand_text(tetromic_hand("S", "T", "T"), 0, brackets=True)
    assert text.startswith("Your hand (3): [S], [T] ×2") and "The ones in [brackets] can be played now." in text
    assert "**" not in text and "bold" not in text
