"""The store's statements written once for SQLite and PostgreSQL alike: `SqlStore`, which each
database's store completes with its connections and what only it does."""

from __future__ import annotations

import logging
from abc import abstractmethod
from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.core.records import (
    AI_TURN,
    OPEN_STATUSES,
    ActionRecord,
    Backlog,
    Notice,
    Settings,
    TableBacklog,
    TableRecord,
    Timer,
)
from bot.storage.players import Forgotten, forget_player, player_data
from bot.storage.sql import (
    ACTION_COLUMNS,
    INSERT_NOTICE,
    INSERT_SEAT,
    INSERT_TABLE,
    NOTICE_COLUMNS,
    SEATS_OF_TABLE,
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
from bot.storage.standings import Standings
from bot.storage.store import DUMPED, PlaceTaken, StaleTable, Store
from bot.storage.tournaments import Tournaments
from bot.storage.vacations import Vacations

log = logging.getLogger(__name__)



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
        self.vacations = Vacations(self._read_sql, self._sql_transaction)
        self.tournaments = Tournaments(self._read_sql, self._sql_transaction)

    @abstractmethod
    def _read_sql(self) -> AbstractAsyncContextManager[Connection]:
        """A connection to read with, outside any transaction."""

    @abstractmethod
    def _read_snapshot(self) -> AbstractAsyncContextManager[Connection]:
        """A connection whose reads all see the database as it was at the first of them, however
        other processes write meanwhile, and which writes nothing (a backup's)."""

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
                await write_table(db, claim)
                await db.notify(claim.id)
            try:
                rows = await db.fetch(INSERT_TABLE, *created_values(table))
            except self.unique_violation:
                raise PlaceTaken(table.place) from None
            table.id = rows[0]["id"]
            table.version = 0
            await write_seats(db, table)
        if claim is not None:
            claim.version += 1
        return table.id

    async def save_table(self, table: TableRecord) -> None:
        async with self._sql_transaction() as db:
            await write_table(db, table)
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
            return await live_actions(db, table_id)

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
            await insert_notices(db, merged)
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

    async def backlog(self, now: float) -> Backlog:
        rows = await self._fetch(
            "SELECT (SELECT MIN(created_at) FROM outbox WHERE delivered_at IS NULL) AS notice,"
            " (SELECT MIN(due) FROM timers WHERE due <= ? AND kind <> ?) AS timer,"
            " (SELECT MIN(due) FROM timers WHERE due <= ? AND kind = ?) AS ai_turn", now, AI_TURN, now, AI_TURN)
        return backlog_record(rows[0])

    async def backlog_by_table(self, now: float) -> list[TableBacklog]:
        rows = await self._fetch(
            "SELECT t.id, t.place, t.game, t.status, t.paused,"
            " (SELECT MIN(created_at) FROM outbox o WHERE o.table_id = t.id AND o.delivered_at IS NULL) AS notice,"
            " (SELECT MIN(due) FROM timers m WHERE m.table_id = t.id AND m.due <= ? AND m.kind <> ?) AS timer,"
            " (SELECT MIN(due) FROM timers m WHERE m.table_id = t.id AND m.due <= ? AND m.kind = ?) AS ai_turn"
            " FROM tables t WHERE t.id IN (SELECT table_id FROM outbox WHERE delivered_at IS NULL"
            " UNION SELECT table_id FROM timers WHERE due <= ?) ORDER BY t.id",
            now, AI_TURN, now, AI_TURN, now)
        found = [TableBacklog(row["id"], row["place"], row["game"], row["status"], bool(row["paused"]),
                              backlog_record(row)) for row in rows]
        return sorted(found, key=lambda t: min(w for w in (t.backlog.oldest_notice, t.backlog.oldest_due_timer,
                                                           t.backlog.oldest_ai_turn) if w is not None))

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

    # ---- a player's own data ------------------------------------------------------------------

    async def player_data(self, user_id: str) -> dict[str, list[dict[str, Any]]]:
        async with self._read_sql() as db:
            return await player_data(db, user_id)

    async def forget_player(self, user_id: str, anonymous: str, name_in: Callable[[str | None], str]) -> Forgotten:
        async with self._sql_transaction("ratings") as db:
            return await forget_player(db, self.dialect, user_id, anonymous, name_in)

    # ---- copying a database -----------------------------------------------------------------

    async def dump(self) -> dict[str, list[dict[str, Any]]]:
        """Every row of every table, as of one moment (a running bot may go on writing)."""
        async with self._read_snapshot() as db:
            return {name: [dict(row) for row in await db.fetch(f"SELECT * FROM {name}")] for name in DUMPED}

    async def load(self, rows: dict[str, list[dict[str, Any]]]) -> None:
        async with self._sql_transaction() as db:
            for name in DUMPED:
                for row in rows.get(name, []):
                    await db.execute(f"INSERT INTO {name} ({', '.join(row)}) VALUES ({marks(len(row))})",
                                     *row.values())
            for statement in self.dialect.after_load:
                await db.execute(statement)


def backlog_record(row: Row) -> Backlog:
    """The oldest waiting times of a row's `notice`, `timer` and `ai_turn` columns (NULL: nothing)."""
    return Backlog(*(None if row[name] is None else float(row[name]) for name in ("notice", "timer", "ai_turn")))


async def live_actions(db: Connection, table_id: int) -> int:
    """The length of the table's live log (undone actions excluded)."""
    rows = await db.fetch("SELECT COUNT(*) AS n FROM actions WHERE table_id = ? AND undone = 0", table_id)
    return int(rows[0]["n"])


async def write_table(db: Connection, table: TableRecord) -> None:
    """Write the table and its seats if it is still at `table.version` (else StaleTable)."""
    if await db.changes(UPDATE_TABLE, *saved_values(table), table.id, table.version) != 1:
        raise StaleTable(table.id, table.version)
    await write_seats(db, table)


async def write_seats(db: Connection, table: TableRecord) -> None:
    await db.execute("DELETE FROM seats WHERE table_id = ?", table.id)
    await db.executemany(INSERT_SEAT, [(table.id, s.seat, s.name, s.user_id, s.agent) for s in table.seats])


async def insert_notices(db: Connection, notices: Sequence[Notice]) -> None:
    """Add `notices` to the outbox (their ids are set)."""
    for notice in notices:
        rows = await db.fetch(INSERT_NOTICE, notice.table_id, *notice_values(notice))
        notice.id = rows[0]["id"]
