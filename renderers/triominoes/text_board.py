"""Triominoes as text for a terminal: one line per row of the grid, each cell a column of the
picture (`^` a tile pointing up, `v` pointing down, its corners in the notation's order), the
numbered spots as `(7)`, the last tile marked `*`; row labels on the left, column labels on top."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from renderers.common import N_, pad_to, say
from renderers.triominoes.pictures import shown

WIDTH = 8
_HALO, _SPOT, _RESET = "\x1b[1;33m", "\x1b[36m", "\x1b[0m"

LEGEND = N_("`^0-1-2` a tile pointing up (apex, bottom-right, bottom-left), `v2-1-2` pointing down (top-left, "
            "top-right, bottom), `(7)` spot 7 (`1-2-2 at 7`), `*` the last tile; a cell is rRcC, as labelled.")


def _cell(text: str) -> tuple[int, int]:
    row, column = text[1:].split("c")
    return int(row), int(column)


def text(game: Any, colour: bool = False) -> str:
    view = game.view(None)
    tiles, spots, banner = shown(view)
    cells: dict[tuple[int, int], str] = {}
    last = (view.get("last") or {}).get("cell") if not banner else None
    for entry in tiles:
        cell = _cell(entry["at"])
        arrow = "^" if (cell[0] + cell[1]) % 2 == 0 else "v"
        shown_text = ("*" if entry["at"] == last else "") + arrow + "-".join(map(str, entry["corners"]))
        cells[cell] = f"{_HALO}{shown_text}{_RESET}" if colour and entry["at"] == last else shown_text
    for number, spot in enumerate(spots, start=1):
        mark = f"({number})"
        cells[_cell(spot)] = f"{_SPOT}{mark}{_RESET}" if colour else mark
    lines = [say(banner)] if banner else []
    if cells:
        rows = [r for r, _ in cells]
        columns = [c for _, c in cells]
        low_c, high_c = min(columns), max(columns)
        lines.append("     " + "".join(f"c{c}".ljust(WIDTH) for c in range(low_c, high_c + 1)).rstrip())
        for r in range(min(rows), max(rows) + 1):
            row = "".join(pad_to(cells.get((r, c), "."), WIDTH, gap=1) for c in range(low_c, high_c + 1))
            lines.append(f"r{r:<4}" + row.rstrip())
    lines.append(_status(view))
    return "\n".join(lines)


def _status(view: Mapping[str, Any]) -> str:
    seats = view["seats"]
    scores = ", ".join(f"{s['name']} {s['score']}" for s in seats)
    outcome = view.get("outcome")
    if outcome:
        if not outcome["winners"]:
            return say(N_("Game over: nobody wins · scores {scores}")).format(scores=scores)
        winners = ", ".join(seats[w]["name"] for w in outcome["winners"])
        return say(N_("Game over: {players} · scores {scores}")).format(players=winners, scores=scores)
    mover = seats[view["turn"]]["name"]
    if view.get("opening"):
        return say(N_("Round {round} · {player} to play (opens with {tiles}) · well {well} · scores {scores}")).format(
            round=view["round"], player=mover, tiles=" / ".join(view["opening"]), well=view["well_size"], scores=scores)
    return say(N_("Round {round} · {player} to play · well {well} · scores {scores}")).format(
        round=view["round"], player=mover, well=view["well_size"], scores=scores)
