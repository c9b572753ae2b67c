"""Referee speed with 1,000 active tables in one SQLite file.

Prints JSON lines:
  * act latency end to end (load, parse, apply, commit, render the board PNG): median and p99;
  * the same without rendering;
  * sustained moves per second without rendering, many tables moving at once.
Targets on a 2-core machine: p99 <= 100 ms with rendering; >= 200 moves/s without.

    python bench/referee.py [--tables 1000] [--moves 400] [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

import benchpath  # noqa: F401  (must come before the project's imports)

from bot.records import User
from bot.referee import Referee
from bot.store import SQLiteStore

PLAYERS = [User(f"bench:{i}", f"player{i}") for i in range(6)]


def summary(seconds: list[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    return {"median": round(statistics.median(ordered) * 1000, 2),
            "p99": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 2)}


async def open_tables(referee: Referee, count: int) -> list[str]:
    places = []
    for number in range(count):
        place = f"bench:{number}"
        players = PLAYERS[: 2 + number % 5]
        await referee.create(place, players[0], "tronimoes", turn_time="1d")
        for user in players[1:]:
            await referee.join(place, user)
        await referee.start(place, players[0])
        places.append(place)
    return places


async def one_move(referee: Referee, place: str, rng: random.Random) -> float | None:
    """Time one act on a table: the move is chosen first (not timed). None if the table is over,
    or another worker moved on it first (the stale move is refused, as it should be)."""
    shown = await referee.view(place)
    if shown is None:
        return None
    table, game = shown
    if game.outcome() is not None:
        return None
    seat = game.to_move()[0]
    user = next(u for u in PLAYERS if u.id == table.seats[seat].user_id)
    action = rng.choice(game.legal_actions(seat))
    begin = time.perf_counter()
    reply = await referee.act(place, user, action, seen=len(game.log))
    elapsed = time.perf_counter() - begin
    if not reply.ok:
        assert reply.caller and "the board changed" in reply.caller.text, reply.caller
        return None
    return elapsed


async def latency(referee: Referee, places: list[str], moves: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    samples = []
    while len(samples) < moves:
        measured = await one_move(referee, rng.choice(places), rng)
        if measured is not None:
            samples.append(measured)
    return samples


async def sustained(referee: Referee, places: list[str], seconds: float, workers: int) -> tuple[int, float]:
    """Moves per second with `workers` tables moving at the same time."""
    done = 0
    deadline = time.perf_counter() + seconds

    async def worker(number: int) -> None:
        nonlocal done
        rng = random.Random(number)
        while time.perf_counter() < deadline:
            if await one_move(referee, rng.choice(places), rng) is not None:
                done += 1

    begin = time.perf_counter()
    await asyncio.gather(*(worker(n) for n in range(workers)))
    return done, time.perf_counter() - begin


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        store = SQLiteStore(path)
        await store.open()
        seeds = iter(range(1, 10**9))
        setup = Referee(store, render=False, seeds=lambda: next(seeds))
        begin = time.perf_counter()
        places = await open_tables(setup, args.tables)
        print(json.dumps({"bench": "referee", "step": "setup", "tables": len(places),
                          "seconds": round(time.perf_counter() - begin, 1),
                          "file_mb": round(path.stat().st_size / 1e6, 1)}), flush=True)
        for render in (True, False):
            referee = Referee(store, render=render)
            samples = await latency(referee, places, args.moves, seed=1 if render else 2)
            print(json.dumps({"bench": "referee", "step": "act latency", "render": render, "moves": len(samples),
                              "tables": len(places), "latency_ms": summary(samples)}), flush=True)
        referee = Referee(store, render=False)
        for workers in (1, 16):
            moves, elapsed = await sustained(referee, places, args.seconds, workers)
            print(json.dumps({"bench": "referee", "step": "sustained", "render": False, "concurrent_tables": workers,
                              "moves": moves, "moves_per_second": round(moves / elapsed, 1)}), flush=True)
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=400, help="timed moves per latency case")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each sustained run")
    asyncio.run(main(parser.parse_args()))
