"""Multi-player Swiss pods: tables by score, few repeated tablemates, seats rotated, points by placing."""

import random
from collections import Counter

import pytest

from engine.pairing.pods import pair_pods, placing_points, table_sizes, tablemates


def test_four_players_score_three_two_one_nothing():
    assert placing_points([1, 2, 3, 4]) == [3.0, 2.0, 1.0, 0.0]


def test_players_tied_for_a_place_share_its_points():
    assert placing_points([1, 2, 2, 4]) == [3.0, 1.5, 1.5, 0.0]
    assert placing_points([1, 1, 1]) == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("players, size, smallest, sizes", [
    (12, 4, 2, [4, 4, 4]),
    (13, 4, 2, [4, 3, 3, 3]),
    (10, 6, 2, [5, 5]),
    (7, 3, 2, [3, 2, 2]),
])
def test_tables_are_the_chosen_size_or_one_fewer(players, size, smallest, sizes):
    assert table_sizes(players, size, smallest) == sizes


@pytest.mark.parametrize("players, size, smallest", [(5, 4, 4), (2, 3, 3), (7, 4, 4)])
def test_a_field_that_cannot_sit_at_the_tables_is_refused_saying_so(players, size, smallest):
    with pytest.raises(ValueError, match=f"{players} players cannot sit at tables of {size}"):
        table_sizes(players, size, smallest)


def test_the_first_round_seats_the_standing_in_order():
    assert pair_pods(list(range(1, 9)), 4, 3, {}) == [[1, 2, 3, 4], [5, 6, 7, 8]]


def _play(players, rounds_to_play):
    standing = list(range(1, players + 1))
    rounds = []
    seats: dict[int, Counter[int]] = {p: Counter() for p in standing}
    for _ in range(rounds_to_play):
        tables = pair_pods(standing, 4, 3, tablemates(rounds), seats)
        for table in tables:
            for seat, player in enumerate(table):
                seats[player][seat] += 1
        rounds.append(tables)
        assert sorted(p for t in tables for p in t) == standing
    return rounds


def test_three_rounds_of_sixteen_at_four_seats_repeat_no_tablemate():
    assert max(tablemates(_play(16, 3)).values()) == 1


def test_twelve_at_four_seats_repeat_only_what_three_tables_force():
    # Four seats drawn from three earlier tables put two old tablemates together at each table.
    second = _play(12, 2)
    assert sum(1 for count in tablemates(second).values() if count > 1) == 3
    assert max(tablemates(_play(12, 3)).values()) == 2


def test_seats_go_to_whoever_sat_there_least():
    seats = {1: Counter({0: 2}), 2: Counter({1: 2}), 3: Counter({2: 2})}
    (table,) = pair_pods([1, 2, 3], 3, 3, {}, seats)
    assert table[0] != 1 and table[1] != 2 and table[2] != 3


@pytest.mark.parametrize("seed", range(4))
def test_sixteen_players_in_fours_for_six_rounds_repeat_no_more_tablemates_than_they_must(seed):
    # Each player sits with 18 tablemates over six rounds among 15 others: at least 3 meetings
    # again each, 24 in all, whatever the scores; the search reaches that.
    rng = random.Random(seed)
    points: Counter[int] = Counter()
    rounds: list[list[list[int]]] = []
    for _round in range(6):
        standing = sorted(range(1, 17), key=lambda p: (-points[p], p))
        tables = pair_pods(standing, 4, 3, tablemates(rounds))
        rounds.append(tables)
        for table in tables:
            order = rng.sample(table, len(table))
            for place, player in enumerate(order):
                points[player] += len(table) - 1 - place
    assert sum(count - 1 for count in tablemates(rounds).values()) == 24
