"""One player's board: `width` by `height` cells, each off (`.`) or on (the kind that covered it,
for display only). Rows are stored bottom first (y = 0 at index 0)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.tetromic.pieces import Cell

OFF = "."


class Board:
    __slots__ = ("cells", "height", "width")

    def __init__(self, width: int, height: int, rows: list[list[str]] | None = None) -> None:
        self.width = width
        self.height = height
        self.cells = rows if rows is not None else [[OFF] * width for _ in range(height)]

    def copy(self) -> Board:
        return Board(self.width, self.height, [list(row) for row in self.cells])

    def inside(self, cell: Cell) -> bool:
        x, y = cell
        return 0 <= x < self.width and 0 <= y < self.height

    def is_off(self, cell: Cell) -> bool:
        return self.cells[cell[1]][cell[0]] == OFF

    def fits(self, cells: Iterable[Cell]) -> bool:
        """Whether every cell is on the board and off."""
        return all(self.inside(c) and self.is_off(c) for c in cells)

    def place(self, cells: Iterable[Cell], kind: str) -> None:
        for x, y in cells:
            self.cells[y][x] = kind

    def full_rows(self) -> list[int]:
        """The rows (y) whose every cell is on, bottom first."""
        return [y for y, row in enumerate(self.cells) if OFF not in row]

    def clear(self, rows: list[int], *, collapse: bool = False) -> None:
        """Turn `rows` off; with `collapse`, the rows above move down to fill them."""
        if collapse:
            kept = [row for y, row in enumerate(self.cells) if y not in rows]
            self.cells = kept + [[OFF] * self.width for _ in rows]
        else:
            for y in rows:
                self.cells[y] = [OFF] * self.width

    def on_count(self) -> int:
        return sum(1 for row in self.cells for cell in row if cell != OFF)

    def rows_top_first(self) -> list[str]:
        """The board as the position format writes it: top row first."""
        return ["".join(row) for row in reversed(self.cells)]

    @classmethod
    def from_rows(cls, rows: list[str]) -> Board:
        """Read rows written top first (see `rows_top_first`)."""
        return cls(len(rows[0]) if rows else 0, len(rows), [list(row) for row in reversed(rows)])
