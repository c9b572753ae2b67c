"""The standings table: ranks (shared on complete ties), points and tie-breaks in their stated
order, for Swiss, round robin, pods and league divisions. Every figure is computed by hand in the
comment beside it."""

import pytest

from engine.pairing.records import Board, Bye, Result, Round, SatOut
from engine.pairing.standings import (
    ROUND_ROBIN_ORDER,
    Division,
    PodRound,
    PodTable,
    league_tables,
    pod_table,
    pod_tables_by_round,
    swiss_table,
    swiss_tables_by_round,
)

W, L, D = Result.FIRST_WON, Result.SECOND_WON, Result.DRAWN


def _ranks(rows):
    return {row.player: row.rank for row in rows}


def _rows(rows):
    return {row.player: row for row in rows}


def test_players_tied_on_points_and_every_tiebreak_share_a_rank_and_the_next_rank_is_skipped():
    # 1 beats 2; 3 and 4 draw: 3 and 4 have 0.5 each, BH 0.5, BH-C1 0, SB 0.25, and drew each other.
    rows = swiss_table([Round((Board(1, 2, W), Board(3, 4, D)))], [1, 2, 3, 4])
    assert [(row.rank, row.player) for row in rows] == [(1, 1), (2, 3), (2, 4), (4, 2)]


def test_the_swiss_order_is_buchholz_cut1_sonneborn_berger_then_direct_encounter():
    # R1: 2 beats 1, 3 beats 4. R2: 1 beats 3, 4 beats 2. R3: 1 beats 4, 3 beats 2.
    # 1 and 3 have 2 points; BH 1 = 1+2+1 = 4 = BH 3; cut-1: 3 each; SB 1 = 2+1 = 3, SB 3 = 1+1 = 2.
    rounds = [Round((Board(2, 1, W), Board(3, 4, W))), Round((Board(1, 3, W), Board(4, 2, W))),
              Round((Board(1, 4, W), Board(3, 2, W)))]
    rows = _rows(swiss_table(rounds, [1, 2, 3, 4]))
    assert rows[1].tiebreaks[:3] == (4.0, 3.0, 3.0)
    assert rows[3].tiebreaks[:3] == (4.0, 3.0, 2.0)
    assert rows[1].rank == 1 and rows[3].rank == 2
    # Sonneborn–Berger already told them apart, so direct encounter is passed over.
    assert rows[1].tiebreaks[3] is None


def test_direct_encounter_decides_between_players_tied_on_everything_before_it():
    # R1: 3-1 drawn, 4-2 drawn. R2: 4 beats 3, 2 beats 1. R3: 4-1 drawn, 3 beats 2.
    # 2 and 3: 1.5 points; BH 2 = 2+1+1.5 = 4.5 = BH 3 = 1+2+1.5; cut-1 3.5 each;
    # SB 2 = 2×½ + 1×1 + 1.5×0 = 2 = SB 3 = 1×½ + 2×0 + 1.5×1; 3 beat 2.
    rounds = [Round((Board(3, 1, D), Board(4, 2, D))), Round((Board(4, 3, W), Board(1, 2, L))),
              Round((Board(4, 1, D), Board(2, 3, L)))]
    rows = _rows(swiss_table(rounds, [1, 2, 3, 4]))
    assert rows[2].points == rows[3].points == 1.5
    assert rows[2].tiebreaks[:3] == rows[3].tiebreaks[:3] == (4.5, 3.5, 2.0)
    assert rows[3].tiebreaks[3] == 1.0 and rows[2].tiebreaks[3] == 0.0
    assert rows[3].rank == 2 and rows[2].rank == 3


def test_direct_encounter_is_passed_over_when_some_tied_players_never_met():
    rows = _rows(swiss_table([Round((Board(1, 2, W), Board(3, 4, W)))], [1, 2, 3, 4]))
    assert rows[1].tiebreaks[3] is None and rows[3].tiebreaks[3] is None
    assert rows[1].rank == rows[3].rank == 1


def test_an_opponents_voluntary_unplayed_round_counts_as_a_draw_in_your_buchholz():
    # R1: 1 beats 2, 3 takes a zero-point bye, 4 the pairing's bye. R2: 3 beats 1, 2 beats 4.
    # R3: 3 beats 2, 1 beats 4. Points 1: 2, 2: 1, 3: 2, 4: 1. 3's bye counts ½ for others: 2.5.
    rounds = [Round((Board(1, 2, W),), (SatOut(3, Bye.ZERO_POINT), SatOut(4, Bye.ALLOCATED))),
              Round((Board(3, 1, W), Board(2, 4, W))), Round((Board(3, 2, W), Board(1, 4, W)))]
    rows = _rows(swiss_table(rounds, [1, 2, 3, 4]))
    assert rows[1].tiebreaks[0] == 1 + 2.5 + 1          # 2, 3 (adjusted), 4 (its bye was not its choice)
    assert rows[3].tiebreaks[0] == 2 + 2 + 1            # its own bye: a dummy with its 2 points; 1; 2
    assert rows[3].tiebreaks[1] == 2 + 1                # cut-1 cuts the voluntary round first, not 2's 1
    assert rows[3].tiebreaks[2] == 2 * 0 + 2 * 1 + 1 * 1


def test_a_forfeit_win_is_not_a_game_for_the_tiebreaks_and_the_loser_counts_it_as_a_draw_for_others():
    # R1: 1 wins by forfeit against 2; 3 beats 4. R2: 2 beats 3; 1 beats 4.
    rounds = [Round((Board(1, 2, Result.FIRST_WON_BY_FORFEIT), Board(3, 4, W))),
              Round((Board(2, 3, W), Board(1, 4, W)))]
    rows = _rows(swiss_table(rounds, [1, 2, 3, 4]))
    assert rows[1].points == 2.0
    assert rows[1].tiebreaks[0] == 2.0 + 0.0            # a dummy with 1's own 2 points; 4 has nothing
    assert rows[3].tiebreaks[0] == 0.0 + 1.5            # 4; 2's forfeit loss counts ½ + its win 1


def test_a_player_missing_from_a_round_scores_nothing_in_it():
    rows = _rows(swiss_table([Round((Board(1, 2, W),))], [1, 2, 3]))
    # 2 and 3 have nothing; 2 lost to 1 (BH 1), 3's missed round counts its own 0 points.
    assert rows[3].points == 0.0 and rows[3].tiebreaks[0] == 0.0 and rows[3].rank == 3


def test_a_table_follows_every_round():
    rounds = [Round((Board(1, 2, W),)), Round((Board(2, 1, W),))]
    tables = swiss_tables_by_round(rounds, [1, 2])
    assert [[(row.rank, row.player, row.points) for row in table] for table in tables] == [
        [(1, 1, 1.0), (2, 2, 0.0)], [(1, 1, 1.0), (1, 2, 1.0)]]


def test_a_round_robin_ranks_by_direct_encounter_then_sonneborn_berger():
    # 1 beats 2 and 4, loses to 3; 2 beats 3 and 4; 3 beats 1; 4 beats 3. 1 and 2: 2 points.
    rounds = [Round((Board(1, 4, W), Board(2, 3, W))), Round((Board(4, 3, W), Board(1, 2, W))),
              Round((Board(2, 4, W), Board(3, 1, W)))]
    rows = _rows(swiss_table(rounds, [1, 2, 3, 4], order=ROUND_ROBIN_ORDER))
    assert rows[1].tiebreaks == (1.0, 2 + 1)            # beat 2 (2 points) and 4 (1)
    assert rows[2].tiebreaks == (0.0, 1 + 1)
    assert (rows[1].rank, rows[2].rank) == (1, 2)


def test_a_cycle_of_wins_shares_first_place():
    rounds = [Round((Board(1, 2, W),), (SatOut(3),)), Round((Board(2, 3, W),), (SatOut(1),)),
              Round((Board(3, 1, W),), (SatOut(2),))]
    rows = swiss_table(rounds, [1, 2, 3], order=ROUND_ROBIN_ORDER)
    assert {row.rank for row in rows} == {1}


# ---------------------------------------------------------------------------------------------
# Pods

ROUND_ONE = PodRound((PodTable((1, 2, 3, 4), (1, 2, 3, 4)), PodTable((5, 6, 7, 8), (1, 2, 2, 4))))


def test_pods_score_points_by_placing_with_ties_sharing_the_places_points():
    rows = _rows(pod_table([ROUND_ONE], range(1, 9), size=4))
    assert [rows[p].points for p in range(1, 9)] == [3.0, 2.0, 1.0, 0.0, 3.0, 1.5, 1.5, 0.0]


def test_pod_players_equal_on_points_placings_and_tablemates_share_a_rank():
    # 1 and 5 each won: placings 1, tablemates' points (2+1+0)/3 = (1.5+1.5+0)/3 = 1.
    rows = pod_table([ROUND_ONE], range(1, 9), size=4)
    assert [(row.rank, row.player) for row in rows] == [
        (1, 1), (1, 5), (3, 2), (4, 6), (4, 7), (6, 3), (7, 4), (7, 8)]


def test_the_lower_sum_of_placings_wins_a_tie_on_points():
    # 1 wins a table of three (2 points, placing 1); 4 is second at a table of four (2 points, placing 2).
    rounds = [PodRound((PodTable((1, 2, 3), (1, 2, 3)), PodTable((4, 5, 6, 7), (2, 1, 3, 4))))]
    rows = _rows(pod_table(rounds, range(1, 8), size=4))
    assert rows[1].points == rows[4].points == 2.0
    assert rows[1].tiebreaks[0] == 1 and rows[4].tiebreaks[0] == 2
    assert rows[1].rank < rows[4].rank


def test_the_tablemates_points_decide_after_the_placings():
    # Round 2: 1 (3 points) and 5 (3 points) both win again, 1 against tablemates who had done better.
    two = PodRound((PodTable((1, 2, 6, 7), (1, 2, 3, 4)), PodTable((5, 3, 4, 8), (1, 2, 3, 4))))
    rows = _rows(pod_table([ROUND_ONE, two], range(1, 9), size=4))
    assert rows[1].points == rows[5].points == 6.0 and rows[1].tiebreaks[0] == rows[5].tiebreaks[0] == 2
    # final points: 2: 4, 3: 3, 4: 1, 6: 2.5, 7: 1.5, 8: 0.
    assert rows[1].tiebreaks[1] == pytest.approx((4 + 3 + 1) / 3 + (4 + 2.5 + 1.5) / 3)
    assert rows[5].tiebreaks[1] == pytest.approx((2.5 + 1.5 + 0) / 3 + (3 + 1 + 0) / 3)
    assert rows[1].rank == 1 and rows[5].rank == 2


def test_a_pod_round_sat_out_or_missed_counts_as_last_place_in_the_placings():
    one = PodRound((PodTable((1, 2, 3), (1, 2, 3)),), {4: 1.0})
    rows = _rows(pod_table([one], [1, 2, 3, 4, 5], size=3))
    assert rows[4].points == 1.0 and rows[4].tiebreaks[0] == 3
    assert rows[5].points == 0.0 and rows[5].tiebreaks[0] == 3


def test_a_pod_table_still_playing_counts_nothing_yet():
    tables = pod_tables_by_round([ROUND_ONE, PodRound((PodTable((1, 2, 3, 4)), PodTable((5, 6, 7, 8))))],
                                 range(1, 9), size=4)
    assert [row.points for row in tables[1]] == [row.points for row in tables[0]]


# ---------------------------------------------------------------------------------------------
# Leagues


def _division(name, players, winner_order, promote, relegate):
    """A single round robin of four where each player beats everyone listed after them."""
    a, b, c, d = winner_order
    rounds = (Round((Board(a, d, W), Board(b, c, W))), Round((Board(a, c, W), Board(b, d, W))),
              Round((Board(a, b, W), Board(c, d, W))))
    return Division(name, tuple(players), rounds, promote, relegate)


def test_a_league_marks_the_top_of_each_division_up_and_the_bottom_down_but_not_off_the_ends():
    top = _division("A", [1, 2, 3, 4], [2, 1, 3, 4], promote=1, relegate=1)
    bottom = _division("B", [5, 6, 7, 8], [8, 7, 6, 5], promote=1, relegate=1)
    (_, a), (_, b) = league_tables([top, bottom])
    assert [(row.player, row.movement) for row in a] == [(2, None), (1, None), (3, None), (4, "down")]
    assert [(row.player, row.movement) for row in b] == [(8, "up"), (7, None), (6, None), (5, None)]
    assert [row.rank for row in a] == [1, 2, 3, 4]


def test_a_middle_division_sends_players_both_ways():
    divisions = [_division(name, [4 * i + 1, 4 * i + 2, 4 * i + 3, 4 * i + 4],
                           [4 * i + 1, 4 * i + 2, 4 * i + 3, 4 * i + 4], promote=2, relegate=1)
                 for i, name in enumerate("ABC")]
    _, middle = league_tables(divisions)[1]
    assert [row.movement for row in middle] == ["up", "up", None, "down"]
