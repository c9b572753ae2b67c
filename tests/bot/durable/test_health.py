"""The health check can fail: on real databases (SQLite and PostgreSQL), an announcement held in
the outbox past its limit, a due clock timer nobody fired, and a database that does not answer
each make it unhealthy, saying which and why; with nothing behind, it is healthy."""

from __future__ import annotations

import socket

import pytest

from bot.core.clock import ManualClock
from bot.durable.health import Gateway, HealthCheck, HealthLimits, HealthReport
from tests.bot.referees import ALICE, BOB, PLACE, running_referee, started, waiting_user

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
        ok, reason = check(report, "outbox")
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
