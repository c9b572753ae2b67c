"""The spectator pages' speed and capacity, on an SQLite file in a temporary folder.

Prints JSON lines:
  * `page`: a table page's server time (the `Server-Timing` the server reports: wall time, and
    the process's CPU time, which other programs on a busy machine do not inflate) among
    `--tables` tables, each with `--moves` moves: the first view of a table (its log replayed)
    and a view of a table already in memory, p50 and p95 (target: p95 <= 30 ms with 10,000
    tables);
  * `update`: from a move's commit to the page in a real browser (Chromium via Playwright)
    showing it, without a reload, p50 and p95 over `--updates` moves (target: p95 <= 500 ms);
  * `streams`: the server process's memory with `--streams` live event streams open (held by a
    client in another process), and how long one move takes to reach every stream of its table
    (target: >= 2,000 streams at < 1 GB);
  * `replay_gif`: the animated replay of a long Tronimoes game: plies, seconds to draw, bytes.

    python bench/web.py [--tables 10000] [--moves 20] [--updates 30] [--streams 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp

from bot.adapters.web.server import WebServer
from bot.core.clock import SystemClock
from bot.core.records import PLAYING, ActionRecord, SeatRecord, TableRecord, User
from bot.media.replay_animation import replay_gif
from bot.media.watching import new_token
from bot.service.referee import Referee
from bot.storage.loader import new_game
from bot.storage.sqlite import SQLiteStore

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def emit(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


def p95(values: list[float]) -> float:
    return round(sorted(values)[max(0, int(len(values) * 0.95) - 1)], 2)


def random_log(table: TableRecord, moves: int, rng: random.Random) -> list[ActionRecord]:
    game = new_game(table)
    actions = []
    for _ in range(moves):
        if game.outcome() is not None:
            break
        seat = rng.choice(game.to_move())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        actions.append(ActionRecord(len(game.log), seat, game.log[-1][1], f"bench:{seat}", time.time()))
    return actions


async def fill(store: SQLiteStore, tables: int, moves: int) -> list[str]:
    """`tables` Tronimoes tables with `moves` random moves each; returns their tokens."""
    rng = random.Random(1)
    tokens = []
    for number in range(tables):
        table = TableRecord(id=0, place=f"bench:{number}", game="tronimoes", options={}, status=PLAYING,
                            created_by="bench:0", created_at=time.time(), seed=number,
                            seats=[SeatRecord(0, "Ana", "bench:0"), SeatRecord(1, "Bo", "bench:1")],
                            meta={"players": 2, "lang": "en"})
        await store.create_table(table)
        await store.commit(table.id, expected=0, actions=random_log(table, moves, rng))
        tokens.append(await store.watch_token(table.id, new_token()))
    return tokens


async def page_times(base: str, tokens: list[str], samples: int) -> None:
    rng = random.Random(2)
    times: dict[str, list[float]] = {"first_view": [], "in_memory": [], "first_view_cpu": [], "in_memory_cpu": []}
    async with aiohttp.ClientSession() as session:
        for token in rng.sample(tokens, min(samples, len(tokens))):
            for view in ("first_view", "in_memory"):
                async with session.get(f"{base}/t/{token}") as response:
                    await response.read()
                    wall, cpu = (float(part.split("dur=")[1]) for part in response.headers["Server-Timing"].split(","))
                    times[view].append(wall)
                    times[f"{view}_cpu"].append(cpu)
    figures = {f"{name}_{which}_ms": round(statistics.median(values), 2) if which == "p50" else p95(values)
               for name, values in times.items() for which in ("p50", "p95")}
    emit(bench="page", tables=len(tokens), samples=len(times["first_view"]), load_average=os.getloadavg()[0],
         **figures)


async def update_times(referee: Referee, base: str, updates: int) -> None:
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        emit(bench="update", skipped="pip install playwright")
        return
    place = "bench:live"
    alice, bob = User("bench:a", "Ana"), User("bench:b", "Bo")
    reply = await referee.create(place, alice, "tronimoes")
    await referee.join(place, bob)
    await referee.start(place, alice)
    path = (reply.public.text if reply.public else "").split(base, 1)[1].split()[0]
    rng = random.Random(3)
    delays = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = await browser.new_page()
        await page.goto(base + path)
        await page.wait_for_timeout(500)
        for _ in range(updates):
            view = await referee.view(place)
            assert view is not None
            _table, game = view
            if game.outcome() is not None:
                break
            seat = rng.choice(game.to_move())
            action = rng.choice(game.legal_actions(seat))
            after = len(game.log) + 1
            started = time.perf_counter()
            await referee.act(place, (alice, bob)[seat], action)  # returns once committed
            await page.wait_for_selector(f"#spectacle[data-last='{after}']", timeout=5000)
            delays.append((time.perf_counter() - started) * 1000)
        await browser.close()
    emit(bench="update", moves=len(delays), commit_to_browser_p50_ms=round(statistics.median(delays), 1),
         commit_to_browser_p95_ms=p95(delays), note="includes the move's own commit and board drawing")


def hold_streams(base: str, tokens: list[str], count: int, ready: Any, done: Any) -> None:
    """In another process: open `count` event streams over `tokens`, then wait for one change
    on each stream of the first token's table."""
    asyncio.run(_hold(base, tokens, count, ready, done))


async def _hold(base: str, tokens: list[str], count: int, ready: Any, done: Any) -> None:
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=None)) as session:
        streams = []
        for number in range(count):
            response = await session.get(f"{base}/t/{tokens[number % len(tokens)]}/live")
            await response.content.readuntil(b"\n\n")
            streams.append(response)
        ready.set()
        first = [s for n, s in enumerate(streams) if n % len(tokens) == 0]
        await asyncio.gather(*(s.content.readuntil(b"event: change") for s in first))
        done.set()
        await asyncio.sleep(1)
        for response in streams:
            response.close()


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


async def stream_capacity(store: SQLiteStore, referee: Referee, web: WebServer, tokens: list[str],
                          count: int) -> None:
    before = rss_mb()
    context = multiprocessing.get_context("spawn")
    ready, done = context.Event(), context.Event()
    watched = tokens[:100]
    client = context.Process(target=hold_streams, args=(f"http://127.0.0.1:{web.port}", watched, count, ready, done))
    client.start()
    while not ready.is_set():
        await asyncio.sleep(0.1)
    held = web.feed.streams
    during = rss_mb()
    table = await store.table_by_token(watched[0])
    assert table is not None
    started = time.perf_counter()
    await store.commit(table.id, expected=await store.log_length(table.id))  # a change, as a move makes
    while not done.is_set():
        await asyncio.sleep(0.005)
    fanned = (time.perf_counter() - started) * 1000
    client.join(30)
    emit(bench="streams", open_streams=held, tables=len(watched), server_rss_mb_before=before,
         server_rss_mb_with_streams=during, per_stream_kb=round((during - before) * 1024 / max(1, held), 1),
         change_to_all_streams_ms=round(fanned, 1))


def long_game_gif() -> None:
    table = TableRecord(id=1, place="bench:gif", game="tronimoes", options={}, status=PLAYING, created_by="bench:0",
                        created_at=0.0, seed=11, seats=[SeatRecord(i, n) for i, n in enumerate(("Ana", "Bo", "Cy"))],
                        meta={"players": 3})
    actions = random_log(table, 100_000, random.Random(4))
    started = time.perf_counter()
    data = replay_gif(table, actions)
    emit(bench="replay_gif", game="tronimoes", players=3, plies=len(actions),
         seconds=round(time.perf_counter() - started, 1), megabytes=round(len(data) / 2**20, 2),
         limit_megabytes=8)


async def main(args: argparse.Namespace) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "bench.sqlite3", synchronous="OFF")
        await store.open()
        started = time.perf_counter()
        tokens = await fill(store, args.tables, args.moves)
        emit(bench="setup", tables=len(tokens), seconds=round(time.perf_counter() - started, 1))
        web = WebServer(store, port=0)
        await web.start()
        referee = Referee(store, clock=SystemClock(), render=True, confirms_delivery=False, ai_seconds=0.0,
                          public_url=f"http://127.0.0.1:{web.port}")
        try:
            await page_times(f"http://127.0.0.1:{web.port}", tokens, args.samples)
            await update_times(referee, f"http://127.0.0.1:{web.port}", args.updates)
            await stream_capacity(store, referee, web, tokens, args.streams)
        finally:
            await web.stop()
            await store.close()
    long_game_gif()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--updates", type=int, default=30)
    parser.add_argument("--streams", type=int, default=2000)
    asyncio.run(main(parser.parse_args()))
