"""Agents that choose an action for a seat, shared by every game: `random`, `greedy` and the
planning agent `strong` (the default `bot`).

No agent looks at anything its seat could not see at the table. Each plans on
`Game.determinize(seat, rng)`: a copy with every hidden tile, card or draw dealt again, and the
generator `rng` is seeded from the seat's own view of the game, never from the game's seed, so
re-dealing what the seat cannot see never changes what it does.

Each game's heuristics live with the game (`engine/<game>/ai.py`) and register here:
`TIE_BREAKS[name]` orders actions of equal immediate gain for the greedy agent,
`ROLLOUT_POLICIES[name]` plays the planning agent's simulated games, `LEAF_VALUES[name]` judges
where a simulation stops, `GAINS[name]` says what an action won (team games: the team's cards
minus the other team's), `RANKERS[name]` replaces the greedy agent's ranking altogether. A game
without them gets sensible defaults.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable
from typing import Protocol

from engine.core import Game


class Agent(Protocol):
    name: str

    def choose(self, game: Game, seat: int) -> str:
        """A legal action for `seat`, which must have at least one."""
        ...


TieBreak = Callable[[Game, int, str, Game], tuple[float, ...]]
"""(game before, seat, action, game after) -> a key; higher is better among equal score gains."""
RolloutPolicy = Callable[[Game, int, random.Random], str]
"""(game, seat to act, generator) -> a legal action, quickly (simulations make thousands)."""
LeafValue = Callable[[Game, int], float]
"""(game where a simulation stopped, seat) -> how good it looks for the seat beyond its score."""

Gain = Callable[[Game, int, Game], float]
"""(game before, seat, game after) -> what an action won the seat (by default its score's change;
a team game counts its team's cards minus the other team's)."""

Ranker = Callable[[Game, int], list[str]]
"""(game, seat) -> every legal action of the seat, best first, by the game's own greedy rule:
for games with thousands of actions a turn, where trying each on a copy would be slow."""

TIE_BREAKS: dict[str, TieBreak] = {}
ROLLOUT_POLICIES: dict[str, RolloutPolicy] = {}
LEAF_VALUES: dict[str, LeafValue] = {}
GAINS: dict[str, Gain] = {}
RANKERS: dict[str, Ranker] = {}


def gain(before: Game, seat: int, after: Game) -> float:
    """What going from `before` to `after` won `seat` (see `GAINS`)."""
    counted = GAINS.get(before.name)
    if counted is not None:
        return counted(before, seat, after)
    return after.scores()[seat] - before.scores()[seat]


def seat_rng(game: Game, seat: int, purpose: str) -> random.Random:
    """A generator fixed by what `seat` can see (its view of the game and the move number) and
    nothing else."""
    view = json.dumps(game.view(seat), sort_keys=True, default=str)
    digest = hashlib.sha256(f"{purpose}:{seat}:{len(game.log)}:{view}".encode()).hexdigest()
    return random.Random(int(digest[:16], 16))


def margin(game: Game, seat: int) -> float:
    """The seat's score minus the best other score (what every agent tries to raise)."""
    scores = game.scores()
    others = [score for index, score in enumerate(scores) if index != seat]
    return scores[seat] - (max(others) if others else 0.0)


class RandomAgent:
    """Any legal action, uniformly."""

    name = "random"

    def choose(self, game: Game, seat: int) -> str:
        return seat_rng(game, seat, "random").choice(game.legal_actions(seat))


class GreedyAgent:
    """The action with the best immediate change of its own score, tried on a copy in which
    everything it cannot see is dealt at random; ties broken by the game's heuristic (see
    `TIE_BREAKS`), then by the action's text so the choice is stable."""

    name = "greedy"

    def choose(self, game: Game, seat: int) -> str:
        return self.ranked(game, seat)[0]

    def ranked(self, game: Game, seat: int) -> list[str]:
        """Every legal action, best first."""
        ranker = RANKERS.get(game.name)
        if ranker is not None:
            return ranker(game, seat)
        actions = game.legal_actions(seat)
        if len(actions) == 1:
            return actions
        sample = game.determinize(seat, seat_rng(game, seat, "greedy"))
        tie_break = TIE_BREAKS.get(game.name, _no_tie_break)
        keyed = []
        for action in actions:
            after = sample.clone()
            after.apply(seat, action)
            keyed.append(((gain(sample, seat, after), *tie_break(sample, seat, action, after)), action))
        keyed.sort(key=lambda item: (tuple(-k for k in item[0]), item[1]))
        return [action for _, action in keyed]


class PlanningAgent:
    """Determinised Monte-Carlo planning: deal what the seat cannot see at random many times,
    play each promising action out through the real engine by the game's rollout policy, and
    pick the action with the best average outcome. Works for `budget` seconds (or exactly
    `simulations` simulations, for reproducible tests); falls back to greedy when the budget is
    too small to plan."""

    name = "strong"
    SMALLEST_BUDGET = 0.05
    CANDIDATES = 8
    DEPTH = 24
    DECISIVE = 0.25
    """How much better (in the seat's score margin) a simulated action must do on average to be
    preferred to the greedy agent's favourite."""

    def __init__(self, budget: float = 2.0, simulations: int | None = None) -> None:
        self.budget = budget
        self.simulations = simulations

    def choose(self, game: Game, seat: int) -> str:
        actions = game.legal_actions(seat)
        if len(actions) == 1:
            return actions[0]
        ranked = GreedyAgent().ranked(game, seat)
        if self.simulations is None and self.budget < self.SMALLEST_BUDGET:
            return ranked[0]
        candidates = ranked[:self.CANDIDATES]
        rng = seat_rng(game, seat, "plan")
        totals = dict.fromkeys(candidates, 0.0)
        runs = dict.fromkeys(candidates, 0)
        deadline = time.perf_counter() + self.budget
        made = 0
        while not self._done(made, deadline):
            sample = game.determinize(seat, rng)
            for action in candidates:
                if self._done(made, deadline):
                    break
                simulated = sample.clone()
                simulated.apply(seat, action)
                totals[action] += self._rollout(simulated, seat, rng) - margin(sample, seat)
                runs[action] += 1
                made += 1
        means = {a: totals[a] / runs[a] for a in candidates if runs[a]}
        best = max(means, key=lambda a: (means[a], -candidates.index(a)))
        favourite = candidates[0]
        if favourite in means and means[best] - means[favourite] < self.DECISIVE:
            return favourite  # too little evidence to overrule the game's own heuristic
        return best

    def _done(self, made: int, deadline: float) -> bool:
        if self.simulations is not None:
            return made >= self.simulations
        return made > 0 and time.perf_counter() >= deadline

    def _rollout(self, game: Game, seat: int, rng: random.Random) -> float:
        """Play on from `game` for a while; the seat's margin where it stops, plus the game's
        judgement of that position."""
        policy = ROLLOUT_POLICIES.get(game.name, _sampled_greedy_policy)
        for _ in range(self.DEPTH):
            if game.outcome() is not None:
                break
            waiting = game.to_move()
            actor = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
            game.apply(actor, policy(game, actor, rng))
        return margin(game, seat) + LEAF_VALUES.get(game.name, _no_leaf_value)(game, seat)


def _no_tie_break(game: Game, seat: int, action: str, after: Game) -> tuple[float, ...]:
    return ()


def _sampled_greedy_policy(game: Game, seat: int, rng: random.Random) -> str:
    """The default rollout policy: the greedy agent's pick among a few legal actions drawn at
    random (cheap, and far better than uniform play, which concedes and forfeits)."""
    actions = game.legal_actions(seat)
    if len(actions) == 1:
        return actions[0]
    tried = rng.sample(actions, min(4, len(actions)))
    tie_break = TIE_BREAKS.get(game.name, _no_tie_break)
    best: tuple[tuple[float, ...], str] | None = None
    for action in tried:
        after = game.clone()
        after.apply(seat, action)
        key = (gain(game, seat, after), *tie_break(game, seat, action, after))
        if best is None or key > best[0]:
            best = (key, action)
    assert best is not None
    return best[1]


def _no_leaf_value(game: Game, seat: int) -> float:
    return 0.0


AGENTS: dict[str, Callable[[], Agent]] = {"random": RandomAgent, "greedy": GreedyAgent, "strong": PlanningAgent}
"""Agents by name; "bot" (or "ai") means the strong one."""


def agent(name: str, *, budget: float | None = None) -> Agent:
    """The agent called `name` ("random", "greedy", "strong"; "bot" is strong), planning for at
    most `budget` seconds a move if it plans."""
    key = "strong" if name in ("bot", "ai") else name
    if key not in AGENTS:
        raise ValueError(f"there is no AI called '{name}'; choose one of {', '.join(AGENTS)}")
    if key == "strong" and budget is not None:
        return PlanningAgent(budget)
    return AGENTS[key]()
