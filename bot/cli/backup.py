"""`tileref backup PATH` and `tileref restore PATH`: a consistent copy of the database, taken while
the bot runs, and that copy brought back into an empty database.

A backup is an SQLite file (so it also opens as a database of its own: `tileref --db PATH stats`).
It holds every row as of one moment (a read-only snapshot of SQLite's write-ahead log, or a
repeatable-read transaction on PostgreSQL), and it is proven before it is kept: every game it holds
replays the same from the backup as from the rows it was made from. A restore is a `copy-db` from
the backup, proven the same way (`bot.cli.copy_db`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.cli.copy_db import copy_database, missing, replays_alike
from bot.storage.address import store_for
from bot.storage.sql import action_record
from bot.storage.sqlite import SQLiteStore
from bot.storage.store import Store


async def backup(source: str, path: Path) -> tuple[int, list[str]]:
    """Copy the database at `source` as of one moment into a new SQLite file at `path`; (tables
    copied, problems found). A backup with problems is removed."""
    if path.exists():
        return 0, [f"{path} exists already: back up into a new file"]
    if problem := missing(source):
        return 0, [problem]
    origin, copy = store_for(source), SQLiteStore(path)
    await origin.open()
    try:
        rows = await origin.dump()
        await copy.open()
        try:
            await copy.load(rows)
            problems = await verify_rows(rows, copy)
        finally:
            await copy.close()
    finally:
        await origin.close()
    if problems:
        for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            leftover.unlink(missing_ok=True)
    return len(rows["tables"]), problems


async def restore(path: Path, target: str) -> tuple[int, list[str]]:
    """Bring the backup at `path` into the empty database at `target`; (tables restored, problems)."""
    if not path.is_file():
        return 0, [f"there is no backup at {path}"]
    return await copy_database(str(path), target)


async def verify_rows(rows: dict[str, list[dict[str, Any]]], copy: Store) -> list[str]:
    """Every difference between the rows a backup was made from and the backup, in words (none:
    []): as many rows of each kind, and every game replaying the same from both logs."""
    problems = []
    mine = await copy.dump()
    for name, taken in rows.items():
        if len(taken) != len(mine.get(name, [])):
            problems.append(f"{name}: {len(taken)} rows, the backup has {len(mine.get(name, []))}")
    logs: dict[Any, list[dict[str, Any]]] = {}
    for row in rows["actions"]:
        if not row["undone"]:
            logs.setdefault(row["table_id"], []).append(row)
    for row in rows["tables"]:
        table = await copy.get_table(row["id"])
        if table is None:
            problems.append(f"table {row['id']} is missing from the backup")
            continue
        if table.seed is None:
            continue
        taken = sorted((action_record(a) for a in logs.get(row["id"], [])), key=lambda a: a.ply)
        problem = replays_alike(table, taken, await copy.actions(table.id), "the backup")
        if problem:
            problems.append(problem)
    return problems
