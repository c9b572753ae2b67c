"""Tromino Go's contract hooks: nothing is hidden (no hands, no bag), so a position looks the same
to every viewer and there is nothing to deal differently. Random playouts are short (random
concessions and forfeits end them), so the default number of playouts stays."""

from __future__ import annotations

import random
from typing import Any


def shuffle_hidden(position: dict[str, Any], viewer: int | None, rng: random.Random) -> dict[str, Any]:
    return position
