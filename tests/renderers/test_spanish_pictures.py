"""Pictures at a Spanish table say their words in Spanish: the headers and labels the layout
code writes are marked and translated, not written in English."""

from __future__ import annotations

import random

from bot.core.i18n import speaking
from engine import GAMES
from renderers import render
from renderers.text import recording


def spanish_words(name: str, players: int, seed: int, moves: int | None) -> str:
    """Every text drawn on the public board of a seeded random game of `name` after `moves`
    random moves (None: to its end), at a Spanish table."""
    game = GAMES[name].new(players, seed=seed)
    rng = random.Random(seed)
    while game.outcome() is None and (moves is None or moves > 0):
        seat = rng.choice(game.to_move())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        moves = None if moves is None else moves - 1
    with speaking("es"), recording() as record:
        render(game, None)
    assert record.page is not None
    return " ".join(text for text, _ in record.on(record.page))


def test_tetromic_boards_give_level_and_points_in_spanish():
    words = spanish_words("tetromic", 3, seed=2, moves=None)
    assert "nivel " in words and "level " not in words, words


def test_the_tronimoes_panel_names_the_round_in_spanish():
    words = spanish_words("tronimoes", 3, seed=4, moves=3)
    assert "Ronda 1" in words and "Round" not in words, words
