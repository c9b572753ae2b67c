"""Tronix moves grouped to be read aloud: the cards that may be laid at each cell ("a card at
0,1: play 0,1, then NE, EW"), turned where they lie, or moved (God Mode)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from renderers.common import N_, say
from renderers.spoken import Group, grouped

if TYPE_CHECKING:
    from engine.core import Game


def spoken_groups(game: Game, seat: int) -> list[Group]:
    """`seat`'s legal moves: one group a cell to lay at, a card to turn, a card to move."""

    def title(action: str) -> str:
        words = action.split(" ")
        if words[0] == "play":
            return say(N_("a card at {cell}")).format(cell=words[1])
        if words[0] == "turn":
            return say(N_("turning the card at {cell}")).format(cell=words[1])
        if words[0] == "move":
            return say(N_("moving the card at {cell}")).format(cell=words[1])
        return say(N_("other moves"))

    def prefix_words(action: str) -> int:
        words = action.split(" ")
        return len(words) - 1 if words[0] in ("play", "turn", "move") else 0

    return grouped(game.legal_actions(seat), title, prefix_words)
