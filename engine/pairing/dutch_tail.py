"""What the players below a bracket make of its floaters: whether they can all still be paired
(the completion criterion C4), and, when they can, how well the next bracket and the
pairing-allocated bye turn out (C.04.3, 2025: C7, maximise the pairs and the scores paired in the
next bracket; C9, the bye to a player with as few unplayed games as possible).

Both are settled by a maximum-weight matching of the floaters, the lower players and (when they
are odd) a stand-in for the bye, joined to those who may receive it: every edge carries a large
constant, so the matching pairs everyone if anyone can, and then the rewards of C7 and C9.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.pairing.dutch_history import History
from engine.pairing.matching import maximum_matching
from engine.pairing.weighted_matching import max_weight_matching

WEIGH_LIMIT = 64
"""Above this many players below a bracket, C7 and C9 are not weighed (a weighted matching of
that many players in pure Python takes too long): only completion is checked."""


@dataclass
class Slots:
    """Where the lower brackets' criteria sit in a bracket's cost vector."""

    next_pairs: int
    next_scores: dict[float, int]
    """The slot of each score a next-bracket pair's higher player may have."""
    bye: int


class Tail:
    """The players below a bracket, `lower`, the residents of the next bracket among them, and
    who may receive the bye. `bye_counts`: whether C9 weighs in this bracket (only from the
    bracket of the bye's score down)."""

    def __init__(self, neighbours: dict[int, list[int]], players: dict[int, History],
                 rank: dict[int, int], bracket: Sequence[int], lower: Sequence[int],
                 next_residents: Sequence[int],
                 bye_allowed: frozenset[int], bye_score: float, rounds_played: int, *,
                 bye_counts: bool = True) -> None:
        self.neighbours = neighbours
        self.players = players
        self.rank = rank
        self.bracket = list(bracket)
        self.lower = list(lower)
        self._graph: tuple[list[list[int]], dict[int, int], dict[bool, list[int]]] | None = None
        self.next_residents = frozenset(next_residents)
        self.bye_allowed = bye_allowed
        self.bye_score = bye_score
        self.bye_counts = bye_counts
        self.rounds_played = rounds_played
        self._completes: dict[frozenset[int], bool] = {}
        self._costs: dict[frozenset[int], dict[int, int] | None] = {}
        self.partners: dict[frozenset[int], dict[int, int]] = {}
        """For each floater set costed, whom each player meets in its best completion (−1: bye)."""

    # --- completion ---------------------------------------------------------------------------
    def completes(self, floaters: frozenset[int]) -> bool:
        """Whether `floaters` and the lower players can all be paired (one of those allowed the
        bye left over if they are odd)."""
        known = self._completes.get(floaters)
        if known is None:
            adjacency, index, base = self._prepared()
            odd = (len(floaters) + len(self.lower)) % 2 == 1
            active = [False] * len(adjacency)
            for n in self.lower:
                active[index[n]] = True
            for n in floaters:
                active[index[n]] = True
            active[-1] = odd
            mate = maximum_matching(adjacency, base[odd], active)
            known = all(mate[v] != -1 for v in range(len(adjacency)) if active[v])
            self._completes[floaters] = known
        return known

    def _prepared(self) -> tuple[list[list[int]], dict[int, int], dict[bool, list[int]]]:
        """The graph of the bracket, the lower players and the bye stand-in (last), and a maximum
        matching of the lower players alone, without and with the stand-in."""
        if self._graph is None:
            members = self.bracket + self.lower
            index = {n: i for i, n in enumerate(members)}
            adjacency = [[index[m] for m in self.neighbours[n] if m in index] for n in members]
            dummy = len(members)
            adjacency.append([index[n] for n in members if n in self.bye_allowed])
            for i in adjacency[dummy]:
                adjacency[i].append(dummy)
            base: dict[bool, list[int]] = {}
            for odd in (False, True):
                active = [False] * len(adjacency)
                for n in self.lower:
                    active[index[n]] = True
                active[dummy] = odd
                base[odd] = maximum_matching(adjacency, None, active)
            self._graph = (adjacency, index, base)
        return self._graph

    # --- C7 and C9 -----------------------------------------------------------------------------
    def rewards(self, a: int, b: int, slots: Slots) -> dict[int, int]:
        """The C7 rewards of pairing `a` with `b` below the bracket (`a`, `b` not both in it)."""
        higher, lower = (a, b) if self.rank[a] < self.rank[b] else (b, a)
        if lower not in self.next_residents:
            return {}
        return {slots.next_pairs: 1, slots.next_scores[self.players[higher].score]: 1}

    def bye_reward(self, player: int, slots: Slots) -> dict[int, int]:
        """The C9 reward of the bye going to `player`: fewer unplayed games, more reward."""
        who = self.players[player]
        if not self.bye_counts or who.score != self.bye_score:
            return {}
        return {slots.bye: -(self.rounds_played - who.played)}

    def cost(self, floaters: frozenset[int], slots: Slots, size: int) -> dict[int, int] | None:
        """The C7 and C9 costs (slot: amount, never negative) of the best pairing of `floaters`
        and the lower players, or None if they cannot all be paired."""
        if floaters in self._costs:
            return self._costs[floaters]
        result: dict[int, int] | None = None
        if self.completes(floaters) and len(floaters) + len(self.lower) > WEIGH_LIMIT:
            result = self.as_cost({}, slots)
        elif self.completes(floaters):
            members = sorted(floaters | set(self.lower))
            partners: dict[int, int] = {}
            extra = self.best_rewards(members, lambda a, b: self.rewards(a, b, slots),
                                      lambda p: self.bye_reward(p, slots), size, partners)
            self.partners[floaters] = partners
            result = self.as_cost(extra, slots)
        self._costs[floaters] = result
        return result

    def as_cost(self, rewards: dict[int, int], slots: Slots) -> dict[int, int]:
        """Rewards turned into non-negative costs (a constant minus the reward)."""
        top = len(self.next_residents)
        cost = {slots.next_pairs: top - rewards.get(slots.next_pairs, 0)}
        for slot in slots.next_scores.values():
            cost[slot] = top - rewards.get(slot, 0)
        cost[slots.bye] = -rewards.get(slots.bye, 0)
        return cost

    def best_rewards(self, members: Sequence[int], edge: Callable[[int, int], dict[int, int]],
                     bye: Callable[[int], dict[int, int]], size: int,
                     partners: dict[int, int] | None = None) -> dict[int, int]:
        """The summed rewards of the best perfect pairing of `members` (with the bye stand-in when
        odd), rewards compared slot by slot in order; `partners`, if given, receives the pairs."""
        index = {n: i for i, n in enumerate(members)}
        base = 8 * (len(members) + 2) + 8
        big = 4 * base ** (size + 1)

        def encode(reward: dict[int, int]) -> int:
            return sum(value * base ** (size - 1 - slot) for slot, value in reward.items())

        edges: list[tuple[int, int, int]] = []
        rewards: dict[tuple[int, int], dict[int, int]] = {}
        for n in members:
            for m in self.neighbours[n]:
                if m in index and index[n] < index[m]:
                    reward = edge(n, m)
                    rewards[(index[n], index[m])] = reward
                    edges.append((index[n], index[m], 2 * (big + encode(reward))))
        count = len(members)
        if count % 2:
            for n in members:
                if n in self.bye_allowed:
                    reward = bye(n)
                    rewards[(index[n], count)] = reward
                    edges.append((index[n], count, 2 * (big + encode(reward))))
            count += 1
        mate = max_weight_matching(count, edges)
        total: dict[int, int] = {}
        if partners is not None:
            for v, w in enumerate(mate):
                if v < len(members):
                    partners[members[v]] = members[w] if 0 <= w < len(members) else -1
        for v, w in enumerate(mate):
            if w > v:
                for slot, value in rewards[(v, w)].items():
                    total[slot] = total.get(slot, 0) + value
        return total
