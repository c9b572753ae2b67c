"""Reading and writing Tronimoes positions (rules §12): one moment of a round as JSON.

`write_position(read_position(p)) == p` for every valid position p: the same keys in the same
order, lists in the same order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from engine.core import GameOptions, Outcome, PositionError, check_result
from engine.tronimoes.board import SIZES, Grid, Tile, parse_tile, tile_name
from engine.tronimoes.state import (
    BETWEEN_ROUNDS,
    LEADER,
    OVER,
    PLAYING,
    Line,
    LineKey,
    Placed,
    Seat,
    Table,
    free_line_key,
)

T = TypeVar("T", bound=Table)


def write_position(game: Table) -> dict[str, Any]:
    name = game.grid.name
    outcome = game.outcome()
    return {
        "game": "tronimoes",
        "options": game.options.differences(),
        "width": game.grid.width,
        "height": game.grid.height,
        "max_pips": game.max_pips,
        "seats": [_seat_entry(s, name) for s in game.seats],
        "turn": game.turn,
        "bag": [tile_name(t) for t in game.bag],
        "leaders": list(game.leaders),
        "highest_leader": game.highest_leader,
        "board": [placed_entry(p, name) for p in game.board],
        "spacer": [name(s) for s in game.spacer] if game.spacer else None,
        "passes": game.passes,
        "round_end": _round_end(game),
        "result": outcome.to_json() if outcome is not None else None,
    }


def _seat_entry(seat: Seat, name: Callable[[int], str]) -> dict[str, Any]:
    entry = {"name": seat.name, "score": seat.score, "round_score": seat.score - seat.round_start_score,
             "hand": [tile_name(t) for t in seat.hand], "dead": seat.dead, "footed": seat.footed,
             "foot": name(seat.foot) if seat.foot is not None else None, "drew": seat.drew}
    if seat.resigned:
        entry["resigned"] = True
    return entry


def _round_end(game: Table) -> dict[str, Any] | None:
    """How the last round ended, once it has (between rounds, and at the game's end): its
    winner, how, and who has said `ready` for the next."""
    ended = game.round_result
    if ended is None:
        return None
    return {"winner": ended["winner"], "how": ended["how"], "ready": [s.ready for s in game.seats]}


def placed_entry(placed: Placed, name: Callable[[int], str]) -> dict[str, Any]:
    """A tile on the board as a position writes it: tile, squares (`name` spells a square),
    line, who laid it and whether it is dead (both only when there is something to say)."""
    entry: dict[str, Any] = {"tile": f"{placed.pips[0]}:{placed.pips[1]}",
                             "at": [name(s) for s in placed.squares], "line": placed.line}
    if placed.by is not None:
        entry["by"] = placed.by
    if placed.dead:
        entry["dead"] = True
    return entry


def read_position(cls: type[T], data: Mapping[str, Any], *, seed: int, options: GameOptions) -> T:
    """A game at the given position; PositionError says what is wrong with an invalid one."""
    reader = _Reader(data)
    if data.get("game", "tronimoes") != "tronimoes":
        raise PositionError(f"this is a {data.get('game')} position, not a tronimoes one")
    seats = reader.list("seats")
    if not 1 <= len(seats) <= max(SIZES):
        raise PositionError(f"a position has 1 to {max(SIZES)} seats, not {len(seats)}")
    names = [str(reader.field(s, "name", f"seat {i + 1}")) for i, s in enumerate(seats)]
    game = cls(len(seats), seed, options, names)
    width, height = reader.int("width", 2, 26), reader.int("height", 2, 99)
    game.grid = Grid(width, height)
    game.max_pips = reader.int("max_pips", 0, 99)
    game.occupied = bytearray(game.grid.size)
    seen: set[Tile] = set()

    def tile_of(text: Any, where: str) -> Tile:
        parsed = parse_tile(str(text))
        if parsed is None or parsed[1] > game.max_pips:
            raise PositionError(f"{where}: '{text}' is not a tile of this set (pips 0–{game.max_pips})")
        if parsed in seen:
            raise PositionError(f"{where}: {tile_name(parsed)} appears twice in the position")
        seen.add(parsed)
        return parsed

    def square_of(text: Any, where: str) -> int:
        try:
            return game.grid.parse_square(str(text))
        except Exception as error:
            raise PositionError(f"{where}: {error}") from None

    for index, (seat, raw) in enumerate(zip(game.seats, seats, strict=True)):
        where = f"seat {index + 1}"
        seat.score = int(reader.field(raw, "score", 0))
        seat.round_start_score = seat.score - int(reader.field(raw, "round_score", 0))
        seat.hand = [tile_of(t, where) for t in reader.field(raw, "hand", [])]
        seat.dead = bool(reader.field(raw, "dead", False))
        seat.footed = bool(reader.field(raw, "footed", False))
        foot = reader.field(raw, "foot", None)
        seat.foot = square_of(foot, where) if foot is not None else None
        seat.drew = bool(reader.field(raw, "drew", False))
        seat.resigned = reader.field(raw, "resigned", False) is True
        if seat.foot is not None and not seat.footed:
            raise PositionError(f"{where} has a foot square but is not chicken-footed")
    game.turn = reader.int("turn", 0, len(seats) - 1)
    game.bag = [tile_of(t, "bag") for t in reader.list("bag")]
    game.leaders = [int(v) for v in reader.list("leaders")]
    if not game.leaders:
        raise PositionError("leaders must list at least this round's leader")
    game.highest_leader = reader.int("highest_leader", 0, game.max_pips)
    game.round = len(game.leaders)

    game.lines = {seat: Line(seat, dead=game.seats[seat].dead) for seat in range(len(seats))}
    free_keys: list[str] = []
    game.board = []
    for index, raw in enumerate(reader.list("board")):
        where = f"board entry {index + 1}"
        tile_of(raw.get("tile"), where)
        parsed_pips = [int(p) for p in re.findall(r"[0-9]+", str(raw.get("tile")))]
        at = raw.get("at") or []
        if len(at) != 2:
            raise PositionError(f"{where}: 'at' needs two squares")
        squares = (square_of(at[0], where), square_of(at[1], where))
        if not game.grid.adjacent(*squares):
            raise PositionError(f"{where}: {at[0]} and {at[1]} are not next to each other")
        for square in squares:
            if game.occupied[square]:
                raise PositionError(f"{where}: {game.grid.name(square)} is already covered")
            game.occupied[square] = 1
        key = _line_key(raw.get("line"), len(seats), where)
        by = raw.get("by")
        if by is not None and not (isinstance(by, int) and 0 <= by < len(seats)):
            raise PositionError(f"{where}: 'by' must be a seat number")
        placed = Placed((parsed_pips[0], parsed_pips[1]), squares, key, by, bool(raw.get("dead", False)))
        if index == 0:
            if key != LEADER or squares != game.grid.leader_squares or not placed.is_double:
                spots = " ".join(game.grid.name(s) for s in game.grid.leader_squares)
                raise PositionError(f"the first board entry must be the round leader, a double at {spots}")
            if placed.pips[0] != game.leaders[-1]:
                raise PositionError("the round leader on the board must be the last of 'leaders'")
        elif key == LEADER:
            raise PositionError(f"{where}: only the first board entry is the round leader")
        else:
            if isinstance(key, str) and key not in game.lines:
                if key != free_line_key(len(free_keys) + 1):
                    raise PositionError(f"{where}: free lines are numbered free1, free2, ... in order")
                free_keys.append(key)
                game.lines[key] = Line(key)
            game.lines[key].tiles.append(index)
            if isinstance(key, str) and placed.dead:
                game.lines[key].dead = True
        game.board.append(placed)
    if not game.board:
        raise PositionError("the board must hold at least the round leader")
    game.free_lines = len(free_keys)
    spacer = data.get("spacer")
    if spacer is not None:
        if len(spacer) != 2:
            raise PositionError("spacer is null or its two end squares")
        game.spacer = (square_of(spacer[0], "spacer"), square_of(spacer[1], "spacer"))
        run = game.grid.line_between(*game.spacer)
        if run is None or len(run) != 6:
            raise PositionError("the spacer is a straight run of 6 squares")
    game.passes = reader.int("passes", 0, 99)
    _read_ending(game, data)
    return game


def _read_ending(game: Table, data: Mapping[str, Any]) -> None:
    """Set the phase from `round_end` and `result`, refusing an ending the position does not give
    (or a round the rules would have ended)."""
    result = Outcome.from_position(data.get("result"), game.players)
    ended = data.get("round_end")
    active = [i for i, s in enumerate(game.seats) if not s.resigned]
    everyone_left = not active or (game.players > 1 and len(active) == 1)
    if ended is not None:
        _read_round_end(game, ended)
    if result is not None:
        game.phase, game.end_reason = OVER, result.reason
        if ended is None and not everyone_left:
            raise PositionError("a game ends after a round (the 0:0 round, or when the next cannot start) or when "
                                "everyone else leaves: give round_end, or seats that left")
    elif everyone_left:
        raise PositionError("everyone else has left, so the game is over: give its result")
    elif ended is not None:
        if game.leaders[-1] == 0:
            raise PositionError("the 0:0 round has ended, so the game is over: give its result")
        if all(s.ready for s in game.seats):
            raise PositionError("everyone is ready, so the next round would have started")
        game.phase = BETWEEN_ROUNDS
    else:
        game.phase = PLAYING
        _check_round(game, active)
    check_result(game, result)


def _read_round_end(game: Table, ended: Any) -> None:
    try:
        winner, how, ready = ended["winner"], str(ended["how"]), ended["ready"]
        if not (winner is None or winner in range(game.players)) or len(ready) != game.players:
            raise ValueError
        ready = [r is True for r in ready]
    except (KeyError, TypeError, ValueError):
        raise PositionError('round_end is null during a round, else {"winner": seat or null, "how": "why it '
                            'ended", "ready": [true or false per seat]}') from None
    for index, seat in enumerate(game.seats):
        if not seat.dead and index != winner:
            raise PositionError(f"{seat.name}'s line is alive, but a round's end kills every line but the winner's")
        if seat.resigned and not ready[index]:
            raise PositionError(f"{seat.name} has left, so they count as ready")
        seat.ready = ready[index]
    game.round_result = {"round": game.round, "leader": game.leaders[-1], "winner": winner, "how": how,
                         "deltas": [s.score - s.round_start_score for s in game.seats],
                         "totals": [s.score for s in game.seats]}


def _check_round(game: Table, active: list[int]) -> None:
    """Refuse a round in progress that the rules would have ended."""
    alive = [i for i in active if not game.seats[i].dead]
    for index in alive:
        if not game.seats[index].hand:
            raise PositionError(f"{game.seats[index].name} holds no tile, so they went out and the round is over")
    if len(alive) < min(2, game.players):
        raise PositionError("fewer than two lines are alive, so the round is over: give round_end")
    if game.passes >= len(active):
        raise PositionError("everyone has passed with the bag empty, so the round is over: give round_end")
    if game.seats[game.turn].resigned:
        raise PositionError("turn must be a seat still in the game")
    for seat in game.seats:
        if seat.resigned and (seat.hand or not seat.dead):
            raise PositionError(f"{seat.name} has left: their hand is empty and their line dead")


def _line_key(raw: Any, seats: int, where: str) -> LineKey:
    if raw == LEADER:
        return LEADER
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < seats:
        return raw
    if isinstance(raw, str) and re.fullmatch(r"free[1-9][0-9]{0,5}", raw):
        return raw
    raise PositionError(f"{where}: line must be \"leader\", a seat number or \"freeN\", not {raw!r}")


class _Reader:
    """Typed access to the position's fields with messages that say which field is wrong."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        if not isinstance(data, Mapping):
            raise PositionError("a position is a JSON object")
        self.data = data

    def list(self, key: str) -> list[Any]:
        value = self.data.get(key, [])
        if not isinstance(value, list):
            raise PositionError(f"'{key}' must be a list")
        return value

    def int(self, key: str, low: int, high: int) -> int:
        value = self.data.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise PositionError(f"'{key}' must be a whole number from {low} to {high}, not {value!r}")
        return value

    @staticmethod
    def field(raw: Any, key: str, default: Any) -> Any:
        if not isinstance(raw, Mapping):
            raise PositionError("each seat is a JSON object")
        return raw.get(key, default)
