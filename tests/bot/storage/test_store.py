"""The stores: schema migrations, atomic commits, the undo of a rollback, timers, settings,
snapshots and copies, on a real SQLite file in a temporary folder and on a real PostgreSQL (each
test runs on both; see the `database` fixture)."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.core.records import (
    AI_TURN,
    DEADLINE,
    LOBBY,
    PLAYING,
    ActionRecord,
    Notice,
    SeatRecord,
    Settings,
    TableRecord,
    Timer,
)
from bot.storage.address import store_for
from bot.storage.sqlite import MIGRATIONS, SQLiteStore
from bot.storage.store import StaleLog, served


@pytest.fixture
async def sqlite_store(tmp_path):
    store = SQLiteStore(tmp_path / "db" / "t.sqlite3")
    await store.open()
    yield store
    await store.close()


def a_table(place="test:1") -> TableRecord:
    return TableRecord(id=0, place=place, game="tronimoes", options={"ouroboros": "off"}, status=LOBBY,
                       created_by="test:alice", created_at=100.0, guild="g1", turn_seconds=3600,
                       seats=[SeatRecord(0, "alice", "test:alice"), SeatRecord(1, "Pip (bot)", None, "greedy")],
                       meta={"lobby_message": 42})


def actions(*names: str, start: int = 1) -> list[ActionRecord]:
    return [ActionRecord(start + i, i % 2, name, "test:alice", 200.0 + i) for i, name in enumerate(names)]


async def test_a_new_file_gets_every_migration_in_wal_mode(tmp_path, sqlite_store):
    connection = sqlite3.connect(sqlite_store.path)
    assert connection.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_opening_an_existing_database_migrates_nothing_again(database, store):
    table_id = await store.create_table(a_table())
    again = store_for(database)
    await again.open()
    assert (await again.get_table(table_id)).place == "test:1"
    await again.close()


async def test_processes_starting_at_once_on_a_new_database_all_start(database):
    stores = [store_for(database) for _ in range(4)]
    opened = await asyncio.gather(*(store.open() for store in stores), return_exceptions=True)
    try:
        assert [outcome for outcome in opened if outcome is not None] == []
        table_id = await stores[0].create_table(a_table())
        assert (await stores[3].get_table(table_id)).place == "test:1"
    finally:
        for store in stores:
            await store.close()


async def test_a_file_from_a_newer_tileref_is_refused(tmp_path):
    path = tmp_path / "new.sqlite3"
    sqlite3.connect(path).execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    with pytest.raises(RuntimeError, match="this tileref knows up to"):
        await SQLiteStore(path).open()


async def test_a_table_and_its_seats_round_trip(store):
    table = a_table()
    await store.create_table(table)
    loaded = await store.table_at("test:1")
    assert loaded == table
    table.status, table.seed = PLAYING, 99
    table.seats.append(SeatRecord(2, "bob", "test:bob"))
    await store.save_table(table)
    assert await store.get_table(table.id) == table
    assert [t.id for t in await store.find_tables(place_prefix="test:")] == [table.id]
    assert await store.find_tables(place_prefix="discord:") == []


async def test_commit_appends_saves_and_replaces_timers_together(store):
    table_id = await store.create_table(a_table())
    timer = Timer(table_id, 0, DEADLINE, 5000.0, 2)
    await store.commit(table_id, expected=0, actions=actions("draw", "pass"), timers=[timer])
    assert [a.action for a in await store.actions(table_id)] == ["draw", "pass"]
    assert [(t.seat, t.due) for t in await store.timers(table_id)] == [(0, 5000.0)]
    assert await store.next_due() == 5000.0
    assert [t.seat for t in await store.due_timers(5000.0)] == [0] and await store.due_timers(4999) == []


async def test_a_commit_on_a_stale_log_changes_nothing(store):
    table_id = await store.create_table(a_table())
    await store.commit(table_id, expected=0, actions=actions("draw"))
    table = await store.get_table(table_id)
    table.status = PLAYING
    with pytest.raises(StaleLog):
        await store.commit(table_id, expected=0, actions=actions("pass"), table=table, timers=[])
    assert [a.action for a in await store.actions(table_id)] == ["draw"]
    assert (await store.get_table(table_id)).status == LOBBY


async def test_undo_keeps_old_actions_out_of_the_live_log_and_frees_their_numbers(store):
    table_id = await store.create_table(a_table())
    await store.commit(table_id, expected=0, actions=actions("a", "b", "c"))
    await store.save_snapshot(table_id, 3, "v", b"data")
    await store.commit(table_id, expected=3, undo_after=1, actions=actions("x", start=2))
    assert [(a.ply, a.action) for a in await store.actions(table_id)] == [(1, "a"), (2, "x")]
    assert await store.log_length(table_id) == 2
    assert await store.snapshot(table_id) is None


async def test_settings_default_and_persist(store):
    assert await store.settings("g1") == Settings("g1")
    await store.save_settings(Settings("g1", turn_seconds=600, reminders=["1m"], moderator_role="7",
                                       allowed_games=["tronimoes"]))
    assert (await store.settings("g1")).moderator_role == "7"
    assert (await store.settings("g2")).turn_seconds == Settings("g2").turn_seconds


async def test_a_snapshot_is_replaced_by_a_newer_one(store):
    table_id = await store.create_table(a_table())
    await store.save_snapshot(table_id, 10, "v1", b"ten")
    await store.save_snapshot(table_id, 20, "v1", b"twenty")
    assert await store.snapshot(table_id) == (20, "v1", b"twenty")


async def test_a_chosen_picture_is_kept_with_its_table(store):
    table_id = await store.create_table(a_table())
    await store.save_picture(table_id, 1, "foot", b"\x89PNG one", "offline:chicken", 5.0)
    await store.save_picture(table_id, 1, "foot", b"\x89PNG two", "giphy:abc", 6.0)
    assert await store.pictures(table_id, "foot") == {1: (b"\x89PNG two", "giphy:abc")}
    assert await store.pictures(table_id, "reaction") == {}


async def test_two_commits_of_the_same_ply_from_two_connections_let_one_win(database, store):
    table_id = await store.create_table(a_table())
    other = store_for(database)  # a second process's store: its own connections
    await other.open()
    try:
        outcomes = await asyncio.gather(store.commit(table_id, expected=0, actions=actions("draw")),
                                        other.commit(table_id, expected=0, actions=actions("pass")),
                                        return_exceptions=True)
    finally:
        await other.close()
    assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StaleLog"]
    assert len(await store.actions(table_id)) == 1


async def test_a_due_timer_fires_in_one_commit_only(database, store):
    table_id = await store.create_table(a_table())
    await store.commit(table_id, expected=0, timers=[Timer(table_id, 0, DEADLINE, 10.0, 0)])
    (timer,) = await store.due_timers(10.0)
    other = store_for(database)
    await other.open()
    try:
        outcomes = await asyncio.gather(
            store.commit(table_id, expected=0, actions=actions("pass"), delete_timer=timer.id),
            other.commit(table_id, expected=0, actions=actions("pass"), delete_timer=timer.id),
            return_exceptions=True)
    finally:
        await other.close()
    assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StaleLog"]
    assert await store.timers(table_id) == [] and len(await store.actions(table_id)) == 1


async def test_an_ai_turn_is_claimed_by_one_process_until_its_lease_ends_and_the_clock_never_fires_it(database,
                                                                                                      store):
    table_id = await store.create_table(a_table())
    await store.commit(table_id, expected=0, timers=[Timer(table_id, 1, AI_TURN, 10.0, 0),
                                                     Timer(table_id, 0, DEADLINE, 50.0, 0)])
    assert [(t.kind, t.due) for t in await store.due_timers(100.0)] == [(DEADLINE, 50.0)]
    assert await store.next_due() == 50.0
    assert await store.claim_ai_turns(9.0, 30.0, 5) == []  # not due yet
    other = store_for(database)
    await other.open()
    try:
        first, second = await asyncio.gather(store.claim_ai_turns(10.0, 30.0, 5), other.claim_ai_turns(10.0, 30.0, 5))
        assert sorted([len(first), len(second)]) == [0, 1]
        assert await other.claim_ai_turns(39.0, 30.0, 5) == []  # still leased
        (again,) = await other.claim_ai_turns(40.0, 30.0, 5)  # the lease ran out: the process died
    finally:
        await other.close()
    assert (again.seat, again.kind, again.ply) == (1, AI_TURN, 0)


async def test_an_ai_turn_is_spent_by_one_commit_only(database, store):
    table_id = await store.create_table(a_table())
    await store.commit(table_id, expected=0, timers=[Timer(table_id, 1, AI_TURN, 10.0, 0)])
    (turn,) = await store.claim_ai_turns(10.0, 30.0, 5)
    following = [Timer(table_id, 0, DEADLINE, 99.0, 1)]
    other = store_for(database)
    await other.open()
    try:
        outcomes = await asyncio.gather(
            store.commit(table_id, expected=0, actions=actions("draw"), timers=following, delete_timer=turn.id),
            other.commit(table_id, expected=0, actions=actions("draw"), timers=following, delete_timer=turn.id),
            return_exceptions=True)
    finally:
        await other.close()
    assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StaleLog"]
    assert [t.kind for t in await store.timers(table_id)] == [DEADLINE] and len(await store.actions(table_id)) == 1
    with pytest.raises(StaleLog):  # spent: a late result for it changes nothing
        await store.commit(table_id, expected=1, actions=actions("pass", start=2), timers=[], delete_timer=turn.id)


async def test_an_announcement_is_claimed_by_one_process_at_a_time(database, store):
    table_id = await store.create_table(a_table())
    await store.commit(table_id, expected=0, notices=[Notice(table_id, "test:1", 0, "hello", created_at=1.0,
                                                             lease_until=1.0)])
    other = store_for(database)
    await other.open()
    try:
        first, second = await asyncio.gather(store.claim_notices(5.0, 30.0), other.claim_notices(5.0, 30.0))
    finally:
        await other.close()
    assert sorted([len(first), len(second)]) == [0, 1]


async def test_a_process_serving_some_places_claims_only_their_announcements_and_ai_turns(store):
    """A console session serves its own table's place: the announcements and AI turns of other
    places are left where they are (unclaimed, unleased) for the process that serves them."""
    mine = await store.create_table(a_table("console:mine"))
    theirs = await store.create_table(a_table("console:theirs"))
    for table_id, place in ((mine, "console:mine"), (theirs, "console:theirs")):
        await store.commit(table_id, expected=0, timers=[Timer(table_id, 1, AI_TURN, 10.0, 0)],
                           notices=[Notice(table_id, place, 0, f"hello {place}", created_at=1.0, lease_until=1.0)])
    assert await store.claim_notices(5.0, 30.0, places=set()) == []
    assert await store.claim_ai_turns(10.0, 30.0, 5, places=set()) == []
    assert [n.place for n in await store.claim_notices(5.0, 30.0, places={"console:mine"})] == ["console:mine"]
    assert [t.table_id for t in await store.claim_ai_turns(10.0, 30.0, 5, places={"console:mine"})] == [mine]
    (left,) = await store.claim_notices(5.0, 30.0)  # theirs was never leased: the next process takes it at once
    (turn,) = await store.claim_ai_turns(10.0, 30.0, 5)
    assert left.place == "console:theirs" and left.attempts == 0 and turn.table_id == theirs


async def test_the_discord_bot_serves_every_discord_place_and_no_terminal_one(store):
    """A transport serves its places by their prefix: the Discord bot, sharing a database file
    with a terminal game, neither sends that game's announcements nor plays its AI seats."""
    tables = {place: await store.create_table(a_table(place)) for place in ("discord:1", "discord:2", "console:1",
                                                                             "discord_x:3")}
    for place, table_id in tables.items():
        await store.commit(table_id, expected=0, timers=[Timer(table_id, 1, AI_TURN, 10.0, 0)],
                           notices=[Notice(table_id, place, 0, f"hello {place}", created_at=1.0, lease_until=1.0)])
    claimed = await store.claim_notices(5.0, 30.0, places={"discord:"})
    assert sorted(n.place for n in claimed) == ["discord:1", "discord:2"]
    turns = await store.claim_ai_turns(10.0, 30.0, 5, places={"discord:"})
    assert sorted(t.table_id for t in turns) == [tables["discord:1"], tables["discord:2"]]
    assert served({"discord:"}, "discord:7") and not served({"discord:"}, "console:1")
    assert not served({"discord:"}, "discord_x:3") and served(None, "anything")


async def test_commands_on_one_table_wait_for_each_other_across_stores(database, store):
    other = store_for(database)
    await other.open()
    order: list[str] = []

    async def command(which, name, pause):
        async with which.command_lock("test:1"):
            order.append(f"{name} in")
            await asyncio.sleep(pause)
            order.append(f"{name} out")

    try:
        await asyncio.gather(command(store, "first", 0.2), command(other, "second", 0.0))
    finally:
        await other.close()
    if isinstance(store, SQLiteStore):
        return  # SQLite's commands are serialised by its commits' checks, not by a lock
    assert order in (["first in", "first out", "second in", "second out"],
                     ["second in", "second out", "first in", "first out"])


async def test_the_lock_reads_the_table_as_the_command_before_it_left_it(database, store):
    """A command's first read comes with its lock (PostgreSQL: one round trip): it sees the
    move and the clocks the command that held the lock before committed while it waited."""
    table_id = await store.create_table(a_table())
    other = store_for(database)
    await other.open()
    seen = []

    async def first_command():
        async with store.command_lock("test:1"):
            await asyncio.sleep(0.2)
            table = await store.get_table(table_id)
            table.status = PLAYING
            await store.commit(table_id, expected=0, actions=actions("a"), table=table,
                               timers=[Timer(table_id, 1, DEADLINE, 9.0, 1)])

    async def second_command():
        await asyncio.sleep(0.05)
        async with other.command_lock("test:1") as first:
            seen.append(first)

    try:
        await asyncio.gather(first_command(), second_command())
        async with other.command_lock("test:nowhere") as nothing:
            pass
    finally:
        await other.close()
    if isinstance(store, SQLiteStore):
        assert seen == [None] and nothing is None  # SQLite reads nothing with its (absent) lock
        return
    assert seen[0].table.status == PLAYING and seen[0].table.version == 1
    assert [(t.table_id, t.seat, t.kind, t.due, t.ply) for t in seen[0].timers] == [(table_id, 1, DEADLINE, 9.0, 1)]
    assert nothing.table is None and nothing.timers == []


async def test_a_copy_holds_every_row_and_new_ids_follow_the_copied_ones(store, tmp_path):
    table_id = await store.create_table(a_table())
    await store.commit(table_id, expected=0, actions=actions("a", "b"), timers=[Timer(table_id, 1, DEADLINE, 9.0, 2)])
    await store.save_settings(Settings("g1", turn_seconds=600))
    await store.save_snapshot(table_id, 2, "v", b"\x00\x01")
    await store.save_picture(table_id, 0, "foot", b"\x89PNG", "offline:x", 1.0)
    copy = SQLiteStore(tmp_path / "copy.sqlite3")
    await copy.open()
    try:
        await copy.load(await store.dump())
        assert await copy.dump() == await store.dump()
        assert await copy.create_table(a_table("test:2")) == table_id + 1
    finally:
        await copy.close()
