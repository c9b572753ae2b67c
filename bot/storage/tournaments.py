"""Tournaments in the store: the events, their entrants, their rounds and boards, and the messages
they announce (`Tournaments`, reached as `store.tournaments`), and how it all reads back
(`TournamentView`).

Each durable step of a tournament is one transaction holding the tournament's lock
(`Sql.lock`), and each is written once, whoever races to write it: a round is one row keyed by
(tournament, number), so pairing it twice inserts nothing the second time; a board keeps the
first place (thread) and table recorded for it, and its first result; a round closes once; a
message is keyed by what it announces, so announcing it again adds nothing. The SQL is written
once and runs on both databases (`bot.storage.sql.Sql`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

from bot.storage.sql import Connection, marks

SIGNUP, RUNNING, PAUSED, FINISHED, CANCELLED = "signup", "running", "paused", "finished", "cancelled"
OPEN = (SIGNUP, RUNNING, PAUSED)
"""The statuses of a tournament that is not over."""
SWISS, ROUND_ROBIN, DOUBLE_ROUND_ROBIN, PODS, LEAGUE = "swiss", "round_robin", "double_round_robin", "pods", "league"
FORMATS = (SWISS, ROUND_ROBIN, DOUBLE_ROUND_ROBIN, PODS, LEAGUE)

_TOURNAMENT_COLUMNS = ("id", "guild", "channel", "name", "game", "format", "rounds", "seats", "options", "starts_at",
                       "signup_closes", "round_seconds", "status", "current_round", "due", "created_by", "created_at",
                       "previous_id", "version")
_CREATED = tuple(c for c in _TOURNAMENT_COLUMNS if c not in ("id", "version"))
_SAVED = ("name", "rounds", "options", "status", "current_round", "due")
_ENTRANT_COLUMNS = "number, user_id, name, rating, joined_at, checked_in, first_round, withdrawn_after, division"
_BOARD_COLUMNS = "round, board, division, players, place, table_id, result, adjudicated, finished_at"


class StaleTournament(Exception):
    """The tournament was saved by someone else since it was read: read it again."""


class AlreadyEntered(Exception):
    """The player is already on the tournament's list."""


@dataclass
class TournamentRecord:
    """A tournament as stored. `channel` is the place its announcements go to (a Discord
    channel, `discord:<id>`); `seats` the table size (2 but for pods); `options` the rest, as
    chosen at creation (`clock`, `vacation`, `rated`, `adjudication`, `lang`, `division_size`,
    `season`, …); `due` when its next timed step falls due (the start, a round's deadline), None
    when none is waiting; `previous_id` the season (of a league) it follows."""

    id: int
    guild: str | None
    channel: str
    name: str
    game: str
    format: str
    rounds: int
    seats: int
    options: dict[str, Any]
    starts_at: float
    signup_closes: float
    round_seconds: float
    status: str
    created_by: str
    created_at: float
    current_round: int = 0
    due: float | None = None
    previous_id: int | None = None
    version: int = 0


@dataclass(frozen=True)
class EntrantRecord:
    """A player on a tournament's list. `number` is their pairing number (by rating at the start;
    late entries after); `first_round` the first round they are paired in (a late entry's missed
    rounds are zero-point byes); `withdrawn_after` the last round they were paired in before they
    withdrew or were removed (None: still in; 0: before round 1)."""

    number: int
    user_id: str
    name: str
    rating: float
    joined_at: float
    checked_in: bool = False
    first_round: int = 1
    withdrawn_after: int | None = None
    division: int = 1

    def plays_in(self, round_number: int) -> bool:
        """Whether this entrant is paired in round `round_number`."""
        return self.first_round <= round_number and (self.withdrawn_after is None
                                                      or round_number <= self.withdrawn_after)


@dataclass(frozen=True)
class BoardRecord:
    """One pairing of a round: `players` are pairing numbers in seat order (seat 0 plays the
    role of white at two seats); `place` where its table is (its thread) and `table_id` the
    table, once opened; `result` once it ended: at two seats one of `engine.pairing.records.Result`'s
    values ("1-0", "0-1", "½-½", "+/-", "-/+", "-/-"), at more each seat's placing, comma-separated
    ("1,3,2,2"; a player who forfeited placed last); `adjudicated` when the round's deadline
    decided it."""

    round: int
    board: int
    players: tuple[int, ...]
    division: int = 1
    place: str | None = None
    table_id: int | None = None
    result: str | None = None
    adjudicated: bool = False
    finished_at: float | None = None


@dataclass(frozen=True)
class RoundRecord:
    """A round: when it was paired, its deadline, when it closed (None: still on), who sat out
    and why ((pairing number, `engine.pairing.records.Bye` value: "U", "H", "F", "Z")), and its boards."""

    number: int
    paired_at: float
    deadline: float
    closed_at: float | None
    sat_out: tuple[tuple[int, str], ...]
    boards: tuple[BoardRecord, ...] = ()


@dataclass
class TournamentView:
    """Everything about one tournament, read together: what the standings, the web page and the
    TRF export read (`Tournaments.view`)."""

    tournament: TournamentRecord
    entrants: list[EntrantRecord]
    rounds: list[RoundRecord] = field(default_factory=list)

    def entrant(self, number: int) -> EntrantRecord | None:
        return next((e for e in self.entrants if e.number == number), None)

    def entrant_of(self, user_id: str) -> EntrantRecord | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    def round(self, number: int) -> RoundRecord | None:
        return next((r for r in self.rounds if r.number == number), None)

    def board_of_table(self, table_id: int) -> BoardRecord | None:
        return next((b for r in self.rounds for b in r.boards if b.table_id == table_id), None)


@dataclass(frozen=True)
class TournamentMessage:
    """A message a tournament announces in a place, sent once (`key` is unique per tournament:
    "announce", "round:3", "standings:3", "final"); `data` holds its text and more for the
    transport (`text`, `mentions`, `buttons`)."""

    id: int
    tournament_id: int
    key: str
    place: str
    data: dict[str, Any]
    created_at: float
    attempts: int = 0


class Tournaments:
    """Tournaments in the store. `read` runs queries outside any transaction; `transaction(lock)`
    opens one holding the lock named `lock`."""

    def __init__(self, read: Callable[[], AbstractAsyncContextManager[Connection]],
                 transaction: Callable[[str], AbstractAsyncContextManager[Connection]]) -> None:
        self._read = read
        self._transaction = transaction

    def steps(self, tournament_id: int) -> AbstractAsyncContextManager[Connection]:
        """A transaction holding the tournament's lock: one durable step at a time per tournament,
        across processes."""
        return self._transaction(f"tournament:{tournament_id}")

    # ---- reading ----------------------------------------------------------------------------

    async def get(self, tournament_id: int) -> TournamentRecord | None:
        async with self._read() as db:
            return await _tournament(db, tournament_id)

    async def view(self, tournament_id: int) -> TournamentView | None:
        """The tournament with its entrants (by pairing number) and rounds (in order, each with its
        boards in board order), or None."""
        async with self._read() as db:
            return await read_view(db, tournament_id)

    async def listed(self, guild: str | None, statuses: Sequence[str] = OPEN,
                     limit: int = 25) -> list[TournamentRecord]:
        """The server's tournaments in these statuses, newest first."""
        async with self._read() as db:
            rows = await db.fetch(f"SELECT {', '.join(_TOURNAMENT_COLUMNS)} FROM tournaments"
                                  f" WHERE COALESCE(guild, '') = ? AND status IN ({marks(len(statuses))})"
                                  " ORDER BY id DESC LIMIT ?",
                                  guild or "", *statuses, limit)
        return [_tournament_record(row) for row in rows]

    async def due(self, now: float) -> list[int]:
        """The tournaments whose next timed step is due by `now`, earliest first."""
        async with self._read() as db:
            rows = await db.fetch("SELECT id FROM tournaments WHERE due IS NOT NULL AND due <= ? ORDER BY due, id", now)
        return [int(row["id"]) for row in rows]

    async def next_due(self) -> float | None:
        """When the earliest timed step of any tournament falls due."""
        async with self._read() as db:
            rows = await db.fetch("SELECT MIN(due) AS due FROM tournaments WHERE due IS NOT NULL")
        return float(rows[0]["due"]) if rows and rows[0]["due"] is not None else None

    async def running(self) -> list[int]:
        """Every tournament being played (for the sweep that finishes what a crash left undone)."""
        async with self._read() as db:
            rows = await db.fetch("SELECT id FROM tournaments WHERE status = ? ORDER BY id", RUNNING)
        return [int(row["id"]) for row in rows]

    async def board_of_table(self, table_id: int) -> tuple[int, int, int] | None:
        """The (tournament, round, board) a table was opened for, or None."""
        async with self._read() as db:
            rows = await db.fetch("SELECT tournament_id, round, board FROM boards WHERE table_id = ?", table_id)
        return (int(rows[0]["tournament_id"]), int(rows[0]["round"]), int(rows[0]["board"])) if rows else None

    async def of_player(self, user_id: str, statuses: Sequence[str] = OPEN) -> list[TournamentRecord]:
        """The tournaments the player is on the list of, in these statuses."""
        async with self._read() as db:
            rows = await db.fetch(
                f"SELECT {', '.join('t.' + c for c in _TOURNAMENT_COLUMNS)} FROM tournaments t JOIN entrants e"
                f" ON e.tournament_id = t.id WHERE e.user_id = ? AND t.status IN ({marks(len(statuses))})"
                " ORDER BY t.id", user_id, *statuses)
        return [_tournament_record(row) for row in rows]

    # ---- writing ----------------------------------------------------------------------------

    async def create(self, tournament: TournamentRecord, messages: Sequence[tuple[str, str, dict[str, Any]]] = (),
                     now: float = 0.0) -> int:
        """Save a new tournament (its id is set) with its first messages ((key, place, data))."""
        async with self._transaction("tournaments") as db:
            values = _values(tournament)
            if tournament.previous_id is not None:
                taken = await db.fetch("SELECT id FROM tournaments WHERE previous_id = ?", tournament.previous_id)
                if taken:  # the next season exists already (another process made it)
                    tournament.id = int(taken[0]["id"])
                    return tournament.id
            rows = await db.fetch(f"INSERT INTO tournaments ({', '.join(_CREATED)}) VALUES ({marks(len(_CREATED))})"
                                  " RETURNING id", *(values[c] for c in _CREATED))
            tournament.id = int(rows[0]["id"])
            tournament.version = 0
            await add_messages(db, tournament.id, messages, now)
        return tournament.id

    async def save(self, tournament: TournamentRecord, messages: Sequence[tuple[str, str, dict[str, Any]]] = (),
                   now: float = 0.0, *, db: Connection | None = None) -> None:
        """Save the tournament's name, rounds, options, status, round and due time if nobody saved
        it since it was read (else StaleTournament), with `messages`; inside `db`'s transaction if given."""
        if db is None:
            async with self.steps(tournament.id) as own:
                await save_tournament(own, tournament, messages, now)
        else:
            await save_tournament(db, tournament, messages, now)
        tournament.version += 1

    async def enter(self, tournament_id: int, user_id: str, name: str, rating: float, now: float, *,
                    first_round: int = 1, checked_in: bool = False, division: int = 1) -> EntrantRecord:
        """Put a player on the list with the next pairing number; AlreadyEntered if they are on it."""
        async with self.steps(tournament_id) as db:
            if await db.fetch("SELECT 1 AS found FROM entrants WHERE tournament_id = ? AND user_id = ?",
                              tournament_id, user_id):
                raise AlreadyEntered(user_id)
            rows = await db.fetch("SELECT COALESCE(MAX(number), 0) + 1 AS n FROM entrants WHERE tournament_id = ?",
                                  tournament_id)
            entrant = EntrantRecord(int(rows[0]["n"]), user_id, name, rating, now, checked_in, first_round, None,
                                    division)
            await db.execute(f"INSERT INTO entrants (tournament_id, {_ENTRANT_COLUMNS}) VALUES ({marks(10)})",
                             tournament_id, entrant.number, user_id, name, rating, now, int(checked_in), first_round,
                             None, division)
        return entrant

    async def withdraw(self, tournament_id: int, user_id: str, after_round: int) -> bool:
        """Mark the player withdrawn after round `after_round` (0: before the first; they are paired
        no more); False if they are not on the list or withdrew already. Before the start
        (`after_round` 0 and the tournament not begun) they are taken off the list instead."""
        async with self.steps(tournament_id) as db:
            started = await db.fetch("SELECT current_round FROM tournaments WHERE id = ?", tournament_id)
            if not started:
                return False
            if int(started[0]["current_round"]) == 0:
                return await db.changes("DELETE FROM entrants WHERE tournament_id = ? AND user_id = ?",
                                        tournament_id, user_id) == 1
            return await db.changes("UPDATE entrants SET withdrawn_after = ? WHERE tournament_id = ? AND user_id = ?"
                                    " AND withdrawn_after IS NULL", after_round, tournament_id, user_id) == 1

    async def check_in(self, tournament_id: int, user_id: str) -> bool:
        """Mark the player checked in; False if they are not on the list."""
        async with self.steps(tournament_id) as db:
            return await db.changes("UPDATE entrants SET checked_in = 1 WHERE tournament_id = ? AND user_id = ?",
                                    tournament_id, user_id) == 1

    async def messages_pending(self, now: float, lease: float, limit: int = 20) -> list[TournamentMessage]:
        """Undelivered messages whose lease ran out, oldest first, each leased to the caller until
        `now + lease` (no other process sends it meanwhile)."""
        async with self._transaction("tournament-messages") as db:
            rows = await db.fetch("SELECT id, tournament_id, key, place, data, created_at, attempts FROM"
                                  " tournament_messages WHERE delivered_at IS NULL AND lease_until <= ? ORDER BY id"
                                  " LIMIT ?", now, limit)
            for row in rows:
                await db.execute("UPDATE tournament_messages SET lease_until = ?, attempts = attempts + 1 WHERE id = ?",
                                 now + lease, row["id"])
        return [TournamentMessage(int(r["id"]), int(r["tournament_id"]), r["key"], r["place"], json.loads(r["data"]),
                                  float(r["created_at"]), int(r["attempts"]) + 1) for r in rows]

    async def delivered(self, message_id: int, now: float) -> None:
        async with self._transaction("tournament-messages") as db:
            await db.execute("UPDATE tournament_messages SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL",
                             now, message_id)

    async def messages(self, tournament_id: int) -> list[TournamentMessage]:
        """Every message of a tournament, delivered or not, in order."""
        async with self._read() as db:
            rows = await db.fetch("SELECT id, tournament_id, key, place, data, created_at, attempts FROM"
                                  " tournament_messages WHERE tournament_id = ? ORDER BY id", tournament_id)
        return [TournamentMessage(int(r["id"]), int(r["tournament_id"]), r["key"], r["place"], json.loads(r["data"]),
                                  float(r["created_at"]), int(r["attempts"])) for r in rows]


# ---- the steps' statements, for a transaction holding the tournament's lock --------------------

async def read_view(db: Connection, tournament_id: int) -> TournamentView | None:
    """`Tournaments.view`, on a connection (inside a step's transaction it sees the step's own writes)."""
    tournament = await _tournament(db, tournament_id)
    if tournament is None:
        return None
    entrants = [_entrant(row) for row in await db.fetch(
        f"SELECT {_ENTRANT_COLUMNS} FROM entrants WHERE tournament_id = ? ORDER BY number", tournament_id)]
    boards: dict[int, list[BoardRecord]] = {}
    for row in await db.fetch(f"SELECT {_BOARD_COLUMNS} FROM boards WHERE tournament_id = ? ORDER BY round, board",
                              tournament_id):
        board = _board(row)
        boards.setdefault(board.round, []).append(board)
    rounds = [RoundRecord(int(r["number"]), float(r["paired_at"]), float(r["deadline"]),
                          None if r["closed_at"] is None else float(r["closed_at"]),
                          tuple((int(p), str(b)) for p, b in json.loads(r["sat_out"])),
                          tuple(boards.get(int(r["number"]), [])))
              for r in await db.fetch("SELECT number, paired_at, deadline, closed_at, sat_out FROM tournament_rounds"
                                      " WHERE tournament_id = ? ORDER BY number", tournament_id)]
    return TournamentView(tournament, entrants, rounds)


async def insert_tournament(db: Connection, tournament: TournamentRecord,
                            entrants: Sequence[EntrantRecord] = ()) -> int | None:
    """Write a new tournament and its entrants inside a step (a league's next season); None, and
    nothing written, if the season after `previous_id` exists already."""
    values = _values(tournament)
    rows = await db.fetch(f"INSERT INTO tournaments ({', '.join(_CREATED)}) VALUES ({marks(len(_CREATED))})"
                          " ON CONFLICT (previous_id) DO NOTHING RETURNING id", *(values[c] for c in _CREATED))
    if not rows:
        return None
    tournament.id = int(rows[0]["id"])
    await db.executemany(f"INSERT INTO entrants (tournament_id, {_ENTRANT_COLUMNS}) VALUES ({marks(10)})",
                         [(tournament.id, e.number, e.user_id, e.name, e.rating, e.joined_at, int(e.checked_in),
                           e.first_round, e.withdrawn_after, e.division) for e in entrants])
    return tournament.id


async def save_tournament(db: Connection, tournament: TournamentRecord,
                          messages: Sequence[tuple[str, str, dict[str, Any]]] = (), now: float = 0.0) -> None:
    values = _values(tournament)
    if await db.changes(f"UPDATE tournaments SET {', '.join(f'{c} = ?' for c in _SAVED)}, version = version + 1"
                        " WHERE id = ? AND version = ?", *(values[c] for c in _SAVED), tournament.id,
                        tournament.version) != 1:
        raise StaleTournament(tournament.id)
    await add_messages(db, tournament.id, messages, now)


async def insert_round(db: Connection, tournament_id: int, round_: RoundRecord) -> bool:
    """Write a round and its boards (a board decided at pairing, a withdrawn player's forfeit,
    with its result); False (nothing written) if the round was paired already."""
    if await db.changes("INSERT INTO tournament_rounds (tournament_id, number, paired_at, deadline, closed_at, sat_out)"
                        " VALUES (?, ?, ?, ?, NULL, ?) ON CONFLICT (tournament_id, number) DO NOTHING",
                        tournament_id, round_.number, round_.paired_at, round_.deadline,
                        json.dumps([list(s) for s in round_.sat_out])) != 1:
        return False
    await db.executemany("INSERT INTO boards (tournament_id, round, board, division, players, result, finished_at)"
                         " VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [(tournament_id, round_.number, b.board, b.division, json.dumps(list(b.players)), b.result,
                           b.finished_at) for b in round_.boards])
    return True


async def delete_round(db: Connection, tournament_id: int, number: int) -> None:
    """Take back a round's pairing (a re-pair before any of its tables opened)."""
    await db.execute("DELETE FROM boards WHERE tournament_id = ? AND round = ?", tournament_id, number)
    await db.execute("DELETE FROM tournament_rounds WHERE tournament_id = ? AND number = ?", tournament_id, number)


async def board_place(db: Connection, tournament_id: int, round_number: int, board: int, place: str) -> str:
    """Record where the board's table is, unless a place was recorded first; the place recorded."""
    await db.execute("UPDATE boards SET place = ? WHERE tournament_id = ? AND round = ? AND board = ?"
                     " AND place IS NULL", place, tournament_id, round_number, board)
    rows = await db.fetch("SELECT place FROM boards WHERE tournament_id = ? AND round = ? AND board = ?",
                          tournament_id, round_number, board)
    return str(rows[0]["place"])


async def board_table(db: Connection, tournament_id: int, round_number: int, board: int, table_id: int) -> None:
    """Record the board's table (once)."""
    await db.execute("UPDATE boards SET table_id = ? WHERE tournament_id = ? AND round = ? AND board = ?"
                     " AND table_id IS NULL", table_id, tournament_id, round_number, board)


async def board_result(db: Connection, tournament_id: int, round_number: int, board: int, result: str, at: float, *,
                       adjudicated: bool = False) -> bool:
    """Record the board's result unless it has one; whether this wrote it."""
    return await db.changes("UPDATE boards SET result = ?, finished_at = ?, adjudicated = ? WHERE tournament_id = ?"
                            " AND round = ? AND board = ? AND result IS NULL", result, at, int(adjudicated),
                            tournament_id, round_number, board) == 1


async def close_round(db: Connection, tournament_id: int, round_number: int, at: float) -> bool:
    """Close the round unless it is closed; whether this closed it."""
    return await db.changes("UPDATE tournament_rounds SET closed_at = ? WHERE tournament_id = ? AND number = ?"
                            " AND closed_at IS NULL", at, tournament_id, round_number) == 1


async def set_deadline(db: Connection, tournament_id: int, round_number: int, deadline: float) -> None:
    await db.execute("UPDATE tournament_rounds SET deadline = ? WHERE tournament_id = ? AND number = ?", deadline,
                     tournament_id, round_number)


async def renumber(db: Connection, tournament_id: int, order: Sequence[str]) -> None:
    """Give the entrants `order` (user ids) the pairing numbers 1, 2, … in that order."""
    await db.execute("UPDATE entrants SET number = number + 1000000 WHERE tournament_id = ?", tournament_id)
    await db.executemany("UPDATE entrants SET number = ? WHERE tournament_id = ? AND user_id = ?",
                         [(number, tournament_id, user) for number, user in enumerate(order, 1)])


async def set_division(db: Connection, tournament_id: int, user_id: str, division: int) -> None:
    await db.execute("UPDATE entrants SET division = ? WHERE tournament_id = ? AND user_id = ?", division,
                     tournament_id, user_id)


async def add_messages(db: Connection, tournament_id: int, messages: Sequence[tuple[str, str, dict[str, Any]]],
                       now: float) -> None:
    """Add messages to send ((key, place, data)); one already added under a key stays as it was."""
    await db.executemany("INSERT INTO tournament_messages (tournament_id, key, place, data, created_at, lease_until)"
                         " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id, key) DO NOTHING",
                         [(tournament_id, key, place, json.dumps(data), now, now) for key, place, data in messages])


# ---- rows and records ----------------------------------------------------------------------------

async def _tournament(db: Connection, tournament_id: int) -> TournamentRecord | None:
    rows = await db.fetch(f"SELECT {', '.join(_TOURNAMENT_COLUMNS)} FROM tournaments WHERE id = ?", tournament_id)
    return _tournament_record(rows[0]) if rows else None


def _values(tournament: TournamentRecord) -> dict[str, Any]:
    values = {c: getattr(tournament, c) for c in _TOURNAMENT_COLUMNS}
    values["options"] = json.dumps(tournament.options)
    return values


def _tournament_record(row: Mapping[str, Any]) -> TournamentRecord:
    fields = {c: row[c] for c in _TOURNAMENT_COLUMNS}
    fields["options"] = json.loads(row["options"])
    for name in ("starts_at", "signup_closes", "round_seconds", "created_at"):
        fields[name] = float(fields[name])
    fields["due"] = None if row["due"] is None else float(row["due"])
    return TournamentRecord(**fields)


def _entrant(row: Mapping[str, Any]) -> EntrantRecord:
    return EntrantRecord(int(row["number"]), row["user_id"], row["name"], float(row["rating"]),
                         float(row["joined_at"]), bool(row["checked_in"]), int(row["first_round"]),
                         None if row["withdrawn_after"] is None else int(row["withdrawn_after"]),
                         int(row["division"]))


def _board(row: Mapping[str, Any]) -> BoardRecord:
    return BoardRecord(int(row["round"]), int(row["board"]), tuple(json.loads(row["players"])), int(row["division"]),
                       row["place"], None if row["table_id"] is None else int(row["table_id"]), row["result"],
                       bool(row["adjudicated"]), None if row["finished_at"] is None else float(row["finished_at"]))
