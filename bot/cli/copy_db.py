"""`tileref copy-db FROM TO`: move every table, log, timer, setting, snapshot, picture,
announcement, rating, result and notification choice from one database to another (SQLite to
PostgreSQL and back), then prove the copy by replaying every game from both and comparing them."""

from __future__ import annotations

from bot.core.records import ActionRecord, TableRecord
from bot.storage.address import missing_file, store_for
from bot.storage.loader import new_game, replay
from bot.storage.store import Store


async def copy_database(source: str, target: str) -> tuple[int, list[str]]:
    """Copy `source` into the empty database `target`; (tables copied, problems found)."""
    if problem := missing(source):
        return 0, [problem]
    origin, copy = store_for(source), store_for(target)
    await origin.open()
    try:
        await copy.open()
        try:
            rows = await origin.dump()
            if any((await copy.dump()).values()):
                return 0, [f"{target} already holds data: copy into an empty database"]
            await copy.load(rows)
            return len(rows["tables"]), await verify(origin, copy)
        finally:
            await copy.close()
    finally:
        await origin.close()


def missing(address: str) -> str | None:
    """Why there is no database to copy at `address` (an SQLite file that does not exist), or None."""
    file = missing_file(store_for(address))
    return None if file is None else f"there is no database at {file}"


async def verify(origin: Store, copy: Store) -> list[str]:
    """Every difference between the two databases' tables and games, in words (none: [])."""
    problems = []
    mine, theirs = await origin.dump(), await copy.dump()
    for name, rows in mine.items():
        if len(rows) != len(theirs.get(name, [])):
            problems.append(f"{name}: {len(rows)} rows, the copy has {len(theirs.get(name, []))}")
    for row in mine["tables"]:
        table, copied = await origin.get_table(row["id"]), await copy.get_table(row["id"])
        if table != copied:
            problems.append(f"table {row['id']} differs in the copy")
            continue
        if table is None or table.seed is None:
            continue
        problem = replays_alike(table, await origin.actions(table.id), await copy.actions(table.id), "the copy")
        if problem:
            problems.append(problem)
    return problems


def replays_alike(table: TableRecord, log: list[ActionRecord], copied: list[ActionRecord], copy: str) -> str | None:
    """Why the table's game does not replay the same from its `log` and from the `copied` one
    (`copy` names where that is, in the sentence), or None when it does."""
    try:
        games = []
        for actions in (log, copied):
            game = new_game(table)
            replay(game, actions)
            games.append(game.to_json())
    except Exception as error:  # a game that no longer replays is exactly what this must report
        return f"table {table.id} ({table.game}) does not replay: {error}"
    if games[0] != games[1]:
        return f"table {table.id} ({table.game}) replays differently from {copy}"
    return None
