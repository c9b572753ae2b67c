"""Exactly-once announcements under SIGKILL: the real bot (`tileref run`'s `serve`) in a process of
its own against the Discord stand-in, killed with SIGKILL again and again while players move, by
typing the move (the bot posts the announcement, with its nonce) or with `/move` (the
announcement is the interaction's answer). Most kills fall between Discord creating a move's
announcement and the bot learning it did (the stand-in holds the answer to that request until
the bot is dead); the rest at a random moment shortly after a move is made. After each kill a
new process starts on the same SQLite file and its outbox sends whatever was left unconfirmed.

At the end every announcement must be in its thread exactly once. Prints one JSON line:
kills, how many fell between delivering and confirming, moves announced, announcements the
stand-in was asked to post again and answered with the first message (enforce_nonce), and
duplicates and losses counted from the threads against the outbox rows.

    .venv/bin/python bench/outbox_soak.py [--kills 30] [--moves-per-life 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.bot.adapters.discordbot.bot_process import spawn, started_two_player_table, stop
from tests.standin import Channel, DiscordStandIn, RecordedMessage, StandInTimeout, User

ANSWERING = r"/interactions/\d+/[^/]+/callback|/webhooks/\d+/[^/]+"


def is_board(message: RecordedMessage, threads: set[int]) -> bool:
    """A board the bot posted in a game thread, by itself or answering a command (a message
    created with it, or a "thinking…" placeholder filled with it)."""
    return message.channel_id in threads and not message.ephemeral and bool(message.png_images())


def boards(messages: list[RecordedMessage], threads: set[int]) -> dict[int, RecordedMessage]:
    """Every board posted in `threads`, by message id (its latest snapshot)."""
    return {m.id: m for m in messages if is_board(m, threads)}


class Soak:
    def __init__(self, s: DiscordStandIn, database: Path, rng: random.Random) -> None:
        self.s = s
        self.database = database
        self.rng = rng
        self.threads: dict[int, Channel] = {}
        self.thread: Channel | None = None
        self.next_mover: User | None = None
        self.between = 0
        self.moves = {True: 0, False: 0}
        self.logs: list[Path] = []
        self.kills = 0

    def start(self) -> subprocess.Popen[bytes]:
        log = self.database.with_name(f"bot-{len(self.logs)}.log")
        self.logs.append(log)
        return spawn(self.s.api_base, self.s.gateway_url, self.database, self.s.guild.id, self.s.token, log=log)

    async def open_table(self) -> None:
        thread, self.next_mover = await started_two_player_table(self.s)
        self.thread = thread
        self.threads[thread.id] = thread

    def _mentioned(self, message: RecordedMessage) -> User | None:
        ids = {int(u["id"]) for u in message.payload.get("mentions", [])}
        return next((u for u in (self.s.alice, self.s.bob) if u.id in ids), None)

    async def legal_move(self) -> tuple[User, str] | None:
        """Someone to move and a move of theirs, or None when neither has one (round over)."""
        assert self.thread is not None
        for user in (self.next_mover, self.s.bob if self.next_mover is self.s.alice else self.s.alice):
            assert user is not None
            choices = await self.s.autocomplete(user, self.thread, "move", text="")
            if choices:
                return user, str(choices[0]["value"])
        return None

    async def life(self, moves: int) -> None:
        """Start a bot, type moves (waiting for each announcement), and kill it on the last."""
        s = self.s
        ready = s.gateway.ready_count
        process = self.start()
        await s.wait_for_connection(after=ready)
        try:
            if self.thread is None:
                await self.open_table()
            for number in range(moves):
                found = await self.legal_move()
                if found is None:
                    await self.open_table()
                    found = await self.legal_move()
                    if found is None:
                        continue
                user, move = found
                last = number == moves - 1
                thread = self.thread
                assert thread is not None
                between = last and self.rng.random() < 0.75
                typed = self.rng.random() < 0.5
                path = rf"/channels/{thread.id}/messages" if typed else ANSWERING
                holds = [s.hold("POST", path, after=True) for _ in range(1 if typed else 2)] if between else []
                mark = s.mark()
                if typed:
                    await s.say(user, thread, move)
                else:
                    await s.slash(user, thread, "move", text=move)
                self.moves[typed] += 1
                if holds:
                    for _ in range(600):  # until the announcement is on Discord, its answer held
                        if any(is_board(m, {thread.id}) for m in s.messages[mark:]):
                            break
                        if holds[0].reached.is_set() and not holds[0].released.is_set():
                            holds[0].release()  # only a "thinking…" acknowledgement so far
                        await asyncio.sleep(0.05)
                    self.between += 1
                    process.send_signal(signal.SIGKILL)
                    process.wait(10)
                    return
                if last:
                    await asyncio.sleep(self.rng.uniform(0.0, 0.3))
                    return
                try:
                    board = await s.wait_for_message(self.thread, lambda m: bool(m.png_images()), since=mark,
                                                     timeout=20)
                    self.next_mover = self._mentioned(board) or user
                except StandInTimeout:
                    return
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
                process.wait(10)
            for hold in list(s.holds):
                hold.release()
                s.holds.remove(hold)

    async def drain(self) -> None:
        """One last process, until the outbox holds nothing unsent."""
        ready = self.s.gateway.ready_count
        process = self.start()
        try:
            await self.s.wait_for_connection(after=ready)
            for _ in range(600):
                with sqlite3.connect(self.database) as db:
                    left = db.execute("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL").fetchone()[0]
                if left == 0:
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(1.0)
        finally:
            stop(process)

    def figures(self) -> dict[str, object]:
        posted = list(boards(self.s.messages, set(self.threads)).values())
        with sqlite3.connect(self.database) as db:
            expected = db.execute("SELECT COUNT(*) FROM outbox WHERE seat IS NULL").fetchone()[0]
            unsent = db.execute("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL").fetchone()[0]
        by_content: dict[tuple[int, str], int] = {}
        for message in posted:
            key = (message.channel_id, message.content)
            by_content[key] = by_content.get(key, 0) + 1
        return {"case": "sigkill_soak", "kills": self.kills, "kills_between_delivering_and_confirming": self.between,
                "moves_typed": self.moves[True], "moves_by_slash_command": self.moves[False],
                "announcements_expected": expected, "announcements_posted": len(posted),
                "duplicates": max(0, len(posted) - expected), "lost": max(0, expected - len(posted)),
                "same_text_twice": sum(n - 1 for n in by_content.values()),
                "resends_answered_with_the_first_message": len(self.s.nonce_repeats),
                "resends_found_answered_already": self.found_answered(), "unsent_left": unsent}

    def found_answered(self) -> int:
        """How often a process found a `/move`'s announcement already out (from the bot's logs)."""
        return sum(path.read_text().count("was out already") for path in self.logs)


async def run(kills: int, moves_per_life: int, seed: int) -> None:
    rng = random.Random(seed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        async with DiscordStandIn(default_timeout=30) as s:
            soak = Soak(s, Path(folder) / "tileref.sqlite3", rng)
            for _ in range(kills):
                await soak.life(rng.randint(1, moves_per_life))
                soak.kills += 1
            await soak.drain()
            figures = soak.figures()
    figures["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--moves-per-life", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.kills, args.moves_per_life, args.seed))


if __name__ == "__main__":
    main()
