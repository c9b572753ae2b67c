"""Persistence behind one interface, `Store`. Its statements are written once for both databases
(`bot.storage.sql_store.SqlStore`); the store in an SQLite file (`bot.storage.sqlite`) is the
embedded default, PostgreSQL's (`bot.storage.postgres`) serves several processes sharing one
database; `bot.storage.address` picks one.

Everything the referee must not lose lives here: tables and seats, the append-only action log,
durable timers, per-server settings, and snapshots that make long games quick to load.
`commit` is the one way a game moves forward: it appends actions, updates the table and
replaces its timers in a single transaction, and refuses if the log has moved on meanwhile.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bot.core.records import (
    OPEN_STATUSES,
    ActionRecord,
    Backlog,
    FirstRead,
    Notice,
    Settings,
    TableBacklog,
    TableRecord,
    Timer,
)
from bot.storage.players import Forgotten
from bot.storage.standings import Standings, Write
from bot.storage.tournaments import Tournaments
from bot.storage.vacations import Vacations

log = logging.getLogger(__name__)


class StaleLog(Exception):
    """The table's log is not the length the writer expected: someone else moved first."""

    def __init__(self, table_id: int, expected: int, actual: int) -> None:
        super().__init__(f"table {table_id}: expected {expected} actions, found {actual}")
        self.expected = expected
        self.actual = actual


class StaleTable(Exception):
    """The table was changed by someone else since it was read: read it again and redo the change."""

    def __init__(self, table_id: int, version: int) -> None:
        super().__init__(f"table {table_id}: version {version} is no longer the latest")


class PlaceTaken(Exception):
    """A place can hold one open table at a time, and it already does."""

    def __init__(self, place: str) -> None:
        super().__init__(f"{place} already has an open table")
        self.place = place


ANY_TABLE = -1
"""What change listeners are told when any table may have changed (a change feed was lost)."""

DUMPED = ("tables", "seats", "actions", "timers", "settings", "snapshots", "outbox", "pictures", "results", "ratings",
          "notify", "watch_links", "accessibility", "vacations", "vacation_days", "notify_player", "tournaments",
          "entrants", "tournament_rounds", "boards", "tournament_messages")
"""Every table of the schema, parents first: what `dump` and `load` move between databases."""


class Store(ABC):
    """What the referee needs from persistence. Every write is durable when it returns.
    `standings` holds what carries over between games: ratings, results, notification choices;
    `vacations` the players' vacations and the days they spent; `tournaments` the tournaments
    the bot runs (`bot.storage.tournaments`)."""

    standings: Standings
    vacations: Vacations
    tournaments: Tournaments

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @asynccontextmanager
    async def command_lock(self, place: str) -> AsyncIterator[FirstRead | None]:
        """Held while a command on the table at `place` runs, so commands on one table run one at
        a time across processes (PostgreSQL: an advisory lock). Yields the table at the place
        and its timers as they stood once the lock was held, where reading them with the lock
        saves a round trip, else None. SQLite needs no lock: its writes are serialised and every
        commit checks the log length it expected."""
        yield None

    @abstractmethod
    async def dump(self) -> dict[str, list[dict[str, Any]]]:
        """Every row of every table (see `DUMPED`), as plain values: for copying a database."""

    @abstractmethod
    async def load(self, rows: dict[str, list[dict[str, Any]]]) -> None:
        """Write `dump()`'s rows into this (empty) database, ids kept."""

    # ---- a player's own data --------------------------------------------------------------

    @abstractmethod
    async def player_data(self, user_id: str) -> dict[str, list[dict[str, Any]]]:
        """Everything kept about one person that is theirs to see, by kind, as plain values
        (`bot.storage.players.player_data`)."""

    @abstractmethod
    async def forget_player(self, user_id: str, anonymous: str, name_in: Callable[[str | None], str]) -> Forgotten:
        """Remove one person's name and identifiers from every table, log, announcement, result,
        rating and setting in one transaction, their games kept replayable under the anonymous id
        `anonymous` and the name `name_in(table language)` (`bot.storage.players.forget_player`)."""

    # ---- tables -------------------------------------------------------------------------

    @abstractmethod
    async def create_table(self, table: TableRecord, *, claim: TableRecord | None = None) -> int:
        """Save a new table with its seats; returns its id (also set on `table`). Raises
        PlaceTaken if the place already has an open (lobby or playing) table. `claim`: another
        table saved in the same transaction (a finished game noting its rematch), StaleTable and
        nothing written if someone else saved it since it was read."""

    @abstractmethod
    async def save_table(self, table: TableRecord) -> None:
        """Save a table's status, settings, meta and seats, if nobody else saved it since it was
        read (else StaleTable); `table.version` is then the new version."""

    @abstractmethod
    async def get_table(self, table_id: int) -> TableRecord | None: ...

    @abstractmethod
    async def table_at(self, place: str) -> TableRecord | None:
        """The newest table bound to a place."""

    @abstractmethod
    async def find_tables(self, *, place_prefix: str = "", statuses: Sequence[str] = OPEN_STATUSES,
                          limit: int = 100) -> list[TableRecord]:
        """Tables in the given states whose place starts with `place_prefix`, newest first."""

    # ---- the action log ---------------------------------------------------------------------

    @abstractmethod
    async def actions(self, table_id: int, *, after: int = 0) -> list[ActionRecord]:
        """The table's live log (undone actions excluded) from ply `after + 1` on."""

    @abstractmethod
    async def log_length(self, table_id: int) -> int: ...

    @abstractmethod
    async def commit(self, table_id: int, *, expected: int, actions: Sequence[ActionRecord] = (),
                     table: TableRecord | None = None, timers: Sequence[Timer] | None = None,
                     undo_after: int | None = None, notices: Sequence[Notice] = (),
                     delete_timer: int | None = None, also: Write | None = None) -> None:
        """In one transaction: check the live log has `expected` actions (else StaleLog), undo
        every action after ply `undo_after` if given, append `actions`, save `table` with its
        seats (StaleTable if it changed since it was read), replace the table's timers with
        `timers` if given (else delete the one timer `delete_timer`: StaleLog if it is already
        gone, so a timer fires once; checked before `timers` replace the rest, so an AI turn is
        played once), add `notices` to the outbox (their ids are set), and make the writes `also`
        makes (a finished game's ratings)."""

    # ---- the outbox -------------------------------------------------------------------------

    @abstractmethod
    async def claim_notices(self, now: float, lease: float, limit: int = 50, *,
                            places: Collection[str] | None = None) -> list[Notice]:
        """Undelivered notices whose lease has run out, oldest first, each leased to the caller
        until `now + lease` (so no other process sends them meanwhile); only those of `places`
        if given (the places the caller delivers to)."""

    @abstractmethod
    async def notices_delivered(self, ids: Sequence[int], now: float) -> None:
        """Mark notices as delivered: they are never sent again."""

    @abstractmethod
    async def merge_notices(self, ids: Sequence[int], merged: Sequence[Notice], now: float) -> bool:
        """Replace the notices `ids` by `merged` (one message telling them all; their ids are
        set), in one transaction, if every one of them is still undelivered and was never claimed
        by the outbox (so nothing has sent any of them); else change nothing and return False.
        The replaced rows are kept, marked as merged into the first of `merged`."""

    @abstractmethod
    async def reopen_merged(self, merged_id: int, now: float) -> int:
        """Put back in the outbox, due now, the notices merged into `merged_id` (undoing
        `merge_notices`: they are sent one by one again); returns how many."""

    @abstractmethod
    async def pending_notices(self, table_id: int) -> list[Notice]:
        """A table's undelivered notices, oldest first."""

    # ---- timers -----------------------------------------------------------------------------

    @abstractmethod
    async def backlog(self, now: float) -> Backlog:
        """The oldest undelivered notice, the oldest clock timer due by `now` and the oldest AI
        turn due by `now`, in one read (for the health check)."""

    @abstractmethod
    async def backlog_by_table(self, now: float) -> list[TableBacklog]:
        """Each table with an undelivered notice, or a clock timer or AI turn due by `now`, with
        the oldest of each (for `tileref admin stuck`), oldest first."""

    @abstractmethod
    async def next_due(self) -> float | None:
        """When the earliest clock timer (a deadline or reminder, not an AI turn) falls due, or
        None if there are none."""

    @abstractmethod
    async def due_timers(self, now: float) -> list[Timer]:
        """The clock's timers (deadlines and reminders; AI turns are `claim_ai_turns`'s) due at
        or before `now`, earliest first."""

    @abstractmethod
    async def timers(self, table_id: int) -> list[Timer]:
        """Every timer of a table, AI turns included, earliest first."""

    @abstractmethod
    async def claim_ai_turns(self, now: float, lease: float, limit: int, *,
                             places: Collection[str] | None = None) -> list[Timer]:
        """Up to `limit` AI turns (timers of kind `AI_TURN`) due at or before `now` that nobody
        holds, earliest first, each leased to the caller until `now + lease` (so no other process
        plans them meanwhile; a process that dies leaves them to others when the lease ends); only
        those of the tables at `places` if given."""

    @abstractmethod
    async def delete_timer(self, timer_id: int) -> None: ...

    # ---- settings and snapshots ----------------------------------------------------------

    @abstractmethod
    async def settings(self, guild: str) -> Settings:
        """A server's settings (defaults if it has never changed any)."""

    @abstractmethod
    async def save_settings(self, settings: Settings) -> None: ...

    @abstractmethod
    async def update_settings(self, guild: str, change: Callable[[Settings], None]) -> Settings:
        """Read a server's settings, apply `change` and save them, in one transaction (so two
        changes made at once both stay). An exception from `change` saves nothing."""

    @abstractmethod
    async def save_picture(self, table_id: int, seat: int, kind: str, data: bytes, source: str,
                           at: float) -> None:
        """Keep a picture a player chose for a table (`kind` "foot": their chicken-foot), PNG
        bytes; `source` says where it came from (provider and id, for attribution)."""

    @abstractmethod
    async def pictures(self, table_id: int, kind: str) -> dict[int, tuple[bytes, str]]:
        """A table's pictures of one kind: seat -> (PNG bytes, source)."""

    # ---- spectators: watch links and the change feed -------------------------------------------

    @abstractmethod
    async def watch_token(self, table_id: int, new: str) -> str:
        """The table's watch token (the secret part of its spectator page's address): the one
        it has, else `new`, stored now. A table keeps its token for good."""

    @abstractmethod
    async def table_by_token(self, token: str) -> TableRecord | None:
        """The table whose watch token is `token`, or None."""

    async def listen(self, listener: Callable[[int], None]) -> None:
        """Call `listener(table_id)` soon after every commit or save of a table by any process
        sharing this database (SQLite: this process, at once; PostgreSQL: LISTEN/NOTIFY), and
        `listener(ANY_TABLE)` when changes may have gone unheard."""
        self._listeners().append(listener)

    async def unlisten(self, listener: Callable[[int], None]) -> None:
        """Stop calling `listener`."""
        listeners = self._listeners()
        if listener in listeners:
            listeners.remove(listener)

    def _listeners(self) -> list[Callable[[int], None]]:
        listeners: list[Callable[[int], None]] | None = self.__dict__.get("_change_listeners")
        if listeners is None:
            listeners = self.__dict__["_change_listeners"] = []
        return listeners

    def changed(self, table_id: int) -> None:
        """Tell this process's listeners that a table changed (a listener that fails is logged)."""
        for listener in list(self._listeners()):
            try:
                listener(table_id)
            except Exception:
                log.exception("a change listener failed for table %s", table_id)

    @abstractmethod
    async def snapshot(self, table_id: int) -> tuple[int, str, bytes] | None:
        """The latest snapshot of a table: (log length, engine version, data)."""

    @abstractmethod
    async def save_snapshot(self, table_id: int, ply: int, version: str, data: bytes) -> None: ...


def served(places: Collection[str] | None, place: str | None) -> bool:
    """Whether `place` is among the places a process serves (`place_patterns`: a place, or a
    transport's prefix ending in a colon); every place is when `places` is None."""
    if places is None:
        return True
    return place is not None and any(place == p or (p.endswith(":") and place.startswith(p)) for p in places)
