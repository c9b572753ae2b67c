"""Tromino Go as text (§1.10): `.` empty, `~` No Man's Land, each tromino by its letter (trominoes
of one letter never touch, so every run of one letter is one tromino), `*` before the letter of a
surrounded tromino; y labels on the left, top row first, x labels along the bottom. Right after a
round ends, the round that ended is shown as it ended, with its result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from renderers.common import N_, say

_CAPITALS, _LOWER, _DEAD, _HALO, _DIM, _RESET = ("\x1b[1;34m", "\x1b[1;33m", "\x1b[1;31m", "\x1b[7m", "\x1b[2m",
                                                "\x1b[0m")

LEGEND = N_("`.` empty, `~` No Man's Land (enclosed empty cells), letters the trominoes (capitals: the player "
            "who started the round), `*A` a surrounded tromino. TGpoints are the game's points: when a round ends, "
            "the player with fewer surrounded trominoes scores the difference; 7 win.")


def shown(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """What the grid shows: the round in play, or the round that just ended while the new one
    has no tromino yet."""
    previous = view.get("previous")
    if not view["pieces"] and previous:
        return previous
    return view


def text(game: Any, colour: bool = False) -> str:
    view = game.view(None)
    grid = shown(view)
    dead = set(grid.get("surrounded", ()))
    cells = {tuple(c): ("*" if p["id"] in dead else "") + p["letter"] for p in grid["pieces"] for c in p["cells"]}
    nml = {tuple(c) for c in grid["nml"]}
    last = {tuple(c) for c in grid["last"]}
    xs = [x for x, _ in cells] or [0]
    ys = [y for _, y in cells] or [0]
    low_x, high_x, low_y, high_y = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    lines = [say(N_("Ended: {result}")).format(result=say(grid["result"]))] if grid is not view else []
    for y in range(high_y, low_y - 1, -1):
        row = "".join(_square(cells, nml, last, (x, y), colour) for x in range(low_x, high_x + 1))
        lines.append(f"{y:>4}{row}")
    lines.append("    " + "".join(f"{x:>3}" for x in range(low_x, high_x + 1)))
    names, points = view["names"], view["points"]
    if view.get("winner") is not None:
        lines.append(say(N_("{player} wins the game · TGpoints {totals}")).format(
            player=names[view["winner"]], totals=f"{names[0]} {points[0]}, {names[1]} {points[1]}"))
        return "\n".join(lines)
    stage = say(N_("moving ×2")) if view["phase"] == "moving" else say(N_("{count}/30 placed")).format(
        count=view["placed"])
    lines.append(say(N_("Round {round} · {player} plays {letter} · {stage} · TGpoints {totals}")).format(
        round=view["round"], player=names[view["mover"]], letter=view["letter"], stage=stage,
        totals=f"{names[0]} {points[0]}, {names[1]} {points[1]}"))
    return "\n".join(lines)


def _square(cells: Mapping[tuple[int, int], str], nml: set[tuple[int, int]], last: set[tuple[int, int]],
            cell: tuple[int, int], colour: bool) -> str:
    """One cell, 3 characters wide; with `colour`, capitals blue, lower case yellow, surrounded
    trominoes red, the last play in reverse video, No Man's Land dimmed."""
    tag = cells.get(cell, "~" if cell in nml else ".")
    shown = f"{tag:>3}"
    if not colour or tag == ".":
        return shown
    if tag == "~":
        return f"{_DIM}{shown}{_RESET}"
    paint = _DEAD if tag.startswith("*") else _CAPITALS if tag.isupper() else _LOWER
    if cell in last:
        paint += _HALO
    return f"{shown[:3 - len(tag)]}{paint}{tag}{_RESET}"
