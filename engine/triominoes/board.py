"""The tiles on the table: which cells hold which corner numbers, which rotations of a tile fit
a cell (rules §2.2: at least one full edge against a tile, every touching corner equal, point
contacts included), the numbered spots a player may name, and the hexagons and bridges a new
tile makes (§2.3)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product

from engine.triominoes.geometry import Cell, Point, corners, neighbour, neighbours, ring
from engine.triominoes.tiles import TILES, Corners, Tile, rotations

ORIGIN: Cell = (0, 0)
"""Where the first tile of a round goes (an up cell)."""

Pattern = tuple[int, int, int]
"""What an open cell asks of its corners 0, 1, 2: a number, or -1 where no tile touches."""


def _readings_by_pattern() -> dict[Pattern, dict[Tile, tuple[Corners, ...]]]:
    """For every pattern, the readings of every tile that satisfy it, by tile."""
    table: dict[Pattern, dict[Tile, tuple[Corners, ...]]] = {}
    for a, b, c in product(range(-1, 6), repeat=3):
        pattern = (a, b, c)
        fitting: dict[Tile, tuple[Corners, ...]] = {}
        for tile in TILES:
            found = tuple(r for r in rotations(tile)
                          if all(want in (-1, got) for want, got in zip(pattern, r, strict=True)))
            if found:
                fitting[tile] = found
        table[pattern] = fitting
    return table


READINGS = _readings_by_pattern()


def tiles_fitting(patterns: Iterable[Pattern]) -> set[Tile]:
    """Every tile that fits at least one open cell asking these patterns."""
    return {tile for pattern in patterns for tile in READINGS[pattern]}


@dataclass(frozen=True)
class Bonus:
    """What a tile just laid completes: the points at the centre of each hexagon it closes, and
    the point of the bridge it forms (`extension`: it adds to one, §2.3 Ext), if any."""

    hexagons: tuple[Point, ...] = ()
    bridge: Point | None = None
    extension: bool = False


class Board:
    """Placed tiles (cell -> corner numbers in the §3 order), in the order laid, and who laid
    each (where known)."""

    def __init__(self) -> None:
        self.cells: dict[Cell, Corners] = {}
        self.order: list[Cell] = []
        self.laid_by: dict[Cell, int] = {}
        """The seat that laid the tile on a cell (public: everyone saw it laid)."""
        self.values: dict[Point, int] = {}
        self.frontier: set[Cell] = set()
        """Empty cells sharing an edge with a placed tile."""
        self._open: list[tuple[Cell, Pattern]] | None = None
        self._spots: list[Cell] | None = None

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.cells = dict(self.cells)
        other.order = list(self.order)
        other.laid_by = dict(self.laid_by)
        other.values = dict(self.values)
        other.frontier = set(self.frontier)
        other._open = self._open
        other._spots = self._spots
        return other

    def __len__(self) -> int:
        return len(self.cells)

    def place(self, cell: Cell, numbers: Corners, seat: int | None = None) -> None:
        """Lay `numbers` on the empty `cell` (`seat`: who laid them, when known)."""
        self.cells[cell] = numbers
        self.order.append(cell)
        if seat is not None:
            self.laid_by[cell] = seat
        for point, number in zip(corners(cell), numbers, strict=True):
            self.values[point] = number
        self.frontier.discard(cell)
        for other in neighbours(cell):
            if other not in self.cells:
                self.frontier.add(other)
        self._open = None
        self._spots = None

    # ---- where tiles go -----------------------------------------------------------------

    def open_cells(self) -> list[Cell]:
        """The cells a tile may go to now, in reading order (the origin on an empty table)."""
        return [cell for cell, _ in self.open_patterns()]

    def open_patterns(self) -> list[tuple[Cell, Pattern]]:
        """Each open cell, in reading order, with what it asks of a tile's corners."""
        if self._open is None:
            values = self.values
            self._open = [(cell, tuple(values.get(p, -1) for p in corners(cell)))  # type: ignore[misc]
                          for cell in (sorted(self.frontier) if self.cells else [ORIGIN])]
        return self._open

    def fits(self, cell: Cell, numbers: Corners) -> bool:
        """Whether this reading may go on `cell`: the cell is free and touches the table along an
        edge (or the table is empty and it is the origin), and every corner it shares with a
        tile carries the same number."""
        if cell in self.cells:
            return False
        if not self.cells:
            return cell == ORIGIN
        if cell not in self.frontier:
            return False
        values = self.values
        return all(values.get(point, number) == number for point, number in zip(corners(cell), numbers, strict=True))

    def turns_that_fit(self, tile: Tile, cell: Cell) -> list[Corners]:
        return [turned for turned in rotations(tile) if self.fits(cell, turned)]

    def placements(self, tile: Tile) -> list[tuple[Cell, Corners]]:
        """Every (cell, reading) where `tile` may go, in reading order of the cells."""
        return [(cell, turned) for cell, pattern in self.open_patterns()
                for turned in READINGS[pattern].get(tile, ())]

    def placements_of(self, tiles: Iterable[Tile]) -> list[tuple[Cell, Corners]]:
        """Every (cell, reading) where any of `tiles` may go: by tile, then by cell."""
        wanted = set(tiles)
        found = [(tile, index, cell, turned) for index, (cell, pattern) in enumerate(self.open_patterns())
                 for tile, readings in READINGS[pattern].items() if tile in wanted for turned in readings]
        found.sort(key=lambda place: place[:2])
        return [(cell, turned) for _, _, cell, turned in found]

    def fits_anywhere(self, tile: Tile) -> bool:
        return any(tile in READINGS[pattern] for _, pattern in self.open_patterns())

    def spots(self, unplayed: Iterable[Tile] | None = None) -> list[Cell]:
        """The open cells some tile not yet on the table could fill, in reading order: the cells
        numbered on the board picture (worked out from the public table alone)."""
        if unplayed is None and self._spots is not None:
            return self._spots
        found = self._find_spots(unplayed)
        if unplayed is None:
            self._spots = found
        return found

    def _find_spots(self, unplayed: Iterable[Tile] | None) -> list[Cell]:
        if not self.cells:
            return [ORIGIN]
        on_table = {min(rotations(numbers)) for numbers in self.cells.values()}
        candidates = [t for t in (unplayed if unplayed is not None else TILES) if t not in on_table]
        return [cell for cell, pattern in self.open_patterns() if any(t in READINGS[pattern] for t in candidates)]

    # ---- bonuses ------------------------------------------------------------------------

    def hexagons_at(self, cell: Cell) -> tuple[Point, ...]:
        """The corners of the (placed) tile on `cell` whose six surrounding cells are all full."""
        return tuple(point for point in corners(cell) if all(c in self.cells for c in ring(point)))

    def bridge_at(self, cell: Cell, *, extensions: bool) -> tuple[Point | None, bool]:
        """The corner of the (placed) tile on `cell` at which it forms a bridge (rule A: the cell
        across the opposite edge is taken, some cell around the corner is taken, both cells
        flanking the corner are empty), or, with `extensions`, adds to one (Ext: the opposite
        cell and exactly one flank taken, and a tile around the corner not joined to this one
        through taken cells). Returns (point, is_extension); (None, False) when there is none."""
        taken = self.cells
        for index, point in enumerate(corners(cell)):
            if neighbour(cell, (index + 1) % 3) not in taken:
                continue
            around = ring(point)
            here = around.index(cell)
            flanks = (around[(here - 1) % 6], around[(here + 1) % 6])
            others = [around[(here + step) % 6] for step in (2, 3, 4)]
            occupied_flanks = [f for f in flanks if f in taken]
            if not occupied_flanks:
                if any(c in taken for c in others):
                    return point, False
            elif extensions and len(occupied_flanks) == 1:
                direction = 1 if occupied_flanks[0] == around[(here + 1) % 6] else -1
                joined = set()
                step = direction
                while around[(here + step) % 6] in taken and abs(step) < 6:
                    joined.add(around[(here + step) % 6])
                    step += direction
                if any(c in taken and c not in joined for c in others):
                    return point, True
        return None, False

    def bonus(self, cell: Cell, *, extensions: bool) -> Bonus:
        """What the tile already placed on `cell` completes."""
        hexagons = self.hexagons_at(cell)
        point, extension = self.bridge_at(cell, extensions=extensions)
        return Bonus(hexagons, point, extension)

    def bonus_if(self, cell: Cell, numbers: Corners, *, extensions: bool) -> Bonus:
        """What laying `numbers` on the empty `cell` would complete, leaving the board as it was
        (bonuses depend only on which cells are taken, so nothing else is placed)."""
        self.cells[cell] = numbers
        try:
            return self.bonus(cell, extensions=extensions)
        finally:
            del self.cells[cell]
