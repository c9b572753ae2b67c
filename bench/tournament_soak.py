"""Exactly-once tournaments under SIGKILL: the SIGKILL soak of bench/outbox_soak.py, for a
tournament the bot runs unattended.

The real bot (`tileref run`'s `serve`, in tests/bot/adapters/discordbot/bot_process.py) runs
against the Discord stand-in and is killed with SIGKILL again and again while a round robin
plays out: a moderator creates it (`/tournament new`), everyone signs up with the announcement's
button, it starts by itself; then, life after life, players resign their games in their threads
(`/resign`, Confirm) and the process is killed at one of two moments:

- while it makes a board's thread (the stand-in makes the thread and holds the answer until the
  bot is dead, so the bot never learns of it);
- at a random moment shortly after a resignation (results being recorded, a round closing, the
  next round being paired and its tables opened, messages being posted).

A last process runs until the tournament is over and every message is out. Then the database and
the channel are checked: rounds paired (`rounds`, of `rounds_expected`), rounds left open with
all their games done (`stuck`), boards with more than one table or none (`boards_doubled`,
`boards_without_table`), the tournament's messages posted more than once or never (`duplicates`,
`lost`, by each message's nonce), and whether it finished with a winner. Prints one JSON line per
database; `stuck`, `boards_doubled`, `boards_without_table`, `duplicates` and `lost` must be 0.

    .venv/bin/python bench/tournament_soak.py [--databases sqlite,postgresql] [--players 6] [--kills 6]
        [--seed 1] [--keep]

PostgreSQL: the server at $TILEREF_TEST_POSTGRES, a schema of its own, dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.outbox_soak import DATABASES, Database
from tests.bot.adapters.discordbot.bot_process import spawn, stop
from tests.standin import DiscordStandIn, StandInTimeout, User

NAME = "Soak Cup"


class TournamentSoak:
    """One database: lives of the bot, each a few resignations and a kill."""

    def __init__(self, s: DiscordStandIn, db: Database, folder: Path, rng: random.Random) -> None:
        self.s, self.db, self.folder, self.rng = s, db, folder, rng
        self.process: subprocess.Popen[bytes] | None = None
        self.lives = 0
        self.counts: Counter[str] = Counter()

    async def start(self) -> None:
        ready = self.s.gateway.ready_count
        self.process = spawn(self.s.api_base, self.s.gateway_url, self.db.address, self.s.guild.id, self.s.token,
                             log=self.folder / f"bot-{self.lives}.log")
        self.lives += 1
        await self.s.wait_for_connection(after=ready)

    def kill(self, moment: str) -> None:
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.counts[f"kills_{moment}"] += 1
        for hold in list(self.s.holds):
            hold.release()
            self.s.holds.remove(hold)

    async def status(self) -> str | None:
        return await self.db.value("SELECT status FROM tournaments WHERE name = ?", NAME)

    async def open_games(self) -> list[tuple[str, str]]:
        """(place, user id of the second seat) of every game of the tournament being played."""
        rows = await self.db.rows(
            "SELECT t.place, s.user_id FROM boards b JOIN tables t ON t.id = b.table_id JOIN seats s ON"
            " s.table_id = t.id AND s.seat = 1 WHERE b.result IS NULL AND t.status = 'playing'")
        return [(str(place), str(user)) for place, user in rows]

    async def resign_one(self, people: dict[str, User]) -> bool:
        """A player resigns one game of the round; False if none is being played."""
        games = await self.open_games()
        if not games:
            return False
        place, user_id = self.rng.choice(games)
        user = people[user_id]
        thread = int(place.removeprefix("discord:"))
        preview = await (await self.s.slash(user, thread, "resign")).reply()
        if preview.button("Confirm") is None:
            return True
        await (await self.s.click(user, preview, label="Confirm")).replies(1)
        self.counts["resignations"] += 1
        return True

    async def life(self, people: dict[str, User]) -> None:
        await self.start()
        try:
            if self.rng.random() < 0.4:
                hold = self.s.hold("POST", r"/channels/\d+/threads", after=True)
                for _ in range(6):  # until a round closes and the next one's threads are being made
                    if not await self.resign_one(people):
                        await asyncio.sleep(0.5)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(hold.reached.wait(), 2.0)
                    if hold.reached.is_set():
                        break
                await asyncio.sleep(self.rng.uniform(0.0, 0.3))
                self.kill("making_a_thread" if hold.reached.is_set() else "random")
                return
            for _ in range(self.rng.randint(1, 3)):
                await self.resign_one(people)
            await asyncio.sleep(self.rng.uniform(0.0, 1.5))
            self.kill("random")
        except StandInTimeout:
            self.counts["stand_in_timeouts"] += 1
            self.kill("random")

    async def finish(self, people: dict[str, User], timeout: float = 240.0) -> None:
        """A last process plays the tournament to its end and sends what is left."""
        await self.start()
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                status = await self.status()
                unsent = await self.db.value("SELECT COUNT(*) FROM tournament_messages WHERE delivered_at IS NULL")
                if status in ("finished", "cancelled") and not unsent:
                    return
                try:
                    if not await self.resign_one(people):
                        await asyncio.sleep(0.5)
                except StandInTimeout:  # a bot too slow to answer (a busy machine): the player tries again
                    self.counts["stand_in_timeouts"] += 1
        finally:
            assert self.process is not None
            stop(self.process)

    async def figures(self, players: int) -> dict[str, Any]:
        tid = await self.db.value("SELECT id FROM tournaments WHERE name = ?", NAME)
        rounds = await self.db.rows("SELECT number, closed_at FROM tournament_rounds WHERE tournament_id = ?", tid)
        boards = await self.db.rows("SELECT round, board, table_id, result FROM boards WHERE tournament_id = ?", tid)
        tables = await self.db.rows("SELECT meta FROM tables")
        marks = Counter(tuple(json.loads(meta)["tournament"]) for (meta,) in tables if '"tournament"' in meta)
        by_round: dict[int, list[Any]] = {}
        for board in boards:
            by_round.setdefault(int(board[0]), []).append(board)
        stuck = sum(1 for number, closed in rounds if closed is None
                    and all(b[3] is not None for b in by_round.get(int(number), [])))
        messages = await self.db.rows("SELECT id, delivered_at FROM tournament_messages WHERE tournament_id = ?", tid)
        posted = Counter(m.payload.get("nonce") for m in self.s.messages if m.kind == "create")
        return {
            "case": "tournament_sigkill_soak", "database": self.db.kind, "players": players, "lives": self.lives,
            **dict(self.counts), "status": await self.status(), "rounds": len(rounds),
            "rounds_expected": players - 1 + players % 2, "stuck": stuck,
            "boards": len(boards), "boards_doubled": sum(1 for n in marks.values() if n > 1),
            "boards_without_table": sum(1 for b in boards if b[2] is None and b[3] is None),
            "messages": len(messages),
            "duplicates": sum(max(0, posted[f"tt{m[0]}.0"] - 1) for m in messages),
            "lost": sum(1 for m in messages if posted[f"tt{m[0]}.0"] == 0),
        }


async def soak_one(kind: str, *, players: int, kills: int, seed: int, folder: Path) -> dict[str, Any]:
    folder.mkdir(parents=True, exist_ok=True)
    db = Database(kind, folder)
    started = time.perf_counter()
    try:
        async with DiscordStandIn(default_timeout=60) as s:  # a busy machine starts a bot slowly
            soak = TournamentSoak(s, db, folder, random.Random(seed))
            entrants = [s.alice, s.bob, s.carol, s.mod] + [s.add_user(f"player{i}") for i in range(players - 4)]
            people = {f"discord:{u.id}": u for u in entrants}
            await soak.start()
            await (await s.slash(s.mod, s.channel, "tournament new", game="tromino_go", format="round_robin",
                                 start="20s", name=NAME, round_time="1d")).reply()
            announcement = await s.wait_for_message(s.channel, lambda m: NAME in m.content and bool(m.buttons()))
            for user in entrants:
                await (await s.click(user, announcement, label="Sign up")).reply()
            while await soak.status() == "signup":
                await asyncio.sleep(0.5)
            soak.kill("random")
            for _ in range(kills):
                await soak.life(people)
            await soak.finish(people)
            figures = await soak.figures(players)
    finally:
        await db.drop()
    figures["seconds"] = round(time.perf_counter() - started, 1)
    return figures


async def run(databases: list[str], *, players: int, kills: int, seed: int, keep: bool) -> list[dict[str, Any]]:
    root = Path(tempfile.mkdtemp(prefix="tournament-soak-"))
    lines = []
    try:
        for kind in databases:
            figures = await soak_one(kind, players=players, kills=kills, seed=seed, folder=root / kind)
            if keep:
                figures["folder"] = str(root / kind)
            print(json.dumps(figures), flush=True)
            lines.append(figures)
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--databases", default=",".join(DATABASES), help="sqlite, postgresql or both (default)")
    parser.add_argument("--players", type=int, default=6, help="entrants of the round robin (4 to 16)")
    parser.add_argument("--kills", type=int, default=6, help="process lives, each ended by a SIGKILL")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the databases and the bot logs")
    args = parser.parse_args()
    databases = [d.strip() for d in args.databases.split(",") if d.strip()]
    if any(d not in DATABASES for d in databases) or not 4 <= args.players <= 16:
        parser.error("databases: sqlite, postgresql; players: 4 to 16")
    asyncio.run(run(databases, players=args.players, kills=args.kills, seed=args.seed, keep=args.keep))


if __name__ == "__main__":
    main()
