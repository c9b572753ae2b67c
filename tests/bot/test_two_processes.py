"""Two bot processes on one database never corrupt a table: each race is run by two real
processes (spawned Python interpreters) on one database, started together at a barrier; every
test runs on an SQLite file and on PostgreSQL (the `database` fixture). On PostgreSQL, two
processes also hammer one table with moves (one winner per ply, a gapless log), and due timers
fire once while one of the two processes is killed."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from pathlib import Path
from typing import Any

import pytest

from bot.core import absence
from bot.core.clock import ManualClock
from bot.core.records import DEADLINE, LOBBY, PLAYING, ActionRecord, User
from bot.service.referee import Referee
from bot.storage.address import store_for
from bot.storage.loader import new_game, replay
from tests.bot.referees import ALICE, BOB, CAROL, MOD, PLACE, running_referee, started
from tests.bot.spawned import SPAWN, at_once, clock_worker, serve

MANAGER = User("test:manager", "manager", moderator=True, manager=True)
DAVE = User("test:dave", "dave")


async def _one_command(path: str, command: str, args: dict[str, Any]) -> tuple[bool, str]:
    store = store_for(path)
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


def race(path: Path | str, *commands: tuple[str, dict[str, Any]]) -> list[tuple[bool, str]]:
    """Run each command in its own process, all released at once; their (ok, text) results."""
    return at_once(_one_command, [(str(path), command, args) for command, args in commands], timeout=60)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def test_two_joins_at_once_both_take_a_seat(database, clock):
    path = database
    async with running_referee(path, clock) as referee:
        await referee.create(PLACE, ALICE, "tronimoes")
    outcomes = race(path, ("join", {"user": "bob"}), ("join", {"user": "carol"}))
    assert all(ok for ok, _ in outcomes), outcomes
    async with running_referee(path, clock) as referee:
        table = await referee.table_at(PLACE)
        assert sorted(s.name for s in table.seats) == ["alice", "bob", "carol"]
        assert [s.seat for s in table.seats] == [0, 1, 2]


async def test_two_starts_at_once_deal_once(database, clock):
    path = database
    async with running_referee(path, clock) as referee:
        await referee.create(PLACE, ALICE, "tronimoes")
        await referee.join(PLACE, BOB)
    outcomes = race(path, ("start", {"user": "alice"}), ("start", {"user": "mod"}))
    assert sorted(ok for ok, _ in outcomes) == [False, True], outcomes
    assert any("already started" in text for ok, text in outcomes if not ok)
    async with running_referee(path, clock) as referee:
        table, game = await referee.view(PLACE)
        assert table.status == PLAYING and game.seed == table.seed


async def test_two_force_passes_at_once_pass_once(database, clock):
    path = database
    async with running_referee(path, clock) as referee:
        await started(referee, ALICE, BOB)
        table = await referee.table_at(PLACE)
        seen = await referee.store.log_length(table.id)
    outcomes = race(path, ("force_pass", {"user": "mod", "seen": seen}), ("force_pass", {"user": "mod", "seen": seen}))
    assert sorted(ok for ok, _ in outcomes) == [False, True], outcomes
    assert any(text.startswith("the game moved on since you looked") for ok, text in outcomes if not ok)
    async with running_referee(path, clock) as referee:
        assert [a.action.split()[0] for a in await referee.store.actions(table.id)] == ["draw", "pass"]


async def test_two_creates_at_one_place_open_one_table(database, clock):
    path = database
    async with running_referee(path, clock):
        pass
    outcomes = race(path, ("create", {"user": "alice", "game": "tronimoes"}),
                    ("create", {"user": "bob", "game": "tronimoes"}))
    assert sorted(ok for ok, _ in outcomes) == [False, True], outcomes
    async with running_referee(path, clock) as referee:
        open_tables = await referee.store.find_tables(place_prefix=PLACE)
        assert len(open_tables) == 1 and open_tables[0].status == LOBBY


async def test_two_settings_saves_at_once_keep_both_changes(database, clock):
    path = database
    async with running_referee(path, clock):
        pass
    outcomes = race(path, ("update_settings", {"turn_time": "2h"}), ("update_settings", {"reminders": "10m"}))
    assert all(ok for ok, _ in outcomes), outcomes
    async with running_referee(path, clock) as referee:
        settings = await referee.settings("g")
        assert settings.turn_seconds == 7200 and settings.reminders == ["10m"]


async def test_a_game_another_process_rolled_back_and_replayed_to_the_same_length_is_reloaded(database, clock):
    path = database
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


async def _hammer(path: str, moves: int) -> int:
    """Make up to `moves` moves for whoever is to move, each based on the board as just read;
    the number accepted."""
    store = store_for(path)
    await store.open()
    referee = Referee(store, render=False, confirms_delivery=False)
    accepted = 0
    try:
        for _ in range(moves):
            viewed = await referee.view(PLACE)
            if viewed is None or viewed[1].outcome() is not None:
                break
            game = viewed[1]
            user = (ALICE, BOB)[game.to_move()[0]]
            choices = await referee.suggestions(PLACE, user, "", limit=1000)
            if not choices:
                continue
            reply = await referee.act(PLACE, user, choices[0], seen=len(game.log))
            accepted += reply.ok
    finally:
        await store.close()
    return accepted


async def test_two_processes_hammering_one_table_keep_one_move_per_ply(database, clock):
    async with running_referee(database, clock) as referee:
        await started(referee, ALICE, BOB)
        before = len(await referee.store.actions(1))
    accepted = sum(at_once(_hammer, [(database, 25)] * 2))
    async with running_referee(database, clock) as referee:
        actions = await referee.store.actions(1)
        assert [a.ply for a in actions] == list(range(1, len(actions) + 1))  # no gap, no ply twice
        people = [a for a in actions[before:] if a.actor.startswith("test:")]
        assert len(people) == accepted > 0  # every accepted move is in the log, once
        _, game = await referee.view(PLACE)
        assert len(game.log) == len(actions)  # and the log replays


async def test_due_timers_fire_once_across_processes_and_go_on_when_one_is_killed(database, clock):
    async with running_referee(database, clock) as referee:
        await started(referee, ALICE, BOB)
        table = await referee.table_at(PLACE)
        table.turn_seconds = 1  # a one-second clock: every turn times out, one after another
        await referee.store.save_table(table)
        before = len(await referee.store.actions(1))
        due_now = [dataclasses.replace(t, due=0.0, id=None) for t in await referee.store.timers(1)
                   if t.kind == DEADLINE]
        await referee.store.commit(1, expected=before, timers=due_now)
    readies = [SPAWN.Event(), SPAWN.Event()]
    doomed = SPAWN.Process(target=clock_worker, args=(database, 30.0, readies[0]))
    survivor = SPAWN.Process(target=clock_worker, args=(database, 6.0, readies[1]))
    doomed.start()
    survivor.start()
    assert all(ready.wait(30) for ready in readies)
    await asyncio.sleep(2.0)
    doomed.kill()  # SIGKILL, mid-game, whatever it was doing
    doomed.join(timeout=10)
    survivor.join(timeout=60)
    assert doomed.exitcode == -9 and survivor.exitcode == 0
    async with running_referee(database, clock) as referee:
        actions = await referee.store.actions(1)
        assert [a.ply for a in actions] == list(range(1, len(actions) + 1))
        timeouts = [a for a in actions[before:] if a.actor == "clock"]
        turns: list[list[ActionRecord]] = []  # a timeout's actions come together; turns a second apart
        for action in timeouts:
            if turns and action.at - turns[-1][-1].at < 0.3:
                turns[-1].append(action)
            else:
                turns.append([action])
        assert len(turns) >= 4, turns  # the game went on after the kill
        assert all(len({a.seat for a in turn}) == 1 for turn in turns), turns  # each deadline fired once


def _mover_worker(path: str, moved: Any) -> None:
    """Make one move whose announcement is never confirmed (the transport died with it), then
    wait to be killed."""
    async def serve() -> None:
        store = store_for(path)
        await store.open()
        referee = Referee(store, render=False, confirms_delivery=True, delivery_lease=1.0)
        _, game = await referee.view(PLACE)
        user = (ALICE, BOB)[game.to_move()[0]]
        reply = await referee.act(PLACE, user, "draw")
        assert reply.ok, reply
        moved.put((reply.ply, reply.public.text))
        await asyncio.sleep(60)

    asyncio.run(serve())


def _announcer_worker(path: str, seconds: float, sent: Any) -> None:
    """Run an outbox for `seconds`, reporting every announcement it sends (its move number and
    public text)."""
    async def deliver(reply: Any) -> None:
        sent.put((reply.ply, reply.public.text if reply.public else None))

    asyncio.run(serve(path, seconds, notify=deliver, confirms_delivery=True, delivery_lease=1.0, outbox_every=0.2))


async def test_a_move_announced_by_nobody_is_sent_once_by_the_other_process_after_a_kill(database, clock):
    async with running_referee(database, clock) as referee:
        await started(referee, ALICE, BOB)
    moved, sent = SPAWN.Queue(), SPAWN.Queue()
    mover = SPAWN.Process(target=_mover_worker, args=(database, moved))
    mover.start()
    ply, announced = moved.get(timeout=60)
    mover.kill()  # SIGKILL before its transport could confirm the announcement
    mover.join(timeout=10)
    announcer = SPAWN.Process(target=_announcer_worker, args=(database, 4.0, sent))
    announcer.start()
    announcer.join(timeout=60)
    assert mover.exitcode == -9 and announcer.exitcode == 0
    delivered = []
    while not sent.empty():
        delivered.append(sent.get(timeout=5))
    assert [d for d in delivered if d[0] == ply] == [(ply, announced)]  # the other process sent it, once
    async with running_referee(database, clock) as referee:
        assert await referee.store.pending_notices(1) == []


RACED_TABLES = 8


async def _finish_games(referee: Referee, game: str = "tromino_go") -> list[str]:
    """RACED_TABLES finished games (bob resigned), at places test:race-0, test:race-1, …"""
    places = [f"test:race-{n}" for n in range(RACED_TABLES)]
    for place in places:
        assert (await referee.create(place, ALICE, game)).ok
        assert (await referee.join(place, BOB)).ok
        assert (await referee.start(place, ALICE)).ok
        assert (await referee.resign(place, BOB)).ok
    return places


async def _many_commands(path: str, command: str, places: list[str], tag: str) -> list[tuple[bool, str]]:
    store = store_for(path)
    await store.open()
    referee = Referee(store, render=False, confirms_delivery=False)
    try:
        if command == "rematch":
            work = [referee.rematch(place, f"{place}-again-{tag}", ALICE) for place in places]
        elif command == "create":
            work = [referee.create(place, CAROL, "tronimoes") for place in places]
        else:
            work = [referee.rollback(place, MOD, 0, reopen=True) for place in places]
        replies = await asyncio.gather(*work)
        return [(r.ok, (r.caller or r.public).text if (r.caller or r.public) else "") for r in replies]
    finally:
        await store.close()


def _many_worker(path: str, command: str, places: list[str], tag: str, barrier: Any, results: Any) -> None:
    barrier.wait()
    results.put((tag, asyncio.run(_many_commands(path, command, places, tag))))


def race_many(path: Path | str, places: list[str], *commands: str) -> dict[str, list[tuple[bool, str]]]:
    """Each command on every place, one process per command, all released at once."""
    barrier = SPAWN.Barrier(len(commands))
    results = SPAWN.Queue()
    processes = [SPAWN.Process(target=_many_worker, args=(str(path), c, places, str(n), barrier, results))
                 for n, c in enumerate(commands)]
    for process in processes:
        process.start()
    outcomes = dict(results.get(timeout=120) for _ in processes)
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    return outcomes


async def test_two_rematch_presses_at_once_open_one_rematch(database, clock):
    async with running_referee(database, clock) as referee:
        places = await _finish_games(referee)
    outcomes = race_many(database, places, "rematch", "rematch")
    async with running_referee(database, clock) as referee:
        for n, place in enumerate(places):
            results = [outcomes[tag][n] for tag in ("0", "1")]
            assert sorted(ok for ok, _ in results) == [False, True], results
            assert "a rematch is already open" in next(said for ok, said in results if not ok)
            rematches = [t for t in await referee.store.find_tables(place_prefix=f"{place}-again")]
            old = await referee.table_at(place)
            assert len(rematches) == 1 and old.meta["rematch"] == rematches[0].place


async def test_a_reopening_rollback_racing_a_new_table_at_its_place_is_refused_cleanly(database, clock):
    async with running_referee(database, clock) as referee:
        places = await _finish_games(referee)
    outcomes = race_many(database, places, "create", "rollback")
    async with running_referee(database, clock) as referee:
        for n, place in enumerate(places):
            (created, said_created), (rolled, said_rolled) = outcomes["0"][n], outcomes["1"][n]
            assert created != rolled, (said_created, said_rolled)  # one place, one open table
            refusal = said_rolled if created else said_created
            assert "went wrong" not in refusal, refusal
            assert ("cannot be reopened" in refusal or "only a started game" in refusal if created
                    else "there is already a Tromino Go table here" in refusal), refusal
            assert len(await referee.store.find_tables(place_prefix=place)) == 1


def _standin_worker(path: str, seconds: float, ready: Any, sent: Any, ai_seconds: float) -> None:
    """Run timers, AI turns and the outbox for `seconds` (AI turns planned for `ai_seconds`),
    reporting every announcement it sends (its move number and public text)."""
    async def deliver(reply: Any) -> None:
        sent.put((reply.ply, reply.public.text if reply.public else None))

    asyncio.run(serve(path, seconds, ready, notify=deliver, confirms_delivery=True, delivery_lease=1.0,
                       outbox_every=0.2, ai_seconds=ai_seconds))


def _deadline_worker(path: str, ready: Any, sent: Any) -> None:
    """Fire timers and run the outbox, but play no AI turn (a process that will die before its
    stand-in moves), until killed."""
    async def deliver(reply: Any) -> None:
        sent.put((reply.ply, reply.public.text if reply.public else None))

    async def serve() -> None:
        store = store_for(path)
        await store.open()
        referee = Referee(store, render=False, notify=deliver, confirms_delivery=True, delivery_lease=1.0,
                          outbox_every=0.2)
        referee.timers.start()
        referee.outbox.start()
        ready.set()
        await asyncio.sleep(60)

    asyncio.run(serve())


async def _until(check: Any, seconds: float) -> None:
    for _ in range(int(seconds * 20)):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("waited in vain")


async def test_a_stand_in_moves_once_when_the_process_that_brought_it_is_killed_before_its_first_move(database,
                                                                                                   clock):
    """Two processes race to fire the deadline (the player is marked away and the stand-in's
    turn recorded, in one commit) and are SIGKILLed before the stand-in moves; two more then
    play the stand-in's turn once and announce the timeout once, on both databases."""
    async with running_referee(database, clock) as referee:
        assert (await referee.create(PLACE, ALICE, "tronimoes", turn_time="1h")).ok
        for player in (BOB, CAROL):
            assert (await referee.join(PLACE, player)).ok
        assert (await referee.start(PLACE, ALICE)).ok
        _, game = await referee.view(PLACE)
        gone, fired_at = game.to_move()[0], len(game.log)
        due_now = [dataclasses.replace(t, due=0.0, id=None) for t in await referee.store.timers(1)
                   if t.kind == DEADLINE]
        await referee.store.commit(1, expected=fired_at, timers=due_now)
    readies, sent = [SPAWN.Event(), SPAWN.Event()], SPAWN.Queue()
    doomed = [SPAWN.Process(target=_deadline_worker, args=(database, ready, sent)) for ready in readies]
    for process in doomed:  # two processes race to fire the deadline
        process.start()
    assert all(ready.wait(30) for ready in readies)
    store = store_for(database)  # read only: no timers or AI turns of its own
    await store.open()
    try:
        async def fired() -> bool:
            table = await store.get_table(1)
            return table is not None and bool(absence.away(table))

        await _until(fired, 30)
        for process in doomed:  # SIGKILL between the deadline firing and the stand-in's first move
            process.kill()
            process.join(timeout=10)
            assert process.exitcode == -9
        assert not [a for a in await store.actions(1) if a.actor.startswith(absence.STANDIN_ACTOR)]
        table = await store.get_table(1)
        assert absence.away(table) == {gone: absence.STANDIN}  # what the deadline did is committed
        assert [t.seat for t in await store.timers(1) if t.kind == "ai"] == [gone]  # and the stand-in's turn
    finally:
        await store.close()
    survivors = [SPAWN.Process(target=_standin_worker, args=(database, 8.0, None, sent, 0.0)) for _ in range(2)]
    for survivor in survivors:
        survivor.start()
    for survivor in survivors:
        survivor.join(timeout=60)
        assert survivor.exitcode == 0
    delivered = []
    while not sent.empty():
        delivered.append(sent.get(timeout=5))
    store = store_for(database)
    await store.open()
    try:
        actions = await store.actions(1)
        assert [a.ply for a in actions] == list(range(1, len(actions) + 1))  # one entry per ply, no gap
        stood = [a for a in actions if a.actor.startswith(absence.STANDIN_ACTOR)]
        assert stood and stood[0].ply == fired_at + 1 and {a.seat for a in stood} == {gone}
        assert all(b.ply == a.ply + 1 for a, b in itertools.pairwise(stood))  # one turn, played once
        game = new_game(await store.get_table(1))
        replay(game, actions)
        assert gone not in game.to_move()  # the log replays, and the stand-in's turn is over
        assert await store.pending_notices(1) == []
    finally:
        await store.close()
    timeouts = [d for d in delivered if d[1] and "ran out of time" in d[1]]
    assert len(timeouts) == 1, delivered  # the deadline's announcement, once
    assert len([d for d in delivered if d[1] and "A stand-in plays for" in d[1]]) == 1, delivered
