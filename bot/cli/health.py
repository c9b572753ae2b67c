"""`tileref health`: whether the running bot is healthy, as lines and an exit status (0 healthy,
1 not), for Docker's HEALTHCHECK, compose and systemd.

When the bot's web port is set (`TILEREF_WEB`), it asks the running bot's `GET /healthz`, the
only place that knows whether the Discord gateway is connected. Otherwise (or with
`--database-only`) it checks the database itself and says the gateway could not be checked."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp

from bot.core.clock import SystemClock
from bot.durable.health import Check, HealthLimits, HealthReport, database_checks, database_failed
from bot.media.watching import WebSettings
from bot.storage.address import missing_file, store_for

ASK_SECONDS = 5.0
"""How long the bot's `/healthz` may take to answer (its own database check takes at most 1 s)."""
OPEN_SECONDS = 5.0
"""How long opening the database (connecting) may take when it is checked directly."""


async def health(database: str | Path, web: WebSettings, limits: HealthLimits, *, database_only: bool = False
                 ) -> int:
    """Print the health report (first line: healthy, or unhealthy and which checks failed) and
    return 0 when healthy, else 1."""
    if web.enabled and web.port and not database_only:
        report = await ask_bot(healthz_url(web))
    else:
        reason = ("the bot's web port (TILEREF_WEB) is off" if not web.enabled else
                  "TILEREF_WEB's port is 0 (any free port)" if not web.port else "--database-only")
        report = await check_database(database, limits, reason)
    print("\n".join(report.lines()), flush=True)
    return 0 if report.ok else 1


def healthz_url(web: WebSettings) -> str:
    """Where the bot on this machine answers `/healthz` (a wildcard address is asked on loopback)."""
    host = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(web.host or "", web.host or "")
    return f"http://{f'[{host}]' if ':' in host else host}:{web.port}/healthz"


async def ask_bot(url: str) -> HealthReport:
    """The running bot's report from its `/healthz` at `url`; a failed check named `bot` when it
    does not answer (not running, or its web server cannot listen) or answers something else."""
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=ASK_SECONDS)) as session, \
                session.get(url) as response:
            if response.status in (200, 503) and response.content_type == "application/json":
                return HealthReport.from_json(await response.json())
            problem = f"answered HTTP {response.status}, not a health report"
    except TimeoutError:
        problem = f"did not answer within {ASK_SECONDS:g} s"
    except aiohttp.ClientError as error:
        problem = f"did not answer ({error})"
    return HealthReport((Check("bot", False, None, None, f"{url} {problem}: is `tileref run` running, with this "
                                                         f"TILEREF_WEB?"),))


async def check_database(database: str | Path, limits: HealthLimits, why_no_gateway: str) -> HealthReport:
    """The database's checks made from this process (opening it, which applies any missing
    schema migrations), and the gateway's marked as not checked (`why_no_gateway`)."""
    gateway = Check("gateway", True, None, None, f"not checked: {why_no_gateway}; ask the bot's /healthz for it")
    store = store_for(database)
    if (file := missing_file(store)) is not None:
        return HealthReport((Check("database", False, None, None, f"there is no database file at {file}"),
                             gateway))
    try:
        await asyncio.wait_for(store.open(), OPEN_SECONDS)
    except Exception as error:  # refused, unknown host, bad password, a timeout: all say the database is unreachable
        return HealthReport((database_failed(error), gateway))
    try:
        checks = await database_checks(store, limits, SystemClock().now())
    finally:
        await store.close()
    return HealthReport((*checks, gateway))
