"""Tronix as text for a terminal: one row per y, each cell the pattern of its card (where its
green line runs: NE, SE, SW, NW, NS, EW), `.` for an empty cell, `*` after the card just placed
or moved, `!` after the locked one; x labels on top, y labels on the left."""

from __future__ import annotations

from typing import Any

from renderers.common import N_, say
from renderers.tronix.pictures import PHASES, RESULTS

WIDTH = 5
_GREEN, _HALO, _RESET = "\x1b[32m", "\x1b[1;33m", "\x1b[0m"

LEGEND = N_("Each card is named by where its green line runs (NE, SE, SW, NW curves; NS, EW straights), "
            "`*` the card just played, `!` the locked card; a cell is x,y as labelled (y grows downwards). In "
            "hands, CX is a card with a curve on one face and a cross on the other (CC: curves on both, XX: "
            "crosses on both).")


def text(game: Any, colour: bool = False) -> str:
    view = game.view(None)
    cards = {tuple(c["at"]): c["pattern"] for c in view["table"]}
    last = tuple((view.get("last") or {}).get("cell") or ()) or None
    locked = tuple(view["locked"]) if view.get("locked") else None
    lines = []
    if cards:
        xs, ys = [x for x, _ in cards], [y for _, y in cards]
        lines.append("     " + "".join(str(x).ljust(WIDTH) for x in range(min(xs), max(xs) + 1)).rstrip())
        for y in range(min(ys), max(ys) + 1):
            row = []
            for x in range(min(xs), max(xs) + 1):
                shown = say(cards.get((x, y), "."))
                shown += "*" if (x, y) == last else "!" if (x, y) == locked else ""
                padded = shown.ljust(WIDTH)
                row.append(f"{_HALO if (x, y) == last else _GREEN}{padded}{_RESET}" if colour and (x, y) in cards
                           else padded)
            lines.append(f"{y:>4} " + "".join(row).rstrip())
    piles = view["piles"]
    status = say(N_("{phase} · green {green}, pink {pink}")).format(
        phase=say(PHASES[view["phase"]]), green=piles["green"], pink=piles["pink"])
    if view["turn"] is not None:
        mover = view["seats"][view["turn"]]
        status += say(N_(" · {player} ({team}) to play")).format(player=mover["name"], team=say(mover["team"]))
    elif view.get("outcome"):
        status += " · " + say(RESULTS[view.get("winner")])
    lines.append(status)
    return "\n".join(lines)
