"""Tromino Go positions (rules §1.12): one moment of a round as a JSON-safe dict, for puzzles,
rulings and tests. `write` gives the documented format; `read` fills a fresh game from one and
refuses, with a PositionError naming the problem, anything the rules could not have produced on
the grid (overlaps, shapes that are not L-trominoes, owners other than 0 and 1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import PositionError
from engine.tromino_go.geometry import shape_of
from engine.tromino_go.notation import MAX_CONCESSION
from engine.tromino_go.state import Piece


def write(game: Any) -> dict[str, Any]:
    return {
        "game": game.name,
        "seats": [{"name": game.names[i], "score": game.points[i]} for i in range(2)],
        "first": game.first, "round": game.round, "t": game.t, "placed": game.placed, "phase": game.phase,
        "pieces": [{"id": p.id, "owner": p.owner, "letter": p.letter, "cells": p.listed()} for p in game.pieces],
        "passes": game.passes,
        "concessions": [{"seat": s, "points": n} for s, n in game.concessions],
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
        for entry in data.get("pieces", []):
            order = tuple((int(x), int(y)) for x, y in entry["cells"])
            cells = frozenset(order)
            if len(order) != 3 or shape_of(cells) is None:
                raise PositionError(f"piece {entry.get('id')} is not an L-tromino: give 3 cells of a 2×2 box")
            game.pieces.append(Piece(int(entry["id"]), int(entry["owner"]), str(entry["letter"]), cells, order))
        game.concessions = [(int(c["seat"]), int(c["points"])) for c in data.get("concessions", [])]
    except (KeyError, TypeError, ValueError) as error:
        raise PositionError(f"this position is incomplete or malformed ({error})") from None
    _check(game)


def _check(game: Any) -> None:
    if game.first not in (0, 1) or game.phase not in ("placing", "moving"):
        raise PositionError("`first` is 0 or 1 and `phase` is placing or moving")
    if min(game.t, game.passes, game.round - 1, *game.points) < 0:
        raise PositionError("`t`, `passes`, `round` and the scores cannot be negative")
    if game.placed != len(game.pieces):
        raise PositionError(f"`placed` counts the trominoes on the grid: {len(game.pieces)}, not {game.placed}")
    for piece in game.pieces:
        if piece.owner not in (0, 1) or piece.letter.upper() not in ("A", "B", "C"):
            raise PositionError(f"piece {piece.id}: the owner is 0 or 1 and the letter A, B or C")
    covered = [c for p in game.pieces for c in p.cells]
    if len(covered) != len(set(covered)):
        raise PositionError("two trominoes cover the same cell")
    for seat, points in game.concessions:
        if seat not in (0, 1) or not 0 <= points <= MAX_CONCESSION:
            raise PositionError(f"a concession is {{\"seat\": 0 or 1, \"points\": 0 to {MAX_CONCESSION}}}")
