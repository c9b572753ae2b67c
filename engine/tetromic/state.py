"""What each Tetromic player has: a board, a level, points and a hand of kinds."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.tetromic.board import Board
from engine.tetromic.pieces import Cell


@dataclass
class Seat:
    board: Board
    level: int = 0
    points: int = 0
    hand: list[str] = field(default_factory=list)
    """The kinds held, in the order drawn."""
    drew: bool = False
    done: bool = False
    """Drawn or skipped this phase (the phase waits for every active seat that is not)."""
    resigned: bool = False
    placed: int = 0
    cleared: int = 0
    last: tuple[Cell, ...] = ()
    """The cells of this seat's latest placement (drawn outlined)."""
    just_cleared: tuple[int, ...] = ()
    """The rows its latest placement cleared (drawn hatched)."""
    locked: bool = False
    """No piece of any kind fits the board any more: the seat is out (and counted as resigned)."""

    def copy(self) -> Seat:
        return Seat(self.board.copy(), self.level, self.points, list(self.hand), self.drew, self.done,
                    self.resigned, self.placed, self.cleared, self.last, self.just_cleared, self.locked)
