"""The bot process's `/healthz` on a private loopback address, for its `tileref web` child to
forward: only the bot process knows whether its Discord gateway is connected, and the pages
(with the public `/healthz`) run in the child."""

from __future__ import annotations

import json

from aiohttp import web

from bot.durable.health import HealthCheck


class HealthEndpoint:
    """Serves `GET /healthz` (`health`'s report as JSON: 200 healthy, 503 not) on 127.0.0.1 at
    a free port; `url` says where once `start`ed."""

    def __init__(self, health: HealthCheck) -> None:
        self.health = health
        self.url = ""
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        application = web.Application()
        application.router.add_get("/healthz", self.healthz)
        self._runner = web.AppRunner(application, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = getattr(site, "_server", None)
        port = server.sockets[0].getsockname()[1] if server is not None and server.sockets else 0
        self.url = f"http://127.0.0.1:{port}/healthz"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def healthz(self, _request: web.Request) -> web.Response:
        report = await self.health.report()
        return web.Response(text=json.dumps(report.as_json(), ensure_ascii=False), content_type="application/json",
                            status=200 if report.ok else 503, headers={"Cache-Control": "no-store"})
