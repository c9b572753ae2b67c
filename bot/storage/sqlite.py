"""The store in one SQLite file (aiosqlite): the embedded default."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.core.records import (
    ActionRecord,
    Notice,
    TableRecord,
    Timer,
)
from bot.storage.schema import MIGRATIONS
from bot.storage.sql import (
    INSERT_ACTION,
    INSERT_TIMER,
    SQLITE,
    Connection,
    Row,
)
from bot.storage.sql_store import SqlStore, insert_notices, live_actions, write_table
from bot.storage.standings import Write
from bot.storage.store import PlaceTaken, StaleLog

log = logging.getLogger(__name__)

POLL_SECONDS = 0.05
"""How often a listening store looks whether another process committed (one `PRAGMA
data_version`: no disk read unless something changed)."""
RAISE_CHANGE = ("INSERT INTO table_changes (table_id, seq) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 "
                "FROM table_changes)) ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq")


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
        self._polling: asyncio.Task[None] | None = None

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

    async def listen(self, listener: Callable[[int], None]) -> None:
        """Also hear other processes' commits: a connection of its own polls the file's
        `data_version` every `POLL_SECONDS` and, when it moved, reads which tables'
        `table_changes.seq` rose (this process's own commits are told at once, and may be told
        again by the poll)."""
        await super().listen(listener)
        if self._polling is None:
            watcher = await self._connect()
            version = await _data_version(watcher)
            seen = await _last_change(watcher)
            self._polling = asyncio.get_running_loop().create_task(self._poll(watcher, version, seen))

    async def _poll(self, watcher: aiosqlite.Connection, version: int, seen: int) -> None:
        try:
            while True:
                await asyncio.sleep(POLL_SECONDS)
                try:
                    now = await _data_version(watcher)
                    if now == version:
                        continue
                    version = now
                    rows = await watcher.execute_fetchall(
                        "SELECT table_id, seq FROM table_changes WHERE seq > ? ORDER BY seq", (seen,))
                except sqlite3.Error:
                    log.warning("reading other processes' changes failed; trying again", exc_info=True)
                    continue
                for table_id, seq in rows:
                    seen = max(seen, seq)
                    self.changed(table_id)
        finally:
            await watcher.close()

    async def close(self) -> None:
        polling, self._polling = self._polling, None
        if polling is not None:
            polling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await polling
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

    @asynccontextmanager
    async def _read_snapshot(self) -> AsyncIterator[Connection]:
        """A connection of its own in one read transaction: in WAL mode its reads see the file as
        it was at the first, and writers go on meanwhile."""
        connection = await self._connect()
        try:
            await connection.execute("BEGIN")
            yield _SQLiteSql(connection)
            await connection.execute("ROLLBACK")
        finally:
            await connection.close()

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
            actual = await live_actions(db, table_id)
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
                    await write_table(db, table)
                except self.unique_violation:  # reopened where another table opened meanwhile
                    raise PlaceTaken(table.place) from None
            if timers is not None:
                await db.execute("DELETE FROM timers WHERE table_id = ?", table_id)
                await db.executemany(INSERT_TIMER, [(table_id, t.seat, t.kind, t.due, t.ply) for t in timers])
            await insert_notices(db, notices)
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
        """Tell this process's listeners once the transaction commits, and other processes through
        `table_changes` (see `SQLiteStore.listen`)."""
        if table_id not in self.notified:
            await self.db.execute(RAISE_CHANGE, (table_id,))
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


async def _data_version(connection: aiosqlite.Connection) -> int:
    """A number that changes when another connection commits to the file."""
    rows = list(await connection.execute_fetchall("PRAGMA data_version"))
    return int(rows[0][0])


async def _last_change(connection: aiosqlite.Connection) -> int:
    rows = list(await connection.execute_fetchall("SELECT COALESCE(MAX(seq), 0) FROM table_changes"))
    return int(rows[0][0])


def _statements(script: str) -> list[str]:
    """A migration's statements, one by one (SQLite runs one statement at a time)."""
    return [s.strip() for s in script.split(";") if s.strip()]
