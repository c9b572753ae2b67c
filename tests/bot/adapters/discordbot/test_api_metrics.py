"""Discord API calls are counted for `/metrics` by route template (never an id or a token) and
status, through the real discord.py client talking to the stand-in."""

from __future__ import annotations

import re
from types import SimpleNamespace

from yarl import URL

from bot.adapters.discordbot import api_metrics
from bot.core import metrics
from tests.bot.adapters.discordbot.harness import Harness


def requests_by_route() -> dict[tuple[str, str], float]:
    counted: dict[tuple[str, str], float] = {}
    for family in metrics.REGISTRY.collect():
        if family.name == "tileref_discord_requests":
            for sample in family.samples:
                if sample.name.endswith("_total"):
                    counted[sample.labels["route"], sample.labels["status"]] = sample.value
    return counted


async def test_api_calls_are_counted_by_route_template(tileref: Harness) -> None:
    before = requests_by_route()
    s = tileref.s
    await tileref.open_table(s.alice, s.bob)
    after = requests_by_route()
    grown = {key: after[key] - before.get(key, 0.0) for key in after if after[key] > before.get(key, 0.0)}
    assert grown, "no Discord API call was counted"
    for route, status in grown:
        assert not re.search(r"\d{5,}", route), route  # a template: no snowflake, no token
        assert route.split()[0] in {"GET", "POST", "PATCH", "PUT", "DELETE"} and status.isdigit()
    assert ("POST /channels/{channel_id}/messages", "200") in grown
    assert ("POST /interactions/{id}/{token}/callback", "200") in grown  # through discord.py's webhook adapter


async def test_a_429_is_counted_as_rate_limited_by_its_route() -> None:
    route = "POST /channels/{channel_id}/messages"
    before = metrics.REGISTRY.get_sample_value("tileref_discord_rate_limited_total", {"route": route}) or 0.0
    params = SimpleNamespace(method="POST", url=URL("https://discord.com/api/v10/channels/1234567890/messages"),
                             response=SimpleNamespace(status=429))
    token = api_metrics.ROUTE.set(route)
    try:
        for callback in api_metrics.trace().on_request_end:
            await callback(None, SimpleNamespace(), params)
    finally:
        api_metrics.ROUTE.reset(token)
    assert metrics.REGISTRY.get_sample_value("tileref_discord_rate_limited_total", {"route": route}) == before + 1


def test_a_path_outside_the_client_keeps_no_number_or_token() -> None:
    path = "/api/v10/webhooks/123456789012345678/aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4/messages/@original"
    assert api_metrics.template("PATCH", path) == "PATCH /webhooks/{id}/{token}/messages/@original"
