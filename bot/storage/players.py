"""A player's own rows, written once for both databases: what the store keeps about one person
(`player_data`, for /privacy export) and their removal (`forget_player`, for /privacy forget and
`tileref admin forget`), each given a connection (`bot.storage.sql.Connection`) by the store.

Forgetting keeps every game replayable: the player's seats, moves, results and rating stay, but
under an anonymous id (`anonymous`, the same at every table, so a game's seats stay distinct and
the ratings rebuild the same) and an anonymous name (`name_in(language)`, in each table's
language). What only they chose goes: their notification choices, the pictures they picked.
Snapshots of their tables go too (they are pickled games holding the old name; the log rebuilds
them), and the announcements of those tables are rewritten without their mention or name.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bot.core.i18n import N_
from bot.core.meta import LANGUAGE
from bot.core.replies import clean_name, name_token
from bot.storage.sql import Connection, Dialect, Row
from engine.core import JOIN

FORMER = "former:"
"""How a forgotten player's anonymous id begins (`former:<random>`)."""
FORMER_PLAYER = N_("a former player")
"""How a forgotten player is named (in each table's language)."""
MODERATOR = "mod:"
"""How the log's `actor` names a moderator's action: `mod:<user id>`."""


@dataclass
class Forgotten:
    """What `forget_player` changed, counted: tables touched, and rows of each kind rewritten or
    deleted."""

    tables: int = 0
    seats: int = 0
    actions: int = 0
    results: int = 0
    ratings: int = 0
    announcements: int = 0
    notify: int = 0
    pictures: int = 0
    snapshots: int = 0
    vacations: int = 0
    tournaments: int = 0

    @property
    def anything(self) -> bool:
        return any(vars(self).values())


def _plain(row: Row) -> dict[str, Any]:
    return dict(row)


async def player_data(db: Connection, user_id: str) -> dict[str, list[dict[str, Any]]]:
    """Everything kept about `user_id` that is theirs to see, as plain values: their seats (with
    each table's game, status, server and dates), the tables they opened, the log entries they
    made (never a chance entry: its seed would tell every hidden piece), their results and
    ratings, their notification choices (per server, and those that hold everywhere: quiet hours,
    the list of turns, text-first play), the pictures they chose (where from, not the image),
    their vacations and their tournament entries."""
    seats = await db.fetch(
        "SELECT s.table_id, s.seat, s.name, t.game, t.status, t.guild, t.place, t.created_at FROM seats s"
        " JOIN tables t ON t.id = s.table_id WHERE s.user_id = ? ORDER BY s.table_id", user_id)
    opened = await db.fetch("SELECT id AS table_id, game, status, guild, place, created_at FROM tables"
                            " WHERE created_by = ? ORDER BY id", user_id)
    actions = await db.fetch(
        "SELECT table_id, ply, seat, action, actor, at FROM actions WHERE actor IN (?, ?) AND undone = 0"
        " AND seat >= 0 ORDER BY table_id, ply", user_id, MODERATOR + user_id)
    results = await db.fetch(
        "SELECT table_id, seat, guild, game, name, rank, outcome, finished_at, mu_before, mu FROM results"
        " WHERE player = ? ORDER BY finished_at, table_id", user_id)
    ratings = await db.fetch("SELECT guild, game, name, mu, sigma, score, games, wins, draws FROM ratings"
                             " WHERE player = ? ORDER BY guild, game", user_id)
    notify = await db.fetch("SELECT guild, mode FROM notify WHERE user_id = ? ORDER BY guild", user_id)
    accessibility = await db.fetch("SELECT text_play FROM accessibility WHERE user_id = ?", user_id)
    vacations = await db.fetch("SELECT guild, starts, ends, days, kind FROM vacations WHERE user_id = ?"
                               " ORDER BY guild, starts", user_id)
    everywhere = await db.fetch("SELECT quiet, list, language, list_message FROM notify_player WHERE user_id = ?",
                                user_id)
    pictures = await db.fetch(
        "SELECT p.table_id, p.seat, p.kind, p.source, p.created_at FROM pictures p JOIN seats s"
        " ON s.table_id = p.table_id AND s.seat = p.seat WHERE s.user_id = ? ORDER BY p.table_id", user_id)
    entered = await db.fetch(
        "SELECT e.tournament_id, t.name AS tournament, t.game, t.guild, e.number, e.name, e.rating, e.joined_at,"
        " e.checked_in, e.withdrawn_after FROM entrants e JOIN tournaments t ON t.id = e.tournament_id"
        " WHERE e.user_id = ? ORDER BY e.tournament_id", user_id)
    return {"tournaments": [_plain(r) for r in entered], "seats": [_plain(r) for r in seats],
            "tables_opened": [_plain(r) for r in opened],
            "moves": [_plain(r) for r in actions], "results": [_plain(r) for r in results],
            "ratings": [_plain(r) for r in ratings], "notifications": [_plain(r) for r in notify],
            "accessibility": [_plain(r) for r in accessibility], "pictures": [_plain(r) for r in pictures],
            "notifications_everywhere": [_plain(r) for r in everywhere], "vacations": [_plain(r) for r in vacations]}


async def _ids(db: Connection, sql: str, *args: Any) -> set[int]:
    return {int(row["table_id"]) for row in await db.fetch(sql, *args)}


async def tables_naming(db: Connection, dialect: Dialect, user_id: str) -> list[int]:
    """The tables that hold `user_id` anywhere: a seat, who opened it, a log entry, its meta (a
    rematch's invitations and seat order), or an announcement that mentions them."""
    quoted = json.dumps(user_id)
    meta_names, meta_args = dialect.like_any("meta", [f"%{_escaped(quoted)}%"])
    outbox_names, outbox_args = dialect.like_any("data", [f"%{_escaped('<@' + user_id + '|')}%"])
    found = await _ids(db, "SELECT table_id FROM seats WHERE user_id = ?", user_id)
    found |= await _ids(db, f"SELECT id AS table_id FROM tables WHERE created_by = ? OR {meta_names}",
                        user_id, *meta_args)
    found |= await _ids(db, "SELECT DISTINCT table_id FROM actions WHERE actor IN (?, ?)",
                        user_id, MODERATOR + user_id)
    found |= await _ids(db, f"SELECT DISTINCT table_id FROM outbox WHERE {outbox_names}", *outbox_args)
    return sorted(found)


def _escaped(text: str) -> str:
    """`text` as a LIKE pattern matching itself (backslash escapes, as `Dialect.like_any` expects)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _replaced(value: Any, old: str, new: str) -> Any:
    """A JSON value with every string equal to `old` made `new`, however deep."""
    if value == old:
        return new
    if isinstance(value, list):
        return [_replaced(item, old, new) for item in value]
    if isinstance(value, dict):
        return {key: _replaced(item, old, new) for key, item in value.items()}
    return value


def without_player(data: dict[str, Any], user_id: str, names: Iterable[str], anonymous_name: str) -> dict[str, Any]:
    """An announcement's stored data (`Notice.data`) with `user_id`'s mentions and every one of
    `names` (as name tokens) told as `anonymous_name`, and `user_id` no longer mentioned."""
    told = name_token(anonymous_name)
    text = re.sub(re.escape(f"<@{user_id}|") + r"[^>]*>", lambda _match: told, str(data.get("text", "")))
    for name in names:
        text = text.replace(name_token(name), told)
    mentions = [m for m in data.get("mentions", []) if m != user_id]
    return data | {"text": text, "mentions": mentions}


async def forget_player(db: Connection, dialect: Dialect, user_id: str, anonymous: str,
                        name_in: Callable[[str | None], str]) -> Forgotten:
    """Remove `user_id`'s name and identifiers from every table, log, announcement, result,
    rating and setting, in the transaction `db` (see the module's docstring): their seats and log
    entries (`mod:` ones too) become `anonymous`'s, named `name_in(the table's language)`; the
    tables they touched are saved at a new version (caches load them again) and their snapshots
    dropped; their notification choices and chosen pictures are deleted."""
    done = Forgotten()
    names = {row["name"] for sql in ("SELECT DISTINCT name FROM seats WHERE user_id = ?",
                                     "SELECT DISTINCT name FROM results WHERE player = ?",
                                     "SELECT DISTINCT name FROM ratings WHERE player = ?")
             for row in await db.fetch(sql, user_id)}
    for table_id in await tables_naming(db, dialect, user_id):
        done.tables += 1
        await _forget_at_table(db, table_id, user_id, anonymous, names, name_in, done)
    done.actions += await db.changes("UPDATE actions SET actor = ? WHERE actor = ?", anonymous, user_id)
    done.actions += await db.changes("UPDATE actions SET actor = ? WHERE actor = ?", MODERATOR + anonymous,
                                     MODERATOR + user_id)
    done.results += await db.changes("UPDATE results SET player = ?, name = ? WHERE player = ?",
                                     anonymous, name_in(None), user_id)
    done.ratings = await db.changes("UPDATE ratings SET player = ?, name = ? WHERE player = ?",
                                    anonymous, name_in(None), user_id)
    done.notify = await db.changes("DELETE FROM notify WHERE user_id = ?", user_id)
    # text-first play is a choice of private messages too: counted with the notification choices
    done.notify += await db.changes("DELETE FROM accessibility WHERE user_id = ?", user_id)
    done.vacations = await db.changes("DELETE FROM vacations WHERE user_id = ?", user_id)
    await db.execute("DELETE FROM vacation_days WHERE user_id = ?", user_id)
    done.notify += await db.changes("DELETE FROM notify_player WHERE user_id = ?", user_id)
    await _forget_in_tournaments(db, user_id, anonymous, names, name_in(None), done)
    return done


async def _forget_in_tournaments(db: Connection, user_id: str, anonymous: str, names: set[str], anonymous_name: str,
                                 done: Forgotten) -> None:
    """`forget_player` in the tournaments: their entries (and the tournaments they created) become
    `anonymous`'s, and the tournaments' messages name them no more."""
    names |= {row["name"] for row in await db.fetch("SELECT name FROM entrants WHERE user_id = ?", user_id)}
    touched = {int(row["tournament_id"]) for row in
               await db.fetch("SELECT tournament_id FROM entrants WHERE user_id = ?", user_id)}
    done.tournaments += await db.changes("UPDATE entrants SET user_id = ?, name = ? WHERE user_id = ?",
                                         anonymous, anonymous_name, user_id)
    await db.execute("UPDATE tournaments SET created_by = ? WHERE created_by = ?", anonymous, user_id)
    for tournament_id in sorted(touched):
        for row in await db.fetch("SELECT id, data FROM tournament_messages WHERE tournament_id = ?", tournament_id):
            data = json.loads(row["data"])
            rewritten = without_player(data, user_id, names, anonymous_name)
            if rewritten != data:
                await db.execute("UPDATE tournament_messages SET data = ? WHERE id = ?", json.dumps(rewritten),
                                 row["id"])
                done.announcements += 1


async def _forget_at_table(db: Connection, table_id: int, user_id: str, anonymous: str, names: set[str],
                           name_in: Callable[[str | None], str], done: Forgotten) -> None:
    """`forget_player` at one table."""
    rows = await db.fetch("SELECT created_by, meta FROM tables WHERE id = ?", table_id)
    meta = json.loads(rows[0]["meta"])
    anonymous_name = clean_name(name_in(meta.get(LANGUAGE)))
    seats = [int(row["seat"]) for row in
             await db.fetch("SELECT seat FROM seats WHERE table_id = ? AND user_id = ?", table_id, user_id)]
    joined = False
    for seat in seats:
        done.seats += await db.changes("UPDATE seats SET user_id = ?, name = ? WHERE table_id = ? AND seat = ?",
                                       anonymous, anonymous_name, table_id, seat)
        renamed = await db.changes(  # a player who joined a game under way is named in their join
            "UPDATE actions SET action = ? WHERE table_id = ? AND seat = ? AND substr(action, 1, ?) = ?",
            f"{JOIN} {anonymous_name}", table_id, seat, len(JOIN) + 1, JOIN + " ")
        done.actions += renamed
        joined = joined or renamed > 0
        done.pictures += await db.changes("DELETE FROM pictures WHERE table_id = ? AND seat = ?", table_id, seat)
    created_by = anonymous if rows[0]["created_by"] == user_id else rows[0]["created_by"]
    await db.execute("UPDATE tables SET created_by = ?, meta = ?, version = version + 1 WHERE id = ?",
                     created_by, json.dumps(_replaced(meta, user_id, anonymous)), table_id)
    done.snapshots += await db.changes("DELETE FROM snapshots WHERE table_id = ?", table_id)
    beaten = [row["name"] for row in await db.fetch("SELECT name FROM results WHERE table_id = ? AND player = ?",
                                                    table_id, user_id)]
    done.results += await db.changes("UPDATE results SET player = ?, name = ? WHERE table_id = ? AND player = ?",
                                     anonymous, anonymous_name, table_id, user_id)
    for name in beaten:
        await db.execute("UPDATE results SET beaten_name = ? WHERE table_id = ? AND beaten_name = ?",
                         anonymous_name, table_id, name)
    for row in await db.fetch("SELECT id, data, delivered_at FROM outbox WHERE table_id = ?", table_id):
        data = json.loads(row["data"])
        rewritten = without_player(data, user_id, names, anonymous_name)
        if joined and row["delivered_at"] is None:  # its digest of the log read the old join: taken as current
            rewritten.pop("log", None)
        if rewritten != data:
            await db.execute("UPDATE outbox SET data = ? WHERE id = ?", json.dumps(rewritten), row["id"])
            done.announcements += 1
    await db.notify(table_id)
