"""Tromino Go's rules (shared/rules/tromino_go.md), one test per rule and §1.11 decision."""

from __future__ import annotations

import pytest

from engine import IllegalMove, NotationError, NotYourTurn, PositionError
from engine.tromino_go import TrominoGo
from engine.tromino_go.geometry import analyse, cells_of, is_cut, shape_of, touch
from engine.tromino_go.state import Piece


def position(pieces: list[tuple[int, str, list[tuple[int, int]]]], *, t: int | None = None, first: int = 0,
             phase: str | None = None, scores: tuple[int, int] = (0, 0), passes: int = 0,
             concessions: list[dict] | None = None, moving_turns: int = 0) -> dict:
    """A position from pieces given as (seat, letter, cells); the position writes each owner as
    its role (0 for the seat `first`)."""
    return {"game": "tromino_go", "options": {},
            "seats": [{"name": "ana", "score": scores[0]}, {"name": "ben", "score": scores[1]}],
            "first": first, "round": 1, "t": len(pieces) if t is None else t, "placed": len(pieces),
            "phase": phase or ("moving" if len(pieces) >= 30 else "placing"), "moving_turns": moving_turns,
            "pieces": [{"id": i + 1, "owner": 0 if seat == first else 1, "letter": letter,
                        "cells": [list(c) for c in cells]} for i, (seat, letter, cells) in enumerate(pieces)],
            "passes": passes, "concessions": concessions or [], "result": None}


def game(pieces, **kwargs) -> TrominoGo:
    return TrominoGo.from_position(position(pieces, **kwargs))


def with_last_laid(pieces, **kwargs) -> TrominoGo:
    """The game at the position of all `pieces` but the last, with the last then put on the grid
    directly (no check), as a play would just before the round-end check (`_after_change`)."""
    options = kwargs.pop("options", None)
    g = TrominoGo.from_position(position(pieces[:-1], **kwargs), options=options)
    seat, letter, cells = pieces[-1]
    g.pieces.append(Piece(len(pieces), seat, letter, frozenset(cells)))
    g.placed += 1
    g._analysis = None
    return g


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
    with pytest.raises(IllegalMove, match="`b` must touch `A` along 2 units of edge; 2,0 NW touches it along 1"):
        g.parse(1, "play 2,0 NW")
    assert g.parse(1, "play 1,1 SW") == "play 1,1 SW"


def test_c_touches_b_along_two_and_not_a():
    g = game([(0, "A", [(0, 0), (1, 0), (0, 1)]), (1, "b", [(1, 1), (2, 1), (1, 2)])])
    with pytest.raises(IllegalMove, match="`C` may not touch `A`"):
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
    with pytest.raises(IllegalMove, match="`B` may not touch `b` \\(the same letter\\)"):
        game(OPENING).parse(0, "play 2,0 SE")


def test_a_play_must_touch_the_opponent_and_two_units_in_all():
    with pytest.raises(IllegalMove, match="must touch the other player's trominoes"):
        game(OPENING).parse(0, "play -2,0 SE")


RING = [cells_of("SE", (-2, 0)), cells_of("NW", (0, -2)), cells_of("NE", (1, 0)), cells_of("SW", (0, 2))]
"""Four trominoes around the cells of SW at 0,0, touching each other only at corners."""


def test_a_lone_tromino_has_eight_unit_edges_all_outside():
    assert analyse([cells_of("SW", (0, 0))]).out == [8]


def test_a_group_with_no_outside_edge_ends_the_round_and_the_other_player_scores():
    pieces = [(0, "ACAB"[i], sorted(c)) for i, c in enumerate(RING)] + [(1, "b", sorted(cells_of("SW", (0, 0))))]
    g = with_last_laid(pieces, t=5)
    assert g.analysis().out[4] == 0
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
    with pytest.raises(IllegalMove, match="when nothing is legal the referee passes for you"):
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
    pieces = [(0, "ACAB"[i], sorted(c)) for i, c in enumerate(RING)] + [(1, "b", sorted(cells_of("SW", (0, 0))))]
    g = with_last_laid(pieces, t=5, phase="moving")
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
    pieces = [(0, "ACAB"[i], sorted(c)) for i, c in enumerate(RING)] + [(0, "B", sorted(cells_of("SW", (0, 0))))]
    component = with_last_laid(pieces, t=5)
    single = with_last_laid(pieces, t=5, options=TrominoGo.Options.parse({"group_mode": "single"}))
    assert not [e for e in component._after_change() if e.kind == "round_end"]
    assert [e for e in single._after_change() if e.kind == "round_end"]


# ---- scenarios from positions, played through `apply` -----------------------------------------------


def board(spec: str, *, first: int, t: int, phase: str = "placing") -> TrominoGo:
    """A position from `owner letter x,y x,y x,y / ...`, pieces in the order played."""
    pieces = []
    for part in spec.split("/"):
        head, *cells = part.split()
        pieces.append((int(head[0]), head[1], [tuple(int(v) for v in c.split(",")) for c in cells]))
    p = position(pieces, t=t, first=first, phase=phase)
    p["seats"] = [{"name": "P1", "score": 0}, {"name": "P2", "score": 0}]
    return TrominoGo.from_position(p)


SURROUND_BY_NML = ("1A 0,0 1,0 1,1 / 0b -1,0 -1,1 0,1 / 1C -3,0 -2,0 -2,1 / 0a -3,1 -3,2 -2,2 / "
                   "1B -5,2 -4,1 -4,2 / 0c 0,-1 1,-2 1,-1 / 1A -2,-2 -2,-1 -1,-1 / 0b 1,2 2,1 2,2")
"""P2 (seat 1, lower case) is to play c; `play -1,2 NE` seals P1's b at -1,0 against an empty cell."""


def test_a_surround_in_the_placing_phase_ends_the_round_and_scores_the_difference():
    g = board(SURROUND_BY_NML, first=1, t=8)
    events = g.apply(1, "play -1,2 NE")
    end = next(e for e in events if e.kind == "round_end")
    assert end.data["winner"] == 1 and end.data["points"] == 1 and g.points == [0, 1]
    assert g.round == 2 and g.first == 0 and g.pieces == []  # the loser starts, with capitals


def test_an_enclosed_empty_cell_is_no_mans_land_and_no_outside_edge():
    g = board(SURROUND_BY_NML, first=1, t=8)
    g.apply(1, "play -1,2 NE")
    ended = g.view(None)["previous"]
    assert [0, 2] in ended["nml"] or ended["nml"]  # the cell the b faced is enclosed
    dead = [p for p in ended["pieces"] if p["id"] in ended["surrounded"]]
    assert [p["letter"] for p in dead] == ["b"] and dead[0]["cells"] == [[-1, 0], [-1, 1], [0, 1]]
    nml = {tuple(c) for c in ended["nml"]}
    assert any((x + dx, y + dy) in nml for x, y in dead[0]["cells"] for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))


SELF_SURROUND = ("0A 0,1 1,0 1,1 / 1b -1,-1 0,-1 0,0 / 0C -1,-2 0,-3 0,-2 / 1a 1,-3 1,-2 2,-3 / "
                 "0B 2,-2 3,-2 3,-1 / 1c 2,-1 2,0 3,0 / 0A 3,1 4,0 4,1 / 1b 3,2 3,3 4,2 / 0C 3,-3 4,-3 4,-2 / "
                 "1a 4,-4 5,-4 5,-3 / 0B 4,-5 5,-6 5,-5")


def test_surrounding_your_own_group_is_legal_and_scores_for_the_other_player():
    g = board(SELF_SURROUND, first=0, t=11)
    assert "play 1,2 NW" in g.legal_actions(1)
    g.apply(1, "play 1,2 NW")
    assert g.points == [1, 0] and g.first == 1  # P2 surrounded its own c and lost the round


MOVING = ("1A 0,0 1,0 1,1 / 0b -1,-1 -1,0 0,-1 / 1C -1,-2 0,-3 0,-2 / 0a -3,-2 -2,-2 -2,-1 / "
          "1B -4,-3 -3,-4 -3,-3 / 0c -6,-12 -5,-12 -5,-11 / 1A -1,-7 -1,-6 0,-6 / 0b -6,-7 -5,-7 -5,-6 / "
          "1C -4,-2 -4,-1 -3,-1 / 0a -8,-7 -8,-6 -7,-7 / 1B -8,-8 -7,-9 -7,-8 / 0c -7,-6 -7,-5 -6,-5 / "
          "1A 2,-3 3,-3 3,-2 / 0b 1,-3 1,-2 2,-2 / 1C -1,1 0,1 0,2 / 0a -2,1 -2,2 -1,2 / 1B -3,-8 -3,-7 -2,-7 / "
          "0c -2,-9 -2,-8 -1,-8 / 1A -5,-5 -4,-6 -4,-5 / 0b -3,-11 -2,-11 -2,-10 / 1C -3,6 -2,5 -2,6 / "
          "0a -7,-11 -7,-10 -6,-11 / 1B -8,-5 -8,-4 -7,-4 / 0c -8,-3 -8,-2 -7,-3 / 1A -1,-11 -1,-10 0,-11 / "
          "0b 4,-3 4,-2 5,-3 / 1C -3,2 -3,3 -2,3 / 0a -2,4 -1,4 -1,5 / 1B -1,-5 0,-5 0,-4 / 0c -5,-8 -4,-9 -4,-8")


def test_a_surround_in_the_moving_phase_scores_double_through_a_move():
    g = board(MOVING, first=1, t=65, phase="moving")
    assert g.letter == "c" and g.mover == 0
    with pytest.raises(IllegalMove, match="all 30 trominoes are down"):
        g.parse(0, "play 9,9 SW")
    assert g.parse(0, "move -8,-2 to -6,-4 NE") == "move -8,-3 to -6,-4 NE"  # any cell names the tromino
    g.apply(0, "move -7,-3 to -6,-4 NE")
    assert g.points == [2, 0] and g.round == 2


def test_only_a_tromino_of_the_current_letter_and_your_own_may_move():
    g = board(MOVING, first=1, t=65, phase="moving")
    with pytest.raises(IllegalMove, match="move one of your c trominoes; that one is A"):
        g.parse(0, "move 0,0 to 5,5 SW")
    with pytest.raises(IllegalMove, match="there is no tromino on 40,40"):
        g.parse(0, "move 40,40 to 5,5 SW")


def test_a_move_must_change_the_cells():
    g = board(MOVING, first=1, t=65, phase="moving")
    with pytest.raises(IllegalMove, match="somewhere else"):
        g.parse(0, "move -8,-3 to -8,-3 SW")


def test_trominoes_do_not_move_in_the_placing_phase():
    with pytest.raises(IllegalMove, match="move only after 30"):
        game(OPENING).parse(0, "move 0,0 to 5,5 SW")


def test_a_pass_is_forced_when_the_mover_has_nothing_to_play():
    g = game([(0, "A", [(0, 0), (1, 0), (0, 1)]), (1, "b", [(1, 1), (2, 1), (1, 2)])], t=2, phase="moving")
    assert g.letter == "C" and g.legal_actions(0)[0] == "pass" and g.forced_action(0) == "pass"
    assert g.forced_action(1) is None  # not the mover
    events = g.apply(0, "pass")
    assert events[0].kind == "pass" and g.t == 3 and g.passes == 1


def test_a_move_cap_ends_the_moving_phase_in_a_tie_when_set():
    options = TrominoGo.Options.parse({"max_moving_turns": "1"})
    g = board(MOVING, first=1, t=65, phase="moving")
    g = TrominoGo.from_position(g.to_position(), options=options)
    legal = [a for a in g.legal_actions(0) if a.startswith("move") and a != "move -8,-3 to -6,-4 NE"]
    quiet = next(a for a in legal if not _ends_round(g, a))
    events = g.apply(0, quiet)
    assert any(e.kind == "round_end" and "tie" in e.text for e in events) and g.points == [0, 0]
    assert g.first == 0  # after a tie the second player of the tied round starts


def _ends_round(g: TrominoGo, action: str) -> bool:
    copy = g.clone()
    copy.apply(copy.mover, action)
    return copy.round != g.round and "tie" not in (copy.previous or {}).get("result", "")


TIE = ('1A 2,-1 2,0 3,0 / 0b -1,-3 -1,-2 0,-2 / 1C -5,7 -4,6 -4,7 / 0a -7,9 -6,9 -6,10 / '
       '1B -4,-1 -4,0 -3,0 / 0c 1,-2 1,-1 2,-2 / 1A 1,3 2,3 2,4 / 0b 0,2 0,3 1,2 / 1C -1,3 -1,4 0,4 / '
       '0a -1,5 -1,6 0,5 / 1B 0,6 0,7 1,7 / 0c -4,2 -3,1 -3,2 / 1A -3,6 -3,7 -2,7 / 0b -6,6 -6,7 -5,6 / '
       '1C -2,-1 -2,0 -1,-1 / 0a -3,10 -2,9 -2,10 / 1B 3,4 4,3 4,4 / 0c 1,8 1,9 2,8 / 1A -5,4 -4,4 -4,5 / '
       '0b 7,0 7,1 8,0 / 1C 8,-1 9,-1 9,0 / 0a -3,3 -2,2 -2,3 / 1B -5,9 -5,10 -4,10 / 0c 4,2 5,1 5,2 / '
       '1A 6,1 6,2 7,2 / 0b -6,2 -5,2 -5,3 / 1C -2,8 -1,7 -1,8 / 0a -5,8 -4,8 -4,9 / 1B -8,9 -8,10 -7,10 / '
       '0c -6,-1 -5,-1 -5,0')


def test_equal_surrounds_tie_the_round_and_the_second_player_starts_the_next():
    g = board(TIE, first=1, t=91, phase="moving")
    events = g.apply(0, "move -6,6 to 3,-1 SE")
    end = next(e for e in events if e.kind == "round_end")
    assert end.data == {"winner": None, "points": 0} and "tie" in end.text and g.points == [0, 0]
    assert g.round == 2 and g.first == 0  # P1 moved second in the tied round


def test_concessions_run_from_zero_to_seven():
    g = TrominoGo.new(2, seed=1)
    assert [a for a in g.legal_actions(0) if a.startswith("concede")] == [f"concede {n}" for n in range(8)]
    with pytest.raises(IllegalMove, match="0 to 7"):
        g.parse(0, "concede 12")
    with pytest.raises(NotationError, match="how many"):
        g.parse(0, "concede")


def test_a_concession_leaves_the_turn_alone_and_concede_zero_accepted_ends_the_round_scoreless():
    g = TrominoGo.new(2, seed=1)
    mover = g.mover
    g.apply(mover, "concede 0")
    assert g.mover == mover and g.t == 0
    g.apply(1 - mover, "accept")
    assert g.points == [0, 0] and g.round == 2 and g.first == mover


def test_unaccepted_concessions_lapse_at_round_end():
    g = TrominoGo.new(2, seed=1)
    g.apply(0, "concede 1")
    g.apply(1, "concede 2")
    g.apply(0, "accept 2")
    assert g.concessions == [] and g.round == 2
    with pytest.raises(IllegalMove, match="no concession"):
        g.parse(1, "accept 1")


def test_accepting_an_amount_not_offered_is_refused():
    g = TrominoGo.new(2, seed=1)
    g.apply(0, "concede 1")
    with pytest.raises(IllegalMove, match="offered 1, not 3"):
        g.parse(1, "accept 3")
    with pytest.raises(IllegalMove, match="no concession"):
        g.parse(0, "accept")  # your own offer is not yours to accept


def test_the_letter_prefix_is_checked_but_not_its_case():
    g = game([(0, "A", [(0, 0), (1, 0), (0, 1)])])
    assert g.parse(1, "B 1,1 SW") == "play 1,1 SW"
    with pytest.raises(IllegalMove, match="letter to play is b, not a"):
        g.parse(1, "a 1,1 SW")


def test_the_notation_is_forgiving_and_has_one_canonical_form():
    g = game([(0, "A", [(0, 0), (1, 0), (0, 1)])])
    for typed in ("play 1,1 SW", "PLAY 1, 1 sw", "(1,1) SW", "1,1sw", "  play   1,1   Sw ", "sw 1,1", "1,2 1,1 2,1"):
        assert g.parse(1, typed) == "play 1,1 SW", typed
    with pytest.raises(IllegalMove, match="do not form an L-tromino"):
        g.parse(1, "1,1 2,1 3,1")
    with pytest.raises(IllegalMove, match="-1000 to 1000"):
        g.parse(1, "play 1001,0 SW")
    with pytest.raises(NotationError, match="nothing to verify"):
        g.parse(1, "verify")


def test_a_covered_cell_is_refused_by_name():
    with pytest.raises(IllegalMove, match="0,0 is taken"):
        game(OPENING).parse(0, "play 0,0 SW")


def test_a_missed_deadline_is_a_forfeit_any_seat_may_type_at_any_time():
    g = game(OPENING)
    waiting = 1 - g.mover
    assert "forfeit" in g.legal_actions(waiting) and g.timeout_actions(waiting) == ["forfeit"]
    g.apply(waiting, "forfeit")
    assert g.outcome().winners == (1 - waiting,) and g.legal_actions(0) == [] and g.timeout_actions(0) == []


def test_a_clone_plays_on_exactly_like_the_original():
    g = board(MOVING, first=1, t=65, phase="moving")
    copy = g.clone()
    copy.apply(0, "move -7,-3 to -6,-4 NE")
    assert g.to_position()["pieces"] == board(MOVING, first=1, t=65, phase="moving").to_position()["pieces"]
    g.apply(0, "move -7,-3 to -6,-4 NE")
    assert g.to_json() == copy.to_json() and g.view(None) == copy.view(None)


def test_positions_keep_the_moving_phase_passes_and_scores():
    p = position(OPENING, t=7, first=0, scores=(3, 4), passes=2, phase="placing")
    assert TrominoGo.from_position(p).to_position() == p
    moving = board(MOVING, first=1, t=65, phase="moving").to_position()
    assert TrominoGo.from_position(moving).to_position() == moving


def _every_placement_near(g: TrominoGo, occupied_cells: list[tuple[int, int]]) -> list[tuple[str, tuple[int, int]]]:
    xs = [x for x, _ in occupied_cells] or [0]
    ys = [y for _, y in occupied_cells] or [0]
    return [(o, (x, y)) for o in ("SW", "SE", "NW", "NE")
            for x in range(min(xs) - 3, max(xs) + 3) for y in range(min(ys) - 3, max(ys) + 3)]


def _brute_force(g: TrominoGo) -> set[str]:
    """Every play or move the refusals let through, by trying every placement near the pieces."""
    found = set()
    if g.phase == "placing":
        for orientation, anchor in _every_placement_near(g, [c for p in g.pieces for c in p.cells]):
            if g._refusal(cells_of(orientation, anchor)) is None:
                found.add(f"play {anchor[0]},{anchor[1]} {orientation}")
        return found
    for index in g.movable():
        piece = g.pieces[index]
        origin = min(piece.cells)
        for orientation, anchor in _every_placement_near(g, [c for p in g.pieces for c in p.cells]):
            cells = cells_of(orientation, anchor)
            if cells != piece.cells and g._refusal(cells, lifted=index) is None:
                found.add(f"move {origin[0]},{origin[1]} to {anchor[0]},{anchor[1]} {orientation}")
    return found


def test_generated_plays_and_moves_are_exactly_those_the_refusals_allow():
    import random

    checked = {"placing": 0, "moving": 0}
    for seed in range(4):
        g = TrominoGo.new(2, seed=seed, options=TrominoGo.Options.parse({"max_moving_turns": "6"}))
        rng = random.Random(seed)
        while g.outcome() is None and g.round <= 1:
            seat = g.mover
            generated = {a for a in g.legal_actions(seat) if a.split()[0] in ("play", "move")}
            if g.t % 3 == 0 or g.phase == "moving" or g.placed < 5:
                assert generated == _brute_force(g), g.to_position()
                checked[g.phase] += 1
            g.apply(seat, rng.choice(sorted(generated)) if generated else "pass")
    for g in (board(MOVING, first=1, t=65, phase="moving"), board(TIE, first=1, t=91, phase="moving"),
              board(SELF_SURROUND, first=0, t=11)):
        assert {a for a in g.legal_actions(g.mover) if a.split()[0] in ("play", "move")} == _brute_force(g)
    assert checked["placing"] > 10


def test_greedy_surrounds_the_opponent_when_it_can():
    from engine.ai import GreedyAgent

    g = board(SURROUND_BY_NML, first=1, t=8)
    g.apply(1, GreedyAgent().choose(g, 1))
    assert g.points == [0, 1]


def test_greedy_never_surrounds_its_own_group_when_it_can_avoid_it():
    from engine.ai import GreedyAgent

    g = board(SELF_SURROUND, first=0, t=11)
    choice = GreedyAgent().choose(g, 1)
    assert choice != "play 1,2 NW" and choice.startswith("play")
    g.apply(1, choice)
    assert g.points[0] == 0


def test_minus_signs_arrows_and_a_missing_to_are_understood():
    g = board(MOVING, first=1, t=65, phase="moving")
    for typed in ("move -8,-3 to -6,-4 NE", "move \u22128,\u22123 to \u22126,\u22124 ne", "move -8,-3 -> -6,-4 NE",
                  "move -8,-3 \u2192 -6,-4 NE", "move -8,-3 -6,-4 NE", "MOVE (-8,-3) TO (-6,-4) NE"):
        assert g.parse(0, typed) == "move -8,-3 to -6,-4 NE", typed
    with pytest.raises(NotationError, match="move 0,0 to 3,1 NE"):
        g.parse(0, "move NE")


def test_a_player_who_leaves_loses_the_game():
    g = game(OPENING)
    g.resign(1)
    assert g.outcome().winners == (0,) and g.is_resigned(1) and not g.is_resigned(0)
    h = game(OPENING)
    h.apply(0, "forfeit")
    assert h.is_resigned(0) and not h.is_resigned(1)
    j = TrominoGo.from_position(position([], scores=(6, 0)))
    j.apply(1, "concede 1")
    j.apply(0, "accept 1")
    assert not j.is_resigned(1)  # lost on points, still at the table


def test_the_view_names_the_trominoes_the_mover_may_move():
    g = board(MOVING, first=1, t=65, phase="moving")
    view = g.view(None)
    assert view["movable"] == sorted(g.pieces[i].id for i in g.movable()) and view["movable"]
    assert all(g.pieces[i].letter == "c" and g.pieces[i].owner == 0 for i in g.movable())
    assert game(OPENING).view(None)["movable"] == []


def test_any_typed_play_is_either_refused_with_a_game_error_or_read_as_a_legal_action():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from engine import GameError

    states = [game(OPENING), board(SURROUND_BY_NML, first=1, t=8), board(MOVING, first=1, t=65, phase="moving")]
    coordinate = st.integers(min_value=-12, max_value=12).map(str)
    cell = st.tuples(coordinate, coordinate).map(",".join)
    word = st.sampled_from(["play", "move", "to", "SW", "se", "Nw", "NE", "b", "C", "pass", "->", "", "x"])
    typed = st.lists(st.one_of(cell, word), min_size=1, max_size=6).map(" ".join)

    @settings(max_examples=300, deadline=None)
    @given(text=typed, which=st.integers(min_value=0, max_value=2), seat=st.integers(min_value=0, max_value=1))
    def check(text: str, which: int, seat: int) -> None:
        g = states[which]
        before = g.to_position()
        try:
            action = g.parse(seat, text)
        except GameError as error:
            assert str(error)
        else:
            assert action in g.legal_actions(seat), (text, action)
        assert g.to_position() == before

    check()


def test_an_empty_grid_has_no_no_mans_land():
    g = TrominoGo.new(2, seed=1)
    assert g.analysis().no_mans_land() == set() and g.view(None)["nml"] == []


def test_the_planning_agents_simulations_play_legal_moves_and_never_concede():
    import random

    from engine.tromino_go.ai import TrominoGoHeuristics

    rollout_policy = TrominoGoHeuristics().rollout
    rng = random.Random(1)
    for g in (game(OPENING), board(MOVING, first=1, t=65, phase="moving"), board(TIE, first=1, t=91, phase="moving")):
        for _ in range(5):
            action = rollout_policy(g, g.mover, rng)
            assert action in g.legal_actions(g.mover) and action.split()[0] in ("play", "move", "pass")


@pytest.mark.parametrize("change, complaint", [
    (lambda p: p.update(placed=7), "`placed` counts the trominoes on the grid: 4, not 7"),
    (lambda p: p["pieces"][0].update(owner=2), "the owner is 0 or 1"),
    (lambda p: p["pieces"][0].update(cells=[[0, 0], [1, 0]]), "not an L-tromino"),
    (lambda p: p.update(concessions=[{"seat": 1, "points": 9}]), "0 to 7"),
    (lambda p: p.update(t=-1), "cannot be negative"),
    (lambda p: p.update(seats=[{"name": "solo"}]), "exactly 2 seats"),
    (lambda p: p.update(game="tronimoes"), "not a tromino_go one"),
    (lambda p: p.pop("first"), "incomplete or malformed"),
])
def test_impossible_positions_are_refused_with_the_reason(change, complaint):
    p = position(OPENING)
    change(p)
    with pytest.raises(PositionError, match=complaint.replace("(", "\\(")):
        TrominoGo.from_position(p)


def test_a_refusal_never_offers_a_pass_the_rules_would_refuse():
    from engine import NotationError as Unreadable
    from engine.tromino_go import TrominoGo

    g = TrominoGo.new(2, seed=1)
    seat = g.to_move()[0]
    for typed in ("banana", "play", "play 1,2,3", "play 0,0 XX"):
        with pytest.raises(Unreadable) as refused:
            g.parse(seat, typed)
        assert "pass" not in str(refused.value), typed


# ---- positions carry the whole game -----------------------------------------------------------------


def test_a_position_writes_owner_as_the_role_so_capitals_are_owner_0_whoever_is_first():
    g = board(MOVING, first=1, t=65, phase="moving")
    p = g.to_position()
    assert all(piece["owner"] == (0 if piece["letter"].isupper() else 1) for piece in p["pieces"])
    assert g.pieces[0].owner == 1 and p["pieces"][0]["owner"] == 0  # seat 1 plays the capitals
    assert TrominoGo.from_position(p).legal_actions(0) == g.legal_actions(0)


def test_a_letter_whose_case_disagrees_with_its_owner_is_refused():
    p = position(OPENING)
    p["pieces"][1]["owner"] = 0  # b, lower case, belongs to role 1
    with pytest.raises(PositionError, match="letter b is lower case, so its owner is 1"):
        TrominoGo.from_position(p)


def test_the_move_count_is_kept_so_a_reloaded_round_still_ties_at_the_cap():
    options = TrominoGo.Options.parse({"max_moving_turns": "2"})
    g = TrominoGo.from_position(board(MOVING, first=1, t=65, phase="moving").to_position(), options=options)
    quiet = next(a for a in g.legal_actions(0) if a.startswith("move") and not _ends_round(g, a))
    g.apply(0, quiet)
    p = g.to_position()
    assert p["moving_turns"] == 1 and p["options"] == {"max_moving_turns": 2}
    reloaded = TrominoGo.from_position(p)
    move = next(a for a in reloaded.legal_actions(1) if a.startswith("move") and not _ends_round(reloaded, a))
    events = reloaded.apply(1, move)
    assert any(e.kind == "round_end" and "tie" in e.text for e in events)
    p["moving_turns"] = 2
    with pytest.raises(PositionError, match="would have ended in a tie"):
        TrominoGo.from_position(p)


def test_a_finished_game_loads_back_finished_with_its_result():
    g = TrominoGo.from_position(position(OPENING, scores=(6, 0)))
    g.apply(1, "concede 1")
    g.apply(0, "accept 1")
    p = g.to_position()
    assert p["result"] == {"scores": [7.0, 0.0], "winners": [0], "reason": "ana reached 7 TGpoints", "teams": []}
    again = TrominoGo.from_position(p)
    assert again.outcome() == g.outcome() and again.to_move() == () and again.legal_actions(0) == []


def test_a_forfeit_loads_back_as_the_forfeit():
    g = game(OPENING)
    g.apply(1, "forfeit")
    again = TrominoGo.from_position(g.to_position())
    assert again.outcome() == g.outcome() and again.is_resigned(1)


@pytest.mark.parametrize(("change", "message"), [
    (lambda p: p.update(result={"scores": [0, 0], "winners": [1], "reason": "ben won", "teams": []}),
     "ana forfeited the game. or .ana left the game., not .ben won."),
    (lambda p: p["seats"][0].update(score=7), "a player has 7 TGpoints, so the game is over"),
    (lambda p: p.update(passes=6), "would have ended in a tie"),
    (lambda p: p.update(placed=3), "`placed` counts the trominoes on the grid"),
    (lambda p: p.update(moving_turns=2), "0 while placing"),
    (lambda p: p.update(options={"max_moving_turns": -1}), "option max_moving_turns cannot be -1"),
    (lambda p: p.update(options={"komi": 1}), "unknown option 'komi'"),
])
def test_a_position_that_contradicts_itself_is_refused_with_the_reason(change, message):
    p = position(OPENING)
    change(p)
    with pytest.raises(PositionError, match=message):
        TrominoGo.from_position(p)


def test_a_round_still_played_with_a_surrounded_group_is_refused():
    pieces = [(0, "ACAB"[i], sorted(c)) for i, c in enumerate(RING)] + [(1, "b", sorted(cells_of("SW", (0, 0))))]
    with pytest.raises(PositionError, match="a group is surrounded, so the round would have ended"):
        game(pieces, t=5)


def test_no_legal_action_lies_beyond_the_coordinates_the_notation_writes():
    """Moving a tromino the same way again and again walks it off toward -1000: the legal
    actions stop at the edge the notation reads (±1000), so each one parses (the contract)."""
    game = TrominoGo.new(2, seed=7)
    for _ in range(1005):
        seat = game.to_move()[0]
        actions = game.legal_actions(seat)
        game.apply(seat, actions[0])
    for seat in range(2):
        for action in game.legal_actions(seat):
            assert game.parse(seat, action) == action


def test_a_pass_is_forced_exactly_when_the_legal_moves_begin_with_pass_in_both_phases():
    from engine.ai import RandomAgent

    agent, phases = RandomAgent(), set()
    for seed in range(3):
        g = TrominoGo.new(2, seed=seed)
        for _ in range(200):
            if g.outcome() is not None:
                break
            seat = g.to_move()[0]
            phases.add(g.phase)
            assert (g.forced_action(seat) == "pass") == (g.legal_actions(seat)[0] == "pass"), (seed, g.phase)
            plays = [a for a in g.legal_actions(seat) if a.split()[0] in ("play", "move", "pass")]
            g.apply(seat, agent.choose(g, seat) if len(plays) < 2 else plays[len(plays) // 2])
    assert phases == {"placing", "moving"}
