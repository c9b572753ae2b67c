"""Time the Tronimoes renderer: board images early, in the middle and late in a 6-player round,
and the hand image. Prints one JSON line per case: median and p99 milliseconds per image over at
least 200 renders, and PNG sizes.

States come from seeded 6-player games played by a fixed policy; each case cycles through many
different states (so per-state work is measured, not one cached picture).

    .venv/bin/python bench/render.py [--renders 240] [--seeds 6]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

import benchpath  # noqa: F401  (must come before the project's imports)

from engine.tronimoes import Tronimoes
from renderers import render, render_hand

PLAYERS = 6


def play_round(seed: int) -> list[Tronimoes]:
    """Every position of round 1 of a seeded 6-player game (a copy before each move). The policy
    starts free lines when it can, else lays a seeded random tile, else draws, else passes."""
    game = Tronimoes.new(PLAYERS, seed=seed)
    rng = random.Random(seed)
    states = []
    while game.phase == "playing":
        states.append(game.clone())
        actions = game.legal_actions(game.turn)
        lays = [a for a in actions if a[0].isdigit()]
        spacers = [a for a in actions if a.startswith("spacer")]
        if game.spacer is not None and lays:
            action = lays[0]
        elif spacers and rng.random() < 0.5:
            action = rng.choice(spacers)
        elif lays:
            action = rng.choice(lays)
        else:
            action = actions[0]
        game.apply(game.turn, action)
    return states


def stage(states: list[Tronimoes], name: str) -> list[Tronimoes]:
    """Positions from one part of the round: the first, middle or last 20 moves."""
    third = len(states) // 3
    if name == "early":
        return states[5:25]
    if name == "middle":
        return states[third + 10:third + 30]
    return states[-20:]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def measure(case: str, states: list[Tronimoes], draw: Callable[[Tronimoes], bytes], renders: int) -> dict[str, object]:
    times, sizes = [], []
    for index in range(max(renders, len(states))):
        game = states[index % len(states)]
        start = time.perf_counter()
        data = draw(game)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(data))
    return {
        "case": case,
        "players": PLAYERS,
        "states": len(states),
        "renders": len(times),
        "median_ms": round(statistics.median(times), 2),
        "p99_ms": round(percentile(times, 0.99), 2),
        "max_ms": round(max(times), 2),
        "png_bytes_median": int(statistics.median(sizes)),
        "png_bytes_max": max(sizes),
        "tiles_on_board_max": max(len(g.board) for g in states),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=240, help="images per case (at least 200)")
    parser.add_argument("--seeds", type=int, default=6, help="games to take positions from")
    args = parser.parse_args()

    start = time.perf_counter()
    first = Tronimoes.new(PLAYERS, seed=999)
    render(first)
    print(json.dumps({"case": "first-image-cold", "ms": round((time.perf_counter() - start) * 1000, 2)}))

    rounds = [play_round(seed) for seed in range(args.seeds)]
    for name in ("early", "middle", "late"):
        states = [g for states in rounds for g in stage(states, name)]
        print(json.dumps(measure(f"board-{name}", states, render, args.renders)))
    late = [g for states in rounds for g in stage(states, "late")]
    print(json.dumps(measure("hand-late", late, lambda g: render_hand(g, g.turn), args.renders)))


if __name__ == "__main__":
    main()
