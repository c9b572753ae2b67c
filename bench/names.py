"""What names in every script cost the pictures: each game's board drawn mid-game with Latin
names and with CJK and emoji names (the font fallback chain), and the first such picture of a
fresh process (loading Noto Sans CJK and Noto Color Emoji). Prints one JSON line per case:
median and p95 milliseconds over the renders, and the PNG's size.

    .venv/bin/python bench/names.py [--renders 40]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import benchpath  # noqa: F401  (must come before the project's imports)

from engine import GAMES
from engine.core import Game
from renderers import render
from renderers.text import missing_scripts

SEATS = {"tronimoes": 4, "tromino_go": 2, "triominoes": 4, "tronix": 4, "tetromic": 4}
NAMES = {"latin": ["Ada Lovelace", "Bob", "Zoë Åberg", "Łukasz"],
         "cjk-emoji": ["大卫 🐉", "たろう", "김민준 🐔", "王小明"]}


def midgame(name: str, names: list[str], seed: int = 1, steps: int = 30) -> Game:
    game = GAMES[name].new(SEATS[name], seed=seed, names=names[:SEATS[name]])
    rng = random.Random(seed)
    for _ in range(steps):
        if game.outcome() is not None:
            break
        seat = rng.choice(game.to_move())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=40)
    args = parser.parse_args()
    print(json.dumps({"case": "missing-scripts", "missing": [script for script, _ in missing_scripts()]}))
    start = time.perf_counter()
    render(midgame("tromino_go", NAMES["cjk-emoji"]), deadline=1_800_000_000.0)
    print(json.dumps({"case": "first-cjk-emoji-picture-cold", "ms": round((time.perf_counter() - start) * 1000, 1)}))
    for game_name in sorted(SEATS):
        for kind, names in NAMES.items():
            game = midgame(game_name, names)
            times, size = [], 0
            for index in range(args.renders):
                start = time.perf_counter()
                size = len(render(game, index % SEATS[game_name], deadline=1_800_000_000.0 + index * 60))
                times.append((time.perf_counter() - start) * 1000)
            times.sort()
            print(json.dumps({"case": f"{game_name}-{kind}", "renders": args.renders,
                              "median_ms": round(statistics.median(times), 2),
                              "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2), "png_bytes": size}))


if __name__ == "__main__":
    main()
