"""Tromino Go figures (issue targets in brackets), one JSON line each:

* `legal_actions` in the placing phase [p99 <= 5 ms] and the moving phase with 30 pieces
  [p99 <= 20 ms], over greedy games;
* the board picture [<= 40 ms, <= 300 KB];
* greedy against random over `--rounds` rounds (seats alternating): rounds won by each, ties.

    python bench/tromino_go.py [--rounds 100]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import benchpath  # noqa: F401  (must come before the project's imports)

from engine.ai import GreedyAgent, RandomAgent, heuristics
from engine.tromino_go import TrominoGo
from renderers import render


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def timings(games: int) -> list[dict[str, object]]:
    greedy = GreedyAgent()
    placing: list[float] = []
    moving: list[float] = []
    pictures: list[float] = []
    sizes: list[int] = []
    for seed in range(games):
        game = TrominoGo.new(2, seed=seed, options=TrominoGo.Options.parse({"max_moving_turns": "20"}))
        start_round = game.round
        while game.outcome() is None and game.round == start_round:
            seat = game.to_move()[0]
            started = time.perf_counter()
            game.legal_actions(seat)
            (moving if game.phase == "moving" else placing).append(time.perf_counter() - started)
            started = time.perf_counter()
            data = render(game)
            pictures.append(time.perf_counter() - started)
            sizes.append(len(data))
            choices = heuristics(game).playing(game, seat)
            game.apply(seat, greedy.choose(game, seat) if len(choices) > 1 else choices[0])
    def summary(name: str, samples: list[float]) -> dict[str, object]:
        return {"case": name, "samples": len(samples),
                "median_ms": round(statistics.median(samples) * 1000, 2) if samples else None,
                "p99_ms": round(percentile(samples, 0.99) * 1000, 2) if samples else None}
    return [summary("legal_actions_placing", placing), summary("legal_actions_moving", moving),
            {**summary("board_picture", pictures), "max_kb": round(max(sizes) / 1024, 1)}]


def duel(rounds: int) -> dict[str, object]:
    """Greedy against random, round after round (concessions and forfeits left out)."""
    greedy, randomly = GreedyAgent(), RandomAgent()
    won = {"greedy": 0, "random": 0, "ties": 0}
    seed = 0
    while sum(won.values()) < rounds:
        game = TrominoGo.new(2, seed=seed, options=TrominoGo.Options.parse({"max_moving_turns": "60"}))
        greedy_seat = seed % 2
        seed += 1
        while game.outcome() is None and sum(won.values()) < rounds:
            before, round_number = list(game.points), game.round
            seat = game.to_move()[0]
            choices = heuristics(game).playing(game, seat)
            if seat == greedy_seat:
                action = greedy.choose(game, seat)
                action = action if action in choices else choices[0]
            else:
                action = randomly.choose(game, seat)
            game.apply(seat, action)
            if game.round != round_number or game.outcome() is not None:
                gained = [game.points[i] - before[i] for i in (0, 1)]
                if gained[greedy_seat] > 0:
                    won["greedy"] += 1
                elif gained[1 - greedy_seat] > 0:
                    won["random"] += 1
                else:
                    won["ties"] += 1
    return {"case": "greedy_vs_random_rounds", "rounds": rounds, **won,
            "greedy_share_of_decided": round(won["greedy"] / max(1, won["greedy"] + won["random"]), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()
    for line in timings(args.games):
        print(json.dumps(line), flush=True)
    print(json.dumps(duel(args.rounds)), flush=True)


if __name__ == "__main__":
    main()
