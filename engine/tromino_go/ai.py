"""Tromino Go heuristics for the shared agents (`engine.ai`): take away the opponent's outside
edges, keep your own, and never forfeit or concede when something else is legal."""

from __future__ import annotations

from engine.core import Game
from engine.tromino_go.game import TrominoGo


def tie_break(game: Game, seat: int, action: str, after: Game) -> tuple[float, ...]:
    assert isinstance(after, TrominoGo) and isinstance(game, TrominoGo)
    word = action.split()[0]
    if word in ("forfeit", "concede", "accept"):
        return (-1.0, 0.0, 0.0)
    if after.round != game.round:
        return (0.0, 0.0, 0.0)
    analysis = after.analysis()
    mine = sum(analysis.out[i] for i, p in enumerate(after.pieces) if p.owner == seat)
    theirs = sum(analysis.out[i] for i, p in enumerate(after.pieces) if p.owner != seat)
    return (1.0, -float(theirs), float(mine))
