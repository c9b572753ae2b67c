"""Plain records the referee and the store exchange: tables, seats, logged actions, timers and
per-server settings. No I/O here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

LOBBY, PLAYING, FINISHED, ABORTED = "lobby", "playing", "finished", "aborted"
OPEN_STATUSES = (LOBBY, PLAYING)


@dataclass(frozen=True)
class User:
    """Someone issuing a command. `id` is qualified by its transport (`discord:123`,
    `console:me`); the transport decides who is a moderator."""

    id: str
    name: str
    moderator: bool = False


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


@dataclass(frozen=True)
class Timer:
    """A durable deadline or reminder for one seat of one table. `ply` is the log length when the
    seat started waiting: a timer whose table has moved on since is stale."""

    table_id: int
    seat: int
    kind: str  # "deadline" or "reminder"
    due: float
    ply: int
    id: int | None = None


DEADLINE, REMINDER = "deadline", "reminder"


@dataclass
class Settings:
    """Per-server settings. `reminders` are points before a deadline: durations like "1h" or
    fractions of the turn time like "50%"."""

    guild: str
    turn_seconds: int | None = 24 * 3600
    reminders: list[str] = field(default_factory=lambda: ["50%", "10%"])
    moderator_role: str | None = None
    allowed_games: list[str] | None = None
