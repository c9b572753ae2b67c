"""Tronix figures (issue targets in brackets), one JSON line each:

* God Mode `legal_actions` with 30 cards on the table [p99 <= 20 ms]: every card but the locked
  one, every cell, every pattern, with the island check; and `apply` of one of them [p99 <= 5 ms];
* the board picture with 30 cards [<= 40 ms, <= 300 KB];
* greedy against random over `--games` two-player games (seats alternating, random play seeded
  per game): games won by each team's agent, draws, and the mean cards won.

    python bench/tronix.py [--tables 40] [--games 100]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import benchpath  # noqa: F401  (must come before the project's imports)

from engine.ai import GreedyAgent
from engine.tronix import Tronix
from engine.tronix.teams import seating
from renderers import render


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def summary(name: str, samples: list[float]) -> dict[str, object]:
    return {"case": name, "samples": len(samples), "median_ms": round(statistics.median(samples) * 1000, 2),
            "p99_ms": round(percentile(samples, 0.99) * 1000, 2)}


def god_table(seed: int, cards: int = 30) -> Tronix:
    """A 4-player God Mode position with `cards` cards laid at random, edge to edge, none of
    them closing a circuit, and the last one locked."""
    rng = random.Random(seed)
    game = Tronix.new(4, seed=seed)
    while len(game.table) < cards:
        seat = game.to_move()[0]
        actions = game.legal_actions(seat)
        for action in rng.sample(actions, len(actions)):
            copy = game.clone()
            copy.apply(seat, action)
            if len(copy.table) == len(game.table) + 1:
                game = copy
                break
    table = [{"at": list(cell), "kind": card.kind, "pattern": card.pattern} for cell, card in game.table.items()]
    return Tronix.from_position({
        "game": "tronix", "turn": 0, "actions_left": 1, "phase": "god", "table": table,
        "locked": table[-1]["at"], "seats": [{"name": f"P{i + 1}", "team": t, "hand": []}
                                             for i, t in enumerate(seating(4))]})


def timings(tables: int) -> list[dict[str, object]]:
    legal: list[float] = []
    apply: list[float] = []
    pictures: list[float] = []
    sizes: list[int] = []
    render(god_table(-1))  # fonts and palettes load once per process
    for seed in range(tables):
        game = god_table(seed)
        rng = random.Random(seed)
        for _ in range(5):
            seat = game.to_move()[0]
            started = time.perf_counter()
            actions = game.clone().legal_actions(seat)
            legal.append(time.perf_counter() - started)
            copy = game.clone()
            started = time.perf_counter()
            copy.apply(seat, rng.choice(actions))
            apply.append(time.perf_counter() - started)
            if copy.outcome() is not None or len(copy.table) != 30:
                break
            game = copy
        started = time.perf_counter()
        data = render(game)
        pictures.append(time.perf_counter() - started)
        sizes.append(len(data))
    return [summary("god_mode_legal_actions_30_cards", legal), summary("god_mode_apply_30_cards", apply),
            {**summary("board_picture_30_cards", pictures), "max_kb": round(max(sizes) / 1024, 1)}]


def duel(games: int) -> dict[str, object]:
    greedy = GreedyAgent()
    won = {"greedy": 0, "random": 0, "draws": 0}
    cards: dict[str, list[int]] = {"greedy": [], "random": []}
    for seed in range(games):
        game = Tronix.new(2, seed=seed)
        rng = random.Random(seed)
        seats = ("greedy", "random") if seed % 2 == 0 else ("random", "greedy")
        while game.outcome() is None:
            seat = game.to_move()[0]
            action = greedy.choose(game, seat) if seats[seat] == "greedy" else rng.choice(game.legal_actions(seat))
            game.apply(seat, action)
        piles = [game.piles[game.team_of(s)] for s in (0, 1)]
        for seat in (0, 1):
            cards[seats[seat]].append(piles[seat])
        won["draws" if piles[0] == piles[1] else seats[0 if piles[0] > piles[1] else 1]] += 1
    return {"case": "greedy_vs_random_games", "games": games, **won,
            "mean_cards": {name: round(statistics.mean(c), 1) for name, c in cards.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    for line in timings(args.tables):
        print(json.dumps(line), flush=True)
    if args.games:
        print(json.dumps(duel(args.games)), flush=True)


if __name__ == "__main__":
    main()
