"""Tromino Go geometry (rules §1.1–§1.3): the four L-tromino orientations, touching, the
Outside and No Man's Land, outside edges, groups, surrounds and cut pieces.

Cells are (x, y) with x to the right and y upward. A piece is a frozenset of 3 cells."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

Cell = tuple[int, int]
Cells = frozenset[Cell]

ORIENTATIONS: dict[str, tuple[Cell, ...]] = {
    "SW": ((0, 0), (1, 0), (0, 1)),
    "SE": ((0, 0), (1, 0), (1, 1)),
    "NW": ((0, 0), (0, 1), (1, 1)),
    "NE": ((1, 0), (0, 1), (1, 1)),
}
"""Each orientation, named after its elbow, by its cells relative to the anchor (the lower-left
cell of its 2×2 box)."""

STEPS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


def cells_of(orientation: str, anchor: Cell) -> Cells:
    ax, ay = anchor
    return frozenset((ax + dx, ay + dy) for dx, dy in ORIENTATIONS[orientation])


def shape_of(cells: Iterable[Cell]) -> tuple[str, Cell] | None:
    """(orientation, anchor) of three cells forming an L-tromino, or None."""
    chosen = frozenset(cells)
    if len(chosen) != 3:
        return None
    anchor = (min(x for x, _ in chosen), min(y for _, y in chosen))
    for name in ORIENTATIONS:
        if cells_of(name, anchor) == chosen:
            return name, anchor
    return None


def neighbours(cell: Cell) -> list[Cell]:
    x, y = cell
    return [(x + dx, y + dy) for dx, dy in STEPS]


def touch(first: Cells, second: Cells) -> int:
    """Unit edges shared by two pieces (diagonal contact counts 0)."""
    return sum(1 for c in first for n in neighbours(c) if n in second)


@dataclass
class Analysis:
    """Everything about one grid that the rules need, computed once after every change."""

    occupied: dict[Cell, int]
    """Cell -> the index of the piece on it."""
    outside: set[Cell]
    """Empty cells of the bounding box (grown by one) that the infinite empty region reaches."""
    low: Cell
    high: Cell
    out: list[int]
    """Outside edges of each piece."""

    def is_outside(self, cell: Cell) -> bool:
        x, y = cell
        inside_box = self.low[0] <= x <= self.high[0] and self.low[1] <= y <= self.high[1]
        return cell not in self.occupied and (not inside_box or cell in self.outside)

    def no_mans_land(self) -> set[Cell]:
        """Empty cells enclosed by trominoes (any player's): every finite empty region."""
        lx, ly = self.low
        hx, hy = self.high
        return {(x, y) for x in range(lx, hx + 1) for y in range(ly, hy + 1)
                if (x, y) not in self.occupied and (x, y) not in self.outside}


def analyse(pieces: list[Cells]) -> Analysis:
    """Occupied cells, the Outside and each piece's outside edges (§1.3)."""
    occupied = {cell: index for index, piece in enumerate(pieces) for cell in piece}
    if not occupied:
        return Analysis({}, {(0, 0)}, (0, 0), (0, 0), [])  # an empty grid is all Outside
    low = (min(x for x, _ in occupied) - 1, min(y for _, y in occupied) - 1)
    high = (max(x for x, _ in occupied) + 1, max(y for _, y in occupied) + 1)
    start = low
    outside = {start}
    queue = deque([start])
    while queue:
        for nxt in neighbours(queue.popleft()):
            if (low[0] <= nxt[0] <= high[0] and low[1] <= nxt[1] <= high[1] and nxt not in occupied
                    and nxt not in outside):
                outside.add(nxt)
                queue.append(nxt)
    analysis = Analysis(occupied, outside, low, high, [])
    analysis.out = [sum(1 for c in piece for n in neighbours(c) if analysis.is_outside(n)) for piece in pieces]
    return analysis


def groups(pieces: list[Cells], owners: list[int], single: bool = False) -> list[list[int]]:
    """Maximal same-owner components under adjacency (or one group per piece if `single`)."""
    if single:
        return [[i] for i in range(len(pieces))]
    occupied = {cell: index for index, piece in enumerate(pieces) for cell in piece}
    seen: set[int] = set()
    found = []
    for start in range(len(pieces)):
        if start in seen:
            continue
        group = [start]
        seen.add(start)
        queue = deque([start])
        while queue:
            index = queue.popleft()
            for cell in pieces[index]:
                for n in neighbours(cell):
                    other = occupied.get(n)
                    if other is not None and other not in seen and owners[other] == owners[index]:
                        seen.add(other)
                        group.append(other)
                        queue.append(other)
        found.append(group)
    return found


def surrounded(pieces: list[Cells], owners: list[int], analysis: Analysis, single: bool = False) -> Mapping[int, int]:
    """Trominoes in each owner's surrounded groups (groups with no outside edge at all)."""
    counts = {0: 0, 1: 0}
    for group in groups(pieces, owners, single):
        if all(analysis.out[i] == 0 for i in group):
            counts[owners[group[0]]] += len(group)
    return counts


def is_cut(pieces: list[Cells], index: int) -> bool:
    """Whether removing piece `index` splits the other pieces into two or more components."""
    rest = [i for i in range(len(pieces)) if i != index]
    if len(rest) <= 1:
        return False
    occupied = {cell: i for i in rest for cell in pieces[i]}
    seen = {rest[0]}
    queue = deque([rest[0]])
    while queue:
        current = queue.popleft()
        for cell in pieces[current]:
            for n in neighbours(cell):
                other = occupied.get(n)
                if other is not None and other not in seen:
                    seen.add(other)
                    queue.append(other)
    return len(seen) < len(rest)
