"""Counting the bot's Discord API calls by route for `/metrics`: every response (each try,
429s included) by route template and status, and the 429s apart.

discord.py retries a rate-limited request inside `HTTPClient.request`, so the counting is done
where each response arrives, in an aiohttp trace (`trace`, given to the client as its
`http_trace`); the route template (`/channels/{channel_id}/messages`, never an id or a token)
is known only in `request`, which `count_routes` wraps to say it to the trace through a
context variable (the trace's callbacks run in the task making the request)."""

from __future__ import annotations

import functools
from contextvars import ContextVar
from types import SimpleNamespace
from typing import Any

import aiohttp
from discord.http import HTTPClient, Route

from bot.core import metrics

ROUTE: ContextVar[str | None] = ContextVar("tileref_discord_route", default=None)
"""The template of the Discord route being requested in this task ("GET /users/@me")."""
OTHER = "other"
"""The route of a request not made through `HTTPClient.request` (the gateway's address, files)."""


def trace() -> aiohttp.TraceConfig:
    """An aiohttp trace counting each Discord response by the route `ROUTE` names."""
    config = aiohttp.TraceConfig()
    config.on_request_end.append(_response)
    return config


async def _response(_session: aiohttp.ClientSession, _context: SimpleNamespace,
                    params: aiohttp.TraceRequestEndParams) -> None:
    route = ROUTE.get() or OTHER
    status = params.response.status
    metrics.discord_requests.labels(route, str(status)).inc()
    if status == 429:
        metrics.discord_rate_limited.labels(route).inc()


def count_routes(http: HTTPClient) -> None:
    """Make `http`'s requests name their route template to the trace (this client only)."""
    request = http.request

    @functools.wraps(request)
    async def named(route: Route, **kwargs: Any) -> Any:
        token = ROUTE.set(f"{route.method} {route.path}")
        try:
            return await request(route, **kwargs)
        finally:
            ROUTE.reset(token)

    http.request = named  # type: ignore[method-assign]
