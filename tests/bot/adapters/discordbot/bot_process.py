"""Run the real tileref bot (`serve`, as `tileref run` does) against the Discord stand-in, in a
process of its own, so a test can kill it with SIGKILL.

    python -m tests.bot.adapters.discordbot.bot_process API_BASE GATEWAY DATABASE GUILD TOKEN

The only difference from production: discord.py is pointed at the stand-in, and announcements
are left to the transport for one second instead of thirty before the outbox sends them."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.adapters.discordbot.service import serve


def main(argv: list[str]) -> None:
    api_base, gateway, database, guild, token = argv
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    asyncio.run(serve(token, Path(database), guild_ids=[int(guild)], delivery_lease=1.0, outbox_every=0.5))


if __name__ == "__main__":
    main(sys.argv[1:])
