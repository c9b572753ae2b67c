"""Tie-breaks for two-player tournaments (FIDE Handbook C.07), from the rounds played so far.

Unplayed rounds (a bye, a forfeit either way, a round missed) follow FIDE's 2023 rule for a
participant's own unplayed rounds: each counts as a game against a dummy opponent with as many
points as the participant has, so sitting out neither helps nor harms their Buchholz. Forfeited
games count as unplayed for the tie-breaks (their points count in the score).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.pairing.records import Round, scores


@dataclass(frozen=True)
class _Encounter:
    opponent: int | None
    """None: an unplayed round."""
    points: float


def _encounters(rounds: list[Round], players: set[int], allocated_bye: float) -> dict[int, list[_Encounter]]:
    met: dict[int, list[_Encounter]] = {p: [] for p in players}
    for round_ in rounds:
        seen = set()
        for board in round_.boards:
            if board.result is None:
                continue
            first, second = board.result.points()
            played = board.result.played
            met.setdefault(board.first, []).append(_Encounter(board.second if played else None, first))
            met.setdefault(board.second, []).append(_Encounter(board.first if played else None, second))
            seen |= {board.first, board.second}
        for sat in round_.sat_out:
            met.setdefault(sat.player, []).append(_Encounter(None, sat.bye.points(allocated_bye)))
            seen.add(sat.player)
        for missing in players - seen - round_.players():
            met[missing].append(_Encounter(None, 0.0))
    return met


@dataclass(frozen=True)
class Standing:
    """A player's score and tie-breaks."""

    player: int
    points: float
    buchholz: float
    buchholz_cut1: float
    sonneborn_berger: float
    direct_encounter: float


def standings(rounds: list[Round], players: set[int] | list[int], *, allocated_bye: float = 1.0) -> list[Standing]:
    """Every player's standing, best first: points, then direct encounter among the players
    tied on points (when all of them met), then Buchholz cut-1, Buchholz and Sonneborn–Berger;
    players still tied keep their pairing numbers' order."""
    everyone = set(players)
    points = {p: 0.0 for p in everyone} | scores(rounds, allocated_bye=allocated_bye)
    met = _encounters(rounds, everyone, allocated_bye)
    rows = []
    for player in sorted(everyone):
        parts = [points[e.opponent] if e.opponent is not None else points[player] for e in met[player]]
        weighted = [(points[e.opponent] if e.opponent is not None else points[player]) * e.points
                    for e in met[player]]
        cut = sum(parts) - min(parts) if parts else 0.0
        rows.append(Standing(player, points[player], sum(parts), cut, sum(weighted), 0.0))
    direct = _direct_encounter(rows, met)
    rows = [Standing(r.player, r.points, r.buchholz, r.buchholz_cut1, r.sonneborn_berger, direct[r.player])
            for r in rows]
    return sorted(rows, key=lambda r: (-r.points, -r.direct_encounter, -r.buchholz_cut1, -r.buchholz,
                                       -r.sonneborn_berger, r.player))


def _direct_encounter(rows: list[Standing], met: dict[int, list[_Encounter]]) -> dict[int, float]:
    """Points each player scored against the others tied with them on points, where every pair
    of them met (FIDE's direct encounter); 0 for everyone in a tie where some never met."""
    result = {r.player: 0.0 for r in rows}
    by_points: dict[float, list[int]] = {}
    for row in rows:
        by_points.setdefault(row.points, []).append(row.player)
    for tied in by_points.values():
        if len(tied) < 2:
            continue
        group = set(tied)
        pairs_met = {frozenset((p, e.opponent)) for p in tied for e in met[p] if e.opponent in group}
        if len(pairs_met) < len(tied) * (len(tied) - 1) // 2:
            continue
        for player in tied:
            result[player] = sum(e.points for e in met[player] if e.opponent in group)
    return result
