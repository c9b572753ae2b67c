"""Tromino Go heuristics for the shared agents (`engine.ai`), in order of importance:

1. never hand the opponent points (surrounding your own group) when something else is legal;
2. keep your weakest group breathing: the fewest outside edges of any of your groups, counted
   up to 4 (a group with 1 or 2 left is one play from being surrounded);
3. squeeze the opponent's weakest group (fewest outside edges);
4. take away the opponent's outside edges in all, then keep your own;
and never forfeit or concede. Against random play this wins 100 rounds of 100 (the older
heuristic, 2 and 3 left out, won 80): `python bench/tromino_go.py --rounds 100`."""

from __future__ import annotations

from engine.ai import Heuristics
from engine.core import Game
from engine.tromino_go.game import TrominoGo
from engine.tromino_go.geometry import groups

BREATHING = 4
"""Outside edges beyond which a group counts as safe."""


def weakest_groups(game: TrominoGo, ceiling: dict[int, int] | None = None) -> dict[int, int]:
    """Each player's fewest outside edges of any of their groups, counted up to the player's
    `ceiling` (what a player with no group gets; BREATHING for both by default)."""
    analysis = game.analysis()
    pieces = game.pieces
    weakest = dict(ceiling) if ceiling is not None else {0: BREATHING, 1: BREATHING}
    for group in groups([p.cells for p in pieces], [p.owner for p in pieces],
                        single=game.options.group_mode == "single"):
        owner = pieces[group[0]].owner
        weakest[owner] = min(weakest[owner], sum(analysis.out[i] for i in group))
    return weakest


def tie_break(game: Game, seat: int, action: str, after: Game) -> tuple[float, ...]:
    assert isinstance(after, TrominoGo) and isinstance(game, TrominoGo)
    word = action.split()[0]
    if word in ("forfeit", "concede", "accept"):
        return (-100.0, 0.0, 0.0, 0.0, 0.0)
    given = float(after.points[1 - seat] - game.points[1 - seat])
    if after.round != game.round:
        return (-given, 0.0, 0.0, 0.0, 0.0)
    weakest = weakest_groups(after, {seat: BREATHING, 1 - seat: 10_000})
    analysis = after.analysis()
    pieces = after.pieces
    mine = sum(analysis.out[i] for i, p in enumerate(pieces) if p.owner == seat)
    theirs = sum(analysis.out[i] for i, p in enumerate(pieces) if p.owner != seat)
    return (-given, float(weakest[seat]), -float(weakest[1 - seat]), -float(theirs), float(mine))


def leaf_value(game: Game, seat: int) -> float:
    """Where a simulation stops mid-round: a point (about what a round is worth) for breathing
    room, the seat's weakest group against the opponent's, each counted up to BREATHING."""
    assert isinstance(game, TrominoGo)
    if game.winner is not None:
        return 0.0
    weakest = weakest_groups(game)
    return (weakest[seat] - weakest[1 - seat]) / BREATHING


class TrominoGoHeuristics(Heuristics):
    """Tromino Go for the shared agents: greedy breaks ties by `tie_break`; simulated games and
    the random agent never concede or forfeit (`playing`). A simulated action costs several
    copies and analyses, so simulations are short (`depth` actions) and judged by `leaf_value`;
    at the default 24 actions a 2-second budget allowed about 12 simulations in all."""

    easy_slips = 0.95
    """Random play won 6 of 20 two-player games against easy at 0.95 (none of 20 at 0.92, 5 of 8 at 0.97)."""

    depth = 4
    candidates = 6

    tie_break = staticmethod(tie_break)
    leaf_value = staticmethod(leaf_value)

    def playing(self, game: Game, seat: int) -> list[str]:
        """Plays, moves or the forced pass: never a concession, an acceptance or a forfeit (which
        uniform sampling would mostly pick: they are most of the legal actions), unless nothing
        else is legal."""
        legal = game.legal_actions(seat)
        return [a for a in legal if a.split()[0] in ("play", "move", "pass")] or legal
