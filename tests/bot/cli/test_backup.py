"""`tileref backup` and `tileref restore`, on both databases: a backup taken while people play holds
the database as of one moment and every game in it replays; a restore brings it back into an empty
database, game for game; a backup or restore that cannot be done is refused, changing nothing."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.cli.backup import backup, restore
from bot.cli.copy_db import copy_database
from bot.cli.main import main
from bot.core.clock import ManualClock
from bot.core.records import PLAYING, User
from bot.storage.address import store_for
from bot.storage.loader import new_game, replay
from tests.bot.referees import running_referee

PLAYERS = [User(f"p{n}", f"Player {n}") for n in range(4)]
TABLES = 6


async def open_tables(referee) -> list[str]:
    places = []
    for number in range(TABLES):
        place = f"backup:{number}"
        game = ("tronimoes", "triominoes", "tromino_go")[number % 3]
        seated = PLAYERS[:2] if game == "tromino_go" else PLAYERS[:3]
        await referee.create(place, seated[0], game, turn_time="1d")
        for user in seated[1:]:
            await referee.join(place, user)
        assert (await referee.start(place, seated[0])).ok
        places.append(place)
    return places


async def keep_playing(referee, places: list[str], stop: asyncio.Event) -> int:
    """Random legal moves on the tables until `stop`; how many were made."""
    rng, made = random.Random(5), 0
    while not stop.is_set():
        place = rng.choice(places)
        shown = await referee.view(place)
        if shown is None or shown[0].status != PLAYING or not shown[1].to_move():
            await asyncio.sleep(0)
            continue
        table, game = shown
        seat = game.to_move()[0]
        user = next(u for u in PLAYERS if u.id == table.seats[seat].user_id)
        if (await referee.act(place, user, rng.choice(game.legal_actions(seat)), seen=len(game.log))).ok:
            made += 1
        await asyncio.sleep(0)
    return made


async def games_in(address: str) -> dict[int, str]:
    """Every started game at `address`, replayed from its log."""
    store = store_for(address)
    await store.open()
    try:
        games = {}
        for row in (await store.dump())["tables"]:
            table = await store.get_table(row["id"])
            if table is not None and table.seed is not None:
                game = new_game(table)
                replay(game, await store.actions(table.id))
                games[table.id] = game.to_json()
        return games
    finally:
        await store.close()


async def test_a_backup_taken_while_people_play_holds_one_moment_and_restores_game_for_game(database, tmp_path):
    copy = tmp_path / "backup.sqlite3"
    async with running_referee(database, ManualClock()) as referee:
        places = await open_tables(referee)
        ids = {p: (await referee.table_at(p)).id for p in places}
        before = {p: await referee.store.log_length(ids[p]) for p in places}
        stop = asyncio.Event()
        playing = asyncio.create_task(keep_playing(referee, places, stop))
        await asyncio.sleep(0.2)
        copied, problems = await backup(database, copy)
        await asyncio.sleep(0.2)
        stop.set()
        made = await playing
        after = {p: await referee.store.log_length(ids[p]) for p in places}
    assert problems == [] and copied == TABLES and made > 0
    backed_up = await games_in(str(copy))
    assert len(backed_up) == TABLES
    store = store_for(str(copy))
    await store.open()
    try:  # one moment: each table's log in the backup lies between what it was before and after
        for place in places:
            table = await store.table_at(place)
            assert before[place] <= await store.log_length(table.id) <= after[place]
    finally:
        await store.close()
    restored_at = str(tmp_path / "restored.sqlite3")
    restored, problems = await restore(copy, restored_at)
    assert problems == [] and restored == TABLES
    assert await games_in(restored_at) == backed_up


async def test_a_backup_is_restored_into_either_database(database, tmp_path):
    source = str(tmp_path / "live.sqlite3")
    async with running_referee(source, ManualClock()) as referee:
        await open_tables(referee)
    copy = tmp_path / "backup.sqlite3"
    assert (await backup(source, copy))[1] == []
    restored, problems = await restore(copy, database)
    assert problems == [] and restored == TABLES
    assert await games_in(database) == await games_in(source)


async def test_a_restore_into_a_database_that_holds_tables_is_refused(tmp_path):
    source, copy = str(tmp_path / "live.sqlite3"), tmp_path / "backup.sqlite3"
    async with running_referee(source, ManualClock()) as referee:
        await open_tables(referee)
    assert (await backup(source, copy))[1] == []
    restored, problems = await restore(copy, source)
    assert restored == 0 and problems == [f"{source} already holds data: copy into an empty database"]


async def test_a_backup_into_an_existing_file_or_of_a_missing_database_is_refused(tmp_path):
    existing = tmp_path / "taken.sqlite3"
    existing.write_bytes(b"mine")
    source = str(tmp_path / "live.sqlite3")
    async with running_referee(source, ManualClock()) as referee:
        await open_tables(referee)
    assert await backup(source, existing) == (0, [f"{existing} exists already: back up into a new file"])
    assert existing.read_bytes() == b"mine"
    nowhere = tmp_path / "nowhere.sqlite3"
    assert await backup(str(nowhere), tmp_path / "b.sqlite3") == (0, [f"there is no database at {nowhere}"])
    assert not nowhere.exists() and not (tmp_path / "b.sqlite3").exists()
    absent = tmp_path / "none.sqlite3"
    assert await restore(absent, source) == (0, [f"there is no backup at {absent}"])


async def test_copying_a_database_that_does_not_exist_is_refused_and_creates_nothing(tmp_path):
    nowhere, target = tmp_path / "missing.sqlite3", tmp_path / "copy" / "x.sqlite3"
    assert await copy_database(str(nowhere), str(target)) == (0, [f"there is no database at {nowhere}"])
    assert not nowhere.exists() and not target.exists()


@pytest.mark.parametrize("command", ["backup", "restore"])
def test_the_commands_say_what_they_did(tmp_path, capsys, command):
    live = tmp_path / "live.sqlite3"

    async def fill() -> None:
        async with running_referee(str(live), ManualClock()) as referee:
            await open_tables(referee)

    asyncio.run(fill())
    copy = tmp_path / "backup.sqlite3"
    assert main(["--db", str(live), "backup", str(copy)]) == 0
    said = capsys.readouterr().out
    if command == "backup":
        assert f"Backed up {TABLES} tables into {copy}" in said and "tileref restore" in said
        assert main(["--db", str(live), "backup", str(copy)]) == 1
        assert "exists already" in capsys.readouterr().err
    else:
        assert main(["--db", str(tmp_path / "new.sqlite3"), "restore", str(copy)]) == 0
        assert f"Restored {TABLES} tables from {copy}" in capsys.readouterr().out
        assert main(["--db", str(live), "restore", str(copy)]) == 1
        assert "already holds data" in capsys.readouterr().err
