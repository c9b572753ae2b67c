"""Ratings derived from finished games, with OpenSkill's Plackett–Luce model (Weng & Lin 2011).

Plackett–Luce ranks any number of sides (2 to 16 players, each alone or in a team, as in
Tronix) from one ordering, ties shared, which is what our games end with. Each finished game is
rated once per server and game: every seat gets a place from the outcome (`placements`), AI
seats are rated as the player `ai:<agent>`. Aborted games, games of one side and tables opened
with `rated=off` are not rated.

What players see is the model's mean, scaled (`bot.storage.standings.figure`: 1000 for a new player),
and its change. Its direction follows the result. In the model's update (Algorithm 4) a side i
moves its mean by a positive multiple of Ω_i = Σ_{q ranked at or above i} (1[q = i] − p_{i|q}) / A_q,
where p_{i|q} is i's share of exp(μ/c) among the sides ranked at or below q and A_q counts the
sides tied with q, and each member of the side by a positive multiple of the side's:
- a side alone in first place (a WIN) has only its own term, 1 − p_{i|i} > 0: it always gains;
- a side alone in last place (every LOSS of a two-sided game: one against one, team against
  team; and the side of the players who left, see `placements`) has p_{i|i} = 1 and only
  negative terms: it always loses;
- a shared first place (a DRAW) moves each side by what the model expected of it, up or down;
- in a game of three or more sides, any other place (a LOSS in the record: between first and
  last, or a last place shared) moves up when the side finished ahead of, or level with, sides
  rated well above it, else down. No figure the model gives can avoid that: the model itself
  then believes the player stronger. /help says so.
So a win never shows as a loss, and neither a loss of two sides nor leaving a game as a gain;
`tests/bot/community/test_ratings.py` checks this over random games of 2 to 16 players, in teams and
free-for-all, with ties. The mean − 3σ shown before could rise after a loss (σ shrinks with
every game).

Everything here is derived: `rebuild` recomputes every rating by replaying the stored games in
the order they finished, and gives what the live updates gave. A rollback that reopens a finished
game takes its rating change back (`take_back`). A rating is provisional until the player has
5 rated games (`bot.storage.standings.PROVISIONAL_GAMES`).
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.core import absence
from bot.core.i18n import _, current_language
from bot.core.records import FINISHED, SeatRecord, TableRecord
from bot.core.replies import name_token
from bot.storage.loader import new_game, replay
from bot.storage.players import FORMER, FORMER_PLAYER
from bot.storage.standings import (
    DRAW,
    LOSS,
    PROVISIONAL_GAMES,
    WIN,
    Rating,
    Result,
    Sql,
    Write,
    record_in,
    shown,
    signed,
    take_back_in,
)
from bot.storage.store import Store
from engine import Game
from engine.core import RESIGN
from engine.levels import level_name, level_of

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
"""The model with its published defaults: μ 25, σ 25/3, β 25/6, τ 25/300."""
REMOVED, AWAY = "removed", "away"
"""Why a seat is rated as having resigned for its absence (`absentees`)."""
RATED = "rated"
"""A table option (and meta key): `rated=off` keeps the game out of the ratings."""
LOCAL = "local"
"""The server name of tables played outside any server (the terminal)."""


@dataclass(frozen=True)
class Placement:
    """A seat's place in a finished game: `rank` 1 is first, equal ranks are a tie; seats with
    the same `team` are rated as one side. `outcome`: WIN, DRAW or LOSS (`outcome_of`)."""

    seat: int
    player: str
    name: str
    rank: int
    team: int
    outcome: str


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


def shown_name(player: str, name: str) -> str:
    """How a rated player (`player_key`, stored `name`) is named to the reader, in the language
    being spoken: a person by their name; an AI by its level in that language ("IA (fácil)"); a
    forgotten player as "a former player"."""
    if player.startswith(FORMER):
        return _(FORMER_PLAYER)
    if not player.startswith("ai:"):
        return name
    return _("AI ({level})").format(level=level_name(player.removeprefix("ai:"), current_language()))


def server_of(table: TableRecord) -> str:
    return table.guild or LOCAL


def is_rated(table: TableRecord) -> bool:
    """Whether the table's game counts for the ratings, once finished (`rated=off` says no)."""
    return table.meta.get(RATED, True) is not False


def outcome_of(rank: int, ranks: Sequence[int]) -> str:
    """The result of a side placed `rank` among sides placed `ranks` (its own included): a WIN
    alone in first place, a DRAW in a first place shared with another side, else a LOSS."""
    if rank != 1:
        return LOSS
    return WIN if ranks.count(1) == 1 else DRAW


def absentees(table: TableRecord, log: Sequence[tuple[int, str, str]]) -> dict[int, str]:
    """The seats rated as having resigned for their absence, each with why (`REMOVED` or
    `AWAY`), from the game's log as (seat, action, actor) triples. The rule, at tables of three
    or more seats (a table of two keeps the game's own rule, and its result stands):
    - a player removed for their absence (`absent=remove`) resigned;
    - a player more of whose moves were made for them while they were away (by a stand-in, or
      skipped: `absent=standin`, `absent=skip`) than by themselves is rated as having resigned.
    Either way they are placed last, as everyone who left is (`placements`), and whatever a
    stand-in won is not theirs; the others are placed by the game's result among themselves, so
    absence is never rewarded and never distorts the others' places."""
    if absence.mode_of(table) is None:
        return {}
    made: dict[int, int] = {}
    own: dict[int, int] = {}
    removed: set[int] = set()
    for seat, action, actor in log:
        if not 0 <= seat < len(table.seats) or table.seats[seat].is_ai:
            continue
        if action == RESIGN and actor == absence.ABSENT_ACTOR:
            removed.add(seat)
        elif absence.made_for_absent(actor):
            made[seat] = made.get(seat, 0) + 1
        elif actor == table.seats[seat].user_id:
            own[seat] = own.get(seat, 0) + 1
    away = {seat: AWAY for seat, count in made.items() if count > own.get(seat, 0)}
    return {**away, **dict.fromkeys(removed, REMOVED)}


def placements(table: TableRecord, game: Game, absent: Collection[int] = ()) -> list[Placement] | None:
    """Every seat's place in the finished game, or None if it is not rated: not finished, opened
    with `rated=off`, or fewer than two sides. The `absent` seats (`absentees`) are placed as
    players who left.

    Free-for-all: each seat still in the game is a side; the winners come first, then higher
    scores. A team game (Tronix) has two results: when a team wins, its players still seated are
    one side, first, and everyone else one side, second (the other team, and every player who
    left, whichever team they left); when the teams share the win, each team is a side, first.
    Players who left the game (`is_resigned`) not placed so form one side, last: a side alone
    in last place, so that leaving is always a loss and always lowers the rating (ranked apart,
    or tied, a player who left could gain on a stronger one who left too)."""
    outcome = game.outcome()
    if outcome is None or not is_rated(table) or len(table.seats) < 2:
        return None
    seats = range(min(game.players, len(table.seats)))
    left = tuple(s for s in seats if game.is_resigned(s) or s in absent)
    winners = set(outcome.winners)
    sides: list[tuple[tuple[int, ...], int]] = []
    if outcome.teams:
        teams = [side for side in (tuple(s for s in team if s not in left) for team in outcome.teams) if side]
        won = [side for side in teams if winners & set(side)]
        if won and len(won) < len(teams):
            sides = [(side, 1) for side in won]
            sides.append((tuple(s for side in teams if side not in won for s in side) + left, 2))
            left = ()
        else:
            sides = [(side, 1) for side in teams]
    else:
        def strength(seat: int) -> tuple[int, float]:
            return (1 if seat in winners else 0, outcome.scores[seat])

        order = sorted({strength(s) for s in seats if s not in left}, reverse=True)
        sides = [((s,), order.index(strength(s)) + 1) for s in seats if s not in left]
    if left:
        sides.append((left, max((rank for _side, rank in sides), default=0) + 1))
    if len(sides) < 2:
        return None
    ranks = [rank for _side, rank in sides]
    placed = [Placement(s, player_key(table.seats[s]), player_name(table.seats[s]), rank, team,
                        outcome_of(rank, ranks))
              for team, (side, rank) in enumerate(sides) for s in side]
    return sorted(placed, key=lambda p: p.seat)


def rate(guild: str, game: str, table_id: int, place: str, finished_at: float, placed: Sequence[Placement],
         current: Mapping[str, Rating]) -> tuple[list[Result], list[Rating]]:
    """One game's results and the ratings they lead to, from the players' `current` ratings
    (a player without one starts at the model's prior). A player seated twice (two AI seats of
    one agent) moves to the mean of their seats' updates, and counts one game: won if a seat of
    theirs won, else drawn if one drew, else lost (so such a player's win can show a fall: the
    one exception to a win never showing as a loss, and only AI levels are ever seated twice)."""
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
            rank=p.rank, team=p.team, entrants=len(teams), outcome=p.outcome, finished_at=finished_at,
            mu_before=old.mu, sigma_before=old.sigma, mu=after[p.seat][0], sigma=after[p.seat][1],
            beaten_name=best.name if best else None, beaten_score=before[best.player].score if best else None))
    ratings = []
    for player, old in before.items():
        mine = [r for r in results if r.player == player]
        outcomes = {r.outcome for r in mine}
        counted = WIN if WIN in outcomes else DRAW if DRAW in outcomes else LOSS
        ratings.append(Rating(guild, game, player, mine[0].name, sum(r.mu for r in mine) / len(mine),
                              sum(r.sigma for r in mine) / len(mine), old.games + 1,
                              old.wins + int(counted == WIN), old.draws + int(counted == DRAW)))
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
        placed = [Placement(r.seat, r.player, r.name, r.rank, r.team, r.outcome) for r in rows]
        mine = {r.player: current[(first.guild, first.game, r.player)] for r in rows
                if (first.guild, first.game, r.player) in current}
        new_results, new_ratings = rate(first.guild, first.game, table_id, first.place, first.finished_at, placed,
                                        mine)
        rated += new_results
        for rating in new_ratings:
            current[(rating.guild, rating.game, rating.player)] = rating
    return rated, list(current.values())


def change_lines(results: Sequence[Result], games_before: Mapping[str, int]) -> str:
    """The rating changes of a finished game, one line: `Ana 1105 (+105) · AI (normal) 962 (−38)`:
    each player's shown rating after the game and its change; a player with fewer than 5 games
    (this one included) is marked provisional."""
    said: dict[str, str] = {}
    for r in sorted(results, key=lambda r: (r.rank, r.seat)):
        if r.player in said:
            continue
        figure = f"{shown(r.mu)} ({signed(r.change)})"
        if games_before.get(r.player, 0) + 1 < PROVISIONAL_GAMES:
            figure += " " + _("provisional")
        said[r.player] = f"{name_token(shown_name(r.player, r.name))} {figure}"
    return _("📈 Ratings: {changes}").format(changes=" · ".join(said.values()))


def absence_note(table: TableRecord, absent: Mapping[int, str]) -> str:
    """What the ratings line adds for the players rated as having resigned for their absence
    (`absentees`): who, and why; "" when nobody was."""
    notes = [(_("{player} was removed for being away: rated as having resigned") if why == REMOVED else
              _("most of {player}'s moves were made for them while they were away: rated as having resigned")
              ).format(player=name_token(table.seats[seat].name)) for seat, why in sorted(absent.items())]
    return f" ({'; '.join(notes)})" if notes else ""


class Ratings:
    """Ratings kept in a store: rate a game as it finishes, take it back on a rollback, rebuild
    everything from the stored games."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def preview(self, table: TableRecord, game: Game, finished_at: float,
                      log: Sequence[tuple[int, str, str]] = ()) -> str | None:
        """The rating-change line a game that has just finished will bring (None if unrated),
        from the ratings as they stand: it goes into the final announcement. `log`: the game's
        log as (seat, action, actor) triples, for the absent players' rule (`absentees`), which
        the line then states for each of them."""
        absent = absentees(table, log)
        placed = placements(table, game, absent)
        if placed is None:
            return None
        guild = server_of(table)
        current = await self.store.standings.ratings_of(guild, table.game, [p.player for p in placed])
        results, _ratings = rate(guild, table.game, table.id, table.place, finished_at, placed, current)
        return change_lines(results, {k: v.games for k, v in current.items()}) + absence_note(table, absent)

    async def record(self, table: TableRecord, game: Game, finished_at: float,
                     log: Sequence[tuple[int, str, str]] = ()) -> list[Result] | None:
        """Rate a finished game in a transaction of its own (once; None if it is not rated or
        was already); `log` as for `preview`."""
        placed = placements(table, game, absentees(table, log))
        if placed is None or table.status != FINISHED:
            return None
        guild = server_of(table)
        return await self.store.standings.record(
            table.id, guild, table.game, sorted({p.player for p in placed}),
            lambda current: rate(guild, table.game, table.id, table.place, finished_at, placed, current))

    def recording(self, table: TableRecord, game: Game, finished_at: float,
                  log: Sequence[tuple[int, str, str]] = ()) -> Write | None:
        """The writes that rate a game that has just finished, to make in the transaction that
        commits its last move (so a game is never finished and unrated); None if it is not rated.
        `log` as for `preview`."""
        placed = placements(table, game, absentees(table, log))
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
            placed = placements(table, game, absentees(table, [(a.seat, a.action, a.actor) for a in actions]))
            if placed is None:
                continue
            at = actions[-1].at
            finished.append((at, table.id, rate(server_of(table), table.game, table.id, table.place, at, placed,
                                                {})[0]))
        finished.sort(key=lambda item: (item[0], item[1]))
        results, ratings = rate_in_order([r for _at, _id, rows in finished for r in rows])
        await self.store.standings.replace_all(results, ratings)
        return len(finished), len(ratings)
