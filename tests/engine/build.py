"""Compact builders for Tronimoes positions (rules §12) used by the rule tests.

A board entry is written `"7:2 f5 f6 0"`: tile, its two squares (first = the half that matched),
then the line (`leader`, a seat number or `freeN`), optionally followed by `by=N` and `dead`.
Boards default to the two-player 8×9 grid with the 7:7 leader at d5 e5, and the bag to three
tiles nobody holds.
"""

from __future__ import annotations

from typing import Any

from engine.tronimoes import Tronimoes
from engine.tronimoes.board import full_set


def entry(text: str) -> dict[str, Any]:
    parts = text.split()
    tile, first, second, line = parts[:4]
    result: dict[str, Any] = {"tile": tile, "at": [first, second]}
    result["line"] = "leader" if line == "leader" else line if line.startswith("free") else int(line)
    for extra in parts[4:]:
        if extra.startswith("by="):
            result["by"] = int(extra[3:])
        elif extra == "dead":
            result["dead"] = True
    if "by" not in result and isinstance(result["line"], int):
        result["by"] = result["line"]
    return result


def position(board: list[str], hands: list[list[str]], *, turn: int = 0, bag: list[str] | None = None,
             names: list[str] | None = None, seats: list[dict[str, Any]] | None = None,
             leaders: list[int] | None = None, highest: int | None = None, spacer: list[str] | None = None,
             passes: int = 0, width: int = 8, height: int = 9, max_pips: int = 7) -> dict[str, Any]:
    board = ["7:7 d5 e5 leader", *board] if not board or "leader" not in board[0] else board
    entries = [entry(b) for b in board]
    leader = int(entries[0]["tile"].split(":")[0])
    names = names or ["red", "blue", "green", "yellow", "purple", "orange"][: len(hands)]
    seat_dicts = []
    for index, hand in enumerate(hands):
        extra = (seats or [{}] * len(hands))[index]
        seat_dicts.append({"name": names[index], "score": extra.get("score", 0), "hand": hand,
                           "dead": extra.get("dead", False), "footed": extra.get("footed", False),
                           "foot": extra.get("foot"), "drew": extra.get("drew", False)})
    if bag is None:
        used = {_norm(t) for hand in hands for t in hand} | {_norm(e["tile"]) for e in entries}
        bag = [f"{a}:{b}" for a, b in full_set(max_pips) if (a, b) not in used][:3]
    return {
        "game": "tronimoes", "width": width, "height": height, "max_pips": max_pips,
        "seats": seat_dicts, "turn": turn, "bag": bag,
        "leaders": leaders or [leader], "highest_leader": highest if highest is not None else leader,
        "board": entries, "spacer": spacer, "passes": passes,
    }


def _norm(text: str) -> tuple[int, int]:
    a, b = (int(p) for p in text.split(":"))
    return (a, b) if a <= b else (b, a)


def game(board: list[str], hands: list[list[str]], **kwargs: Any) -> Tronimoes:
    options = kwargs.pop("options", None)
    return Tronimoes.from_position(position(board, hands, **kwargs), options=options)
