"""`/metrics`: Prometheus' text exposition of `bot.core.metrics`, on an address of its own
(`TILEREF_METRICS=host:port`), apart from the spectator pages so it can stay private."""

from __future__ import annotations

import logging

from aiohttp import web

from bot.core import metrics

log = logging.getLogger(__name__)


class MetricsEndpoint:
    """Serves `GET /metrics` on `host:port` (port 0: any free one; `port` says which after
    `start`). Everything else is 404."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen (raises OSError if the address cannot be had)."""
        application = web.Application()
        application.router.add_get("/metrics", self.metrics)
        self._runner = web.AppRunner(application, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except BaseException:
            await self.stop()
            raise
        server = getattr(site, "_server", None)
        if server is not None and server.sockets:
            self.port = server.sockets[0].getsockname()[1]
        log.info("metrics on http://%s:%s/metrics", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def metrics(self, _request: web.Request) -> web.Response:
        body = metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": metrics.CONTENT_TYPE})


async def start_metrics(value: str | None) -> MetricsEndpoint | None:
    """The `/metrics` endpoint `value` (`TILEREF_METRICS`) asks for, started; None when unset.
    Raises ValueError for a value that is not an address, OSError if it cannot listen."""
    address = metrics.parse_address(value)
    if address is None:
        return None
    endpoint = MetricsEndpoint(*address)
    await endpoint.start()
    return endpoint
