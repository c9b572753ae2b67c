"""The health check of a running bot: connected to the Discord stand-in, `/healthz` answers 200
and `tileref health` (asking it over HTTP, as Docker's HEALTHCHECK does) exits 0; with the
stand-in stopped (the gateway down) they answer 503 and exit 1, saying the gateway is why."""

from __future__ import annotations

import asyncio
import time
from typing import cast

import aiohttp
import pytest

from bot.adapters.discordbot.app import TilerefBot
from bot.adapters.web.server import WebServer
from bot.cli.main import main
from bot.cli.serve import serve
from bot.durable.health import HealthCheck, HealthLimits
from bot.media.watching import WebSettings
from tests.bot.adapters.discordbot.harness import Harness
from tests.standin import DiscordStandIn


async def healthz(web: WebServer) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{web.port}/healthz") as response:
        return response.status, await response.json()


async def tileref_health(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run `tileref health` (in a thread: it runs its own event loop) and show what it said."""
    status = await asyncio.to_thread(main, ["health"])
    out = capsys.readouterr().out
    with capsys.disabled():
        print(f"\n$ tileref health  # exit {status}\n{out}", end="")
    return status, out


async def test_the_gateway_down_makes_the_running_bot_unhealthy(tileref: Harness, monkeypatch, capsys):
    bot = cast(TilerefBot, tileref.bot)
    health = HealthCheck(tileref.referee.store, HealthLimits(), clock=tileref.clock, gateway=bot.gateway_state)
    web = WebServer(tileref.referee.store, port=0, health=health)
    await web.start()
    monkeypatch.setenv("TILEREF_WEB", f"127.0.0.1:{web.port}")
    try:
        status, report = await healthz(web)
        assert status == 200 and report["ok"] is True
        gateway = next(c for c in report["checks"] if c["name"] == "gateway")
        assert gateway["ok"] and gateway["reason"].startswith("connected")
        code, out = await tileref_health(capsys)
        assert code == 0 and out.startswith("healthy\n") and "✓ gateway: connected" in out

        await tileref.s.stop()  # Discord's gateway goes away; the bot keeps trying to reconnect
        deadline = time.monotonic() + 5
        while bot.gateway_state().connected and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        status, report = await healthz(web)
        assert status == 503 and report["ok"] is False
        assert [c["name"] for c in report["checks"] if not c["ok"]] == ["gateway"]
        code, out = await tileref_health(capsys)
        assert code == 1 and out.startswith("unhealthy: gateway\n")
        assert "✗ gateway: not connected to Discord (disconnected, reconnecting)" in out
    finally:
        await web.stop()


async def test_tileref_health_says_when_the_bot_does_not_answer(monkeypatch, capsys, unused_tcp_port):
    monkeypatch.setenv("TILEREF_WEB", f"127.0.0.1:{unused_tcp_port}")
    code, out = await tileref_health(capsys)
    assert code == 1 and out.startswith("unhealthy: bot\n")
    assert f"http://127.0.0.1:{unused_tcp_port}/healthz did not answer" in out


async def test_tileref_run_serves_its_health_on_its_web_port(tmp_path, monkeypatch, capsys, unused_tcp_port):
    """`serve` (what `tileref run` runs) answers /healthz on TILEREF_WEB's port with its gateway."""
    web = WebSettings("127.0.0.1", unused_tcp_port, f"http://127.0.0.1:{unused_tcp_port}")
    monkeypatch.setenv("TILEREF_WEB", f"127.0.0.1:{unused_tcp_port}")
    async with DiscordStandIn() as s:
        with s.patch_discord():
            task = asyncio.create_task(serve(s.token, tmp_path / "served.sqlite3", web=web))
            try:
                await s.wait_until(lambda: s.gateway.ready_count > 0 or task.done(), timeout=10,
                                   what="serve() to connect")
                deadline = time.monotonic() + 10
                while (code := (await tileref_health(capsys))[0]) != 0 and time.monotonic() < deadline:
                    await asyncio.sleep(0.2)  # until discord.py says it is ready
                assert code == 0
                await s.stop()
                deadline = time.monotonic() + 10
                while (code := (await tileref_health(capsys))[0]) != 1 and time.monotonic() < deadline:
                    await asyncio.sleep(0.2)
                code, out = await tileref_health(capsys)
                assert code == 1 and out.startswith("unhealthy: gateway\n")
            finally:
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task


async def test_serve_answers_metrics_at_its_own_address_with_the_gateways_latency(tmp_path, unused_tcp_port_factory):
    """`serve` with TILEREF_METRICS's address (`metrics_address`) serves /metrics there, the
    gateway's latency included once it is connected; the pages' port does not serve it."""
    pages, metrics = unused_tcp_port_factory(), unused_tcp_port_factory()
    web = WebSettings("127.0.0.1", pages, f"http://127.0.0.1:{pages}")
    async with DiscordStandIn() as s:
        with s.patch_discord():
            task = asyncio.create_task(serve(s.token, tmp_path / "served.sqlite3", web=web,
                                             metrics_address=f"127.0.0.1:{metrics}"))
            try:
                await s.wait_until(lambda: s.gateway.ready_count > 0 or task.done(), timeout=10,
                                   what="serve() to connect")
                latency = None
                async with aiohttp.ClientSession() as session:
                    deadline = time.monotonic() + 10
                    while time.monotonic() < deadline:
                        async with session.get(f"http://127.0.0.1:{metrics}/metrics") as response:
                            assert response.status == 200
                            text = await response.text()
                        line = next(x for x in text.splitlines() if x.startswith("tileref_gateway_latency_seconds "))
                        latency = float(line.split()[1])
                        if latency == latency:  # not NaN: the gateway has measured a heartbeat
                            break
                        await asyncio.sleep(0.2)
                    async with session.get(f"http://127.0.0.1:{pages}/metrics") as response:
                        assert response.status == 404
                assert latency is not None and latency == latency and latency >= 0
                assert "tileref_discord_requests_total" in text
            finally:
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
