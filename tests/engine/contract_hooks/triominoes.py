"""Triominoes' contract hooks. Hands and the well are hidden as usual, except in the moment
between a round's deal and its opening: who opens with which tile is decided, in public, by
every hand (the highest triple out), so that moment is left as it is. Random playouts run to
400 points over several rounds, so fewer of them (each is still quick)."""

from __future__ import annotations

import random
from typing import Any

from tests.engine.test_contract import hide_secrets_shuffled

PLAYOUTS = 100


def shuffle_hidden(position: dict[str, Any], viewer: int | None, rng: random.Random) -> dict[str, Any]:
    if not position["board"]:
        return position
    return hide_secrets_shuffled(position, viewer, rng)


OPTION_VALUES = {"target": [60, 150, 400], "rounds": [0, 0, 2], "max_draws": [3, 0]}
