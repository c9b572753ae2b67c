"""Boards as text for the terminal, drawn from a game's public view.

Each square shows the pips on it and a tag for the line it belongs to: the seat number (1, 2, …),
`*` for the round leader, `f` for a free line; dead lines are tagged `x`. With colour on, lines
take their owner's colour and dead lines are dimmed.
"""

from __future__ import annotations

from typing import Any

from engine import Game
from engine.tronimoes.board import Grid, column_letter
from renderers.common import N_, say

_COLOURS = ["\x1b[34m", "\x1b[31m", "\x1b[36m", "\x1b[35m", "\x1b[33m", "\x1b[32m"]
_DIM, _BOLD, _RESET, _YELLOW_BG = "\x1b[2m", "\x1b[1m", "\x1b[0m", "\x1b[43;30m"


LEGEND = N_("Each square shows its pips and its line: 1, 2, … the seat; * the round leader; f a free line; "
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
    bag = say(N_("{count} tile") if view["bag_size"] == 1 else N_("{count} tiles")).format(count=view["bag_size"])
    lines = [say(_ROUND[view["phase"]]).format(round=view["round"], leader=f"{leader}:{leader}", tiles=bag)]
    for index, seat in enumerate(seats):
        state = []
        if seat["resigned"]:
            state.append(say(N_("left")))
        elif seat["dead"]:
            state.append(say(N_("dead")))
        if seat["footed"] and not seat["dead"]:
            state.append(say(N_("chicken-footed at {square}")).format(square=seat["foot"]) if seat["foot"]
                         else say(N_("chicken-footed")))
        turn = "▶ " if index in view["to_move"] else "  "
        extra = f" ({', '.join(state)})" if state else ""
        held = N_("{player}: {score} pts, {count} tile") if seat["hand_size"] == 1 else \
            N_("{player}: {score} pts, {count} tiles")
        lines.append(f"{turn}{index + 1} " + say(held).format(player=seat["name"], score=seat["score"],
                                                                count=seat["hand_size"]) + extra)
    ends = []
    for line in view["lines"]:
        if line["dead"]:
            continue
        owner = line["owner"]
        who = seats[owner]["name"] if owner is not None else str(line["line"])
        if owner is not None and not line["started"]:
            who = say(N_("{player} (from the leader)")).format(player=who)
        ends.append(say(N_("{line} {squares} needs {pips}")).format(line=who, squares="/".join(line["open"]),
                                                                   pips=line["next"]))
    if ends:
        lines.append(say(N_("Open ends: {ends}")).format(ends=" · ".join(ends)))
    if view.get("spacer"):
        lines.append(say(N_("Spacer down from {a} to {b}")).format(a=view["spacer"][0], b=view["spacer"][1]))
    return lines


_ROUND = {
    "playing": N_("Round {round} · leader {leader} · {tiles} in the bag"),
    "between rounds": N_("Round {round} (over) · leader {leader} · {tiles} in the bag"),
    "over": N_("Round {round} (game over) · leader {leader} · {tiles} in the bag"),
}
