"""Tromino Go positions (rules §1.12): one moment of a round as a JSON-safe dict, for puzzles,
rulings and tests. `write` gives the documented format; `read` fills a fresh game from one and
refuses, with a PositionError naming the problem, anything the rules could not have produced on
the grid (overlaps, shapes that are not L-trominoes, owners other than 0 and 1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Outcome, PositionError, check_result
from engine.tromino_go.geometry import shape_of
from engine.tromino_go.notation import MAX_CONCESSION
from engine.tromino_go.rules import PIECES_TO_MOVE, POINTS_TO_WIN, STALEMATE_PASSES
from engine.tromino_go.state import Piece


def write(game: Any) -> dict[str, Any]:
    outcome = game.outcome()
    return {
        "game": game.name,
        "options": game.options.differences(),
        "seats": [{"name": game.names[i], "score": game.points[i]} for i in range(2)],
        "first": game.first, "round": game.round, "t": game.t, "placed": game.placed, "phase": game.phase,
        "moving_turns": game.moves,
        "pieces": [{"id": p.id, "owner": 0 if p.owner == game.first else 1, "letter": p.letter, "cells": p.listed()}
                   for p in game.pieces],
        "passes": game.passes,
        "concessions": [{"seat": s, "points": n} for s, n in game.concessions],
        "result": outcome.to_json() if outcome is not None else None,
    }


def seat_names(data: Mapping[str, Any]) -> list[str]:
    if data.get("game", "tromino_go") != "tromino_go":
        raise PositionError(f"this is a {data.get('game')} position, not a tromino_go one")
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != 2 or not all(isinstance(s, Mapping) for s in seats):
        raise PositionError("Tromino Go has exactly 2 seats, each like {\"name\": \"ana\", \"score\": 0}")
    return [str(s.get("name", f"P{i + 1}")) for i, s in enumerate(seats)]


def read(game: Any, data: Mapping[str, Any]) -> None:
    """Set `game` (fresh, with its seats named) to the position `data`."""
    try:
        game.points = [int(s.get("score", 0)) for s in data["seats"]]
        game.first, game.round, game.t = int(data["first"]), int(data.get("round", 1)), int(data.get("t", 0))
        game.placed = int(data.get("placed", len(data.get("pieces", []))))
        game.phase = str(data.get("phase", "placing"))
        game.passes = int(data.get("passes", 0))
        game.moves = int(data.get("moving_turns", 0))
        for entry in data.get("pieces", []):
            order = tuple((int(x), int(y)) for x, y in entry["cells"])
            cells = frozenset(order)
            if len(order) != 3 or shape_of(cells) is None:
                raise PositionError(f"piece {entry.get('id')} is not an L-tromino: give 3 cells of a 2×2 box")
            role, letter = int(entry["owner"]), str(entry["letter"])
            if role not in (0, 1) or letter not in ("A", "B", "C", "a", "b", "c"):
                raise PositionError(f"piece {entry.get('id')}: the owner is 0 or 1 and the letter A, B, C, a, b or c")
            if letter.isupper() != (role == 0):
                case = "upper" if letter.isupper() else "lower"
                raise PositionError(f"piece {entry.get('id')}: letter {letter} is {case} case, so its owner is "
                                    f"{0 if letter.isupper() else 1} (0 plays capitals), not {role}")
            seat = game.first if role == 0 else 1 - game.first
            game.pieces.append(Piece(int(entry["id"]), seat, letter, cells, order))
        game.concessions = [(int(c["seat"]), int(c["points"])) for c in data.get("concessions", [])]
        result = Outcome.from_position(data.get("result"), 2)
    except (KeyError, TypeError, ValueError) as error:
        raise PositionError(f"this position is incomplete or malformed ({error})") from None
    _check(game)
    if result is not None and len(result.winners) == 1:
        _read_end(game, result.winners[0], result.reason)
    _check_round(game)
    check_result(game, result)


def _check(game: Any) -> None:
    if game.first not in (0, 1) or game.phase not in ("placing", "moving"):
        raise PositionError("`first` is 0 or 1 and `phase` is placing or moving")
    if min(game.t, game.passes, game.round - 1, *game.points) < 0:
        raise PositionError("`t`, `passes`, `round` and the scores cannot be negative")
    if game.placed != len(game.pieces):
        raise PositionError(f"`placed` counts the trominoes on the grid: {len(game.pieces)}, not {game.placed}")
    if [p.id for p in game.pieces] != list(range(1, len(game.pieces) + 1)):
        raise PositionError("pieces are listed in the order played, with ids 1, 2, 3, …")
    if game.placed > PIECES_TO_MOVE or (game.phase == "placing" and game.placed == PIECES_TO_MOVE):
        raise PositionError(f"once {PIECES_TO_MOVE} trominoes are down the phase is moving, and no more are placed")
    if game.moves < 0 or (game.moves and game.phase != "moving"):
        raise PositionError("`moving_turns` counts the moves of the moving phase: 0 while placing, never negative")
    covered = [c for p in game.pieces for c in p.cells]
    if len(covered) != len(set(covered)):
        raise PositionError("two trominoes cover the same cell")
    for seat, points in game.concessions:
        if seat not in (0, 1) or not 0 <= points <= MAX_CONCESSION:
            raise PositionError(f"a concession is {{\"seat\": 0 or 1, \"points\": 0 to {MAX_CONCESSION}}}")


def _read_end(game: Any, winner: int, reason: str) -> None:
    """End the game as its result says, if the position gives that end: the winner reached 7
    TGpoints, or else the other player forfeited or left."""
    loser = game.names[1 - winner]
    if game.points[winner] >= POINTS_TO_WIN:
        reasons = [f"{game.names[winner]} reached {game.points[winner]} TGpoints"]
    else:
        reasons = [f"{loser} forfeited the game", f"{loser} left the game"]
        game.gone = 1 - winner
    if reason not in reasons:
        raise PositionError(f"with these scores the game ends with: {' or '.join(map(repr, reasons))}, not {reason!r}")
    game.winner, game.end_reason = winner, reason


def _check_round(game: Any) -> None:
    """Refuse a game in progress that the rules would have ended: a surrounded group, a full
    cycle of passes, the move cap reached, a player at the winning total."""
    if game.winner is not None:
        return
    if game.surrounded_ids():
        raise PositionError("a group is surrounded, so the round would have ended: give the next round, or the "
                            "game's result")
    cap = game.options.max_moving_turns
    if game.passes >= STALEMATE_PASSES or (cap and game.moves >= cap):
        raise PositionError(f"the round would have ended in a tie ({STALEMATE_PASSES} passes in a row, or "
                            f"{cap or 'the cap of'} moves)")
    if max(game.points) >= POINTS_TO_WIN:
        raise PositionError(f"a player has {POINTS_TO_WIN} TGpoints, so the game is over: give its result")
