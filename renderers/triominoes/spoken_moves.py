"""Triominoes moves grouped to be read aloud: the tiles that fit each open spot, the spot named
and numbered as the picture and the board in words number it, with the numbers it needs ("spot
3 r1c0, needs 0-0-?: 0-0-3 r1c0, 0-0-4 r1c0"), then drawing and passing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.triominoes.geometry import Point, corners, read_cell
from renderers.common import N_, say
from renderers.spoken import Group, grouped
from renderers.triominoes.pictures import shown

if TYPE_CHECKING:
    from engine.core import Game


def spoken_groups(game: Game, seat: int) -> list[Group]:
    """`seat`'s legal moves: one group an open spot, and the rest."""
    tiles, spots, _banner = shown(game.view(seat))
    values: dict[Point, int] = {}
    for entry in tiles:
        cell = read_cell(entry["at"])
        if cell is not None:
            values.update(zip(corners(cell), entry["corners"], strict=True))
    numbered = {spot: number for number, spot in enumerate(spots, start=1)}

    def title(action: str) -> str:
        words = action.split(" ")
        if len(words) != 2:
            return say(N_("other moves"))
        cell = read_cell(words[1])
        needs = "-".join(str(values.get(p, "?")) for p in corners(cell)) if cell is not None else "?"
        if words[1] in numbered:
            return say(N_("spot {number} {cell}, needs {corners}")).format(number=numbered[words[1]], cell=words[1],
                                                                           corners=needs)
        return say(N_("at {cell}, needs {corners}")).format(cell=words[1], corners=needs)

    return grouped(game.legal_actions(seat), title, lambda action: 0)
