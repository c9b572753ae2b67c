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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from engine.pairing.dutch_criteria import Standing, colour_costs, compatible, floats_of
from engine.pairing.dutch_guided import Oracle, guided
from engine.pairing.dutch_history import Float, History
from engine.pairing.dutch_tail import Slots, Tail

OPTIMUM_LIMIT = 64
"""Above this many players left to pair, a bracket's best cost is not computed beforehand: the
search then keeps the best candidate it meets within its budget."""

Cost = tuple[int, ...]


@dataclass
class Outcome:
    """A bracket's pairing: its pairs (higher player first) and the players left over."""

    pairs: list[tuple[int, int]]
    floaters: list[int]


class BracketSearch:
    def __init__(self, bracket: Sequence[History], score: float, standing: Standing, tail: Tail,
                 budget: int = 3000) -> None:
        self.players = list(bracket)
        self.score = score
        self.index = {p.number: i for i, p in enumerate(bracket)}
        self.scores = sorted({p.score for p in bracket}, reverse=True)
        self.score_slot = {s: i for i, s in enumerate(self.scores)}
        self.groups = g = len(self.scores)
        self.standing = standing
        self.tail = tail
        self.budget = budget
        self.nodes = 0
        self.leaves = 0
        self.best: Cost | None = None
        self.best_outcome: Outcome | None = None
        self.target: Cost | None = None
        n = len(bracket)
        self.allowed = [[i != j and compatible(bracket[i], bracket[j], standing) for j in range(n)]
                        for i in range(n)]
        # Layout: unpaired (C5), unpaired by score (C6), next-bracket pairs and their scores (C7),
        # the bye's unplayed games (C9), C10..C13, C14..C17, C18..C21 by score.
        below = sorted({tail.players[m].score for m in tail.next_residents}, reverse=True)
        next_scores = sorted(set(self.scores) | set(below), reverse=True)
        self.o_unpaired_by = 1
        self.o_next = 1 + g
        self.slots = Slots(self.o_next, {s: self.o_next + 1 + k for k, s in enumerate(next_scores)},
                           self.o_next + 1 + len(next_scores))
        self.o_bye = self.slots.bye
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
        self.target = self.optimum()
        cost = [0] * self.size
        self._mdp(0, mdps, residents, set(), [], [], cost)
        if self.target is not None and self.best != self.target:
            found = self.guided(mdps)
            if found is not None:
                return found
        return self.best_outcome

    def _edge_reward(self, a: int, b: int) -> dict[int, int]:
        inside = self.index
        if a in inside and b in inside:
            i, j = sorted((inside[a], inside[b]))
            if not self.allowed[i][j]:
                return {}
            reward: dict[int, int] = {}
            for slot, value in self._float_cost[i] + self._float_cost[j]:
                reward[slot] = reward.get(slot, 0) + value
            for slot, value in self.pair_cost(i, j):
                reward[slot] = reward.get(slot, 0) - value
            return reward
        return self.tail.rewards(a, b, self.slots)

    def guided(self, mdps: list[int]) -> Outcome | None:
        """The first candidate reaching the optimum, each choice checked by a matching."""
        members = [p.number for p in self.players] + self.tail.lower
        base = 8 * (len(members) + 2) + 8
        big = 4 * base ** (self.size + 1)

        def encode(reward: dict[int, int]) -> int:
            return big + sum(value * base ** (self.size - 1 - slot) for slot, value in reward.items())

        def bye(a: int) -> int | None:
            if a not in self.tail.bye_allowed:
                return None
            return encode(self.tail.bye_reward(a, self.slots))

        oracle = Oracle(members, self.tail.neighbours, lambda a, b: encode(self._edge_reward(a, b)), bye)
        numbers = [p.number for p in self.players]
        result = guided(numbers, [numbers[i] for i in mdps], oracle,
                        lambda a, b: self.allowed[self.index[a]][self.index[b]], _exchanges)
        if result is None:
            return None
        pairs, floaters = result
        return Outcome(pairs, floaters)

    def optimum(self) -> Cost | None:
        """The best cost any pairing of the bracket can have (a maximum-weight matching of the
        bracket and the players below it), or None if the bracket is too large to afford it."""
        members = [p.number for p in self.players] + self.tail.lower
        if len(members) > OPTIMUM_LIMIT:
            return None
        rewards = self.tail.best_rewards(members, self._edge_reward, lambda p: self.tail.bye_reward(p, self.slots),
                                         self.size)
        cost = [0] * self.size
        for i in range(len(self.players)):
            for slot, value in self._float_cost[i]:
                cost[slot] += value
        tail_slots = {self.slots.next_pairs, self.slots.bye, *self.slots.next_scores.values()}
        for slot, value in rewards.items():
            if slot not in tail_slots:
                cost[slot] -= value
        for slot, value in self.tail.as_cost({k: v for k, v in rewards.items() if k in tail_slots},
                                             self.slots).items():
            cost[slot] += value
        return tuple(cost)

    def _exhausted(self) -> bool:
        if self.best is not None and self.best == self.target:
            return True
        return self.nodes > self.budget and (self.best is not None or self.target is not None)

    def _worse(self, cost: list[int]) -> bool:
        if self.target is not None and tuple(cost) > self.target:
            return True
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
        if not self.tail.completes(numbers):
            return
        self.leaves += 1
        full = list(cost)
        below = self.tail.cost(numbers, self.slots, self.size)
        if below is None:
            return
        for slot, value in below.items():
            full[slot] += value
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


def pair_bracket(bracket: Sequence[History], score: float, standing: Standing, tail: Tail, *,
                 budget: int = 3000) -> Outcome | None:
    """The best pairing of `bracket` (MDPs first, then residents of score `score`, each in
    ranking order) that leaves the players below pairable (`tail`), or None if there is none."""
    return BracketSearch(bracket, score, standing, tail, budget).run()
