"""How fast the planning agent plans, and how many AI moves a machine makes for many tables.

`rate`: for each game, the planning agent's simulations per second on a few mid-game positions
(a fixed number of simulations a move, timed; the ranking of candidates included), one JSON line
a game. `tables`: AI moves per second across `--tables` tables each waiting for an AI seat, with
the bot's planning budget, made either in a process pool of `--workers` processes (as the bot's
planning pool, `bot.workers.planning`, makes them) or in threads (as the referee made them before it);
also how many simulations each move got, since threads share one interpreter lock and split the
budget's CPU between them.

    python bench/ai_speed.py rate [--simulations 64] [--positions 4] [--game tronimoes]
    python bench/ai_speed.py tables [--tables 20] [--budget 2] [--workers 2] [--how process,thread]

Target: the p95 move time stays within the budget (see bench/ai.py); these figures are reported.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

import benchpath  # noqa: F401  (must come before the project's imports)

from engine import GAMES, Game
from engine.ai import PlanningAgent


def positions(cls: type[Game], count: int, moves: int = 30) -> list[Game]:
    """`count` positions `moves` random legal moves into 2-player games, each with a choice."""
    found = []
    for seed in range(100):
        game = cls.new(max(2, cls.min_players), seed=seed)
        rng = random.Random(seed)
        for _ in range(moves + seed % 7):
            if game.outcome() is not None:
                break
            seat = game.to_move()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        if game.outcome() is None and len(game.legal_actions(game.to_move()[0])) > 1:
            found.append(game)
        if len(found) >= count:
            break
    return found


def rate(cls: type[Game], simulations: int, count: int) -> dict[str, object]:
    made, seconds = 0, 0.0
    for game in positions(cls, count):
        planner = PlanningAgent(simulations=simulations)
        started = time.perf_counter()
        planner.choose(game, game.to_move()[0])
        seconds += time.perf_counter() - started
        made += getattr(planner, "made", simulations)
    return {"game": cls.name, "simulations": made, "seconds": round(seconds, 2),
            "simulations_per_second": round(made / seconds, 1) if seconds else None}


def one_move(name: str, seed: int, budget: float) -> tuple[float, int]:
    """Plan one move of a mid-game position of `name` at `budget`: (seconds, simulations)."""
    game = positions(GAMES[name], 1 + seed % 3)[-1]
    planner = PlanningAgent(budget)
    started = time.perf_counter()
    planner.choose(game, game.to_move()[0])
    return time.perf_counter() - started, getattr(planner, "made", 0)


def tables(name: str, count: int, budget: float, pool: Executor) -> dict[str, object]:
    one_move(name, 0, 0.01)  # imports and caches warm in this process
    started = time.perf_counter()
    results = list(pool.map(one_move, [name] * count, range(count), [budget] * count))
    elapsed = time.perf_counter() - started
    return {"game": name, "tables": count, "budget": budget, "seconds": round(elapsed, 1),
            "moves_per_second": round(count / elapsed, 2),
            "median_simulations_a_move": statistics.median(made for _, made in results),
            "p95_move_seconds": round(sorted(s for s, _ in results)[int(count * 0.95) - 1], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("rate", "tables"))
    parser.add_argument("--game", action="append")
    parser.add_argument("--simulations", type=int, default=64)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--budget", type=float, default=2.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--how", default="process,thread")
    args = parser.parse_args()
    for name in args.game or sorted(GAMES):
        if args.what == "rate":
            print(json.dumps(rate(GAMES[name], args.simulations, args.positions)), flush=True)
            continue
        for how in args.how.split(","):
            pool: Executor = (ProcessPoolExecutor(args.workers) if how == "process"
                              else ThreadPoolExecutor(args.tables))
            with pool:
                print(json.dumps({"how": how, "workers": args.workers if how == "process" else args.tables,
                                  **tables(name, args.tables, args.budget, pool)}), flush=True)


if __name__ == "__main__":
    main()
