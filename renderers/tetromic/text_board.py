"""Tetromic boards as text for the terminal: every board side by side, y 9 at the top, each on
cell showing the kind that covered it."""

from __future__ import annotations

from typing import Any

from renderers.common import N_, pad_to, say

LEGEND = N_("Each board: `.` off, I O L S T the kind that covered a cell; x along the bottom, y up the left; "
            "lv the level, then the points towards the next; ▶ players the phase waits for.")
_COLOURS = {"I": "\x1b[36m", "O": "\x1b[33m", "L": "\x1b[31m", "S": "\x1b[32m", "T": "\x1b[35m"}
_RESET = "\x1b[0m"


def text(game: Any, colour: bool = False) -> str:
    view = game.view(None)
    width, height = view["width"], view["height"]
    columns = []
    for index, seat in enumerate(view["seats"]):
        mark = "▶ " if index in view["to_move"] else "  "
        head = f"{mark}{seat['name'][:width * 2 - 2]}"
        score = f"  lv {seat['level']} · {seat['points']}/{seat['needed']}"  # not "L0": a piece's name
        lines = [head, score]
        for y in range(height - 1, -1, -1):
            row = seat["board"][height - 1 - y]
            cells = " ".join(_COLOURS[c] + c + _RESET if colour and c in _COLOURS else c for c in row)
            lines.append(f"{y:>2} {cells}")
        lines.append("   " + " ".join(str(x % 10) for x in range(width)))
        columns.append(lines)
    out = []
    for start in range(0, len(columns), 4):
        group = columns[start:start + 4]
        for parts in zip(*group, strict=True):
            out.append("   ".join(pad_to(p, width * 2 + 3) for p in parts).rstrip())
        out.append("")
    status = say(N_("Phase {phase} · first to level {level} wins")).format(phase=view["phase"],
                                                                          level=view["target_level"])
    if view.get("winner") is not None:
        status = say(N_("{player} has won")).format(player=view["seats"][view["winner"]]["name"])
    return "\n".join([*out, status])
