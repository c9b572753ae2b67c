"""Tie-breaks for two-player tournaments (FIDE Handbook C.07, the regulations applied from
September 2023), from the rounds played so far.

Unplayed rounds follow C.07's article 16, as tileref reads it:

- A round a player did not play over the board (a bye of any kind, a forfeit either way, a round
  missed or after withdrawing) counts, in their own Buchholz and Sonneborn–Berger, as a game
  against a dummy opponent with as many points as the player has.
- *Voluntarily unplayed rounds* (a half-point or zero-point bye, a forfeit loss, a round missed
  or after withdrawing; not a pairing-allocated bye, a full-point bye or a forfeit win) count as
  draws in the score a player's opponents see: their Buchholz and Sonneborn–Berger use that
  adjusted score.
- Buchholz cut-1 cuts a voluntarily unplayed round first, where the player has one; otherwise the
  lowest opponent's score.
- Forfeited games are unplayed for the tie-breaks (their points count in the score).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.pairing.records import Bye, Result, Round, scores

BUCHHOLZ = "BH"
BUCHHOLZ_CUT1 = "BH-C1"
SONNEBORN_BERGER = "SB"
DIRECT_ENCOUNTER = "DE"
SWISS_ORDER = (BUCHHOLZ, BUCHHOLZ_CUT1, SONNEBORN_BERGER, DIRECT_ENCOUNTER)
"""A Swiss's tie-breaks, in the order they are applied."""
ROUND_ROBIN_ORDER = (DIRECT_ENCOUNTER, SONNEBORN_BERGER)
"""A round robin's (and a league division's): everyone meets everyone, so Buchholz tells nothing
there (C.07 recommends direct encounter and Sonneborn–Berger)."""
NAMES = {BUCHHOLZ: "Buchholz", BUCHHOLZ_CUT1: "Buchholz cut-1", SONNEBORN_BERGER: "Sonneborn–Berger",
         DIRECT_ENCOUNTER: "direct encounter"}
"""Each tie-break's short name (as tables head their columns) and its full name."""


@dataclass(frozen=True)
class Encounter:
    """One round of one player, as the tie-breaks see it."""

    opponent: int | None
    """Who they played over the board; None for an unplayed round."""
    points: float
    voluntary: bool = False
    """An unplayed round of the player's own choosing (C.07 16.2): a half-point or zero-point
    bye, a forfeit loss, a round missed."""


_VOLUNTARY_BYES = (Bye.HALF_POINT, Bye.ZERO_POINT)


def encounters(rounds: Iterable[Round], players: Iterable[int],
               allocated_bye: float = 1.0) -> dict[int, list[Encounter]]:
    """Each player's rounds in order; a board still being played is left out, a round a player
    is in nowhere counts as missed (an absence: nothing, voluntarily unplayed)."""
    everyone = set(players)
    met: dict[int, list[Encounter]] = {p: [] for p in everyone}
    for round_ in rounds:
        for board in round_.boards:
            if board.result is None:
                continue
            first, second = board.result.points()
            if board.result.played:
                met.setdefault(board.first, []).append(Encounter(board.second, first))
                met.setdefault(board.second, []).append(Encounter(board.first, second))
            else:
                first_chose = board.result != Result.FIRST_WON_BY_FORFEIT
                second_chose = board.result != Result.SECOND_WON_BY_FORFEIT
                met.setdefault(board.first, []).append(Encounter(None, first, first_chose))
                met.setdefault(board.second, []).append(Encounter(None, second, second_chose))
        for sat in round_.sat_out:
            worth = sat.bye.points(allocated_bye)
            met.setdefault(sat.player, []).append(Encounter(None, worth, sat.bye in _VOLUNTARY_BYES))
        for missing in everyone - round_.players():
            met[missing].append(Encounter(None, 0.0, True))
    return met


@dataclass(frozen=True)
class Values:
    """A player's points and the tie-breaks that need no tie to compute."""

    points: float
    buchholz: float
    buchholz_cut1: float
    sonneborn_berger: float


def values(rounds: list[Round], players: Iterable[int], *, allocated_bye: float = 1.0) -> dict[int, Values]:
    """Points, Buchholz, Buchholz cut-1 and Sonneborn–Berger of every player (see the module's
    note on unplayed rounds)."""
    everyone = set(players)
    points = {p: 0.0 for p in everyone} | scores(rounds, allocated_bye=allocated_bye)
    met = encounters(rounds, everyone, allocated_bye)
    adjusted = {p: sum(0.5 if e.voluntary else e.points for e in met.get(p, [])) for p in points}
    result = {}
    for player in everyone:
        parts = [(adjusted[e.opponent] if e.opponent is not None else points[player], e) for e in met[player]]
        bh = sum(value for value, _ in parts)
        voluntary = [value for value, e in parts if e.voluntary]
        cut = min(voluntary) if voluntary else min((value for value, _ in parts), default=0.0)
        sb = sum(value * e.points for value, e in parts)
        result[player] = Values(points[player], bh, bh - cut, sb)
    return result


def direct_encounter(group: Iterable[int], met: dict[int, list[Encounter]]) -> dict[int, float] | None:
    """Points each player of a tied `group` scored in the games among them (all of them, a
    double round robin's both), or None where some pair of them never met over the board (C.07
    article 6: the tie-break is then passed over)."""
    tied = set(group)
    pairs = {frozenset((p, e.opponent)) for p in tied for e in met.get(p, []) if e.opponent in tied}
    if len(pairs) < len(tied) * (len(tied) - 1) // 2:
        return None
    return {p: sum(e.points for e in met.get(p, []) if e.opponent in tied) for p in tied}


def figures(rounds: Iterable[Round], players: Iterable[int], *, order: Sequence[str] = SWISS_ORDER,
            allocated_bye: float = 1.0) -> dict[int, tuple[float | None, ...]]:
    """Each player's points, then `order`'s tie-breaks in turn. Direct encounter is counted among
    the players tied on everything before it, and is None where it is passed over (a player
    tied with nobody, or tied players who did not all meet)."""
    everyone = sorted(set(players))
    done = list(rounds)
    numbers = values(done, everyone, allocated_bye=allocated_bye)
    met = encounters(done, everyone, allocated_bye)
    plain: dict[str, Callable[[int], float]] = {
        BUCHHOLZ: lambda p: numbers[p].buchholz,
        BUCHHOLZ_CUT1: lambda p: numbers[p].buchholz_cut1,
        SONNEBORN_BERGER: lambda p: numbers[p].sonneborn_berger,
    }
    unknown = set(order) - set(plain) - {DIRECT_ENCOUNTER}
    if unknown:
        raise ValueError(f"unknown tie-breaks: {', '.join(sorted(unknown))}")
    keys: dict[int, list[float | None]] = {p: [numbers[p].points] for p in everyone}
    for name in order:
        if name != DIRECT_ENCOUNTER:
            for p in everyone:
                keys[p].append(plain[name](p))
            continue
        groups: dict[tuple[float | None, ...], list[int]] = {}
        for p in everyone:
            groups.setdefault(tuple(keys[p]), []).append(p)
        for group in groups.values():
            scored = direct_encounter(group, met) if len(group) > 1 else None
            for p in group:
                keys[p].append(scored[p] if scored else None)
    return {p: tuple(keys[p]) for p in everyone}


@dataclass(frozen=True)
class Standing:
    """A player's score and tie-breaks."""

    player: int
    points: float
    buchholz: float
    buchholz_cut1: float
    sonneborn_berger: float
    direct_encounter: float | None
    """None where it was passed over (the tied players did not all meet, or nobody was tied)."""


def standings(rounds: list[Round], players: set[int] | list[int], *, allocated_bye: float = 1.0) -> list[Standing]:
    """Every player's standing, best first: points, Buchholz, Buchholz cut-1, Sonneborn–Berger,
    then direct encounter among the players tied on all of these (None where it is passed over);
    players still tied keep their pairing numbers' order (`engine.pairing.standings.swiss_table`
    gives their shared ranks)."""
    keys = figures(rounds, players, allocated_bye=allocated_bye)
    order = sorted(keys, key=lambda p: (tuple(-(v or 0.0) for v in keys[p]), p))
    rows = []
    for player in order:
        points, bh, cut, sb, de = keys[player]
        assert points is not None and bh is not None and cut is not None and sb is not None
        rows.append(Standing(player, points, bh, cut, sb, de))
    return rows
