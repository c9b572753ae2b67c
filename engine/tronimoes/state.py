"""Tronimoes game state: tiles on the board, lines, seats, the moves a seat can make, and the
`Table` protocol through which the rule modules read and change a game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.core import GameShape
from engine.tronimoes.board import Grid, Tile, tile

LineKey = int | str
"""A player line is keyed by its owner's seat; free lines by "free1", "free2", ... in the order
they were started. The round leader itself belongs to no line and is keyed "leader"."""

LEADER = "leader"

PLAYING, BETWEEN_ROUNDS, OVER = "playing", "between rounds", "over"
"""A game's phases: a round is played, the players are saying `ready` for the next, or it is over."""


def free_line_key(number: int) -> str:
    return f"free{number}"


@dataclass
class Placed:
    """A tile on the board. `pips[i]` lies on `squares[i]`; for a tile on a line, squares[0] is
    the half that matched the previous head and squares[1] the new open end."""

    pips: tuple[int, int]
    squares: tuple[int, int]
    line: LineKey
    by: int | None
    dead: bool = False

    @property
    def tile(self) -> Tile:
        return tile(*self.pips)

    @property
    def is_double(self) -> bool:
        return self.pips[0] == self.pips[1]

    @property
    def open_squares(self) -> tuple[int, ...]:
        """The squares a next tile may be matched against: both halves of a double."""
        return self.squares if self.is_double else (self.squares[1],)

    @property
    def next_pips(self) -> int:
        return self.pips[1]


@dataclass
class Line:
    """A player line (starting from the round leader, which is not stored in `tiles`) or a free
    line (whose first tile is its leader double). `tiles` index the board list."""

    key: LineKey
    tiles: list[int] = field(default_factory=list)
    dead: bool = False

    @property
    def is_free(self) -> bool:
        return isinstance(self.key, str)


@dataclass
class Seat:
    """One player's state. `foot` is the reserved square of a player who started chicken-footed
    (their line is still only the leader); None otherwise."""

    name: str
    score: int = 0
    hand: list[Tile] = field(default_factory=list)
    dead: bool = False
    footed: bool = False
    foot: int | None = None
    drew: bool = False
    ready: bool = True
    resigned: bool = False
    kills: int = 0
    round_start_score: int = 0

    @property
    def restricted(self) -> bool:
        """Chicken-footed and alive: may only play on their own line."""
        return self.footed and not self.dead


# ---- moves ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lay:
    """Lay `tile` with `pips[i]` on `squares[i]`, onto line `line`. A free-line leader (a double
    laid off the spacer) has `line` None and `starts_free_line` True."""

    tile: Tile
    squares: tuple[int, int]
    pips: tuple[int, int]
    line: LineKey | None
    starts_free_line: bool = False

    @property
    def placement(self) -> frozenset[tuple[int, int]]:
        """What lands on the board, whatever line it joins: (square, pips) pairs."""
        return frozenset(zip(self.squares, self.pips, strict=True))


@dataclass(frozen=True)
class Draw:
    pass


@dataclass(frozen=True)
class Pass:
    """Pass the turn; `foot` is the square chosen by a player who starts chicken-footed."""

    foot: int | None = None


@dataclass(frozen=True)
class PlaceSpacer:
    """Put the free-line spacer down from `start` (next to a line's open end) to `end`."""

    start: int
    end: int


@dataclass(frozen=True)
class Ready:
    pass


Move = Lay | Draw | Pass | PlaceSpacer | Ready


# ---- the table ----------------------------------------------------------------------------


class Table(GameShape, Protocol):
    """A Tronimoes game's state as its rule modules (lines, placement, rounds, refusals, positions)
    see it. The game class implements it; those modules never import the game."""

    grid: Grid
    max_pips: int
    seats: list[Seat]
    board: list[Placed]
    """Every tile on the board in the order laid; board[0] is the round leader."""
    occupied: bytearray
    """1 for each covered square."""
    lines: dict[LineKey, Line]
    free_lines: int
    bag: list[Tile]
    leaders: list[int]
    """The leader of each round so far."""
    highest_leader: int
    turn: int
    turns: int
    spacer: tuple[int, int] | None
    passes: int
    phase: str
    round: int
    last: dict[str, Any] | None
    round_result: dict[str, Any] | None
    end_reason: str
    line_tokens: list[str]
    cache: dict[Any, Any]
    """Facts derived from the state (legal lays, reserved feet, ...), emptied on every change."""
