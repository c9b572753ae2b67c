"""Swiss rounds of multi-player tables ("pods"): players grouped by score into tables of a
chosen size, with as few repeated tablemates as possible and the seats rotated.

Points go by placing, stated before the first round: at a table of m players the winner scores
m − 1, the next m − 2, …, the last 0; players tied for a place share the points of the places
they cover. A table is `size` seats, or one fewer where the players do not divide evenly (never
more than `size` − 1 such tables, and never below the game's smallest table).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence


def table_sizes(players: int, size: int, smallest: int) -> list[int]:
    """How `players` sit at tables of `size` (some of `size` − 1 where needed); raises
    ValueError, saying why, when they cannot."""
    if size < 2 or smallest < 2 or smallest > size:
        raise ValueError(f"tables of {size} seats cannot be played")
    short = (-players) % size
    tables = -(-players // size)
    if players < smallest or short > tables or (short and size - 1 < smallest):
        raise ValueError(f"{players} players cannot sit at tables of {size}"
                         + (f" or {size - 1}" if size - 1 >= smallest else ""))
    return [size] * (tables - short) + [size - 1] * short


def placing_points(placings: Sequence[int]) -> list[float]:
    """Each seat's points from its placing (1 = first; equal numbers are ties) at one table."""
    m = len(placings)
    order = sorted(placings)
    points = []
    for place in placings:
        covered = [i for i, p in enumerate(order) if p == place]
        points.append(sum(m - 1 - i for i in covered) / len(covered))
    return points


def pair_pods(standing: Sequence[int], size: int, smallest: int, met: Mapping[frozenset[int], int],
              seats_taken: Mapping[int, Counter[int]] | None = None) -> list[list[int]]:
    """The tables of the next round, each in seat order. `standing` lists the players best
    first (points, then rating); `met` counts how often each pair shared a table before.

    Tables are cut from the standing in order, then players are swapped between tables while a
    swap lowers the round's cost: first the repeated tablemates (a pair meeting a third time
    weighs more than two pairs meeting a second time), then how far apart in the standing
    tablemates are. Seats go to whoever has sat in them least (`seats_taken[player][seat]`)."""
    sizes = table_sizes(len(standing), size, smallest)
    rank = {player: place for place, player in enumerate(standing)}
    tables: list[list[int]] = []
    start = 0
    for seats in sizes:
        tables.append(list(standing[start:start + seats]))
        start += seats

    def cost(table: Sequence[int]) -> tuple[int, int]:
        pairs = list(itertools.combinations(table, 2))
        return (sum(met.get(frozenset(pair), 0) ** 2 for pair in pairs),
                sum(abs(rank[a] - rank[b]) for a, b in pairs))

    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            for a, b in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                before = _added(cost(tables[i]), cost(tables[j]))
                tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
                if _added(cost(tables[i]), cost(tables[j])) < before:
                    improved = True
                else:
                    tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
    ordered = sorted(tables, key=lambda table: min(rank[p] for p in table))
    return [_seated(sorted(table, key=rank.__getitem__), seats_taken or {}) for table in ordered]


def _added(one: tuple[int, int], other: tuple[int, int]) -> tuple[int, int]:
    return (one[0] + other[0], one[1] + other[1])


def _seated(table: list[int], seats_taken: Mapping[int, Counter[int]]) -> list[int]:
    """`table` in seat order: the seat order, of all of them, whose players sat there least."""
    if len(table) > 6:
        return table
    return list(min(itertools.permutations(table),
                    key=lambda order: (sum(seats_taken.get(p, Counter())[seat] for seat, p in enumerate(order)),
                                       [table.index(p) for p in order])))


def tablemates(rounds: Sequence[Sequence[Sequence[int]]]) -> dict[frozenset[int], int]:
    """How often each pair of players shared a table over `rounds` (each a list of tables)."""
    met: Counter[frozenset[int]] = Counter()
    for tables in rounds:
        for table in tables:
            met.update(frozenset(pair) for pair in itertools.combinations(table, 2))
    return dict(met)
