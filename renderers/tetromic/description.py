"""The Tetromic boards in words (see `renderers.description`): for each player's board, its
level and points, how high its stack stands, the rows one piece from clearing and the
placements (as `play` writes them) that clear each, and how many pieces the player holds."""

from __future__ import annotations

from typing import Any

from engine import Game
from engine.tetromic.pieces import ORIENTATIONS
from renderers.common import N_, say
from renderers.description import Part, seat_name

SHOWN_CLEARERS = 3
"""At most this many placements are named for one row."""


def _on_cells(rows: list[str]) -> set[tuple[int, int]]:
    height = len(rows)
    return {(x, height - 1 - index) for index, row in enumerate(rows) for x, ch in enumerate(row) if ch != "."}


def _clearers(on: set[tuple[int, int]], width: int, height: int, y: int) -> list[str]:
    """Every placement (`T-u 2,3`) that fills all the empty cells of row `y` (a row with more
    than four empty cells has none: a piece covers at most four cells of a row)."""
    empty = {(x, y) for x in range(width) if (x, y) not in on}
    if not empty or len(empty) > 4:
        return []
    first = min(empty)
    found = []
    for name, offsets in ORIENTATIONS.items():
        for dx, dy in offsets:  # the piece's cell that lands on the row's first empty cell
            ax, ay = first[0] - dx, first[1] - dy
            cells = [(ax + ox, ay + oy) for ox, oy in offsets]
            if all(0 <= cx < width and 0 <= cy < height and (cx, cy) not in on for cx, cy in cells) \
                    and empty.issubset(cells):
                found.append(f"{name} {ax},{ay}")
    return found


def _board(names: list[str], seat: int, entry: dict[str, Any]) -> Part:
    rows = entry["board"]
    height, width = len(rows), len(rows[0]) if rows else 0
    on = _on_cells(rows)
    stack = max((y + 1 for _, y in on), default=0)
    parts = [say(N_("level {level}, {points} of {needed} points to the next level")).format(
        level=entry["level"], points=entry["points"], needed=entry["needed"])]
    parts.append(say(N_("the stack is {height} of {rows} rows high, {cells} cells filled")).format(
        height=stack, rows=height, cells=len(on)) if on else say(N_("the board is empty")))
    near = []
    for y in range(height):
        clearers = _clearers(on, width, height, y)
        if clearers and any((x, y) in on for x in range(width)):
            shown = ", ".join(clearers[:SHOWN_CLEARERS])
            if len(clearers) > SHOWN_CLEARERS:
                shown += say(N_(" and {count} more")).format(count=len(clearers) - SHOWN_CLEARERS)
            near.append(say(N_("row {row} is one piece from clearing: {placements}")).format(
                row=y, placements=shown))
    parts.extend(near or [say(N_("no row is one piece from clearing"))])
    status = say(N_("has drawn this phase")) if entry["drew"] else (
        say(N_("is done this phase")) if entry["done"] else say(N_("may still draw this phase")))
    parts.append(say(N_("pieces in hand: {count}, {status}")).format(count=entry["hand_size"], status=status))
    if entry.get("just_cleared"):
        parts.append(say(N_("just cleared rows {rows}")).format(rows=", ".join(map(str, entry["just_cleared"]))))
    if entry.get("resigned"):
        parts.append(say(N_("has left the game")))
    seat_text = seat_name(names, seat)
    return Part(say(N_("{seat}'s board")).format(seat=seat_text), parts,
                say(N_("details of {seat}'s board")).format(seat=seat_text))


def describe_parts(game: Game, view: dict[str, Any]) -> list[Part]:
    """The parts of the description: the phase, then each player's board."""
    names = [s["name"] for s in view["seats"]]
    phase = [say(N_("phase {phase}; the first to level {target} wins; cells are x,y with 0,0 at the bottom "
                    "left")).format(phase=view["phase"], target=view["target_level"])]
    return [Part(N_("Phase"), phase, N_("phase details")),
            *(_board(names, seat, entry) for seat, entry in enumerate(view["seats"]))]
