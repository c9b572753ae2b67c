"""Tournaments in the store, on a real SQLite file and a real PostgreSQL (`database` runs each test
on both): every durable step is written once, whoever races to write it."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage.tournaments import (
    RUNNING,
    SIGNUP,
    SWISS,
    AlreadyEntered,
    BoardRecord,
    RoundRecord,
    StaleTournament,
    TournamentRecord,
    board_place,
    board_result,
    board_table,
    close_round,
    insert_round,
    renumber,
)


def a_tournament(**changes) -> TournamentRecord:
    fields = dict(id=0, guild="g1", channel="test:lobby", name="Friday Swiss", game="tromino_go", format=SWISS,
                  rounds=3, seats=2, options={"clock": "3d+1d", "vacation": "on"}, starts_at=1000.0,
                  signup_closes=1000.0, round_seconds=86400.0, status=SIGNUP, created_by="test:mod",
                  created_at=10.0, due=1000.0)
    fields.update(changes)
    return TournamentRecord(**fields)


async def test_a_tournament_reads_back_as_written(store):
    tid = await store.tournaments.create(a_tournament(), [("announce", "test:lobby", {"text": "hello"})], now=10.0)
    read = await store.tournaments.get(tid)
    assert read == a_tournament(id=tid)
    assert [t.id for t in await store.tournaments.listed("g1")] == [tid]
    assert await store.tournaments.listed("g2") == []
    assert await store.tournaments.due(999.0) == [] and await store.tournaments.due(1000.0) == [tid]
    assert await store.tournaments.next_due() == 1000.0


async def test_a_player_is_on_the_list_once(store):
    tid = await store.tournaments.create(a_tournament())
    first = await store.tournaments.enter(tid, "test:ann", "Ann", 1040.0, 20.0)
    with pytest.raises(AlreadyEntered):
        await store.tournaments.enter(tid, "test:ann", "Ann", 1040.0, 21.0)
    second = await store.tournaments.enter(tid, "test:bo", "Bo", 1100.0, 22.0)
    assert (first.number, second.number) == (1, 2)
    await renumber_by_rating(store, tid)
    view = await store.tournaments.view(tid)
    assert [(e.number, e.user_id) for e in view.entrants] == [(1, "test:bo"), (2, "test:ann")]


async def renumber_by_rating(store, tid):
    view = await store.tournaments.view(tid)
    async with store.tournaments.steps(tid) as db:
        await renumber(db, tid, [e.user_id for e in sorted(view.entrants, key=lambda e: -e.rating)])


async def test_two_sign_ups_at_once_give_two_numbers(store):
    tid = await store.tournaments.create(a_tournament())
    entered = await asyncio.gather(*(store.tournaments.enter(tid, f"test:p{i}", f"P{i}", 1000.0, 20.0)
                                     for i in range(6)))
    assert sorted(e.number for e in entered) == [1, 2, 3, 4, 5, 6]


async def test_a_round_is_paired_once(store):
    tid = await store.tournaments.create(a_tournament())
    round_ = RoundRecord(1, 1000.0, 2000.0, None, ((5, "U"),), (BoardRecord(1, 1, (1, 4)), BoardRecord(1, 2, (3, 2))))
    async with store.tournaments.steps(tid) as db:
        assert await insert_round(db, tid, round_)
    other = RoundRecord(1, 1001.0, 2001.0, None, (), (BoardRecord(1, 1, (1, 2)),))
    async with store.tournaments.steps(tid) as db:
        assert not await insert_round(db, tid, other)
    view = await store.tournaments.view(tid)
    assert view.rounds == [round_]


async def test_a_board_keeps_its_first_place_table_and_result(store):
    tid = await store.tournaments.create(a_tournament())
    async with store.tournaments.steps(tid) as db:
        await insert_round(db, tid, RoundRecord(1, 1000.0, 2000.0, None, (), (BoardRecord(1, 1, (1, 2)),)))
        assert await board_place(db, tid, 1, 1, "test:t1") == "test:t1"
        assert await board_place(db, tid, 1, 1, "test:t2") == "test:t1"
        await board_table(db, tid, 1, 1, 77)
        await board_table(db, tid, 1, 1, 78)
        assert await board_result(db, tid, 1, 1, "1-0", 1500.0)
        assert not await board_result(db, tid, 1, 1, "0-1", 1600.0)
        assert await close_round(db, tid, 1, 1700.0)
        assert not await close_round(db, tid, 1, 1800.0)
    view = await store.tournaments.view(tid)
    assert view.rounds[0].boards == (BoardRecord(1, 1, (1, 2), 1, "test:t1", 77, "1-0", False, 1500.0),)
    assert view.rounds[0].closed_at == 1700.0
    assert await store.tournaments.board_of_table(77) == (tid, 1, 1)


async def test_a_save_based_on_an_old_read_is_refused(store):
    tid = await store.tournaments.create(a_tournament())
    one, two = await store.tournaments.get(tid), await store.tournaments.get(tid)
    one.status = RUNNING
    await store.tournaments.save(one)
    two.status = "cancelled"
    with pytest.raises(StaleTournament):
        await store.tournaments.save(two)
    assert (await store.tournaments.get(tid)).status == RUNNING


async def test_a_message_is_added_once_and_sent_once(store):
    tid = await store.tournaments.create(a_tournament(), [("announce", "test:lobby", {"text": "hello"})], now=10.0)
    tournament = await store.tournaments.get(tid)
    await store.tournaments.save(tournament, [("announce", "test:lobby", {"text": "again"})], now=11.0)
    claimed = await store.tournaments.messages_pending(20.0, 30.0)
    assert [(m.key, m.data["text"]) for m in claimed] == [("announce", "hello")]
    assert await store.tournaments.messages_pending(21.0, 30.0) == []  # leased to the first
    await store.tournaments.delivered(claimed[0].id, 22.0)
    assert await store.tournaments.messages_pending(100.0, 30.0) == []


async def test_a_withdrawal_before_the_start_takes_the_player_off_the_list(store):
    tid = await store.tournaments.create(a_tournament())
    await store.tournaments.enter(tid, "test:ann", "Ann", 1000.0, 20.0)
    assert await store.tournaments.withdraw(tid, "test:ann", 0)
    assert (await store.tournaments.view(tid)).entrants == []
    assert not await store.tournaments.withdraw(tid, "test:ann", 0)


async def test_a_withdrawal_once_started_is_kept_with_the_last_round_played(store):
    tid = await store.tournaments.create(a_tournament(current_round=2))
    await store.tournaments.enter(tid, "test:ann", "Ann", 1000.0, 20.0)
    assert await store.tournaments.withdraw(tid, "test:ann", 2)
    assert not await store.tournaments.withdraw(tid, "test:ann", 3)
    ann = (await store.tournaments.view(tid)).entrants[0]
    assert ann.withdrawn_after == 2 and ann.plays_in(2) and not ann.plays_in(3)


async def test_a_forgotten_player_is_anonymous_in_tournaments_and_their_messages(store):
    tid = await store.tournaments.create(a_tournament())
    await store.tournaments.enter(tid, "test:ann", "Ann", 1040.0, 20.0)
    await store.tournaments.enter(tid, "test:bo", "Bo", 1000.0, 21.0)
    tournament = await store.tournaments.get(tid)
    await store.tournaments.save(tournament, [("round:1:0", "test:lobby", {"text": "Board 1: <n:Ann> – <n:Bo>"}),
                                              ("open:x", "test:x", {"text": "<@test:ann|Ann>, <@test:bo|Bo>",
                                                                    "mentions": ["test:ann", "test:bo"]})], 30.0)
    assert [t["tournament_id"] for t in (await store.player_data("test:ann"))["tournaments"]] == [tid]
    done = await store.forget_player("test:ann", "former:x1", lambda language: "a former player")
    assert done.tournaments == 1 and done.announcements == 2
    view = await store.tournaments.view(tid)
    assert [(e.user_id, e.name) for e in view.entrants] == [("former:x1", "a former player"), ("test:bo", "Bo")]
    texts = {m.key: m.data for m in await store.tournaments.messages(tid)}
    assert "Ann" not in texts["round:1:0"]["text"] and texts["open:x"]["mentions"] == ["test:bo"]
    assert (await store.player_data("test:ann"))["tournaments"] == []
