"""`tileref health` checking the database itself (`--database-only`, or with TILEREF_WEB off):
exit 0 for a database that answers with nothing behind, 1 for one that is missing or refuses
connections; the gateway is said not to have been checked."""

from __future__ import annotations

import asyncio
import socket

import pytest

from bot.cli.main import main
from bot.core.clock import ManualClock
from tests.bot.referees import ALICE, BOB, running_referee, started


def health(capsys: pytest.CaptureFixture[str], database: str, *args: str) -> tuple[int, str]:
    """`tileref --db DATABASE health ARGS`: its exit status and what it printed (shown too)."""
    status = main(["--db", database, "health", *args])
    out = capsys.readouterr().out
    with capsys.disabled():
        print(f"\n$ tileref --db {database} health {' '.join(args)}  # exit {status}\n{out}", end="")
    return status, out


async def test_a_database_that_answers_is_healthy(database, monkeypatch, capsys):
    async with running_referee(database, ManualClock()) as referee:
        await started(referee, ALICE, BOB, turn_time="5m")
    monkeypatch.setenv("TILEREF_WEB", "off")
    status, out = await asyncio.to_thread(health, capsys, database)
    assert status == 0 and out.startswith("healthy\n") and "✓ database: answered in" in out
    assert "✓ gateway: not checked: the bot's web port (TILEREF_WEB) is off" in out


def test_a_missing_database_file_is_unhealthy(tmp_path, capsys):
    status, out = health(capsys, str(tmp_path / "nowhere.sqlite3"), "--database-only")
    assert status == 1 and out.startswith("unhealthy: database\n")
    assert f"✗ database: there is no database file at {tmp_path / 'nowhere.sqlite3'}" in out
    assert not (tmp_path / "nowhere.sqlite3").exists()  # the check made none


def test_a_postgresql_server_that_refuses_connections_is_unhealthy(capsys):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    status, out = health(capsys, f"postgresql://tileref@127.0.0.1:{port}/tileref", "--database-only")
    assert status == 1 and out.startswith("unhealthy: database\n")
    assert "✗ database: unreachable (ConnectionRefusedError" in out
    assert "✓ gateway: not checked: --database-only" in out


def test_limits_it_cannot_read_are_refused(monkeypatch, capsys):
    monkeypatch.setenv("TILEREF_HEALTH_OUTBOX_SECONDS", "-5")
    assert main(["health", "--database-only"]) == 2
    assert "TILEREF_HEALTH_OUTBOX_SECONDS must be a number of seconds above 0" in capsys.readouterr().err
