"""Tromino Go as text (§1.10): `.` empty, `~` No Man's Land, each tromino by its letter (trominoes
of one letter never touch, so every run of one letter is one tromino), `*` before the letter of a
surrounded tromino; y labels on the left, top row first, x labels along the bottom. Right after a
round ends, the round that ended is shown as it ended, with its result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LEGEND = ("`.` empty, `~` No Man's Land (enclosed empty cells), letters the trominoes (capitals: the player "
          "who started the round), `*A` a surrounded tromino.")


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
    xs = [x for x, _ in cells] or [0]
    ys = [y for _, y in cells] or [0]
    low_x, high_x, low_y, high_y = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    lines = [f"Ended: {grid['result']}"] if grid is not view else []
    for y in range(high_y, low_y - 1, -1):
        row = "".join(f"{cells.get((x, y), '~' if (x, y) in nml else '.'):>3}" for x in range(low_x, high_x + 1))
        lines.append(f"{y:>4}{row}")
    lines.append("    " + "".join(f"{x:>3}" for x in range(low_x, high_x + 1)))
    names, points = view["names"], view["points"]
    if view.get("winner") is not None:
        lines.append(f"{names[view['winner']]} wins the game · TGpoints {names[0]} {points[0]}, "
                     f"{names[1]} {points[1]}")
        return "\n".join(lines)
    stage = "moving ×2" if view["phase"] == "moving" else f"{view['placed']}/30 placed"
    lines.append(f"Round {view['round']} · {names[view['mover']]} plays {view['letter']} · {stage} · "
                 f"TGpoints {names[0]} {points[0]}, {names[1]} {points[1]}")
    return "\n".join(lines)
