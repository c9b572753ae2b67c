"""Tie-breaks follow FIDE C.07: Buchholz, Buchholz cut-1, Sonneborn–Berger, direct encounter."""

import pytest

from engine.pairing.records import Board, Bye, Result, Round, SatOut
from engine.pairing.tiebreaks import standings

W, L, D = Result.FIRST_WON, Result.SECOND_WON, Result.DRAWN


def _by_player(rows):
    return {row.player: row for row in rows}


def test_buchholz_adds_the_opponents_points_and_cut1_drops_the_weakest():
    # 1 beats 2 and 3; 2 beats 3; 4 draws 3 and loses to 2.
    rounds = [Round((Board(1, 2, W), Board(3, 4, D))),
              Round((Board(3, 1, L), Board(2, 4, W)))]
    rows = _by_player(standings(rounds, [1, 2, 3, 4]))
    assert [rows[p].points for p in (1, 2, 3, 4)] == [2.0, 1.0, 0.5, 0.5]
    assert rows[1].buchholz == 1.0 + 0.5
    assert rows[1].buchholz_cut1 == 1.0
    assert rows[4].buchholz == 0.5 + 1.0


def test_sonneborn_berger_weighs_each_opponents_points_by_the_result_against_them():
    rounds = [Round((Board(1, 2, W), Board(3, 4, D))),
              Round((Board(3, 1, L), Board(2, 4, W)))]
    rows = _by_player(standings(rounds, [1, 2, 3, 4]))
    assert rows[1].sonneborn_berger == 1.0 * 1.0 + 1.0 * 0.5
    assert rows[3].sonneborn_berger == 0.5 * 0.5


def test_a_bye_counts_as_a_game_against_an_opponent_with_your_own_points():
    rounds = [Round((Board(1, 2, W),), (SatOut(3),)),
              Round((Board(3, 1, D),), (SatOut(2),))]
    rows = _by_player(standings(rounds, [1, 2, 3]))
    assert rows[3].points == 1.5
    assert rows[3].buchholz == rows[1].points + rows[3].points
    assert rows[2].buchholz == rows[1].points + rows[2].points


def test_a_forfeit_counts_its_points_but_not_the_opponent_for_buchholz():
    # 1's forfeit win is a game against a dummy with 1's own point.
    rounds = [Round((Board(1, 2, Result.FIRST_WON_BY_FORFEIT), Board(3, 4, W)))]
    rows = _by_player(standings(rounds, [1, 2, 3, 4]))
    assert rows[1].points == 1.0
    assert rows[1].buchholz == 1.0


def test_direct_encounter_is_none_where_it_was_passed_over():
    rows = _by_player(standings([Round((Board(1, 2, W), Board(3, 4, W)))], [1, 2, 3, 4]))
    assert rows[1].direct_encounter is None and rows[3].direct_encounter is None


@pytest.mark.parametrize("bye, points", [(Bye.ALLOCATED, 1.0), (Bye.HALF_POINT, 0.5), (Bye.ZERO_POINT, 0.0)])
def test_each_kind_of_bye_scores_what_fide_says(bye, points):
    rows = _by_player(standings([Round((), (SatOut(1, bye),))], [1]))
    assert rows[1].points == points


def test_a_game_still_being_played_counts_nothing_yet():
    rows = _by_player(standings([Round((Board(1, 2),))], [1, 2]))
    assert rows[1].points == rows[2].points == 0.0
