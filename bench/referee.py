"""Referee speed with many active tables in one database (an SQLite file, or PostgreSQL with
`--database postgresql://…`, in a schema of its own that is dropped afterwards).

Prints JSON lines:
  * act latency end to end (load, parse, apply, commit, render the board PNG): median and p99;
  * the same without rendering;
  * sustained moves per second without rendering, many tables moving at once, in one process
    and in several processes sharing the database (`--processes 1,4`), with the act p99;
  * paced: moves arriving at random at `--rate` a second in all (an open load, as players'
    moves arrive), spread over the processes, with the act latency they see. The sustained runs
    keep 16 moves in flight a process whatever the speed, so their latency is mostly queueing
    (64 moves in flight at 500 a second wait 128 ms on average by Little's law); the paced run
    measures what a move costs at that load, after 2 seconds of the same load that are not
    timed (a process that has served a while has its connections open).
Targets on a 2-core machine: p99 <= 100 ms with rendering; >= 200 moves/s without; on PostgreSQL
with 10,000 tables, >= 500 moves/s with 4 processes and act p99 <= 50 ms at 500 moves a second.
The load generator (choosing each move) runs in the bot's processes and takes its share of the
two cores. Every process first loads its tables' games into memory (as a process that has run
a while holds them; `TILEREF_GAME_CACHE` sizes that memory in the bot), and the time that takes,
per game, is what a move on a table not in memory costs on top.

    python bench/referee.py [--tables 1000] [--moves 400] [--seconds 10] [--processes 1,4] [--rate 500]
                            [--database postgresql://postgres@127.0.0.1:5432/test]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import benchpath  # (must come before the project's imports)

from bot.core.records import User
from bot.service.referee import Referee
from bot.storage.address import store_for
from bot.workers.memory import CollectorMaintenance

PLAYERS = [User(f"bench:{i}", f"player{i}") for i in range(6)]
WARMUP_SECONDS = 2.0
"""Load before a paced run's timed part (connections opened, statements prepared)."""


def summary(seconds: list[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    return {"median": round(statistics.median(ordered) * 1000, 2),
            "p99": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 2)}


async def open_tables(referee: Referee, count: int, workers: int = 16) -> list[str]:
    """`count` started Tronimoes tables of 2 to 6 players, opened by `workers` at a time."""
    places = [f"bench:{number}" for number in range(count)]

    async def opener(start: int) -> None:
        for number in range(start, count, workers):
            players = PLAYERS[: 2 + number % 5]
            await referee.create(places[number], players[0], "tronimoes", turn_time="1d")
            for user in players[1:]:
                await referee.join(places[number], user)
            await referee.start(places[number], players[0])

    await asyncio.gather(*(opener(n) for n in range(workers)))
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
    seen = len(game.log)  # the game in memory moves on with the next command: what this move was chosen on
    begin = time.perf_counter()
    reply = await referee.act(place, user, action, seen=seen)
    elapsed = time.perf_counter() - begin
    if not reply.ok:  # refused only because another worker moved on this table first
        assert await referee.log_length(place) != seen, reply.caller
        return None
    return elapsed


async def warm(referee: Referee, places: list[str], workers: int = 8) -> float:
    """Load every table's game into the referee's memory, as a process that has been running a
    while holds its tables' games; returns the seconds it took."""
    begin = time.perf_counter()

    async def loader(start: int) -> None:
        for place in places[start::workers]:
            await referee.view(place)

    await asyncio.gather(*(loader(n) for n in range(workers)))
    return time.perf_counter() - begin


def warm_referee(store: Any, places: list[str], **options: Any) -> Referee:
    """A referee whose memory holds every one of `places`' games once `warm` has run."""
    return Referee(store, render=False, cache_size=len(places) + 64, **options)


async def latency(referee: Referee, places: list[str], moves: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    samples = []
    while len(samples) < moves:
        measured = await one_move(referee, rng.choice(places), rng)
        if measured is not None:
            samples.append(measured)
    return samples


async def sustained(referee: Referee, places: list[str], seconds: float, workers: int,
                    seed: int = 0) -> tuple[list[float], float]:
    """The acts made in `seconds` with `workers` tables moving at the same time (their
    latencies), and how long it took."""
    samples: list[float] = []
    deadline = time.perf_counter() + seconds

    async def worker(number: int) -> None:
        rng = random.Random(seed * 1000 + number)
        while time.perf_counter() < deadline:
            measured = await one_move(referee, rng.choice(places), rng)
            if measured is not None:
                samples.append(measured)

    begin = time.perf_counter()
    await asyncio.gather(*(worker(n) for n in range(workers)))
    return samples, time.perf_counter() - begin


async def paced(referee: Referee, places: list[str], seconds: float, rate: float,
                seed: int = 0, warmup: float = WARMUP_SECONDS) -> tuple[list[float], float]:
    """Moves arriving at random at `rate` a second on average for `seconds`, each on a table
    nobody is moving on (as players' moves arrive, whether or not the bot is busy): their act
    latencies, and how long it took. The first `warmup` seconds of the same load come before
    and are not counted: a process that has served a while has its database connections open
    and their statements prepared."""
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    samples: list[float] = []
    busy: set[str] = set()
    running: set[asyncio.Task[None]] = set()

    async def move(place: str, counted: bool) -> None:
        try:
            measured = await one_move(referee, place, rng)
            if measured is not None and counted:
                samples.append(measured)
        finally:
            busy.discard(place)

    begin = loop.time() + warmup
    arrival = loop.time()
    while arrival < begin + seconds:
        await asyncio.sleep(max(0.0, arrival - loop.time()))
        place = rng.choice(places)
        if place not in busy:
            busy.add(place)
            task = asyncio.create_task(move(place, counted=arrival >= begin))
            running.add(task)
            task.add_done_callback(running.discard)
        arrival += rng.expovariate(rate)
    await asyncio.gather(*running)
    return samples, loop.time() - begin


def _process(address: str, places: list[str], seconds: float, workers: int, rate: float | None, seed: int,
             start: Any, results: Any) -> None:
    async def run() -> tuple[list[float], float]:
        store = store_for(address)
        await store.open()
        referee = warm_referee(store, places)
        collector = CollectorMaintenance()
        try:
            await warm(referee, places)
            collector.start()  # as the bot does once it serves
            start.wait()
            if rate is not None:
                return await paced(referee, places, seconds, rate, seed)
            return await sustained(referee, places, seconds, workers, seed)
        finally:
            await collector.stop()
            await store.close()

    results.put(asyncio.run(run()))


def in_processes(address: str, places: list[str], seconds: float, processes: int,
                 workers: int, rate: float | None = None) -> dict[str, Any]:
    """Moves with `processes` processes sharing the database, each moving its own share of the
    tables (as shards would): as fast as they go with `workers` tables at a time each, or, given
    a `rate`, with moves arriving at that rate in all."""
    spawn = multiprocessing.get_context("spawn")
    start, results = spawn.Barrier(processes + 1), spawn.Queue()
    here = str(Path(__file__).resolve().parent)
    sys.path.append(here)  # last, so the children find `benchpath` but `engine` stays the package
    share = None if rate is None else rate / processes
    running = [spawn.Process(target=_process, args=(address, places[n::processes], seconds, workers, share, n,
                                                     start, results)) for n in range(processes)]
    for process in running:
        process.start()
    sys.path.remove(here)
    start.wait()
    outcomes = [results.get(timeout=seconds + 120) for _ in running]
    for process in running:
        process.join(timeout=60)
    samples = [s for found, _ in outcomes for s in found]
    elapsed = max(took for _, took in outcomes)
    return {"moves": len(samples), "moves_per_second": round(len(samples) / elapsed, 1),
            "act_ms_without_render": summary(samples)}


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        address, schema = benchpath.scratch_database(folder, args.database)
        store = store_for(address)
        await store.open()
        kind = "postgresql" if schema else "sqlite"
        try:
            seeds = iter(range(1, 10**9))
            setup = Referee(store, render=False, seeds=lambda: next(seeds))
            begin = time.perf_counter()
            places = await open_tables(setup, args.tables)
            print(json.dumps({"bench": "referee", "database": kind, "step": "setup", "tables": len(places),
                              "seconds": round(time.perf_counter() - begin, 1)}), flush=True)
            referee = warm_referee(store, places)
            took = await warm(referee, places)
            collector = CollectorMaintenance()
            collector.start()
            print(json.dumps({"bench": "referee", "database": kind, "step": "load every game", "tables": len(places),
                              "seconds": round(took, 1), "ms_per_game": round(took * 1000 / len(places), 2)}),
                  flush=True)
            for render in (True, False):
                referee.render_images = render
                samples = await latency(referee, places, args.moves, seed=1 if render else 2)
                print(json.dumps({"bench": "referee", "database": kind, "step": "act latency", "render": render,
                                  "moves": len(samples), "tables": len(places), "latency_ms": summary(samples)}),
                      flush=True)
            for workers in (1, 16):
                samples, elapsed = await sustained(referee, places, args.seconds, workers)
                print(json.dumps({"bench": "referee", "database": kind, "step": "sustained", "render": False,
                                  "processes": 1, "concurrent_tables": workers, "moves": len(samples),
                                  "moves_per_second": round(len(samples) / elapsed, 1),
                                  "act_ms": summary(samples)}), flush=True)
            for processes in (int(p) for p in args.processes.split(",")):
                figures = in_processes(address, places, args.seconds, processes, workers=16)
                print(json.dumps({"bench": "referee", "database": kind, "step": "sustained", "render": False,
                                  "processes": processes, "concurrent_tables": 16 * processes, **figures}),
                      flush=True)
                for rate in (float(r) for r in args.rate.split(",")):
                    figures = in_processes(address, places, args.seconds, processes, workers=16, rate=rate)
                    print(json.dumps({"bench": "referee", "database": kind, "step": "paced", "render": False,
                                      "processes": processes, "offered_moves_per_second": rate, **figures}),
                          flush=True)
        finally:
            if schema and hasattr(store, "drop_schema"):
                await store.drop_schema()
            else:
                await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=400, help="timed moves per latency case")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each sustained run")
    parser.add_argument("--processes", default="1,4", help="process counts for the shared-database runs")
    parser.add_argument("--rate", default="500",
                        help="moves a second arriving in all in the paced runs, like 300,500 (the target's is 500)")
    parser.add_argument("--database", help="postgresql://… to measure PostgreSQL (default: an SQLite file)")
    asyncio.run(main(parser.parse_args()))
