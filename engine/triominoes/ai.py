"""Triominoes heuristics for the shared agents (`engine.ai`): among actions that score the same
now, keep the hand that fits the table in the most ways (tiles that fit more open corners);
simulate like the greedy players the bot meets, to the end of the round."""

from __future__ import annotations

import random

from engine.ai import Heuristics
from engine.core import Game
from engine.triominoes.game import Triominoes
from engine.triominoes.tiles import value


def tie_break(game: Game, seat: int, action: str, after: Game) -> tuple[float, ...]:
    assert isinstance(after, Triominoes)
    if after.round != getattr(game, "round", after.round) or after.outcome() is not None:
        return (1e9,)
    hand = set(after.seats[seat].hand)
    return (float(sum(len(after.board.placements(tile)) for tile in hand)),)


def leaf_value(game: Game, seat: int) -> float:
    """Where a simulation stops mid-round, half of what going out would be worth against the
    hands as they stand: the rivals' tiles against the seat's own (tiles are points for whoever
    goes out)."""
    assert isinstance(game, Triominoes)
    if game.outcome() is not None:
        return 0.0
    hands = {i: sum(map(value, game.seats[i].hand)) for i in game.active()}
    if seat not in hands or len(hands) < 2:
        return 0.0
    others = [total for i, total in hands.items() if i != seat]
    return 0.5 * (sum(others) / len(others) - hands[seat])


def rollout_policy(game: Game, seat: int, rng: random.Random) -> str:
    """A quick player much like the greedy players it is usually up against: the placement that
    scores most now (ties drawn at random), or else the draw or pass the rules leave."""
    assert isinstance(game, Triominoes)
    scored = game.scored_placements(seat)
    if not scored:
        return game.legal_actions(seat)[0]
    best = max(points for points, _ in scored)
    return rng.choice([action for points, action in scored if points == best])


class TriominoesHeuristics(Heuristics):
    """Triominoes for the shared agents: the functions above. A placement scores tens of points,
    so the planner leaves greedy's favourite only for an action at least 5 points better on
    average, and by two standard errors. At the bot's 2 s (about 1,000 simulations a move) the
    planner won 17 of 48 four-player games against three greedy players (chance is 12); allowed to
    see every hand (`bench/ai.py --sees-all`), 10 of 12, and seeing the hands alone
    (`--sees-hands`, 300 simulations), 36 of 48 against 14 of 48 on the same deals: the hidden
    tiles, not the search, hold it back. What a greedy player's lays tell about its hand (no tile
    that would have scored more) hardly narrows the re-deals (16.3% of hidden tiles dealt to the
    right hand, 18.3% with it) and won nothing over 24 deals, so the re-deals use only the draws.
    Two players at 120 simulations a move: 13.5 of 20 against greedy, mean margin +67."""

    easy_slips = 0.3
    """Random play won 10 of 30 two-player games against easy at 0.3 (13 of 30 at 0.5)."""

    decisive = 5.0

    certainty = 2.0
    """Simulations to the round's end swing by a hundred points and more (whoever goes out takes
    every other hand), so the best of eight averages is often best by luck: it must beat greedy's
    favourite by two standard errors, not one."""

    depth = 100
    """Long enough for a simulation to reach the end of the round (a round from its third move
    took a median of 55 actions at two players and 36 at four, at most 99), which decides it."""

    tie_break = staticmethod(tie_break)
    rollout = staticmethod(rollout_policy)
    leaf_value = staticmethod(leaf_value)
