"""Reading and writing Tetromic positions (rules §2.8): one moment of a game as JSON.

`write_position(read_position(p)) == p` for every valid position p."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

from engine.core import GameOptions, GameShape, Outcome, PositionError, check_result
from engine.tetromic.board import OFF, Board
from engine.tetromic.pieces import KINDS
from engine.tetromic.state import Seat


class TetromicTable(GameShape, Protocol):
    """The state of a Tetromic game that a position records."""

    seats: list[Seat]
    phase: int
    queue: list[str]
    winner: int | None
    target: int
    """The level that wins."""
    calendar: bool
    """Phases are calendar windows (drawing does not end a seat's phase)."""

    def locked(self, seat: int) -> bool: ...


T = TypeVar("T", bound=TetromicTable)


def write_position(game: TetromicTable) -> dict[str, Any]:
    outcome = game.outcome()
    return {
        "game": "tetromic",
        "options": game.options.differences(),
        "seats": [{"name": game.names[i], "level": s.level, "points": s.points, "hand": list(s.hand),
                   "drew": s.drew, "out": s.locked, "resigned": s.resigned,
                   "board": s.board.rows_top_first()} for i, s in enumerate(game.seats)],
        "phase": game.phase,
        "done": [s.done for s in game.seats],
        "queue": list(game.queue),
        "winner": game.winner,
        "result": outcome.to_json() if outcome is not None else None,
    }


def read_position(cls: type[T], data: Mapping[str, Any], *, seed: int, options: GameOptions) -> T:
    """A game at the given position; PositionError says what is wrong with an invalid one."""
    if data.get("game", "tetromic") != "tetromic":
        raise PositionError(f"this is a {data.get('game')} position, not a tetromic one")
    seats = data.get("seats")
    if not isinstance(seats, list) or not 1 <= len(seats) <= cls.max_players:
        raise PositionError(f"a position needs 1 to {cls.max_players} seats")
    boards = [_board(s.get("board"), i) for i, s in enumerate(seats)]
    width, height = boards[0].width, boards[0].height
    if any((b.width, b.height) != (width, height) for b in boards):
        raise PositionError("every board must have the same size")
    chosen = dataclasses.replace(options, width=width, height=height)  # type: ignore[call-arg]
    game = cls(len(seats), seed, chosen, [str(s.get("name", f"P{i + 1}")) for i, s in enumerate(seats)])
    done = data.get("done", [False] * len(seats))
    if not isinstance(done, list) or len(done) != len(seats):
        raise PositionError("`done` needs one true or false per seat")
    game.seats = []
    for index, (entry, board) in enumerate(zip(seats, boards, strict=True)):
        hand = entry.get("hand", [])
        if not isinstance(hand, list) or any(k not in KINDS for k in hand):
            raise PositionError(f"seat {index}: a hand lists kinds among {', '.join(KINDS)}")
        level, points = int(entry.get("level", 0)), int(entry.get("points", 0))
        if level < 0 or not 0 <= points <= level:
            raise PositionError(f"seat {index}: points run from 0 to the level ({level}), not {points}")
        drew, out, left = (entry.get(key, False) is True for key in ("drew", "out", "resigned"))
        if drew and not done[index] and not game.calendar:
            raise PositionError(f"seat {index} drew this phase, so it must be done (drawing ends a player's phase "
                                f"unless phases are calendar windows)")
        if out and not left:
            raise PositionError(f"seat {index} is out, so it is resigned too (out of the game)")
        if left and not done[index]:
            raise PositionError(f"seat {index} is out of the game, so it must be done")
        game.seats.append(Seat(board, level, points, list(hand), drew, bool(done[index]), resigned=left,
                               locked=out))
    phase = data.get("phase", 1)
    if not isinstance(phase, int) or phase < 1:
        raise PositionError("the phase is a whole number from 1")
    game.phase = phase
    queue = data.get("queue", [])
    if not isinstance(queue, list) or any(k not in KINDS for k in queue):
        raise PositionError(f"the queue lists kinds among {', '.join(KINDS)}")
    game.queue = list(queue)
    winner = data.get("winner")
    if winner is not None and (not isinstance(winner, int) or not 0 <= winner < len(seats)):
        raise PositionError("the winner is a seat number or null")
    game.winner = winner
    _check(game)
    check_result(game, Outcome.from_position(data.get("result"), len(seats)))
    return game


def _check(game: TetromicTable) -> None:
    """Refuse what the rules could not have produced: a seat out while a piece still fits its
    board (or in while none does), a level past the target without the winner, or a phase
    every seat has finished that did not end."""
    for index, seat in enumerate(game.seats):
        if seat.locked and not game.locked(index):
            raise PositionError(f"seat {index} is out, but a piece still fits its board")
        if not seat.resigned and game.winner is None and game.locked(index):
            raise PositionError(f"no piece fits seat {index}'s board any more, so it is out: write \"out\": true")
        reached = seat.level >= game.target
        if reached != (index == game.winner):
            raise PositionError(f"seat {index} is at level {seat.level}: the winner is the seat that reached level "
                                f"{game.target} (the target), and only that one")
        if index == game.winner and (seat.level != game.target or seat.points):
            raise PositionError(f"the winner stops at level {game.target} with 0 points")
    active = [s for s in game.seats if not s.resigned]
    if game.winner is None and active and all(s.done for s in active):
        raise PositionError(f"every seat still playing is done, so phase {game.phase} would have ended")


def _board(rows: Any, index: int) -> Board:
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise PositionError(f"seat {index}: a board is a list of rows, top row first")
    if len({len(r) for r in rows}) != 1:
        raise PositionError(f"seat {index}: every row of a board has the same width")
    if any(c != OFF and c not in KINDS for r in rows for c in r):
        raise PositionError(f"seat {index}: a cell is `.` (off) or the kind that covered it ({', '.join(KINDS)})")
    board = Board.from_rows(rows)
    if board.full_rows():
        raise PositionError(f"seat {index}: a full row would have been cleared")
    return board
