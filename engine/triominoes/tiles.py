"""The 56 Tri-Ominos tiles (every multiset of three numbers from 0 to 5, each printed in one
clockwise order) and how they are written: `1-2-2`, always the reading that starts from the
smallest number (rules §5), which is the tile's name."""

from __future__ import annotations

import re
from itertools import combinations_with_replacement

Tile = tuple[int, int, int]
"""A tile by its name: the clockwise reading starting from its smallest number (`(0, 1, 2)`)."""
Corners = tuple[int, int, int]
"""The numbers on a placed tile's corners 0, 1, 2, clockwise (one of its tile's rotations)."""

HIGHEST = 5
TILES: tuple[Tile, ...] = tuple(combinations_with_replacement(range(HIGHEST + 1), 3))
"""All 56 tiles. Of the two clockwise orders of three different numbers, the set holds the
ascending one (0-1-2 exists; its mirror 0-2-1 does not)."""

_TILE_TEXT = re.compile(r"^([0-9])[-:/.,]?([0-9])[-:/.,]?([0-9])$")


def rotations(tile: Tile) -> list[Corners]:
    """The distinct readings of `tile` turned on the table (three, or one for a triple)."""
    a, b, c = tile
    found: list[Corners] = []
    for turned in ((a, b, c), (b, c, a), (c, a, b)):
        if turned not in found:
            found.append(turned)
    return found


def tile_of(corners: Corners) -> Tile:
    """The tile a placed reading belongs to: its rotation starting from the smallest number.
    (A mirror reading such as 0-2-1 gives a tuple that is not in `TILES`.)"""
    best = min(rotations(tuple(corners)))  # type: ignore[arg-type]
    return best


def name(tile: Tile | Corners) -> str:
    return "-".join(map(str, tile))


def value(tile: Tile | Corners) -> int:
    return sum(tile)


def is_triple(tile: Tile) -> bool:
    return tile[0] == tile[1] == tile[2]


def read_numbers(text: str) -> tuple[int, int, int] | None:
    """`1-2-2`, `122`, `1:2:2` -> (1, 2, 2) as typed; None if `text` is not three digits."""
    match = _TILE_TEXT.match(text.strip())
    return (int(match[1]), int(match[2]), int(match[3])) if match else None


def tile_with_numbers(numbers: tuple[int, int, int]) -> Tile | None:
    """The one tile carrying these three numbers, in any order (None if a number is above 5)."""
    if max(numbers) > HIGHEST:
        return None
    low, mid, high = sorted(numbers)
    return (low, mid, high)


def read_tile(text: str) -> Tile:
    """A tile from its name (`1-2-2`, the forgiving `221`); ValueError with the reason otherwise."""
    numbers = read_numbers(text)
    if numbers is None:
        raise ValueError(f"'{text}' is not a tile: write its three numbers, like 1-2-2")
    tile = tile_with_numbers(numbers)
    if tile is None:
        raise ValueError(f"'{text}' is not a tile: the numbers go from 0 to {HIGHEST}")
    return tile
