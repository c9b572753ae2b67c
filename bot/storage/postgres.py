"""The store on PostgreSQL (asyncpg), for several bot processes sharing one database.

The same schema versions as SQLite (`bot.storage.schema`, translated to PostgreSQL's
dialect). What changes with several processes: a command on a table holds an advisory lock on
its place for its whole length (`command_lock`), so commands on one table run one at a time
whichever process takes them; every commit also takes the table's advisory lock and checks the
log length it expected, and the unique index on (table, ply) refuses a second entry for a ply; a
due timer fires only inside the commit that deletes it, so it fires once; announcements are
claimed with `FOR UPDATE SKIP LOCKED`, so two processes never send the same one at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import AsyncIterator, Callable, Collection, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import asdict
from typing import Any

import asyncpg

from bot.core.records import (
    AI_TURN,
    OPEN_STATUSES,
    ActionRecord,
    FirstRead,
    Notice,
    SeatRecord,
    Settings,
    TableRecord,
    Timer,
)
from bot.storage.schema import COMMIT_FUNCTION, LOCK_FUNCTION, LOCKS, PG_MIGRATIONS
from bot.storage.standings import Sql, Standings, Write
from bot.storage.store import (
    ANY_TABLE,
    DUMPED,
    OUTBOX_LEASE,
    PlaceTaken,
    StaleLog,
    StaleTable,
    Store,
    place_patterns,
    settings_from,
)

log = logging.getLogger(__name__)

MIGRATION_LOCK = 1

_TABLE_COLUMNS = ("id, place, guild, game, options, status, seed, turn_seconds, paused, created_by, created_at, meta,"
                  " version, (SELECT COALESCE(json_agg(json_build_array(s.seat, s.name, s.user_id, s.agent)"
                  " ORDER BY s.seat), '[]') FROM seats s WHERE s.table_id = tables.id) AS seat_rows")
"""A table's columns and, in the same row, its seats (one round trip per read)."""
_NOTICE_COLUMNS = "id, table_id, place, ply, seat, data, created_at, attempts"


class PostgresStore(Store):
    """The store in a PostgreSQL database at `address` (`postgresql://user@host:5432/db`), in
    `schema` if given, or `?search_path=<schema>` in the address (tests give each their own)."""

    def __init__(self, address: str, *, schema: str | None = None, pool_size: int = 10) -> None:
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
        self.standings = Standings(self._read_sql, self._sql_transaction)

    @asynccontextmanager
    async def _read_sql(self) -> AsyncIterator[Sql]:
        async with self.pool.acquire() as db:
            yield _PostgresSql(db)

    @asynccontextmanager
    async def _sql_transaction(self, lock: str) -> AsyncIterator[Sql]:
        """A transaction holding the advisory lock named `lock` until it ends."""
        async with self._transaction() as db:
            sql = _PostgresSql(db)
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
                yield FirstRead(_tables(rows)[0] if rows else None,
                                [_timer_from(rows[0]["id"], *timer) for timer in json.loads(rows[0]["timer_rows"])]
                                if rows else [])
            finally:
                try:
                    await db.execute("SELECT pg_advisory_unlock($1, hashtext($2))", LOCKS, place)
                except BaseException:
                    db.terminate()  # never back in the pool holding a lock: its session ends, and the lock
                    raise

    # ---- tables -----------------------------------------------------------------------------

    async def create_table(self, table: TableRecord, *, claim: TableRecord | None = None) -> int:
        async with self._transaction() as db:
            if claim is not None:
                await _write_table(db, claim)
                await db.execute("SELECT pg_notify('tileref_' || current_schema(), $1)", str(claim.id))
            try:
                table.id = await db.fetchval(
                    "INSERT INTO tables (place, guild, game, options, status, seed, turn_seconds, paused,"
                    " created_by, created_at, meta) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
                    table.place, table.guild, table.game, json.dumps(table.options), table.status, table.seed,
                    table.turn_seconds, int(table.paused), table.created_by, table.created_at, json.dumps(table.meta))
            except asyncpg.UniqueViolationError:
                raise PlaceTaken(table.place) from None
            table.version = 0
            await _write_seats(db, table)
        if claim is not None:
            claim.version += 1
        return table.id

    async def save_table(self, table: TableRecord) -> None:
        async with self._transaction() as db:
            await _write_table(db, table)
            await db.execute("SELECT pg_notify('tileref_' || current_schema(), $1)", str(table.id))
        table.version += 1

    async def watch_token(self, table_id: int, new: str) -> str:
        async with self._transaction() as db:
            await db.execute("INSERT INTO watch_links (token, table_id) VALUES ($1, $2) ON CONFLICT (table_id)"
                             " DO NOTHING", new, table_id)
            return str(await db.fetchval("SELECT token FROM watch_links WHERE table_id = $1", table_id))

    async def table_by_token(self, token: str) -> TableRecord | None:
        async with self.pool.acquire() as db:
            rows = await db.fetch(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id ="
                                  " (SELECT table_id FROM watch_links WHERE token = $1)", token)
            return _tables(rows)[0] if rows else None

    async def get_table(self, table_id: int) -> TableRecord | None:
        async with self.pool.acquire() as db:
            rows = await db.fetch(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = $1", table_id)
            return _tables(rows)[0] if rows else None

    async def table_at(self, place: str) -> TableRecord | None:
        async with self.pool.acquire() as db:
            rows = await db.fetch(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE place = $1 ORDER BY id DESC LIMIT 1",
                                  place)
            return _tables(rows)[0] if rows else None

    async def find_tables(self, *, place_prefix: str = "", statuses: Sequence[str] = OPEN_STATUSES,
                          limit: int = 100) -> list[TableRecord]:
        async with self.pool.acquire() as db:
            rows = await db.fetch(
                f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status = ANY($1::text[]) AND left(place, $2) = $3"
                " ORDER BY id DESC LIMIT $4", list(statuses), len(place_prefix), place_prefix, limit)
            return _tables(rows)

    async def all_tables(self) -> list[TableRecord]:
        async with self.pool.acquire() as db:
            return _tables(await db.fetch(f"SELECT {_TABLE_COLUMNS} FROM tables ORDER BY id"))

    # ---- the action log ---------------------------------------------------------------------

    async def actions(self, table_id: int, *, after: int = 0) -> list[ActionRecord]:
        async with self.pool.acquire() as db:
            rows = await db.fetch("SELECT ply, seat, action, actor, at FROM actions WHERE table_id = $1 AND undone = 0"
                                  " AND ply > $2 ORDER BY ply", table_id, after)
        return [ActionRecord(r["ply"], r["seat"], r["action"], r["actor"], r["at"]) for r in rows]

    async def log_length(self, table_id: int) -> int:
        async with self.pool.acquire() as db:
            return await _count(db, table_id)

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
                    table is not None, written.place, written.guild, json.dumps(written.options), written.status,
                    written.seed, written.turn_seconds, int(written.paused), json.dumps(written.meta),
                    written.version, json.dumps([[s.seat, s.name, s.user_id, s.agent] for s in written.seats]),
                    None if timers is None else json.dumps([[t.seat, t.kind, t.due, t.ply] for t in timers]),
                    json.dumps([[n.place, n.ply, n.seat, json.dumps(n.data()), n.created_at,
                                 n.lease_until or n.created_at + OUTBOX_LEASE] for n in notices]))
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

    # ---- the outbox -------------------------------------------------------------------------

    async def claim_notices(self, now: float, lease: float, limit: int = 50, *,
                            places: Collection[str] | None = None) -> list[Notice]:
        if places is not None and not places:
            return []
        async with self._transaction() as db:
            rows = await db.fetch(
                f"SELECT {_NOTICE_COLUMNS} FROM outbox WHERE delivered_at IS NULL AND lease_until <= $1"
                " AND ($3::text[] IS NULL OR place LIKE ANY($3::text[]))"
                " ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED", now, limit,
                place_patterns(places) if places is not None else None)
            notices = [_notice(r) for r in rows]
            if notices:
                await db.executemany("UPDATE outbox SET lease_until = $1, attempts = attempts + 1 WHERE id = $2",
                                     [(now + lease, n.id) for n in notices])
        return notices

    async def notices_delivered(self, ids: Sequence[int], now: float) -> None:
        if not ids:
            return
        async with self.pool.acquire() as db:  # one statement: its own transaction
            await db.execute("UPDATE outbox SET delivered_at = $1 WHERE id = ANY($2::bigint[])"
                             " AND delivered_at IS NULL", now, list(ids))

    async def merge_notices(self, ids: Sequence[int], merged: Sequence[Notice], now: float) -> bool:
        async with self._transaction() as db:
            ready = await db.fetchval(
                "SELECT COUNT(*) FROM (SELECT id FROM outbox WHERE id = ANY($1::bigint[]) AND delivered_at IS NULL"
                " AND attempts = 0 FOR UPDATE) AS still_ours", list(ids))
            if ready != len(set(ids)):
                return False
            for notice in merged:
                notice.id = await db.fetchval(
                    "INSERT INTO outbox (table_id, place, ply, seat, data, created_at, lease_until)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                    notice.table_id, notice.place, notice.ply, notice.seat, json.dumps(notice.data()),
                    notice.created_at, notice.lease_until or notice.created_at + OUTBOX_LEASE)
            await db.execute("UPDATE outbox SET delivered_at = $1, merged_into = $2 WHERE id = ANY($3::bigint[])",
                             now, merged[0].id, list(ids))
        return True

    async def reopen_merged(self, merged_id: int, now: float) -> int:
        async with self.pool.acquire() as db:  # one statement: its own transaction
            done = await db.execute("UPDATE outbox SET delivered_at = NULL, merged_into = NULL, attempts = 0,"
                                    " lease_until = $1 WHERE merged_into = $2", now, merged_id)
        return int(done.split()[-1])

    async def pending_notices(self, table_id: int) -> list[Notice]:
        async with self.pool.acquire() as db:
            rows = await db.fetch(f"SELECT {_NOTICE_COLUMNS} FROM outbox WHERE table_id = $1 AND delivered_at IS NULL"
                                  " ORDER BY id", table_id)
        return [_notice(r) for r in rows]

    # ---- timers -----------------------------------------------------------------------------

    async def next_due(self) -> float | None:
        async with self.pool.acquire() as db:
            due = await db.fetchval("SELECT MIN(due) FROM timers WHERE kind <> $1", AI_TURN)
        return float(due) if due is not None else None

    async def due_timers(self, now: float) -> list[Timer]:
        async with self.pool.acquire() as db:
            rows = await db.fetch("SELECT id, table_id, seat, kind, due, ply FROM timers WHERE due <= $1"
                                  " AND kind <> $2 ORDER BY due, id", now, AI_TURN)
        return [_timer(r) for r in rows]

    async def claim_ai_turns(self, now: float, lease: float, limit: int, *,
                             places: Collection[str] | None = None) -> list[Timer]:
        if places is not None and not places:
            return []
        async with self.pool.acquire() as db:  # one statement: its own transaction
            rows = await db.fetch(
                "UPDATE timers SET lease_until = $1 WHERE id IN (SELECT id FROM timers WHERE kind = $2 AND due <= $3"
                " AND lease_until <= $3 AND ($5::text[] IS NULL OR table_id IN"
                " (SELECT id FROM tables WHERE place LIKE ANY($5::text[])))"
                " ORDER BY due, id LIMIT $4 FOR UPDATE SKIP LOCKED)"
                " RETURNING id, table_id, seat, kind, due, ply", now + lease, AI_TURN, now, limit,
                place_patterns(places) if places is not None else None)
        return sorted((_timer(r) for r in rows), key=lambda t: (t.due, t.id or 0))

    async def timers(self, table_id: int) -> list[Timer]:
        async with self.pool.acquire() as db:
            rows = await db.fetch("SELECT id, table_id, seat, kind, due, ply FROM timers WHERE table_id = $1"
                                  " ORDER BY due, id", table_id)
        return [_timer(r) for r in rows]

    async def delete_timer(self, timer_id: int) -> None:
        async with self.pool.acquire() as db:  # one statement: its own transaction
            await db.execute("DELETE FROM timers WHERE id = $1", timer_id)

    # ---- settings, pictures and snapshots --------------------------------------------------

    async def settings(self, guild: str) -> Settings:
        async with self.pool.acquire() as db:
            return settings_from(guild, await db.fetchval("SELECT data FROM settings WHERE guild = $1", guild))

    async def save_settings(self, settings: Settings) -> None:
        async with self.pool.acquire() as db:  # one statement: its own transaction
            await _write_settings(db, settings)

    async def update_settings(self, guild: str, change: Callable[[Settings], None]) -> Settings:
        async with self._transaction() as db:
            await db.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", LOCKS, "settings:" + guild)
            settings = settings_from(guild, await db.fetchval("SELECT data FROM settings WHERE guild = $1", guild))
            change(settings)
            await _write_settings(db, settings)
        return settings

    async def save_picture(self, table_id: int, seat: int, kind: str, data: bytes, source: str,
                           at: float) -> None:
        async with self.pool.acquire() as db:  # one statement: its own transaction
            await db.execute(
                "INSERT INTO pictures (table_id, seat, kind, data, source, created_at) VALUES ($1, $2, $3, $4, $5, $6)"
                " ON CONFLICT (table_id, seat, kind) DO UPDATE SET data = excluded.data, source = excluded.source,"
                " created_at = excluded.created_at", table_id, seat, kind, data, source, at)

    async def pictures(self, table_id: int, kind: str) -> dict[int, tuple[bytes, str]]:
        async with self.pool.acquire() as db:
            rows = await db.fetch("SELECT seat, data, source FROM pictures WHERE table_id = $1 AND kind = $2",
                                  table_id, kind)
        return {r["seat"]: (bytes(r["data"]), r["source"]) for r in rows}

    async def snapshot(self, table_id: int) -> tuple[int, str, bytes] | None:
        async with self.pool.acquire() as db:
            row = await db.fetchrow("SELECT ply, version, data FROM snapshots WHERE table_id = $1", table_id)
        return (row["ply"], row["version"], bytes(row["data"])) if row else None

    async def save_snapshot(self, table_id: int, ply: int, version: str, data: bytes) -> None:
        async with self.pool.acquire() as db:  # one statement: its own transaction
            await db.execute(
                "INSERT INTO snapshots (table_id, ply, version, data) VALUES ($1, $2, $3, $4) ON CONFLICT (table_id)"
                " DO UPDATE SET ply = excluded.ply, version = excluded.version, data = excluded.data",
                table_id, ply, version, data)

    async def dump(self) -> dict[str, list[dict[str, Any]]]:
        async with self.pool.acquire() as db:
            return {name: [dict(r) for r in await db.fetch(f"SELECT * FROM {name}")] for name in DUMPED}

    async def load(self, rows: dict[str, list[dict[str, Any]]]) -> None:
        async with self._transaction() as db:
            for name in DUMPED:
                for row in rows.get(name, []):
                    columns = ", ".join(row)
                    marks = ", ".join(f"${i + 1}" for i in range(len(row)))
                    await db.execute(f"INSERT INTO {name} ({columns}) VALUES ({marks})", *row.values())
            for name in ("tables", "actions", "timers", "outbox"):  # new ids continue after the copied ones
                await db.execute(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'),"
                                 f" COALESCE((SELECT MAX(id) FROM {name}), 0) + 1, false)")

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
    """`bot.standings.Sql` on an asyncpg connection: `?` placeholders become `$1`, `$2`, …"""

    def __init__(self, db: asyncpg.Connection) -> None:
        self.db = db

    async def fetch(self, sql: str, *args: Any) -> list[Mapping[str, Any]]:
        return list(await self.db.fetch(numbered(sql), *args))

    async def execute(self, sql: str, *args: Any) -> None:
        await self.db.execute(numbered(sql), *args)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.db.executemany(numbered(sql), rows)

    async def lock(self, name: str) -> None:
        await self.db.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", LOCKS, name)


def numbered(sql: str) -> str:
    """SQLite's `?` placeholders as PostgreSQL's `$1`, `$2`, … (none may stand in a literal)."""
    count = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _match: f"${next(count)}", sql)


async def _nothing_to_reset(db: asyncpg.Connection) -> None:
    """Connections go back to their pool as they are (asyncpg rolls back an open transaction
    first): the store leaves no session state behind (no LISTEN, cursors or settings; command
    locks are released by `command_lock` itself), so the full reset would only cost a round trip."""


async def _count(db: asyncpg.Connection, table_id: int) -> int:
    return int(await db.fetchval("SELECT COUNT(*) FROM actions WHERE table_id = $1 AND undone = 0", table_id))


async def _write_table(db: asyncpg.Connection, table: TableRecord) -> None:
    """Write the table and its seats if it is still at `table.version` (else StaleTable)."""
    done = await db.execute(
        "UPDATE tables SET place = $1, guild = $2, options = $3, status = $4, seed = $5, turn_seconds = $6,"
        " paused = $7, meta = $8, version = version + 1 WHERE id = $9 AND version = $10",
        table.place, table.guild, json.dumps(table.options), table.status, table.seed, table.turn_seconds,
        int(table.paused), json.dumps(table.meta), table.id, table.version)
    if done != "UPDATE 1":
        raise StaleTable(table.id, table.version)
    await _write_seats(db, table)


async def _write_seats(db: asyncpg.Connection, table: TableRecord) -> None:
    await db.execute("DELETE FROM seats WHERE table_id = $1", table.id)
    if table.seats:
        await db.executemany("INSERT INTO seats (table_id, seat, name, user_id, agent) VALUES ($1, $2, $3, $4, $5)",
                             [(table.id, s.seat, s.name, s.user_id, s.agent) for s in table.seats])


def _tables(rows: Sequence[asyncpg.Record]) -> list[TableRecord]:
    """Table records from rows of `_TABLE_COLUMNS`."""
    return [TableRecord(
        id=row["id"], place=row["place"], guild=row["guild"], game=row["game"], options=json.loads(row["options"]),
        status=row["status"], seed=row["seed"], turn_seconds=row["turn_seconds"], paused=bool(row["paused"]),
        created_by=row["created_by"], created_at=row["created_at"], meta=json.loads(row["meta"]),
        version=row["version"], seats=[SeatRecord(*seat) for seat in json.loads(row["seat_rows"])]) for row in rows]


async def _write_settings(db: asyncpg.Connection, settings: Settings) -> None:
    await db.execute("INSERT INTO settings (guild, data) VALUES ($1, $2) ON CONFLICT (guild) DO UPDATE"
                     " SET data = excluded.data", settings.guild, json.dumps(asdict(settings)))


def _notice(row: asyncpg.Record) -> Notice:
    data: dict[str, Any] = json.loads(row["data"])
    return Notice(table_id=row["table_id"], place=row["place"], ply=row["ply"], seat=row["seat"],
                  text=data["text"], mentions=data.get("mentions", []), board=data.get("board", False),
                  hand=data.get("hand", False), kind=data.get("kind", "move"), origin=data.get("origin", ""),
                  log=data.get("log", ""),
                  id=row["id"],
                  created_at=row["created_at"], attempts=row["attempts"])


def _timer(row: asyncpg.Record) -> Timer:
    return Timer(table_id=row["table_id"], seat=row["seat"], kind=row["kind"], due=row["due"], ply=row["ply"],
                 id=row["id"])


def _timer_from(table_id: int, timer_id: int, seat: int, kind: str, due: float, ply: int) -> Timer:
    return Timer(table_id=table_id, seat=seat, kind=kind, due=due, ply=ply, id=timer_id)
