"""The spectator pages' speed and capacity, with the web pages in a `tileref web` process of their
own, apart from the bot (here: this script's referee, committing moves as the bot would).

Prints JSON lines:
  * `page`: a table page's server time (the `Server-Timing` the server reports: wall time, and
    the process's CPU time, which other programs on a busy machine do not inflate) among
    `--tables` tables, each with `--moves` moves: the first view of a table (its log replayed)
    and a view of a table already in memory, p50 and p95 (target: p95 <= 30 ms with 10,000
    tables);
  * `update`: from a move's commit to `--pages` pages in a real browser (Chromium via Playwright)
    showing it, without a reload (the move list, then the new picture loaded), p50 and p95 over
    `--updates` moves (target: p95 <= 200 ms with 10 pages);
  * `crowd`: `--watchers` watchers of one table behaving like browsers (each holds the live
    stream and, on every update, fetches the new picture it names), held by a client in another
    process: the player's move (the referee's `act`, as `/move` runs it) p50/p95 with them and
    without (target: <= 1.2x), from each move's commit to each watcher having the update and
    its picture, p50/p95 (target: p95 <= 500 ms), and the web processes' peak memory (target:
    < 1 GB); the web processes' CPU time for each update a watcher received (what a busy machine
    inflates least); `--web-processes 2`: two web processes sharing the port;
  * `two_processes`: two web processes on one PostgreSQL (`--postgres`, default
    $TILEREF_TEST_POSTGRES) serving the same table: whether both tell a move, and how fast;
  * `replay_gif`: the animated replay of a long Tronimoes game: plies, seconds to draw, bytes.

    python bench/web.py [--tables 10000] [--moves 20] [--updates 30] [--pages 10] [--watchers 2000]
                        [--crowd-moves 60] [--client-nice 0] [--only page,update,crowd,two_processes,replay_gif]
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

from bot.cli.web import WebProcess, start_web_process
from bot.core.clock import SystemClock
from bot.core.records import PLAYING, ActionRecord, SeatRecord, TableRecord, User
from bot.media.replay_animation import replay_gif
from bot.media.watching import WebSettings, new_token
from bot.service.referee import Referee
from bot.storage.address import store_for
from bot.storage.loader import new_game
from bot.storage.sqlite import SQLiteStore
from bot.storage.store import Store

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ANY_PORT = WebSettings("127.0.0.1", 0, "")
ALICE, BOB = User("bench:a", "Ana"), User("bench:b", "Bo")


def emit(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


def p95(values: list[float]) -> float:
    return round(sorted(values)[max(0, int(len(values) * 0.95) - 1)], 2)


def p50(values: list[float]) -> float:
    return round(statistics.median(values), 2)


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


async def fill(store: Store, tables: int, moves: int) -> list[str]:
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
    figures = {f"{name}_{which}_ms": p50(values) if which == "p50" else p95(values)
               for name, values in times.items() for which in ("p50", "p95")}
    emit(bench="page", tables=len(tokens), samples=len(times["first_view"]), load_average=os.getloadavg()[0],
         **figures)


async def new_table(referee: Referee, place: str) -> str:
    """A two-player Tronimoes table, started; returns its page's path."""
    reply = await referee.create(place, ALICE, "tronimoes")
    await referee.join(place, BOB)
    await referee.start(place, ALICE)
    text = reply.public.text if reply.public else ""
    return "/t/" + text.split("/t/", 1)[1].split()[0]


async def move(referee: Referee, place: str, rng: random.Random) -> tuple[int, float, float] | None:
    """One random legal move through the referee, as a player's command: (its ply, its commit
    time as stored, how long the command took in seconds); None once the game is over."""
    view = await referee.view(place)
    assert view is not None
    table, game = view
    if game.outcome() is not None:
        return None
    seat = rng.choice(game.to_move())
    action = rng.choice(game.legal_actions(seat))
    started = time.perf_counter()
    reply = await referee.act(place, (ALICE, BOB)[seat], action)
    took = time.perf_counter() - started
    assert reply.ok, reply
    actions = await referee.store.actions(table.id)
    return len(actions), actions[-1].at, took


WATCH_TIMES = """
window.seenAt = {};
document.addEventListener("DOMContentLoaded", function () {
  const main = document.getElementById("spectacle");
  if (!main) return;
  new MutationObserver(function () {
    const last = main.dataset.last;
    if (!(last in window.seenAt)) window.seenAt[last] = { list: Date.now() };
  }).observe(main, { attributes: true, attributeFilter: ["data-last"] });
  document.addEventListener("load", function (event) {
    const found = event.target.tagName === "IMG" && /\\/board\\/(\\d+)-/.exec(event.target.src);
    const times = found && window.seenAt[found[1]];
    if (times && !times.picture) times.picture = Date.now();
  }, true);
});
"""
"""Recorded in each page: when it showed each ply's move (`data-last` set, after the list) and
when that ply's picture had loaded, in the machine's clock."""


async def update_times(referee: Referee, base: str, updates: int, pages: int) -> None:
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        emit(bench="update", skipped="pip install playwright")
        return
    place = "bench:live"
    path = await new_table(referee, place)
    rng = random.Random(3)
    commits: dict[str, float] = {}
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        tabs = []
        for _ in range(pages):
            # a context each, as each reader has a browser of their own (one browser keeps at most 6
            # connections to a server over HTTP/1.1, and each page's live stream holds one)
            context = await browser.new_context(bypass_csp=True)
            await context.add_init_script(WATCH_TIMES)
            tabs.append(await context.new_page())
        for tab in tabs:
            await tab.goto(base + path)
        await asyncio.sleep(1.0)
        for _ in range(updates):
            moved = await move(referee, place, rng)
            if moved is None:
                break
            commits[str(moved[0])] = moved[1]
            await asyncio.sleep(0.7)
        await asyncio.sleep(1.0)
        seen = [await tab.evaluate("window.seenAt") for tab in tabs]
        await browser.close()
    listed = [(times["list"] / 1000 - commits[ply]) * 1000 for page in seen for ply, times in page.items()
              if ply in commits and "list" in times]
    pictured = [(times["picture"] / 1000 - commits[ply]) * 1000 for page in seen for ply, times in page.items()
                if ply in commits and "picture" in times]
    emit(bench="update", pages=pages, moves=len(commits), updates_shown=len(listed),
         updates_expected=pages * len(commits), pictures_shown=len(pictured),
         commit_to_list_p50_ms=p50(listed), commit_to_list_p95_ms=p95(listed),
         commit_to_picture_p50_ms=p50(pictured), commit_to_picture_p95_ms=p95(pictured),
         load_average=os.getloadavg()[0],
         note="from the move's commit (its stored time) to each page showing the move, then its new picture "
              "loaded, as each page recorded them")


def crowd(base: str, path: str, count: int, ready: Any, results: Any, stop: Any, niceness: int) -> None:
    """In another process (at `niceness`): `count` watchers, each with the live stream open that
    fetches the picture each update names; sends back (ply, time the watcher had the update and
    its picture) for every watcher's every update."""
    os.nice(niceness)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:  # the watchers stand for browsers on other machines: make their process as cheap as can be
        import uvloop
        loop_factory: Any = uvloop.new_event_loop
    except ImportError:
        loop_factory = None
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        runner.run(_crowd(base, path, count, ready, results, stop))


async def _crowd(base: str, path: str, count: int, ready: Any, results: Any, stop: Any) -> None:
    seen: list[tuple[int, float]] = []
    failures = 0
    host, port = base.split("//", 1)[1].split(":")

    async def watcher(opened: asyncio.Event) -> None:
        """One browser: the live stream on a connection, the pictures on another (kept alive),
        spoken in plain HTTP/1.1 (a client library would make this process, not the server, the
        bottleneck)."""
        nonlocal failures
        stream_in, stream_out = await asyncio.open_connection(host, int(port))
        stream_out.write(f"GET {path}/live HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
        await stream_in.readuntil(b"\r\n\r\n")  # the headers (the body is chunked: sizes between events)
        pictures_in, pictures_out = await asyncio.open_connection(host, int(port))
        opened.set()
        try:
            while True:
                message = await stream_in.readuntil(b"\n\n")
                if b'"picture": "' not in message:  # a comment, or no picture
                    continue
                picture = message.split(b'"picture": "', 1)[1].split(b'"', 1)[0]
                last = int(message.split(b'"last": ', 1)[1].split(b",", 1)[0])
                pictures_out.write(b"GET " + picture + b" HTTP/1.1\r\nHost: " + host.encode() + b"\r\n\r\n")
                head = await pictures_in.readuntil(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length:", 1)[1].split(b"\r\n", 1)[0])
                await pictures_in.readexactly(length)
                if not head.startswith(b"HTTP/1.1 200"):
                    failures += 1
                seen.append((last, time.time()))
        finally:
            stream_out.close()
            pictures_out.close()

    tasks = []
    for _ in range(count):
        opened = asyncio.Event()
        tasks.append(asyncio.create_task(watcher(opened)))
        await opened.wait()
    ready.set()
    started = cpu_seconds(os.getpid())
    while not stop.is_set():
        await asyncio.sleep(0.1)
    used = cpu_seconds(os.getpid()) - started
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    results.put((seen, failures, used))


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used (user and system), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return round((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), 2)


def peak_memory_mb(pid: int) -> tuple[float, float]:
    """A process's resident memory now and at its peak, in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            fields[line.split(":")[0]] = round(int(line.split()[1]) / 1024, 1)
    return fields.get("VmRSS", 0.0), fields.get("VmHWM", 0.0)


async def crowd_times(referee: Referee, web: WebProcess, watchers: int, moves: int, niceness: int) -> None:
    rng = random.Random(5)
    without = []
    alone = "bench:crowd:alone"
    await new_table(referee, alone)
    for _ in range(moves):  # the player's moves with nobody watching, at a table of their own
        moved = await move(referee, alone, rng)
        if moved is None:
            break
        without.append(moved[2] * 1000)
        await asyncio.sleep(0.5)
    place = "bench:crowd"
    path = await new_table(referee, place)  # a fresh game for the watchers, so it lasts as long
    context = multiprocessing.get_context("spawn")
    ready, stop, results = context.Event(), context.Event(), context.Queue()
    client = context.Process(target=crowd, args=(web.public_url, path, watchers, ready, results, stop, niceness))
    client.start()
    opening = time.perf_counter()
    while not ready.is_set():
        await asyncio.sleep(0.1)
    opened_in = time.perf_counter() - opening
    pids = [process.pid for process in web.processes]
    rss_idle = sum(peak_memory_mb(pid)[0] for pid in pids)
    web_cpu = sum(cpu_seconds(pid) for pid in pids)
    bot_cpu = cpu_seconds(os.getpid())
    with_them = []
    commits: dict[int, float] = {}
    for _ in range(moves):
        moved = await move(referee, place, rng)
        if moved is None:
            break
        ply, at, took = moved
        commits[ply] = at
        with_them.append(took * 1000)
        await asyncio.sleep(1.0)  # players take turns: a move a second is a fast game
    await asyncio.sleep(2.0)
    stop.set()
    web_cpu = sum(cpu_seconds(pid) for pid in pids) - web_cpu
    bot_cpu = cpu_seconds(os.getpid()) - bot_cpu
    seen, failures, client_cpu = results.get(timeout=60)
    client.join(30)
    rss = sum(peak_memory_mb(pid)[0] for pid in pids)
    peak = sum(peak_memory_mb(pid)[1] for pid in pids)
    delays = [(when - commits[ply]) * 1000 for ply, when in seen if ply in commits]
    expected = watchers * len(commits)
    emit(bench="crowd", watchers=watchers, web_processes=len(pids), moves=len(commits),
         streams_opened_s=round(opened_in, 1),
         move_without_p50_ms=p50(without), move_without_p95_ms=p95(without),
         move_with_p50_ms=p50(with_them), move_with_p95_ms=p95(with_them),
         move_p95_ratio=round(p95(with_them) / max(0.001, p95(without)), 2),
         updates_received=len(delays), updates_expected=expected, picture_failures=failures,
         commit_to_watcher_p50_ms=p50(delays) if delays else None,
         commit_to_watcher_p95_ms=p95(delays) if delays else None,
         web_rss_mb_with_streams=rss_idle, web_rss_mb_after=rss, web_peak_rss_mb=peak,
         web_cpu_ms_per_watcher_update=round(web_cpu * 1000 / max(1, len(delays)), 3),
         cpu_seconds_per_move={"web": round(web_cpu / max(1, len(commits)), 3),
                               "bot": round(bot_cpu / max(1, len(commits)), 3),
                               "watchers_total": round(client_cpu / max(1, len(commits)), 3)},
         load_average=os.getloadavg()[0], client_niceness=niceness,
         note="a watcher is updated once it has the event and the picture it names")


async def two_processes(address: str) -> None:
    """Two web processes on one PostgreSQL database, one watcher on each: a move reaches both."""
    store = store_for(address)
    await store.open()
    referee = Referee(store, clock=SystemClock(), render=False, confirms_delivery=False, ai_seconds=0.0,
                      public_url="http://placeholder")
    webs = [await start_web_process(address, ANY_PORT) for _ in range(2)]
    try:
        path = await new_table(referee, f"bench:two:{time.time()}")
        async with aiohttp.ClientSession() as session:
            streams = [await session.get(f"{web.public_url}{path}/live") for web in webs]
            for stream in streams:
                await stream.content.readuntil(b"\n\n")
            await asyncio.sleep(0.5)
            table = await store.table_by_token(path.rsplit("/", 1)[1])
            assert table is not None
            moved = await move(referee, table.place, random.Random(6))
            assert moved is not None
            ply, at, _took = moved

            async def told(stream: aiohttp.ClientResponse) -> float:
                while True:
                    message = (await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 10)).decode()
                    if "event: change" in message and json.loads(message.split("data: ", 1)[1]).get("last") == ply:
                        return (time.time() - at) * 1000

            delays = await asyncio.gather(*(told(stream) for stream in streams), return_exceptions=True)
            for stream in streams:
                stream.close()
        good = [d for d in delays if isinstance(d, float)]
        emit(bench="two_processes", database="postgresql", web_processes=2, both_updated=len(good) == 2,
             commit_to_stream_ms=[round(d, 1) for d in good])
    finally:
        for web in webs:
            await web.stop()
        await referee.close()
        await store.close()


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
    only = set(args.only.split(","))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        store = SQLiteStore(path, synchronous="OFF")
        await store.open()
        if "page" in only:
            started = time.perf_counter()
            tokens = await fill(store, args.tables, args.moves)
            emit(bench="setup", tables=len(tokens), seconds=round(time.perf_counter() - started, 1))
        web = await start_web_process(str(path), ANY_PORT, processes=args.web_processes)
        referee = Referee(store, clock=SystemClock(), render=True, confirms_delivery=False, ai_seconds=0.0,
                          public_url=web.public_url)
        await referee.open()
        try:
            if "page" in only:
                await page_times(web.public_url, tokens, args.samples)
            if "update" in only:
                await update_times(referee, web.public_url, args.updates, args.pages)
            if "crowd" in only:
                await crowd_times(referee, web, args.watchers, args.crowd_moves, args.client_nice)
        finally:
            await web.stop()
            await referee.close()
            await store.close()
    if "two_processes" in only:
        if args.postgres:
            joiner = "&" if "?" in args.postgres else "?"
            await two_processes(f"{args.postgres}{joiner}search_path=bench_web")  # a schema of its own
        else:
            emit(bench="two_processes", skipped="give --postgres or set TILEREF_TEST_POSTGRES")
    if "replay_gif" in only:
        long_game_gif()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--updates", type=int, default=30)
    parser.add_argument("--pages", type=int, default=10)
    parser.add_argument("--watchers", type=int, default=2000)
    parser.add_argument("--crowd-moves", type=int, default=60)
    parser.add_argument("--web-processes", type=int, default=1,
                        help="web processes sharing the port (TILEREF_WEB_PROCESSES)")
    parser.add_argument("--client-nice", type=int, default=0,
                        help="the watchers' process's niceness (they stand for browsers on other machines)")
    parser.add_argument("--postgres", default=os.environ.get("TILEREF_TEST_POSTGRES"))
    parser.add_argument("--only", default="page,update,crowd,two_processes,replay_gif")
    asyncio.run(main(parser.parse_args()))
