"""What carries over between games, in the store: ratings and results (derived from finished
games, see `bot.community.ratings`), each player's choice of turn notifications, and the lookups behind
/leaderboard, /profile and /games.

The SQL is written once, with `?` placeholders, and runs on both databases through
`bot.storage.sql.Sql`, a tiny interface each store implements (PostgreSQL numbers the
placeholders). Every query here is answered from an index (see the migrations in
`bot.storage.schema.MIGRATIONS`).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from bot.core.records import OPEN_STATUSES, SeatRecord, TableRecord
from bot.storage.sql import Sql, marks

PROVISIONAL_GAMES = 5
"""A rating is provisional until its player has finished this many rated games (in that game,
on that server); the leaderboard lists provisional ratings after the settled ones."""
PRIOR_MEAN = 25.0
"""The model's mean for a player it knows nothing of (OpenSkill's μ; see `bot.community.ratings.MODEL`)."""
SHOWN_START = 1000
"""The rating a new player is shown (the model's prior mean)."""
SHOWN_PER_MEAN = 40
"""Shown points per point of the model's mean."""
WIN, DRAW, LOSS = "win", "draw", "loss"
"""A seat's result in a rated game: its side alone in first place, first place shared with
another side, or anything else (see `bot.community.ratings.placements`)."""

NOTIFY_OFF, NOTIFY_ON, NOTIFY_LONG = "off", "on", "long"
NOTIFY_MODES = (NOTIFY_OFF, NOTIFY_ON, NOTIFY_LONG)
LONG_TURN = 3600
"""`NOTIFY_LONG` tells a player of turns lasting at least this many seconds (or without a limit)."""


@dataclass(frozen=True)
class PlayerChoices:
    """A player's notification choices that hold on every server: their quiet hours (as
    `bot.community.quiet_hours.QuietHours` writes them; None: none), whether they keep the standing
    "your turn" list in their DMs and in which language, where its message is (the transport's
    address of it; None: not posted yet, or gone) and the number of its nonce (a new message gets
    a new one)."""

    quiet: str | None = None
    listed: bool = False
    language: str | None = None
    list_message: str | None = None
    list_nonce: int = 0


@dataclass
class Rating:
    """A player's rating in one game on one server (an AI agent is the player `ai:<agent>`),
    with their record there: games, and of them wins and draws (the rest are losses)."""

    guild: str
    game: str
    player: str
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    draws: int = 0

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws

    @property
    def score(self) -> float:
        """The figure shown (unrounded) and ranked by, among settled or among provisional
        ratings: the model's mean, scaled (`figure`)."""
        return figure(self.mu)

    @property
    def shown(self) -> int:
        return shown(self.mu)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def figure(mu: float) -> float:
    """The rating players see, unrounded: the model's mean μ scaled so that a new player shows
    1000 and a point of μ is 40. A function of μ alone, rising with it, so a shown change has
    the sign of the mean's change (which, for each game, `bot.community.ratings` shows follows the result)."""
    return SHOWN_START + SHOWN_PER_MEAN * (mu - PRIOR_MEAN)


def shown(mu: float) -> int:
    """`figure`, rounded as it is shown. Rounding never reverses an order, so the shown change
    (`Result.change`: the difference of two shown figures) never has the wrong sign."""
    return round(figure(mu))


def signed(change: int) -> str:
    """A shown change: `+12`, `−3` (a true minus sign), `±0`."""
    return "±0" if change == 0 else f"{change:+d}".replace("-", "−")


@dataclass
class Result:
    """One seat's part in one rated game: its place (1 is first; ties share one), its `outcome`
    (WIN, DRAW or LOSS), and its rating before and after. `team` groups the seats rated as one
    side; `entrants` counts the sides. `beaten_*`: the best-rated opponent, rated above this
    player before the game (by the shown figure), that this seat finished ahead of."""

    table_id: int
    seat: int
    guild: str
    game: str
    place: str
    player: str
    name: str
    rank: int
    team: int
    entrants: int
    outcome: str
    finished_at: float
    mu_before: float = 0.0
    sigma_before: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0
    beaten_name: str | None = None
    beaten_score: float | None = None

    @property
    def change(self) -> int:
        """The change of the shown rating: shown after minus shown before."""
        return shown(self.mu) - shown(self.mu_before)


Transaction = Callable[[str], AbstractAsyncContextManager[Sql]]
"""Opens a transaction holding a lock named by its argument (`Sql.lock`)."""
Write = Callable[[Sql], Awaitable[None]]
"""Writes to make inside another transaction (a finishing move's commit)."""

_RESULT_COLUMNS = ("table_id, seat, guild, game, place, player, name, rank, team, entrants, outcome, finished_at,"
                   " mu_before, sigma_before, mu, sigma, beaten_name, beaten_score")
_RATING_COLUMNS = "guild, game, player, name, mu, sigma, games, wins, draws"
_INSERT_RESULT = (f"INSERT INTO results ({_RESULT_COLUMNS}) VALUES"
                  " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
_UPSERT_RATING = (f"INSERT INTO ratings ({_RATING_COLUMNS}, score, settled) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                  " ON CONFLICT (guild, game, player) DO UPDATE SET name = excluded.name, mu = excluded.mu,"
                  " sigma = excluded.sigma, games = excluded.games, wins = excluded.wins, draws = excluded.draws,"
                  " score = excluded.score, settled = excluded.settled")


def _result(row: Mapping[str, Any]) -> Result:
    return Result(table_id=row["table_id"], seat=row["seat"], guild=row["guild"], game=row["game"],
                  place=row["place"], player=row["player"], name=row["name"], rank=row["rank"], team=row["team"],
                  entrants=row["entrants"], outcome=row["outcome"], finished_at=row["finished_at"],
                  mu_before=row["mu_before"], sigma_before=row["sigma_before"], mu=row["mu"], sigma=row["sigma"],
                  beaten_name=row["beaten_name"], beaten_score=row["beaten_score"])


def _rating(row: Mapping[str, Any]) -> Rating:
    return Rating(guild=row["guild"], game=row["game"], player=row["player"], name=row["name"], mu=row["mu"],
                  sigma=row["sigma"], games=row["games"], wins=row["wins"], draws=row["draws"])


def _result_values(r: Result) -> tuple[Any, ...]:
    return (r.table_id, r.seat, r.guild, r.game, r.place, r.player, r.name, r.rank, r.team, r.entrants, r.outcome,
            float(r.finished_at), float(r.mu_before), float(r.sigma_before), float(r.mu), float(r.sigma),
            r.beaten_name, None if r.beaten_score is None else float(r.beaten_score))


def _rating_values(r: Rating) -> tuple[Any, ...]:
    return (r.guild, r.game, r.player, r.name, float(r.mu), float(r.sigma), r.games, r.wins, r.draws,
            float(r.score), int(not r.provisional))


Rate = Callable[[dict[str, Rating]], tuple[list[Result], list[Rating]]]
"""Given the current ratings of a game's players, their results and new ratings."""
Recompute = Callable[[list[Result]], tuple[list[Result], list[Rating]]]
"""Given every result of one game on one server, in order, the same results rated again and
the ratings they lead to."""


class Standings:
    """Ratings, results, notification choices and the lookups of the commands that show them.
    `read` runs a query outside any transaction; `transaction(lock)` opens one."""

    def __init__(self, read: Callable[[], AbstractAsyncContextManager[Sql]], transaction: Transaction) -> None:
        self._read = read
        self._transaction = transaction

    async def _fetch(self, sql: str, *args: Any) -> list[Mapping[str, Any]]:
        async with self._read() as db:
            return await db.fetch(sql, *args)

    # ---- ratings --------------------------------------------------------------------------

    async def ratings_of(self, guild: str, game: str, players: Sequence[str]) -> dict[str, Rating]:
        """The current ratings of these players (those rated so far) in one game on one server."""
        if not players:
            return {}
        rows = await self._fetch(f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild = ? AND game = ? AND player IN"
                                 f" ({marks(len(players))})", guild, game, *players)
        return {row["player"]: _rating(row) for row in rows}

    async def record(self, table_id: int, guild: str, game: str, players: Sequence[str],
                     rate: Rate) -> list[Result] | None:
        """Rate one finished game, once, in a transaction of its own (see `record_in`)."""
        async with self._transaction(f"ratings:{guild}:{game}") as db:
            return await record_in(db, table_id, guild, game, players, rate)

    async def results_of_table(self, table_id: int) -> list[Result]:
        rows = await self._fetch(f"SELECT {_RESULT_COLUMNS} FROM results WHERE table_id = ? ORDER BY seat", table_id)
        return [_result(row) for row in rows]

    async def take_back(self, table_id: int, recompute: Recompute) -> bool:
        """Forget one game's results and rate its server's games of that kind again without it
        (a rollback reopened it). False if it was not rated."""
        found = await self._fetch("SELECT guild, game FROM results WHERE table_id = ? LIMIT 1", table_id)
        if not found:
            return False
        async with self._transaction(f"ratings:{found[0]['guild']}:{found[0]['game']}") as db:
            return await take_back_in(db, table_id, recompute)

    async def replace_all(self, results: Sequence[Result], ratings: Sequence[Rating]) -> None:
        """Every result and rating, replaced (`tileref ratings rebuild`)."""
        async with self._transaction("ratings") as db:
            await db.execute("DELETE FROM results")
            await db.execute("DELETE FROM ratings")
            await db.executemany(_INSERT_RESULT, [_result_values(r) for r in results])
            await db.executemany(_UPSERT_RATING, [_rating_values(r) for r in ratings])

    async def all_ratings(self) -> list[Rating]:
        rows = await self._fetch(f"SELECT {_RATING_COLUMNS} FROM ratings ORDER BY guild, game, player")
        return [_rating(row) for row in rows]

    # ---- leaderboards and profiles --------------------------------------------------------

    async def leaderboard(self, guild: str, game: str, *, offset: int = 0, limit: int = 10) -> list[Rating]:
        """Players best first: the settled ratings by their shown figure, then the provisional
        ones by theirs (ties: the player id)."""
        rows = await self._fetch(f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild = ? AND game = ?"
                                 " ORDER BY settled DESC, score DESC, player LIMIT ? OFFSET ?", guild, game, limit,
                                 offset)
        return [_rating(row) for row in rows]

    async def rated_count(self, guild: str, game: str) -> int:
        rows = await self._fetch("SELECT COUNT(*) AS n FROM ratings WHERE guild = ? AND game = ?", guild, game)
        return int(rows[0]["n"])

    async def standing(self, guild: str, game: str, player: str) -> tuple[int, Rating] | None:
        """A player's place on the leaderboard (1 is the top) and rating, if rated."""
        mine = await self._fetch(f"SELECT {_RATING_COLUMNS}, score, settled FROM ratings WHERE guild = ?"
                                 " AND game = ? AND player = ?", guild, game, player)
        if not mine:
            return None
        score, settled = mine[0]["score"], mine[0]["settled"]
        above = await self._fetch(
            "SELECT (SELECT COUNT(*) FROM ratings WHERE guild = ? AND game = ? AND settled > ?) +"
            " (SELECT COUNT(*) FROM ratings WHERE guild = ? AND game = ? AND settled = ? AND score > ?) +"
            " (SELECT COUNT(*) FROM ratings WHERE guild = ? AND game = ? AND settled = ? AND score = ?"
            " AND player < ?) AS n", guild, game, settled, guild, game, settled, score, guild, game, settled, score,
            player)
        return int(above[0]["n"]) + 1, _rating(mine[0])

    async def ratings_of_player(self, guild: str, player: str) -> list[Rating]:
        """A player's rating in each game they have played on a server."""
        rows = await self._fetch(f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild = ? AND player = ?"
                                 " ORDER BY game", guild, player)
        return [_rating(row) for row in rows]

    async def rated_guilds(self, player: str) -> list[str]:
        """The servers where a player has a rating."""
        rows = await self._fetch("SELECT DISTINCT guild FROM ratings WHERE player = ? ORDER BY guild", player)
        return [row["guild"] for row in rows]

    async def best_win(self, guild: str, game: str, player: str) -> Result | None:
        """The game in which the player finished ahead of the best-rated opponent who was rated
        above them, if any."""
        rows = await self._fetch(f"SELECT {_RESULT_COLUMNS} FROM results WHERE guild = ? AND player = ? AND game = ?"
                                 " AND beaten_score IS NOT NULL ORDER BY beaten_score DESC LIMIT 1",
                                 guild, player, game)
        return _result(rows[0]) if rows else None

    async def recent(self, guild: str, game: str, player: str, limit: int = 5) -> list[Result]:
        """The player's last rated games, newest first."""
        rows = await self._fetch(f"SELECT {_RESULT_COLUMNS} FROM results WHERE guild = ? AND player = ? AND game = ?"
                                 " ORDER BY finished_at DESC LIMIT ?", guild, player, game, limit)
        return [_result(row) for row in rows]

    # ---- my games -------------------------------------------------------------------------

    async def open_tables_of(self, guild: str | None, user_id: str) -> list[tuple[TableRecord, dict[int, float]]]:
        """The user's unfinished tables on a server (None: on every server), lobbies included,
        with each table's deadlines by seat; newest first."""
        where, args = ("t.guild = ?", [guild]) if guild is not None else ("t.guild IS NOT NULL", [])
        rows = await self._fetch(
            "SELECT t.id, t.place, t.guild, t.game, t.options, t.status, t.created_by, t.created_at, t.meta,"
            f" t.paused, t.turn_seconds FROM seats s JOIN tables t ON t.id = s.table_id WHERE s.user_id = ? AND {where}"
            f" AND t.status IN ({marks(len(OPEN_STATUSES))}) ORDER BY t.id DESC LIMIT 100",
            user_id, *args, *OPEN_STATUSES)
        if not rows:
            return []
        ids = [row["id"] for row in rows]
        seats = await self._fetch(f"SELECT table_id, seat, name, user_id, agent FROM seats WHERE table_id IN"
                                  f" ({marks(len(ids))}) ORDER BY table_id, seat", *ids)
        timers = await self._fetch(f"SELECT table_id, seat, due FROM timers WHERE table_id IN ({marks(len(ids))})"
                                   " AND kind = 'deadline'", *ids)
        return _open_tables(rows, seats, timers)

    # ---- turn notifications ---------------------------------------------------------------

    async def notify_choices(self, guild: str, users: Sequence[str]) -> dict[str, str]:
        """Each user's choice of turn notifications on a server (absent: off)."""
        if not users:
            return {}
        rows = await self._fetch(f"SELECT user_id, mode FROM notify WHERE guild = ? AND user_id IN"
                                 f" ({marks(len(users))})", guild, *users)
        return {row["user_id"]: row["mode"] for row in rows}

    async def player_choices(self, users: Sequence[str]) -> dict[str, PlayerChoices]:
        """Each user's choices that hold on every server (absent: `PlayerChoices()`)."""
        if not users:
            return {}
        rows = await self._fetch("SELECT user_id, quiet, list, language, list_message, list_nonce FROM notify_player"
                                 f" WHERE user_id IN ({marks(len(users))})", *users)
        return {row["user_id"]: PlayerChoices(row["quiet"], bool(row["list"]), row["language"], row["list_message"],
                                              int(row["list_nonce"])) for row in rows}

    async def set_quiet(self, user_id: str, quiet: str | None) -> None:
        """Set (or, with None, end) a user's quiet hours."""
        async with self._transaction(f"notify:{user_id}") as db:
            await db.execute("INSERT INTO notify_player (user_id, quiet) VALUES (?, ?) ON CONFLICT (user_id)"
                             " DO UPDATE SET quiet = excluded.quiet", user_id, quiet)

    async def set_list(self, user_id: str, listed: bool, language: str | None) -> None:
        """Keep (or stop keeping) a user's standing list, in `language`."""
        async with self._transaction(f"notify:{user_id}") as db:
            await db.execute("INSERT INTO notify_player (user_id, list, language) VALUES (?, ?, ?)"
                             " ON CONFLICT (user_id) DO UPDATE SET list = excluded.list,"
                             " language = excluded.language", user_id, int(listed), language)

    async def list_posted(self, user_id: str, message: str | None, nonce: int) -> None:
        """Where a user's standing list now is (None: gone, to be posted again with nonce number
        `nonce`)."""
        async with self._transaction(f"notify:{user_id}") as db:
            await db.execute("INSERT INTO notify_player (user_id, list_message, list_nonce) VALUES (?, ?, ?)"
                             " ON CONFLICT (user_id) DO UPDATE SET list_message = excluded.list_message,"
                             " list_nonce = excluded.list_nonce", user_id, message, nonce)

    async def set_notify(self, guild: str, user_id: str, mode: str) -> None:
        async with self._transaction(f"notify:{guild}") as db:
            await db.execute("INSERT INTO notify (user_id, guild, mode) VALUES (?, ?, ?) ON CONFLICT (user_id, guild)"
                             " DO UPDATE SET mode = excluded.mode", user_id, guild, mode)


    # ---- accessibility ----------------------------------------------------------------------

    async def text_play_choices(self, users: Sequence[str]) -> set[str]:
        """Those of `users` who chose text-first play (`/accessibility text on`), on every server."""
        if not users:
            return set()
        rows = await self._fetch(f"SELECT user_id FROM accessibility WHERE text_play = 1 AND user_id IN"
                                 f" ({marks(len(users))})", *users)
        return {row["user_id"] for row in rows}

    async def set_text_play(self, user_id: str, on: bool) -> None:
        """Remember whether `user_id` wants text-first play; off forgets the choice."""
        async with self._transaction(f"accessibility:{user_id}") as db:
            if on:
                await db.execute("INSERT INTO accessibility (user_id, text_play) VALUES (?, 1) ON CONFLICT (user_id)"
                                 " DO UPDATE SET text_play = excluded.text_play", user_id)
            else:
                await db.execute("DELETE FROM accessibility WHERE user_id = ?", user_id)


async def record_in(db: Sql, table_id: int, guild: str, game: str, players: Sequence[str],
                    rate: Rate) -> list[Result] | None:
    """Rate one finished game, once, in the transaction `db` (holding the lock of its server and
    game): read its players' ratings, compute with `rate`, write the results and new ratings.
    None if the game was already rated."""
    await db.lock(f"ratings:{guild}:{game}")
    if await db.fetch("SELECT 1 FROM results WHERE table_id = ? LIMIT 1", table_id):
        return None
    rows = await db.fetch(f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild = ? AND game = ? AND player IN"
                          f" ({marks(len(players))})", guild, game, *players)
    results, ratings = rate({row["player"]: _rating(row) for row in rows})
    await db.executemany(_INSERT_RESULT, [_result_values(r) for r in results])
    await db.executemany(_UPSERT_RATING, [_rating_values(r) for r in ratings])
    return results


async def take_back_in(db: Sql, table_id: int, recompute: Recompute) -> bool:
    """`Standings.take_back` in the transaction `db` (a rollback's commit). False if the game
    was not rated."""
    found = await db.fetch("SELECT guild, game FROM results WHERE table_id = ? LIMIT 1", table_id)
    if not found:
        return False
    guild, game = found[0]["guild"], found[0]["game"]
    await db.lock(f"ratings:{guild}:{game}")
    await db.execute("DELETE FROM results WHERE table_id = ?", table_id)
    rows = await db.fetch(f"SELECT {_RESULT_COLUMNS} FROM results WHERE guild = ? AND game = ?"
                          " ORDER BY finished_at, table_id, seat", guild, game)
    results, ratings = recompute([_result(row) for row in rows])
    await db.execute("DELETE FROM results WHERE guild = ? AND game = ?", guild, game)
    await db.execute("DELETE FROM ratings WHERE guild = ? AND game = ?", guild, game)
    await db.executemany(_INSERT_RESULT, [_result_values(r) for r in results])
    await db.executemany(_UPSERT_RATING, [_rating_values(r) for r in ratings])
    return True


def _open_tables(rows: Sequence[Mapping[str, Any]], seats: Sequence[Mapping[str, Any]],
                 timers: Sequence[Mapping[str, Any]]) -> list[tuple[TableRecord, dict[int, float]]]:
    by_table: dict[int, list[SeatRecord]] = {}
    for s in seats:
        by_table.setdefault(s["table_id"], []).append(SeatRecord(s["seat"], s["name"], s["user_id"], s["agent"]))
    deadlines: dict[int, dict[int, float]] = {}
    for t in timers:
        deadlines.setdefault(t["table_id"], {})[t["seat"]] = float(t["due"])
    return [(TableRecord(id=row["id"], place=row["place"], game=row["game"], options=json.loads(row["options"]),
                         status=row["status"], created_by=row["created_by"], created_at=row["created_at"],
                         guild=row["guild"], meta=json.loads(row["meta"]), paused=bool(row["paused"]),
                         turn_seconds=row["turn_seconds"], seats=by_table.get(row["id"], [])),
             deadlines.get(row["id"], {})) for row in rows]


def notified(mode: str | None, turn_seconds: float | None) -> bool:
    """Whether a player who chose `mode` is told of a turn lasting `turn_seconds` (None: no limit)."""
    if mode == NOTIFY_ON:
        return True
    return mode == NOTIFY_LONG and (turn_seconds is None or turn_seconds >= LONG_TURN)

