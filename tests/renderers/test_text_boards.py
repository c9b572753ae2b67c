"""The terminal's text boards: colour only colours. With the colour codes taken out, a coloured
board reads exactly as the plain one, so every column stays under its label."""

from __future__ import annotations

import random
import re

import pytest

from engine import GAMES
from engine.ai import heuristics
from renderers import text_board

ANSI = re.compile(r"\x1b\[[0-9;]*m")
MOMENTS = 12
"""Boards compared per game: every few moves of a random game (one that never gives up)."""


def _lines(board: str) -> list[str]:
    return [line.rstrip() for line in board.splitlines()]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_coloured_text_board_without_its_colour_codes_is_the_plain_board(name: str) -> None:
    cls = GAMES[name]
    players = min(cls.max_players, 4)
    for seed in range(3):
        game = cls.new(players, seed=seed)
        rng = random.Random(seed)
        compared = 0
        for step in range(400):
            if game.outcome() is not None or compared >= MOMENTS:
                break
            if step % 7 == 0:
                plain, coloured = text_board(game), text_board(game, colour=True)
                assert plain is not None and coloured is not None
                assert _lines(ANSI.sub("", coloured)) == _lines(plain), f"seed {seed}, move {step}"
                compared += 1
            seat = rng.choice(game.to_move())
            game.apply(seat, rng.choice(heuristics(game).playing(game, seat)))
        assert compared >= 3
