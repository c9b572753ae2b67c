"""Why a tile may not go on a cell, said in the board's terms ("r1c0 needs 2 at its top-left
and 1 at its top-right; 1-2-2 cannot be turned to fit")."""

from __future__ import annotations

from typing import Protocol

from engine.triominoes.board import Board
from engine.triominoes.geometry import Cell, cell_name, corners, points_up
from engine.triominoes.options import TriominoesOptions
from engine.triominoes.rounds import Opening
from engine.triominoes.state import Seat
from engine.triominoes.tiles import Tile, name


class RefusalView(Protocol):
    """What a refusal reads of a Triominoes game."""

    board: Board
    pending: Opening | None
    seats: list[Seat]

    @property
    def options(self) -> TriominoesOptions: ...

UP_CORNERS = ("apex", "bottom-right", "bottom-left")
DOWN_CORNERS = ("top-left", "top-right", "bottom")


def corner_names(cell: Cell) -> tuple[str, str, str]:
    return UP_CORNERS if points_up(cell) else DOWN_CORNERS


def why_not(game: RefusalView, seat: int, tile: Tile, cell: Cell) -> str:
    """The reason `tile`, which `seat` holds, may not go on `cell` now."""
    board = game.board
    where = cell_name(cell)
    if game.pending is not None:
        tiles = " or ".join(name(t) for t in game.pending.tiles)
        if tile not in game.pending.tiles:
            return f"the round opens with {tiles}, not {name(tile)}"
        return f"the first tile of a round goes at r0c0, not {where}: type `{name(tile)} r0c0`"
    if cell in board.cells:
        return f"{where} already holds {name(board.cells[cell])}"
    if cell not in board.frontier:
        return (f"{where} does not share an edge with any tile: pick a cell next to one, or a numbered spot "
                f"on the picture")
    me = game.seats[seat]
    if me.drawn and game.options.must_play_drawn and me.hand[-1] != tile and board.fits_anywhere(me.hand[-1]):
        return f"the tile you drew, {name(me.hand[-1])}, fits, so you must play it"
    needs = [f"{number} at its {label}" for point, label in zip(corners(cell), corner_names(cell), strict=True)
             if (number := board.values.get(point)) is not None]
    return f"{where} needs {' and '.join(needs)}; {name(tile)} cannot be turned to fit"
