"""The five tetromino kinds and their 19 fixed orientations, named as in the rules (§2.1).

Cells are (x, y) offsets from the anchor, the lower-left corner of the piece's bounding box; y
grows upwards. Flips are allowed, so L stands for J too and S for Z."""

from __future__ import annotations

Cell = tuple[int, int]

KINDS = "IOLST"
KIND_NAMES = {"I": "Line", "O": "Square", "L": "L", "S": "S", "T": "T"}


def _cells(text: str) -> tuple[Cell, ...]:
    """`"00 10 20 11"` -> ((0, 0), (1, 0), (2, 0), (1, 1))."""
    return tuple((int(pair[0]), int(pair[1])) for pair in text.split())


ORIENTATIONS: dict[str, tuple[Cell, ...]] = {
    "I-h": _cells("00 10 20 30"), "I-v": _cells("00 01 02 03"),
    "O": _cells("00 10 01 11"),
    "T-u": _cells("00 10 20 11"), "T-d": _cells("01 11 21 10"),
    "T-r": _cells("00 01 02 11"), "T-l": _cells("10 11 12 01"),
    "L0": _cells("00 01 02 10"), "L90": _cells("00 10 20 21"),
    "L180": _cells("10 11 12 02"), "L270": _cells("00 01 11 21"),
    "J0": _cells("00 10 11 12"), "J90": _cells("01 11 21 20"),
    "J180": _cells("00 01 02 12"), "J270": _cells("00 01 10 20"),
    "S-h": _cells("00 10 11 21"), "S-v": _cells("01 02 10 11"),
    "Z-h": _cells("01 11 10 20"), "Z-v": _cells("00 01 11 12"),
}
"""Every fixed orientation by name, in the rules' order."""


def kind_of(orientation: str) -> str:
    """The kind a named orientation belongs to (`J90` -> `L`, `Z-v` -> `S`)."""
    first = orientation[0]
    return {"J": "L", "Z": "S"}.get(first, first)


BY_KIND: dict[str, tuple[str, ...]] = {k: tuple(n for n in ORIENTATIONS if kind_of(n) == k) for k in KINDS}
"""The orientation names of each kind."""


def piece_name(orientation: str) -> str:
    """A placed piece as announcements and refusals name it: its kind, as hands and boards name
    it, then the orientation it was placed in, as players type it (`L (J270)`, `T (T-u)`); the
    Square has one orientation, `O`."""
    kind = kind_of(orientation)
    return kind if orientation == kind else f"{kind} ({orientation})"


def normalised(cells: frozenset[Cell]) -> frozenset[Cell]:
    """`cells` moved so that their lowest x and lowest y are 0."""
    low_x = min(x for x, _ in cells)
    low_y = min(y for _, y in cells)
    return frozenset((x - low_x, y - low_y) for x, y in cells)


SHAPES: dict[frozenset[Cell], str] = {frozenset(cells): name for name, cells in ORIENTATIONS.items()}
"""Orientation names by their normalised cells (to read a placement typed as four cells)."""


def placed_cells(orientation: str, anchor: Cell) -> tuple[Cell, ...]:
    """The board cells an orientation covers with its anchor at `anchor`."""
    ax, ay = anchor
    return tuple((ax + dx, ay + dy) for dx, dy in ORIENTATIONS[orientation])
