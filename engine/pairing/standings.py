"""The standings table after every round: ranks, points and tie-breaks in a stated order.

Two-player formats (Swiss, round robin, a league's divisions) rank by points, then the
tie-breaks of `SWISS_ORDER` or `ROUND_ROBIN_ORDER` in turn (see `engine.pairing.tiebreaks` for
how each is counted). Direct encounter is counted among the players tied on everything before
it, and passed over where some of them never met. Pods rank by points by placing, then
`POD_ORDER`: the sum of placings (lower is better) and the tablemates' points.

Players tied on points and on every tie-break share a rank (1, 2, 2, 4) and are listed by
pairing number. Nothing here breaks a complete tie by chance.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from engine.pairing import tiebreaks
from engine.pairing.pods import placing_points
from engine.pairing.records import Round
from engine.pairing.tiebreaks import ROUND_ROBIN_ORDER, SWISS_ORDER, Standing, standings

__all__ = ["POD_NAMES", "POD_ORDER", "ROUND_ROBIN_ORDER", "SWISS_ORDER", "Division", "PodRound", "PodTable", "Row",
           "Standing", "league_tables", "pod_table", "pod_tables_by_round", "standings", "swiss_table",
           "swiss_tables_by_round"]
PLACINGS = "PL"
TABLEMATES = "TM"
POD_ORDER = (PLACINGS, TABLEMATES)
"""A pod Swiss's tie-breaks: the sum of placings (lower is better), then the tablemates' points."""
POD_NAMES = {PLACINGS: "sum of placings", TABLEMATES: "tablemates' points"}

Movement = Literal["up", "down"] | None


@dataclass(frozen=True)
class Row:
    """One line of the table: `tiebreaks` follow the order the table was made with (None where
    a tie-break was passed over); `movement`: a league player promoted ("up") or relegated
    ("down")."""

    rank: int
    player: int
    points: float
    tiebreaks: tuple[float | None, ...]
    movement: Movement = None


# ---------------------------------------------------------------------------------------------
# Two-player formats


def swiss_table(rounds: Sequence[Round], players: Iterable[int], *, order: Sequence[str] = SWISS_ORDER,
                allocated_bye: float = 1.0) -> list[Row]:
    """The table over `rounds` (boards still being played count nothing yet) of every player in
    `players` (a player missing from a round scores nothing in it), ranked by points and then
    `order`'s tie-breaks (`tiebreaks.figures`)."""
    keys = tiebreaks.figures(rounds, players, order=order, allocated_bye=allocated_bye)
    return _ranked(keys, descending=(True,) * (len(order) + 1))


def swiss_tables_by_round(rounds: Sequence[Round], players: Iterable[int], *, order: Sequence[str] = SWISS_ORDER,
                          allocated_bye: float = 1.0) -> list[list[Row]]:
    """The table after round 1, after round 2, … (one table a round in `rounds`)."""
    everyone = list(players)
    return [swiss_table(rounds[:n], everyone, order=order, allocated_bye=allocated_bye)
            for n in range(1, len(rounds) + 1)]


def _ranked(keys: Mapping[int, tuple[float | None, ...]], descending: Sequence[bool]) -> list[Row]:
    """Rows best first; equal keys share a rank; a tie-break passed over (None) sorts as
    nothing to tell the tied apart."""

    def sort_key(player: int) -> tuple[float, ...]:
        return tuple(0.0 if value is None else (-value if down else value)
                     for value, down in zip(keys[player], descending, strict=True))

    order = sorted(keys, key=lambda p: (sort_key(p), p))
    rows: list[Row] = []
    for place, player in enumerate(order, 1):
        shared = rows and sort_key(rows[-1].player) == sort_key(player)
        rank = rows[-1].rank if shared else place
        points, *rest = keys[player]
        rows.append(Row(rank, player, points or 0.0, tuple(rest)))
    return rows


# ---------------------------------------------------------------------------------------------
# Pods


@dataclass(frozen=True)
class PodTable:
    """One table of a pod round: its players in seat order and each one's placing (1 = first,
    equal numbers for a tie), or None while the game is on."""

    players: tuple[int, ...]
    placings: tuple[int, ...] | None = None


@dataclass(frozen=True)
class PodRound:
    """One round of a pod Swiss: its tables, and the points of anyone who sat out (a bye)."""

    tables: tuple[PodTable, ...]
    sat_out: Mapping[int, float] | None = None


def pod_table(rounds: Sequence[PodRound], players: Iterable[int], *, size: int) -> list[Row]:
    """The table of a pod Swiss over `rounds`, ranked by points by placing
    (`pods.placing_points`), then the sum of placings (lower is better; a round not played at a
    table counts as last place at a table of `size`), then the tablemates' points (at each table
    played, the mean of the tablemates' points; a round not played counts the player's own
    points, like C.07's dummy opponent)."""
    everyone = sorted(set(players))
    points = {p: 0.0 for p in everyone}
    placings = {p: 0 for p in everyone}
    mates: dict[int, list[tuple[int, ...] | None]] = {p: [] for p in everyone}
    for round_ in rounds:
        seen: set[int] = set()
        for table in round_.tables:
            if table.placings is None:
                seen |= set(table.players)
                continue
            for player, place, won in zip(table.players, table.placings, placing_points(table.placings), strict=True):
                points[player] = points.get(player, 0.0) + won
                placings[player] = placings.get(player, 0) + place
                mates.setdefault(player, []).append(tuple(p for p in table.players if p != player))
                seen.add(player)
        for player, bye in (round_.sat_out or {}).items():
            points[player] = points.get(player, 0.0) + bye
            placings[player] = placings.get(player, 0) + size
            mates.setdefault(player, []).append(None)
            seen.add(player)
        for player in set(everyone) - seen:
            placings[player] += size
            mates[player].append(None)

    def opposition(player: int) -> float:
        return sum(points[player] if others is None else sum(points.get(o, 0.0) for o in others) / len(others)
                   for others in mates[player])

    keys = {p: (points[p], float(placings[p]), opposition(p)) for p in everyone}
    return _ranked(keys, descending=(True, False, True))


def pod_tables_by_round(rounds: Sequence[PodRound], players: Iterable[int], *, size: int) -> list[list[Row]]:
    """The pod table after round 1, after round 2, …"""
    everyone = list(players)
    return [pod_table(rounds[:n], everyone, size=size) for n in range(1, len(rounds) + 1)]


# ---------------------------------------------------------------------------------------------
# Leagues


@dataclass(frozen=True)
class Division:
    """One division of a league's season: its players, its round robin's rounds, and how many
    go up and down at the season's end."""

    name: str
    players: tuple[int, ...]
    rounds: tuple[Round, ...]
    promote: int = 0
    relegate: int = 0


def league_tables(divisions: Sequence[Division]) -> list[tuple[Division, list[Row]]]:
    """Each division's table (round robin tie-breaks), top division first, its top `promote`
    marked "up" and its bottom `relegate` marked "down". The top division promotes nobody and
    the bottom one relegates nobody; where players share a rank across the line, the one listed
    first (the lower pairing number) counts as above the line."""
    tables = []
    for index, division in enumerate(divisions):
        rows = swiss_table(division.rounds, division.players, order=ROUND_ROBIN_ORDER)
        up = division.promote if index > 0 else 0
        down = division.relegate if index < len(divisions) - 1 else 0
        down = min(down, len(rows) - up)
        marked = [replace(row, movement="up") if place < up
                  else replace(row, movement="down") if place >= len(rows) - down
                  else row for place, row in enumerate(rows)]
        tables.append((division, marked))
    return tables

