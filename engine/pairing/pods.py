"""Swiss rounds of multi-player tables ("pods"): players grouped by score into tables of a
chosen size, with as few repeated tablemates as possible and the seats rotated.

Points go by placing, stated before the first round: at a table of m players the winner scores
m − 1, the next m − 2, …, the last 0; players tied for a place share the points of the places
they cover. A table is `size` seats, or one fewer where the players do not divide evenly (never
more than `size` − 1 such tables, and never below the game's smallest table).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence


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

    Tables are cut from the standing in order (and from a few near orders of it: `RESTARTS`), then
    players are swapped between tables while a swap lowers the round's cost, and the best of these
    seatings is kept: first the repeated tablemates (a pair meeting a third time
    weighs more than two pairs meeting a second time), then how far apart in the standing
    tablemates are. Seats go to whoever has sat in them least (`seats_taken[player][seat]`)."""
    sizes = table_sizes(len(standing), size, smallest)
    rank = {player: place for place, player in enumerate(standing)}

    def cost(table: Sequence[int]) -> tuple[int, int]:
        pairs = list(itertools.combinations(table, 2))
        return (sum(met.get(frozenset(pair), 0) ** 2 for pair in pairs),
                sum(abs(rank[a] - rank[b]) for a, b in pairs))

    def total(tables: list[list[int]]) -> tuple[int, int]:
        costs = [cost(table) for table in tables]
        return (sum(c[0] for c in costs), sum(c[1] for c in costs))

    tables = min((_swapped(start, cost) for start in _starts(standing, sizes, size)), key=total)
    ordered = sorted(tables, key=lambda table: min(rank[p] for p in table))
    return [_seated(sorted(table, key=rank.__getitem__), seats_taken or {}) for table in ordered]


RESTARTS = 16
"""How many starting seatings the swap search tries at most (the standing cut in order, then the
standing shuffled within windows of two tables, seeded so a round is paired the same way every
time); fewer in large fields, where each search costs more (`512 // players`, at least one)."""


def _starts(standing: Sequence[int], sizes: Sequence[int], size: int) -> list[list[list[int]]]:
    """The seatings the search starts from: the standing cut into tables in order, then near
    orders of it (players shuffled only among those within two tables of their place)."""
    orders = [list(standing)]
    for seed in range(1, max(1, min(RESTARTS, 512 // max(1, len(standing))))):
        rng = random.Random(seed)
        order = list(standing)
        for start in range(0, len(order), size):
            window = order[start:start + 2 * size]
            rng.shuffle(window)
            order[start:start + 2 * size] = window
        orders.append(order)
    seatings = []
    for order in orders:
        tables, start = [], 0
        for seats in sizes:
            tables.append(order[start:start + seats])
            start += seats
        seatings.append(tables)
    return seatings


def _swapped(tables: list[list[int]], cost: Callable[[Sequence[int]], tuple[int, int]]) -> list[list[int]]:
    """`tables` after swapping players between tables while a swap lowers the two tables' cost."""
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
    return tables


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
