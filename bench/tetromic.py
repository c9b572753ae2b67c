"""Tetromic figures (issue targets in brackets), one JSON line each:

* `legal_actions` with a hand of all 5 kinds (10 pieces) on half-full boards [p99 <= 5 ms];
* the picture of 8 boards mid-game [<= 60 ms, <= 300 KB];
* solo games to level 10, the same deals for greedy and for the planning agent's packing by row
  covers (`engine.tetromic.packing`): phases used, median, mean and range [the rules'
  simulation: ~22].

    python bench/tetromic.py [--solo-games 50] [--renders 100]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

import benchpath  # noqa: F401  (must come before the project's imports)

from engine.ai import GreedyAgent
from engine.core import Game
from engine.tetromic import Tetromic
from engine.tetromic.ai import packing_action
from renderers import render


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def half_full(seed: int) -> Tetromic:
    """A 1-seat game whose board is about half full (random placements), holding 10 pieces."""
    rng = random.Random(seed)
    game = Tetromic.new(1, seed=seed)
    me = game.seats[0]
    while me.board.on_count() < 30:
        me.hand = [rng.choice("IOLST")]
        plays = game.placements(0)
        if not plays:
            break
        game.apply(0, rng.choice(plays))
    me.hand = list("IOLSTIOLST")
    return game


def legal_actions_case(count: int) -> dict[str, object]:
    times = []
    for seed in range(count):
        game = half_full(seed)
        started = time.perf_counter()
        game.legal_actions(0)
        times.append(time.perf_counter() - started)
    return {"case": "legal_actions_10_kinds_half_full", "positions": count,
            "median_ms": round(statistics.median(times) * 1000, 3), "p99_ms": round(percentile(times, 0.99) * 1000, 3)}


def eight_boards(seed: int) -> Tetromic:
    rng = random.Random(seed)
    game = Tetromic.new(8, seed=seed)
    for _ in range(160):
        seat = rng.randrange(8)
        actions = game.legal_actions(seat)
        if actions:
            game.apply(seat, rng.choice(actions))
    return game


def picture_case(renders: int) -> dict[str, object]:
    states = [eight_boards(seed) for seed in range(8)]
    render(states[0])
    times, sizes = [], []
    for index in range(renders):
        started = time.perf_counter()
        data = render(states[index % len(states)])
        times.append(time.perf_counter() - started)
        sizes.append(len(data))
    return {"case": "picture_8_boards", "renders": renders, "median_ms": round(statistics.median(times) * 1000, 2),
            "p99_ms": round(percentile(times, 0.99) * 1000, 2), "max_kb": round(max(sizes) / 1024, 1)}


def solo_case(games: int, name: str, choose: Callable[[Game, int], str]) -> dict[str, object]:
    phases = []
    for seed in range(games):
        game = Tetromic.new(1, seed=seed)
        for _ in range(5000):
            if game.outcome() is not None:
                break
            game.apply(0, choose(game, 0))
        outcome = game.outcome()
        if outcome is not None and outcome.winners == (0,) and game.seats[0].level >= game.target:
            phases.append(game.phase)
    return {"case": f"{name}_solo_phases_to_level_10", "games": games, "reached": len(phases),
            "median": statistics.median(phases) if phases else None,
            "mean": round(statistics.mean(phases), 2) if phases else None,
            "range": [min(phases), max(phases)] if phases else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--renders", type=int, default=100)
    parser.add_argument("--solo-games", type=int, default=50)
    args = parser.parse_args()
    print(json.dumps(legal_actions_case(args.positions)), flush=True)
    print(json.dumps(picture_case(args.renders)), flush=True)
    print(json.dumps(solo_case(args.solo_games, "greedy", GreedyAgent().choose)), flush=True)
    print(json.dumps(solo_case(args.solo_games, "packing", packing_action)), flush=True)


if __name__ == "__main__":
    main()
