"""Round robins follow FIDE's published Berger tables (Handbook C.05, Annex 1)."""

import itertools

import pytest

from engine.pairing.round_robin import berger_rounds, schedule


def _table(text: str) -> list[list[tuple[int, int]]]:
    return [[tuple(map(int, board.split("-"))) for board in line.split(", ")] for line in text.strip().splitlines()]


PUBLISHED = {
    4: """1-4, 2-3
4-3, 1-2
2-4, 3-1""",
    6: """1-6, 2-5, 3-4
6-4, 5-3, 1-2
2-6, 3-1, 4-5
6-5, 1-4, 2-3
3-6, 4-2, 5-1""",
    8: """1-8, 2-7, 3-6, 4-5
8-5, 6-4, 7-3, 1-2
2-8, 3-1, 4-7, 5-6
8-6, 7-5, 1-4, 2-3
3-8, 4-2, 5-1, 6-7
8-7, 1-6, 2-5, 3-4
4-8, 5-3, 6-2, 7-1""",
    10: """1-10, 2-9, 3-8, 4-7, 5-6
10-6, 7-5, 8-4, 9-3, 1-2
2-10, 3-1, 4-9, 5-8, 6-7
10-7, 8-6, 9-5, 1-4, 2-3
3-10, 4-2, 5-1, 6-9, 7-8
10-8, 9-7, 1-6, 2-5, 3-4
4-10, 5-3, 6-2, 7-1, 8-9
10-9, 1-8, 2-7, 3-6, 4-5
5-10, 6-4, 7-3, 8-2, 9-1""",
    12: """1-12, 2-11, 3-10, 4-9, 5-8, 6-7
12-7, 8-6, 9-5, 10-4, 11-3, 1-2
2-12, 3-1, 4-11, 5-10, 6-9, 7-8
12-8, 9-7, 10-6, 11-5, 1-4, 2-3
3-12, 4-2, 5-1, 6-11, 7-10, 8-9
12-9, 10-8, 11-7, 1-6, 2-5, 3-4
4-12, 5-3, 6-2, 7-1, 8-11, 9-10
12-10, 11-9, 1-8, 2-7, 3-6, 4-5
5-12, 6-4, 7-3, 8-2, 9-1, 10-11
12-11, 1-10, 2-9, 3-8, 4-7, 5-6
6-12, 7-5, 8-4, 9-3, 10-2, 11-1""",
}


@pytest.mark.parametrize("players", sorted(PUBLISHED))
def test_the_rounds_are_fides_berger_table(players):
    assert berger_rounds(players) == _table(PUBLISHED[players])


@pytest.mark.parametrize("players", [5, 7, 9, 11])
def test_an_odd_field_uses_the_next_table_and_its_highest_number_is_the_bye(players):
    rounds = schedule(players)
    assert len(rounds) == players
    for round_, published in zip(rounds, _table(PUBLISHED[players + 1]), strict=True):
        resting = [min(a, b) for a, b in published if max(a, b) == players + 1]
        assert [s.player for s in round_.sat_out] == resting
        assert len(round_.boards) == players // 2


@pytest.mark.parametrize("players", range(2, 17))
def test_everyone_meets_everyone_exactly_once(players):
    met = [frozenset((b.first, b.second)) for r in schedule(players) for b in r.boards]
    everyone = map(frozenset, itertools.combinations(range(1, players + 1), 2))
    assert sorted(met, key=sorted) == sorted(everyone, key=sorted)


@pytest.mark.parametrize("players", range(3, 17))
def test_a_double_round_robin_meets_everyone_twice_once_in_each_seat(players):
    boards = [(b.first, b.second) for r in schedule(players, double=True) for b in r.boards]
    assert sorted(boards) == sorted(itertools.permutations(range(1, players + 1), 2))


@pytest.mark.parametrize("players", range(4, 17, 2))
def test_nobody_has_the_same_seat_three_rounds_running_across_the_two_cycles(players):
    rounds = schedule(players, double=True)
    cycle = players - 1
    for player in range(1, players + 1):
        seats = [next(0 if b.first == player else 1 for b in r.boards if player in (b.first, b.second))
                 for r in rounds[cycle - 2:cycle + 1]]
        assert len(set(seats)) > 1, (player, seats)


def test_a_round_robin_of_one_or_seventeen_is_refused():
    with pytest.raises(ValueError, match="2 to 16"):
        schedule(17)
    with pytest.raises(ValueError, match="2 to 16"):
        schedule(1)
