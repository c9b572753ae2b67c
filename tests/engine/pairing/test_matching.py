"""The matchings the Dutch system stands on find the best pairing a brute-force search finds."""

import itertools
import random

from engine.pairing.matching import matching_size, maximum_matching
from engine.pairing.weighted_matching import max_weight_matching


def _best(n, edges, max_cardinality):
    weights = {}
    for i, j, w in edges:
        weights[(i, j)] = weights[(j, i)] = w
    best = None

    def search(free, total, pairs):
        nonlocal best
        if not free:
            key = (pairs, total) if max_cardinality else (total,)
            best = key if best is None or key > best else best
            return
        v, rest = free[0], free[1:]
        search(rest, total, pairs)
        for u in rest:
            if (v, u) in weights:
                search([x for x in rest if x != u], total + weights[(v, u)], pairs + 1)

    search(list(range(n)), 0, 0)
    return best


def _graphs(count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(1, 9)
        edges = [(i, j, 2 * rng.randint(-5, 20)) for i, j in itertools.combinations(range(n), 2)
                 if rng.random() < 0.6]
        yield n, edges


def test_the_weighted_matching_weighs_as_much_as_the_best_brute_force_pairing():
    for n, edges in _graphs(400, 1):
        weights = {(min(i, j), max(i, j)): w for i, j, w in edges}
        for max_cardinality in (True, False):
            mate = max_weight_matching(n, edges, max_cardinality=max_cardinality)
            assert all(mate[v] == -1 or (mate[mate[v]] == v and (min(v, mate[v]), max(v, mate[v])) in weights)
                       for v in range(n))
            total = sum(weights[(v, w)] for v, w in enumerate(mate) if w > v)
            pairs = sum(1 for v, w in enumerate(mate) if w > v)
            got = (pairs, total) if max_cardinality else (total,)
            assert got == _best(n, edges, max_cardinality)


def test_the_cardinality_matching_pairs_as_many_as_brute_force_can():
    for n, edges in _graphs(400, 2):
        adjacency = [[] for _ in range(n)]
        for i, j, _ in edges:
            adjacency[i].append(j)
            adjacency[j].append(i)
        assert matching_size(maximum_matching(adjacency)) == _best(n, edges, True)[0]

