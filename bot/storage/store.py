"""Persistence behind one interface, `Store`: the statements written once for both databases
(`SqlStore`), and the store in an SQLite file (aiosqlite), the embedded default; PostgreSQL's
(`bot.storage.postgres`) serves several processes sharing one database; `bot.storage.address`
picks one.

Everything the referee must not lose lives here: tables and seats, the append-only action log,
durable timers, per-server settings, and snapshots that make long games quick to load.
`commit` is the one way a game moves forward: it appends actions, updates the table and
replaces its timers in a single transaction, and refuses if the log has moved on meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.core.records import (
    AI_TURN,
    OPEN_STATUSES,
    ActionRecord,
    FirstRead,
    Notice,
    Settings,
    TableRecord,
    Timer,
)
from bot.storage.schema import MIGRATIONS
from bot.storage.sql import (
    ACTION_COLUMNS,
    INSERT_ACTION,
    INSERT_NOTICE,
    INSERT_SEAT,
    INSERT_TABLE,
    INSERT_TIMER,
    NOTICE_COLUMNS,
    SEATS_OF_TABLE,
    SQLITE,
    TIMER_COLUMNS,
    UPDATE_TABLE,
    UPSERT_SETTINGS,
    Connection,
    Dialect,
    Row,
    action_record,
    created_values,
    marks,
    notice_record,
    notice_values,
    place_patterns,
    saved_values,
    seat_record,
    settings_from,
    settings_values,
    table_record,
    tables_with_seat_rows,
    timer_record,
)
from bot.storage.standings import Standings, Write

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
          "notify", "watch_links")
"""Every table of the schema, parents first: what `dump` and `load` move between databases."""


class Store(ABC):
    """What the referee needs from persistence. Every write is durable when it returns.
    `standings` holds what carries over between games: ratings, results, notification choices."""

    standings: Standings

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


# =============================================================================================
# The statements written once


class SqlStore(Store):
    """The store's statements written once, for SQLite and PostgreSQL alike (`bot.storage.sql`).
    A store for one database gives its connections (`_read_sql`, `_sql_statement`,
    `_sql_transaction`), its `dialect`, the exception its driver raises for a broken unique
    index, its commit, and whatever else it does its own way."""

    dialect: Dialect
    unique_violation: type[Exception]
    """What the driver raises when a write would break a unique index (a second open table at a place)."""

    def __init__(self) -> None:
        self.standings = Standings(self._read_sql, self._sql_transaction)

    @abstractmethod
    def _read_sql(self) -> AbstractAsyncContextManager[Connection]:
        """A connection to read with, outside any transaction."""

    @abstractmethod
    def _sql_statement(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for one statement that writes, committed when the statement returns."""

    @abstractmethod
    def _sql_transaction(self, lock: str | None = None) -> AbstractAsyncContextManager[Connection]:
        """A transaction, holding the lock named `lock` (`Sql.lock`) till it ends if one is given."""

    async def _fetch(self, sql: str, *args: Any) -> list[Row]:
        async with self._read_sql() as db:
            return await db.fetch(sql, *args)

    def _serving(self, column: str, places: Collection[str] | None) -> tuple[str, list[Any]]:
        """A condition that `column` is one of the places `places` serves (`place_patterns`), and
        its parameters; ("", []) when `places` is None (every place is served)."""
        if places is None:
            return "", []
        return self.dialect.like_any(column, place_patterns(places))

    # ---- tables -----------------------------------------------------------------------------

    async def create_table(self, table: TableRecord, *, claim: TableRecord | None = None) -> int:
        async with self._sql_transaction() as db:
            if claim is not None:
                await _write_table(db, claim)
                await db.notify(claim.id)
            try:
                rows = await db.fetch(INSERT_TABLE, *created_values(table))
            except self.unique_violation:
                raise PlaceTaken(table.place) from None
            table.id = rows[0]["id"]
            table.version = 0
            await _write_seats(db, table)
        if claim is not None:
            claim.version += 1
        return table.id

    async def save_table(self, table: TableRecord) -> None:
        async with self._sql_transaction() as db:
            await _write_table(db, table)
            await db.notify(table.id)
        table.version += 1

    async def get_table(self, table_id: int) -> TableRecord | None:
        return await self._first_table("id = ?", table_id)

    async def table_at(self, place: str) -> TableRecord | None:
        return await self._first_table("place = ? ORDER BY id DESC LIMIT 1", place)

    async def table_by_token(self, token: str) -> TableRecord | None:
        return await self._first_table("id = (SELECT table_id FROM watch_links WHERE token = ?)", token)

    async def find_tables(self, *, place_prefix: str = "", statuses: Sequence[str] = OPEN_STATUSES,
                          limit: int = 100) -> list[TableRecord]:
        in_statuses, chosen = self.dialect.one_of("status", statuses)
        return await self._tables(f"{in_statuses} AND substr(place, 1, ?) = ? ORDER BY id DESC LIMIT ?",
                                  *chosen, len(place_prefix), place_prefix, limit)

    async def all_tables(self) -> list[TableRecord]:
        """Every table, oldest first."""
        return await self._tables("TRUE ORDER BY id")

    async def _tables(self, where: str, *args: Any) -> list[TableRecord]:
        """The tables `where` (a condition, and what follows it) selects, with their seats."""
        async with self._read_sql() as db:
            rows = await db.fetch(f"SELECT {self.dialect.table_columns} FROM tables WHERE {where}", *args)
            if self.dialect.seat_rows:
                return tables_with_seat_rows(rows)
            return [table_record(row, [seat_record(seat) for seat in await db.fetch(SEATS_OF_TABLE, row["id"])])
                    for row in rows]

    async def _first_table(self, where: str, *args: Any) -> TableRecord | None:
        tables = await self._tables(where, *args)
        return tables[0] if tables else None

    # ---- the action log ---------------------------------------------------------------------

    async def actions(self, table_id: int, *, after: int = 0) -> list[ActionRecord]:
        rows = await self._fetch(f"SELECT {ACTION_COLUMNS} FROM actions WHERE table_id = ? AND undone = 0 AND ply > ?"
                                 " ORDER BY ply", table_id, after)
        return [action_record(row) for row in rows]

    async def log_length(self, table_id: int) -> int:
        async with self._read_sql() as db:
            return await _live_actions(db, table_id)

    # ---- the outbox -------------------------------------------------------------------------

    async def claim_notices(self, now: float, lease: float, limit: int = 50, *,
                            places: Collection[str] | None = None) -> list[Notice]:
        if places is not None and not places:
            return []
        served_here, chosen = self._serving("place", places)
        and_served = f" AND {served_here}" if served_here else ""
        async with self._sql_transaction() as db:
            rows = await db.fetch(
                f"SELECT {NOTICE_COLUMNS} FROM outbox WHERE delivered_at IS NULL AND lease_until <= ?{and_served}"
                f" ORDER BY id LIMIT ?{self.dialect.skip_locked}", now, *chosen, limit)
            notices = [notice_record(row) for row in rows]
            if notices:
                await db.executemany("UPDATE outbox SET lease_until = ?, attempts = attempts + 1 WHERE id = ?",
                                     [(now + lease, n.id) for n in notices])
        return notices

    async def notices_delivered(self, ids: Sequence[int], now: float) -> None:
        if not ids:
            return
        in_ids, chosen = self.dialect.one_of("id", ids)
        async with self._sql_statement() as db:
            await db.execute(f"UPDATE outbox SET delivered_at = ? WHERE {in_ids} AND delivered_at IS NULL",
                             now, *chosen)

    async def merge_notices(self, ids: Sequence[int], merged: Sequence[Notice], now: float) -> bool:
        in_ids, chosen = self.dialect.one_of("id", ids)
        async with self._sql_transaction() as db:
            ready = await db.fetch(
                f"SELECT COUNT(*) AS n FROM (SELECT id FROM outbox WHERE {in_ids} AND delivered_at IS NULL"
                f" AND attempts = 0{self.dialect.for_update}) AS still_ours", *chosen)
            if ready[0]["n"] != len(set(ids)):
                return False
            await _insert_notices(db, merged)
            await db.execute(f"UPDATE outbox SET delivered_at = ?, merged_into = ? WHERE {in_ids}",
                             now, merged[0].id, *chosen)
        return True

    async def reopen_merged(self, merged_id: int, now: float) -> int:
        async with self._sql_statement() as db:
            return await db.changes("UPDATE outbox SET delivered_at = NULL, merged_into = NULL, attempts = 0,"
                                    " lease_until = ? WHERE merged_into = ?", now, merged_id)

    async def pending_notices(self, table_id: int) -> list[Notice]:
        rows = await self._fetch(f"SELECT {NOTICE_COLUMNS} FROM outbox WHERE table_id = ? AND delivered_at IS NULL"
                                 " ORDER BY id", table_id)
        return [notice_record(row) for row in rows]

    # ---- timers -----------------------------------------------------------------------------

    async def next_due(self) -> float | None:
        rows = await self._fetch("SELECT MIN(due) AS due FROM timers WHERE kind <> ?", AI_TURN)
        return float(rows[0]["due"]) if rows and rows[0]["due"] is not None else None

    async def due_timers(self, now: float) -> list[Timer]:
        rows = await self._fetch(f"SELECT {TIMER_COLUMNS} FROM timers WHERE due <= ? AND kind <> ? ORDER BY due, id",
                                 now, AI_TURN)
        return [timer_record(row) for row in rows]

    async def timers(self, table_id: int) -> list[Timer]:
        rows = await self._fetch(f"SELECT {TIMER_COLUMNS} FROM timers WHERE table_id = ? ORDER BY due, id", table_id)
        return [timer_record(row) for row in rows]

    async def claim_ai_turns(self, now: float, lease: float, limit: int, *,
                             places: Collection[str] | None = None) -> list[Timer]:
        if places is not None and not places:
            return []
        served_here, chosen = self._serving("place", places)
        of_tables = f" AND table_id IN (SELECT id FROM tables WHERE {served_here})" if served_here else ""
        async with self._sql_statement() as db:
            rows = await db.fetch(
                "UPDATE timers SET lease_until = ? WHERE id IN (SELECT id FROM timers WHERE kind = ? AND due <= ?"
                f" AND lease_until <= ?{of_tables} ORDER BY due, id LIMIT ?{self.dialect.skip_locked})"
                f" RETURNING {TIMER_COLUMNS}", now + lease, AI_TURN, now, now, *chosen, limit)
        return sorted((timer_record(row) for row in rows), key=lambda t: (t.due, t.id or 0))

    async def delete_timer(self, timer_id: int) -> None:
        async with self._sql_statement() as db:
            await db.execute("DELETE FROM timers WHERE id = ?", timer_id)

    # ---- settings, pictures and snapshots ---------------------------------------------------

    async def settings(self, guild: str) -> Settings:
        rows = await self._fetch("SELECT data FROM settings WHERE guild = ?", guild)
        return settings_from(guild, rows[0]["data"] if rows else None)

    async def save_settings(self, settings: Settings) -> None:
        async with self._sql_statement() as db:
            await db.execute(UPSERT_SETTINGS, *settings_values(settings))

    async def update_settings(self, guild: str, change: Callable[[Settings], None]) -> Settings:
        async with self._sql_transaction("settings:" + guild) as db:
            rows = await db.fetch("SELECT data FROM settings WHERE guild = ?", guild)
            settings = settings_from(guild, rows[0]["data"] if rows else None)
            change(settings)
            await db.execute(UPSERT_SETTINGS, *settings_values(settings))
        return settings

    async def save_picture(self, table_id: int, seat: int, kind: str, data: bytes, source: str,
                           at: float) -> None:
        async with self._sql_statement() as db:
            await db.execute(
                "INSERT INTO pictures (table_id, seat, kind, data, source, created_at) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (table_id, seat, kind) DO UPDATE SET data = excluded.data, source = excluded.source,"
                " created_at = excluded.created_at", table_id, seat, kind, data, source, at)

    async def pictures(self, table_id: int, kind: str) -> dict[int, tuple[bytes, str]]:
        rows = await self._fetch("SELECT seat, data, source FROM pictures WHERE table_id = ? AND kind = ?",
                                 table_id, kind)
        return {row["seat"]: (bytes(row["data"]), row["source"]) for row in rows}

    async def watch_token(self, table_id: int, new: str) -> str:
        async with self._sql_transaction() as db:
            await db.execute("INSERT INTO watch_links (token, table_id) VALUES (?, ?) ON CONFLICT (table_id)"
                             " DO NOTHING", new, table_id)
            rows = await db.fetch("SELECT token FROM watch_links WHERE table_id = ?", table_id)
        return str(rows[0]["token"])

    async def snapshot(self, table_id: int) -> tuple[int, str, bytes] | None:
        rows = await self._fetch("SELECT ply, version, data FROM snapshots WHERE table_id = ?", table_id)
        return (rows[0]["ply"], rows[0]["version"], bytes(rows[0]["data"])) if rows else None

    async def save_snapshot(self, table_id: int, ply: int, version: str, data: bytes) -> None:
        async with self._sql_statement() as db:
            await db.execute(
                "INSERT INTO snapshots (table_id, ply, version, data) VALUES (?, ?, ?, ?) ON CONFLICT (table_id)"
                " DO UPDATE SET ply = excluded.ply, version = excluded.version, data = excluded.data",
                table_id, ply, version, data)

    # ---- copying a database -----------------------------------------------------------------

    async def dump(self) -> dict[str, list[dict[str, Any]]]:
        async with self._read_sql() as db:
            return {name: [dict(row) for row in await db.fetch(f"SELECT * FROM {name}")] for name in DUMPED}

    async def load(self, rows: dict[str, list[dict[str, Any]]]) -> None:
        async with self._sql_transaction() as db:
            for name in DUMPED:
                for row in rows.get(name, []):
                    await db.execute(f"INSERT INTO {name} ({', '.join(row)}) VALUES ({marks(len(row))})",
                                     *row.values())
            for statement in self.dialect.after_load:
                await db.execute(statement)


async def _live_actions(db: Connection, table_id: int) -> int:
    """The length of the table's live log (undone actions excluded)."""
    rows = await db.fetch("SELECT COUNT(*) AS n FROM actions WHERE table_id = ? AND undone = 0", table_id)
    return int(rows[0]["n"])


async def _write_table(db: Connection, table: TableRecord) -> None:
    """Write the table and its seats if it is still at `table.version` (else StaleTable)."""
    if await db.changes(UPDATE_TABLE, *saved_values(table), table.id, table.version) != 1:
        raise StaleTable(table.id, table.version)
    await _write_seats(db, table)


async def _write_seats(db: Connection, table: TableRecord) -> None:
    await db.execute("DELETE FROM seats WHERE table_id = ?", table.id)
    await db.executemany(INSERT_SEAT, [(table.id, s.seat, s.name, s.user_id, s.agent) for s in table.seats])


async def _insert_notices(db: Connection, notices: Sequence[Notice]) -> None:
    """Add `notices` to the outbox (their ids are set)."""
    for notice in notices:
        rows = await db.fetch(INSERT_NOTICE, notice.table_id, *notice_values(notice))
        notice.id = rows[0]["id"]


def served(places: Collection[str] | None, place: str | None) -> bool:
    """Whether `place` is among the places a process serves (`place_patterns`: a place, or a
    transport's prefix ending in a colon); every place is when `places` is None."""
    if places is None:
        return True
    return place is not None and any(place == p or (p.endswith(":") and place.startswith(p)) for p in places)


# =============================================================================================
# SQLite


class SQLiteStore(SqlStore):
    """The store in one SQLite file: WAL, a busy timeout, `BEGIN IMMEDIATE` writes through one
    writer connection behind a lock, and a second connection for reads."""

    dialect = SQLITE
    unique_violation = sqlite3.IntegrityError

    def __init__(self, path: str | Path, *, synchronous: str = "FULL") -> None:
        super().__init__()
        self.path = Path(path)
        self.synchronous = synchronous
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()

    async def open(self) -> None:
        """Open the file, creating it and migrating its schema as needed."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._writer = await self._connect()
        try:
            await self._migrate()
            self._reader = await self._connect()
        except BaseException:
            await self.close()
            raise

    async def _connect(self) -> aiosqlite.Connection:
        connection = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            connection.row_factory = aiosqlite.Row
            await connection.execute("PRAGMA busy_timeout=10000")
            await _write_ahead_logging(connection)
            await connection.execute(f"PRAGMA synchronous={self.synchronous}")
            await connection.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            await connection.close()
            raise
        return connection

    async def _migrate(self) -> None:
        async with self._transaction() as db:
            row = await (await db.execute("PRAGMA user_version")).fetchone()
            version = row[0] if row else 0
            if version > len(MIGRATIONS):
                raise RuntimeError(f"{self.path} has schema {version}; this tileref knows up to {len(MIGRATIONS)}")
            for number in range(version, len(MIGRATIONS)):
                log.info("migrating %s to schema %d", self.path, number + 1)
                for statement in _statements(MIGRATIONS[number]):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version={number + 1}")

    async def close(self) -> None:
        for connection in (self._reader, self._writer):
            if connection is not None:
                await connection.close()
        self._reader = self._writer = None

    @property
    def reader(self) -> aiosqlite.Connection:
        if self._reader is None:
            raise RuntimeError("the store is not open")
        return self._reader

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        if self._writer is None:
            raise RuntimeError("the store is not open")
        async with self._write_lock:
            db = self._writer
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                await db.execute("ROLLBACK")
                raise
            else:
                await db.execute("COMMIT")

    @asynccontextmanager
    async def _read_sql(self) -> AsyncIterator[Connection]:
        yield _SQLiteSql(self.reader)

    def _sql_statement(self) -> AbstractAsyncContextManager[Connection]:
        """A write transaction of its own (`_sql_transaction`): SQLite writes in nothing less."""
        return self._sql_transaction()

    @asynccontextmanager
    async def _sql_transaction(self, lock: str | None = None) -> AsyncIterator[Connection]:
        """A write transaction (SQLite has one writer at a time, so `lock` needs nothing more);
        the tables it notifies of are told to this process's listeners once it commits."""
        async with self._transaction() as db:
            sql = _SQLiteSql(db)
            yield sql
        for table_id in sql.notified:
            self.changed(table_id)

    async def commit(self, table_id: int, *, expected: int, actions: Sequence[ActionRecord] = (),
                     table: TableRecord | None = None, timers: Sequence[Timer] | None = None,
                     undo_after: int | None = None, notices: Sequence[Notice] = (),
                     delete_timer: int | None = None, also: Write | None = None) -> None:
        async with self._sql_transaction() as db:
            actual = await _live_actions(db, table_id)
            if actual != expected:
                raise StaleLog(table_id, expected, actual)
            if delete_timer is not None and await db.changes("DELETE FROM timers WHERE id = ?", delete_timer) != 1:
                raise StaleLog(table_id, expected, actual)
            if undo_after is not None:
                await db.execute("UPDATE actions SET undone = 1 WHERE table_id = ? AND undone = 0 AND ply > ?",
                                 table_id, undo_after)
                await db.execute("DELETE FROM snapshots WHERE table_id = ? AND ply > ?", table_id, undo_after)
            await db.executemany(INSERT_ACTION, [(table_id, a.ply, a.seat, a.action, a.actor, a.at) for a in actions])
            if table is not None:
                try:
                    await _write_table(db, table)
                except self.unique_violation:  # reopened where another table opened meanwhile
                    raise PlaceTaken(table.place) from None
            if timers is not None:
                await db.execute("DELETE FROM timers WHERE table_id = ?", table_id)
                await db.executemany(INSERT_TIMER, [(table_id, t.seat, t.kind, t.due, t.ply) for t in timers])
            await _insert_notices(db, notices)
            if also is not None:
                await also(db)
            await db.notify(table_id)
        if table is not None:
            table.version += 1


class _SQLiteSql:
    """`bot.storage.sql.Connection` on an aiosqlite connection."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.notified: list[int] = []
        """The tables `notify` was told of, for the transaction to tell once it commits."""

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return list(await self.db.execute_fetchall(sql, args))  # type: ignore[arg-type]

    async def execute(self, sql: str, *args: Any) -> None:
        await self.db.execute(sql, args)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.db.executemany(sql, rows)

    async def changes(self, sql: str, *args: Any) -> int:
        cursor = await self.db.execute(sql, args)
        return cursor.rowcount

    async def lock(self, name: str) -> None:
        """Nothing to do: SQLite's writes are one at a time."""

    async def notify(self, table_id: int) -> None:
        self.notified.append(table_id)


async def _write_ahead_logging(connection: aiosqlite.Connection, *, patience: float = 10.0) -> None:
    """Put the file in write-ahead-logging mode (it stays so), waiting up to `patience` seconds
    for other connections that are opening the same new file at this moment: SQLite refuses a
    change of journal mode at once, without its busy timeout, while another connection holds
    the file."""
    deadline = asyncio.get_running_loop().time() + patience
    while True:
        try:
            await connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode != sqlite3.SQLITE_BUSY or asyncio.get_running_loop().time() > deadline:
                raise
        await asyncio.sleep(0.02)


def _statements(script: str) -> list[str]:
    """A migration's statements, one by one (SQLite runs one statement at a time)."""
    return [s.strip() for s in script.split(";") if s.strip()]
