"""Agents that choose an action for a seat, shared by every game: `random`, `greedy`, `easy`
(greedy that sometimes plays any legal move) and the planning agent (`normal`). The levels
players choose from, by name, are `engine.levels`; the `hard` level's tree search is
`engine.tree_search`.

Determinism: `random`, `greedy` and `easy` choose from the seat's view alone (`seat_rng`), so a
table's seed and log reproduce their every choice; the planning levels do too when given a number
of simulations, and on a time budget (the bot's) how far they get depends on the machine, so the
referee logs each choice as made (the actor `ai:<level>`), and replays read the log.

No agent looks at anything its seat could not see at the table. Each plans on
`Game.determinize(seat, rng)`: a copy with every hidden tile, card or draw dealt again, and the
generator `rng` is seeded from the seat's own view of the game, never from the game's seed, so
re-dealing what the seat cannot see never changes what it does.

What an agent knows about a particular game lives with the game: `engine/<game>/ai.py` defines
a `Heuristics` subclass (how to rank actions, how to play a simulated game quickly, how to judge
where a simulation stops, how deep and wide to plan) and registers it in `HEURISTICS`. A game
without one gets `Heuristics()`, whose defaults work for any game.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from typing import Protocol

from engine.core import Game


class Agent(Protocol):
    name: str

    def choose(self, game: Game, seat: int) -> str:
        """A legal action for `seat`, which must have at least one."""
        ...


class Heuristics:
    """What the shared agents know about one game. Every method sees only what it is given: the
    agents pass a determinised copy, never the real game, wherever something is hidden."""

    depth = 24
    """How many actions a simulated game goes on past the candidate before it is judged."""
    candidates = 8
    """How many of the greedy ranking's best actions the planning agent weighs."""
    decisive = 0.25
    """How much better (in the seat's score margin, on average) a simulated action must do than
    the favourite (see `favourite`) to be preferred to it."""
    certainty = 1.0
    """By how many standard errors of the difference (paired over the shared deals) the best
    simulated action must beat the favourite to be preferred to it. The best of several noisy
    averages looks better than it is, so a game whose simulations vary widely asks for more."""
    easy_slips = 0.5
    """How often the `easy` level plays any legal move that plays on instead of greedy's best
    (calibrated per game so a player choosing random legal moves wins about a third of
    two-player games against it: `bench/ai.py --seat easy --against random`)."""

    tree_search = True
    """Whether the `hard` level searches a tree of every player's replies
    (`engine.tree_search`); a game where replies change little keeps the planning agent's
    flat comparison, which makes more simulations in the same time."""

    listed_rollouts = True
    """Whether `rollout` returns actions exactly as `Game.legal_actions` lists
    them, so simulations may play them without reading them again (`Game.apply_listed`)."""

    def round_of(self, game: Game) -> object:
        """What identifies the round `game` is in: a simulation stops once it changes or the game
        waits between rounds (`round_over`). By default the game's `round` attribute, if any."""
        return getattr(game, "round", None)

    def round_over(self, start: object, game: Game) -> bool:
        """Whether a simulation begun in round `start` (`round_of`) has reached that round's
        end: the game is over, waits for players to be ready, or has dealt another round."""
        return game.outcome() is not None or game.between_rounds() or self.round_of(game) != start

    def gain(self, before: Game, seat: int, after: Game) -> float:
        """What going from `before` to `after` won `seat`: by default its score's change."""
        return after.scores()[seat] - before.scores()[seat]

    def tie_break(self, game: Game, seat: int, action: str, after: Game) -> tuple[float, ...]:
        """A key ordering actions of equal gain (`game` before the action, `after` it), higher
        is better (by default, none)."""
        return ()

    def ranked(self, game: Game, seat: int) -> list[str] | None:
        """Every legal action of the seat, best first, by the game's own greedy rule; or None to
        let the greedy agent try each action on a copy and rank it by gain and tie-break (games
        with thousands of actions a turn rank without copies)."""
        return None

    def playing(self, game: Game, seat: int) -> list[str]:
        """The seat's legal actions that play the game on, the only ones the agents weigh: by
        default all of them; a game leaves out giving up (Tromino Go's `concede` and `forfeit`)
        and moves that can repeat without end (Tronimoes' spacer moved again and again), unless
        nothing else is legal."""
        return game.legal_actions(seat)

    def favourite(self, game: Game, seat: int) -> str | None:
        """The action the planning agent starts from and keeps unless its simulations find a
        clearly better one, when the game knows a better plan than greedy's one-action look
        (Tetromic: the next piece of the biggest set of rows its hand can fill); by default None,
        and greedy's best is the favourite."""
        return None

    def rollout(self, game: Game, seat: int, rng: random.Random) -> str:
        """A legal action for a simulated game, quickly (plans make thousands): by default the
        best by gain and tie-break of a few of the actions that play on (`playing`) drawn at
        random."""
        return self.best_of_a_few(game, seat, self.playing(game, seat), rng)

    def best_of_a_few(self, game: Game, seat: int, actions: list[str], rng: random.Random, tries: int = 4) -> str:
        """The best by gain and tie-break of `tries` of `actions` (legal for `seat`) drawn at
        random, each tried on a copy."""
        if len(actions) == 1:
            return actions[0]
        best: tuple[tuple[float, ...], str] | None = None
        for action in rng.sample(actions, min(tries, len(actions))):
            after = game.clone()
            after.apply(seat, action)
            key = (self.gain(game, seat, after), *self.tie_break(game, seat, action, after))
            if best is None or key > best[0]:
                best = (key, action)
        assert best is not None
        return best[1]

    def leaf_value(self, game: Game, seat: int) -> float:
        """How good a position where a simulation stopped looks for the seat beyond its score."""
        return 0.0


HEURISTICS: dict[str, Heuristics] = {}
"""Each game's heuristics by game name (registered by the game's package)."""
_DEFAULT = Heuristics()


def heuristics(game: Game) -> Heuristics:
    """The heuristics registered for `game`'s kind, or the defaults."""
    return HEURISTICS.get(game.name, _DEFAULT)


def gain(before: Game, seat: int, after: Game) -> float:
    """What going from `before` to `after` won `seat`, by the game's own count."""
    return heuristics(before).gain(before, seat, after)


def seat_rng(game: Game, seat: int, purpose: str) -> random.Random:
    """A generator fixed by what `seat` can see (its view of the game and the move number) and
    nothing else."""
    view = json.dumps(game.view(seat), sort_keys=True, default=str)
    digest = hashlib.sha256(f"{purpose}:{seat}:{len(game.log)}:{view}".encode()).hexdigest()
    return random.Random(int(digest[:16], 16))


def margin(game: Game, seat: int) -> float:
    """The seat's score minus the best score outside its side (its team, or itself alone): what
    every agent tries to raise. Team-mates are not rivals."""
    scores = game.scores()
    side = next((team for team in game.teams(game.players) if seat in team), (seat,))
    others = [score for index, score in enumerate(scores) if index not in side]
    return scores[seat] - (max(others) if others else 0.0)


class RandomAgent:
    """Any action that plays the game on (`Heuristics.playing`: never giving the game up while
    something else is legal), uniformly."""

    name = "random"

    def choose(self, game: Game, seat: int) -> str:
        return seat_rng(game, seat, "random").choice(heuristics(game).playing(game, seat))


class GreedyAgent:
    """The action with the best immediate gain, tried on a copy in which everything it cannot
    see is dealt at random; ties broken by the game's heuristic, then by the action's text so
    the choice is stable."""

    name = "greedy"

    def choose(self, game: Game, seat: int) -> str:
        return self.ranked(game, seat)[0]

    def ranked(self, game: Game, seat: int) -> list[str]:
        """Every action that plays the game on (`Heuristics.playing`), best first."""
        known = heuristics(game)
        ranking = known.ranked(game, seat)
        if ranking is not None:
            return ranking
        actions = known.playing(game, seat)
        if len(actions) == 1:
            return actions
        sample = game.determinize(seat, seat_rng(game, seat, "greedy"))
        keyed = []
        for action in actions:
            after = sample.clone()
            after.apply(seat, action)
            keyed.append(((known.gain(sample, seat, after), *known.tie_break(sample, seat, action, after)), action))
        keyed.sort(key=lambda item: (tuple(-k for k in item[0]), item[1]))
        return [action for _, action in keyed]


SAFETY = 2.0
"""How many average simulations' time the planning agent leaves before its deadline."""
AIM = 0.95
"""The share of its budget the planning agent plans for."""


class PlanningAgent:
    """Determinised Monte-Carlo planning: deal what the seat cannot see at random many times,
    play each promising action out through the real engine by the game's rollout policy, and
    pick the action with the best average outcome. Every candidate is played out on the same
    deals with the same random choices afterwards (common random numbers), so the comparison
    measures the actions, not the luck. Works for `budget` seconds (or exactly `simulations`
    simulations, for reproducible play); falls back to greedy's best when the budget is too
    small to plan, and otherwise keeps its favourite (the game's own plan, see
    `Heuristics.favourite`, else greedy's best) unless another action does clearly better."""

    name = "normal"
    SMALLEST_BUDGET = 0.05

    def __init__(self, budget: float = 2.0, simulations: int | None = None, *, wider: int = 0) -> None:
        """`wider`: how many candidates to weigh beyond the game's own `Heuristics.candidates`."""
        self.budget = budget
        self.simulations = simulations
        self.wider = wider
        self.made = 0
        """How many simulations the last `choose` made."""

    def choose(self, game: Game, seat: int) -> str:
        # the ranking below counts against the budget; planning aims to end a little early, as a
        # busy machine may not run the process again at once
        deadline = time.perf_counter() + self.budget * AIM
        actions = game.legal_actions(seat)
        if len(actions) == 1:
            return actions[0]
        self.made = 0
        known = heuristics(game)
        ranked = GreedyAgent().ranked(game, seat)
        if self.simulations is None and self.budget < self.SMALLEST_BUDGET:
            return ranked[0]
        favourite = known.favourite(game, seat)
        if favourite is not None:
            ranked = [favourite, *(action for action in ranked if action != favourite)]
        candidates = ranked[:known.candidates + self.wider]
        if len(candidates) == 1:
            return candidates[0]
        return self._plan(game, seat, candidates, known, deadline)

    def _plan(self, game: Game, seat: int, candidates: list[str], known: Heuristics, deadline: float) -> str:
        """The candidate to play (the favourite first among `candidates`), by simulations made
        until `_done`."""
        rng = seat_rng(game, seat, "plan")
        start = known.round_of(game)
        results: dict[str, list[float]] = {action: [] for action in candidates}
        started, made = time.perf_counter(), 0
        while not self._done(made, deadline, started):
            sample = game.determinize(seat, rng)
            before = margin(sample, seat)
            luck = rng.getrandbits(64)
            for action in candidates:
                if self._done(made, deadline, started):
                    break
                simulated = sample.clone()
                simulated.apply(seat, action)
                results[action].append(self._rollout(known, simulated, seat, random.Random(luck), start) - before)
                made += 1
        self.made = made
        return _preferred(candidates, results, known.decisive, known.certainty)

    def _done(self, made: int, deadline: float, started: float) -> bool:
        """Enough simulations: the count asked for, or (at least one made) no time left for
        two more of average length before the deadline (one simulation can take much longer
        than the average, on a busy machine or with other tables' threads planning at once)."""
        if self.simulations is not None:
            return made >= self.simulations
        if made == 0:
            return False
        now = time.perf_counter()
        return now + SAFETY * (now - started) / made >= deadline

    @staticmethod
    def _rollout(known: Heuristics, game: Game, seat: int, rng: random.Random, start: object) -> float:
        """Play on from `game` until the round begun as `start` (`Heuristics.round_of`) ends, or
        for `known.depth` actions at most. A simulation that reached the round's end is worth
        the seat's margin there (the round's result); one stopped short, that margin plus the
        game's judgement of what is left (`Heuristics.leaf_value`)."""
        if play_out(known, game, rng, start, known.depth):
            return margin(game, seat)
        return margin(game, seat) + known.leaf_value(game, seat)


def play_out(known: Heuristics, game: Game, rng: random.Random, start: object, depth: int) -> bool:
    """Play `game` on by the game's rollout policy until the round begun as `start` ends, or
    for `depth` actions at most; whether the round ended."""
    play = game.apply_listed if known.listed_rollouts else game.apply
    for _ in range(depth):
        if known.round_over(start, game):
            return True
        waiting = game.to_move()
        actor = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
        play(actor, known.rollout(game, actor, rng))
    return known.round_over(start, game)


def _preferred(candidates: list[str], results: dict[str, list[float]], decisive: float,
               certainty: float = 1.0) -> str:
    """The best candidate by mean result; the first (the favourite) unless the best beats
    it by more than `decisive` and by more than `certainty` standard errors of the difference
    (paired over the shared deals), measured on at least two deals: one sample never overrides
    the favourite."""
    favourite = candidates[0]
    means = {a: sum(r) / len(r) for a, r in results.items() if r}
    if not means:
        return favourite
    best = max(means, key=lambda a: (means[a], -candidates.index(a)))
    if best == favourite or favourite not in means:
        return best
    paired = [b - f for b, f in zip(results[best], results[favourite], strict=False)]
    lead = means[best] - means[favourite]
    if lead <= decisive or len(paired) < 2:
        return favourite
    mean = sum(paired) / len(paired)
    spread = math.sqrt(sum((d - mean) ** 2 for d in paired) / (len(paired) - 1) / len(paired))
    if lead <= certainty * spread:
        return favourite
    return best


class EasyAgent:
    """The `easy` level: greedy's best, but now and then (the game's `Heuristics.easy_slips` of
    its moves, drawn from the seat's own generator, so reproducible) any action that plays on."""

    name = "easy"

    def __init__(self, slips: float | None = None) -> None:
        self.slips = slips

    def choose(self, game: Game, seat: int) -> str:
        known = heuristics(game)
        rng = seat_rng(game, seat, "easy")
        if rng.random() < (known.easy_slips if self.slips is None else self.slips):
            return rng.choice(known.playing(game, seat))
        return GreedyAgent().choose(game, seat)
