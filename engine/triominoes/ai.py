"""Triominoes heuristics for the shared agents (`engine.ai`): among actions that score the same
now, keep the hand that fits the table in the most ways (tiles that fit more open corners)."""

from __future__ import annotations

from engine.ai import Heuristics
from engine.core import Game
from engine.triominoes.game import Triominoes


def tie_break(game: Game, seat: int, action: str, after: Game) -> tuple[float, ...]:
    assert isinstance(after, Triominoes)
    if after.round != getattr(game, "round", after.round) or after.outcome() is not None:
        return (1e9,)
    hand = set(after.seats[seat].hand)
    return (float(sum(len(after.board.placements(tile)) for tile in hand)),)


class TriominoesHeuristics(Heuristics):
    """Triominoes for the shared agents: the functions above."""

    tie_break = staticmethod(tie_break)
