"""Tetromic's rules (shared/rules/tetromic.md), one test per rule and decision."""

from __future__ import annotations

import pytest

from engine import GAMES, AmbiguousMove, IllegalMove, NotYourTurn, PositionError
from engine.ai import GreedyAgent, PlanningAgent
from engine.tetromic import Tetromic
from engine.tetromic.board import Board
from engine.tetromic.packing import best_cover
from engine.tetromic.pieces import BY_KIND, ORIENTATIONS, placed_cells

EMPTY = ["......"] * 10


def checkerboard(*off: tuple[int, int]) -> list[str]:
    """A board (top row first) on which no tetromino fits, with the cells `off` turned off."""
    rows = []
    for y in range(9, -1, -1):
        rows.append("".join("." if (x + y) % 2 or (x, y) in off else "O" for x in range(6)))
    return rows


def position(*seats: dict, phase: int = 1, done: list[bool] | None = None, queue: list[str] | None = None,
             winner: int | None = None) -> dict:
    entries = [{"name": s.get("name", f"p{i}"), "level": s.get("level", 0), "points": s.get("points", 0),
                "hand": s.get("hand", []), "drew": s.get("drew", False), "out": s.get("out", False),
                "resigned": s.get("resigned", s.get("out", False)), "board": s.get("board", EMPTY)}
               for i, s in enumerate(seats)]
    return {"game": "tetromic", "options": {}, "seats": entries, "phase": phase,
            "done": done or [False] * len(seats), "queue": queue or [], "winner": winner, "result": None}


def game(*seats: dict, **kwargs) -> Tetromic:
    return Tetromic.from_position(position(*seats, **kwargs))


def test_there_are_19_fixed_orientations_named_as_in_the_rules():
    assert len(ORIENTATIONS) == 19
    assert {k: len(v) for k, v in BY_KIND.items()} == {"I": 2, "O": 1, "L": 8, "S": 4, "T": 4}


@pytest.mark.parametrize(("kind", "count"), [("I", 72), ("O", 45), ("T", 152), ("L", 304), ("S", 152)])
def test_placement_counts_on_an_empty_board(kind, count):
    assert len(game({"hand": [kind]}).placements(0)) == count


def test_a_piece_goes_anywhere_in_bounds_on_off_cells_with_no_gravity_or_contact():
    g = game({"hand": ["T"]})
    g.apply(0, "play T-u 2,7")
    assert g.to_position()["seats"][0]["board"][:3] == ["......", "...T..", "..TTT."]


def test_a_placed_piece_is_named_by_its_kind_as_the_hand_names_it_then_its_orientation():
    """The hand holds an `L`; placing it as `J270` is announced as the L it is, turned J270 (not
    as a J nobody held), and refused the same way."""
    g = game({"name": "ana", "hand": ["L", "O", "S"]})
    (placed,) = [e for e in g.apply(0, "play J270 0,0") if e.kind == "place"]
    assert placed.text == "ana places L (J270) at 0,0."
    (square,) = [e for e in g.apply(0, "play O 4,0") if e.kind == "place"]
    assert square.text == "ana places O at 4,0."
    with pytest.raises(IllegalMove, match=r"^S \(Z-h\) at 0,0 would cover 0,1, which is already on"):
        g.apply(0, "play Z-h 0,0")
    assert g.held_as("L") == ("L0", "L90", "L180", "L270", "J0", "J90", "J180", "J270") and g.held_as("O") == ()


def test_a_piece_off_the_board_is_refused_in_the_boards_terms():
    g = game({"hand": ["I"]})
    with pytest.raises(IllegalMove, match=r"would cover 6,0, off the board \(x runs 0–5"):
        g.apply(0, "play I-h 3,0")


def test_a_piece_over_an_on_cell_is_refused():
    g = game({"hand": ["O"], "board": ["......"] * 9 + ["O....."]})
    with pytest.raises(IllegalMove, match="0,0, which is already on"):
        g.apply(0, "play O 0,0")


def test_a_kind_you_do_not_hold_is_refused():
    with pytest.raises(IllegalMove, match=r"you hold no T \(you hold I\)"):
        game({"hand": ["I"]}).apply(0, "play T-u 0,0")


def test_four_cells_in_any_order_name_the_piece():
    g = game({"hand": ["T"]})
    assert g.parse(0, "play 3,4 2,3 4,3 3,3") == "play T-u 2,3"
    with pytest.raises(IllegalMove, match="do not form a tetromino"):
        g.parse(0, "0,0 1,0 3,0 4,0")


def test_a_kind_and_an_anchor_is_enough_when_one_orientation_fits():
    g = game({"hand": ["I"], "board": ["......"] * 9 + [".OOOOO"]})
    with pytest.raises(AmbiguousMove) as ambiguous:
        g.parse(0, "I 0,1")
    assert set(ambiguous.value.candidates) == {"play I-h 0,1", "play I-v 0,1"}
    assert game({"hand": ["I"], "board": ["......"] * 6 + ["OO.OOO"] * 4}).parse(0, "line 2,0") == "play I-v 2,0"


def test_names_are_read_forgivingly():
    g = game({"hand": ["T", "L"]})
    assert g.parse(0, "tu 2,3") == g.parse(0, "T-U (2, 3)") == "play T-u 2,3"
    assert g.parse(0, "j90 0,0") == "play J90 0,0"


def test_full_rows_clear_at_once_and_nothing_falls():
    g = game({"hand": ["I"], "board": ["......"] * 5 + ["T....."] + ["OOOOO."] * 4})
    events = g.apply(0, "play I-v 5,0")
    assert any(e.kind == "clear" and e.data["rows"] == [0, 1, 2, 3] for e in events)
    assert g.to_position()["seats"][0]["board"][5] == "T....."  # the T stayed at y=4


def test_gravity_collapse_moves_rows_down_when_chosen():
    g = Tetromic.from_position(position({"hand": ["I"], "board": ["......"] * 5 + ["T....."] + ["OOOOO."] * 4}),
                               options=Tetromic.Options.parse({"gravity_collapse": "on"}))
    g.apply(0, "play I-v 5,0")
    assert g.to_position()["seats"][0]["board"][-1] == "T....."


def test_points_count_row_by_row_so_several_levels_can_come_from_one_piece():
    g = game({"hand": ["I"], "board": ["......"] * 6 + ["OOOOO."] * 4})
    g.apply(0, "play I-v 5,0")
    me = g.to_position()["seats"][0]
    assert (me["level"], me["points"]) == (2, 1)


def test_batch_reset_drops_the_excess_points():
    g = Tetromic.from_position(position({"hand": ["I"], "board": ["......"] * 6 + ["OOOOO."] * 4}),
                               options=Tetromic.Options.parse({"multi_clear": "batch_reset"}))
    g.apply(0, "play I-v 5,0")
    assert (g.seats[0].level, g.seats[0].points) == (1, 0)


def test_a_draw_gives_as_many_pieces_as_the_level_at_least_one_once_a_phase():
    g = game({"level": 3}, {}, queue=["I", "O", "L", "S", "T"])
    g.apply(0, "draw")
    assert g.seats[0].hand == ["I", "O", "L"]
    with pytest.raises(IllegalMove, match="already drawn this phase"):
        g.apply(0, "draw")
    g.apply(1, "draw")
    assert g.seats[1].hand == ["S"]


def test_the_phase_waits_for_every_seat_that_has_not_drawn_or_skipped():
    g = game({}, {}, {})
    g.apply(0, "draw")
    g.apply(2, "skip")
    assert g.to_move() == (1,) and g.phase == 1
    g.apply(1, "skip")
    assert g.phase == 2 and g.to_move() == (0, 1, 2)


def test_a_seat_may_place_pieces_out_of_its_turn():
    g = game({"hand": ["O"], "drew": True}, {}, done=[True, False])
    assert g.to_move() == (1,)
    assert "play O 0,0" in g.legal_actions(0)
    g.apply(0, "play O 0,0")
    with pytest.raises(NotYourTurn, match="you are done with phase 1"):
        g.apply(0, "skip")


def test_the_first_to_reach_the_target_level_wins_at_once():
    g = game({"level": 9, "points": 9, "hand": ["I", "O"], "board": ["......"] * 9 + ["OOOOO."]}, {})
    events = g.apply(0, "play I-v 5,0")
    outcome = g.outcome()
    assert outcome is not None and outcome.winners == (0,) and g.to_move() == ()
    assert events[-1].kind == "game_end" and g.legal_actions(0) == [] and g.seats[0].points == 0


def test_the_quick_preset_plays_to_level_five():
    g = Tetromic.new(1, seed=1, options=Tetromic.Options.parse({"preset": "quick"}))
    assert g.target == 5


def test_a_missed_phase_is_skipped_once():
    g = game({}, {"drew": True}, done=[False, True])
    assert g.timeout_actions(0) == ["skip"] and g.timeout_actions(1) == []


def test_a_stuck_board_is_reported_privately():
    g = game({"hand": ["I"], "board": checkerboard((1, 1))}, {}, queue=["O"])  # only a T fits, at 0,0
    events = g.apply(0, "draw")
    stuck = [e for e in events if e.kind == "stuck"]
    assert stuck and stuck[0].to == 0 and "No held piece fits: I, O" in stuck[0].text


def test_discarding_is_allowed_only_when_chosen_and_nothing_fits():
    almost = checkerboard((1, 1))  # only a T fits
    g = Tetromic.from_position(position({"hand": ["I"], "board": ["......"] * 10}),
                               options=Tetromic.Options.parse({"allow_discard": "on"}))
    with pytest.raises(IllegalMove, match="only discard when no piece you hold fits"):
        g.apply(0, "discard I")
    g = Tetromic.from_position(position({"hand": ["I"], "board": almost}),
                               options=Tetromic.Options.parse({"allow_discard": "on"}))
    assert "discard I" in g.legal_actions(0)
    g.apply(0, "discard I")
    assert g.seats[0].hand == []
    with pytest.raises(IllegalMove, match="allow_discard is off"):
        game({"hand": ["I"], "board": almost}).apply(0, "discard I")


def test_a_board_no_piece_can_ever_fit_is_out_and_the_highest_level_wins_at_the_end():
    g = game({"level": 2, "hand": ["O"], "board": checkerboard((0, 9), (1, 9), (0, 8), (1, 8))})
    events = g.apply(0, "play O 0,8")
    assert any(e.kind == "locked" for e in events)
    outcome = g.outcome()
    assert outcome is not None and outcome.winners == (0,) and "highest level" in outcome.reason


def test_a_player_can_join_a_running_game_from_the_next_phase():
    g = Tetromic.new(2, seed=3, names=["ana", "bo"])
    g.apply(0, "draw")
    g.join("cy")
    assert g.players == 3 and g.to_move() == (1,) and g.seats[2].board.on_count() == 0
    g.apply(1, "skip")
    assert g.phase == 2 and g.to_move() == (0, 1, 2)
    replayed = Tetromic.from_json(g.to_json())
    assert replayed.to_position() == g.to_position() and replayed.names == ["ana", "bo", "cy"]


def test_joining_is_refused_when_the_table_does_not_allow_it():
    g = Tetromic.new(1, seed=3, options=Tetromic.Options.parse({"allow_join": "off"}))
    with pytest.raises(IllegalMove, match="allow_join is off"):
        g.join("cy")


def test_positions_round_trip_exactly_and_bad_ones_are_refused():
    p = position({"name": "ana", "level": 2, "points": 1, "hand": ["I", "T"], "drew": True,
                  "board": ["......"] * 7 + ["T.....", "TT..OO", "T...OO"]}, {}, phase=3, done=[True, False],
                 queue=["S", "O"])
    assert Tetromic.from_position(p).to_position() == p
    with pytest.raises(PositionError, match="must be done"):
        Tetromic.from_position(position({"drew": True}))
    with pytest.raises(PositionError, match="full row"):
        Tetromic.from_position(position({"board": ["......"] * 9 + ["OOOOOO"]}))


def test_a_loaded_position_draws_its_queue_first():
    g = game({}, queue=["T"])
    g.apply(0, "draw")
    assert g.seats[0].hand == ["T"]


def test_only_the_seats_own_hand_is_in_its_view():
    g = game({"hand": ["I", "T"]}, {"hand": ["O"]})
    assert g.view(0)["hand"] == {"I": 1, "T": 1} and "hand" not in g.view(None)
    assert g.view(None)["seats"][1]["hand_size"] == 1


def test_suggestions_put_the_placements_that_clear_rows_first():
    g = game({"hand": ["I"], "board": ["......"] * 6 + ["OOOOO."] * 4})
    assert g.rank_suggestions(0, g.legal_actions(0))[0] == "play I-v 5,0"


def test_the_invariant_on_cells_is_four_per_piece_less_six_per_row():
    g = GAMES["tetromic"].new(1, seed=9)
    agent = GreedyAgent()
    for _ in range(200):
        if g.outcome() is not None:
            break
        g.apply(0, agent.choose(g, 0))
        me = g.seats[0]
        assert me.board.on_count() == 4 * me.placed - 6 * me.cleared


def test_calendar_phases_are_fixed_utc_windows_and_round_phases_run_from_their_start():
    calendar = Tetromic.new(2, seed=1, options=Tetromic.Options.parse({"phase_mode": "calendar"}))
    assert calendar.deadline(86_400 * 3 + 5_000, 86_400) == 86_400 * 4  # the next UTC midnight
    assert Tetromic.new(2, seed=1).deadline(5_000, 3_600) == 8_600


def test_in_calendar_mode_drawing_does_not_end_your_phase():
    g = Tetromic.new(1, seed=1, options=Tetromic.Options.parse({"preset": "nomic"}))
    g.apply(0, "draw")
    assert g.to_move() == (0,) and "skip" in g.legal_actions(0) and "draw" not in g.legal_actions(0)
    g.apply(0, "skip")
    assert g.phase == 2


def test_the_nomic_preset_has_48_hour_phases():
    assert Tetromic.default_turn_seconds_for(Tetromic.Options.parse({"preset": "nomic"})) == 48 * 3600
    assert Tetromic.default_turn_seconds_for(Tetromic.Options()) == 24 * 3600


# ---- packing by row covers (the planning agent's plan) -----------------------------------------------


def covered(cover: list[tuple[str, tuple[int, int]]]) -> set[tuple[int, int]]:
    cells = [c for orientation, anchor in cover for c in placed_cells(orientation, anchor)]
    assert len(cells) == len(set(cells)), "pieces of a cover never overlap"
    return set(cells)


def test_three_squares_fill_the_two_bottom_rows():
    cover = best_cover(Board(6, 10), ["O", "O", "O"])
    assert cover is not None and covered(cover) == {(x, y) for x in range(6) for y in (0, 1)}


def test_a_cover_may_stick_out_of_the_rows_it_fills():
    cover = best_cover(Board(6, 10), ["I", "O"])
    assert cover is not None and {(x, 0) for x in range(6)} <= covered(cover) and len(covered(cover)) == 8


def test_the_cover_that_clears_most_rows_is_preferred():
    cover = best_cover(Board(6, 10), ["O"] * 6)
    assert cover is not None and covered(cover) == {(x, y) for x in range(6) for y in range(4)}


def test_no_cover_when_the_hand_fills_no_row():
    assert best_cover(Board(6, 10), ["T"]) is None
    assert best_cover(Board(6, 10), []) is None


def test_a_cover_finishes_rows_already_begun_with_the_pieces_held():
    board = Board.from_rows(["......"] * 9 + ["LL...."])
    cover = best_cover(board, ["I", "T"])
    assert cover == [("I-h", (2, 0))]


def test_the_planning_agent_keeps_pieces_that_clear_nothing_and_draws():
    g = game({"hand": ["T", "S"]})
    assert GreedyAgent().choose(g, 0).startswith("play ")
    assert PlanningAgent(simulations=8).choose(g, 0) == "draw"


def test_the_planning_agent_clears_rows_before_it_draws():
    g = game({"hand": ["I", "O"]})
    agent = PlanningAgent(simulations=8)
    for _ in range(2):
        action = agent.choose(g, 0)
        assert action.startswith("play "), action
        g.apply(0, action)
    assert g.seats[0].cleared == 1 and g.seats[0].level == 1


# ---- positions carry the whole game -----------------------------------------------------------------

LOCKED = checkerboard()
"""A board no tetromino fits."""
NEARLY_LOCKED = checkerboard((0, 9), (1, 9), (0, 8), (1, 8))
"""Only an O fits, at 0,8; once it is there, nothing does."""


def test_an_out_seat_stays_out_after_a_reload_and_is_offered_nothing():
    g = game({"level": 1, "hand": ["O"], "board": NEARLY_LOCKED}, {"hand": ["T"]})
    g.apply(0, "play O 0,8")
    p = g.to_position()
    assert p["seats"][0]["out"] and p["seats"][0]["resigned"] and p["done"][0]
    again = Tetromic.from_position(p)
    assert again.legal_actions(0) == [] and again.to_move() == (1,)
    assert not again.is_resigned(0)  # out of play, but it did not leave: it finishes at its level


def test_a_full_board_is_not_a_resignation_but_leaving_is():
    g = game({"level": 3, "hand": ["O"], "board": NEARLY_LOCKED}, {"hand": ["T"]}, {"hand": ["T"]})
    g.apply(0, "play O 0,8")
    g.resign(2)
    assert not g.is_resigned(0) and g.is_resigned(2) and not g.is_resigned(1)


def test_when_every_board_is_out_the_position_names_the_highest_level_the_winner():
    g = game({"level": 3, "hand": ["O"], "board": NEARLY_LOCKED}, {"level": 1, "out": True, "board": LOCKED},
             done=[False, True])
    g.apply(0, "play O 0,8")
    p = g.to_position()
    assert p["result"]["winners"] == [0] and "highest level wins" in p["result"]["reason"]
    again = Tetromic.from_position(p)
    assert again.outcome() == g.outcome() and again.to_move() == ()


@pytest.mark.parametrize(("seats", "kwargs", "message"), [
    (({"out": True, "board": EMPTY}, {}), {"done": [True, False]}, "seat 0 is out, but a piece still fits its board"),
    (({"board": LOCKED}, {}), {}, "no piece fits seat 0's board any more, so it is out"),
    (({"out": True, "resigned": False, "board": LOCKED}, {}), {"done": [True, False]}, "resigned too"),
    (({"level": 10}, {}), {}, "the winner is the seat that reached level 10"),
    (({"level": 10}, {}), {"winner": 1}, "the winner is the seat that reached level 10"),
    (({}, {}), {"done": [True, True]}, "phase 1 would have ended"),
    (({"level": 2, "out": True, "board": LOCKED}, {"level": 1, "out": True, "board": LOCKED}),
     {"done": [True, True], "result": {"scores": [2, 1], "winners": [1], "reason": "x", "teams": []}},
     "the result names p1 as winner, but this position gives p0"),
    (({}, {}), {"result": {"scores": [0, 0], "winners": [0], "reason": "x", "teams": []}},
     "the result says the game is over .x., but this position is still being played"),
])
def test_a_position_that_contradicts_itself_is_refused_with_the_reason(seats, kwargs, message):
    result = kwargs.pop("result", None)
    p = position(*seats, **kwargs)
    p["result"] = result
    with pytest.raises(PositionError, match=message):
        Tetromic.from_position(p)
