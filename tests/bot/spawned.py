"""Processes started together: each runs one async function in a spawned Python interpreter (a
process of its own, as a second bot would be), all released at the same moment by a barrier."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.service.referee import Referee
from bot.storage.address import store_for

SPAWN = multiprocessing.get_context("spawn")


def _released(function: Callable[..., Awaitable[Any]], args: Sequence[Any], barrier: Any, results: Any) -> None:
    barrier.wait()
    results.put(asyncio.run(function(*args)))


def at_once(function: Callable[..., Awaitable[Any]], calls: Sequence[Sequence[Any]], timeout: float = 120) -> list[Any]:
    """`function(*args)` for each `args` of `calls`, each in its own spawned process, all released
    at once; their results, in the order they came. `function` is an async function defined at
    a module's top level (a spawned process imports it by name). Each process must end cleanly."""
    barrier, results = SPAWN.Barrier(len(calls)), SPAWN.Queue()
    processes = [SPAWN.Process(target=_released, args=(function, tuple(args), barrier, results)) for args in calls]
    for process in processes:
        process.start()
    outcomes = [results.get(timeout=timeout) for _ in processes]
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    return outcomes


async def serve(path: str, seconds: float, ready: Any = None, **options: Any) -> None:
    """A referee running its timers and outbox on the database at `path` for `seconds` (built with
    `options`), setting `ready` once it runs."""
    store = store_for(path)
    await store.open()
    referee = Referee(store, render=False, **options)
    await referee.open()
    if ready is not None:
        ready.set()
    try:
        await asyncio.sleep(seconds)
    finally:
        await referee.close()
        await store.close()


def clock_worker(path: str, seconds: float, ready: Any) -> None:
    """A process's whole life: a referee serving the clock on `path` for `seconds` (what it says
    counts as delivered)."""
    asyncio.run(serve(path, seconds, ready, confirms_delivery=False))
