"""The Triominoes board in words (see `renderers.description`): the numbered open spots the
picture shows and the numbers each one's corners need, the hexagons one tile from closing, the
last tile laid, and how many tiles each hand and the well hold."""

from __future__ import annotations

from typing import Any

from engine import Game
from engine.triominoes.geometry import Cell, Point, cell_name, corners, points_up, read_cell, ring
from renderers.common import N_, say
from renderers.description import Part
from renderers.triominoes.pictures import shown


def _cell(text: str) -> Cell:
    cell = read_cell(text)
    assert cell is not None, text
    return cell


def _values(tiles: list[dict[str, Any]]) -> dict[Point, int]:
    values: dict[Point, int] = {}
    for entry in tiles:
        for point, number in zip(corners(_cell(entry["at"])), entry["corners"], strict=True):
            values[point] = number
    return values


def _needs(cell: Cell, values: dict[Point, int]) -> str:
    wanted = "-".join(str(values[p]) if p in values else "?" for p in corners(cell))
    if points_up(cell):
        return say(N_("up, needs {corners}")).format(corners=wanted)
    return say(N_("down, needs {corners}")).format(corners=wanted)


def describe_parts(game: Game, view: dict[str, Any]) -> list[Part]:
    """The parts of the description, in the order a player needs them."""
    tiles, spots, banner = shown(view)
    values = _values(tiles)
    numbered = {_cell(spot): number for number, spot in enumerate(spots, start=1)}
    game_items = [say(N_("round {round}")).format(round=view["round"])]
    if banner:
        game_items.append(say(banner))
    if view.get("opening"):
        game_items.append(say(N_("the round opens with {tiles}")).format(tiles=" / ".join(view["opening"])))
    last = view.get("last") or {}
    if not banner and last.get("kind") == "lay":
        text = say(N_("the last tile, {tile}, lies at {cell} and scored {points}")).format(
            tile=last["tile"], cell=last["cell"], points=last["points"])
        if last.get("hexagons"):
            text += say(N_(", closing a hexagon"))
        if last.get("bridge"):
            text += say(N_(", forming a bridge"))
        game_items.append(text)
    spot_items = [say(N_("spot {number} {cell} {needs}")).format(number=number, cell=cell_name(cell),
                                                                     needs=_needs(cell, values))
                  for cell, number in numbered.items()]
    occupied = {_cell(t["at"]) for t in tiles}
    closing: dict[Point, Cell] = {}
    for cell in occupied if not view.get("outcome") else ():
        for point in corners(cell):
            around = ring(point)
            missing = [c for c in around if c not in occupied]
            if len(missing) == 1:
                closing[point] = missing[0]
    hexagons = []
    for point, cell in sorted(closing.items(), key=lambda item: (item[1], item[0])):
        where = (say(N_("spot {number}")).format(number=numbered[cell]) if cell in numbered
                 else say(N_("{cell} (no tile left fits there)")).format(cell=cell_name(cell)))
        hexagons.append(say(N_("around a {number}: a tile at {where} closes it")).format(
            number=values.get(point, "?"), where=where))
    counts = [f"{s['name']} {s['hand_size']}" for s in view["seats"]]
    counts.append(say(N_("the well {count}")).format(count=view["well_size"]))
    return [
        Part(N_("Round"), game_items, N_("round details")),
        Part(N_("Hexagons one tile from closing"), hexagons, N_("hexagons one tile from closing")),
        Part(N_("Open spots (the numbers a tile needs, clockwise from the apex of a spot pointing up or the "
                "top-left of one pointing down; ? is any number)"), spot_items, N_("open spots")),
        Part(N_("Tiles in hand"), counts, N_("tile counts")),
    ]
