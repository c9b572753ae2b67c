"""Exactly-once announcements under SIGKILL, for all five games on both databases.

The real bot (`tileref run`'s `serve`, in tests/bot/adapters/discordbot/bot_process.py) runs in a
process of its own against the Discord stand-in and is killed with SIGKILL again and again while
people play. For each game and database it plays tables with human seats (the stand-in's alice,
bob) and AI seats (the lobby's Add bot; `ai_seconds=0`): moves typed in the thread (the bot posts
the announcement, with its outbox row's nonce) and moves by `/move` (the announcement is the
interaction's answer, with no nonce: after a crash the outbox finds it in the thread's history),
moderator rollbacks (`/mod rollback`, then Confirm; a finished game reopened), and resignations
(`/resign`, then Confirm) that end games, with the replay GIF. Each process life makes a few of
these and is killed on its last one, at one of three moments:

- between Discord creating the announcement and the bot learning it did (the stand-in holds the
  answer to that request until the bot is dead): a typed move's post, a `/move`'s or Confirm's
  answer;
- during a run of AI moves: after a `/move`, once Discord has created the bot's next message in
  the thread (the AI seats' run, when the move handed them the turn) and before the bot learns
  it did (counted as a random kill if no message comes within 8 s);
- at a random moment shortly after an action.

A new process then starts on the same database and its outbox sends what was left unconfirmed.
A last process runs until nothing is left unsent and no AI seat is due.

Then every public outbox row (`seat IS NULL`) is matched against the messages in its thread
(tests/bot/adapters/discordbot/thread_audit.py says how: by nonce, by the interaction answered,
by text; a run of AI moves posted as one message stands for each of its rows). Each row must
appear exactly once; a row whose moves a rollback undid appears once as its announcement or as
"(The announcement of move N was not sent…)". Prints one JSON line per game and database and a
total: kills (by moment), actions made, announcements expected and posted, rows announced in
merged messages, notes posted, and the target figures `duplicates`, `lost`, `false_notes` (a
"was not sent" note for a move whose announcement is in the thread) and `unsent_left`, which
must all be 0. With `--details`, a JSON line per problem found, naming the row, its messages and
the process lives that posted them (their logs are `bot-<life>.log` next to the database, with
`record.json`: every row, every message and what stands for what; keep them with `--keep`, and
count a kept record again with `--audit-again <folder>/record.json`).

`--forget-nonces` checks that the soak can see a duplicate: the stand-in then forgets each nonce
at once, as Discord does after a few minutes, so an announcement posted just before a kill is
posted again by the next process; the figures must show duplicates.

    .venv/bin/python bench/outbox_soak.py [--games tronimoes,tetromic] [--databases sqlite,postgresql]
        [--kills 8] [--actions-per-life 4] [--seed 1] [--details] [--keep] [--trace] [--forget-nonces]

About a minute per game and database with the defaults on a quiet machine. PostgreSQL: the
server at $TILEREF_TEST_POSTGRES (default postgresql://postgres@127.0.0.1:5432/test), a schema of
its own, dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.bot.adapters.discordbot.bot_process import spawn, stop
from tests.bot.adapters.discordbot.thread_audit import Audit, Posted, Row, audit
from tests.standin import Channel, DiscordStandIn, RecordedMessage, StandInTimeout, User
from tests.standin.model import LOADING

ANSWERING = r"/interactions/\d+/[^/]+/callback|/webhooks/\d+/[^/]+"
POSTGRES = os.environ.get("TILEREF_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
DATABASES = ("sqlite", "postgresql")
MOMENTS = {"between": 0.5, "ai": 0.25, "random": 0.25}
"""Where the kill at the end of a life falls, and how often."""
ROLLBACK_SHARE = 0.12
RESIGN_SHARE = 0.04
"""How often an action is a moderator's rollback, a player's resignation (else a move)."""
REOPEN_SHARE = 0.3
"""How often a finished game is reopened by a rollback instead of a new table being opened."""
GIVING_UP = ("concede", "forfeit", "resign")
"""Moves chosen less often (one time in seven or so), so games are mostly played."""


@dataclass(frozen=True)
class Seating:
    """Who sits at a soak table of a game: these stand-in users, then `bots` AI seats; `options`
    besides `ai_seconds=0` (shorter games, so some end by their moves)."""

    humans: tuple[str, ...]
    bots: int
    options: str = ""


SEATINGS = {
    "tronimoes": Seating(("alice", "bob"), 2),
    "tromino_go": Seating(("alice",), 1),
    "triominoes": Seating(("alice", "bob"), 2, "rounds=1"),
    "tronix": Seating(("alice", "bob"), 2),
    "tetromic": Seating(("alice", "bob"), 1, "target_level=2"),
}


class Database:
    """The soak's own look into the bot's database: an SQLite file, or a schema of its own on a
    PostgreSQL server (made by the bot's first process, dropped by `drop`)."""

    def __init__(self, kind: str, folder: Path) -> None:
        self.kind = kind
        if kind == "sqlite":
            self.path = folder / "tileref.sqlite3"
            self.address = str(self.path)
        else:
            self.schema = f"soak_{uuid.uuid4().hex[:12]}"
            self.address = f"{POSTGRES}?search_path={self.schema}"
        self._connection: Any = None

    async def rows(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        """The rows of a query written with `?` placeholders."""
        if self.kind == "sqlite":
            with contextlib.closing(sqlite3.connect(self.path)) as db:
                return db.execute(sql, args).fetchall()
        if self._connection is None:
            import asyncpg

            self._connection = await asyncpg.connect(POSTGRES, server_settings={"search_path": self.schema})
        numbered = iter(range(1, 1000))
        records = await self._connection.fetch(re.sub(r"\?", lambda _: f"${next(numbered)}", sql), *args)
        return [tuple(r) for r in records]

    async def value(self, sql: str, *args: object) -> Any:
        found = await self.rows(sql, *args)
        return found[0][0] if found else None

    async def drop(self) -> None:
        if self.kind == "sqlite":
            return
        import asyncpg

        if self._connection is not None:
            await self._connection.close()
            self._connection = None
        connection = await asyncpg.connect(POSTGRES)
        try:
            await connection.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')
        finally:
            await connection.close()


@dataclass
class Life:
    """One bot process: its log, when it ran, how it ended."""

    number: int
    log: Path
    started: float
    ended: float = 0.0
    ending: str = ""


@dataclass
class Table:
    """A table the soak opened: its thread."""

    thread: Channel

    @property
    def place(self) -> str:
        return f"discord:{self.thread.id}"


@dataclass
class Soak:
    """One game on one database: lives of the bot, each a few actions and a kill."""

    s: DiscordStandIn
    db: Database
    folder: Path
    game: str
    rng: random.Random
    actions_per_life: int = 4
    moments: dict[str, float] = field(default_factory=lambda: dict(MOMENTS))
    typed_share: float = 0.5
    rollback_share: float = ROLLBACK_SHARE
    lives: list[Life] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    process: subprocess.Popen[bytes] | None = None
    trace: bool = False

    def say(self, what: str) -> None:
        """A line on stderr about what the soak does (with `--trace`)."""
        if self.trace:
            print(f"{time.strftime('%H:%M:%S')} {self.db.kind} {self.game} life {len(self.lives) - 1}: {what}",
                  file=sys.stderr, flush=True)

    @property
    def seating(self) -> Seating:
        return SEATINGS[self.game]

    @property
    def humans(self) -> list[User]:
        return [self.s.players[name] for name in self.seating.humans]

    # ---- processes ----------------------------------------------------------------------

    async def start(self) -> None:
        life = Life(len(self.lives), self.folder / f"bot-{len(self.lives)}.log", time.time())
        self.lives.append(life)
        ready = self.s.gateway.ready_count
        self.process = spawn(self.s.api_base, self.s.gateway_url, self.db.address, self.s.guild.id, self.s.token,
                             log=life.log)
        await self.s.wait_for_connection(after=ready)
        self.say("connected")

    def kill(self, moment: str) -> None:
        """SIGKILL the bot now; `moment` says where the kill fell."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.lives[-1].ended, self.lives[-1].ending = time.time(), moment
        self.counts[f"kills_{moment}"] += 1
        self.say(f"killed ({moment})")
        for hold in list(self.s.holds):  # what the dead process was waiting for is answered now
            hold.release()
            self.s.holds.remove(hold)

    async def life(self) -> None:
        """Start a bot, make a few actions and kill it on the last one (or just after)."""
        await self.start()
        try:
            actions = self.rng.randint(1, self.actions_per_life)
            for number in range(actions):
                last = number == actions - 1
                moment = self.rng.choices(list(self.moments), list(self.moments.values()))[0] if last else None
                try:
                    if await self.act(moment):
                        return
                except StandInTimeout as timeout:  # a bot too slow to answer (a busy machine): on to the kill
                    self.counts["stand_in_timeouts"] += 1
                    self.say(f"gave up waiting: {str(timeout).splitlines()[0]}")
                    break
            await asyncio.sleep(self.rng.uniform(0.0, 0.5))
            self.kill("random")
        finally:
            if self.process is not None and self.process.poll() is None:
                self.kill("random")

    async def drain(self, timeout: float = 90.0) -> None:
        """One last process, until nothing is left unsent and no AI seat is due; stopped as a
        service manager would."""
        await self.start()
        assert self.process is not None
        try:
            waited = 0.0
            while waited < timeout:
                unsent = await self.db.value("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")
                thinking = await self.db.value("SELECT COUNT(*) FROM timers WHERE kind = 'ai'")
                if unsent == 0 and thinking == 0:
                    break
                await asyncio.sleep(0.25)
                waited += 0.25
            else:
                self.counts["drain_timed_out"] += 1
            await asyncio.sleep(1.5)  # a sweep or two more: anything sent twice shows
        finally:
            stop(self.process)
            self.lives[-1].ended, self.lives[-1].ending = time.time(), "stopped"

    # ---- actions ------------------------------------------------------------------------

    async def act(self, moment: str | None) -> bool:
        """One action at the current table (a move, a rollback, a resignation; a new table
        when there is none to play at); True if it ended with the kill at `moment`."""
        table = self.tables[-1] if self.tables else None
        status, length = await self.status(table) if table is not None else ("", 0)
        if table is None or status not in ("playing", "finished"):
            await self.open_table()
            return False
        assert table is not None
        if status == "finished":
            if length > 0 and self.rng.random() < REOPEN_SHARE:
                return await self.rollback(table, length, moment, reopen=True)
            await self.open_table()
            return False
        roll = self.rng.random()
        if length >= 2 and roll < self.rollback_share:
            return await self.rollback(table, length, moment)
        if roll < self.rollback_share + RESIGN_SHARE:
            return await self.resign(table, moment)
        return await self.move(table, moment)

    async def status(self, table: Table) -> tuple[str, int]:
        """The table's status and how many moves its log holds, from the database."""
        found = await self.db.rows("SELECT id, status FROM tables WHERE place = ? ORDER BY id DESC LIMIT 1",
                                   table.place)
        if not found:
            return "", 0
        table_id, status = found[0]
        length = await self.db.value("SELECT COUNT(*) FROM actions WHERE table_id = ? AND undone = 0", table_id)
        return status, int(length or 0)

    async def last_move_by_ai(self, table: Table) -> bool:
        """Whether the table's last move (in its log) was an AI seat's."""
        actor = await self.db.value("SELECT a.actor FROM actions a JOIN tables t ON t.id = a.table_id"
                                    " WHERE t.place = ? AND a.undone = 0 ORDER BY a.id DESC LIMIT 1", table.place)
        return str(actor or "").startswith("ai:")

    async def open_table(self) -> None:
        s, first = self.s, self.humans[0]
        options = " ".join(o for o in ("ai_seconds=0", self.seating.options) if o)
        announced = await (await s.slash(first, s.channel, "tileref new", game=self.game, options=options)).reply()
        thread = await s.wait_for_thread(lambda t: t.id == announced.id)
        lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
        for other in self.humans[1:]:
            lobby = await (await s.click(other, lobby, label="Join")).reply()
        for _ in range(self.seating.bots):
            lobby = await (await s.click(first, lobby, label="Add bot")).reply()
        await (await s.click(first, lobby, label="Start")).replies(2)
        self.tables.append(Table(thread))
        self.counts["tables_opened"] += 1
        self.say(f"opened a table in thread {thread.id}")

    async def mover(self, table: Table, wait: float = 6.0) -> tuple[User, str] | None:
        """A person at the table who may move now, and one of their moves (waiting while AI
        seats play); None if nobody may within `wait` seconds."""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            humans = list(self.humans)
            self.rng.shuffle(humans)
            for user in humans:
                try:
                    choices = await self.s.autocomplete(user, table.thread, "move", text="", timeout=5)
                except StandInTimeout:
                    continue
                if choices:
                    moves = [str(c["value"]) for c in choices]
                    playing = [m for m in moves if m.split()[0] not in GIVING_UP]
                    return user, self.rng.choice(playing if playing and self.rng.random() < 0.85 else moves)
            await asyncio.sleep(0.2)
        return None

    async def move(self, table: Table, moment: str | None) -> bool:
        s, thread = self.s, table.thread
        found = await self.mover(table)
        if found is None:
            self.counts["nobody_could_move"] += 1
            self.say("nobody could move")
            return False
        user, move = found
        typed = moment != "ai" and self.rng.random() < self.typed_share
        if moment == "between":
            holds = ([s.hold("POST", rf"/channels/{thread.id}/messages", after=True)] if typed else
                     [s.hold("POST", ANSWERING, after=True) for _ in range(2)])
        elif moment == "ai":  # the move is answered; the AI run's message (or a re-send) is held once created
            holds = [s.hold("POST", rf"/channels/{thread.id}/messages", after=True)]
        else:
            holds = []
        mark = s.mark()
        self.say(f"{user.name} {'types' if typed else '/move'} {move!r} (kill: {moment})")
        handle = await s.say(user, thread, move) if typed else await s.slash(user, thread, "move", text=move)
        self.counts["moves_typed" if typed else "moves_by_slash_command"] += 1
        return await self.settle(table, mark, moment, holds, handle=None if typed else handle)

    async def rollback(self, table: Table, length: int, moment: str | None, *, reopen: bool = False) -> bool:
        s = self.s
        to = self.rng.randint(max(0, length - 4), length - 1)
        options: dict[str, object] = {"to": to, **({"reopen": True} if reopen else {})}
        if not await self.confirm(s.mod, table, "mod rollback", moment, **options):
            return False
        self.counts["reopened" if reopen else "rollbacks"] += 1
        return self.process is None or self.process.poll() is not None

    async def resign(self, table: Table, moment: str | None) -> bool:
        if not await self.confirm(self.rng.choice(self.humans), table, "resign", moment):
            return False
        self.counts["resignations"] += 1
        return self.process is None or self.process.poll() is not None

    async def confirm(self, user: User, table: Table, command: str, moment: str | None, **options: object) -> bool:
        """Run a command that asks for confirmation and press Confirm (its answer held and the
        bot killed at `moment`); False if the command was refused (nothing to confirm)."""
        s, thread = self.s, table.thread
        moment = "random" if moment == "ai" else moment  # no AI run follows a rollback or a resignation at once
        try:
            preview = await (await s.slash(user, thread, command, **options)).reply(timeout=10)
        except StandInTimeout:
            return False
        if not preview.ephemeral or not any(b.label == "Confirm" for b in preview.buttons()):
            return False
        holds = [s.hold("POST", ANSWERING, after=True) for _ in range(2)] if moment == "between" else []
        mark = s.mark()
        self.say(f"{user.name} confirms {command} {options} (kill: {moment})")
        handle = await s.click(user, preview, label="Confirm")
        await self.settle(table, mark, moment, holds, handle=handle, answers=2)
        return True

    async def settle(self, table: Table, mark: int, moment: str | None, holds: list[Any], *,
                     handle: Any = None, answers: int = 1) -> bool:
        """After an action: kill the bot at `moment` (True), or wait for its answer (False)."""
        s, thread = self.s, table.thread

        def posted() -> bool:
            return any(public(m, thread) and not m.loading and m.attachments for m in s.messages[mark:])

        if moment == "between":
            for _ in range(600):  # until the announcement is on Discord, its answer held
                if posted():
                    break
                if holds and holds[0].reached.is_set() and not holds[0].released.is_set():
                    holds[0].release()  # only an acknowledgement so far (a "thinking…" or the preview's edit)
                await asyncio.sleep(0.05)
            self.kill("between_delivering_and_confirming" if posted() else "random")
            return True
        if moment == "ai" and holds:
            for _ in range(int(8.0 / 0.05)):  # until the bot's next post (an AI run's) is on Discord, held
                if holds[0].reached.is_set():
                    break
                await asyncio.sleep(0.05)
            if not holds[0].reached.is_set():
                self.kill("random")
            elif await self.last_move_by_ai(table):
                self.kill("during_an_ai_run")
            else:  # the post held was another (a re-send, a note): still created and not confirmed
                self.kill("between_delivering_and_confirming")
            return True
        if moment is not None:
            await asyncio.sleep(self.rng.uniform(0.0, 0.6))
            self.kill("random")
            return True
        try:
            if handle is not None:
                await handle.replies(answers, timeout=10)
            else:
                await s.wait_for_message(thread, lambda m: public(m, thread), since=mark, timeout=10)
        except StandInTimeout:
            self.counts["unanswered_actions"] += 1
        return False

    # ---- counting -----------------------------------------------------------------------

    async def outbox(self) -> list[Row]:
        """The public rows of the outbox, with their tables' games."""
        found = await self.db.rows(
            "SELECT o.id, o.table_id, t.game, o.place, o.ply, o.data, o.delivered_at, o.merged_into FROM outbox o"
            " JOIN tables t ON t.id = o.table_id WHERE o.seat IS NULL ORDER BY o.id")
        rows = []
        for id, table_id, game, place, ply, data, delivered, merged_into in found:
            data = json.loads(data) if isinstance(data, str) else data
            rows.append(Row(id, table_id, game, place, ply, data["text"], kind=data.get("kind", "move"),
                            board=bool(data.get("board")), origin=data.get("origin", ""),
                            delivered=delivered is not None, merged_into=merged_into))
        return rows

    def thread_messages(self) -> list[Posted]:
        """The bot's messages in the soak's threads as they finally stand (deleted and ephemeral
        ones left out)."""
        posted = []
        for table in self.tables:
            for message_id in self.s.history.get(table.thread.id, []):
                stored = self.s.stored[message_id]
                if stored.deleted or stored.ephemeral or stored.author.id != self.s.bot_user.id:
                    continue
                posted.append(Posted(stored.id, table.place, stored.content, nonce=stored.nonce,
                                     interaction=stored.interaction_id,
                                     files=tuple(a.filename for a in stored.attachments),
                                     loading=bool(stored.flags & LOADING)))
        return posted

    def life_of(self, message_id: int) -> int | None:
        """The process life during which a message was created (from its snowflake's time)."""
        moment = ((message_id >> 22) + 1420070400000) / 1000
        for life in self.lives:
            if life.started - 0.5 <= moment <= (life.ended or time.time()) + 0.5:
                return life.number
        return None

    def logged(self, text: str) -> int:
        return sum(life.log.read_text(errors="replace").count(text) for life in self.lives if life.log.exists())

    async def figures(self) -> tuple[dict[str, Any], Audit]:
        result = audit(await self.outbox(), self.thread_messages())
        figures: dict[str, Any] = {"case": "sigkill_soak", "database": self.db.kind, "game": self.game,
                                   "lives": len(self.lives)}
        figures["kills"] = sum(n for k, n in self.counts.items() if k.startswith("kills_"))
        for key in ("kills_between_delivering_and_confirming", "kills_during_an_ai_run", "kills_random",
                    "tables_opened", "moves_typed", "moves_by_slash_command", "rollbacks", "reopened",
                    "resignations", "nobody_could_move", "unanswered_actions", "stand_in_timeouts", "drain_timed_out"):
            figures[key] = self.counts[key]
        figures.update(result.figures())
        figures["resends_answered_with_the_first_message"] = len(self.s.nonce_repeats)
        figures["resends_found_answered_already"] = self.logged("was out already")
        figures["withheld_as_rolled_back"] = self.logged("a rollback to move")
        return figures, result

    def write_record(self, result: Audit) -> None:
        """`record.json` next to the logs: every public row, each message in the threads, which
        messages stand for which rows, and the lives (read it to follow a finding)."""
        messages = {m.id: m for m in self.thread_messages()}
        record = {
            "lives": [{"life": life.number, "log": life.log.name, "started": life.started, "ended": life.ended,
                       "ending": life.ending} for life in self.lives],
            "rows": [{"id": r.id, "table": r.table_id, "game": r.game, "place": r.place, "ply": r.ply,
                      "kind": r.kind, "board": r.board, "origin": r.origin, "nonce": r.nonce,
                      "delivered": r.delivered, "merged_into": r.merged_into, "undone_by": result.undone_by.get(r.id),
                      "shown_by": result.shown_by.get(r.id, []), "noted_by": result.noted_by.get(r.id, []),
                      "text": r.text} for r in result.rows],
            "messages": [{"id": m.id, "place": m.place, "life": self.life_of(m.id), "nonce": m.nonce,
                          "interaction": m.interaction, "files": list(m.files), "loading": m.loading,
                          "content": m.content} for m in messages.values()],
        }
        (self.folder / "record.json").write_text(json.dumps(record, ensure_ascii=False, indent=1))

    def details(self, result: Audit) -> list[dict[str, Any]]:
        """A JSON object per problem found, with the lives that posted its messages."""
        return [{"case": "finding", "database": self.db.kind, **f.json(),
                 "lives": [self.life_of(m) for m in f.messages]} for f in result.findings]


def audit_again(record: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The figures and problems of a kept soak's `record.json`, counted again (after a change to
    thread_audit, say): the soak's own counts (kills, actions) are not in it."""
    saved = json.loads(record.read_text())
    rows = [Row(r["id"], r["table"], r["game"], r["place"], r["ply"], r["text"], kind=r["kind"], board=r["board"],
                origin=r["origin"], delivered=r["delivered"], merged_into=r.get("merged_into"))
            for r in saved["rows"]]
    messages = [Posted(m["id"], m["place"], m["content"], nonce=m["nonce"], interaction=m["interaction"],
                       files=tuple(m["files"]), loading=m["loading"]) for m in saved["messages"]]
    result = audit(rows, messages)
    lives = {m["id"]: m["life"] for m in saved["messages"]}
    return ({"case": "sigkill_soak", "record": str(record), **result.figures()},
            [{"case": "finding", **f.json(), "lives": [lives.get(m) for m in f.messages]} for f in result.findings])


def public(message: RecordedMessage, thread: Channel) -> bool:
    return message.channel_id == thread.id and not message.ephemeral


async def soak_one(game: str, kind: str, *, kills: int, actions_per_life: int, seed: int, folder: Path,
                   forget_nonces: bool = False, moments: dict[str, float] | None = None,
                   typed_share: float = 0.5, rollback_share: float = ROLLBACK_SHARE,
                   trace: bool = False) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Soak one game on one database: its figures and its problems."""
    started = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    db = Database(kind, folder)
    try:
        async with DiscordStandIn(default_timeout=30) as s:
            if forget_nonces:
                s.nonce_seconds = 0.0
            soak = Soak(s, db, folder, game, random.Random(f"{seed}:{game}:{kind}"), actions_per_life,
                        dict(moments or MOMENTS), typed_share, rollback_share, trace=trace)
            for _ in range(kills):
                await soak.life()
            await soak.drain()
            figures, result = await soak.figures()
            details = soak.details(result)
            soak.write_record(result)
    finally:
        await db.drop()
    figures["seconds"] = round(time.perf_counter() - started, 1)
    return figures, details


def total(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures summed over games and databases."""
    summed: dict[str, Any] = {"case": "sigkill_soak", "database": "all", "game": "all"}
    for line in lines:
        for key, value in line.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                summed[key] = round(summed.get(key, 0) + value, 1)
    return summed


async def run(games: list[str], databases: list[str], *, kills: int, actions_per_life: int, seed: int,
              details: bool, keep: bool, forget_nonces: bool, trace: bool = False) -> list[dict[str, Any]]:
    root = Path(tempfile.mkdtemp(prefix="outbox-soak-"))
    lines = []
    try:
        for kind in databases:
            for game in games:
                figures, problems = await soak_one(game, kind, kills=kills, actions_per_life=actions_per_life,
                                                   seed=seed, folder=root / f"{kind}-{game}",
                                                   forget_nonces=forget_nonces, trace=trace)
                print(json.dumps(figures), flush=True)
                if details:
                    for problem in problems:
                        print(json.dumps(problem, ensure_ascii=False), flush=True)
                lines.append(figures)
        summed = total(lines)
        if keep:
            summed["folder"] = str(root)
        print(json.dumps(summed), flush=True)
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(SEATINGS), help="comma-separated (default: all five)")
    parser.add_argument("--databases", default=",".join(DATABASES), help="sqlite, postgresql or both (default)")
    parser.add_argument("--kills", type=int, default=8, help="process lives (each ended by a SIGKILL) per game")
    parser.add_argument("--actions-per-life", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--details", action="store_true", help="a JSON line per problem found")
    parser.add_argument("--keep", action="store_true", help="keep the databases and the bot logs")
    parser.add_argument("--trace", action="store_true", help="say on stderr what the soak does, as it does it")
    parser.add_argument("--forget-nonces", action="store_true",
                        help="the stand-in forgets nonces at once: duplicates must show (a check of the soak)")
    parser.add_argument("--audit-again", type=Path, metavar="RECORD",
                        help="count a kept soak's record.json again instead of soaking (with --details: its problems)")
    args = parser.parse_args()
    if args.audit_again is not None:
        figures, problems = audit_again(args.audit_again)
        for line in [figures, *(problems if args.details else [])]:
            print(json.dumps(line, ensure_ascii=False))
        return
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    databases = [d.strip() for d in args.databases.split(",") if d.strip()]
    unknown = [g for g in games if g not in SEATINGS] + [d for d in databases if d not in DATABASES]
    if unknown:
        parser.error(f"unknown: {', '.join(unknown)} (games: {', '.join(SEATINGS)}; databases: sqlite, postgresql)")
    asyncio.run(run(games, databases, kills=args.kills, actions_per_life=args.actions_per_life, seed=args.seed,
                    details=args.details, keep=args.keep, forget_nonces=args.forget_nonces, trace=args.trace))


if __name__ == "__main__":
    main()
