"""The SQL both stores run, written once: statements with `?` placeholders, each stored record's
columns listed once beside the function that reads a row back into the record, and the few
things SQLite and PostgreSQL say differently (`Dialect`).

A store runs these statements through a `Connection`, a small interface over its driver: the
PostgreSQL one numbers the placeholders (`numbered`) on the way to asyncpg.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import cached_property, lru_cache
from typing import Any, Protocol

from bot.core.records import DELIVERY_LEASE, ActionRecord, Notice, SeatRecord, Settings, TableRecord, Timer

Row = Mapping[str, Any]
"""A row as both drivers give it: its values by column name."""


class Sql(Protocol):
    """The little a store gives `Standings`: statements with `?` placeholders."""

    async def fetch(self, sql: str, *args: Any) -> list[Row]: ...

    async def execute(self, sql: str, *args: Any) -> None: ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def lock(self, name: str) -> None:
        """Hold the lock called `name` until the transaction ends (PostgreSQL: an advisory lock;
        SQLite needs none, its writes being one at a time)."""


class Connection(Sql, Protocol):
    """`Sql` and the little more the stores' own statements need, on one connection (inside a
    transaction or not)."""

    async def changes(self, sql: str, *args: Any) -> int:
        """Run one statement; how many rows it inserted, updated or deleted."""

    async def notify(self, table_id: int) -> None:
        """Tell the change listeners of every process sharing the database (`Store.listen`)
        that the table changed, once this transaction commits."""


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """SQLite's `?` placeholders as PostgreSQL's `$1`, `$2`, … (none may stand in a literal).
    Remembered: the stores run the same few hundred statements over and over."""
    first, *rest = sql.split("?")
    return first + "".join(f"${number}{part}" for number, part in enumerate(rest, 1))


def marks(count: int) -> str:
    """`count` placeholders, separated by commas."""
    return ", ".join("?" * count)


def place_patterns(places: Collection[str]) -> list[str]:
    """The SQL LIKE patterns (escaped with a backslash) of the places a process serves: a place
    itself (`console:3`), or every place of a transport, given as its prefix ending in a colon
    (`discord:`; no place ends in one)."""
    escaped = (p.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") for p in sorted(places))
    return [p + "%" if p.endswith(":") else p for p in escaped]


# ---- the dialects -------------------------------------------------------------------------------

SEAT_ROWS = ("(SELECT COALESCE(json_agg(json_build_array(s.seat, s.name, s.user_id, s.agent) ORDER BY s.seat),"
             " '[]') FROM seats s WHERE s.table_id = tables.id)")
"""A table's seats as one JSON array, `seat_rows`, in PostgreSQL's words."""


@dataclass(frozen=True)
class Dialect:
    """What SQLite and PostgreSQL say differently, for the statements written once."""

    arrays: bool
    """Whether a list of values is passed as one parameter (PostgreSQL's arrays) rather than a
    placeholder each (SQLite)."""
    for_update: str
    """Ends a SELECT whose rows stay locked until the transaction ends (PostgreSQL; SQLite's
    writes are one at a time, so it needs none)."""
    skip_locked: str
    """`for_update`, passing over rows another transaction holds (two processes claim different ones)."""
    seat_rows: str | None
    """The column that brings a table's seats in the table's own row (one round trip per read),
    or None where they are read apart (SQLite: its JSON aggregate orders its rows only from 3.44 on)."""
    after_load: tuple[str, ...]
    """Statements that follow `Store.load`'s copied rows (PostgreSQL: new ids continue after theirs)."""

    @cached_property
    def table_columns(self) -> str:
        """The columns a table is read with (`table_record`), its seats too where they come along."""
        seats = f", {self.seat_rows} AS seat_rows" if self.seat_rows else ""
        return ", ".join(TABLE_COLUMNS) + seats

    def one_of(self, column: str, values: Collection[Any]) -> tuple[str, list[Any]]:
        """A condition that `column` is one of `values`, and its parameters."""
        if self.arrays:
            return f"{column} = ANY(?)", [list(values)]
        return f"{column} IN ({marks(len(values))})", list(values)

    def like_any(self, column: str, patterns: Collection[str]) -> tuple[str, list[Any]]:
        """A condition that `column` is LIKE one of `patterns` (escaped with backslashes), and its
        parameters."""
        if self.arrays:  # PostgreSQL's LIKE escapes with a backslash unless told otherwise
            return f"{column} LIKE ANY(?)", [list(patterns)]
        return "(" + " OR ".join(f"{column} LIKE ? ESCAPE '\\'" for _ in patterns) + ")", list(patterns)


SQLITE = Dialect(arrays=False, for_update="", skip_locked="", seat_rows=None, after_load=())
POSTGRES = Dialect(arrays=True, for_update=" FOR UPDATE", skip_locked=" FOR UPDATE SKIP LOCKED", seat_rows=SEAT_ROWS,
                   after_load=tuple(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'),"
                                    f" COALESCE((SELECT MAX(id) FROM {name}), 0) + 1, false)"
                                    for name in ("tables", "actions", "timers", "outbox", "vacations", "tournaments",
                                                 "tournament_messages")))


# ---- tables and seats -------------------------------------------------------------------------

TABLE_COLUMNS = ("id", "place", "guild", "game", "options", "status", "seed", "turn_seconds", "paused", "created_by",
                 "created_at", "meta", "version")
"""A table's columns, each named as the `TableRecord` field it holds (the seats are rows of their
own), in the order `bot.storage.schema.LOCK_FUNCTION` returns them."""
SAVED_COLUMNS = ("place", "guild", "options", "status", "seed", "turn_seconds", "paused", "meta")
"""The columns a save of a table writes; the others are written once, when it is created
(`version` counts the saves)."""
_CREATED_COLUMNS = tuple(c for c in TABLE_COLUMNS if c not in ("id", "version"))

INSERT_TABLE = (f"INSERT INTO tables ({', '.join(_CREATED_COLUMNS)}) VALUES ({marks(len(_CREATED_COLUMNS))})"
                " RETURNING id")
UPDATE_TABLE = (f"UPDATE tables SET {', '.join(f'{c} = ?' for c in SAVED_COLUMNS)}, version = version + 1"
                " WHERE id = ? AND version = ?")
"""Save a table if it is still at the version read (parameters: `saved_values`, its id, that version)."""
SEATS_OF_TABLE = "SELECT seat, name, user_id, agent FROM seats WHERE table_id = ? ORDER BY seat"
INSERT_SEAT = "INSERT INTO seats (table_id, seat, name, user_id, agent) VALUES (?, ?, ?, ?, ?)"


def table_values(table: TableRecord) -> dict[str, Any]:
    """A table's columns as stored: JSON for options and meta, 0 or 1 for `paused`."""
    stored = {column: getattr(table, column) for column in TABLE_COLUMNS}
    return stored | {"options": json.dumps(table.options), "meta": json.dumps(table.meta), "paused": int(table.paused)}


def created_values(table: TableRecord) -> list[Any]:
    """`INSERT_TABLE`'s parameters."""
    stored = table_values(table)
    return [stored[column] for column in _CREATED_COLUMNS]


def saved_values(table: TableRecord) -> list[Any]:
    """The values of `SAVED_COLUMNS`, in their order."""
    stored = table_values(table)
    return [stored[column] for column in SAVED_COLUMNS]


def table_record(row: Row, seats: list[SeatRecord]) -> TableRecord:
    """A table from a row of `TABLE_COLUMNS`, with its seats."""
    fields = {column: row[column] for column in TABLE_COLUMNS}
    fields |= {"options": json.loads(row["options"]), "meta": json.loads(row["meta"]), "paused": bool(row["paused"])}
    return TableRecord(**fields, seats=seats)


def seat_record(row: Row) -> SeatRecord:
    """A seat from a row of `SEATS_OF_TABLE`."""
    return SeatRecord(row["seat"], row["name"], row["user_id"], row["agent"])


def tables_with_seat_rows(rows: Sequence[Row]) -> list[TableRecord]:
    """Tables from rows of `POSTGRES.table_columns` (their seats in `seat_rows`)."""
    return [table_record(row, [SeatRecord(*seat) for seat in json.loads(row["seat_rows"])]) for row in rows]


# ---- the action log, timers and the outbox ------------------------------------------------------

ACTION_COLUMNS = "ply, seat, action, actor, at"
INSERT_ACTION = "INSERT INTO actions (table_id, ply, seat, action, actor, at) VALUES (?, ?, ?, ?, ?, ?)"
TIMER_COLUMNS = "id, table_id, seat, kind, due, ply"
INSERT_TIMER = "INSERT INTO timers (table_id, seat, kind, due, ply) VALUES (?, ?, ?, ?, ?)"
NOTICE_COLUMNS = "id, table_id, place, ply, seat, data, created_at, attempts"
INSERT_NOTICE = ("INSERT INTO outbox (table_id, place, ply, seat, data, created_at, lease_until)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id")



def action_record(row: Row) -> ActionRecord:
    """An action from a row of `ACTION_COLUMNS`."""
    return ActionRecord(row["ply"], row["seat"], row["action"], row["actor"], row["at"])


def timer_record(row: Row) -> Timer:
    """A timer from a row of `TIMER_COLUMNS`."""
    return Timer(table_id=row["table_id"], seat=row["seat"], kind=row["kind"], due=row["due"], ply=row["ply"],
                 id=row["id"])


def notice_values(notice: Notice) -> list[Any]:
    """`INSERT_NOTICE`'s parameters but the table's id."""
    return [notice.place, notice.ply, notice.seat, json.dumps(notice.data()), notice.created_at,
            notice.lease_until or notice.created_at + DELIVERY_LEASE]


def notice_record(row: Row) -> Notice:
    """A notice from a row of `NOTICE_COLUMNS`."""
    data: dict[str, Any] = json.loads(row["data"])
    return Notice(table_id=row["table_id"], place=row["place"], ply=row["ply"], seat=row["seat"],
                  text=data["text"], mentions=data.get("mentions", []), board=data.get("board", False),
                  hand=data.get("hand", False), kind=data.get("kind", "move"), origin=data.get("origin", ""),
                  log=data.get("log", ""),
                  id=row["id"],
                  created_at=row["created_at"], attempts=row["attempts"])


# ---- settings -----------------------------------------------------------------------------------

UPSERT_SETTINGS = ("INSERT INTO settings (guild, data) VALUES (?, ?) ON CONFLICT (guild) DO UPDATE"
                   " SET data = excluded.data")


def settings_values(settings: Settings) -> list[Any]:
    """`UPSERT_SETTINGS`'s parameters."""
    return [settings.guild, json.dumps(asdict(settings))]


def settings_from(guild: str, stored: str | None) -> Settings:
    """A server's settings from their stored JSON (defaults when nothing is stored)."""
    if stored is None:
        return Settings(guild)
    data: dict[str, Any] = json.loads(stored)
    data["guild"] = guild
    return Settings(**{k: v for k, v in data.items() if k in Settings.__dataclass_fields__})
