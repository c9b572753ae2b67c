"""Which store a process uses: `TILEREF_DATABASE` (or `--db`) is a `postgresql://` address for
PostgreSQL, or a path (`sqlite:///path` also reads) for an SQLite file, the default."""

from __future__ import annotations

from pathlib import Path

from bot.storage.sqlite import SQLiteStore
from bot.storage.store import Store

DEFAULT_DATABASE = Path("tileref-data") / "tileref.sqlite3"


class DatabaseAddressError(ValueError):
    """The database address cannot be used; the message says what to write instead."""


def is_postgres(address: str | Path) -> bool:
    return str(address).startswith(("postgresql://", "postgres://"))


def store_for(address: str | Path | None) -> Store:
    """The store at `address` (not opened yet)."""
    text = str(address) if address else str(DEFAULT_DATABASE)
    if is_postgres(text):
        from bot.storage.postgres import PostgresStore

        return PostgresStore(text)
    if "://" in text and not text.startswith("sqlite:///"):
        raise DatabaseAddressError(
            f"TILEREF_DATABASE must be a file path (tileref-data/tileref.sqlite3, or sqlite:///path) or a "
            f"PostgreSQL address (postgresql://user:password@host:5432/tileref), not {text.split('://')[0]}://…")
    return SQLiteStore(text.removeprefix("sqlite:///") if text.startswith("sqlite:///") else text)


def missing_file(store: Store) -> Path | None:
    """The file an SQLite store names when it is not there (opening the store would create it
    empty); None when it is there, or for PostgreSQL."""
    if isinstance(store, SQLiteStore) and not store.path.exists():
        return store.path
    return None
