"""`tileref copy-db FROM TO` and `tileref migrate`: every table, log, timer, setting and picture
moves to the other database (SQLite to PostgreSQL and back, or SQLite to SQLite), every game
replays the same in the copy, and a copy that differs is reported, never passed."""

from __future__ import annotations

import asyncio

import pytest

from bot.cli.copy_db import verify
from bot.cli.main import main
from bot.core.clock import ManualClock
from bot.storage.address import store_for
from tests.bot.referees import ALICE, BOB, PLACE, running_referee, started


async def a_played_database(path: str) -> None:
    async with running_referee(path, ManualClock()) as referee:
        await started(referee, ALICE, BOB)
        for _ in range(6):
            _, game = await referee.view(PLACE)
            user = (ALICE, BOB)[game.to_move()[0]]
            await referee.act(PLACE, user, (await referee.suggestions(PLACE, user, "", limit=1000))[0])
        await referee.store.save_picture(1, 0, "foot", b"\x89PNG", "offline:chicken", 1.0)
        await started(referee, ALICE, BOB, place="test:rated")
        await referee.resign("test:rated", BOB)  # a rated game: results and ratings to carry
        await referee.store.standings.set_notify("test:guild", ALICE.id, "long")


async def test_a_copy_and_its_copy_back_hold_every_game(tmp_path, database, capsys):
    source = str(tmp_path / "source.sqlite3")
    await a_played_database(source)
    assert await asyncio.to_thread(main, ["copy-db", source, database]) == 0
    assert "Copied 2 tables" in capsys.readouterr().out
    back = str(tmp_path / "back.sqlite3")
    assert await asyncio.to_thread(main, ["copy-db", database, back]) == 0
    original, returned = store_for(source), store_for(back)
    await original.open()
    await returned.open()
    try:
        dumped = await original.dump()
        assert await returned.dump() == dumped
        assert len(dumped["results"]) == 2 and len(dumped["ratings"]) == 2 and len(dumped["notify"]) == 1
        assert await verify(original, returned) == []
    finally:
        await original.close()
        await returned.close()


async def test_copying_into_a_database_that_holds_data_is_refused(tmp_path, capsys):
    source = str(tmp_path / "source.sqlite3")
    await a_played_database(source)
    assert await asyncio.to_thread(main, ["copy-db", source, source]) == 1
    assert "already holds data" in capsys.readouterr().err


async def test_a_copy_whose_log_differs_is_reported(tmp_path):
    source, target = str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")
    await a_played_database(source)
    original, copy = store_for(source), store_for(target)
    await original.open()
    await copy.open()
    try:
        rows = await original.dump()
        rows["actions"][2]["action"] = "pass"  # one move changed on the way
        await copy.load(rows)
        problems = await verify(original, copy)
    finally:
        await original.close()
        await copy.close()
    assert problems and "table 1" in problems[0]


def test_migrate_brings_a_new_database_up_to_date(database, capsys):
    assert main(["--db", database, "migrate"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_a_database_address_of_another_kind_is_refused_with_what_to_write(capsys):
    assert main(["--db", "mysql://root@localhost/tileref", "migrate"]) == 2
    assert "postgresql://user:password@host:5432/tileref" in capsys.readouterr().err


@pytest.fixture(autouse=True)
def no_dotenv(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env of the developer's is read by main()
    monkeypatch.delenv("TILEREF_DATABASE", raising=False)
