"""AI seats' turns are due work played after the command that led to them: the command is
answered first; an AI turn is played once, one move per commit; a result planned on a position
that has changed since is dropped and the seat thinks again; moderators pause and force AI
seats like anyone. Real referees on real databases (SQLite and PostgreSQL), with the real
planning pool; `GatedPool` holds a plan in the middle until the test lets it finish."""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
from typing import Any

import pytest

from bot.adapters.console import ConsoleSession, local_user
from bot.core.clock import ManualClock
from bot.core.records import ABORTED, AI_TURN, FINISHED, PLAYING
from bot.media.replay_animation import REPLAY_KIND
from bot.service.referee import Referee
from bot.storage.address import store_for
from bot.storage.loader import new_game, replay
from bot.workers.planning import PlanningPool
from tests.bot.referees import ALICE, BOB, MOD, PLACE, Notices, running_referee, text


class GatedPool(PlanningPool):
    """The real pool, except that each plan waits, once started, until `gate` is open."""

    def __init__(self) -> None:
        super().__init__(1)
        self.gate = asyncio.Event()
        self.started = asyncio.Event()

    async def plan_view(self, view: bytes, seat: int, name: str, budget: float) -> str:
        self.started.set()
        await self.gate.wait()
        return await super().plan_view(view, seat, name, budget)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def ai_turns(referee: Referee) -> list:
    table = await referee.table_at(PLACE)
    return [t for t in await referee.store.timers(table.id) if t.kind == AI_TURN]


async def log_of(referee: Referee) -> list[tuple[int, str, str]]:
    table = await referee.table_at(PLACE)
    return [(a.seat, a.action, a.actor) for a in await referee.store.actions(table.id)]


async def table_with_ai_to_move(referee: Referee, pool: GatedPool, *people, game: str = "tronimoes") -> None:
    """`people` and a greedy AI seat (last) at a started table, played (the gate closed) until
    the game waits for the AI seat and its plan has started."""
    await referee.create(PLACE, people[0], game)
    for person in people[1:]:
        await referee.join(PLACE, person)
    await referee.add_ai(PLACE, people[0], "greedy")
    await referee.start(PLACE, people[0])
    users = {p.id: p for p in people}
    for _ in range(200):
        table, game_now = await referee.view(PLACE)
        waiting = game_now.to_move()
        if any(table.seats[s].is_ai for s in waiting):
            await asyncio.wait_for(pool.started.wait(), 30)
            return
        user = users[table.seats[waiting[0]].user_id]
        await referee.act(PLACE, user, (await referee.suggestions(PLACE, user, "", limit=1))[0])
    raise AssertionError("the AI seat never got a turn")


# ---- the command comes first -----------------------------------------------------------------


async def test_a_persons_move_is_answered_with_the_ai_turn_recorded_and_not_yet_played(database, clock):
    async with running_referee(database, clock) as referee:
        await referee.create(PLACE, ALICE, "tronimoes")
        await referee.add_ai(PLACE, ALICE, "greedy")
        await referee.start(PLACE, ALICE)
        await referee.ai.idle()
        await referee.ai.stop()  # nobody plays AI turns now: the command cannot have waited for one
        while True:
            move = (await referee.suggestions(PLACE, ALICE, "", limit=1))[0]
            reply = await referee.act(PLACE, ALICE, move)
            assert reply.ok, text(reply)
            if await ai_turns(referee):
                break
        assert (await log_of(referee))[-1][2] == ALICE.id and "It's Pip (bot)'s turn" in text(reply)
        [turn] = await ai_turns(referee)
        assert turn.seat == 1 and turn.ply == len(await log_of(referee))
        referee.ai.start()
        await referee.ai.idle()
        assert (await log_of(referee))[turn.ply] == (1, (await log_of(referee))[turn.ply][1], "ai:greedy")


async def test_ai_moves_up_to_the_next_persons_turn_are_announced_together(tmp_path, clock):
    notices = Notices()
    async with running_referee(tmp_path / "t.sqlite3", clock, notices=notices, render=True) as referee:
        await referee.create(PLACE, ALICE, "tronimoes")
        for _ in range(3):
            await referee.add_ai(PLACE, ALICE, "greedy")
        await referee.start(PLACE, ALICE)
        await referee.ai.idle()
        for _ in range(3):
            notices.clear()
            before = len(await log_of(referee))
            move = (await referee.suggestions(PLACE, ALICE, "", limit=1))[0]
            assert (await referee.act(PLACE, ALICE, move)).ok
            await referee.ai.idle()
            robots = [a for a in (await log_of(referee))[before:] if a[2].startswith("ai:")]
            if not robots:
                continue
            assert len(notices) == 1, notices.texts()
            [announcement] = notices
            assert len(announcement.public.attachments) == 1  # one picture, the board after the last
            lines = notices.texts()[0].split("\n")
            assert sum(" lays " in line or " draws " in line for line in lines) >= len(robots) - 1
            assert lines[-2].startswith("▶️ It's alice's turn") and lines[-1].startswith("✏️ Type a move like")
            assert announcement.mentions == [ALICE.id]
            pending = await referee.store.pending_notices(announcement.table_id)
            assert pending == []  # every AI move's own notice is confirmed by the one message


# ---- stale results -------------------------------------------------------------------------


@pytest.fixture
def stale_log(caplog):
    caplog.set_level(logging.INFO, logger="bot.durable.ai_turns")
    return lambda: [r for r in caplog.records if "went stale" in r.getMessage()]


async def gated_referee(database, clock, pool: GatedPool):
    store = store_for(database)
    await store.open()
    seeds = iter(range(7, 10_000))
    referee = Referee(store, clock=clock, render=False, seeds=lambda: next(seeds), confirms_delivery=False,
                      ai_seconds=0.0, planner=pool)
    await referee.open()
    return referee


async def closed(referee: Referee, pool: PlanningPool) -> None:
    await referee.close()
    await referee.store.close()
    pool.close()


async def thinking_when(database, clock, change, *people, game: str = "tronimoes"):
    """A table whose AI seat is thinking when `change(referee)` happens; the plan then finishes.
    Returns the referee (closed by the caller) and the log before the change."""
    pool = GatedPool()
    referee = await gated_referee(database, clock, pool)
    await table_with_ai_to_move(referee, pool, *people, game=game)
    before = await log_of(referee)
    await change(referee)
    pool.gate.set()
    await referee.ai.idle()
    return referee, pool, before


async def test_a_rollback_while_an_ai_thinks_drops_its_plan_and_it_thinks_again(database, clock, stale_log):
    async def roll_back_one_move(referee: Referee) -> None:
        assert (await referee.rollback(PLACE, MOD, len(await log_of(referee)) - 1)).ok

    referee, pool, before = await thinking_when(database, clock, roll_back_one_move, ALICE, BOB)
    try:
        after = await log_of(referee)
        assert stale_log()
        assert after[len(before) - 1][0] == -1  # the rollback's reshuffle sits where the last move was
        table, game = await referee.view(PLACE)
        replayed = new_game(table)
        replay(replayed, await referee.store.actions(table.id))
        assert replayed.to_position() == game.to_position()
        assert not any(table.seats[s].is_ai for s in game.to_move()) or game.outcome() is not None
    finally:
        await closed(referee, pool)


async def test_a_pause_while_an_ai_thinks_drops_its_plan_and_the_ai_waits_for_resume(database, clock, stale_log):
    referee, pool, before = await thinking_when(database, clock, lambda r: r.pause(PLACE, MOD), ALICE, BOB)
    try:
        assert stale_log() and await log_of(referee) == before and not await ai_turns(referee)
        assert (await referee.resume(PLACE, MOD)).ok
        await referee.ai.idle()
        after = await log_of(referee)
        assert len(after) > len(before) and after[len(before)][2] == "ai:greedy"
    finally:
        await closed(referee, pool)


async def test_an_abort_while_an_ai_thinks_drops_its_plan(database, clock, stale_log):
    referee, pool, before = await thinking_when(database, clock, lambda r: r.abort(PLACE, MOD), ALICE, BOB)
    try:
        table = await referee.table_at(PLACE)
        assert stale_log() and table.status == ABORTED and await log_of(referee) == before
    finally:
        await closed(referee, pool)


@pytest.mark.parametrize("how", ["kick", "resign"])
async def test_a_player_leaving_while_an_ai_thinks_makes_it_think_again(database, clock, stale_log, how):
    async def leave(referee: Referee) -> None:
        reply = await (referee.kick(PLACE, MOD, BOB.id) if how == "kick" else referee.resign(PLACE, BOB))
        assert reply.ok, text(reply)

    referee, pool, before = await thinking_when(database, clock, leave, ALICE, BOB)
    try:
        after = await log_of(referee)
        assert stale_log()
        assert after[len(before)][:2] == (1, "resign")
        assert after[len(before) + 1][2] == "ai:greedy"  # planned again on the game without bob
    finally:
        await closed(referee, pool)


async def test_a_persons_move_while_an_ai_thinks_makes_it_think_again(database, clock, stale_log):
    async def alice_moves(referee: Referee) -> None:
        assert (await referee.act(PLACE, ALICE, "draw")).ok  # Tetromic: both choose at once

    referee, pool, before = await thinking_when(database, clock, alice_moves, ALICE, game="tetromic")
    try:
        after = await log_of(referee)
        assert stale_log() and after[len(before)] == (0, "draw", ALICE.id)
        assert after[len(before) + 1][2] == "ai:greedy"
    finally:
        await closed(referee, pool)


async def test_forcepass_on_a_thinking_ai_seat_plays_its_timeout_action(database, clock, stale_log):
    referee, pool, before = await thinking_when(
        database, clock, lambda r: r.force_pass(PLACE, MOD), ALICE, BOB)
    try:
        after = await log_of(referee)
        assert stale_log() and after[len(before)][0] == 2 and after[len(before)][2] == f"mod:{MOD.id}"
        table, game = await referee.view(PLACE)
        assert table.status == PLAYING and not await ai_turns(referee)  # the seat thought again and moved
        assert all(not table.seats[s].is_ai for s in game.to_move())
    finally:
        await closed(referee, pool)


# ---- two processes ---------------------------------------------------------------------------

SPAWN = multiprocessing.get_context("spawn")


async def _play_ai_turns(address: str) -> None:
    """A process that plays AI turns (no transport) until no AI table is left playing."""
    store = store_for(address)
    await store.open()
    referee = Referee(store, render=False, confirms_delivery=False, ai_seconds=0.0, ai_processes=1)
    await referee.open(outbox=False)
    try:
        for _ in range(12_000):
            if not await store.find_tables(place_prefix="test:ai-", statuses=(PLAYING,)):
                break
            await asyncio.sleep(0.01)
        await referee.ai.idle()  # the last run announced
    finally:
        await referee.close()
        await store.close()


def _ai_process(address: str, barrier: Any) -> None:
    barrier.wait()
    asyncio.run(_play_ai_turns(address))


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_two_processes_sharing_postgresql_play_every_ai_move_once(database):
    store = store_for(database)
    await store.open()
    referee = Referee(store, render=False, confirms_delivery=False, ai_seconds=0.0)  # never opened: plays nothing
    for number in range(1):
        place = f"test:ai-{number}"
        await referee.create(place, MOD, "tronimoes", seat_creator=False)
        for kind in ("random", "random", "greedy"):
            await referee.add_ai(place, MOD, kind)
        assert (await referee.start(place, MOD)).ok
    barrier = SPAWN.Barrier(2)
    processes = [SPAWN.Process(target=_ai_process, args=(database, barrier)) for _ in range(2)]
    for process in processes:
        process.start()
    for process in processes:
        await asyncio.to_thread(process.join, 180)
        assert process.exitcode == 0
    rows = await store.dump()
    try:
        for table in await store.find_tables(place_prefix="test:ai-", statuses=(FINISHED,)):
            actions = await store.actions(table.id)
            assert [a.ply for a in actions] == list(range(1, len(actions) + 1))
            replayed = new_game(table)
            replay(replayed, actions)
            assert replayed.outcome() is not None
            announcements = [r for r in rows["outbox"] if r["table_id"] == table.id and r["seat"] is None
                             and json.loads(r["data"])["kind"] != REPLAY_KIND]
            runs = {r["merged_into"] for r in announcements if r["merged_into"] is not None}
            # one per commit, and one for each run of AI moves told together in place of theirs
            assert len(announcements) - len(runs) == 1 + sum(a.actor.startswith("ai:") for a in actions)
            pending = await store.pending_notices(table.id)
            assert [n.kind for n in pending] == [REPLAY_KIND]  # the game's animated replay, for the outbox
        assert len(await store.find_tables(place_prefix="test:ai-", statuses=(FINISHED,))) == 1
    finally:
        await store.close()


# ---- replays ---------------------------------------------------------------------------------


async def test_a_game_with_ai_moves_replays_exactly_and_rolls_back_to_before_an_ai_move(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await referee.create(PLACE, ALICE, "tronimoes")
        await referee.add_ai(PLACE, ALICE)
        await referee.add_ai(PLACE, ALICE, "random")
        await referee.start(PLACE, ALICE)
        for _ in range(6):
            await referee.ai.idle()
            await referee.act(PLACE, ALICE, (await referee.suggestions(PLACE, ALICE, "", limit=1))[0])
        await referee.ai.idle()
        table, game = await referee.view(PLACE)
        actions = await referee.store.actions(table.id)
        replayed = new_game(table)
        replay(replayed, actions)
        assert replayed.to_json() == game.to_json()
        ai_ply = next(a.ply for a in reversed(actions) if a.actor.startswith("ai:"))
        assert (await referee.rollback(PLACE, MOD, ai_ply - 1)).ok
        await referee.ai.idle()
        table, game = await referee.view(PLACE)
        replayed = new_game(table)
        replay(replayed, await referee.store.actions(table.id))
        assert replayed.to_position() == game.to_position() and table.status in (PLAYING, FINISHED)


# ---- the terminal ----------------------------------------------------------------------------


async def test_the_terminal_prints_the_move_then_who_thinks_then_the_ai_moves_then_asks(tmp_path, clock):
    out: list[str] = []
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        user = local_user("ada")
        answers = iter(["FIRST", "quit"])

        async def ask(prompt: str) -> str | None:
            out.append(f"PROMPT {prompt}")
            answer = next(answers)
            if answer == "FIRST":
                return (await referee.suggestions(place, user, "lay", limit=1) or
                        await referee.suggestions(place, user, "", limit=1))[0]
            return answer

        session = ConsoleSession(referee, user, ask=ask, say=out.append, boards=tmp_path / "boards")
        place = await session.new_game("tronimoes", ["me", "bot"], "ai_seconds=0.1")
        assert place is not None
        await session.play(place)
    prompts = [i for i, line in enumerate(out) if line.startswith("PROMPT")]
    assert len(prompts) == 2
    mine = next(i for i in range(prompts[0], prompts[1]) if out[i].startswith("ada "))
    thinking = [i for i in range(prompts[0], prompts[1]) if out[i] == "Pip (bot) is thinking…"]
    theirs = [i for i in range(prompts[0], prompts[1]) if out[i].startswith("Pip (bot) ")
              and "thinking" not in out[i]]
    assert thinking and theirs, out  # ada's first move (seed 7: a lay) ends her turn
    assert mine < thinking[0] < theirs[0] < prompts[1], out
    assert any(line.startswith("Your hand") for line in out[theirs[0]:prompts[1]])


@pytest.mark.parametrize(("game", "language", "ratings"), [("tronimoes", "en", "📈 Ratings:"),
                                                            ("tronix", "es", "📈 Puntuaciones:"),
                                                            ("tetromic", "en", "📈 Ratings:")])
async def test_a_game_an_ai_move_ends_says_what_it_did_to_ratings(tmp_path, clock, game, language, ratings):
    """alice resigns and the AI seats play on to the end: the message of their last run of
    moves carries the result and the ratings line, as a person's last move would."""
    notices = Notices()
    async with running_referee(tmp_path / "t.sqlite3", clock, notices=notices) as referee:
        assert (await referee.create(PLACE, ALICE, game, options=f"lang={language}")).ok
        for _ in range(3):
            assert (await referee.add_ai(PLACE, ALICE, "greedy")).ok
        assert (await referee.start(PLACE, ALICE)).ok
        await referee.ai.idle()
        assert (await referee.resign(PLACE, ALICE)).ok
        await referee.ai.idle(timeout=120)
        table = await referee.table_at(PLACE)
        assert table.status == "finished"
        told = notices.texts()
        assert [ratings in t for t in told].count(True) == 1 and ratings in told[-1], told[-1:]
