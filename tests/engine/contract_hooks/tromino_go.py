"""Tromino Go's contract hooks: nothing is hidden (no hands, no bag), so a position looks the same
to every viewer and there is nothing to deal differently. Random playouts are short (random
concessions and forfeits end them), so the default number of playouts stays; the position
round-trip test mostly plays and moves, so its games reach the moving phase and its move cap."""

from __future__ import annotations

import random
from typing import Any


def shuffle_hidden(position: dict[str, Any], viewer: int | None, rng: random.Random) -> dict[str, Any]:
    return position


OPTION_VALUES = {"max_moving_turns": [0, 2, 6]}
POSITION_GAMES = 6
TIMEOUT_CHANCE = 0.002
"""A missed deadline loses the whole game."""


def choose(actions: list[str], rng: random.Random) -> str:
    """A play or a move (or the forced pass) 49 times in 50; else a concession, an acceptance or
    a forfeit."""
    board = [a for a in actions if a.split()[0] in ("play", "move", "pass")]
    if board and rng.random() < 0.98:
        return rng.choice(board)
    return rng.choice(actions)
