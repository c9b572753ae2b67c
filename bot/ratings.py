"""Ratings derived from finished games, with OpenSkill's Plackett–Luce model (Weng & Lin 2011).

Plackett–Luce ranks any number of sides (2 to 16 players, each alone or in a team, as in
Tronix) from one ordering, ties shared, which is what our games end with. Each finished game is
rated once per server and game: every seat gets a place from the outcome (the winners first,
then by score; a resignation is last), AI seats are rated as the player `ai:<agent>`. Aborted
games, games of one side and tables opened with `rated=off` are not rated.

Everything here is derived: `rebuild` recomputes every rating by replaying the stored games in
the order they finished, and gives what the live updates gave. A rollback that reopens a finished
game takes its rating change back (`take_back`). What is shown is the conservative figure
mean − 3σ, "provisional" until the player has 5 rated games.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.i18n import _
from bot.loader import new_game, replay
from bot.records import FINISHED, SeatRecord, TableRecord
from bot.replies import name_token
from bot.standings import Rating, Result, Sql, Write, conservative, record_in, take_back_in
from bot.store import Store
from engine import Game
from engine.levels import level_of

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
"""The model with its published defaults: μ 25, σ 25/3, β 25/6, τ 25/300."""
RATED = "rated"
"""A table option (and meta key): `rated=off` keeps the game out of the ratings."""
LOCAL = "local"
"""The server name of tables played outside any server (the terminal)."""


@dataclass(frozen=True)
class Placement:
    """A seat's place in a finished game: `rank` 1 is first, equal ranks are a tie; seats with
    the same `team` are rated as one side."""

    seat: int
    player: str
    name: str
    rank: int
    team: int
    won: bool


def ai_name(seat: SeatRecord) -> str:
    """An AI seat's agent by its current name: a level, "greedy" or "random" (a seat stored as
    `strong` or `bot` before levels existed is `normal`, so it keeps one rating)."""
    agent = seat.agent or "normal"
    return level_of(agent) or agent


def player_key(seat: SeatRecord) -> str:
    """Who a seat is, for the ratings: its user, or its AI agent (`ai_name`)."""
    return seat.user_id if seat.user_id else f"ai:{ai_name(seat)}"


def player_name(seat: SeatRecord) -> str:
    """How a rated player is named: a person by their name, an AI by its agent (`AI (normal)`)."""
    return seat.name if seat.user_id else f"AI ({ai_name(seat)})"


def server_of(table: TableRecord) -> str:
    return table.guild or LOCAL


def is_rated(table: TableRecord) -> bool:
    """Whether the table's game counts for the ratings, once finished (`rated=off` says no)."""
    return table.meta.get(RATED, True) is not False


def placements(table: TableRecord, game: Game) -> list[Placement] | None:
    """Every seat's place in the finished game, or None if it is not rated: not finished, opened
    with `rated=off`, or fewer than two sides. Winners come first; then higher scores; every seat
    that resigned shares the last place. In a team game the teams are the sides; a player who
    resigned leaves their team and is placed last on their own."""
    outcome = game.outcome()
    if outcome is None or not is_rated(table) or len(table.seats) < 2:
        return None
    seats = range(min(game.players, len(table.seats)))
    resigned = {s for s in seats if game.is_resigned(s)}
    winners = set(outcome.winners)
    sides: list[tuple[int, ...]] = [tuple(t for t in team if t not in resigned) for team in outcome.teams] or \
        [(s,) for s in seats if s not in resigned]
    sides = [side for side in sides if side]

    def strength(side: tuple[int, ...]) -> tuple[int, float]:
        return (1 if winners & set(side) else 0, sum(outcome.scores[s] for s in side) if not outcome.teams else 0.0)

    order = sorted({strength(side) for side in sides}, reverse=True)
    ranked: list[Placement] = []
    for team, side in enumerate(sides):
        rank = order.index(strength(side)) + 1
        ranked += [Placement(s, player_key(table.seats[s]), player_name(table.seats[s]), rank, team, s in winners)
                   for s in side]
    last = len(order) + 1
    for number, seat in enumerate(sorted(resigned)):
        ranked.append(Placement(seat, player_key(table.seats[seat]), player_name(table.seats[seat]), last,
                                len(sides) + number, False))
    if len({p.team for p in ranked}) < 2:
        return None
    return sorted(ranked, key=lambda p: p.seat)


def rate(guild: str, game: str, table_id: int, place: str, finished_at: float, placed: Sequence[Placement],
         current: Mapping[str, Rating]) -> tuple[list[Result], list[Rating]]:
    """One game's results and the ratings they lead to, from the players' `current` ratings
    (a player without one starts at the model's prior). A player seated twice (two AI seats of
    one agent) moves to the mean of their seats' updates, and counts one game."""
    before = {p.player: current.get(p.player) or Rating(guild, game, p.player, p.name, MODEL.mu, MODEL.sigma)
              for p in placed}
    teams = sorted({p.team for p in placed})
    members = {team: [p for p in placed if p.team == team] for team in teams}
    rated = MODEL.rate([[MODEL.create_rating([before[p.player].mu, before[p.player].sigma], name=p.player)
                         for p in members[team]] for team in teams],
                       ranks=[float(members[team][0].rank) for team in teams])
    after: dict[int, tuple[float, float]] = {}
    for team, new in zip(teams, rated, strict=True):
        for p, rating in zip(members[team], new, strict=True):
            after[p.seat] = (rating.mu, rating.sigma)
    results = []
    for p in placed:
        old = before[p.player]
        beaten = [q for q in placed if q.rank > p.rank and q.player != p.player
                  and before[q.player].score > old.score]
        best = max(beaten, key=lambda q: before[q.player].score, default=None)
        results.append(Result(
            table_id=table_id, seat=p.seat, guild=guild, game=game, place=place, player=p.player, name=p.name,
            rank=p.rank, team=p.team, entrants=len(teams), won=p.won, finished_at=finished_at, mu_before=old.mu,
            sigma_before=old.sigma, mu=after[p.seat][0], sigma=after[p.seat][1],
            beaten_name=best.name if best else None, beaten_score=before[best.player].score if best else None))
    ratings = []
    for player, old in before.items():
        mine = [r for r in results if r.player == player]
        ratings.append(Rating(guild, game, player, mine[0].name, sum(r.mu for r in mine) / len(mine),
                              sum(r.sigma for r in mine) / len(mine), old.games + 1,
                              old.wins + int(any(r.won for r in mine))))
        if len(mine) > 1:
            for r in mine:
                r.mu, r.sigma = ratings[-1].mu, ratings[-1].sigma
    return results, ratings


def rate_in_order(results: Sequence[Result]) -> tuple[list[Result], list[Rating]]:
    """Games' results rated again from the start, one game after another in the order given
    (results of one game together); returns the results with their new figures and the final
    ratings."""
    current: dict[tuple[str, str, str], Rating] = {}
    rated: list[Result] = []
    games: dict[int, list[Result]] = {}
    for result in results:
        games.setdefault(result.table_id, []).append(result)
    for table_id, rows in games.items():
        first = rows[0]
        placed = [Placement(r.seat, r.player, r.name, r.rank, r.team, r.won) for r in rows]
        mine = {r.player: current[(first.guild, first.game, r.player)] for r in rows
                if (first.guild, first.game, r.player) in current}
        new_results, new_ratings = rate(first.guild, first.game, table_id, first.place, first.finished_at, placed,
                                        mine)
        rated += new_results
        for rating in new_ratings:
            current[(rating.guild, rating.game, rating.player)] = rating
    return rated, list(current.values())


def change_lines(results: Sequence[Result], games_before: Mapping[str, int]) -> str:
    """The rating changes of a finished game, one line: `Ana 12.3 (+2.1) · AI (normal) 8.0 (−1.4)`;
    a player with fewer than 5 games is marked provisional."""
    shown: dict[str, str] = {}
    for r in sorted(results, key=lambda r: (r.rank, r.seat)):
        if r.player in shown:
            continue
        figure = f"{conservative(r.mu, r.sigma):.1f} ({r.change:+.1f})".replace("-", "−")
        if games_before.get(r.player, 0) + 1 < 5:
            figure += " " + _("provisional")
        shown[r.player] = f"{name_token(r.name)} {figure}"
    return _("📈 Ratings: {changes}").format(changes=" · ".join(shown.values()))


class Ratings:
    """Ratings kept in a store: rate a game as it finishes, take it back on a rollback, rebuild
    everything from the stored games."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def preview(self, table: TableRecord, game: Game, finished_at: float) -> str | None:
        """The rating-change line a game that has just finished will bring (None if unrated),
        from the ratings as they stand: it goes into the final announcement."""
        placed = placements(table, game)
        if placed is None:
            return None
        guild = server_of(table)
        current = await self.store.standings.ratings_of(guild, table.game, [p.player for p in placed])
        results, _ratings = rate(guild, table.game, table.id, table.place, finished_at, placed, current)
        return change_lines(results, {k: v.games for k, v in current.items()})

    async def record(self, table: TableRecord, game: Game, finished_at: float) -> list[Result] | None:
        """Rate a finished game in a transaction of its own (once; None if it is not rated or
        was already)."""
        placed = placements(table, game)
        if placed is None or table.status != FINISHED:
            return None
        guild = server_of(table)
        return await self.store.standings.record(
            table.id, guild, table.game, sorted({p.player for p in placed}),
            lambda current: rate(guild, table.game, table.id, table.place, finished_at, placed, current))

    def recording(self, table: TableRecord, game: Game, finished_at: float) -> Write | None:
        """The writes that rate a game that has just finished, to make in the transaction that
        commits its last move (so a game is never finished and unrated); None if it is not rated."""
        placed = placements(table, game)
        if placed is None or table.status != FINISHED:
            return None
        guild = server_of(table)

        async def write(db: Sql) -> None:
            await record_in(db, table.id, guild, table.game, sorted({p.player for p in placed}),
                            lambda current: rate(guild, table.game, table.id, table.place, finished_at, placed,
                                                 current))

        return write

    @staticmethod
    def taking_back(table_id: int) -> Write:
        """`take_back`'s writes, to make in the transaction of the rollback that reopens the game."""

        async def write(db: Sql) -> None:
            await take_back_in(db, table_id, rate_in_order)

        return write

    async def take_back(self, table_id: int) -> bool:
        """Undo a game's rating change (it was reopened): its server's games of that kind are
        rated again without it. False if it was not rated."""
        return await self.store.standings.take_back(table_id, rate_in_order)

    async def rebuild(self) -> tuple[int, int]:
        """Every rating computed again from the stored games: each finished table is replayed,
        placed, and rated in the order the games finished. Returns (games rated, ratings)."""
        finished: list[tuple[float, int, list[Result]]] = []
        for table in await self.store.find_tables(statuses=(FINISHED,), limit=10**9):
            actions = await self.store.actions(table.id)
            if not actions or table.seed is None:
                continue
            try:
                game = new_game(table)
                replay(game, actions)
            except Exception:
                log.exception("table %s does not replay; left out of the ratings", table.id)
                continue
            placed = placements(table, game)
            if placed is None:
                continue
            at = actions[-1].at
            finished.append((at, table.id, rate(server_of(table), table.game, table.id, table.place, at, placed,
                                                {})[0]))
        finished.sort(key=lambda item: (item[0], item[1]))
        results, ratings = rate_in_order([r for _at, _id, rows in finished for r in rows])
        await self.store.standings.replace_all(results, ratings)
        return len(finished), len(ratings)
