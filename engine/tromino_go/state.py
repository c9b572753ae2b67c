"""A Tromino Go piece on the grid (rules §1.1: id, owner, letter, cells)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.tromino_go.geometry import Cell, Cells


@dataclass
class Piece:
    id: int
    """The play number in the round."""
    owner: int
    """0 or 1: the seat (a position writes the role instead: 0 for the round's first player)."""
    letter: str
    """A, B or C for the round's first player, a, b or c for the other."""
    cells: Cells
    order: tuple[Cell, ...] = ()
    """The cells in the order a position listed them (positions round-trip exactly)."""

    def copy(self) -> Piece:
        return Piece(self.id, self.owner, self.letter, self.cells, self.order)

    def listed(self) -> list[list[int]]:
        cells = self.order if frozenset(self.order) == self.cells else sorted(self.cells)
        return [list(c) for c in cells]
