"""Tromino Go's rules (shared/rules/tromino_go.md), one test per rule and §1.11 decision."""

from __future__ import annotations

import pytest

from engine import IllegalMove, NotationError, NotYourTurn, PositionError
from engine.tromino_go import TrominoGo
from engine.tromino_go.geometry import analyse, cells_of, is_cut, shape_of, touch


def position(pieces: list[tuple[int, str, list[tuple[int, int]]]], *, t: int | None = None, first: int = 0,
             phase: str | None = None, scores: tuple[int, int] = (0, 0), passes: int = 0,
             concessions: list[dict] | None = None) -> dict:
    return {"game": "tromino_go", "seats": [{"name": "ana", "score": scores[0]}, {"name": "ben", "score": scores[1]}],
            "first": first, "round": 1, "t": len(pieces) if t is None else t, "placed": len(pieces),
            "phase": phase or ("moving" if len(pieces) >= 30 else "placing"),
            "pieces": [{"id": i + 1, "owner": owner, "letter": letter, "cells": [list(c) for c in cells]}
                       for i, (owner, letter, cells) in enumerate(pieces)],
            "passes": passes, "concessions": concessions or []}


def game(pieces, **kwargs) -> TrominoGo:
    return TrominoGo.from_position(position(pieces, **kwargs))


def test_there_are_four_orientations_named_after_the_elbow():
    assert shape_of([(1, 0), (0, 1), (1, 1)]) == ("NE", (0, 0))
    assert shape_of([(0, 0), (1, 0), (0, 1)]) == ("SW", (0, 0))
    assert shape_of([(0, 0), (2, 0), (1, 0)]) is None


def test_diagonal_contact_is_no_touch():
    assert touch(cells_of("SW", (0, 0)), cells_of("SW", (1, 1))) == 2
    assert touch(frozenset({(0, 0)}), frozenset({(1, 1)})) == 0


def test_the_first_play_goes_at_the_origin():
    g = TrominoGo.new(2, seed=1)
    seat = g.to_move()[0]
    assert g.parse(seat, "play SW") == "play 0,0 SW"
    with pytest.raises(IllegalMove, match="first tromino goes at 0,0"):
        g.parse(seat, "play 3,3 SW")


def test_b_must_touch_a_along_two_units_of_edge():
    g = game([(0, "A", [(0, 0), (1, 0), (0, 1)])])
    with pytest.raises(IllegalMove, match="b must touch A along 2 units of edge; 2,0 NW touches it along 1"):
        g.parse(1, "play 2,0 NW")
    assert g.parse(1, "play 1,1 SW") == "play 1,1 SW"


def test_c_touches_b_along_two_and_not_a():
    g = game([(0, "A", [(0, 0), (1, 0), (0, 1)]), (1, "b", [(1, 1), (2, 1), (1, 2)])])
    with pytest.raises(IllegalMove, match="C may not touch A"):
        g.parse(0, "play 2,0 SE")
    assert g.parse(0, "play 2,2 SW") == "play 2,2 SW"


def test_play_four_may_not_touch_a_either_unless_the_option_is_off():
    pieces = [(0, "A", [(0, 0), (1, 0), (0, 1)]), (1, "b", [(1, 1), (2, 1), (1, 2)]),
              (0, "C", [(2, 2), (3, 2), (3, 3)])]
    g = game(pieces)
    candidates = [a for a in g.legal_actions(1) if a.startswith("play")]
    a_cells = cells_of("SW", (0, 0))
    for action in candidates:
        _, anchor, orientation = action.split()
        x, y = (int(v) for v in anchor.split(","))
        assert touch(cells_of(orientation, (x, y)), a_cells) == 0


OPENING = [(0, "A", [(0, 0), (1, 0), (0, 1)]), (1, "b", [(1, 1), (2, 1), (1, 2)]),
           (0, "C", [(2, 2), (3, 2), (2, 3)]), (1, "a", [(3, 3), (4, 3), (4, 4)])]


def test_from_play_five_a_letter_may_not_touch_its_own_letter_of_either_case():
    with pytest.raises(IllegalMove, match="B may not touch b \\(the same letter\\)"):
        game(OPENING).parse(0, "play 2,0 SE")


def test_a_play_must_touch_the_opponent_and_two_units_in_all():
    with pytest.raises(IllegalMove, match="must touch the other player's trominoes"):
        game(OPENING).parse(0, "play -2,0 SE")


RING = [cells_of("SE", (-2, 0)), cells_of("NW", (0, -2)), cells_of("NE", (1, 0)), cells_of("SW", (0, 2))]
"""Four trominoes around the cells of SW at 0,0, touching each other only at corners."""


def test_a_lone_tromino_has_eight_unit_edges_all_outside():
    assert analyse([cells_of("SW", (0, 0))]).out == [8]


def test_a_group_with_no_outside_edge_ends_the_round_and_the_other_player_scores():
    pieces = [(1, "b", sorted(cells_of("SW", (0, 0))))] + [(0, "ACAB"[i], sorted(c)) for i, c in enumerate(RING)]
    g = game(pieces, t=5)
    assert g.analysis().out[0] == 0
    events = g._after_change()
    end = next(e for e in events if e.kind == "round_end")
    assert end.data == {"winner": 0, "points": 1, "reaction": "victory"} and g.points == [1, 0]
    assert g.round == 2 and g.first == 1  # the loser starts the next round


def test_no_mans_land_is_sealed_by_diagonal_gaps():
    analysis = analyse(RING)
    assert analysis.no_mans_land() == set(cells_of("SW", (0, 0)))
    assert all(analysis.out[i] > 0 for i in range(4))


def test_a_cut_piece_holds_the_others_together():
    left, middle, right = cells_of("SW", (0, 0)), cells_of("SE", (2, 0)), cells_of("SW", (4, 0))
    assert is_cut([left, middle, right], 1) and not is_cut([left, middle, right], 0)


def test_a_pass_is_accepted_only_when_nothing_is_legal_and_is_then_forced():
    g = TrominoGo.new(2, seed=1)
    seat = g.to_move()[0]
    with pytest.raises(IllegalMove, match="only when nothing is legal"):
        g.parse(seat, "pass")
    assert g.forced_action(seat) is None


def test_six_passes_in_a_row_tie_the_round():
    g = game([(0, "A", [(0, 0), (1, 0), (0, 1)])], passes=5)
    events = g._pass(1)
    assert any(e.kind == "round_end" and "tie" in e.text for e in events) and g.round == 2


def test_either_player_may_concede_and_the_other_accept_the_largest_by_default():
    g = TrominoGo.new(2, seed=1)
    mover = g.to_move()[0]
    g.apply(1 - mover, "concede 1")
    g.apply(1 - mover, "concede 2")
    assert g.parse(mover, "accept") == "accept 2"
    g.apply(mover, "accept")
    assert g.points[mover] == 2 and g.round == 2 and g.first == 1 - mover  # the conceder starts


def test_accepting_without_an_offer_is_refused():
    g = TrominoGo.new(2, seed=1)
    with pytest.raises(IllegalMove, match="no concession"):
        g.parse(0, "accept")


def test_seven_tgpoints_win_the_game():
    g = TrominoGo.from_position(position([], scores=(6, 0)))
    g.apply(1, "concede 1")
    g.apply(0, "accept 1")
    outcome = g.outcome()
    assert outcome is not None and outcome.winners == (0,) and g.to_move() == ()


def test_a_missed_deadline_loses_the_whole_game():
    g = TrominoGo.new(2, seed=1)
    mover = g.to_move()[0]
    assert g.timeout_actions(mover) == ["forfeit"]
    g.apply(mover, "forfeit")
    assert g.outcome().winners == (1 - mover,)
    assert TrominoGo.default_turn_seconds == 72 * 3600


def test_only_the_mover_plays_but_either_may_concede():
    g = TrominoGo.new(2, seed=1)
    other = 1 - g.to_move()[0]
    with pytest.raises(NotYourTurn):
        g.parse(other, "play SW")
    assert g.parse(other, "concede 0") == "concede 0"


def test_the_notation_reads_three_cells_and_a_checked_letter():
    g = game([(0, "A", [(0, 0), (1, 0), (0, 1)])])
    assert g.parse(1, "1,1 2,1 1,2") == "play 1,1 SW"
    assert g.parse(1, "b 1,1 sw") == "play 1,1 SW"
    with pytest.raises(IllegalMove, match="letter to play is b"):
        g.parse(1, "C 1,1 SW")
    with pytest.raises(NotationError, match="not an orientation"):
        g.parse(1, "play 1,1 XY")


def test_greedy_games_reach_the_moving_phase_where_points_double():
    from engine.ai import GreedyAgent

    g = TrominoGo.new(2, seed=3)
    agent = GreedyAgent()
    for _ in range(31):
        if g.outcome() is not None or g.phase == "moving":
            break
        seat = g.to_move()[0]
        g.apply(seat, agent.choose(g, seat))
    assert g.phase == "moving" or g.round > 1
    if g.phase == "moving":
        seat = g.to_move()[0]
        moves = [a for a in g.legal_actions(seat) if a.startswith("move")]
        assert all(a.split()[0] == "move" for a in moves)
        for index in g.movable():
            assert g.analysis().out[index] >= 1


def test_positions_round_trip_exactly_and_bad_ones_are_refused():
    p = position([(0, "A", [(0, 0), (1, 0), (0, 1)]), (1, "b", [(2, 0), (2, 1), (1, 1)])],
                 concessions=[{"seat": 1, "points": 3}], scores=(2, 0))
    assert TrominoGo.from_position(p).to_position() == p
    bad = position([(0, "A", [(0, 0), (1, 0), (0, 1)]), (1, "b", [(0, 0), (1, 1), (0, 1)])])
    with pytest.raises(PositionError):
        TrominoGo.from_position(bad)


def test_a_surround_in_the_moving_phase_scores_double():
    pieces = [(1, "b", sorted(cells_of("SW", (0, 0))))] + [(0, "ACAB"[i], sorted(c)) for i, c in enumerate(RING)]
    g = game(pieces, t=5, phase="moving")
    events = g._after_change()
    assert next(e for e in events if e.kind == "round_end").data["points"] == 2 and g.points == [2, 0]


def test_a_cut_piece_may_not_move():
    left, middle, right = sorted(cells_of("SW", (0, 0))), sorted(cells_of("SE", (2, 0))), sorted(cells_of("SW", (4, 0)))
    g = game([(1, "b", left), (0, "A", middle), (1, "c", right)], t=0, phase="moving")
    assert g.movable() == []
    with pytest.raises(IllegalMove, match="that A may not move: it holds the other trominoes together"):
        g.parse(0, "move 2,0 to 2,3 SW")
    assert g.legal_actions(0)[0] == "pass" and g.forced_action(0) == "pass"


def test_passes_do_not_count_toward_the_thirty():
    g = game([(0, "A", [(0, 0), (1, 0), (0, 1)])], passes=0)
    g._pass(1)
    assert g.placed == 1 and g.t == 2 and g.phase == "placing"


def test_a_pass_is_a_play_for_the_clock():
    g = game([(0, "A", [(0, 0), (1, 0), (0, 1)])])
    before = g.turn_count()
    g._pass(1)
    assert g.turn_count() == before + 1


def test_an_accepted_concession_is_not_doubled_in_the_moving_phase():
    g = game([(0, "A", [(0, 0), (1, 0), (0, 1)])], phase="moving")
    g.apply(1, "concede 3")
    g.apply(0, "accept 3")
    assert g.points == [3, 0]


def test_with_single_groups_a_lone_enclosed_tromino_is_surrounded_even_in_a_living_chain():
    pieces = [(0, "b", sorted(cells_of("SW", (0, 0))))] + [(0, "ACAB"[i], sorted(c)) for i, c in enumerate(RING)]
    component = TrominoGo.from_position(position(pieces, t=5))
    single = TrominoGo.from_position(position(pieces, t=5), options=TrominoGo.Options.parse({"group_mode": "single"}))
    assert not [e for e in component._after_change() if e.kind == "round_end"]
    assert [e for e in single._after_change() if e.kind == "round_end"]
