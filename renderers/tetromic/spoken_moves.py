"""Tetromic moves grouped to be read aloud: each piece in the hand with the corners it may be
placed at ("the O piece: play O, then 0,0, 0,1"), then drawing, skipping and discarding."""

from __future__ import annotations

from typing import TYPE_CHECKING

from renderers.common import N_, say
from renderers.spoken import Group, grouped

if TYPE_CHECKING:
    from engine.core import Game


def spoken_groups(game: Game, seat: int) -> list[Group]:
    """`seat`'s legal moves: one group a kind of piece (its turnings sharing a run each), and
    the rest."""

    def title(action: str) -> str:
        words = action.split(" ")
        if words[0] == "play" and len(words) == 3:
            return say(N_("the {piece} piece, by its lower-left corner")).format(piece=words[1][0])
        return say(N_("other moves"))

    def prefix_words(action: str) -> int:
        return 2 if action.startswith("play ") else 0

    return grouped(game.legal_actions(seat), title, prefix_words)
