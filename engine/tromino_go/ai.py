"""Tromino Go heuristics for the shared agents (`engine.ai`): never hand the opponent points
(surrounding your own group) when something else is legal, take away the opponent's outside
edges, keep your own, and never forfeit or concede."""

from __future__ import annotations

from engine.core import Game
from engine.tromino_go.game import TrominoGo


def tie_break(game: Game, seat: int, action: str, after: Game) -> tuple[float, ...]:
    assert isinstance(after, TrominoGo) and isinstance(game, TrominoGo)
    word = action.split()[0]
    if word in ("forfeit", "concede", "accept"):
        return (-100.0, 0.0, 0.0)
    given = float(after.points[1 - seat] - game.points[1 - seat])
    if after.round != game.round:
        return (-given, 0.0, 0.0)
    analysis = after.analysis()
    mine = sum(analysis.out[i] for i, p in enumerate(after.pieces) if p.owner == seat)
    theirs = sum(analysis.out[i] for i, p in enumerate(after.pieces) if p.owner != seat)
    return (-given, -float(theirs), float(mine))
