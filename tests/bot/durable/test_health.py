"""The health check can fail: on real databases (SQLite and PostgreSQL), an announcement held in
the outbox past its limit, a due clock timer nobody fired, and a database that does not answer
each make it unhealthy, saying which and why; with nothing behind, it is healthy."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import uuid
from urllib.parse import urlsplit

import pytest

from bot.core.clock import ManualClock
from bot.durable.health import Gateway, HealthCheck, HealthLimits, HealthReport
from bot.storage.address import store_for
from tests.bot.referees import ALICE, BOB, running_referee, started, waiting_user
from tests.conftest import POSTGRES, _drop_schema

LIMITS = HealthLimits(outbox_seconds=60, timer_lag_seconds=30, ai_seconds=120)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def check(report: HealthReport, name: str) -> tuple[bool, str]:
    found = next(c for c in report.checks if c.name == name)
    return found.ok, found.reason


def closed_port() -> int:
    """A port of 127.0.0.1 nothing listens on (just released by the operating system)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_healthy_with_a_game_under_way_and_nothing_behind(database, clock):
    async with running_referee(database, clock) as referee:
        await started(referee, ALICE, BOB, turn_time="5m")
        report = await HealthCheck(referee.store, LIMITS, clock=clock).report()
        print("\n".join(report.lines()))
        assert report.ok, report.lines()
        assert [c.name for c in report.checks] == ["database", "outbox", "timers", "ai_turns", "gateway"]
        database_check = report.checks[0]
        assert database_check.value is not None and database_check.value < 1.0
        assert report.as_json()["ok"] is True


async def test_an_announcement_held_past_its_limit_makes_it_unhealthy(database, clock):
    async with running_referee(database, clock, confirms_delivery=True) as referee:
        await referee.outbox.stop()  # nothing delivers: the transport is gone
        await started(referee, ALICE, BOB)
        health = HealthCheck(referee.store, LIMITS, clock=clock)
        assert (await health.report()).ok
        await clock.advance(LIMITS.outbox_seconds + 1)
        report = await health.report()
        print("\n".join(report.lines()))
        assert not report.ok and [c.name for c in report.problems] == ["outbox"]
        reason = check(report, "outbox")[1]
        assert reason == "the oldest undelivered announcement has waited 61 s, over the limit of 60 s"
        assert report.lines()[0] == "unhealthy: outbox"
        for notice in await referee.store.pending_notices(1):
            assert notice.id is not None
            await referee.store.notices_delivered([notice.id], clock.now())
        assert (await health.report()).ok  # delivered at last: healthy again


async def test_a_due_timer_nobody_fires_makes_it_unhealthy(database, clock):
    async with running_referee(database, clock) as referee:
        await started(referee, ALICE, BOB, turn_time="5m")
        await waiting_user(referee)
        first_due = min(timer.due for timer in await referee.store.timers(1))
        later = ManualClock(first_due)  # the health check's clock runs on; the dispatcher's stands still
        health = HealthCheck(referee.store, LIMITS, clock=later)
        await later.advance(LIMITS.timer_lag_seconds)
        assert (await health.report()).ok  # the reminder or deadline is due, but only just
        await later.advance(1)
        report = await health.report()
        print("\n".join(report.lines()))
        assert [c.name for c in report.problems] == ["timers"]
        assert "over the limit of 30 s" in check(report, "timers")[1]


async def test_an_unreachable_database_makes_it_unhealthy(database, clock):
    async with running_referee(database, clock) as referee:
        health = HealthCheck(referee.store, LIMITS, clock=clock)
        assert (await health.report()).ok
    report = await health.report()  # the store is closed: every read fails
    print("\n".join(report.lines()))
    assert not report.ok and [c.name for c in report.problems] == ["database"]
    assert check(report, "database")[1].startswith("unreachable (")


async def test_a_postgresql_server_that_refuses_connections_is_unreachable(clock):
    from bot.cli.health import check_database

    report = await check_database(f"postgresql://tileref@127.0.0.1:{closed_port()}/tileref", LIMITS, "testing")
    print("\n".join(report.lines()))
    assert not report.ok and [c.name for c in report.problems] == ["database"]
    assert "unreachable (" in check(report, "database")[1]


async def test_the_gateway_down_makes_it_unhealthy_and_its_latency_is_told(tmp_path, clock):
    gateway = Gateway(True, 0.042)
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        health = HealthCheck(referee.store, LIMITS, clock=clock, gateway=lambda: gateway)
        report = await health.report()
        assert report.ok and check(report, "gateway") == (True, "connected, latency 42 ms")
        gateway = Gateway(False, detail="disconnected, reconnecting")
        report = await health.report()
        assert [c.name for c in report.problems] == ["gateway"]
        assert check(report, "gateway")[1] == "not connected to Discord (disconnected, reconnecting)"


def test_the_limits_come_from_the_environment():
    assert HealthLimits.from_env({}) == HealthLimits()
    limits = HealthLimits.from_env({"TILEREF_HEALTH_OUTBOX_SECONDS": "90", "TILEREF_HEALTH_TIMER_LAG_SECONDS": "",
                                    "TILEREF_HEALTH_AI_SECONDS": "600.5"})
    assert limits == HealthLimits(outbox_seconds=90, timer_lag_seconds=HealthLimits().timer_lag_seconds,
                                  ai_seconds=600.5)
    with pytest.raises(ValueError, match="TILEREF_HEALTH_AI_SECONDS must be a number of seconds above 0"):
        HealthLimits.from_env({"TILEREF_HEALTH_AI_SECONDS": "soon"})


class Proxy:
    """A TCP relay on a free port of 127.0.0.1 to the PostgreSQL server: `pause` stops carrying
    bytes (a server that hangs), `cut` closes every connection and stops listening (a server gone)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.carrying = asyncio.Event()
        self.carrying.set()
        self.writers: list[asyncio.StreamWriter] = []
        self.server: asyncio.Server | None = None
        self.port = 0
        self.gone = False

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        self.writers += [writer, upstream_writer]
        if self.gone:  # accepted just before the cut
            for each in (writer, upstream_writer):
                each.close()
            return
        await asyncio.gather(self._pipe(reader, upstream_writer), self._pipe(upstream_reader, writer),
                             return_exceptions=True)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                await self.carrying.wait()
                writer.write(data)
                await writer.drain()
        finally:
            writer.close()

    def pause(self) -> None:
        self.carrying.clear()

    async def cut(self) -> None:
        assert self.server is not None
        self.gone = True
        self.server.close()
        for writer in self.writers:
            writer.close()
        self.carrying.set()
        await asyncio.sleep(0.1)


async def test_a_postgresql_server_that_hangs_or_goes_away_makes_it_unhealthy(clock):
    server = os.environ.get(POSTGRES)
    if not server:
        pytest.skip(f"set {POSTGRES} to run the PostgreSQL tests")
    address = urlsplit(server)
    proxy = Proxy(address.hostname or "127.0.0.1", address.port or 5432)
    await proxy.start()
    schema = f"test_{uuid.uuid4().hex[:12]}"
    through = address._replace(netloc=f"{address.username}@127.0.0.1:{proxy.port}",
                               query=f"search_path={schema}").geturl()
    store = store_for(through)
    await store.open()
    try:
        health = HealthCheck(store, LIMITS, clock=clock)
        assert (await health.report()).ok
        proxy.pause()
        report = await health.report()
        print("\n".join(report.lines()))
        assert [c.name for c in report.problems] == ["database"]
        assert check(report, "database")[1] == "did not answer within 1 s"
        await proxy.cut()
        report = await health.report()
        print("\n".join(report.lines()))
        assert [c.name for c in report.problems] == ["database"]
        assert check(report, "database")[1].startswith("unreachable (")
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(store.close(), 5)
        await _drop_schema(server, schema)
