"""How long a person waits at tables with AI seats, through the Discord stand-in and a real bot
process (`tileref run` as the crash tests start it, on an SQLite file): prints JSON lines.

- `board`, per game: a table of one person and three bot seats at the default budget (2 s a
  move; Tromino Go is played by two: one bot): from the person's `/move` to their own board
  message (median and p95 ms), and the Discord API calls the bot makes per move of the person,
  everything from the command until the AI seats are done (the answer, the typing indicator,
  the AI seats' message, private notes).
- `crowd`: a table of two people, `/move` p95 with no AI thinking anywhere and while the AI
  seats of 20 other tables (four bots each) play without pause (blocks of moves taken in turn,
  the crowd stopped by `/mod pause` between), the ratio (target ≤ 1.5), and how many AI moves
  the crowd made while it was measured.

    .venv/bin/python bench/ai_tables.py [--moves 20] [--games tronimoes,tetromic] [--crowd 20] [--ai-processes N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.records import AI_TURN, PLAYING
from bot.storage.address import store_for
from bot.storage.loader import GameLoader
from bot.storage.store import Store
from bot.workers.planning import PROCESSES_SETTING, processes_from
from engine import GAMES, Game
from tests.standin import Channel, DiscordStandIn, User

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = {"tromino_go": 1}
"""Bot seats per game where the game cannot seat three besides the person."""


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def start_bot(s: DiscordStandIn, database: Path, processes: int | None) -> subprocess.Popen[bytes]:
    """The bot in a process of its own (`processes`: its planning pool's size; None: the default)."""
    env = dict(os.environ)
    if processes is not None:
        env[PROCESSES_SETTING] = str(processes)
    return subprocess.Popen(
        [sys.executable, "-m", "tests.bot.adapters.discordbot.bot_process", s.api_base, s.gateway_url,
         str(database), str(s.guild.id), s.token], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)


async def open_table(s: DiscordStandIn, game: str, bots: int, people: tuple[User, ...]) -> Channel:
    first, *others = people
    announced = await (await s.slash(first, s.channel, "tileref new", game=game)).reply(timeout=60)
    thread = await s.wait_for_thread(lambda t: t.id == announced.id)
    lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
    for other in others:
        lobby = await (await s.click(other, lobby, label="Join")).reply(timeout=60)
    for _ in range(bots):
        lobby = await (await s.click(first, lobby, label="Add bot")).reply(timeout=60)
    await (await s.click(first, lobby, label="Start")).replies(2, timeout=60)
    return thread


async def settled(store: Store, table_id: int) -> None:
    """Until no AI turn is due and every announcement is delivered."""
    while True:
        turns = [t for t in await store.timers(table_id) if t.kind == AI_TURN]
        if not turns and not await store.pending_notices(table_id):
            return
        await asyncio.sleep(0.05)


async def game_at(store: Store, loader: GameLoader, thread: Channel) -> tuple[int, str, Game]:
    table = await store.table_at(f"discord:{thread.id}")
    assert table is not None
    return table.id, table.status, await loader.get(table)


async def play_one(s: DiscordStandIn, user: User, thread: Channel, action: str) -> float:
    """`/move action`; milliseconds until the answer (the board) arrived."""
    start = time.perf_counter()
    handle = await s.slash(user, thread, "move", text=action)
    reply = await handle.reply(timeout=60)
    elapsed = (time.perf_counter() - start) * 1000
    assert not reply.ephemeral and reply.png_images(), reply.content  # the board, for everyone
    return elapsed


async def board_case(s: DiscordStandIn, store: Store, game: str, moves: int) -> dict[str, object]:
    loader = GameLoader(store)
    bots = PLAYERS.get(game, 3)
    thread = await open_table(s, game, bots, (s.alice,))
    times: list[float] = []
    calls: list[int] = []
    while len(times) < moves:
        table_id, status, _ = await game_at(store, loader, thread)
        await settled(store, table_id)
        table_id, status, state = await game_at(store, loader, thread)
        if status != PLAYING:
            thread = await open_table(s, game, bots, (s.alice,))
            continue
        if 0 not in state.to_move():
            await asyncio.sleep(0.05)
            continue
        before = len(s.requests)
        times.append(await play_one(s, s.alice, thread, state.legal_actions(0)[0]))
        await settled(store, table_id)
        calls.append(len(s.requests) - before)
    return {"case": "board", "game": game, "bots": bots, "n": len(times),
            "median_ms": round(statistics.median(times), 1), "p95_ms": round(percentile(times, 0.95), 1),
            "api_calls_per_move": round(statistics.mean(calls), 2), "api_calls_max": max(calls)}


async def people_moves(s: DiscordStandIn, store: Store, thread: Channel, moves: int) -> list[float]:
    """`moves` moves at a table of alice and bob (new tables as games end); their times."""
    loader = GameLoader(store)
    people = (s.alice, s.bob)
    times: list[float] = []
    while len(times) < moves:
        _, status, state = await game_at(store, loader, thread)
        if status != PLAYING:
            thread = await open_table(s, "tronimoes", 0, people)
            continue
        seat = state.to_move()[0]
        times.append(await play_one(s, people[seat], thread, state.legal_actions(seat)[0]))
    return times


async def set_crowd(s: DiscordStandIn, threads: list[Channel], command: str) -> None:
    """`/mod pause` or `/mod resume` at every crowd table (a pause stops AI seats too)."""
    for thread in threads:
        await (await s.slash(s.mod, thread, f"mod {command}")).reply(timeout=60)


async def ai_moves(store: Store, threads: list[Channel]) -> int:
    """AI moves logged so far at the crowd tables."""
    count = 0
    for thread in threads:
        table = await store.table_at(f"discord:{thread.id}")
        assert table is not None
        count += sum(a.actor.startswith("ai:") for a in await store.actions(table.id))
    return count


async def crowd_case(s: DiscordStandIn, store: Store, crowd: int, moves: int) -> list[dict[str, object]]:
    """Blocks of `moves` moves at a table of two people, taken in turn with the crowd's AI
    seats paused and playing (three blocks each, so a machine that gets busier or quieter
    meanwhile weighs on both alike), after a warm-up."""
    thread = await open_table(s, "tronimoes", 0, (s.alice, s.bob))
    await people_moves(s, store, thread, 10)  # warm-up: caches, first pictures
    threads = [await open_table(s, "tronimoes", 4, (s.carol,)) for _ in range(crowd)]  # four bots each
    await set_crowd(s, threads, "pause")
    quiet: list[float] = []
    busy: list[float] = []
    played = 0
    for _ in range(3):
        quiet += await people_moves(s, store, thread, moves)
        await set_crowd(s, threads, "resume")
        await asyncio.sleep(3)  # every crowd table thinking again
        before = await ai_moves(store, threads)
        busy += await people_moves(s, store, thread, moves)
        played += await ai_moves(store, threads) - before
        await set_crowd(s, threads, "pause")
    rows: list[dict[str, object]] = []
    for case, times in (("/move, no AI thinking", quiet), (f"/move, {crowd} tables' AI thinking", busy)):
        rows.append({"case": "crowd", "what": case, "n": len(times), "median_ms": round(statistics.median(times), 1),
                     "p95_ms": round(percentile(times, 0.95), 1)})
    ratio = round(float(rows[1]["p95_ms"]) / float(rows[0]["p95_ms"]), 2)  # type: ignore[arg-type]
    rows.append({"case": "crowd", "what": "p95 ratio", "ratio": ratio, "ai_moves_while_measured": played})
    return rows


async def run(games: list[str], moves: int, crowd: int, processes: int | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.sqlite3"
        async with DiscordStandIn(default_timeout=60) as s:
            process = start_bot(s, database, processes)
            store = store_for(str(database))
            try:
                await s.wait_for_connection(timeout=60)
                await asyncio.sleep(1)
                await store.open()
                for game in games:
                    print(json.dumps(await board_case(s, store, game, moves)), flush=True)
                if crowd:
                    pool = processes or processes_from(os.environ.get(PROCESSES_SETTING))
                    for row in await crowd_case(s, store, crowd, max(moves, 20)):
                        print(json.dumps({**row, "planning_processes": pool}), flush=True)
            finally:
                await store.close()
                process.kill()
                process.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20, help="moves of the person timed per game")
    parser.add_argument("--games", default=",".join(sorted(GAMES)), help="games for the board case")
    parser.add_argument("--crowd", type=int, default=20, help="AI tables thinking in the crowd case (0: skip it)")
    parser.add_argument("--ai-processes", type=int, help="the bot's planning processes (default: as the bot chooses)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    started = time.perf_counter()
    asyncio.run(run([g for g in args.games.split(",") if g], args.moves, args.crowd, args.ai_processes))
    print(json.dumps({"case": "total", "seconds": round(time.perf_counter() - started, 1)}))


if __name__ == "__main__":
    main()
