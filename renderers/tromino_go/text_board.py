"""Tromino Go as text (§1.10): `.` empty, `~` No Man's Land, each tromino by its letter (trominoes
of one letter never touch, so every run of one letter is one tromino); y labels on the left,
top row first, x labels along the bottom."""

from __future__ import annotations

from typing import Any

LEGEND = "`.` empty, `~` No Man's Land, letters the trominoes (capitals: the player who started the round)."


def text(game: Any, colour: bool = False) -> str:
    view = game.view(None)
    cells = {tuple(c): p["letter"] for p in view["pieces"] for c in p["cells"]}
    nml = {tuple(c) for c in view["nml"]}
    xs = [x for x, _ in cells] or [0]
    ys = [y for _, y in cells] or [0]
    low_x, high_x, low_y, high_y = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    lines = []
    for y in range(high_y, low_y - 1, -1):
        row = "".join(f"{cells.get((x, y), '~' if (x, y) in nml else '.'):>3}" for x in range(low_x, high_x + 1))
        lines.append(f"{y:>4}{row}")
    lines.append("    " + "".join(f"{x:>3}" for x in range(low_x, high_x + 1)))
    names, points = view["names"], view["points"]
    stage = "moving ×2" if view["phase"] == "moving" else f"{view['placed']}/30 placed"
    lines.append(f"Round {view['round']} · {names[view['mover']]} plays {view['letter']} · {stage} · "
                 f"TGpoints {names[0]} {points[0]}, {names[1]} {points[1]}")
    return "\n".join(lines)
