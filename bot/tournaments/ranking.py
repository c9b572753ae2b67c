"""The one ranking of a tournament (`engine.pairing.standings`): the standings tables after the
rounds closed so far, and the standing order read from them. Pairing (pods' score groups), the
messages (the winner, a league's promotions), the picture and the web page all rank by it, so
what is shown is what is paired. Pure: it reads a `TournamentView`.

Two-player Swiss: points, then Buchholz, Buchholz cut-1, Sonneborn–Berger and direct encounter
(FIDE C.07). Round robins and a league's divisions: points, direct encounter, Sonneborn–Berger.
Pods: points by placing, the sum of placings (lower is better), then the tablemates' points
averaged per table (so a smaller table counts as much as a full one).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.tournaments import DOUBLE_ROUND_ROBIN, LEAGUE, PODS, ROUND_ROBIN, TournamentView
from bot.tournaments.records import placings_of, two_player_rounds
from engine.pairing.records import Bye, Round
from engine.pairing.standings import (
    ROUND_ROBIN_ORDER,
    SWISS_ORDER,
    Division,
    PodRound,
    PodTable,
    Row,
    league_tables,
    pod_table,
    swiss_table,
)


@dataclass(frozen=True)
class Table:
    """One standings table: a league's division (its number; None for every other format), the
    tie-breaks' order (`engine.pairing.standings`' names) and the rows, best first."""

    division: int | None
    order: tuple[str, ...]
    rows: list[Row]


def order_of(format: str) -> tuple[str, ...]:
    """The tie-breaks a format ranks by, in order."""
    if format == PODS:
        return ("PL", "TM")
    if format in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN, LEAGUE):
        return tuple(ROUND_ROBIN_ORDER)
    return tuple(SWISS_ORDER)


def closed_rounds(view: TournamentView) -> int:
    """How many rounds have closed."""
    return sum(1 for r in view.rounds if r.closed_at is not None)


def tables(view: TournamentView) -> list[Table]:
    """The standings after the rounds closed so far (a league: one table a division, top first)."""
    tournament = view.tournament
    done = [r for r in view.rounds if r.closed_at is not None]
    numbers = [e.number for e in view.entrants]
    order = order_of(tournament.format)
    if tournament.format == PODS:
        rounds = [PodRound(tuple(PodTable(b.players, placings_of(b)) for b in r.boards),
                           {p: Bye(code).points((tournament.seats - 1) / 2) for p, code in r.sat_out})
                  for r in done]
        return [Table(None, order, pod_table(rounds, numbers, size=tournament.seats))]
    if tournament.format == LEAGUE:
        divisions = sorted({e.division for e in view.entrants}) or [1]
        stored = [Division(str(d), tuple(e.number for e in view.entrants if e.division == d),
                           tuple(_closed(view, two_player_rounds(view, d))),
                           int(tournament.options.get("promote", 1)), int(tournament.options.get("relegate", 1)))
                  for d in divisions]
        return [Table(int(division.name), order, rows) for division, rows in league_tables(stored)]
    return [Table(None, order, swiss_table(_closed(view, two_player_rounds(view)), numbers, order=order))]


def _closed(view: TournamentView, rounds: list[Round]) -> list[Round]:
    """The rounds (one per stored round, in order) of those stored rounds that have closed."""
    return [round_ for stored, round_ in zip(view.rounds, rounds, strict=True) if stored.closed_at is not None]


def standing_order(view: TournamentView, division: int | None = None) -> list[int]:
    """The entrants best first, as the standings tables rank them (`tables`): a league's
    `division` (its first division where None), every other format's whole field."""
    shown = tables(view)
    chosen = next((t for t in shown if t.division == division), shown[0]) if division is not None else shown[0]
    return [row.player for row in chosen.rows]
