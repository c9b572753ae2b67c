"""What /leaderboard, /profile and /games cost on a big server: 100,000 finished rated games and
5,000 players in one server (and 1,000 unfinished tables), on PostgreSQL (the default, in a
schema of its own dropped afterwards) or an SQLite file (`--database path.sqlite3`).

Prints one JSON line per command: median and p95 over `--asks` asks by random players, each the
whole answer's text as the command builds it (every query behind it). Target: p95 <= 50 ms each
on PostgreSQL. The rows are written straight into the tables (the ratings' figures are random:
what is measured is reading them), then vacuumed and analysed, as autovacuum leaves tables
that have settled (PostgreSQL's counts then read the index alone).

    python bench/leaderboards.py [--games 100000] [--players 5000] [--asks 300]
                            [--database postgresql://postgres@127.0.0.1:5432/test]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import benchpath  # noqa: F401  (first: takes bench/ off the import path)

from bot.community.leaderboards import leaderboard_text, profile_text
from bot.community.my_games import games_text
from bot.storage.address import is_postgres, store_for
from bot.storage.standings import PROVISIONAL_GAMES, figure
from bot.storage.store import Store
from engine import GAMES

GUILD = "discord:1"


def rows(games: int, players: int, open_tables: int, rng: random.Random) -> dict[str, list[tuple[Any, ...]]]:
    """Tables, seats, results and ratings of one server, as plain rows."""
    names = sorted(GAMES)
    tables, seats, results = [], [], []
    played: dict[tuple[str, str], list[int]] = {}
    for table_id in range(1, games + open_tables + 1):
        game = names[table_id % len(names)]
        finished = table_id <= games
        status = "finished" if finished else rng.choice(["playing", "lobby"])
        tables.append((table_id, f"discord:{10_000 + table_id}", GUILD, game, "{}", status, table_id, 86400, 0,
                       "discord:1", float(table_id), json.dumps({"waiting": [0]} if status == "playing" else {}), 0))
        who = rng.sample(range(players), rng.choice([2, 2, 3, 4]))
        for seat, player in enumerate(who):
            user = f"discord:{100 + player}"
            seats.append((table_id, seat, f"player{player}", user, None))
            if finished:
                played.setdefault((game, user), []).append(table_id)
                rank = seat + 1
                mu = rng.uniform(15, 35)
                beaten = rng.random() < 0.2
                results.append((table_id, seat, GUILD, game, f"discord:{10_000 + table_id}", user, f"player{player}",
                                rank, seat, len(who), "win" if rank == 1 else "loss", float(table_id), mu, 3.0,
                                mu + 0.5, 2.9,
                                "someone" if beaten else None, rng.uniform(600, 1400) if beaten else None))
    ratings = []
    for (game, user), ids in played.items():
        mu, sigma = rng.uniform(15, 35), rng.uniform(1, 8)
        ratings.append((GUILD, game, user, f"player{user}", mu, sigma, figure(mu), int(len(ids) >= PROVISIONAL_GAMES),
                        len(ids), len(ids) // 3, len(ids) // 10))
    return {"tables": tables, "seats": seats, "results": results, "ratings": ratings}


COLUMNS = {
    "tables": "id, place, guild, game, options, status, seed, turn_seconds, paused, created_by, created_at, meta,"
              " version",
    "seats": "table_id, seat, name, user_id, agent",
    "results": "table_id, seat, guild, game, place, player, name, rank, team, entrants, outcome, finished_at,"
               " mu_before, sigma_before, mu, sigma, beaten_name, beaten_score",
    "ratings": "guild, game, player, name, mu, sigma, score, settled, games, wins, draws",
}


async def fill(store: Store, data: dict[str, list[tuple[Any, ...]]]) -> None:
    if hasattr(store, "pool"):
        async with store.pool.acquire() as db:  # type: ignore[attr-defined]
            for name, values in data.items():
                await db.copy_records_to_table(name, records=values,
                                               columns=[c.strip() for c in COLUMNS[name].split(",")])
            await db.execute("VACUUM ANALYZE")  # as autovacuum leaves a table that has settled
        return
    async with store._transaction() as db:  # type: ignore[attr-defined]
        for name, values in data.items():
            marks = ", ".join("?" for _ in COLUMNS[name].split(","))
            await db.executemany(f"INSERT INTO {name} ({COLUMNS[name]}) VALUES ({marks})", values)
        await db.execute("ANALYZE")


async def timed(asks: int, ask: Callable[[int], Awaitable[str]]) -> dict[str, float]:
    spent = []
    for number in range(asks):
        began = time.perf_counter()
        await ask(number)
        spent.append((time.perf_counter() - began) * 1000)
    spent.sort()
    return {"median_ms": round(statistics.median(spent), 2), "p95_ms": round(spent[int(len(spent) * 0.95) - 1], 2)}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=5_000)
    parser.add_argument("--open", type=int, default=1_000)
    parser.add_argument("--asks", type=int, default=300)
    parser.add_argument("--database", default="postgresql://postgres@127.0.0.1:5432/test")
    args = parser.parse_args()
    rng = random.Random(26)
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    address = f"{args.database}?search_path={schema}" if is_postgres(args.database) else args.database
    folder = None
    if not is_postgres(args.database) and args.database == "sqlite":
        folder = tempfile.TemporaryDirectory()
        address = str(Path(folder.name) / "records.sqlite3")
    store = store_for(address)
    await store.open()
    try:
        began = time.perf_counter()
        data = rows(args.games, args.players, args.open, rng)
        await fill(store, data)
        base = {"database": "postgresql" if is_postgres(address) else "sqlite", "games": args.games,
                "players": args.players, "results": len(data["results"]), "ratings": len(data["ratings"]),
                "fill_seconds": round(time.perf_counter() - began, 1)}
        games = sorted(GAMES)

        def player(number: int) -> str:
            return f"discord:{100 + rng.randrange(args.players)}"

        commands: dict[str, Callable[[int], Awaitable[str]]] = {
            "/leaderboard": lambda n: leaderboard_text(store, GUILD, games[n % len(games)], player(n),
                                                       1 + rng.randrange(3)),
            "/profile": lambda n: profile_text(store, GUILD, player(n), "someone"),
            "/games": lambda n: games_text(store, GUILD, player(n)),
        }
        for name, ask in commands.items():
            await timed(20, ask)  # connections opened, plans cached
            print(json.dumps({"command": name, **base, **await timed(args.asks, ask), "target_p95_ms": 50}),
                  flush=True)
    finally:
        if hasattr(store, "drop_schema"):
            await store.drop_schema()
        else:
            await store.close()
        if folder is not None:
            folder.cleanup()


if __name__ == "__main__":
    asyncio.run(main())
