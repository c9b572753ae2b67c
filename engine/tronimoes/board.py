"""The Tronimoes grid: sizes by player count, squares, neighbours, tiles and their names.

Squares are integers `y * width + x` inside the engine (x = column from 0 at the left, y = row
from 0 at the top). Players see them as on the board image: column letter, then row number,
so `a1` is (0, 0) and `c4` is (2, 3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from engine.core import N_, IllegalMove, NotationError, quoted, refuse

Tile = tuple[int, int]
"""An unordered tile, always stored low pip first: (3, 5) is 3:5 and 5:3."""

SIZES: dict[int, tuple[int, int, int]] = {
    1: (6, 7, 6),
    2: (8, 9, 7),
    3: (10, 11, 8),
    4: (12, 13, 10),
    5: (14, 15, 11),
    6: (16, 17, 12),
}
"""Players -> (width, height, max pips), from the reference server."""

HAND_SIZE = 10


def tile(a: int, b: int) -> Tile:
    return (a, b) if a <= b else (b, a)


def tile_name(t: Tile) -> str:
    return f"{t[0]}:{t[1]}"


def full_set(max_pips: int) -> list[Tile]:
    """Every pair a <= b with 0 <= a, b <= max_pips, once, in a fixed order."""
    return [(a, b) for a in range(max_pips + 1) for b in range(a, max_pips + 1)]


_TILE = re.compile(r"^\[?([0-9]{1,2})\s*[:\-/|]\s*([0-9]{1,2})\]?$")


def parse_tile(text: str) -> Tile | None:
    """`3:5`, `5-3`, `3/5`, `[3|5]` -> (3, 5); None if the text is not a tile."""
    match = _TILE.match(text.strip())
    if not match:
        return None
    return tile(int(match.group(1)), int(match.group(2)))


@dataclass(frozen=True)
class Grid:
    """A width x height board and everything derived from its shape."""

    width: int
    height: int

    @property
    def size(self) -> int:
        return self.width * self.height

    def square(self, x: int, y: int) -> int:
        return y * self.width + x

    def xy(self, square: int) -> tuple[int, int]:
        return square % self.width, square // self.width

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each square, its orthogonal neighbours on the board (up, down, left, right)."""
        result = []
        for square in range(self.size):
            x, y = self.xy(square)
            around = [(x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y)]
            result.append(tuple(self.square(nx, ny) for nx, ny in around if self.on_board(nx, ny)))
        return tuple(result)

    @cached_property
    def neighbour_sets(self) -> tuple[frozenset[int], ...]:
        return tuple(frozenset(n) for n in self.neighbours)

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbour_sets[a]

    # ---- names -------------------------------------------------------------------------

    def name(self, square: int) -> str:
        x, y = self.xy(square)
        return f"{column_letter(x)}{y + 1}"

    def parse_square(self, text: str) -> int:
        """`c4` -> its square; NotationError naming the board's columns and rows otherwise."""
        match = re.fullmatch(r"([a-z])([0-9]{1,2})", text.strip().lower())
        if not match:
            raise refuse(NotationError, N_("'{text}' is not a square: write a column letter and a row number, "
                                           "like c4"), text=quoted(text))
        x = ord(match.group(1)) - ord("a")
        y = int(match.group(2)) - 1
        if not self.on_board(x, y):
            raise refuse(IllegalMove, N_("{square} is off the board: columns run a–{column} and rows 1–{row}"),
                         square=text.lower(), column=column_letter(self.width - 1), row=self.height)
        return self.square(x, y)

    @property
    def leader_squares(self) -> tuple[int, int]:
        """Where the round leader lies: (W/2 - 1, H/2) and the square to its right."""
        first = self.square(self.width // 2 - 1, self.height // 2)
        return first, first + 1

    @cached_property
    def leader_surround(self) -> frozenset[int]:
        """The squares orthogonally next to the round leader (six on any legal board)."""
        a, b = self.leader_squares
        return frozenset(self.neighbours[a] + self.neighbours[b]) - {a, b}

    def line_between(self, a: int, b: int) -> list[int] | None:
        """The squares of a straight run from a to b inclusive, or None if not straight."""
        ax, ay = self.xy(a)
        bx, by = self.xy(b)
        if ax == bx:
            step = 1 if by > ay else -1
            return [self.square(ax, y) for y in range(ay, by + step, step)]
        if ay == by:
            step = 1 if bx > ax else -1
            return [self.square(x, ay) for x in range(ax, bx + step, step)]
        return None


def column_letter(x: int) -> str:
    return chr(ord("a") + x)


def grid_for(players: int) -> tuple[Grid, int]:
    """The board and the highest pip value for a player count."""
    width, height, max_pips = SIZES[players]
    return Grid(width, height), max_pips
