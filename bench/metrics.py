"""What the metrics cost a move, and that they count what was done.

Runs moves through the real referee (SQLite, or PostgreSQL with `--database`), with `/metrics`
served on a free local port (as `TILEREF_METRICS` would), and prints JSON lines:
  * the scrape deltas: `/metrics` fetched over HTTP before and after `--moves` moves, and how
    much each counter, gauge and histogram count moved, next to the moves made (each reply
    counts as delivered when returned, as in a terminal game, so announcements' delivery moves);
  * the overhead: act latency with the metrics counting and with their hooks on a move's path
    replaced by no-ops, in alternating rounds (`--rounds` of `--moves` each way), as medians;
    and the hooks' own cost a move, timed alone (a move calls them about four times).

    python bench/metrics.py [--tables 20] [--moves 300] [--rounds 4] [--database postgresql://…]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import math
import random
import statistics
import tempfile
import time
import timeit
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import aiohttp
import benchpath  # (must come before the project's imports)
from prometheus_client.parser import text_string_to_metric_families

from bot.adapters.web.metrics_endpoint import start_metrics
from bot.core import metrics
from bot.service.referee import Referee
from bot.storage.address import store_for


def _referee_bench() -> ModuleType:
    """bench/referee.py (its tables, moves and warming), loaded by its path: benchpath took
    bench/ off the import path."""
    spec = importlib.util.spec_from_file_location("referee_bench", Path(__file__).with_name("referee.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


referee_bench = _referee_bench()
latency, open_tables, warm, warm_referee = (referee_bench.latency, referee_bench.open_tables, referee_bench.warm,
                                            referee_bench.warm_referee)

HOOKS = ("command_ended", "moves_committed", "notices_committed", "notices_delivered")
"""The `metrics` functions a move calls (the command's end, its moves, its announcements)."""


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every counter, gauge and histogram count on `/metrics`, by name and labels."""
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/metrics") as response:
        text = await response.text()
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            wanted = family.type == "gauge" or sample.name.endswith(("_total", "_count"))
            if wanted and not math.isnan(sample.value):  # the gateway's latency, with no gateway
                found[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return found


@contextmanager
def hooks_off() -> Iterator[None]:
    """The metrics hooks on a move's path do nothing meanwhile."""
    kept = {name: getattr(metrics, name) for name in HOOKS}
    for name in HOOKS:
        setattr(metrics, name, lambda *args, **kwargs: None)
    try:
        yield
    finally:
        for name, hook in kept.items():
            setattr(metrics, name, hook)


def hook_cost() -> float:
    """Microseconds the hooks of one move take (a command ended, one move, one announcement
    committed and delivered)."""
    ids = iter(range(10**9))

    def one_move() -> None:
        key = next(ids)
        metrics.command_ended("act", "ok", 0.004)
        metrics.moves_committed("tronimoes", 1)
        metrics.notices_committed([(key, 0.0)])
        metrics.notices_delivered([key], 0.01)

    count = 20_000
    return min(timeit.repeat(one_move, number=count, repeat=5)) / count * 1e6


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--database", help="a PostgreSQL address (default: an SQLite file in a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        address, schema = benchpath.scratch_database(folder, args.database)
        kind = "postgresql" if schema else "sqlite"
        store = store_for(address)
        await store.open()
        endpoint = await start_metrics("127.0.0.1:0")
        assert endpoint is not None
        try:
            seeds = iter(range(1, 10**9))
            places = await open_tables(Referee(store, render=False, seeds=lambda: next(seeds)), args.tables)
            referee = warm_referee(store, places, confirms_delivery=False)  # a reply is delivered when returned
            await warm(referee, places)
            await latency(referee, places, 50, seed=99)  # warm up

            before = await scrape(endpoint.port)
            begin = time.perf_counter()
            done = await latency(referee, places, args.moves, seed=1)
            elapsed = time.perf_counter() - begin
            after = await scrape(endpoint.port)
            moved = {f"{name}{dict(labels) if labels else ''}": round(value - before.get((name, labels), 0))
                     for (name, labels), value in sorted(after.items()) if value != before.get((name, labels), 0)}
            print(json.dumps({"bench": "metrics", "database": kind, "step": "scrape deltas", "moves": len(done),
                              "seconds": round(elapsed, 2), "deltas": moved}), flush=True)

            on: list[float] = []
            off: list[float] = []
            rng = random.Random(5)
            for number in range(args.rounds * 2):
                counting = number % 2 == 0
                if counting:
                    on += await latency(referee, places, args.moves, seed=rng.randrange(10**6))
                else:
                    with hooks_off():
                        off += await latency(referee, places, args.moves, seed=rng.randrange(10**6))
            with_ms, without_ms = statistics.median(on) * 1000, statistics.median(off) * 1000
            print(json.dumps({"bench": "metrics", "database": kind, "step": "act latency", "moves_each": len(on),
                              "median_ms_with_metrics": round(with_ms, 3),
                              "median_ms_without_metrics": round(without_ms, 3),
                              "difference_ms": round(with_ms - without_ms, 3),
                              "hooks_us_per_move": round(hook_cost(), 2)}), flush=True)
        finally:
            await endpoint.stop()
            if schema and hasattr(store, "drop_schema"):
                await store.drop_schema()
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
