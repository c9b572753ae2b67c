"""The triangular grid of rules §3: cells `(r, c)` (r grows down the picture; a cell points up
when r + c is even), lattice points `(X, Y)` with X + Y even, corners numbered clockwise, the
neighbour across each edge, and the six cells around a point."""

from __future__ import annotations

import re

Cell = tuple[int, int]
"""(row, column)."""
Point = tuple[int, int]
"""A lattice point (X, Y): X counts half-edges along a row line, Y is the row line."""

_CELL_TEXT = re.compile(r"^r(-?[0-9]{1,3})\s*c(-?[0-9]{1,3})$")


def points_up(cell: Cell) -> bool:
    r, c = cell
    return (r + c) % 2 == 0


def corners(cell: Cell) -> tuple[Point, Point, Point]:
    """The cell's corners 0, 1, 2, clockwise on the picture: an up cell's apex, bottom-right and
    bottom-left; a down cell's top-left, top-right and bottom."""
    r, c = cell
    if points_up(cell):
        return (c, r), (c + 1, r + 1), (c - 1, r + 1)
    return (c - 1, r), (c + 1, r), (c, r + 1)


def neighbour(cell: Cell, edge: int) -> Cell:
    """The cell across edge `edge`, which joins corners `edge` and `edge + 1`."""
    r, c = cell
    if points_up(cell):
        return ((r, c + 1), (r + 1, c), (r, c - 1))[edge]
    return ((r - 1, c), (r, c + 1), (r, c - 1))[edge]


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    return neighbour(cell, 0), neighbour(cell, 1), neighbour(cell, 2)


def ring(point: Point) -> tuple[Cell, ...]:
    """The six cells around `point`, in cyclic order, each sharing an edge with the next."""
    x, y = point
    return ((y, x + 1), (y, x), (y, x - 1), (y - 1, x - 1), (y - 1, x), (y - 1, x + 1))


def cell_name(cell: Cell) -> str:
    return f"r{cell[0]}c{cell[1]}"


def read_cell(text: str) -> Cell | None:
    """`r1c0`, `R-1 C2` -> the cell; None if `text` is not written that way."""
    match = _CELL_TEXT.match(text.strip().lower())
    return (int(match[1]), int(match[2])) if match else None
