"""Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm), which the Dutch
system uses to tell whether the players still to be paired can all be paired (the completion
criterion, C.04.3 Article 2.2.4)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence


def maximum_matching(adjacency: Sequence[Sequence[int]], start: Sequence[int] | None = None) -> list[int]:
    """A maximum matching of the graph on vertices 0…n−1 (`adjacency[v]`: v's neighbours), as
    `mate[v]` (−1 for unmatched). `start`, if given, is a matching to grow from."""
    n = len(adjacency)
    mate = list(start) if start is not None else [-1] * n
    if start is None:
        for v in range(n):  # a greedy start: most vertices are matched without search
            if mate[v] == -1:
                for w in adjacency[v]:
                    if mate[w] == -1:
                        mate[v], mate[w] = w, v
                        break
    for root in range(n):
        if mate[root] == -1:
            _augment_from(root, adjacency, mate)
    return mate


def _augment_from(root: int, adjacency: Sequence[Sequence[int]], mate: list[int]) -> bool:
    n = len(adjacency)
    base = list(range(n))
    parent = [-1] * n
    used = [False] * n
    used[root] = True
    queue = deque([root])

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark_path(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for to in adjacency[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                current = lca(v, to)
                blossom = [False] * n
                mark_path(v, current, to, blossom)
                mark_path(to, current, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = current
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    while to != -1:  # flip the augmenting path
                        previous = parent[to]
                        after = mate[previous]
                        mate[to], mate[previous] = previous, to
                        to = after
                    return True
                used[mate[to]] = True
                queue.append(mate[to])
    return False


def matching_size(mate: Sequence[int]) -> int:
    """How many pairs `mate` holds."""
    return sum(1 for v, w in enumerate(mate) if w > v)
