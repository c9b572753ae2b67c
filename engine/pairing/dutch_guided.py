"""The first candidate of a bracket, in the Dutch system's order, that reaches the bracket's best
cost, found by asking a maximum-weight matching at each choice whether the choice still allows
that cost (C.04.3, 2025: the candidates' order of Articles 3.3 and 4, the criteria of Article 2).

Used when the plain depth-first search of `dutch_bracket` does not meet the best cost within its
budget: each choice (an MDP's opponent, an exchange between S1 and S2, an S1 player's opponent)
is settled by trying the options in the rules' order and keeping the first whose best completion
still weighs as much as the bracket's optimum.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.pairing.weighted_matching import max_weight_matching

Edge = tuple[int, int]


class Oracle:
    """Which pairings of `members` (bracket players first, then the players below, plus a bye
    stand-in when odd) weigh the most; `weight(a, b)`: an edge's weight, None if they cannot
    meet; `bye(a)`: the weight of `a` taking the bye, None if they may not."""

    def __init__(self, members: Sequence[int], neighbours: dict[int, list[int]],
                 weight: Callable[[int, int], int], bye: Callable[[int], int | None]) -> None:
        self.members = list(members)
        self.odd = len(self.members) % 2 == 1
        self.weights: dict[Edge, int] = {}
        present = set(self.members)
        for a in self.members:
            for b in neighbours[a]:
                if b in present and a < b:
                    self.weights[(a, b)] = 2 * weight(a, b)
        self.bye_weights: dict[int, int] = {}
        if self.odd:
            for a in self.members:
                w = bye(a)
                if w is not None:
                    self.bye_weights[a] = 2 * w
        self.optimum, self.mate = self.solve(set(), lambda a, b: False)

    def solve(self, fixed: set[int], dropped: Callable[[int, int], bool]) -> tuple[int | None, dict[int, int]]:
        """The weight of the best perfect pairing of the members not in `fixed`, without the
        edges `dropped` rejects (None if no perfect pairing is left), and its pairs (−1: bye)."""
        rest = [m for m in self.members if m not in fixed]
        index = {m: i for i, m in enumerate(rest)}
        edges = [(index[a], index[b], w) for (a, b), w in self.weights.items()
                 if a in index and b in index and not dropped(a, b)]
        count = len(rest)
        if self.odd:
            edges += [(index[a], count, w) for a, w in self.bye_weights.items()
                      if a in index and not dropped(a, -1)]
            count += 1
        mate = max_weight_matching(count, edges)
        if any(m == -1 for m in mate):
            return None, {}
        lookup = {(min(i, j), max(i, j)): w for i, j, w in edges}
        total = sum(lookup[(v, w)] for v, w in enumerate(mate) if w > v)
        pairs = {rest[v]: (rest[w] if w < len(rest) else -1) for v, w in enumerate(mate) if v < len(rest)}
        return total, pairs

    def pair_weight(self, a: int, b: int) -> int:
        return self.weights[(min(a, b), max(a, b))]

    def allows(self, pairs: Sequence[Edge], dropped: Callable[[int, int], bool]) -> bool:
        """Whether fixing `pairs` and dropping `dropped` edges still reaches the optimum."""
        fixed = {p for pair in pairs for p in pair}
        total, mate = self.solve(fixed, dropped)
        if total is None:
            return False
        if total + sum(self.pair_weight(a, b) for a, b in pairs) != self.optimum:
            return False
        self.mate = mate
        return True


def guided(bracket: Sequence[int], mdps: Sequence[int], oracle: Oracle, allowed: Callable[[int, int], bool],
           exchanges: Callable[[list[int], list[int]], object]) -> tuple[list[Edge], list[int]] | None:
    """The pairs and floaters of `bracket` (pairing numbers in ranking order; `mdps` its moved-down
    players) chosen in the rules' order, each choice the first that keeps the optimum."""
    inside = set(bracket)
    pairs: list[Edge] = []
    floating: set[int] = set()
    taken: set[int] = set()

    def dropped_for(extra_floating: set[int], s1: frozenset[int] = frozenset(),
                    s2: frozenset[int] = frozenset()) -> Callable[[int, int], bool]:
        gone = floating | extra_floating

        def dropped(a: int, b: int) -> bool:
            if (a in gone and b in inside) or (b in gone and a in inside):
                return True
            if s1 and (a in s1 or b in s1):
                other = b if a in s1 else a
                return other not in s2
            return bool(s2) and a in s2 and b in s2
        return dropped

    residents = [p for p in bracket if p not in set(mdps)]
    for k, m in enumerate(mdps):
        if m in taken:
            continue
        done = False
        for j in residents + list(mdps[k + 1:]):
            if j in taken or not allowed(m, j):
                continue
            if oracle.allows([*pairs, (m, j)], dropped_for(set())):
                pairs.append((m, j))
                taken.update((m, j))
                done = True
                break
        if not done:
            if not oracle.allows(pairs, dropped_for({m})):
                return None
            floating.add(m)
            taken.add(m)
    rest = [p for p in residents if p not in taken]
    mate = oracle.mate
    paired_inside = sum(1 for p in rest if mate.get(p, -1) in set(rest))
    size = paired_inside // 2
    s1, s2 = rest[:size], rest[size:]
    position = {p: i for i, p in enumerate(bracket)}
    for out, into in exchanges([position[p] for p in s1], [position[p] for p in s2]):  # type: ignore[attr-defined]
        new_s1 = sorted([p for p in s1 if position[p] not in out] + [bracket[i] for i in into],
                        key=position.__getitem__)
        new_s2 = sorted([p for p in s2 if position[p] not in into] + [bracket[i] for i in out],
                        key=position.__getitem__)
        dropped = dropped_for(set(), frozenset(new_s1), frozenset(new_s2))
        if not oracle.allows(pairs, dropped):
            continue
        chosen: list[Edge] = []
        for a in new_s1:
            for b in new_s2:
                if b in taken or not allowed(a, b):
                    continue
                if oracle.allows([*pairs, *chosen, (a, b)], dropped):
                    chosen.append((a, b))
                    taken.update((a, b))
                    break
            else:
                return None
        left = [p for p in new_s2 if p not in taken]
        return pairs + chosen, sorted(floating | set(left), key=position.__getitem__)
    return None
