"""The `hard` level's planner: information-set Monte-Carlo tree search (Cowling, Powley and
Whitehouse, 2012) over the moves of every player, on re-deals of what the seat cannot see.

Where the planning agent (`engine.ai.PlanningAgent`) plays each candidate out by the game's quick
rollout policy, this search grows a tree of the moves that follow it, the seat's own and the other
players', one re-deal at a time, and plays on by the rollout policy only past the tree's edge. So a
candidate is judged by the best replies found to it and by the seat's best answers to those, not
by what the quick policy happens to play. A node's moves are those legal in the current re-deal;
each is weighed (UCB1) by how often it was legal, so a reply that exists in few re-deals is not
over-trusted. A node grows its list of moves slowly (progressive widening, new moves proposed by
the rollout policy), which keeps the tree deep where a player has hundreds of legal moves.

Determinism is the planning agent's: the same view and simulation count give the same choice.
"""

from __future__ import annotations

import math
import random
import time

from engine.ai import Heuristics, PlanningAgent, margin, play_out, seat_rng
from engine.core import Game

EXPLORATION = 0.7
"""UCB1's exploration constant, on results scaled by their spread across the search."""
WIDENING = 1.0
"""A node that was visited n times may hold 1 + WIDENING * sqrt(n) moves."""
TREE_PLAYERS = 2
"""The most players at which the tree is searched; at fuller tables `hard` keeps the planning
agent's flat comparison with its longer time, as before the tree. Against three `normal` players
in Tronimoes, on the same 8 deals, the tree won 1.5 games outright and finished above each of them
in 48% of pairings; the flat comparison won 2.3 and 58%."""


class Node:
    """The statistics of one move in the tree: how often it was played in the search, its
    total result for the player who made it, and how often it was legal when its parent was
    visited."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0


class TreeSearchAgent(PlanningAgent):
    """Information-set Monte-Carlo tree search among the planning agent's candidates (see the
    module's docstring), within the same budget or simulation count rules, between two players
    (`TREE_PLAYERS`) in games that allow it (`Heuristics.tree_search`); elsewhere the planning
    agent's own comparison."""

    name = "hard"
    tree: Node | None = None
    """The last search's tree: its root, whose children are the candidates."""

    def _plan(self, game: Game, seat: int, candidates: list[str], known: Heuristics, deadline: float) -> str:
        if not known.tree_search or game.players > TREE_PLAYERS:
            return super()._plan(game, seat, candidates, known, deadline)
        rng = seat_rng(game, seat, "plan")
        start = known.round_of(game)
        root = self.tree = Node()
        for action in candidates:
            root.children[action] = Node()
        spread = _Spread()
        made = 0
        started = time.perf_counter()
        while not self._done(made, deadline, started):
            sample = game.determinize(seat, rng)
            before = [margin(sample, s) for s in range(sample.players)]
            path = self._descend(root, sample, seat, candidates, known, rng, start, spread.deviation())
            end = self._rollout_all(known, sample, rng, start, known.depth + 1 - len(path))
            for node, actor in path:
                node.visits += 1
                node.total += end[actor] - before[actor]
            spread.add(end[seat] - before[seat])
            made += 1
        self.made = made
        return _chosen(candidates, root, known.decisive)

    def _descend(self, root: Node, game: Game, seat: int, candidates: list[str], known: Heuristics,
                 rng: random.Random, start: object, scale: float) -> list[tuple[Node, int]]:
        """Walk from the root down the tree in `game` (applying each move to it) until a move
        played for the first time or the round's end; the nodes played, each with the seat that
        made its move. `scale`: the spread of results, which UCB1's values are divided by."""
        path: list[tuple[Node, int]] = []
        node, actor, moves = root, seat, candidates
        while True:
            chosen = self._select(node, moves, scale)
            child = node.children[chosen]
            game.apply(actor, chosen)
            path.append((child, actor))
            if child.visits == 0 or known.round_over(start, game):
                return path
            node = child
            waiting = game.to_move()
            actor = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
            moves = self._moves(node, game, actor, known, rng)

    @staticmethod
    def _moves(node: Node, game: Game, actor: int, known: Heuristics, rng: random.Random) -> list[str]:
        """The moves of `node` legal in `game` now, after widening the node by one move the
        rollout policy proposes when its visits allow, or when none of its moves is legal here
        (that proposal is then taken as it is)."""
        legal = set(known.playing(game, actor))
        moves = [action for action in node.children if action in legal]
        if moves and len(node.children) >= 1 + WIDENING * math.sqrt(node.visits):
            return moves
        proposal = _proposed(known, game, actor, rng)
        if (proposal in legal or not moves) and proposal not in moves:
            node.children.setdefault(proposal, Node())
            moves.append(proposal)
        return moves

    @staticmethod
    def _select(node: Node, moves: list[str], scale: float) -> str:
        """The move to play: one not yet played first (in the order given), else the best by
        UCB1 counted over the visits in which each move was legal."""
        for action in moves:
            node.children[action].available += 1
        for action in moves:
            if node.children[action].visits == 0:
                return action
        best, best_value = moves[0], -math.inf
        for action in moves:
            child = node.children[action]
            value = child.total / child.visits / scale + EXPLORATION * math.sqrt(
                math.log(child.available) / child.visits)
            if value > best_value:
                best, best_value = action, value
        return best

    @staticmethod
    def _rollout_all(known: Heuristics, game: Game, rng: random.Random, start: object, depth: int) -> list[float]:
        """Play on by the rollout policy for `depth` actions at most, as the planning agent does
        past its candidate; every seat's margin where it stops (plus the game's judgement of
        what is left, short of the round's end)."""
        if play_out(known, game, rng, start, depth):
            return [margin(game, s) for s in range(game.players)]
        return [margin(game, s) + known.leaf_value(game, s) for s in range(game.players)]


def _proposed(known: Heuristics, game: Game, actor: int, rng: random.Random) -> str:
    """The rollout policy's move for `actor`, as `legal_actions` lists it (a policy that writes
    its own notation is read back), so the same move is the same node in every re-deal."""
    proposal = known.rollout(game, actor, rng)
    return proposal if known.listed_rollouts else game.parse(actor, proposal)


class _Spread:
    """The running standard deviation of the results added (Welford's method); 1 until there
    are two."""

    def __init__(self) -> None:
        self.count, self.mean, self.square = 0, 0.0, 0.0

    def add(self, value: float) -> None:
        self.count += 1
        delta = value - self.mean
        self.mean += delta / self.count
        self.square += delta * (value - self.mean)

    def deviation(self) -> float:
        return max(math.sqrt(self.square / (self.count - 1)), 1e-6) if self.count > 1 else 1.0


def _chosen(candidates: list[str], root: Node, decisive: float) -> str:
    """The candidate the search played most (UCB1 plays the best most), ties to the better
    mean; the first (the favourite) unless that one was played more often than it and did
    better by more than `decisive`: a candidate tried once, however lucky, never overrides it."""
    favourite = root.children[candidates[0]]
    best = max(candidates, key=lambda a: (root.children[a].visits, _mean(root.children[a]), -candidates.index(a)))
    chosen = root.children[best]
    if chosen.visits > favourite.visits and _mean(chosen) - _mean(favourite) > decisive:
        return best
    return candidates[0]


def _mean(node: Node) -> float:
    return node.total / node.visits if node.visits else -math.inf
