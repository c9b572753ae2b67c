"""Two bot processes on one database never corrupt a table: each race is run by two real
processes (spawned Python interpreters) on one SQLite file, started together at a barrier."""

from __future__ import annotations

import asyncio
import multiprocessing
from pathlib import Path
from typing import Any

import pytest

from bot.records import LOBBY, PLAYING, User
from bot.referee import Referee
from bot.store import SQLiteStore
from bot.timers import ManualClock
from tests.bot.referees import ALICE, BOB, CAROL, MOD, PLACE, running_referee, started

MANAGER = User("test:manager", "manager", moderator=True, manager=True)
DAVE = User("test:dave", "dave")
SPAWN = multiprocessing.get_context("spawn")


async def _one_command(path: str, command: str, args: dict[str, Any]) -> tuple[bool, str]:
    store = SQLiteStore(path)
    await store.open()
    referee = Referee(store, render=False, confirms_delivery=False)
    try:
        if command == "update_settings":
            reply = await referee.update_settings("g", MANAGER, **args)
        else:
            user = {"alice": ALICE, "bob": BOB, "carol": CAROL, "dave": DAVE, "mod": MOD}[args.pop("user")]
            reply = await getattr(referee, command)(PLACE, user, **args)
        return reply.ok, (reply.caller or reply.public).text if (reply.caller or reply.public) else ""
    finally:
        await store.close()


def _worker(path: str, command: str, args: dict[str, Any], barrier: Any, results: Any) -> None:
    barrier.wait()
    results.put(asyncio.run(_one_command(path, command, args)))


def race(path: Path, *commands: tuple[str, dict[str, Any]]) -> list[tuple[bool, str]]:
    """Run each command in its own process, all released at once; their (ok, text) results."""
    barrier = SPAWN.Barrier(len(commands))
    results = SPAWN.Queue()
    processes = [SPAWN.Process(target=_worker, args=(str(path), c, a, barrier, results)) for c, a in commands]
    for process in processes:
        process.start()
    outcomes = [results.get(timeout=60) for _ in processes]
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    return outcomes


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def test_two_joins_at_once_both_take_a_seat(tmp_path, clock):
    path = tmp_path / "t.sqlite3"
    async with running_referee(path, clock) as referee:
        await referee.create(PLACE, ALICE, "tronimoes")
    outcomes = race(path, ("join", {"user": "bob"}), ("join", {"user": "carol"}))
    assert all(ok for ok, _ in outcomes), outcomes
    async with running_referee(path, clock) as referee:
        table = await referee.status(PLACE)
        assert sorted(s.name for s in table.seats) == ["alice", "bob", "carol"]
        assert [s.seat for s in table.seats] == [0, 1, 2]


async def test_two_starts_at_once_deal_once(tmp_path, clock):
    path = tmp_path / "t.sqlite3"
    async with running_referee(path, clock) as referee:
        await referee.create(PLACE, ALICE, "tronimoes")
        await referee.join(PLACE, BOB)
    outcomes = race(path, ("start", {"user": "alice"}), ("start", {"user": "bob"}))
    assert sorted(ok for ok, _ in outcomes) == [False, True], outcomes
    assert any("already started" in text for ok, text in outcomes if not ok)
    async with running_referee(path, clock) as referee:
        table, game = await referee.view(PLACE)
        assert table.status == PLAYING and game.seed == table.seed


async def test_two_creates_at_one_place_open_one_table(tmp_path, clock):
    path = tmp_path / "t.sqlite3"
    async with running_referee(path, clock):
        pass
    outcomes = race(path, ("create", {"user": "alice", "game": "tronimoes"}),
                    ("create", {"user": "bob", "game": "tronimoes"}))
    assert sorted(ok for ok, _ in outcomes) == [False, True], outcomes
    async with running_referee(path, clock) as referee:
        open_tables = await referee.store.find_tables(place_prefix=PLACE)
        assert len(open_tables) == 1 and open_tables[0].status == LOBBY


async def test_two_settings_saves_at_once_keep_both_changes(tmp_path, clock):
    path = tmp_path / "t.sqlite3"
    async with running_referee(path, clock):
        pass
    outcomes = race(path, ("update_settings", {"turn_time": "2h"}), ("update_settings", {"reminders": "10m"}))
    assert all(ok for ok, _ in outcomes), outcomes
    async with running_referee(path, clock) as referee:
        settings = await referee.settings("g")
        assert settings.turn_seconds == 7200 and settings.reminders == ["10m"]


async def test_a_game_another_process_rolled_back_and_replayed_to_the_same_length_is_reloaded(tmp_path, clock):
    path = tmp_path / "t.sqlite3"
    async with running_referee(path, clock) as first:
        await started(first, ALICE, BOB)
        for _ in range(3):
            _, game = await first.view(PLACE)
            user = (ALICE, BOB)[game.to_move()[0]]
            await first.act(PLACE, user, (await first.suggestions(PLACE, user, "", limit=1000))[0])
        _, cached = await first.view(PLACE)
        length = len(cached.log)
        # another process rolls back one move and plays on to the same length
        rolled = race(path, ("rollback", {"user": "mod", "to": length - 1}))
        assert rolled[0][0], rolled
        _, game = await first.view(PLACE)
        assert game is not cached and len(game.log) == length  # the chance entry makes up the length
        user = (ALICE, BOB)[game.to_move()[0]]
        reply = await first.act(PLACE, user, (await first.suggestions(PLACE, user, "", limit=1000))[0])
        assert reply.ok
        actions = await first.store.actions(1)
        assert [a.ply for a in actions] == list(range(1, len(actions) + 1))
