"""AI planning outside the event loop: a pool of worker processes that choose AI seats' moves.

A seat's planning is handed over as the seat's view only: a copy of the game in which
everything the seat cannot see is dealt again (`Game.determinize`, with a generator fixed by the
seat's own view, so the same position always hands over the same copy), pickled. The workers
run `engine.levels`' agents on it and answer with the action's notation. Nothing hidden from the
seat ever reaches a worker, and the bot's event loop never runs a simulation.

The workers run at a lower CPU priority than the bot (`PLANNING_NICENESS`): however busy they
are, the bot's own process answers commands first. The pool is shared by every table of the
process (and by whatever else plans: AI levels that think longer use the same pool with a
bigger budget). Its size comes from `TILEREF_AI_PROCESSES` (default: one per core but one, at
least one).
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot.core import metrics
from bot.workers.pools import stop_now, worker_pool
from engine import Game
from engine.ai import seat_rng
from engine.digits import whole_number
from engine.levels import agent

log = logging.getLogger(__name__)

PROCESSES_SETTING = "TILEREF_AI_PROCESSES"


def default_processes() -> int:
    """One planning process per core but one (the event loop's), at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


def processes_from(given: str | None) -> int:
    """The pool size a setting asks for (`TILEREF_AI_PROCESSES`); the default when it is empty.
    Raises ValueError, saying what to write, if it is not a whole number from 1 to 64."""
    if not given or not given.strip():
        return default_processes()
    size = whole_number(given) or 0
    if not 1 <= size <= 64:
        raise ValueError(f"{PROCESSES_SETTING} is how many processes plan AI moves, a whole number from 1 to 64, "
                         f"like {default_processes()}; not '{given}'")
    return size


def handover(game: Game, seat: int) -> bytes:
    """What a worker gets to plan `seat`'s move: the game as the seat may know it (everything
    it cannot see dealt again), pickled."""
    return pickle.dumps(game.determinize(seat, seat_rng(game, seat, "handover")))


PLANNING_NICENESS = 10
"""How much lower than the bot's the planning processes' CPU priority is: planning is background
work, so a busy planner never delays a command's answer."""


def _lower_priority() -> None:
    """In a worker, as it starts: yield the CPU to the bot's own process."""
    try:
        os.nice(PLANNING_NICENESS)
    except OSError:
        log.info("could not lower the planning process's priority")


def choose(view: bytes, seat: int, name: str, budget: float) -> str:
    """In a worker: the move agent `name` chooses for `seat` on a handed-over game."""
    game = pickle.loads(view)
    return agent(name, budget=budget).choose(game, seat)


class PlanningPool:
    """Worker processes that plan AI moves; `size` of them (started on first use). `await
    plan(...)` never blocks the event loop."""

    def __init__(self, size: int | None = None) -> None:
        self.size = size if size is not None else processes_from(os.environ.get(PROCESSES_SETTING))
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = worker_pool(self.size, preload=["engine", "engine.levels", "bot.workers.planning"],
                                         initializer=_lower_priority)
        return self._executor

    async def plan(self, game: Game, seat: int, name: str, budget: float) -> str:
        """The move agent `name` (a level, "easy", "normal" or "hard", an old name of one, or
        "greedy" or "random") chooses for `seat`, planning in a worker process on the seat's view
        for at most `engine.levels.planning_seconds(name, budget)` (`hard`: longer than `budget`)."""
        return await self.plan_view(handover(game, seat), seat, name, budget)

    async def plan_view(self, view: bytes, seat: int, name: str, budget: float) -> str:
        """As `plan`, on a view already handed over (`handover`)."""
        loop = asyncio.get_running_loop()
        with metrics.ai_planning_seconds.time():
            try:
                return await loop.run_in_executor(self._pool(), choose, view, seat, name, budget)
            except BrokenProcessPool:
                log.warning("a planning process died; starting the pool again")
                self._executor = None
                return await loop.run_in_executor(self._pool(), choose, view, seat, name, budget)

    def close(self) -> None:
        """Stop the workers (a plan still running is abandoned)."""
        if self._executor is not None:
            stop_now(self._executor)
            self._executor = None
