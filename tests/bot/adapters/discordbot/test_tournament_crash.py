"""A real bot process running a tournament, SIGKILLed while it opens a round's threads (a thread
being made when it dies): after a restart the round goes on with one game a board, each in a
thread that pings its players, the round's pairings posted once."""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

import pytest

from tests.bot.adapters.discordbot.bot_process import spawn, stop
from tests.standin import DiscordStandIn


@pytest.fixture
async def standin():
    async with DiscordStandIn(default_timeout=30) as s:
        yield s


def _boards(database: Path) -> list[tuple[int, str | None, int | None]]:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT board, place, table_id FROM boards ORDER BY board").fetchall()


def _tournament_tables(database: Path) -> list[tuple[int, str, str]]:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT id, place, status FROM tables WHERE meta LIKE '%\"tournament\"%'"
                          " ORDER BY id").fetchall()


async def test_a_bot_killed_while_opening_a_round_opens_each_game_once_after_the_restart(standin, tmp_path):
    s = standin
    database = tmp_path / "tileref.sqlite3"
    first = spawn(s.api_base, s.gateway_url, database, s.guild.id, s.token, log=tmp_path / "first.log")
    try:
        await s.wait_for_connection()
        made = await (await s.slash(s.mod, s.channel, "tournament new", game="tromino_go", format="round_robin",
                                    start="10s", name="Crash Cup")).reply()
        assert "created" in made.content
        announcement = await s.wait_for_message(s.channel, lambda m: "Crash Cup" in m.content and bool(m.buttons()))
        hold = s.hold("POST", r"/channels/\d+/threads", after=True)  # a board's thread: made, never answered
        for user in (s.alice, s.bob, s.carol, s.mod):
            assert "You are in" in (await (await s.click(user, announcement, label="Sign up")).reply()).content
        await s.wait_until(lambda: hold.reached.is_set() or None, timeout=40, what="a board's thread being made")
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        hold.release()
    finally:
        first.kill()
    assert any(place is None or table is None for _board, place, table in _boards(database))

    second = spawn(s.api_base, s.gateway_url, database, s.guild.id, s.token)
    try:
        await s.wait_until(lambda: all(table is not None for _b, _p, table in _boards(database)) or None,
                           timeout=60, what="every board's table after the restart")
        boards = _boards(database)
        tables = _tournament_tables(database)
        assert len(boards) == 2 and len(tables) == 2
        assert sorted(t[0] for t in tables) == sorted(b[2] for b in boards)
        assert all(status == "playing" for _id, _place, status in tables)
        for _board, place, _table in boards:
            thread_id = int(place.removeprefix("discord:"))
            await s.wait_for_message(thread_id, lambda m: "begins" in m.content, since=0)
            ping = await s.wait_for_message(thread_id, lambda m: "round 1, board" in m.content, since=0)
            assert ping.content.count("<@") == 2
        pairings = [m for m in s.messages if m.kind == "create" and "round 1:" in m.content]
        assert len({m.id for m in pairings}) == 1
    finally:
        stop(second)
