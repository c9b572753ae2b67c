"""Counting the bot's Discord API calls by route for `/metrics`: every response (each try,
429s included) by route template and status, and the 429s apart.

discord.py retries a rate-limited request inside `HTTPClient.request`, so the counting is done
where each response arrives, in an aiohttp trace (`trace`, given to the client as its
`http_trace`); the route template (`/channels/{channel_id}/messages`, never an id or a token)
is known only in `request`, which `count_routes` wraps to say it to the trace through a
context variable (the trace's callbacks run in the task making the request)."""

from __future__ import annotations

import functools
import re
from contextvars import ContextVar
from types import SimpleNamespace
from typing import Any

import aiohttp
from discord.http import HTTPClient, Route

from bot.core import metrics

ROUTE: ContextVar[str | None] = ContextVar("tileref_discord_route", default=None)
"""The template of the Discord route being requested in this task ("GET /users/@me")."""
API_PREFIX = re.compile(r"^/api(/v\d+)?")
NAMED_SEGMENT = re.compile(r"^[a-z@_-]{1,19}$")


def trace() -> aiohttp.TraceConfig:
    """An aiohttp trace counting each Discord response by the route `ROUTE` names."""
    config = aiohttp.TraceConfig()
    config.on_request_end.append(_response)
    return config


async def _response(_session: aiohttp.ClientSession, _context: SimpleNamespace,
                    params: aiohttp.TraceRequestEndParams) -> None:
    route = ROUTE.get() or template(params.method, params.url.path)
    status = params.response.status
    metrics.discord_requests.labels(route, str(status)).inc()
    if status == 429:
        metrics.discord_rate_limited.labels(route).inc()


def template(method: str, path: str) -> str:
    """The route of a request not made through `HTTPClient.request` (interaction responses and
    follow-ups go through discord.py's webhook adapter): its path with each number as `{id}` and
    anything that could be a token as `{token}` ("POST /interactions/{id}/{token}/callback")."""
    segments = [s if NAMED_SEGMENT.match(s) else "{id}" if s.isascii() and s.isdigit() else "{token}"
                for s in API_PREFIX.sub("", path).split("/") if s]
    return f"{method} /{'/'.join(segments)}"


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
