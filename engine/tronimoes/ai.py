"""Tronimoes heuristics for the shared agents (`engine.ai`): how the greedy agent breaks ties,
how the planning agent plays its simulated games and judges where they stop."""

from __future__ import annotations

import random

from engine.ai import Heuristics
from engine.core import Game
from engine.tronimoes.game import Tronimoes


def tie_break(game: Game, seat: int, action: str, after: Game) -> tuple[float, ...]:
    """Prefer laying to spacers to drawing to passing; keep your own line alive with room around
    its open end; play doubles (another turn) and heavy tiles early."""
    assert isinstance(after, Tronimoes)
    word = action.split()[0]
    kind = {"draw": 1, "pass": 0, "spacer": 2, "ready": 3}.get(word, 3)
    alive = 0.0 if after.seats[seat].dead else 1.0
    room = 0.0
    if alive and seat < len(after.lines):
        for end in after.head(after.lines[seat]).open_squares:
            room += sum(1 for n in after.grid.neighbours[end] if not after.occupied[n])
    pips = 0.0
    double = 0.0
    if kind == 3 and ":" in word:
        low, high = (int(p) for p in word.split(":"))
        pips = low + high
        double = 1.0 if low == high else 0.0
    if word == "pass" and len(action.split()) == 2:
        foot = after.grid.parse_square(action.split()[1])
        room = sum(1 for n in after.grid.neighbours[foot] if not after.occupied[n])
    return (alive, kind, double, room, pips)


def rollout_policy(game: Game, seat: int, rng: random.Random) -> str:
    """A quick, sensible player: lay a tile if one can be laid (a double or a heavy tile rather
    than not), else place the spacer, else draw, else pass or ready."""
    actions = game.legal_actions(seat)
    lays = [a for a in actions if a[0].isdigit()]
    if lays:
        weights = [1.0 + _pips(a) / 6 for a in lays]
        return rng.choices(lays, weights)[0]
    for word in ("spacer", "draw", "ready", "pass"):
        chosen = [a for a in actions if a.startswith(word)]
        if chosen:
            return rng.choice(chosen)
    return rng.choice(actions)


def leaf_value(game: Game, seat: int) -> float:
    """Fewer tiles in hand and a longer living line of one's own are worth a little (the
    reference site's planner weighs both by 0.05); a dead own line costs."""
    assert isinstance(game, Tronimoes)
    me = game.seats[seat]
    length = len(game.lines[seat].tiles) if seat in game.lines else 0
    return -0.05 * len(me.hand) + 0.05 * length - (0.3 if me.dead else 0.0)


def _pips(action: str) -> int:
    low, high = action.split()[0].split(":")
    return int(low) + int(high)


class TronimoesHeuristics(Heuristics):
    """Tronimoes for the shared agents: the functions above."""

    def playing(self, game: Game, seat: int) -> list[str]:
        """Every legal action but moving a spacer that is already down: the rules let a new
        spacer replace the old one any number of times, and an agent that preferred the spacer
        to the leader it allows would move it for ever."""
        assert isinstance(game, Tronimoes)
        legal = game.legal_actions(seat)
        if game.spacer is None:
            return legal
        return [a for a in legal if not a.startswith("spacer")] or legal

    easy_slips = 0.75
    """Random play won 7 of 20 two-player games against easy at 0.75 (6 of 30 at 0.65, 15.5 of 30 at 0.85)."""

    tie_break = staticmethod(tie_break)
    rollout = staticmethod(rollout_policy)
    leaf_value = staticmethod(leaf_value)
