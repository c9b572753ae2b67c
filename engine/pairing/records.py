"""A round's boards and what their results are worth."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Result(Enum):
    """How a board ended, from the first seat's side (TRF's result codes where they exist)."""

    FIRST_WON = "1-0"
    SECOND_WON = "0-1"
    DRAWN = "½-½"
    FIRST_WON_BY_FORFEIT = "+/-"
    """The second player did not play (the game counts for the first, as unplayed)."""
    SECOND_WON_BY_FORFEIT = "-/+"
    BOTH_FORFEITED = "-/-"

    @property
    def played(self) -> bool:
        """Whether the game was played over the board (forfeits were not)."""
        return self in (Result.FIRST_WON, Result.SECOND_WON, Result.DRAWN)

    def points(self) -> tuple[float, float]:
        """The points the first and the second player score."""
        return _POINTS[self]


_POINTS = {
    Result.FIRST_WON: (1.0, 0.0),
    Result.SECOND_WON: (0.0, 1.0),
    Result.DRAWN: (0.5, 0.5),
    Result.FIRST_WON_BY_FORFEIT: (1.0, 0.0),
    Result.SECOND_WON_BY_FORFEIT: (0.0, 1.0),
    Result.BOTH_FORFEITED: (0.0, 0.0),
}


class Bye(Enum):
    """A round a player sat out, and why (TRF: U, H, F, Z)."""

    ALLOCATED = "U"
    """The pairing left them over (an odd number of players): a full point."""
    HALF_POINT = "H"
    """They asked for a half-point bye."""
    FULL_POINT = "F"
    """A full-point bye the rules gave them otherwise."""
    ZERO_POINT = "Z"
    """Absent, or entered late: nothing."""

    def points(self, allocated: float = 1.0) -> float:
        """What the bye is worth (`allocated`: what a pairing-allocated bye scores)."""
        return {Bye.ALLOCATED: allocated, Bye.HALF_POINT: 0.5, Bye.FULL_POINT: 1.0, Bye.ZERO_POINT: 0.0}[self]


@dataclass(frozen=True)
class Board:
    """Two players paired in a round; `result` is None while the game is on."""

    first: int
    second: int
    result: Result | None = None


@dataclass(frozen=True)
class SatOut:
    """A player without a game in a round."""

    player: int
    bye: Bye = Bye.ALLOCATED


@dataclass(frozen=True)
class Round:
    """One round: its boards in board order, and who sat out."""

    boards: tuple[Board, ...]
    sat_out: tuple[SatOut, ...] = ()

    def players(self) -> set[int]:
        """Everyone in the round, playing or not."""
        return {p for b in self.boards for p in (b.first, b.second)} | {s.player for s in self.sat_out}


def scores(rounds: list[Round], *, allocated_bye: float = 1.0) -> dict[int, float]:
    """Each player's points over finished boards and byes (a board still on counts nothing)."""
    total: dict[int, float] = {}
    for round_ in rounds:
        for board in round_.boards:
            first, second = board.result.points() if board.result else (0.0, 0.0)
            total[board.first] = total.get(board.first, 0.0) + first
            total[board.second] = total.get(board.second, 0.0) + second
        for sat in round_.sat_out:
            total[sat.player] = total.get(sat.player, 0.0) + sat.bye.points(allocated_bye)
    return total
