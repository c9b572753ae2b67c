"""Pairing one bracket of the Dutch system (C.04.3, 2025, Articles 3 and 4): the candidates in the
order the rules generate them, each scored on the quality criteria, the best kept (the first
generated among equals).

A bracket is its moved-down players (MDPs) followed by its resident players, each ordered by
score and pairing number (Article 1.2). The MDPs are paired first, each with a resident (Article
3.3, the MDP-pairing), the highest MDP choosing first and residents tried in their order; the
remaining residents form the remainder, paired as a homogeneous bracket: S1 its upper half, S2 the
rest (Article 3.2), S1's players, in order, taking S2's players in order (the transpositions of
S2, Article 4.2), then the exchanges between S1 and S2 in the order of Article 4.3 (fewest
players exchanged, then the smallest difference of the exchanged BSN sums, then the highest
players of S1 and the lowest of S2 moved first).

The search is a depth-first enumeration in that order with branch and bound: a candidate's cost
is a sum over its pairs and floaters of non-negative vectors, so a partial candidate already no
better than the best one found cannot lead to a better one. A candidate is only accepted if the
players left for the lower brackets can still all be paired (the completion criterion C4).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from engine.pairing.dutch_criteria import Standing, colour_costs, compatible, floats_of
from engine.pairing.dutch_history import Float, History

Cost = tuple[int, ...]


@dataclass
class Outcome:
    """A bracket's pairing: its pairs (higher player first) and the players left over."""

    pairs: list[tuple[int, int]]
    floaters: list[int]


class _Search:
    def __init__(self, bracket: Sequence[History], score: float, standing: Standing,
                 completes: Callable[[frozenset[int]], bool], bye_unplayed: Callable[[History], int] | None,
                 next_pairs: Callable[[frozenset[int]], tuple[int, ...]] | None, budget: int) -> None:
        self.players = list(bracket)
        self.score = score
        self.index = {p.number: i for i, p in enumerate(bracket)}
        self.scores = sorted({p.score for p in bracket}, reverse=True)
        self.score_slot = {s: i for i, s in enumerate(self.scores)}
        self.groups = len(self.scores)
        self.standing = standing
        self.completes = completes
        self.bye_unplayed = bye_unplayed
        self.next_pairs = next_pairs
        self.budget = budget
        self.nodes = 0
        self.leaves = 0
        self.best: Cost | None = None
        self.best_outcome: Outcome | None = None
        n = len(bracket)
        self.allowed = [[i != j and compatible(bracket[i], bracket[j], standing) for j in range(n)]
                        for i in range(n)]
        g = self.groups
        # Layout: unpaired, unpaired by score, next-bracket slots (2), bye unplayed,
        # C10..C13, C14..C17, C18..C21 by score.
        self.o_unpaired_by = 1
        self.o_next = 1 + g
        self.o_bye = self.o_next + 2
        self.o_colour = self.o_bye + 1
        self.o_float = self.o_colour + 4
        self.o_float_scores = self.o_float + 4
        self.size = self.o_float_scores + 4 * g
        self._pair_cost: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self._float_cost = [self._unpaired_cost(i) for i in range(n)]

    # --- costs -----------------------------------------------------------------------------
    def pair_cost(self, i: int, j: int) -> list[tuple[int, int]]:
        """The sparse cost (slot, amount) of pairing bracket players i and j (i ranked higher)."""
        key = (i, j)
        cached = self._pair_cost.get(key)
        if cached is not None:
            return cached
        a, b = self.players[i], self.players[j]
        cost: list[tuple[int, int]] = []
        for k, value in enumerate(colour_costs(a, b)):
            if value:
                cost.append((self.o_colour + k, value))
        fa, fb = floats_of(a), floats_of(b)
        if a.score > b.score:  # a floats down to b, b up to a
            for back in (0, 1):
                if fa[back] is Float.DOWN:
                    cost.append((self.o_float + 2 * back, 1))
                if fb[back] is Float.UP:
                    cost.append((self.o_float + 2 * back + 1, 1))
                    slot = self.o_float_scores + (2 * back + 1) * self.groups + self.score_slot[a.score]
                    cost.append((slot, 1))
        self._pair_cost[key] = cost
        return cost

    def _unpaired_cost(self, i: int) -> list[tuple[int, int]]:
        player = self.players[i]
        slot = self.score_slot[player.score]
        cost = [(0, 1), (self.o_unpaired_by + slot, 1)]
        fl = floats_of(player)
        for back in (0, 1):
            if fl[back] is Float.DOWN:
                cost.append((self.o_float + 2 * back, 1))
                cost.append((self.o_float_scores + 2 * back * self.groups + slot, 1))
        return cost

    # --- search ------------------------------------------------------------------------------
    def run(self) -> Outcome | None:
        n = len(self.players)
        mdps = [i for i in range(n) if self.players[i].score > self.score]
        residents = [i for i in range(n) if self.players[i].score <= self.score]
        cost = [0] * self.size
        self._mdp(0, mdps, residents, set(), [], [], cost)
        return self.best_outcome

    def _exhausted(self) -> bool:
        return self.nodes > self.budget and self.best is not None

    def _worse(self, cost: list[int]) -> bool:
        return self.best is not None and tuple(cost) >= self.best

    @staticmethod
    def _add(cost: list[int], sparse: list[tuple[int, int]], sign: int = 1) -> None:
        for slot, value in sparse:
            cost[slot] += sign * value

    def _mdp(self, k: int, mdps: list[int], residents: list[int], taken: set[int],
             pairs: list[tuple[int, int]], floaters: list[int], cost: list[int]) -> None:
        """MDP `mdps[k]` takes a resident (in order), or another MDP, or floats on."""
        if self._exhausted() or self._worse(cost):
            return
        self.nodes += 1
        if k == len(mdps):
            rest = [r for r in residents if r not in taken]
            self._remainder(rest, pairs, floaters, cost)
            return
        i = mdps[k]
        if i in taken:
            self._mdp(k + 1, mdps, residents, taken, pairs, floaters, cost)
            return
        for j in residents + mdps[k + 1:]:
            if j in taken or not self.allowed[i][j]:
                continue
            sparse = self.pair_cost(i, j)
            self._add(cost, sparse)
            taken.add(j)
            pairs.append((i, j))
            self._mdp(k + 1, mdps, residents, taken, pairs, floaters, cost)
            pairs.pop()
            taken.discard(j)
            self._add(cost, sparse, -1)
        sparse = self._float_cost[i]
        self._add(cost, sparse)
        floaters.append(i)
        self._mdp(k + 1, mdps, residents, taken, pairs, floaters, cost)
        floaters.pop()
        self._add(cost, sparse, -1)

    def _remainder(self, rest: list[int], pairs: list[tuple[int, int]], floaters: list[int],
                   cost: list[int]) -> None:
        """The homogeneous remainder: S1 the upper half (fewer when not all can pair)."""
        for p in range(len(rest) // 2, -1, -1):
            s1, s2 = rest[:p], rest[p:]
            found = self.leaves
            for out, into in _exchanges(s1, s2):
                if self._exhausted():
                    return
                new_s1 = sorted([x for x in s1 if x not in out] + list(into))
                new_s2 = sorted([x for x in s2 if x not in into] + list(out))
                self._s1(0, new_s1, new_s2, set(), pairs, floaters, cost)
            if self.leaves > found:
                return

    def _s1(self, k: int, s1: list[int], s2: list[int], taken: set[int],
            pairs: list[tuple[int, int]], floaters: list[int], cost: list[int]) -> None:
        if self._exhausted() or self._worse(cost):
            return
        self.nodes += 1
        if k == len(s1):
            left = [j for j in s2 if j not in taken]
            for j in left:
                self._add(cost, self._float_cost[j])
            if not self._worse(cost):
                self._leaf(pairs, floaters + left, cost)
            for j in left:
                self._add(cost, self._float_cost[j], -1)
            return
        i = s1[k]
        for j in s2:
            if j in taken or not self.allowed[i][j]:
                continue
            hi, lo = (i, j) if i < j else (j, i)
            sparse = self.pair_cost(hi, lo)
            self._add(cost, sparse)
            taken.add(j)
            pairs.append((hi, lo))
            self._s1(k + 1, s1, s2, taken, pairs, floaters, cost)
            pairs.pop()
            taken.discard(j)
            self._add(cost, sparse, -1)

    def _leaf(self, pairs: list[tuple[int, int]], floaters: list[int], cost: list[int]) -> None:
        numbers = frozenset(self.players[i].number for i in floaters)
        if not self.completes(numbers):
            return
        self.leaves += 1
        full = list(cost)
        if self.next_pairs is not None and floaters:
            extra = self.next_pairs(numbers)
            for k, value in enumerate(extra[:2]):
                full[self.o_next + k] = value
        if self.bye_unplayed is not None and len(floaters) == 1:
            full[self.o_bye] = self.bye_unplayed(self.players[floaters[0]])
        key = tuple(full)
        if self.best is None or key < self.best:
            self.best = key
            self.best_outcome = Outcome(
                [(self.players[i].number, self.players[j].number) for i, j in pairs],
                sorted((self.players[i].number for i in floaters), key=lambda n: self.index[n]))


def _exchanges(s1: list[int], s2: list[int]) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The exchanges between S1 and S2 in the order of Article 4.3, the empty one first: fewer
    players first, then the smaller difference between the BSN sums, then moving the higher BSNs of
    S1 and the lower BSNs of S2 first."""
    yield (), ()
    for size in range(1, min(len(s1), len(s2)) + 1):
        if math.comb(len(s1), size) * math.comb(len(s2), size) > 50000:
            return
        options = []
        for out in itertools.combinations(s1, size):
            for into in itertools.combinations(s2, size):
                options.append((sum(into) - sum(out), tuple(-x for x in sorted(out, reverse=True)),
                                tuple(sorted(into)), out, into))
        options.sort(key=lambda o: o[:3])
        for option in options:
            yield option[3], option[4]


def pair_bracket(bracket: Sequence[History], score: float, standing: Standing,
                 completes: Callable[[frozenset[int]], bool], *,
                 bye_unplayed: Callable[[History], int] | None = None,
                 next_pairs: Callable[[frozenset[int]], tuple[int, ...]] | None = None,
                 budget: int = 20000) -> Outcome | None:
    """The best pairing of `bracket` (MDPs first, then residents of score `score`, each in
    ranking order) whose floaters `completes` accepts, or None if there is none."""
    return _Search(bracket, score, standing, completes, bye_unplayed, next_pairs, budget).run()
