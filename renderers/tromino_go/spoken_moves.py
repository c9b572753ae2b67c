"""Tromino Go moves grouped to be read aloud: the placements at each cell ("at 0,1: play 0,1,
then NE, SW"), the concessions, and the rest (accepting, passing, forfeiting)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from renderers.common import N_, say
from renderers.spoken import Group, grouped

if TYPE_CHECKING:
    from engine.core import Game


def spoken_groups(game: Game, seat: int) -> list[Group]:
    """`seat`'s legal moves: one group a cell a piece may go on or move from, the points it may
    concede, and the rest."""

    def title(action: str) -> str:
        words = action.split(" ")
        if words[0] == "play":
            return say(N_("a piece at {cell}")).format(cell=words[1])
        if words[0] == "move":
            return say(N_("moving the piece at {cell}")).format(cell=words[1])
        if words[0] == "concede":
            return say(N_("conceding points"))
        return say(N_("other moves"))

    def prefix_words(action: str) -> int:
        words = action.split(" ")
        return {"play": 2, "move": len(words) - 1, "concede": 1}.get(words[0], 0)

    return grouped(game.legal_actions(seat), title, prefix_words)
