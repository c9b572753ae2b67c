"""Triominoes positions (rules §5): one moment of a game as JSON, read back with every rule the
position could break refused by name."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

from engine.core import N_, GameOptions, GameShape, Outcome, PositionError, Term, check_result
from engine.triominoes.board import ORIGIN, Board
from engine.triominoes.geometry import cell_name, read_cell
from engine.triominoes.options import TriominoesOptions
from engine.triominoes.rounds import OVER, Opening, find_opening
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
    phase: str
    end_reason: str
    round_winners: list[int]

    @property
    def options(self) -> TriominoesOptions: ...

    def active(self) -> list[int]: ...

    def nothing_fits(self) -> bool: ...


def board_entries(game: TriominoesTable) -> list[dict[str, Any]]:
    """The tiles on the table in the order laid: `{"at": "r0c1", "corners": [0, 4, 0], "seat": 1}`
    (`seat`, who laid the tile, where it is known)."""
    entries = []
    for cell in game.board.order:
        entry: dict[str, Any] = {"at": cell_name(cell), "corners": list(game.board.cells[cell])}
        if cell in game.board.laid_by:
            entry["seat"] = game.board.laid_by[cell]
        entries.append(entry)
    return entries


def write(game: TriominoesTable) -> dict[str, Any]:
    seats = []
    for s in game.seats:
        entry: dict[str, Any] = {"name": s.name, "score": s.score, "hand": [name(t) for t in s.hand],
                                 "drawn": s.drawn}
        if s.resigned:
            entry["resigned"] = True
        seats.append(entry)
    outcome = game.outcome()
    return {"game": game.name, "options": game.options.differences(), "seats": seats, "turn": game.turn,
            "pool": [name(t) for t in game.well], "board": board_entries(game), "round": game.round,
            "passes": game.passes, "round_winners": list(game.round_winners),
            "result": outcome.to_json() if outcome is not None else None}


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


def _board(entries: Any, players: int) -> Board:
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
        seat = entry.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players):
            raise PositionError(f"board tile {index + 1}: \"seat\" is who laid it, a seat from 0 to {players - 1}")
        board.place(cell, turned, seat)
    return board


GameT = TypeVar("GameT", bound=TriominoesTable)


def read(cls: type[GameT], data: Mapping[str, Any], *, seed: int, options: GameOptions) -> GameT:
    seats = data.get("seats")
    if not isinstance(seats, list) or not cls.min_players <= len(seats) <= cls.max_players:
        raise PositionError(f"seats must list {cls.min_players} to {cls.max_players} players")
    game = cls(len(seats), seed, options, [str(s.get("name", f"P{i + 1}")) for i, s in enumerate(seats)])
    for seat, entry in zip(game.seats, seats, strict=True):
        seat.score = int(entry.get("score", 0))
        seat.hand = _tiles(entry.get("hand", []), f"{seat.name}'s hand")
        seat.drawn = int(entry.get("drawn", 0))
        seat.resigned = bool(entry.get("resigned", False))
    game.well = _tiles(data.get("pool", []), "pool")
    game.board = _board(data.get("board", []), len(seats))
    everything = [t for s in game.seats for t in s.hand] + game.well + [min(rotations(tile_of(c)))
                                                                        for c in game.board.cells.values()]
    doubled = [name(t) for t, count in Counter(everything).items() if count > 1]
    if doubled:
        raise PositionError(f"a tile is in two places: {', '.join(sorted(doubled))}")
    game.round = int(data.get("round", 1))
    game.passes = int(data.get("passes", 0))
    game.turn = int(data.get("turn", 0))
    winners = data.get("round_winners", [])
    if not isinstance(winners, list) or not all(isinstance(w, int) and 0 <= w < game.players for w in winners):
        raise PositionError("round_winners lists the seats that won the last round")
    game.round_winners = list(winners)
    result = Outcome.from_position(data.get("result"), game.players)
    if not 0 <= game.turn < game.players:
        raise PositionError(f"turn is a seat, from 0 to {game.players - 1}")
    if result is not None:
        game.phase, game.end_reason = OVER, result.reason
        _check_over(game)
    else:
        _check_playing(game)
    check_result(game, result)
    return game


def _check_playing(game: TriominoesTable) -> None:
    """Refuse a round in progress that the rules would have ended or could not have reached."""
    if game.seats[game.turn].resigned:
        raise PositionError("turn must be a seat still playing")
    if len(game.active()) < 2:
        raise PositionError("with fewer than two players left the game is over: give its result")
    for index in game.active():
        if not game.seats[index].hand:
            raise PositionError(f"{game.names[index]} holds no tile, so they went out and the round is over")
    if game.passes >= len(game.active()):
        raise PositionError(f"{game.passes} passes in a row with the well empty block the round, so it is over")
    if game.passes and game.well:
        raise PositionError("passes count only with the well empty (for a blocked round)")
    if game.board.cells and game.options.blocked_when == "exact" and game.nothing_fits():
        raise PositionError("no tile in any hand or the well fits, so the round is blocked and over")
    if game.board.cells:
        return
    hands = {i: game.seats[i].hand for i in game.active()}
    rule = game.options.opening
    if rule == "pressman" or (rule == "winner" and game.round == 1):
        found = find_opening(hands, [game.turn, *[i for i in game.active() if i != game.turn]])
        if found.seat != game.turn:
            raise PositionError(f"{game.names[found.seat]} opens the round ({found.reason}), so the turn is "
                                f"{found.seat}")
    else:
        found = Opening(game.turn, tuple(sorted(set(game.seats[game.turn].hand))), Term(N_("opens the round")))
    game.pending = found


def _check_over(game: TriominoesTable) -> None:
    """Refuse a finished game the rules would not have ended."""
    options = game.options
    reached = any(game.seats[i].score >= options.target for i in game.active())
    last = options.rounds and game.round >= options.rounds
    if not last and not (reached and not options.rounds) and len(game.active()) >= 2:
        if options.rounds:
            raise PositionError(f"the game lasts {options.rounds} rounds and this is round {game.round}, so it "
                                f"is not over")
        raise PositionError(f"nobody still playing has {options.target} points, so the game is not over")
