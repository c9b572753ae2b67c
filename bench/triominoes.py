"""Triominoes figures (issue targets in brackets), one JSON line each:

* `legal_actions` with 6 players and 40 to 45 tiles down [p99 <= 5 ms] (real 6-player rounds
  end before 40 tiles are down, someone going out, so the tables are built: tiles laid at random
  where they fit, the rest dealt to the six hands);
* the board picture of those tables [<= 40 ms, <= 300 KB];
* greedy against random over `--rounds` rounds of 2 players (seats alternating): rounds won by
  each (the round's winner: who went out, or the blocked round's lowest hand), and the mean
  points each scored in a round.

    python bench/triominoes.py [--tables 60] [--rounds 100]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import benchpath  # noqa: F401  (must come before the project's imports)

from engine.ai import GreedyAgent, RandomAgent
from engine.triominoes import Triominoes
from engine.triominoes.board import ORIGIN, Board
from engine.triominoes.geometry import cell_name
from engine.triominoes.tiles import TILES, name
from renderers import render


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def summary(name: str, samples: list[float]) -> dict[str, object]:
    return {"case": name, "samples": len(samples),
            "median_ms": round(statistics.median(samples) * 1000, 2) if samples else None,
            "p99_ms": round(percentile(samples, 0.99) * 1000, 2) if samples else None}


def crowded_table(seed: int, down: int = 40) -> Triominoes:
    """A 6-player game with `down` tiles on the table (laid at random where they fit) and the
    other tiles dealt to the hands, round-robin; the well empty."""
    rng = random.Random(seed)
    board, left = Board(), list(TILES)
    while len(board) < down:  # a table that gets stuck early is laid again
        left = list(TILES)
        rng.shuffle(left)
        board = Board()
        board.place(ORIGIN, left.pop())
        while len(board) < down:
            options = [(cell, turned, tile) for tile in left for cell, turned in board.placements(tile)]
            if not options:
                break
            cell, turned, tile = rng.choice(options)
            board.place(cell, turned)
            left.remove(tile)
    hands: list[list[str]] = [[] for _ in range(6)]
    for index, tile in enumerate(left):
        hands[index % 6].append(name(tile))
    return Triominoes.from_position({
        "game": "triominoes", "turn": 0, "round": 1, "passes": 0, "pool": [],
        "board": [{"at": cell_name(cell), "corners": list(board.cells[cell])} for cell in board.order],
        "seats": [{"name": f"P{i + 1}", "score": 0, "hand": hand, "drawn": 0} for i, hand in enumerate(hands)]})


def timings(tables: int) -> list[dict[str, object]]:
    """`legal_actions` for every seat of crowded 6-player tables (40 to 45 tiles down), each on a
    fresh copy so no cached table helps, and their board pictures."""
    legal: list[float] = []
    pictures: list[float] = []
    sizes: list[int] = []
    render(crowded_table(-1))  # fonts and palettes load once per process, not per picture
    for seed in range(tables):
        game = crowded_table(seed, down=40 + seed % 6)
        for seat in range(6):
            copy = game.clone()
            copy.board = copy.board.copy()
            copy.board._open = copy.board._spots = None
            copy.turn = seat
            started = time.perf_counter()
            copy.legal_actions(seat)
            legal.append(time.perf_counter() - started)
        started = time.perf_counter()
        data = render(game)
        pictures.append(time.perf_counter() - started)
        sizes.append(len(data))
    return [summary("legal_actions_6_players_40_tiles_down", legal),
            {**summary("board_picture_40_tiles_down", pictures), "max_kb": round(max(sizes) / 1024, 1)}]


def duel(rounds: int) -> dict[str, object]:
    """Greedy against random, round after round, seats alternating by game."""
    agents = {"greedy": GreedyAgent(), "random": RandomAgent()}
    won = {"greedy": 0, "random": 0, "shared": 0}
    points: dict[str, list[int]] = {"greedy": [], "random": []}
    seed = 0
    while sum(won.values()) < rounds:
        game = Triominoes.new(2, seed=seed)
        seats = ("greedy", "random") if seed % 2 == 0 else ("random", "greedy")
        seed += 1
        while game.outcome() is None and sum(won.values()) < rounds:
            round_number, before = game.round, [s.score for s in game.seats]
            seat = game.to_move()[0]
            game.apply(seat, game.forced_action(seat) or agents[seats[seat]].choose(game, seat))
            if game.round != round_number or game.outcome() is not None:
                winners = {seats[w] for w in game.round_winners}
                won["shared" if len(winners) > 1 else winners.pop()] += 1
                for index, name in enumerate(seats):
                    points[name].append(game.seats[index].score - before[index])
    decided = won["greedy"] + won["random"]
    return {"case": "greedy_vs_random_rounds", "rounds": rounds, **won,
            "greedy_share_of_decided": round(won["greedy"] / max(1, decided), 3),
            "mean_round_points": {name: round(statistics.mean(p), 1) for name, p in points.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()
    for line in timings(args.tables):
        print(json.dumps(line), flush=True)
    print(json.dumps(duel(args.rounds)), flush=True)


if __name__ == "__main__":
    main()
