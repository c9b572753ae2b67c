"""Engine speed: legal_actions and apply per call, and whole random games per second.

Prints one JSON line per player count and policy: random play, and greedy play, whose lines live
longer (more lays, busier boards). `apply` is timed on a fresh copy of the game, so no cache
filled by `legal_actions` helps it: this is the cost of a move arriving from chat.
Targets on a 2-core machine: legal_actions p99 <= 5 ms and apply p99 <= 2 ms with 6 players.

    python bench/engine.py [--games N] [--greedy-games N] [--game tronimoes]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import benchpath  # noqa: F401  (must come before the project's imports)

from engine import GAMES
from engine.ai import GreedyAgent


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def summary(seconds: list[float]) -> dict[str, float]:
    """Median and 99th percentile, in milliseconds."""
    return {"median": round(statistics.median(seconds) * 1000, 3), "p99": round(percentile(seconds, 0.99) * 1000, 3)}


def measure(name: str, players: int, games: int, policy: str) -> dict[str, object]:
    """Time every step of `games` games played by `policy` ("random" or "greedy")."""
    cls = GAMES[name]
    chooser = GreedyAgent() if policy == "greedy" else None
    legal: list[float] = []
    apply: list[float] = []
    moves = 0
    started = time.perf_counter()
    for seed in range(games):
        game = cls.new(players, seed=seed)
        rng = random.Random(seed)
        while game.outcome() is None:
            seat = rng.choice(game.to_move())
            copy = game.clone()
            begin = time.perf_counter()
            actions = game.legal_actions(seat)
            legal.append(time.perf_counter() - begin)
            action = chooser.choose(game, seat) if chooser else rng.choice(actions)
            begin = time.perf_counter()
            copy.apply(seat, action)
            apply.append(time.perf_counter() - begin)
            game = copy
            moves += 1
    elapsed = time.perf_counter() - started
    result: dict[str, object] = {
        "bench": "engine", "game": name, "policy": policy, "players": players, "games": games, "moves": moves,
        "legal_actions_ms": summary(legal),
        "apply_ms": summary(apply),
        "measured_seconds": round(elapsed, 1),
    }
    if policy == "random":
        result["random_games_per_second"] = round(random_games_per_second(name, players, games), 2)
    return result


def random_games_per_second(name: str, players: int, games: int) -> float:
    """Whole games of uniformly random play, start to finish, per second."""
    cls = GAMES[name]
    begin = time.perf_counter()
    for seed in range(games):
        game = cls.new(players, seed=10_000 + seed)
        rng = random.Random(seed)
        while game.outcome() is None:
            seat = rng.choice(game.to_move())
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    return games / (time.perf_counter() - begin)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="random games per player count")
    parser.add_argument("--greedy-games", type=int, default=4, help="greedy-played games per player count")
    parser.add_argument("--game", default="tronimoes", choices=sorted(GAMES))
    args = parser.parse_args()
    for players in (2, 4, 6):
        print(json.dumps(measure(args.game, players, args.games, "random")), flush=True)
    for players in (2, 4, 6):
        print(json.dumps(measure(args.game, players, args.greedy_games, "greedy")), flush=True)


if __name__ == "__main__":
    main()
