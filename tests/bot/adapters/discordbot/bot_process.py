"""Run the real tileref bot (`serve`, as `tileref run` does) against the Discord stand-in, in a
process of its own, so a test can kill it with SIGKILL.

    python -m tests.bot.adapters.discordbot.bot_process API_BASE GATEWAY DATABASE GUILDS TOKEN [SHARDS COUNT]

GUILDS: the servers to publish the commands to, comma-separated; SHARDS and COUNT: the gateway
shards this process runs (`0` of `2`), as `tileref run --shards 0 --shard-count 2` would.

The only differences from production: discord.py is pointed at the stand-in, announcements
are left to the transport for one second instead of thirty before the outbox sends them, and an
AI turn stays with the process planning it for two seconds instead of forty-five before another
may take it over."""

from __future__ import annotations

import asyncio
import logging
import signal
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.cli.serve import serve
from bot.cli.shards import parse_shards

if TYPE_CHECKING:  # the bot process itself never loads the stand-in
    from tests.standin import Channel, DiscordStandIn, User

ROOT = Path(__file__).resolve().parents[4]


def spawn(api_base: str, gateway: str, database: Path | str, guild_id: int, token: str, *,
          log: Path | None = None) -> subprocess.Popen[bytes]:
    """This module run as a process of its own against the stand-in at `api_base`/`gateway`; its
    log goes to the file `log`, if given."""
    with open(log or "/dev/null", "ab") as output:
        return subprocess.Popen(
            [sys.executable, "-m", "tests.bot.adapters.discordbot.bot_process", api_base, gateway, str(database),
             str(guild_id), token], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=output)


def stop(process: subprocess.Popen[bytes], timeout: float = 10) -> None:
    """Stop a bot process as a service manager would: SIGTERM, then SIGKILL if it has not ended
    within `timeout` seconds."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()


async def started_two_player_table(s: DiscordStandIn, game: str = "tronimoes") -> tuple[Channel, User]:
    """Alice opens a table of `game`, Bob joins and Alice starts it, through the stand-in: the
    table's thread and the player the opening message pings (the first to move)."""
    announced = await (await s.slash(s.alice, s.channel, "tileref new", game=game)).reply()
    thread = await s.wait_for_thread(lambda t: t.id == announced.id)
    lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
    lobby = await (await s.click(s.bob, lobby, label="Join")).reply()
    opening = next(m for m in await (await s.click(s.alice, lobby, label="Start")).replies(2) if m.id != lobby.id)
    pinged = {int(u["id"]) for u in opening.payload.get("mentions", [])}
    return thread, (s.bob if s.bob.id in pinged and s.alice.id not in pinged else s.alice)


def main(argv: list[str]) -> None:
    api_base, gateway, database, guilds, token, *sharding = argv
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    shards = parse_shards(*sharding) if sharding else None
    asyncio.run(serve(token, database if "://" in database else Path(database),
                      guild_ids=[int(g) for g in guilds.split(",")], delivery_lease=1.0, outbox_every=0.5, ai_lease=2.0,
                      shard_ids=shards[0] if shards else None, shard_count=shards[1] if shards else None))


if __name__ == "__main__":
    main(sys.argv[1:])
