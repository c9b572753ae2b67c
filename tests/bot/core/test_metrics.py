"""The metrics: their exposition parses as Prometheus' text format, and the counters move as
real commands do (a referee game): commands by kind and outcome, moves by game, announcements."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.core import metrics
from bot.core.clock import ManualClock
from bot.storage.address import store_for
from tests.bot.referees import ALICE, BOB, CAROL, PLACE, Notices, running_referee, started, waiting_user

FAMILIES = {"tileref_commands", "tileref_command_seconds", "tileref_moves", "tileref_outbox_pending",
            "tileref_delivery_seconds", "tileref_discord_requests", "tileref_discord_rate_limited",
            "tileref_gateway_latency_seconds", "tileref_timer_lag_seconds", "tileref_ai_planning_seconds",
            "tileref_ai_queue", "tileref_web_watchers", "tileref_db_pool_in_use", "tileref_db_pool_size"}


def value(name: str, **labels: str) -> float:
    """A sample's value now (0 when it has not been counted yet)."""
    return metrics.REGISTRY.get_sample_value(name, labels) or 0.0


def test_the_exposition_parses_and_has_every_family():
    families = {f.name: f for f in text_string_to_metric_families(metrics.exposition().decode())}
    assert families.keys() >= FAMILIES
    assert families["tileref_command_seconds"].type == "histogram"
    assert families["tileref_commands"].type == "counter"


def test_the_address_is_host_and_port_and_unset_is_off():
    assert metrics.parse_address(None) is None and metrics.parse_address("  ") is None
    assert metrics.parse_address("127.0.0.1:9108") == ("127.0.0.1", 9108)
    assert metrics.parse_address(":9108") == ("0.0.0.0", 9108)
    assert metrics.parse_address("[::1]:9108") == ("::1", 9108)
    for wrong in ("9108x", "host", "host:x", "host:70000", "host:²", "host:９１０８"):
        with pytest.raises(ValueError, match="TILEREF_METRICS"):
            metrics.parse_address(wrong)


async def test_commands_moves_and_announcements_are_counted_as_a_game_is_played(tmp_path, monkeypatch):
    clock = ManualClock(1_000_000.0)
    monkeypatch.setattr(metrics, "_pending", {})  # other tests' databases number their notices alike
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB)
        acts, refused = value("tileref_commands_total", kind="act", outcome="ok"), \
            value("tileref_commands_total", kind="act", outcome="refused")
        timed = value("tileref_command_seconds_count", kind="act")
        moves = value("tileref_moves_total", game="tronimoes")
        delivered = value("tileref_delivery_seconds_count")
        played = 0
        for _ in range(10):
            user = await waiting_user(referee)
            move = (await referee.suggestions(PLACE, user, "", limit=1))[0]
            assert (await referee.act(PLACE, user, move)).ok
            played += 1
        assert not (await referee.act(PLACE, CAROL, "pass")).ok  # not seated: refused
        assert value("tileref_commands_total", kind="act", outcome="ok") - acts == played
        assert value("tileref_commands_total", kind="act", outcome="refused") - refused == 1
        assert value("tileref_command_seconds_count", kind="act") - timed == played + 1
        assert value("tileref_moves_total", game="tronimoes") - moves >= played  # forced moves count too
        assert value("tileref_delivery_seconds_count") - delivered >= played  # each move's announcement
        metrics.exposition()
        assert value("tileref_outbox_pending") == 0  # every reply counted as delivered when returned


def test_the_dashboard_has_a_panel_for_every_metric_and_its_datasource_is_a_variable():
    dashboard = json.loads((Path(__file__).parents[3] / "deploy" / "grafana-dashboard.json").read_text())
    exprs = " ".join(t["expr"] for p in dashboard["panels"] for t in p["targets"])
    assert all(name in exprs for name in FAMILIES)
    assert [v["name"] for v in dashboard["templating"]["list"]] == ["datasource"]
    assert {p["datasource"]["uid"] for p in dashboard["panels"]} == {"${datasource}"}


async def test_a_timer_firing_late_is_timed_and_its_duty_counted(tmp_path):
    clock = ManualClock(1_000_000.0)
    async with running_referee(tmp_path / "t.sqlite3", clock, notices=Notices()) as referee:
        await started(referee, ALICE, BOB, turn_time="1h")
        fired = value("tileref_timer_lag_seconds_count")
        duties = sum(value("tileref_commands_total", kind=f"clock {kind}", outcome="ok")
                     for kind in ("deadline", "reminder"))
        await clock.advance(2 * 3600)
        await referee.timers.idle()
        assert value("tileref_timer_lag_seconds_count") > fired
        assert sum(value("tileref_commands_total", kind=f"clock {kind}", outcome="ok")
                   for kind in ("deadline", "reminder")) > duties


async def test_the_database_pool_is_read_at_scrape_time(database):
    store = store_for(database)
    await store.open()
    try:
        metrics.exposition()
        size = value("tileref_db_pool_size")
        if "postgresql" in database:
            assert size >= 2 and 0 <= value("tileref_db_pool_in_use") <= size
    finally:
        await store.close()
    metrics.exposition()
    assert value("tileref_db_pool_size") == 0  # a closed store is no longer read


async def test_ai_turns_are_counted_and_leave_the_queue_when_played(tmp_path):
    clock = ManualClock(1_000_000.0)
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        turns = value("tileref_commands_total", kind="ai turn", outcome="ok")
        queued = value("tileref_ai_queue")
        assert (await referee.create(PLACE, ALICE, "tronimoes")).ok
        assert (await referee.add_ai(PLACE, ALICE, "random")).ok
        assert (await referee.start(PLACE, ALICE)).ok
        for _ in range(20):
            await referee.ai.idle()
            user = await waiting_user(referee)
            move = (await referee.suggestions(PLACE, user, "", limit=1))[0]
            assert (await referee.act(PLACE, user, move)).ok
        await referee.ai.idle()
        assert value("tileref_commands_total", kind="ai turn", outcome="ok") > turns
        assert value("tileref_ai_queue") == queued


async def test_an_announcement_is_pending_until_its_delivery_is_confirmed(tmp_path, monkeypatch):
    monkeypatch.setattr(metrics, "_pending", {})
    clock = ManualClock(1_000_000.0)
    async with running_referee(tmp_path / "t.sqlite3", clock, confirms_delivery=True) as referee:
        opening = await started(referee, ALICE, BOB)
        await referee.delivered(opening)
        metrics.exposition()
        assert value("tileref_outbox_pending") == 0
        user = await waiting_user(referee)
        reply = await referee.act(PLACE, user, (await referee.suggestions(PLACE, user, "", limit=1))[0])
        metrics.exposition()
        assert value("tileref_outbox_pending") == len(reply.notices) > 0
        delivered, waited = value("tileref_delivery_seconds_count"), value("tileref_delivery_seconds_sum")
        await clock.advance(3)
        await referee.delivered(reply)
        metrics.exposition()
        assert value("tileref_outbox_pending") == 0
        assert value("tileref_delivery_seconds_count") == delivered + len(reply.notices)
        assert value("tileref_delivery_seconds_sum") - waited >= 3 * len(reply.notices)  # committed 3 s before
