"""Boards as text for the terminal, drawn from a game's public view.

Each square shows the pips on it and a tag for the line it belongs to: the seat number (1, 2, …),
`*` for the round leader, `f` for a free line; dead lines are tagged `x`. With colour on, lines
take their owner's colour and dead lines are dimmed.
"""

from __future__ import annotations

from typing import Any

from engine import Game
from engine.tronimoes.board import Grid, column_letter

_COLOURS = ["\x1b[34m", "\x1b[31m", "\x1b[36m", "\x1b[35m", "\x1b[33m", "\x1b[32m"]
_DIM, _BOLD, _RESET, _YELLOW_BG = "\x1b[2m", "\x1b[1m", "\x1b[0m", "\x1b[43;30m"


LEGEND = ("Each square shows its pips and its line: 1, 2, … the seat; * the round leader; f a free line; "
          "x a dead line; F2 seat 2's foot square; == the spacer.")


def text(game: Game, colour: bool = False) -> str:
    """The grid with column letters and row numbers, then who is where and what each open end
    needs (see LEGEND for the tags)."""
    view = game.view(None)
    grid = Grid(view["width"], view["height"])
    cells: dict[int, str] = {}
    last = set(view["last"]["squares"]) if view.get("last") and view["last"]["kind"] == "lay" else set()
    for entry in view["board"]:
        line = entry["line"]
        dead = entry.get("dead", False)
        tag = "x" if dead else "*" if line == "leader" else "f" if isinstance(line, str) else str(line + 1)
        for name, pips in zip(entry["at"], entry["tile"].split(":"), strict=True):
            text = f"{pips:>2}{tag}"
            if colour:
                if dead:
                    text = f"{_DIM}{text}{_RESET}"
                elif isinstance(line, int):
                    text = f"{_COLOURS[line % len(_COLOURS)]}{_BOLD}{text}{_RESET}"
                if name in last:
                    text = f"{_YELLOW_BG}{text}{_RESET}"
            cells[grid.parse_square(name)] = text
    feet = {s["foot"]: i for i, s in enumerate(view["seats"]) if s["foot"]}
    spacer = set()
    if view.get("spacer"):
        start, end = (grid.parse_square(s) for s in view["spacer"])
        spacer = set(grid.line_between(start, end) or ())
    header = "    " + "".join(f"{column_letter(x):>3} " for x in range(grid.width))
    rows = [header]
    for y in range(grid.height):
        row = []
        for x in range(grid.width):
            square = grid.square(x, y)
            name = grid.name(square)
            if square in cells:
                row.append(cells[square] + " ")
            elif name in feet:
                row.append(f" F{feet[name] + 1} ")
            elif square in spacer:
                row.append(" == ")
            else:
                row.append("  · ")
        rows.append(f"{y + 1:>3} " + "".join(row) + f" {y + 1}")
    rows.append(header)
    return "\n".join([*rows, "", *_summary(view)])


def _summary(view: dict[str, Any]) -> list[str]:
    seats = view["seats"]
    leader = view["leaders"][-1] if view["leaders"] else "?"
    lines = [f"Round {view['round']}{_phase(view)} · leader {leader}:{leader} · {view['bag_size']} tiles in the bag"]
    for index, seat in enumerate(seats):
        state = []
        if seat["resigned"]:
            state.append("left")
        elif seat["dead"]:
            state.append("dead")
        if seat["footed"] and not seat["dead"]:
            state.append(f"chicken-footed{' at ' + seat['foot'] if seat['foot'] else ''}")
        turn = "▶ " if index in view["to_move"] else "  "
        extra = f" ({', '.join(state)})" if state else ""
        lines.append(f"{turn}{index + 1} {seat['name']}: {seat['score']} pts, {seat['hand_size']} tiles{extra}")
    ends = []
    for line in view["lines"]:
        if line["dead"]:
            continue
        owner = line["owner"]
        who = seats[owner]["name"] if owner is not None else str(line["line"])
        if owner is not None and not line["started"]:
            who += " (from the leader)"
        ends.append(f"{who} {'/'.join(line['open'])} needs {line['next']}")
    if ends:
        lines.append("Open ends: " + " · ".join(ends))
    if view.get("spacer"):
        lines.append(f"Spacer down from {view['spacer'][0]} to {view['spacer'][1]}")
    return lines


def _phase(view: dict[str, Any]) -> str:
    if view["phase"] == "over":
        return " (game over)"
    if view["phase"] == "between rounds":
        return " (over)"
    return ""
