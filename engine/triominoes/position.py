"""Triominoes positions (rules §5): one moment of a game as JSON, read back with every rule the
position could break refused by name."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

from engine.core import N_, GameOptions, GameShape, PositionError, Term
from engine.triominoes.board import ORIGIN, Board
from engine.triominoes.geometry import cell_name, read_cell
from engine.triominoes.rounds import Opening, find_opening
from engine.triominoes.state import Seat
from engine.triominoes.tiles import TILES, Corners, Tile, name, read_tile, rotations, tile_of


class TriominoesTable(GameShape, Protocol):
    """The state of a Triominoes game that a position records."""

    seats: list[Seat]
    board: Board
    well: list[Tile]
    turn: int
    round: int
    passes: int
    pending: Opening | None

    def active(self) -> list[int]: ...


def board_entries(game: TriominoesTable) -> list[dict[str, Any]]:
    """The tiles on the table in the order laid: `{"at": "r0c1", "corners": [0, 4, 0]}`."""
    return [{"at": cell_name(cell), "corners": list(game.board.cells[cell])} for cell in game.board.order]


def write(game: TriominoesTable) -> dict[str, Any]:
    seats = []
    for s in game.seats:
        entry: dict[str, Any] = {"name": s.name, "score": s.score, "hand": [name(t) for t in s.hand],
                                 "drawn": s.drawn}
        if s.resigned:
            entry["resigned"] = True
        seats.append(entry)
    return {"game": game.name, "seats": seats, "turn": game.turn, "pool": [name(t) for t in game.well],
            "board": board_entries(game), "round": game.round, "passes": game.passes}


def _tiles(values: Any, where: str) -> list[Tile]:
    if not isinstance(values, list):
        raise PositionError(f"{where} must be a list of tiles like \"1-2-2\"")
    tiles = []
    for text in values:
        try:
            tile = read_tile(str(text))
        except ValueError as error:
            raise PositionError(f"{where}: {error}") from None
        if name(tile) != str(text):
            raise PositionError(f"{where}: write {text} as it is named, {name(tile)}")
        tiles.append(tile)
    return tiles


def _board(entries: Any) -> Board:
    if not isinstance(entries, list):
        raise PositionError("board must be a list of {\"at\": \"r0c0\", \"corners\": [a, b, c]}")
    board = Board()
    for index, entry in enumerate(entries):
        cell = read_cell(str(entry.get("at", ""))) if isinstance(entry, dict) else None
        numbers = entry.get("corners") if isinstance(entry, dict) else None
        if cell is None or not isinstance(numbers, list) or len(numbers) != 3:
            raise PositionError(f"board tile {index + 1} must look like {{\"at\": \"r0c0\", \"corners\": [0, 0, 0]}}")
        turned: Corners = (int(numbers[0]), int(numbers[1]), int(numbers[2]))
        if tile_of(turned) not in TILES:
            raise PositionError(f"board tile {index + 1}: {name(turned)} is no tile turned (is it flipped?)")
        if index == 0 and cell != ORIGIN:
            raise PositionError(f"the first tile goes at r0c0, not {cell_name(cell)}")
        if not board.fits(cell, turned):
            raise PositionError(f"board tile {index + 1}, {name(turned)} at {cell_name(cell)}, does not fit there")
        board.place(cell, turned)
    return board


GameT = TypeVar("GameT", bound=TriominoesTable)


def read(cls: type[GameT], data: Mapping[str, Any], *, seed: int, options: GameOptions) -> GameT:
    seats = data.get("seats")
    if not isinstance(seats, list) or not cls.min_players <= len(seats) <= cls.max_players:
        raise PositionError(f"seats must list {cls.min_players} to {cls.max_players} players")
    game = cls(len(seats), seed, options,
               [str(s.get("name", f"P{i + 1}")) for i, s in enumerate(seats)])
    for seat, entry in zip(game.seats, seats, strict=True):
        seat.score = int(entry.get("score", 0))
        seat.hand = _tiles(entry.get("hand", []), f"{seat.name}'s hand")
        seat.drawn = int(entry.get("drawn", 0))
        seat.resigned = bool(entry.get("resigned", False))
    game.well = _tiles(data.get("pool", []), "pool")
    game.board = _board(data.get("board", []))
    everything = [t for s in game.seats for t in s.hand] + game.well + [min(rotations(tile_of(c)))
                                                                        for c in game.board.cells.values()]
    doubled = [name(t) for t, count in Counter(everything).items() if count > 1]
    if doubled:
        raise PositionError(f"a tile is in two places: {', '.join(sorted(doubled))}")
    game.round = int(data.get("round", 1))
    game.passes = int(data.get("passes", 0))
    game.turn = int(data.get("turn", 0))
    if not 0 <= game.turn < game.players or game.seats[game.turn].resigned:
        raise PositionError(f"turn must be a seat still playing, from 0 to {game.players - 1}")
    if not game.board.cells:
        hands = {i: game.seats[i].hand for i in game.active()}
        found = find_opening(hands, [game.turn, *[i for i in game.active() if i != game.turn]])
        if found.seat != game.turn:
            found = Opening(game.turn, tuple(sorted(set(game.seats[game.turn].hand))), Term(N_("opens the round")))
        if not found.tiles:
            raise PositionError("the player to open the round holds no tile")
        game.pending = found
    return game
