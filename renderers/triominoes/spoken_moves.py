"""Triominoes moves grouped to be read aloud: the tiles that fit each open spot ("at r1c0:
2-2-4 r1c0, 4-2-2 r1c0"), then drawing and passing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from renderers.common import N_, say
from renderers.spoken import Group, grouped

if TYPE_CHECKING:
    from engine.core import Game


def spoken_groups(game: Game, seat: int) -> list[Group]:
    """`seat`'s legal moves: one group an open spot (its cell), and the rest."""

    def title(action: str) -> str:
        words = action.split(" ")
        if len(words) == 2:
            return say(N_("at {cell}")).format(cell=words[1])
        return say(N_("other moves"))

    return grouped(game.legal_actions(seat), title, lambda action: 0)
