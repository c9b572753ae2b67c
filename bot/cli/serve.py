"""`tileref run`: the store, the referee and the Discord connection in one process, until
cancelled, with the spectator pages in a `tileref web` child process (or in this one, if asked)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import discord

from bot.adapters.discordbot.app import build_bot
from bot.adapters.discordbot.context import PREFIX
from bot.adapters.web.health_endpoint import HealthEndpoint
from bot.adapters.web.metrics_endpoint import MetricsEndpoint, start_metrics
from bot.adapters.web.server import PagesCannotListen, WebServer, start_pages
from bot.cli.web import WebProcess, start_web_process
from bot.core import metrics
from bot.core.clock import Clock
from bot.durable.health import HealthCheck, HealthLimits
from bot.media.watching import WebSettings
from bot.service.referee import Referee
from bot.storage.address import store_for
from bot.storage.store import Store
from bot.workers.memory import CollectorMaintenance

log = logging.getLogger(__name__)


async def serve(token: str, database: str | Path, *, clock: Clock | None = None,
                guild_ids: Iterable[int] | None = None, shard_ids: Sequence[int] | None = None,
                shard_count: int | None = None, web: WebSettings | None = None, health: HealthLimits | None = None,
                metrics_address: str | None = None, web_process: bool = True, web_processes: int = 1,
                **referee_options: Any) -> None:
    """Open the store at `database` (an SQLite file or a PostgreSQL address), start the referee
    (its saved timers included) and run the bot until cancelled or closed; everything is closed
    on the way out. The outbox starts sending once the bot is connected. If Discord refuses the
    Message Content intent, connect without it (typed moves then work only as @mentions) and log
    a warning. With `shard_ids` of `shard_count` it runs those shards of the gateway only.
    `referee_options` go to the `Referee` (e.g. `delivery_lease`). With `web` settings that are
    on, the spectator pages are served by `web_processes` `tileref web` child processes sharing the
    port (`web_process`; else by this one), the referee links to them, and `/healthz` on their
    port says whether this process is healthy (the database, the gateway, the durable work's
    backlog against the `health` limits): the children forward it to this process's private
    health address.
    With `metrics_address` ("host:port", `TILEREF_METRICS`) `/metrics` is served there."""
    store = store_for(database)
    await store.open()
    pages: WebServer | WebProcess | None = None
    private_health: HealthEndpoint | None = None
    supervising: asyncio.Task[None] | None = None
    endpoint: MetricsEndpoint | None = None
    referee: Referee | None = None
    collector = CollectorMaintenance()
    checks = HealthCheck(store, health, clock=clock)
    try:
        endpoint = await _metrics(metrics_address)
        if web is not None and web.enabled and web_process:
            private_health = HealthEndpoint(checks)
            await private_health.start()
            pages, public_url = await _web_process(str(database), web, private_health.url, web_processes)
            if pages is not None:
                supervising = asyncio.get_running_loop().create_task(pages.supervise())
        else:
            started = await _pages(store, web, checks)
            pages, public_url = started if started is not None else (None, None)
        referee = Referee(store, clock=clock, public_url=public_url, **referee_options)
        referee.serve(PREFIX)  # Discord's tables only: a terminal game on the same database stays its own
        await referee.open(outbox=False)
        collector.start()
        for message_content in (True, False):
            bot = build_bot(referee, guild_ids=guild_ids, message_content=message_content, shard_ids=shard_ids,
                            shard_count=shard_count)
            metrics.watch_gateway(functools.partial(_gateway_latency, bot))
            checks.gateway = bot.gateway_state
            try:
                async with bot:
                    await bot.start(token)
                return
            except discord.PrivilegedIntentsRequired:
                if not message_content:
                    raise
                log.warning("Discord refused the Message Content intent (turn it on in the Developer Portal, "
                            "Bot page); connecting without it: typed moves work only as @mentions")
    finally:
        metrics.watch_gateway(None)
        if supervising is not None:
            supervising.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await supervising
        if endpoint is not None:
            await endpoint.stop()
        if pages is not None:
            await pages.stop()
        if private_health is not None:
            await private_health.stop()
        await collector.stop()
        if referee is not None:
            await referee.close()
        await store.close()


async def _pages(store: Store, web: WebSettings | None, health: HealthCheck) -> tuple[WebServer, str] | None:
    """The spectator pages and their links' address, when `web` turns them on and they can
    listen; a bot whose pages cannot listen plays on without them (and says so in its log)."""
    if web is None:
        return None
    try:
        return await start_pages(store, web, health)
    except PagesCannotListen as error:
        log.warning("%s Running without the spectator pages.", error)
        return None


async def _web_process(database: str, web: WebSettings, health_url: str, processes: int
                       ) -> tuple[WebProcess | None, str | None]:
    """The spectator pages in a `tileref web` child process and their links' address; a bot
    whose pages cannot start plays on without them (and says so in its log)."""
    try:
        process = await start_web_process(database, web, health_url=health_url, processes=processes)
    except PagesCannotListen as error:
        log.warning("%s Running without the spectator pages.", error)
        return None, None
    return process, process.public_url


async def _metrics(address: str | None) -> MetricsEndpoint | None:
    """The `/metrics` endpoint at `address`, when set and it can listen; a bot whose metrics
    cannot listen plays on without them (and says so in its log)."""
    try:
        return await start_metrics(address)
    except OSError as error:
        log.warning("/metrics cannot listen on %s (%s); running without metrics.", address, error)
        return None


def _gateway_latency(bot: discord.Client) -> float:
    """The gateway's heartbeat latency in seconds; NaN while not connected."""
    return bot.latency if bot.is_ready() and not bot.is_closed() else float("nan")
