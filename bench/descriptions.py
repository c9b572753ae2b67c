"""What the boards in words cost and how long they get, one JSON line per game: seeded random
games of each game played to their end (random players, who never concede), and at every move the
whole description (`renderers.describe`) and the picture's (`renderers.describe_within`, at most
1,024 characters): the milliseconds to say each (median, p95, max), the longest whole
description, the longest picture description, and the share of positions whose picture
description had to be cut.

The picture's description is said in the drawing thread with the picture (`bot.tables.pictures`),
so its time adds to a move's as drawing the board does.

    python bench/descriptions.py [--seeds 3]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import benchpath  # noqa: F401  (must come before the project's imports)

import renderers
from engine import GAMES

PLAYERS = {"tronimoes": 4, "triominoes": 3, "tromino_go": 2, "tronix": 4, "tetromic": 4}


GIVING_UP = ("concede", "accept", "forfeit")
"""Tromino Go's ways to end a round or the game without playing it, left to the players who mean
them: a random player picks among the plays."""


def playing(actions: list[str]) -> list[str]:
    """`actions` without the ways of giving up, unless nothing else is left."""
    return [a for a in actions if not a.startswith(GIVING_UP)] or actions


def measure(name: str, seeds: int) -> dict[str, object]:
    whole_ms: list[float] = []
    within_ms: list[float] = []
    longest = longest_within = cut = positions = 0
    for seed in range(seeds):
        game = GAMES[name].new(PLAYERS[name], seed=seed)
        rng = random.Random(seed)
        while game.outcome() is None and len(game.log) < 3000:
            seat = rng.choice(game.to_move())
            game.apply(seat, rng.choice(playing(game.legal_actions(seat))))
            start = time.perf_counter()
            whole = renderers.describe(game)
            middle = time.perf_counter()
            within = renderers.describe_within(game)
            end = time.perf_counter()
            whole_ms.append((middle - start) * 1000)
            within_ms.append((end - middle) * 1000)
            longest, longest_within = max(longest, len(whole)), max(longest_within, len(within))
            cut += within != whole
            positions += 1

    def figures(values: list[float]) -> dict[str, float]:
        ordered = sorted(values)
        return {"median": round(statistics.median(ordered), 3),
                "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 3), "max": round(ordered[-1], 3)}

    return {"game": name, "players": PLAYERS[name], "positions": positions, "describe_ms": figures(whole_ms),
            "describe_within_ms": figures(within_ms), "longest_whole": longest,
            "longest_within": longest_within, "cut_share": round(cut / max(1, positions), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="games played of each game")
    args = parser.parse_args()
    for name in sorted(PLAYERS):
        print(json.dumps(measure(name, args.seeds)), flush=True)


if __name__ == "__main__":
    main()
