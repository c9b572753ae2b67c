"""The Tromino Go grid in words (see `renderers.description`): the round and its phase, each
group of trominoes with its owner, its pieces (as `play` writes them: anchor and orientation)
and its open (outside) edges, what is surrounded, the No Man's Land, the trominoes that may move
and the open concessions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import Game
from engine.tromino_go.geometry import analyse, groups, shape_of
from renderers.common import N_, say
from renderers.description import Part, seat_name
from renderers.tromino_go.text_board import shown


def _piece(piece: Mapping[str, Any]) -> str:
    shape = shape_of(tuple(c) for c in piece["cells"])
    if shape is None:  # never on a legal grid; say its cells
        return f"{piece['letter']} " + " ".join(f"{x},{y}" for x, y in piece["cells"])
    orientation, (x, y) = shape
    return f"{piece['letter']} {x},{y} {orientation}"


def _cells(cells: list[list[int]]) -> str:
    return " ".join(f"{x},{y}" for x, y in cells)


def describe_parts(game: Game, view: dict[str, Any]) -> list[Part]:
    """The parts of the description, in the order a player needs them."""
    grid = shown(view)
    names = view["names"]
    round_items = [say(N_("round {round}")).format(round=view["round"])]
    if grid is not view:
        round_items.append(say(N_("the grid shows the round that just ended: {result}")).format(
            result=say(grid["result"])))
    if view.get("winner") is None and grid is view:
        if view["phase"] == "moving":
            round_items.append(say(N_("moving phase: a round won now scores double")))
        else:
            round_items.append(say(N_("{count} of 30 trominoes placed")).format(count=view["placed"]))
        round_items.append(say(N_("{seat} plays the letter {letter}")).format(
            seat=seat_name(names, view["mover"]), letter=view["letter"]))
    pieces = grid["pieces"]
    cells = [frozenset(tuple(c) for c in p["cells"]) for p in pieces]
    owners = [p["owner"] for p in pieces]
    analysis = analyse(cells)
    single = getattr(game.options, "group_mode", "component") == "single"
    surrounded_ids = set(grid.get("surrounded", ()))
    group_items: list[tuple[int, str]] = []
    surrounded_items: list[str] = []
    for group in sorted(groups(cells, owners, single), key=lambda g: (owners[g[0]], min(g))):
        owner = seat_name(names, owners[group[0]])
        listed = ", ".join(_piece(pieces[i]) for i in sorted(group))
        edges = sum(analysis.out[i] for i in group)
        if all(pieces[i]["id"] in surrounded_ids for i in group) or edges == 0:
            surrounded_items.append(say(N_("{owner}'s {pieces}")).format(owner=owner, pieces=listed))
            continue
        template = N_("{owner}: {pieces} (1 open edge)") if edges == 1 else N_("{owner}: {pieces} ({edges} open edges)")
        group_items.append((edges, say(template).format(owner=owner, pieces=listed, edges=edges)))
    nml = [_cells(grid["nml"])] if grid["nml"] else []
    by_id = {p["id"]: p for p in pieces}
    movable = [_piece(by_id[i]) for i in view.get("movable", ()) if i in by_id] if grid is view else []
    concessions = [say(N_("{seat} concedes {points}")).format(seat=seat_name(names, c["seat"]), points=c["points"])
                   for c in view.get("concessions", ())] if view.get("winner") is None else []
    return [
        Part(N_("Round"), round_items, N_("round details")),
        Part(N_("Surrounded"), surrounded_items, N_("surrounded groups")),
        Part(N_("Groups, fewest open edges (edges facing the outside) first"),
             [text for _, text in sorted(group_items, key=lambda item: item[0])], N_("groups")),
        Part(N_("No Man's Land (enclosed empty cells)"), nml, N_("No Man's Land")),
        Part(N_("May move"), movable, N_("trominoes that may move")),
        Part(N_("Open concessions"), concessions, N_("concessions")),
    ]
