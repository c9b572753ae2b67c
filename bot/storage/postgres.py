"""The store on PostgreSQL (asyncpg), for several bot processes sharing one database.

The statements are `SqlStore`'s, written once for both databases, and the schema versions
SQLite's (`bot.storage.schema`, translated to PostgreSQL's dialect). What is PostgreSQL's own
comes with several processes: a command on a table holds an advisory lock on its place for its
whole length (`command_lock`), so commands on one table run one at a time whichever process
takes them; every commit (one server-side function, one round trip) also takes the table's
advisory lock and checks the log length it expected, and the unique index on (table, ply)
refuses a second entry for a ply; a due timer fires only inside the commit that deletes it, so
it fires once; announcements and AI turns are claimed with `FOR UPDATE SKIP LOCKED`, so two
processes never send the same one at once; and every change is told to every process with
LISTEN/NOTIFY.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import asyncpg

from bot.core import metrics
from bot.core.records import ActionRecord, FirstRead, Notice, TableRecord, Timer
from bot.storage.schema import COMMIT_FUNCTION, LOCK_FUNCTION, LOCKS, PG_MIGRATIONS
from bot.storage.sql import POSTGRES, Connection, Row, notice_values, numbered, saved_values, tables_with_seat_rows
from bot.storage.sql_store import SqlStore
from bot.storage.standings import Write
from bot.storage.store import ANY_TABLE, PlaceTaken, StaleLog, StaleTable

log = logging.getLogger(__name__)

MIGRATION_LOCK = 1
"""The second key of the advisory lock that lets one process at a time migrate the schema."""


class PostgresStore(SqlStore):
    """The store in a PostgreSQL database at `address` (`postgresql://user@host:5432/db`), in
    `schema` if given, or `?search_path=<schema>` in the address (tests give each their own)."""

    dialect = POSTGRES
    unique_violation = asyncpg.UniqueViolationError

    def __init__(self, address: str, *, schema: str | None = None, pool_size: int = 10) -> None:
        super().__init__()
        base, _, query = address.partition("?")
        settings = dict(part.split("=", 1) for part in query.split("&") if "=" in part)
        self.schema = schema or settings.pop("search_path", None)
        """A schema of the database to keep everything in (`?search_path=name` in the address)."""
        self.address = base + ("?" + "&".join(f"{k}={v}" for k, v in settings.items()) if settings else "")
        self.pool_size = pool_size
        self._pool: asyncpg.Pool | None = None
        self._locks: asyncpg.Pool | None = None
        """Connections that hold commands' advisory locks: a pool of their own, so commands
        waiting for a lock never take the connections that commits need."""
        self._listening: asyncpg.Connection | None = None
        """The connection that LISTENs for changes (see `listen`), once someone listens."""
        self._relistening: asyncio.Task[None] | None = None

    @asynccontextmanager
    async def _read_sql(self) -> AsyncIterator[Connection]:
        async with self.pool.acquire() as db:
            yield _PostgresSql(db)

    @asynccontextmanager
    async def _read_snapshot(self) -> AsyncIterator[Connection]:
        """A read-only, repeatable-read transaction: every read sees the database as of the first."""
        async with self.pool.acquire() as db, db.transaction(isolation="repeatable_read", readonly=True):
            yield _PostgresSql(db)

    def _sql_statement(self) -> AbstractAsyncContextManager[Connection]:
        """A connection of the pool: one statement on it is its own transaction."""
        return self._read_sql()

    @asynccontextmanager
    async def _sql_transaction(self, lock: str | None = None) -> AsyncIterator[Connection]:
        """A transaction, holding the advisory lock named `lock` until it ends if one is given."""
        async with self._transaction() as db:
            sql = _PostgresSql(db)
            if lock is not None:
                await sql.lock(lock)
            yield sql

    def __repr__(self) -> str:
        return f"PostgresStore({self.address.split('@')[-1]!r}{', schema=' + self.schema if self.schema else ''})"

    async def open(self) -> None:
        settings = {"search_path": self.schema} if self.schema else {}
        self._pool = await asyncpg.create_pool(self.address, min_size=1, max_size=self.pool_size,
                                               server_settings=settings, reset=_nothing_to_reset)
        self._locks = await asyncpg.create_pool(self.address, min_size=1, max_size=self.pool_size,
                                                server_settings=settings, reset=_nothing_to_reset)
        try:
            await self.migrate()
        except BaseException:
            await self.close()
            raise
        metrics.watch_pool(self.pool_use)

    async def migrate(self) -> int:
        """Bring the schema up to date (one process at a time); returns the schema version."""
        async with self._transaction() as db:
            await db.execute("SELECT pg_advisory_xact_lock($1, $2)", LOCKS, MIGRATION_LOCK)
            if self.schema:  # under the lock: two processes creating one schema at once would collide
                await db.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
            await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            version = await db.fetchval("SELECT version FROM schema_version")
            if version is None:
                await db.execute("INSERT INTO schema_version (version) VALUES (0)")
                version = 0
            if version > len(PG_MIGRATIONS):
                raise RuntimeError(f"the database has schema {version}; this tileref knows up to {len(PG_MIGRATIONS)}")
            for number in range(version, len(PG_MIGRATIONS)):
                log.info("migrating %r to schema %d", self, number + 1)
                await db.execute(PG_MIGRATIONS[number])
                await db.execute("UPDATE schema_version SET version = $1", number + 1)
            await db.execute(COMMIT_FUNCTION)
            await db.execute(LOCK_FUNCTION)
            return len(PG_MIGRATIONS)

    async def listen(self, listener: Callable[[int], None]) -> None:
        """LISTEN on a connection of its own for every commit's NOTIFY (the channel is named
        after the schema, so stores in other schemas of the database are not heard)."""
        await super().listen(listener)
        if self._listening is None:
            await self._listen()

    async def _listen(self) -> None:
        settings = {"search_path": self.schema} if self.schema else {}
        connection = await asyncpg.connect(self.address, server_settings=settings)
        channel = await connection.fetchval("SELECT 'tileref_' || current_schema()")
        await connection.add_listener(channel, self._notified)
        connection.add_termination_listener(self._lost)
        self._listening = connection

    def _notified(self, _connection: object, _pid: int, _channel: str, payload: str) -> None:
        self.changed(int(payload))

    def _lost(self, connection: asyncpg.Connection) -> None:
        """The listening connection ended without `close`: listen again (a change made
        meanwhile was not heard, so every listener is told that any table may have changed)."""
        if self._listening is connection and self._pool is not None:
            self._listening = None
            self._relistening = asyncio.get_running_loop().create_task(self._listen_again())

    async def _listen_again(self) -> None:
        for delay in (0.5, 1, 2, 5, 10, 30, 60):
            if self._pool is None:
                return
            try:
                await self._listen()
            except (OSError, asyncpg.PostgresError):
                log.warning("listening for changes again failed; retrying in %ss", delay, exc_info=True)
                await asyncio.sleep(delay)
                continue
            self.changed(ANY_TABLE)
            return
        log.error("could not listen for changes again: live pages update only on reload until a restart")

    async def close(self) -> None:
        listening, self._listening = self._listening, None
        if listening is not None:
            await listening.close()
        if self._relistening is not None:
            self._relistening.cancel()
        for pool in (self._locks, self._pool):
            if pool is not None:
                await pool.close()
        self._pool = self._locks = None
        metrics.forget_pool(self.pool_use)

    def pool_use(self) -> tuple[int, int]:
        """The connections of both pools (commands' and their locks'): (in use, open)."""
        pools = [p for p in (self._pool, self._locks) if p is not None]
        size = sum(p.get_size() for p in pools)
        return size - sum(p.get_idle_size() for p in pools), size

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("the store is not open")
        return self._pool

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[asyncpg.Connection]:
        async with self.pool.acquire() as db, db.transaction():
            yield db

    @asynccontextmanager
    async def command_lock(self, place: str) -> AsyncIterator[FirstRead]:
        """Hold the place's advisory lock (on a connection of its own) while the command runs;
        the lock and the first read of the table are one round trip."""
        if self._locks is None:
            raise RuntimeError("the store is not open")
        async with self._locks.acquire() as db:
            try:
                rows = await db.fetch("SELECT * FROM tileref_lock_place($1)", place)
            except BaseException:
                db.terminate()  # the lock may have been taken before the call failed or was cancelled
                raise
            try:
                yield FirstRead(tables_with_seat_rows(rows)[0] if rows else None,
                                [_timer_from(rows[0]["id"], *timer) for timer in json.loads(rows[0]["timer_rows"])]
                                if rows else [])
            finally:
                try:
                    await db.execute("SELECT pg_advisory_unlock($1, hashtext($2))", LOCKS, place)
                except BaseException:
                    db.terminate()  # never back in the pool holding a lock: its session ends, and the lock
                    raise

    # ---- the commit function ------------------------------------------------------------

    async def commit(self, table_id: int, *, expected: int, actions: Sequence[ActionRecord] = (),
                     table: TableRecord | None = None, timers: Sequence[Timer] | None = None,
                     undo_after: int | None = None, notices: Sequence[Notice] = (),
                     delete_timer: int | None = None, also: Write | None = None) -> None:
        written = table or TableRecord(id=table_id, place="", game="", options={}, status="", seed=0,
                                       turn_seconds=None, created_by="", created_at=0.0)
        try:
            async with self.pool.acquire() as db, (db.transaction() if also else contextlib.nullcontext()):
                # without `also`, one statement: its own transaction
                ids = await db.fetchval(
                    "SELECT tileref_commit($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,"
                    " $17, $18)",
                    table_id, expected, undo_after, delete_timer,
                    json.dumps([[a.ply, a.seat, a.action, a.actor, a.at] for a in actions]),
                    table is not None, *saved_values(written),
                    written.version, json.dumps([[s.seat, s.name, s.user_id, s.agent] for s in written.seats]),
                    None if timers is None else json.dumps([[t.seat, t.kind, t.due, t.ply] for t in timers]),
                    json.dumps([notice_values(n) for n in notices]))
                if also is not None:
                    await also(_PostgresSql(db))
        except asyncpg.UniqueViolationError as error:
            if error.constraint_name == "tables_open_place":  # reopened where another table opened meanwhile
                raise PlaceTaken(written.place) from None
            raise StaleLog(table_id, expected, expected + 1) from None
        except asyncpg.RaiseError as error:
            if error.message == "stale table":
                raise StaleTable(table_id, written.version) from None
            if error.message == "stale log":
                raise StaleLog(table_id, expected, int(error.detail or -1)) from None
            raise
        for notice, notice_id in zip(notices, ids, strict=True):
            notice.id = notice_id
        if table is not None:
            table.version += 1

    async def drop_schema(self) -> None:
        """Remove this store's schema and everything in it (tests clean up with it)."""
        if not self.schema:
            raise RuntimeError("only a store in a schema of its own can drop it")
        await self.close()
        connection = await asyncpg.connect(self.address)
        try:
            await connection.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')
        finally:
            await connection.close()


class _PostgresSql:
    """`bot.storage.sql.Connection` on an asyncpg connection: `?` placeholders become `$1`, `$2`, …"""

    def __init__(self, db: asyncpg.Connection) -> None:
        self.db = db

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return list(await self.db.fetch(numbered(sql), *args))

    async def execute(self, sql: str, *args: Any) -> None:
        await self.db.execute(numbered(sql), *args)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.db.executemany(numbered(sql), rows)

    async def changes(self, sql: str, *args: Any) -> int:
        done = await self.db.execute(numbered(sql), *args)  # "UPDATE 1", "INSERT 0 1", …
        return int(done.split()[-1])

    async def lock(self, name: str) -> None:
        await self.db.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", LOCKS, name)

    async def notify(self, table_id: int) -> None:
        """NOTIFY, which PostgreSQL delivers when the transaction commits (this process hears it too)."""
        await self.db.execute("SELECT pg_notify('tileref_' || current_schema(), $1)", str(table_id))


async def _nothing_to_reset(db: asyncpg.Connection) -> None:
    """Connections go back to their pool as they are (asyncpg rolls back an open transaction
    first): the store leaves no session state behind (no LISTEN, cursors or settings; command
    locks are released by `command_lock` itself), so the full reset would only cost a round trip."""


def _timer_from(table_id: int, timer_id: int, seat: int, kind: str, due: float, ply: int) -> Timer:
    return Timer(table_id=table_id, seat=seat, kind=kind, due=due, ply=ply, id=timer_id)
