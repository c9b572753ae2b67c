"""Interaction-to-reply latency of the Discord bot through the Discord stand-in: from the moment
the stand-in dispatches a user's `/move` (INTERACTION_CREATE on the gateway) to the moment the
bot's answer, with the board image, has arrived at the stand-in. Prints one JSON line per case:
median and p99 milliseconds.

Everything runs in one process on 127.0.0.1: the real discord.py client, the real referee on a
real SQLite file (synchronous=FULL), the real renderer. Discord's own network time is not in it.
Two players play seeded 2-player Tronimoes games, each taking its first legal action: lays go
through `/move` (the measured case), draws through `/draw`, passes through `/pass`, round breaks
through the Ready button; a finished game is followed by a new table.

    .venv/bin/python bench/bot_roundtrip.py [--moves 300]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.adapters.discordbot import build_bot
from bot.core.clock import ManualClock
from bot.core.records import PLAYING
from bot.service.referee import Referee
from bot.storage.sqlite import SQLiteStore
from tests.standin import Channel, DiscordStandIn, RecordedMessage


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def summary(case: str, times: list[float]) -> dict[str, object]:
    return {"case": case, "n": len(times), "median_ms": round(statistics.median(times), 2),
            "p99_ms": round(percentile(times, 0.99), 2), "max_ms": round(max(times), 2)}


async def open_table(s: DiscordStandIn) -> tuple[Channel, RecordedMessage]:
    announced = await (await s.slash(s.alice, s.channel, "tileref new", game="tronimoes")).reply()
    thread = await s.wait_for_thread(lambda t: t.id == announced.id)
    lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
    lobby = await (await s.click(s.bob, lobby, label="Join")).reply()
    answers = await (await s.click(s.alice, lobby, label="Start")).replies(2)
    return thread, next(m for m in answers if m.id != lobby.id)


async def run(moves: int) -> None:
    times: dict[str, list[float]] = defaultdict(list)
    loop = asyncio.get_running_loop()
    with tempfile.TemporaryDirectory() as folder:
        async with DiscordStandIn(default_timeout=10) as s:
            store = SQLiteStore(Path(folder) / "bench.sqlite3")
            await store.open()
            seeds = iter(range(1000, 2000))
            referee = Referee(store, clock=ManualClock(), seeds=lambda: next(seeds))
            await referee.open()
            bot = build_bot(referee, guild_ids=[s.guild.id], guild_ready_timeout=0.1)
            try:
                async with s.run_bot(bot, wait_ready=True):
                    thread, latest = await open_table(s)
                    users = (s.alice, s.bob)
                    while len(times["/move"]) < moves:
                        viewed = await referee.view(f"discord:{thread.id}")
                        assert viewed is not None
                        table, game = viewed
                        if table.status != PLAYING:
                            thread, latest = await open_table(s)
                            continue
                        seat = game.to_move()[0]
                        action = game.legal_actions(seat)[0]
                        start = loop.time()
                        if action == "ready":
                            case, handle = "Ready button", await s.click(users[seat], latest, label="Ready")
                        elif action == "draw":
                            case, handle = "/draw", await s.slash(users[seat], thread, "draw")
                        elif action.startswith("pass"):
                            foot = action.split()[1:]
                            case = "/pass"
                            handle = await s.slash(users[seat], thread, "pass", **({"foot": foot[0]} if foot else {}))
                        else:
                            case, handle = "/move", await s.slash(users[seat], thread, "move", text=action)
                        reply = await handle.reply()
                        times[case].append((loop.time() - start) * 1000)
                        assert not reply.ephemeral and reply.png_images(), reply.content
                        latest = reply
                    for _ in range(50):
                        start = loop.time()
                        shown = await (await s.click(s.alice, latest, label="Show hand")).reply()
                        times["Show hand"].append((loop.time() - start) * 1000)
                        assert shown.ephemeral and shown.png_images()
            finally:
                await referee.close()
                await store.close()
            s.assert_clean()
    for case in ("/move", "/draw", "/pass", "Ready button", "Show hand"):
        if times[case]:
            print(json.dumps(summary(case, times[case])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300, help="/move commands to time (at least 200)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord").setLevel(logging.ERROR)
    started = time.perf_counter()
    asyncio.run(run(max(200, args.moves)))
    print(json.dumps({"case": "total", "seconds": round(time.perf_counter() - started, 1)}))


if __name__ == "__main__":
    main()
