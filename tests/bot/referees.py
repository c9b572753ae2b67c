"""Building real referees for tests: a real SQLite file in a temporary folder, a manual clock,
and replies from the clock collected in a list."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.core.clock import ManualClock
from bot.core.records import User
from bot.core.replies import Reply, plain
from bot.service.referee import Referee
from bot.storage.address import store_for

ALICE = User("test:alice", "alice")
BOB = User("test:bob", "bob")
CAROL = User("test:carol", "carol")
MOD = User("test:mod", "mod", moderator=True)
PLACE = "test:table"


class Notices(list[Reply]):
    """Replies the clock sent (timeouts and reminders)."""

    async def __call__(self, reply: Reply) -> None:
        self.append(reply)

    def texts(self, now: float | None = None) -> list[str]:
        return [plain(r.public.text, now) for r in self if r.public]


@asynccontextmanager
async def running_referee(path: Path | str, clock: ManualClock, *, render: bool = False,
                          notices: Notices | None = None, snapshot_every: int = 50,
                          seed: int = 7, confirms_delivery: bool = False,
                          ai_seconds: float = 0.0) -> AsyncIterator[Referee]:
    """A referee on the database at `path` (an SQLite file or a PostgreSQL address), firing
    timers by `clock`, closed afterwards.
    Games it starts are seeded `seed`, `seed + 1`, …; replies count as delivered when returned
    unless `confirms_delivery` (then the test confirms them, or the outbox sends them again). AI
    seats do not plan (`ai_seconds` 0: they play the greedy agent's move) unless asked to."""
    store = store_for(path)
    await store.open()
    seeds = iter(range(seed, seed + 1_000_000))
    referee = Referee(store, clock=clock, render=render, notify=notices, snapshot_every=snapshot_every,
                      seeds=lambda: next(seeds), confirms_delivery=confirms_delivery, ai_seconds=ai_seconds)
    await referee.open()
    try:
        yield referee
    finally:
        await referee.close()
        await store.close()


def text(reply: Reply, now: float | None = None) -> str:
    """Everything a reply says, mentions and names as names, times as "in 5m" from `now`."""
    parts = [m.text for m in (reply.public, reply.caller) if m]
    return plain("\n".join(parts), now)


async def started(referee: Referee, *players: User, turn_time: str | None = None, place: str = PLACE) -> Reply:
    """A table at `place` with `players` seated in order, started."""
    first, *rest = players
    assert (await referee.create(place, first, "tronimoes", turn_time=turn_time)).ok
    for player in rest:
        assert (await referee.join(place, player)).ok
    reply = await referee.start(place, first)
    assert reply.ok, text(reply)
    return reply


async def waiting_user(referee: Referee, place: str = PLACE) -> User:
    """The player the game at `place` waits for (the first, if several)."""
    table, game = await referee.view(place)
    seat = game.to_move()[0]
    return next(u for u in (ALICE, BOB, CAROL) if table.seats[seat].user_id == u.id)


def losing(store: Any, method: str, *, after: bool = True, times: int = 1) -> None:
    """Make the real store's `method` fail `times` times, after doing its work (`after`: the
    database wrote it, its answer was lost) or before (nothing written)."""
    real = getattr(store, method)
    left = [times]

    async def lossy(*args: Any, **kwargs: Any) -> Any:
        if left[0] > 0:
            left[0] -= 1
            if not after:
                raise ConnectionResetError("connection lost before the write")
            await real(*args, **kwargs)
            raise ConnectionResetError("connection lost after the write")
        return await real(*args, **kwargs)

    setattr(store, method, lossy)
