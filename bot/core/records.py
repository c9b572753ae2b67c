"""Plain records the referee and the store exchange: tables, seats, logged actions, timers and
per-server settings. No I/O here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import CHANCE

LOBBY, PLAYING, FINISHED, ABORTED = "lobby", "playing", "finished", "aborted"
OPEN_STATUSES = (LOBBY, PLAYING)


@dataclass(frozen=True)
class User:
    """Someone issuing a command. `id` is qualified by its transport (`discord:123`,
    `console:me`); the transport decides who is a moderator."""

    id: str
    name: str
    moderator: bool = False
    """May moderate tables (force a pass, roll back, …)."""
    manager: bool = False
    """May change the server's settings (Discord: Manage Server)."""


@dataclass
class SeatRecord:
    """A seat at a table: a person (`user_id`) or an AI agent (`agent`, e.g. "greedy")."""

    seat: int
    name: str
    user_id: str | None = None
    agent: str | None = None

    @property
    def is_ai(self) -> bool:
        return self.agent is not None


@dataclass
class TableRecord:
    """One game bound to a place (a Discord thread, a console session)."""

    id: int
    place: str
    game: str
    options: dict[str, str]
    status: str
    created_by: str
    created_at: float
    guild: str | None = None
    seed: int | None = None
    turn_seconds: int | None = None
    paused: bool = False
    seats: list[SeatRecord] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    version: int = 0
    """How many times the stored record has been written; a write based on an older version is
    refused (`StaleTable`), so two processes never overwrite each other's changes."""

    def unseat(self, seat: int) -> None:
        """Remove a seat in the lobby; the seats after it move up one."""
        del self.seats[seat]
        for index, record in enumerate(self.seats):
            record.seat = index

    def seat_of(self, user_id: str) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None


@dataclass(frozen=True)
class ActionRecord:
    """One entry of a table's action log. `ply` counts from 1; `actor` says who caused it: the
    player's user id, `ai:<agent>`, `clock`, or `mod:<user id>`."""

    ply: int
    seat: int
    action: str
    actor: str
    at: float

    @property
    def chance(self) -> bool:
        """A chance entry (`chance <seed>`, logged by a rollback): its seed would tell every later
        draw, so its text is never shown to anyone; say only that the unseen pieces were shuffled."""
        return self.seat == -1 and self.action.startswith(CHANCE + " ")


@dataclass(frozen=True)
class Timer:
    """A durable deadline or reminder for one seat of one table. `ply` is the log length when the
    seat started waiting: a timer whose table has moved on since is stale."""

    table_id: int
    seat: int
    kind: str  # "deadline", "reminder", "ping", "replan" or "ai" (an AI seat's turn)
    due: float
    ply: int
    id: int | None = None


DEADLINE, REMINDER = "deadline", "reminder"
LATE_PING = "ping"
"""A timer's kind for the ping a turn that began in its player's quiet hours makes when they end
(`bot.community.notifications.deferred_pings`); it goes with the turn."""
REPLAN = "replan"
"""A timer's kind for planning a table's clock again at once because one of its players' time off
changed elsewhere (a vacation day spent at another of their tables); written in that commit."""
AI_TURN = "ai"
"""A timer's kind for an AI seat's turn: due work an `AiTurns` worker plays (see `bot.durable.ai_turns`),
not a clock's deadline."""


@dataclass(frozen=True)
class Backlog:
    """How far behind the durable work is, as the times (clock seconds) its oldest waiting item
    began waiting; None where nothing waits. Read by the health check."""

    oldest_notice: float | None
    """When the oldest undelivered announcement in the outbox was committed."""
    oldest_due_timer: float | None
    """When the oldest clock timer (deadline or reminder) that is due but not fired fell due."""
    oldest_ai_turn: float | None
    """When the oldest AI seat's turn that is due but not played fell due."""


@dataclass(frozen=True)
class TableBacklog:
    """One table's share of the backlog (`Backlog`): which table, and how far behind its work is."""

    table_id: int
    place: str
    game: str
    status: str
    paused: bool
    backlog: Backlog


@dataclass
class FirstRead:
    """The table at a place (None if there is none) and its timers, read by a store's command
    lock as soon as it held the place, in the same round trip where the database allows."""

    table: TableRecord | None
    timers: list[Timer]


DELIVERY_LEASE = 30.0
"""Seconds an announcement is left to the process that committed it before the outbox sends it
instead (the default; `Referee(delivery_lease=…)` sets another)."""


@dataclass
class Notice:
    """One announcement in the outbox: committed with the change that caused it, delivered after,
    re-sent after a crash until a transport confirms it. `seat` is None for the public message at
    the table's place, else the seat it is for (its player alone may read it). `board` asks for
    the board picture as of `ply`, `hand` for that seat's hand picture."""

    table_id: int
    place: str
    ply: int
    text: str
    seat: int | None = None
    mentions: list[str] = field(default_factory=list)
    board: bool = False
    hand: bool = False
    kind: str = "move"
    origin: str = ""
    """The command whose answer delivers it, as the transport named the command
    (`interaction:<id>` on Discord), so a re-send can look for what that answer already posted;
    "" for what no command's answer carries (the clock's, an AI's, an end-of-game replay)."""
    log: str = ""
    """A digest of the log up to `ply` as it was committed (`bot.tables.notices.log_digest`): a rollback
    since then that undid any of it makes the live log's digest differ. "" where unknown."""
    id: int | None = None
    created_at: float = 0.0
    lease_until: float = 0.0
    """Until when the process that made it is trusted to deliver it; after that anyone may."""
    attempts: int = 0

    def data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"text": self.text, "mentions": self.mentions, "board": self.board,
                                "hand": self.hand, "kind": self.kind}
        if self.origin:
            data["origin"] = self.origin
        if self.log:
            data["log"] = self.log
        return data


@dataclass
class Settings:
    """Per-server settings. `reminders` are points before a deadline: durations like "1h" or
    fractions of the turn time like "50%"."""

    guild: str
    turn_seconds: int | None = 24 * 3600
    turn_seconds_set: bool = False
    """Whether the server chose `turn_seconds` (else each game's own default applies)."""
    reminders: list[str] = field(default_factory=lambda: ["50%", "10%"])
    moderator_role: str | None = None
    allowed_games: list[str] | None = None
    media_rating: str = "g"
    """The strictest content rating of GIFs and stickers searched here: g, pg, pg-13 or r."""
    event_reactions: bool = False
    """Whether the bot posts a reaction picture on a kill, a round won, a hexagon, …"""
    language: str | None = None
    """The language of new tables here (None: each table speaks its creator's language)."""
    clock: str | None = None
    """The time control of new tables here, as `clock=` writes it (`3d+1d/7d`, `none`); None: a
    fixed time per turn (`turn_seconds`)."""
    vacation_days: int = 21
    """Each player's vacation days per calendar year on this server."""
    absent: str = "standin"
    """What a missed deadline does at new tables of three or more seats here (`bot.core.absence`)."""

