"""Triominoes rules (shared/rules/triominoes.md), one statement per test."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import GAMES, AmbiguousMove, IllegalMove, NotationError, NotYourTurn, PositionError
from engine.ai import GreedyAgent
from engine.triominoes import Triominoes, TriominoesOptions
from engine.triominoes.board import Board, tiles_fitting
from engine.triominoes.geometry import corners, neighbour, ring
from engine.triominoes.rounds import blocked_payout, find_opening, hand_size
from engine.triominoes.tiles import TILES, rotations

HEXAGON_BOARD = [
    {"at": "r0c0", "corners": [4, 4, 4]}, {"at": "r1c0", "corners": [4, 4, 5]},
    {"at": "r0c-1", "corners": [0, 4, 4]}, {"at": "r0c1", "corners": [4, 3, 4]},
    {"at": "r-1c1", "corners": [2, 3, 4]}, {"at": "r-1c0", "corners": [2, 2, 4]},
]
"""Five of the six cells around the apex of r0c0 are full; r-1c-1 needs 2, 4 and 0."""
BRIDGE_BOARD = [
    {"at": "r0c0", "corners": [4, 4, 4]}, {"at": "r0c-1", "corners": [2, 4, 4]},
    {"at": "r0c1", "corners": [4, 1, 4]}, {"at": "r-1c-1", "corners": [3, 4, 2]},
    {"at": "r-1c1", "corners": [0, 1, 4]}, {"at": "r-1c2", "corners": [0, 1, 1]},
    {"at": "r-2c2", "corners": [0, 1, 0]}, {"at": "r-2c1", "corners": [5, 0, 0]},
]
"""0-3-5 on r-2c0 shares an edge with r-2c1 and touches r-1c-1 at a point only."""
TWO_HEXAGONS_BOARD = [
    {"at": "r0c0", "corners": [0, 0, 0]}, {"at": "r1c0", "corners": [0, 0, 5]},
    {"at": "r0c1", "corners": [0, 3, 0]}, {"at": "r1c1", "corners": [0, 2, 5]},
    {"at": "r0c2", "corners": [3, 4, 0]}, {"at": "r0c3", "corners": [3, 4, 4]},
    {"at": "r0c4", "corners": [4, 4, 4]}, {"at": "r-1c3", "corners": [3, 4, 3]},
    {"at": "r-1c2", "corners": [1, 3, 3]}, {"at": "r-2c2", "corners": [2, 3, 1]},
    {"at": "r0c-1", "corners": [2, 0, 0]}, {"at": "r-2c1", "corners": [1, 2, 1]},
    {"at": "r-2c0", "corners": [1, 1, 1]}, {"at": "r-1c0", "corners": [1, 1, 0]},
    {"at": "r0c-2", "corners": [2, 0, 1]}, {"at": "r2c1", "corners": [5, 2, 3]},
    {"at": "r2c0", "corners": [5, 3, 4]},
]
"""0-1-3 on r-1c1 closes the hexagons around two of its corners at once."""


def laid(*text: str) -> list[dict[str, Any]]:
    """Board entries from `"r0c0 2-2-3 r0c1 2-5-2 ..."`: each cell and its corners in order."""
    words = " ".join(text).split()
    return [{"at": at, "corners": [int(n) for n in corners.split("-")]} for at, corners in zip(words[::2], words[1::2],
                                                                                                strict=True)]


def position(board: list[dict[str, Any]], hands: list[list[str]], *, pool: list[str] | None = None,
             scores: list[int] | None = None, turn: int = 0, drawn: int = 0, passes: int = 0) -> dict[str, Any]:
    used = {"-".join(map(str, min(rotations(tuple(t["corners"]))))) for t in board}  # type: ignore[arg-type]
    used |= {t for hand in hands for t in hand}
    if pool is None:
        pool = ["-".join(map(str, t)) for t in TILES if "-".join(map(str, t)) not in used][:10]
    return {"game": "triominoes", "turn": turn, "round": 1, "passes": passes, "pool": pool, "board": board,
            "seats": [{"name": f"P{i + 1}", "score": (scores or [0] * len(hands))[i], "hand": hand,
                       "drawn": drawn if i == turn else 0} for i, hand in enumerate(hands)]}


def game_at(board: list[dict[str, Any]], hands: list[list[str]], **kwargs: Any) -> Triominoes:
    options = kwargs.pop("options", None)
    return Triominoes.from_position(position(board, hands, **kwargs), options=options)


# ---- the tiles and the deal (§2.1) -------------------------------------------------------------


def test_the_set_has_fifty_six_tiles_and_no_mirror_images():
    assert len(TILES) == 56 and len(set(TILES)) == 56
    readings = {r for t in TILES for r in rotations(t)}
    assert (0, 1, 2) in readings and (0, 2, 1) not in readings


def test_hands_hold_nine_tiles_for_two_seven_for_three_or_four_six_for_five_or_six():
    assert [hand_size(n) for n in range(2, 7)] == [9, 7, 7, 6, 6]
    game = Triominoes.new(5, seed=1)
    held = sum(len(s.hand) for s in game.seats)
    assert held + len(game.well) + len(game.board) == 56 and game.view(0)["well_size"] == 56 - 30


def test_the_highest_triple_opens_for_its_sum_plus_ten():
    game = Triominoes.from_position(position([], [["3-3-3", "1-2-4"], ["5-5-5", "0-1-2"]], turn=1))
    assert game.legal_actions(1) == ["5-5-5 r0c0"] and game.forced_action(1) is None  # the player lays it
    game.apply(1, "5-5-5 r0c0")
    assert game.seats[1].score == 25 and game.turn == 0


def test_zero_triple_opens_for_forty():
    game = Triominoes.from_position(position([], [["0-0-0", "1-2-4"], ["0-1-2", "2-3-4"]]))
    game.apply(0, "0-0-0 r0c0")
    assert game.seats[0].score == 40


def test_the_holder_of_the_highest_triple_and_zero_triple_chooses_between_them():
    opening = find_opening({0: [(4, 4, 4), (0, 0, 0)], 1: [(2, 2, 2)]}, [0, 1])
    assert opening.seat == 0 and opening.tiles == ((4, 4, 4), (0, 0, 0)) and opening.shown == (4, 4, 4)
    game = Triominoes.from_position(position([], [["4-4-4", "0-0-0"], ["2-2-2"]]))
    assert game.legal_actions(0) == ["4-4-4 r0c0", "0-0-0 r0c0"] and game.forced_action(0) is None
    events = game.apply(0, "0-0-0 r0c0")
    assert game.seats[0].score == 40 and "showing 4-4-4" in events[0].text


def test_nobody_else_may_pre_empt_with_zero_triple():
    assert find_opening({0: [(0, 0, 0)], 1: [(3, 3, 3)]}, [0, 1]).tiles == ((3, 3, 3),)


def test_without_triples_the_highest_tile_opens_for_face_value_and_ties_look_at_the_next_tile():
    hands = {0: [(3, 4, 5), (0, 0, 1)], 1: [(3, 4, 5), (0, 1, 2)]}
    assert find_opening(hands, [0, 1]).seat == 1
    assert find_opening({0: [(1, 2, 3)], 1: [(1, 2, 3)]}, [1, 0]).seat == 1  # a full tie: seat order
    game = Triominoes.from_position(position([], [["3-4-5", "0-0-1"], ["2-4-5", "0-1-2"]]))
    game.apply(0, "3-4-5 r0c0")
    assert game.seats[0].score == 12


# ---- placement (§2.2) -------------------------------------------------------------------------------


def test_a_tile_must_share_a_whole_edge_with_the_table():
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-1-4", "2-3-3"], ["0-0-5"]])
    with pytest.raises(IllegalMove, match="does not share an edge"):
        game.apply(0, "1-1-4 r-1c-1")  # touches r0c0 at its apex only


def test_every_corner_that_touches_must_match_point_contacts_included():
    game = game_at(HEXAGON_BOARD, [["0-2-5", "1-1-4"], ["0-0-5"]])
    with pytest.raises(IllegalMove, match="needs 2 at its apex, 4 at its bottom-right and 0 at its bottom-left"):
        game.apply(0, "0-2-5 r-1c-1")  # its edge could match r-1c0, its point at r0c-1 cannot


def test_tiles_turn_but_never_flip_and_the_referee_finds_the_turn():
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-2-2", "2-3-3"], ["0-0-5"]])
    assert game.parse(0, "1-2-2 r0c1") == "1-2-2 r0c1"  # r0c1 needs 1 top-left, 2 bottom
    assert game.parse(0, "221 at 2") == "1-2-2 r0c1"
    assert game.parse(0, "2-3-3 r1c0") == "3-2-3 r1c0"  # r1c0 needs 3 top-left, 2 top-right


def test_the_opening_cell_takes_a_tile_turned_any_way_and_asks_which():
    game = Triominoes.from_position(position([], [["3-4-5"], ["0-1-2"]]))
    with pytest.raises(AmbiguousMove) as asked:
        game.parse(0, "345 at 1")
    assert asked.value.candidates == ["3-4-5 r0c0", "4-5-3 r0c0", "5-3-4 r0c0"]
    assert game.parse(0, "5-3-4 r0c0") == "5-3-4 r0c0"


def test_a_spot_number_names_a_cell_on_the_picture():
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-2-2"], ["0-0-5"]])
    spots = game.view(None)["spots"]
    assert spots == ["r0c-1", "r0c1", "r1c0"]
    assert game.parse(0, "122 at 2") == "1-2-2 r0c1"
    with pytest.raises(IllegalMove, match="no spot 9"):
        game.parse(0, "122 at 9")


def test_spots_come_from_the_table_alone():
    one = game_at(HEXAGON_BOARD, [["0-2-5"], ["1-1-1"]])
    other = game_at(HEXAGON_BOARD, [["1-1-1"], ["0-2-5"]])
    assert one.view(None)["spots"] == other.view(None)["spots"]


def test_a_tile_you_do_not_hold_is_refused():
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-2-2"], ["0-0-5"]])
    with pytest.raises(IllegalMove, match="you do not hold 2-3-3"):
        game.parse(0, "2-3-3 r0c1")


def test_notation_mistakes_say_what_to_type():
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-2-2"], ["0-0-5"]])
    with pytest.raises(NotationError, match="where does 1-2-2 go"):
        game.parse(0, "122")
    with pytest.raises(NotationError, match="not a tile"):
        game.parse(0, "hello r0c1")
    with pytest.raises(IllegalMove, match="numbers go from 0 to 5"):
        game.parse(0, "1-2-7 r0c1")
    with pytest.raises(NotYourTurn):
        game.parse(1, "0-0-5 r0c1")


# ---- bonuses (§2.3) ---------------------------------------------------------------------------------------


def test_hexagon_scores_fifty():
    game = game_at(HEXAGON_BOARD, [["0-2-4", "1-1-4"], ["0-0-5"]])
    events = game.apply(0, "2-4-0 r-1c-1")
    assert game.seats[0].score == 6 + 50 and "hexagon" in events[0].text
    assert events[0].data["hexagons"] == [[0, 0]]


def test_two_hexagons_score_a_hundred_or_sixty_on_the_goliath_scale():
    pressman = game_at(TWO_HEXAGONS_BOARD, [["0-1-3", "1-5-5"], ["4-5-5"]])
    pressman.apply(0, "1-3-0 r-1c1")
    goliath = game_at(TWO_HEXAGONS_BOARD, [["0-1-3", "1-5-5"], ["4-5-5"]],
                      options=TriominoesOptions(hexagons="goliath"))
    goliath.apply(0, "1-3-0 r-1c1")
    assert (pressman.seats[0].score, goliath.seats[0].score) == (4 + 100, 4 + 60)


def test_bridge_scores_forty():
    game = game_at(BRIDGE_BOARD, [["0-3-5", "1-2-2"], ["2-3-5"]])
    events = game.apply(0, "5-0-3 r-2c0")
    assert game.seats[0].score == 8 + 40 and "a bridge" in events[0].text
    assert events[0].data["bridge"] == [-1, -1]


def test_each_placement_is_offered_with_what_laying_it_scores():
    for board, hands in ((HEXAGON_BOARD, [["0-2-4", "1-1-4"], ["0-0-5"]]),
                         (BRIDGE_BOARD, [["0-3-5", "1-2-2"], ["2-3-5"]]),
                         (TWO_HEXAGONS_BOARD, [["0-1-3", "1-5-5"], ["4-5-5"]])):
        game = game_at(board, hands)
        cells = dict(game.board.cells)
        scored = game.scored_placements(0)
        assert [action for _, action in scored] == [a for a in game.legal_actions(0) if a not in ("draw", "pass")]
        assert game.board.cells == cells, "working out a bonus leaves the table as it was"
        assert max(points for points, _ in scored) >= 40
        for points, action in scored:
            after = game.clone()
            after.apply(0, action)
            assert after.seats[0].score - game.seats[0].score == points, action
        assert game.scored_placements(1) == []


def test_a_player_who_had_to_draw_is_dealt_again_only_tiles_that_did_not_fit() -> None:
    """What the table saw (nothing of theirs fitted when they drew) narrows an AI's guesses at
    their hand; the guesses never use more than the table saw."""
    checked = 0
    for seed in range(8):
        game = Triominoes.new(4, seed=seed)
        while game.outcome() is None and checked < 12:
            seat = game.to_move()[0]
            fitted = tiles_fitting(pattern for _, pattern in game.board.open_patterns())
            round_before = game.round
            drew = False
            while game.to_move() == (seat,) and game.round == round_before:
                action = GreedyAgent().choose(game, seat)
                drew = drew or (action == "draw" and not game.seats[seat].drawn)
                game.apply(seat, action)
            if not drew or game.round != round_before or game.outcome() is not None:
                continue
            assert not fitted & set(game.seats[seat].hand)
            viewer = game.to_move()[0]
            for deal in range(5):
                guess = game.determinize(viewer, random.Random(deal))
                assert len(guess.seats[seat].hand) == len(game.seats[seat].hand)
                assert not fitted & set(guess.seats[seat].hand), "dealt a tile the table knows it lacks"
            checked += 1
    assert checked >= 5


def test_what_a_player_lacked_is_forgotten_when_a_new_round_deals_new_hands() -> None:
    game = Triominoes.new(2, seed=1)
    game.stuck[1] = [((0, 1), (0, 0, -1))]
    assert game.clone().stuck == game.stuck
    game._start_round()
    assert game.stuck == {}


def test_adding_to_a_bridge_counts_only_with_the_extension_option():
    board = Board()
    point = (0, 2)
    around = ring(point)  # R0..R5
    for cell in (around[0], around[3]):
        board.place(cell, (1, 1, 1))
    new = around[1]
    index = corners(new).index(point)
    outer = neighbour(new, (index + 1) % 3)
    board.place(new, (1, 1, 1))
    assert board.bridge_at(new, extensions=True) == (None, False)  # without the outer neighbour: nothing
    board.place(outer, (1, 1, 1))
    assert board.bridge_at(new, extensions=True) == (point, True)
    assert board.bridge_at(new, extensions=False) == (None, False)


# ---- drawing and passing (§2.4) -------------------------------------------------------------------------


def stuck(pool: list[str], **kwargs: Any) -> Triominoes:
    """P1 holds nothing that fits r0c0's 5-5-5 (every tile in hand lacks a 5)."""
    return game_at([{"at": "r0c0", "corners": [5, 5, 5]}], [["0-0-1", "0-1-1"], ["2-2-3"]], pool=pool, **kwargs)


def test_pass_without_draw_is_refused():
    game = stuck(["0-0-2", "0-0-3", "0-0-4", "4-5-5"])
    assert game.legal_actions(0) == ["draw"] and game.forced_action(0) == "draw"
    with pytest.raises(IllegalMove, match="you may not pass while you can draw"):
        game.apply(0, "pass")


def test_draw_costs_five_and_a_drawn_tile_that_fits_must_be_played():
    game = stuck(["0-0-2", "4-5-5", "0-0-4"])
    game.apply(0, "draw")
    game.apply(0, "draw")
    assert game.seats[0].score == -10
    assert "draw" not in game.legal_actions(0) and "pass" not in game.legal_actions(0)
    assert all(a.startswith(("4-5-5", "5-4-5", "5-5-4")) for a in game.legal_actions(0))


def test_three_draws_at_most_then_a_pass_costs_ten_more():
    game = stuck(["0-0-2", "0-0-3", "0-0-4", "4-5-5"])
    for _ in range(3):
        game.apply(0, game.forced_action(0))
    with pytest.raises(IllegalMove, match="drawn 3 tiles"):
        game.apply(0, "draw")
    assert game.forced_action(0) == "pass"
    game.apply(0, "pass")
    assert game.seats[0].score == -25 and game.turn == 1


def test_an_empty_well_pass_costs_ten():
    game = stuck([])
    assert game.forced_action(0) == "pass"
    events = game.apply(0, "pass")
    assert game.seats[0].score == -10 and "well empty" in events[0].text


def test_voluntary_draws_only_with_the_option():
    board = [{"at": "r0c0", "corners": [1, 2, 3]}]
    assert "draw" not in game_at(board, [["1-2-2"], ["0-0-5"]]).legal_actions(0)
    free = game_at(board, [["1-2-2"], ["0-0-5"]], options=TriominoesOptions(allow_voluntary_draw=True))
    assert "draw" in free.legal_actions(0)


def test_a_draw_the_rules_let_anyone_choose_is_never_made_for_the_player():
    """With voluntary draws, a draw made for the player because nothing fits would tell the table
    what their own draw never does: that none of their tiles fits. So it is left to them."""
    free = TriominoesOptions(allow_voluntary_draw=True)
    game = stuck(["0-0-2", "0-0-3", "0-0-4", "4-5-5"], options=free)
    assert game.legal_actions(0) == ["draw"] and game.forced_action(0) is None
    game.apply(0, "draw")
    assert game.legal_actions(0) == ["draw"] and game.forced_action(0) is None
    game.apply(0, "draw")
    game.apply(0, "draw")
    assert game.legal_actions(0) == ["pass"] and game.forced_action(0) == "pass"  # a pass says as much anyway
    assert stuck([], options=free).forced_action(0) == "pass"
    # Once a drawn tile need not be played, further draws are free too: the first one is forced, the rest not.
    keep_drawing = stuck(["0-0-2", "0-0-3", "0-0-4"], options=TriominoesOptions(must_play_drawn=False))
    assert keep_drawing.forced_action(0) == "draw"
    keep_drawing.apply(0, "draw")
    assert keep_drawing.legal_actions(0) == ["draw"] and keep_drawing.forced_action(0) is None


def test_with_voluntary_draws_a_missed_turn_draws_whether_or_not_a_tile_fits():
    """The referee's choice for a missed turn must not tell the table more than the player's own
    would: with voluntary draws it draws while it may, so its draw says nothing of the hand."""
    free = TriominoesOptions(allow_voluntary_draw=True)
    fits = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-2-2", "2-3-3", "0-0-0"], ["0-0-5"]], options=free)
    assert fits.timeout_actions(0) == ["draw"]
    assert stuck(["0-0-2", "4-5-5"], options=free).timeout_actions(0) == ["draw"]
    drawn_fits = stuck(["4-5-5"], options=free)
    drawn_fits.apply(0, "draw")  # a drawn tile that fits must be played: no draw is left to choose
    assert drawn_fits.timeout_actions(0)[0].startswith(("4-5-5", "5-4-5", "5-5-4"))
    assert stuck([], options=free).timeout_actions(0) == ["pass"]


def test_a_missed_turn_lays_the_best_scoring_tile_or_else_draws():
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-2-2", "2-3-3", "0-0-0"], ["0-0-5"]])
    assert game.timeout_actions(0) == ["3-2-3 r1c0"]
    assert stuck(["0-0-2", "4-5-5"]).timeout_actions(0) == ["draw"]
    assert stuck([]).timeout_actions(0) == ["pass"]


# ---- the end of a round and of the game (§2.5, §2.6) ----------------------------------------------------


def test_going_out_scores_twenty_five_plus_the_other_hands():
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-2-2"], ["0-0-5", "3-4-5"]], scores=[10, 0])
    events = game.apply(0, "1-2-2 r0c1")
    assert game.round == 2
    assert events[1].kind == "round_end" and game.seats[0].score == 10 + 5 + 25 + 5 + 12


def test_a_blocked_round_pays_the_lowest_hand_the_others_minus_its_own():
    game = game_at([{"at": "r0c0", "corners": [5, 5, 5]}], [["0-0-1"], ["0-1-1"], ["2-2-3"]], pool=[], passes=2)
    game.apply(0, "pass")
    assert game.seats[0].score == -10 + (2 + 7) - 1 and game.round == 2


def test_the_blocked_payout_option_sums_the_differences():
    hands = {0: [(0, 0, 1)], 1: [(0, 1, 1)], 2: [(2, 2, 3)]}
    assert blocked_payout(hands, 0, "others_minus_own") == 8
    assert blocked_payout(hands, 0, "differences") == (2 - 1) + (7 - 1)


def test_the_game_ends_after_the_round_in_which_someone_reaches_the_target_and_the_highest_total_wins():
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-2-2"], ["0-0-5"]], scores=[380, 420])
    game.apply(0, "1-2-2 r0c1")
    outcome = game.outcome()
    assert outcome is not None and game.seats[0].score == 380 + 5 + 25 + 5 and outcome.winners == (1,)
    assert game.to_move() == () and game.legal_actions(0) == []


def test_first_to_target_prefers_the_round_winner_among_those_past_it():
    options = TriominoesOptions(winner="first_to_target")
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-2-2"], ["0-0-5"]], scores=[380, 450],
                   options=options)
    game.apply(0, "1-2-2 r0c1")
    assert game.outcome().winners == (0,)  # type: ignore[union-attr]


def test_a_fixed_number_of_rounds_ends_the_game():
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-2-2"], ["0-0-5"]],
                   options=TriominoesOptions(rounds=1))
    game.apply(0, "1-2-2 r0c1")
    assert game.outcome() is not None


# ---- positions (§5) -----------------------------------------------------------------------------------------


def test_positions_round_trip_exactly():
    game = Triominoes.new(3, seed=4)
    for _ in range(12):
        seat = game.to_move()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    saved = game.to_position()
    assert Triominoes.from_position(saved).to_position() == saved


def test_the_table_and_its_positions_say_who_laid_each_tile():
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-1-2", "0-0-0"], ["1-1-3", "1-2-2", "2-2-3"]])
    for seat in (0, 1):
        game.apply(seat, next(a for a in game.legal_actions(seat) if a[0].isdigit()))
    assert [entry.get("seat") for entry in game.view(None)["board"]] == [None, 0, 1]
    saved = game.to_position()
    assert [entry.get("seat") for entry in saved["board"]] == [None, 0, 1]
    assert Triominoes.from_position(saved).to_position() == saved
    saved["board"][1]["seat"] = 2
    with pytest.raises(PositionError, match="a seat from 0 to 1"):
        Triominoes.from_position(saved)


def test_impossible_positions_are_refused_with_the_reason():
    with pytest.raises(PositionError, match="does not fit"):
        Triominoes.from_position(position([{"at": "r0c0", "corners": [1, 2, 3]},
                                           {"at": "r0c1", "corners": [4, 4, 4]}], [["0-0-0"], ["0-0-1"]]))
    with pytest.raises(PositionError, match="two places"):
        Triominoes.from_position(position([], [["0-0-0"], ["0-0-0"]]))
    with pytest.raises(PositionError, match="flipped"):
        Triominoes.from_position(position([{"at": "r0c0", "corners": [0, 2, 1]}], [["0-0-0"], ["0-0-1"]]))


def test_the_game_is_registered():
    assert GAMES["triominoes"] is Triominoes


def test_suggestions_match_a_tile_typed_in_any_order_and_a_spot_number():
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-2-2", "2-3-3"], ["0-0-5"]])
    legal = game.legal_actions(0)
    assert [a for a in legal if game.suggestion_match(a, "221") is not None] == ["1-2-2 r0c1"]
    assert [a for a in legal if game.suggestion_match(a, "3 at 3") is not None] == ["3-2-3 r1c0"]
    assert [a for a in legal if game.suggestion_match(a, "2-3-3 r0") is not None] == []
    assert game.suggestion_match("1-2-2 r0c1", "4") is None


def test_a_number_in_other_digits_matches_no_suggestion_and_is_refused_saying_to_write_0_to_9():
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-2-2", "2-3-3"], ["0-0-5"]])
    legal = game.legal_actions(0)
    for typed in ("²", "1-2-2 ²", "1-2-2 at ³", "１２２", "1-2-2 at ٣", "221 ①"):
        assert [a for a in legal if game.suggestion_match(a, typed) is not None] == []
        with pytest.raises(NotationError, match="write numbers with the digits 0 to 9"):
            game.parse(0, typed)
    with pytest.raises(NotationError, match="is not a cell"):
        game.parse(0, "1-2-2 at " + "9" * 5_000)


# ---- options (§2.7) ---------------------------------------------------------------------------------------


def test_max_draws_zero_draws_until_a_tile_fits_or_the_well_is_empty():
    game = stuck(["0-0-2", "0-0-3", "0-0-4", "0-1-2", "4-5-5"], options=TriominoesOptions(max_draws=0))
    for _ in range(4):
        assert game.forced_action(0) == "draw"
        game.apply(0, "draw")
    assert game.legal_actions(0) == ["draw"]
    game.apply(0, "draw")
    assert all(a.startswith(("4-5-5", "5-4-5", "5-5-4")) for a in game.legal_actions(0))


def test_without_must_play_drawn_you_may_keep_drawing_past_a_tile_that_fits():
    game = stuck(["4-5-5", "0-0-3", "0-0-4"], options=TriominoesOptions(must_play_drawn=False))
    game.apply(0, "draw")
    assert "draw" in game.legal_actions(0) and any(a.startswith("4-5-5") for a in game.legal_actions(0))


def test_penalties_are_options():
    options = TriominoesOptions(draw_penalty=2, pass_penalty=3, empty_well_penalty=0)
    game = stuck(["0-0-2", "0-0-3", "0-0-4"], options=options)
    for _ in range(4):
        game.apply(0, game.forced_action(0))
    assert game.seats[0].score == -2 * 3 - 3
    empty = stuck([], options=options)
    empty.apply(0, "pass")
    assert empty.seats[0].score == 0


def test_a_blocked_round_may_go_to_the_fewest_tiles():
    board = [{"at": "r0c0", "corners": [5, 5, 5]}]
    hands = [["0-0-1", "0-0-2"], ["2-2-3"]]
    lowest = game_at(board, hands, pool=[], passes=1)
    lowest.apply(0, "pass")
    fewest = game_at(board, hands, pool=[], passes=1, options=TriominoesOptions(blocked_winner="fewest_tiles"))
    fewest.apply(0, "pass")
    assert lowest.round_winners == [0] and fewest.round_winners == [1]


def test_exact_blocking_ends_the_round_as_soon_as_no_tile_anywhere_fits():
    board = [{"at": "r0c0", "corners": [5, 5, 5]}]
    hands = [["0-5-5", "0-0-1"], ["2-2-3"]]
    exact = game_at(board, hands, pool=["0-0-2"], options=TriominoesOptions(blocked_when="exact"))
    passes = game_at(board, hands, pool=["0-0-2"])
    for game in (exact, passes):
        game.apply(0, game.legal_actions(0)[0])  # 0-5-5, the last tile that fits anywhere
    assert exact.round == 2 and "Round 1 is blocked" in exact.previous["text"]  # type: ignore[index]
    assert passes.round == 1 and passes.turn == 1
    passes.apply(1, "draw")  # bob draws the last tile, which fits nowhere either
    passes.apply(1, "pass")
    passes.apply(0, "pass")  # with the well empty, everyone has passed
    assert passes.round == 2


def test_the_last_rounds_winner_opens_the_next_with_any_tile_for_its_face_value():
    options = TriominoesOptions(opening="winner")
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-2-2"], ["0-0-5"]], options=options)
    game.apply(0, "1-2-2 r0c1")
    assert game.round == 2 and game.turn == 0 and game.pending is not None
    assert len(game.pending.tiles) == len(game.seats[0].hand)
    tile = game.legal_actions(0)[0]
    before = game.seats[0].score
    game.apply(0, tile)
    assert game.seats[0].score - before == sum(int(n) for n in tile.split()[0].split("-"))


def test_options_are_read_from_text_and_refused_with_the_choices():
    options = TriominoesOptions.parse({"hexagons": "goliath", "target": "200", "bridge_extensions": "on"})
    assert (options.hexagons, options.target, options.bridge_extensions) == ("goliath", 200, True)
    with pytest.raises(Exception, match="pressman, goliath"):
        TriominoesOptions.parse({"hexagons": "lots"})


HEXAGON_AND_EXTENSION_BOARD = laid(
    "r0c0 2-2-3 r0c1 2-5-2 r0c-1 0-2-3 r-1c-1 0-2-0 r0c-2 0-3-0 r1c-2 0-3-3 r-1c1 4-5-2 r-1c-2 4-0-0",
    "r0c-3 0-0-0 r-1c2 4-4-5 r0c-4 0-0-5 r-2c2 4-4-4 r-2c3 4-0-4 r-3c3 5-0-4 r1c-1 3-5-3 r1c-3 0-3-5",
    "r-1c3 4-5-5 r1c-4 5-0-5 r1c-5 5-5-2 r-2c1 1-4-4 r-3c1 2-4-1 r2c-1 3-5-5 r2c-5 2-5-1 r2c-2 3-5-1",
    "r3c-2 1-5-1 r0c3 5-5-5 r-2c4 0-3-4 r1c-6 3-5-2 r0c4 5-1-5 r-3c0 1-2-1 r-3c-1 1-1-0 r3c-3 1-1-1",
    "r0c5 5-0-1 r-2c-1 0-1-0"
)
"""0-1-4 on r-2c0 closes the hexagon around one corner and adds to a bridge at another."""


def test_a_hexagon_takes_precedence_over_a_bridge_unless_both_score():
    hands = [["0-1-4", "2-2-2"], ["3-3-4"]]
    extended = TriominoesOptions(bridge_extensions=True)
    precedence = game_at(HEXAGON_AND_EXTENSION_BOARD, hands, pool=[], options=extended)
    precedence.apply(0, "1-4-0 r-2c0")
    both = game_at(HEXAGON_AND_EXTENSION_BOARD, hands, pool=[],
                   options=TriominoesOptions(bridge_extensions=True, hexagon_and_bridge=True))
    events = both.apply(0, "1-4-0 r-2c0")
    assert (precedence.seats[0].score, both.seats[0].score) == (5 + 50, 5 + 50 + 40)
    assert "a hexagon and adds to a bridge" in events[0].text


def test_a_hint_shows_the_tile_as_held_then_turned_and_reads_back_as_its_placement():
    import random as chance

    game = Triominoes.new(3, seed=11)
    rng = chance.Random(11)
    seen_turned = False
    for _ in range(60):
        if game.outcome() is not None:
            break
        seat = game.to_move()[0]
        hand = set(game.view(seat)["hand"])
        for action in game.legal_actions(seat):
            shown = game.describe_action(seat, action)
            assert game.parse(seat, shown) == action
            if " → " in shown:
                held, placed = shown.split(" → ")
                assert held in hand and placed == action and not action.startswith(held + " ")
                seen_turned = True
            elif action not in ("draw", "pass"):
                assert action.split()[0] in hand
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert seen_turned


def test_a_hint_naming_two_different_tiles_is_refused():
    game = Triominoes.new(2, seed=1)
    with pytest.raises(NotationError, match="not the same tile"):
        game.parse(game.to_move()[0], "1-2-3 → 0-1-0 r0c1")


# ---- positions carry the whole game -----------------------------------------------------------------


def test_a_game_won_by_going_out_loads_back_over_with_its_result():
    g = game_at(laid("r0c0 0-0-0"), [["0-0-1"], ["3-4-5"]], scores=[390, 100])
    g.apply(0, "0-0-1 r0c1")
    p = g.to_position()
    assert p["result"]["winners"] == [0] and p["result"]["scores"][0] >= 400 and p["round_winners"] == [0]
    again = Triominoes.from_position(p)
    assert again.outcome() == g.outcome() and again.to_move() == () and again.legal_actions(0) == []


@pytest.mark.parametrize(("change", "message"), [
    (lambda p: p["seats"][0]["hand"].append("0-0-0"), "a tile is in two places: 0-0-0"),
    (lambda p: p["seats"][0].update(hand=[]), "P1 holds no tile, so they went out"),
    (lambda p: p.update(passes=1), "passes count only with the well empty"),
    (lambda p: p.update(result={"scores": [50, 0], "winners": [0], "reason": "someone reached 400 points",
                                "teams": []}), "nobody still playing has 400 points"),
    (lambda p: p.update(result={"scores": [0], "winners": [0], "reason": "x"}), "a score for each of the 2"),
    (lambda p: p.update(options={"target": 10}), "option target cannot be 10"),
])
def test_a_position_that_contradicts_itself_is_refused_with_the_reason(change, message):
    p = position(laid("r0c0 0-0-0"), [["0-0-1", "1-2-3"], ["3-4-5"]], scores=[50, 0])
    change(p)
    with pytest.raises(PositionError, match=message):
        Triominoes.from_position(p)


def test_a_round_opened_by_the_wrong_player_is_refused():
    with pytest.raises(PositionError, match=r"P2 opens the round \(holds the highest triple\), so the turn is 1"):
        Triominoes.from_position(position([], [["1-2-3", "0-1-2"], ["5-5-5", "0-0-1"]], turn=0))


def test_a_finished_game_with_another_winner_than_the_scores_give_is_refused():
    g = game_at(laid("r0c0 0-0-0"), [["0-0-1"], ["3-4-5"]], scores=[390, 100])
    g.apply(0, "0-0-1 r0c1")
    p = g.to_position()
    p["result"]["winners"] = [1]
    with pytest.raises(PositionError, match="the result names P2 as winner, but this position gives P1"):
        Triominoes.from_position(p)
