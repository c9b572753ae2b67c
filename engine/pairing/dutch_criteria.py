"""The Dutch system's pairing criteria (C.04.3, 2025, Article 2) as numbers: which pairs are
allowed at all (absolute criteria C1–C3) and what each pair or floater costs on the quality
criteria (C5–C21), so that a bracket's candidate pairings compare lexicographically.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.pairing.dutch_history import Float, History


@dataclass(frozen=True)
class Standing:
    """The round being paired: which players are topscorers (Article 1.8: in the last round, those
    with more than half the maximum possible score)."""

    last_round: bool
    topscore: float
    """The score a topscorer exceeds."""

    def topscorer(self, player: History) -> bool:
        return self.last_round and player.score > self.topscore


def compatible(a: History, b: History, standing: Standing) -> bool:
    """Whether `a` and `b` may meet: not met before (C1), and not two non-topscorers with the same
    absolute colour preference (C3)."""
    if b.number in a.met:
        return False
    if a.absolute and b.absolute and a.preference == b.preference:
        return standing.topscorer(a) or standing.topscorer(b)
    return True


def colour_costs(a: History, b: History) -> tuple[int, int, int, int]:
    """What pairing `a` with `b` costs on the colour criteria: C10 (a topscorer's colour difference
    beyond ±2), C11 (a topscorer's same colour three times running), C12 (a colour preference not
    met), C13 (a strong colour preference not met)."""
    pa, pb = a.preference, b.preference
    if pa is None or pb is None or pa != pb:
        return (0, 0, 0, 0)
    da, db = abs(a.colour_difference), abs(b.colour_difference)
    c10 = int(da > 1 and db > 1)
    c11 = 0
    if a.absolute and b.absolute:
        ra = a.colours[-1] if a.repeated > 1 else None
        rb = b.colours[-1] if b.repeated > 1 else None
        if da == db:
            c11 = int(ra is not None and ra == rb)
        else:
            loser = b if da > db else a
            lost = loser.colours[-1] if loser.repeated > 1 else None
            c11 = int(lost is not None and lost != pa)
    strong_a = a.strong or a.absolute
    strong_b = b.strong or b.absolute
    c13 = int(strong_a and strong_b and not (a.absolute and b.absolute))
    return (c10, c11, 1, c13)


def floats_of(player: History) -> tuple[Float, Float]:
    """The player's floats in the previous round and the one before it."""
    return player.float_back(1), player.float_back(2)
