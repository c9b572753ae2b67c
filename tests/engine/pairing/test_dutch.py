"""The FIDE Dutch system (C.04.3, 2025) pairs every round as bbpPairings, FIDE's endorsed engine,
paired it, and keeps the basic rules (C.04.1) on hand-made cases."""

from pathlib import Path

import pytest

from engine.pairing import trf
from engine.pairing.dutch import pair_dutch
from engine.pairing.records import Board, Bye, Result, Round, SatOut

FIXTURES = Path(__file__).parent / "fixtures"
TOURNAMENTS = sorted((FIXTURES / "dutch").glob("*.trf"))


def _rounds_of(path):
    parsed = trf.parse(path.read_text())
    return [(path, number) for number in range(1, len(parsed.rounds) + 1)]


CASES = [case for path in TOURNAMENTS for case in _rounds_of(path)]


def _as_set(round_):
    return ({(b.first, b.second) for b in round_.boards},
            {s.player for s in round_.sat_out if s.bye is Bye.ALLOCATED})


@pytest.mark.parametrize(("path", "number"), CASES, ids=[f"{p.stem}-round{n}" for p, n in CASES])
def test_each_generated_round_is_paired_as_bbppairings_paired_it(path, number):
    parsed = trf.parse(path.read_text())
    played = parsed.rounds[number - 1]
    got = pair_dutch(trf.paired_players(played), parsed.rounds[:number - 1],
                     total_rounds=parsed.rounds_planned or len(parsed.rounds),
                     first_colour_to_top=trf.initial_white(parsed))
    assert _as_set(got) == _as_set(played)


def _expected(path):
    lines = path.read_text().split()
    count = int(lines[0])
    numbers = [int(x) for x in lines[1:]]
    pairs = list(zip(numbers[0::2], numbers[1::2], strict=True))
    assert len(pairs) == count
    return ({(w, b) for w, b in pairs if b}, {w for w, b in pairs if not b})


@pytest.mark.parametrize("name", ["dutch_2025_C5", "dutch_2025_C9", "issue_7"])
def test_bbppairings_own_cases_are_paired_as_its_authors_expect(name):
    parsed = trf.parse((FIXTURES / "bbp" / f"{name}.trf").read_text())
    history = [r for r in parsed.rounds if r.boards]
    field = [e.number for e in parsed.entrants if e.number not in parsed.absent]  # absent: "0000 - Z" next round
    got = pair_dutch(field, history, total_rounds=parsed.rounds_planned or len(history) + 1,
                     first_colour_to_top=trf.initial_white(parsed))
    assert _as_set(got) == _expected(FIXTURES / "bbp" / f"{name}.expected")


def _played(*games, byes=()):
    return Round(tuple(Board(w, b, r) for w, b, r in games), tuple(byes))


W, L, D = Result.FIRST_WON, Result.SECOND_WON, Result.DRAWN


def test_round_one_pairs_the_top_half_with_the_bottom_half_alternating_colours():
    got = pair_dutch(range(1, 7), [], total_rounds=5)
    assert got.boards == (Board(1, 4), Board(5, 2), Board(3, 6))
    assert got.sat_out == ()


def test_the_initial_colour_can_be_black_for_the_top_player():
    got = pair_dutch(range(1, 5), [], total_rounds=3, first_colour_to_top=False)
    assert got.boards == (Board(3, 1), Board(2, 4))


def test_an_odd_field_gives_the_lowest_player_the_pairing_allocated_bye():
    got = pair_dutch(range(1, 6), [], total_rounds=3)
    assert got.sat_out == (SatOut(5, Bye.ALLOCATED),)
    assert {p for b in got.boards for p in (b.first, b.second)} == {1, 2, 3, 4}


def test_no_player_gets_the_pairing_allocated_bye_twice():
    first = _played((1, 3, W), (4, 2, D), byes=[SatOut(5, Bye.ALLOCATED)])
    got = pair_dutch(range(1, 6), [first], total_rounds=3)
    assert got.sat_out and got.sat_out[0].player != 5


def test_a_player_who_won_by_forfeit_does_not_get_the_bye():
    first = _played((1, 4, W), (2, 5, W), (3, 6, Result.FIRST_WON_BY_FORFEIT))
    second = pair_dutch(range(1, 8), [first], total_rounds=5)
    assert second.sat_out[0].player != 3


def test_players_never_meet_twice():
    rounds: list[Round] = []
    met: set[frozenset[int]] = set()
    for _ in range(5):
        got = pair_dutch(range(1, 9), rounds, total_rounds=5)
        for board in got.boards:
            pair = frozenset((board.first, board.second))
            assert pair not in met
            met.add(pair)
        rounds.append(Round(tuple(Board(b.first, b.second, W) for b in got.boards)))


def test_a_forfeited_game_was_not_played_so_the_two_may_meet_again():
    first = _played((1, 2, Result.FIRST_WON_BY_FORFEIT))
    got = pair_dutch([1, 2], [first], total_rounds=3)
    assert {(b.first, b.second) for b in got.boards} in ({(1, 2)}, {(2, 1)})


def test_a_forfeited_game_gives_no_colour():
    first = _played((1, 3, Result.FIRST_WON_BY_FORFEIT), (2, 4, W))
    second = _played((1, 2, W), (3, 4, W))
    got = pair_dutch(range(1, 5), [first, second], total_rounds=4)
    # 1 has white once (the forfeit does not count), 4 black twice: 4 must get white.
    assert any(b.first == 4 for b in got.boards)


def test_two_players_due_the_same_colour_absolutely_do_not_meet_before_the_last_round():
    # 1 and 2 have had white twice in a row; they have not met; 3 and 4 have had black twice.
    rounds = [_played((1, 5, D), (2, 6, D), (7, 3, D), (8, 4, D)),
              _played((1, 7, D), (2, 8, D), (5, 3, D), (6, 4, D))]
    got = pair_dutch(range(1, 9), rounds, total_rounds=5)
    pairs = {frozenset((b.first, b.second)) for b in got.boards}
    assert frozenset((1, 2)) not in pairs and frozenset((3, 4)) not in pairs


def test_a_late_entry_is_paired_like_anyone_else():
    first = _played((1, 3, W), (4, 2, W))
    got = pair_dutch([1, 2, 3, 4, 5, 6], [first], total_rounds=4)
    assert 5 in {p for b in got.boards for p in (b.first, b.second)}
    assert 6 in {p for b in got.boards for p in (b.first, b.second)}


def test_an_absent_player_is_left_out():
    first = _played((1, 3, W), (4, 2, W))
    got = pair_dutch([1, 2, 3], [first], total_rounds=4)
    assert 4 not in {p for b in got.boards for p in (b.first, b.second)}


def test_a_round_that_cannot_be_paired_is_refused_saying_why():
    first = _played((1, 2, W))
    with pytest.raises(ValueError, match="no pairing"):
        pair_dutch([1, 2], [first], total_rounds=3)


def test_boards_are_ordered_by_score():
    first = _played((1, 3, L), (4, 2, W))
    got = pair_dutch(range(1, 5), [first], total_rounds=3)
    top = got.boards[0]
    assert {top.first, top.second} == {3, 4}


def test_trf_reader_reads_back_what_the_report_writes():
    rounds = [_played((1, 2, D), (3, 4, Result.FIRST_WON_BY_FORFEIT), byes=[SatOut(5, Bye.ALLOCATED)]),
              _played((5, 1, W), (2, 3, L), byes=[SatOut(4, Bye.HALF_POINT)])]
    event = trf.Event("Test", "2026/01/01", "2026/01/02", "Individual: Swiss-System (Dutch)", 3)
    text = trf.report(event, [trf.Entrant(n, f"P{n}") for n in range(1, 6)], rounds)
    parsed = trf.parse(text)
    assert parsed.rounds_planned == 3
    assert [set(r.boards) for r in parsed.rounds] == [set(r.boards) for r in rounds]
    assert [set(r.sat_out) for r in parsed.rounds] == [set(r.sat_out) for r in rounds]


def test_the_bye_goes_to_the_lowest_scorer_who_has_played_the_most_games():
    # 2 lost its game, 5 entered late with a zero-point bye: both have 0 points, and the bye
    # goes to 2, who has no unplayed game (C9).
    first = _played((1, 2, W), (3, 4, D), byes=[SatOut(5, Bye.ZERO_POINT)])
    got = pair_dutch([1, 2, 3, 4, 5], [first], total_rounds=4)
    assert got.sat_out == (SatOut(2, Bye.ALLOCATED),)
