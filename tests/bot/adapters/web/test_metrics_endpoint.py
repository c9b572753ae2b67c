"""`/metrics` is off unless `TILEREF_METRICS` gives it an address, and then served there in
Prometheus' text format."""

from __future__ import annotations

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.adapters.web.metrics_endpoint import start_metrics


async def test_metrics_are_off_by_default():
    assert await start_metrics(None) is None
    assert await start_metrics("") is None


async def test_metrics_are_served_on_their_own_address():
    endpoint = await start_metrics("127.0.0.1:0")
    assert endpoint is not None
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{endpoint.port}/metrics") as response:
                assert response.status == 200
                assert response.headers["Content-Type"].startswith("text/plain")
                names = {f.name for f in text_string_to_metric_families(await response.text())}
            async with session.get(f"http://127.0.0.1:{endpoint.port}/") as response:
                assert response.status == 404
    finally:
        await endpoint.stop()
    assert {"tileref_commands", "tileref_moves", "tileref_discord_requests"} <= names


async def test_a_wrong_address_is_refused():
    with pytest.raises(ValueError):
        await start_metrics("nowhere")
