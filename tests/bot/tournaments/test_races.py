"""Two bot processes running one tournament on one database, and a bot process SIGKILLed while it
runs one: a round is paired once, each board gets one table, each message is posted once (at
most re-sent, never added twice), and the round goes on to its end. Real processes (spawned
interpreters) on an SQLite file and on PostgreSQL (the `database` fixture)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.service.referee import Referee
from bot.storage.address import store_for
from bot.storage.tournaments import FINISHED, RUNNING
from bot.tournaments.runner import TournamentRunner
from tests.bot.spawned import SPAWN, at_once
from tests.bot.tournaments.helpers import running_event


async def _runner_passes(path: str, passes: int) -> int:
    """A process's life: a referee and a tournament runner on `path`, run forward `passes` times."""
    store = store_for(path)
    await store.open()
    referee = Referee(store, render=False, confirms_delivery=False)
    runner = TournamentRunner(referee)
    try:
        for _ in range(passes):
            await runner.run_due()
        return passes
    finally:
        await referee.close()
        await store.close()


def _runner_forever(path: str, ready: Any) -> None:
    """A process running the tournament runner's loop (as the bot does) until it is killed."""
    async def serve() -> None:
        store = store_for(path)
        await store.open()
        referee = Referee(store, render=False, confirms_delivery=False)
        runner = TournamentRunner(referee, every=0.05, place_lease=0.5)
        runner.start()
        ready.set()
        await asyncio.sleep(600)

    asyncio.run(serve())


async def _kill_a_runner_after(database: str, delay: float) -> None:
    """Start a runner in a process of its own and SIGKILL it `delay` seconds after it is ready."""
    ready = SPAWN.Event()
    doomed = SPAWN.Process(target=_runner_forever, args=(database, ready))
    doomed.start()
    assert ready.wait(60)
    await asyncio.sleep(delay)
    doomed.kill()
    doomed.join(timeout=10)
    assert doomed.exitcode == -9


async def _new_event(database: str, players: int) -> int:
    """A round robin of `players` starting now (real time), everyone signed up."""
    async with running_event(database, start=time.time() - 3600) as event:
        tid = await event.new("tromino_go", "round_robin", players)
        tournament = await event.referee.store.tournaments.get(tid)
        tournament.starts_at = tournament.signup_closes = tournament.due = time.time() - 1
        await event.referee.store.tournaments.save(tournament)
        return tid


async def _check_one_table_a_board(database: str, tid: int, *, all_linked: bool = True) -> None:
    """At most one table a board, at the board's place and marked with it (each linked to its
    board unless a kill fell between the two: `all_linked` False); every message key once."""
    async with running_event(database, start=time.time()) as event:
        view = await event.view(tid)
        boards = [b for r in view.rounds for b in r.boards]
        tables = await event.referee.store.find_tables(place_prefix="test:lobby/", statuses=("lobby", "playing",
                                                                                              "finished", "aborted"),
                                                       limit=1000)
        marks = [tuple(t.meta["tournament"]) for t in tables]
        assert len(marks) == len(set(marks))
        by_place = {b.place: b for b in boards if b.place}
        for table in tables:
            board = by_place[table.place]
            assert tuple(table.meta["tournament"]) == (tid, board.round, board.board)
            assert board.table_id in (table.id, None if not all_linked else table.id)
        linked = sorted(b.table_id for b in boards if b.table_id is not None)
        if all_linked:
            assert sorted(t.id for t in tables) == linked
        assert len({b.place for b in boards if b.place}) == len([b for b in boards if b.place])
        for table in tables:
            begun = ("playing", "finished") if all_linked else ("lobby", "playing", "finished")
            assert table.status in begun and table.meta["tournament"][0] == tid
        keys = [m.key for m in await event.referee.store.tournaments.messages(tid)]
        assert len(keys) == len(set(keys))


async def test_two_processes_running_one_tournament_pair_its_round_once_and_open_each_board_once(database):
    tid = await _new_event(database, 8)
    assert at_once(_runner_passes, [(database, 3), (database, 3)]) == [3, 3]
    async with running_event(database, start=time.time()) as event:
        view = await event.view(tid)
        assert view.tournament.status == RUNNING and [r.number for r in view.rounds] == [1]
        assert all(b.table_id is not None for b in view.round(1).boards) and len(view.round(1).boards) == 4
    await _check_one_table_a_board(database, tid)


async def test_two_processes_closing_one_round_pair_the_next_once(database):
    tid = await _new_event(database, 6)
    await _runner_passes(database, 1)
    async with running_event(database, start=time.time()) as event:
        await event.play_out(tid)
    assert at_once(_runner_passes, [(database, 2), (database, 2)]) == [2, 2]
    async with running_event(database, start=time.time()) as event:
        view = await event.view(tid)
        assert [r.number for r in view.rounds] == [1, 2] and view.round(1).closed_at is not None
        keys = [m.key for m in await event.referee.store.tournaments.messages(tid)]
        assert keys.count("standings:1") == 1 and keys.count("round:2:0") == 1
    await _check_one_table_a_board(database, tid)


async def test_a_killed_process_leaves_nothing_twice_and_the_tournament_goes_on(database):
    """A runner is SIGKILLed at moments spread over its opening of a round's eight boards (and,
    later, over its closing of the round); another process then takes over and finishes the
    round: one table a board, every round once, and no round left open with its games done."""
    tid = await _new_event(database, 16)
    for delay in (0.05, 0.15, 0.3, 0.6):
        await _kill_a_runner_after(database, delay)
        await _check_one_table_a_board(database, tid, all_linked=False)
    await asyncio.sleep(0.5)  # the dead process's claims on making places run out
    await _runner_passes(database, 2)
    await _check_one_table_a_board(database, tid)
    async with running_event(database, start=time.time()) as event:
        await event.play_out(tid)
    for delay in (0.02, 0.1):
        await _kill_a_runner_after(database, delay)
    await asyncio.sleep(0.5)
    await _runner_passes(database, 2)
    async with running_event(database, start=time.time()) as event:
        view = await event.view(tid)
        assert view.round(1).closed_at is not None and view.tournament.current_round == 2
        assert all(b.table_id is not None for b in view.round(2).boards)
        assert view.tournament.status in (RUNNING, FINISHED)
    await _check_one_table_a_board(database, tid)
