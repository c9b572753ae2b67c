"""Why a tile may not go on a cell, said in the board's terms ("r1c0 needs 2 at its top-left
and 1 at its top-right; 1-2-2 cannot be turned to fit")."""

from __future__ import annotations

from typing import Protocol

from engine.core import N_, Term, any_of, phrase
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

UP_CORNERS = (N_("apex"), N_("bottom-right"), N_("bottom-left"))
DOWN_CORNERS = (N_("top-left"), N_("top-right"), N_("bottom"))


def corner_names(cell: Cell) -> tuple[str, str, str]:
    return UP_CORNERS if points_up(cell) else DOWN_CORNERS


def why_not(game: RefusalView, seat: int, tile: Tile, cell: Cell) -> Term:
    """The reason `tile`, which `seat` holds, may not go on `cell` now."""
    board = game.board
    where = cell_name(cell)
    if game.pending is not None:
        tiles = any_of([name(t) for t in game.pending.tiles])
        if tile not in game.pending.tiles:
            return phrase(N_("the round opens with {tiles}, not {tile}"), tiles=tiles, tile=name(tile))
        return phrase(N_("the first tile of a round goes at r0c0, not {cell}: type `{tile} r0c0`"), cell=where,
                      tile=name(tile))
    if cell in board.cells:
        return phrase(N_("{cell} already holds {tile}"), cell=where, tile=name(board.cells[cell]))
    if cell not in board.frontier:
        return phrase(N_("{cell} does not share an edge with any tile: pick a cell next to one, or a numbered spot "
                         "on the picture"), cell=where)
    me = game.seats[seat]
    if me.drawn and game.options.must_play_drawn and me.hand[-1] != tile and board.fits_anywhere(me.hand[-1]):
        return phrase(N_("the tile you drew, {tile}, fits, so you must play it"), tile=name(me.hand[-1]))
    needs = [phrase(N_("{number} at its {corner}"), number=number, corner=Term(label))
             for point, label in zip(corners(cell), corner_names(cell), strict=True)
             if (number := board.values.get(point)) is not None]
    return phrase(N_("{cell} needs {numbers}; {tile} cannot be turned to fit"), cell=where,
                  numbers=_all_of(needs), tile=name(tile))


def _all_of(clauses: list[Term]) -> Term:
    """Clauses joined by "and", each said in the table's language."""
    if len(clauses) == 1:
        return clauses[0]
    if len(clauses) == 2:
        return phrase(N_("{names} and {last}"), names=clauses[0], last=clauses[1])
    return phrase(N_("{a}, {b} and {c}"), a=clauses[0], b=clauses[1], c=clauses[2])
