"""Tronimoes rules, one test per rule (shared/rules/tronimoes.md; § numbers refer to it).

Boards are the two-player 8×9 grid unless a test says otherwise: columns a–h, rows 1–9, the
round leader 7:7 on d5 e5. Seats are red (0), blue (1), green (2).
"""

from __future__ import annotations

import json
import random

import pytest

from engine import AmbiguousMove, IllegalMove, NotationError, NotYourTurn, PositionError
from engine.tronimoes import Tronimoes, TronimoesOptions
from engine.tronimoes.board import full_set, tile_name
from tests.engine.build import game
from tests.engine.test_contract import documented_example

RED, BLUE, GREEN = 0, 1, 2


def kinds(events):
    return [e.kind for e in events]


def refusal(g, seat, text):
    """The message a refused action gets; the game must not change."""
    before = json.dumps(g.to_json()), json.dumps(g.to_position())
    with pytest.raises((IllegalMove, NotationError, NotYourTurn, AmbiguousMove)) as caught:
        g.apply(seat, text)
    assert (json.dumps(g.to_json()), json.dumps(g.to_position())) == before
    return str(caught.value)


def deck_for(g, hands, bag_front=()):
    """A deck that deals `hands` (lists of tile names, topped up with non-doubles) in seat order,
    with `bag_front` drawn first from the bag."""
    named = [[tuple(int(p) for p in t.split(":")) for t in hand] for hand in hands]
    front = [tuple(int(p) for p in t.split(":")) for t in bag_front]
    used = {t for hand in named for t in hand} | set(front)
    rest = sorted((t for t in full_set(g.max_pips) if t not in used), key=lambda t: t[0] != t[1])
    deck = []
    for hand in named:
        deck += hand + [rest.pop() for _ in range(10 - len(hand))]
    return deck + front + rest


# =============================================================================================
# §1 board, tiles, deal


@pytest.mark.parametrize(("players", "size", "max_pips", "tiles", "bag"), [
    (1, (6, 7), 6, 28, 18), (2, (8, 9), 7, 36, 16), (3, (10, 11), 8, 45, 15),
    (4, (12, 13), 10, 66, 26), (5, (14, 15), 11, 78, 28), (6, (16, 17), 12, 91, 31)])
def test_board_size_and_tile_set_follow_the_player_count(players, size, max_pips, tiles, bag):
    g = Tronimoes.new(players, seed=11)
    p = g.to_position()
    assert (p["width"], p["height"], p["max_pips"]) == (*size, max_pips)
    everything = [t for s in p["seats"] for t in s["hand"]] + p["bag"] + [b["tile"] for b in p["board"]]
    normal = sorted(tile_name(tuple(sorted(int(x) for x in t.split(":")))) for t in everything)
    assert normal == sorted(tile_name(t) for t in full_set(max_pips))
    assert len(everything) == tiles
    drawn_for_leader = sum(len(s["hand"]) for s in p["seats"]) + 1 - 10 * players
    assert len(p["bag"]) == bag - drawn_for_leader


def test_every_player_is_dealt_ten_tiles():
    g = Tronimoes.new(3, seed=0)
    g.leaders = []
    g._start_round(deck_for(g, [["8:8"], [], []]))
    assert [len(s.hand) for s in g.seats] == [9, 10, 10]
    assert len(g.bag) == 45 - 30


def test_the_same_seed_deals_the_same_game_and_another_seed_does_not():
    assert Tronimoes.new(4, seed=5).to_position() == Tronimoes.new(4, seed=5).to_position()
    assert Tronimoes.new(4, seed=5).to_position() != Tronimoes.new(4, seed=6).to_position()


def test_hands_and_bag_are_hidden_from_views():
    g = Tronimoes.new(2, seed=1, names=["red", "blue"])
    public = g.view(None)
    assert "hand" not in public and "bag" not in public
    assert public["bag_size"] == len(g.bag)
    mine = g.view(RED)
    assert mine["hand"] == [tile_name(t) for t in g.seats[RED].hand]
    assert all("hand" not in seat for seat in mine["seats"])


# =============================================================================================
# §2 leaders, rounds, game end


def test_round_leader_is_the_highest_double_anyone_holds():
    g = Tronimoes.new(2, seed=0)
    g.leaders = []
    events = g._start_round(deck_for(g, [["5:5", "2:2"], ["6:6"]], bag_front=["7:7"]))
    assert g.leaders == [6] and g.board[0].tile == (6, 6)
    assert events[0].data["holder"] == BLUE


def test_round_leader_must_be_lower_than_the_previous_leader():
    g = Tronimoes.new(2, seed=0)
    g.leaders = [6]
    g._start_round(deck_for(g, [["7:7", "4:4"], ["5:5"]]))
    assert g.leaders[-1] == 5


def test_doubles_nobody_holds_are_skipped():
    g = Tronimoes.new(2, seed=0)
    g.leaders = [7]
    g._start_round(deck_for(g, [["3:3"], ["1:1"]], bag_front=["6:6", "5:5", "4:4"]))
    assert g.leaders[-1] == 3


def test_when_nobody_holds_an_eligible_double_everyone_draws_until_one_is_found():
    g = Tronimoes.new(2, seed=0)
    g.leaders = [4]
    events = g._start_round(deck_for(g, [["4:4"], ["5:5"]], bag_front=["0:1", "0:2", "1:2", "3:3"]))
    assert g.leaders[-1] == 3
    assert events[0].data["draws"] == 2
    assert events[0].data["holder"] == BLUE
    assert [len(s.hand) for s in g.seats] == [12, 11]


def test_the_leader_after_drawing_is_the_highest_eligible_double_not_the_first_drawn():
    g = Tronimoes.new(2, seed=0)
    g.leaders = [6]
    g._start_round(deck_for(g, [["6:6"], ["7:7"]], bag_front=["2:2", "5:5"]))
    assert g.leaders[-1] == 5
    assert (2, 2) in g.seats[RED].hand


def test_a_round_cannot_start_when_the_bag_runs_out_during_the_leader_draws():
    g = Tronimoes.new(4, seed=0)
    g.leaders = [1]
    for s in g.seats:
        s.score = 3
    deck = deck_for(g, [["1:1"], [], [], []])
    deck.remove((0, 0))
    deck.insert(40 + 24, (0, 0))
    events = g._start_round(deck)
    assert kinds(events) == ["game_end"]
    assert "could not start" in events[0].text
    assert g.outcome() is not None and g.to_move() == ()
    assert g.outcome().scores == (3, 3, 3, 3)


@pytest.mark.parametrize(("players", "squares"), [(1, ("c4", "d4")), (2, ("d5", "e5")), (4, ("f7", "g7"))])
def test_the_leader_is_laid_in_the_middle_and_the_next_seat_moves_first(players, squares):
    g = Tronimoes.new(players, seed=2)
    leader = g.to_position()["board"][0]
    assert tuple(leader["at"]) == squares and leader["line"] == "leader"
    holder = next(i for i in range(players) if len(g.seats[i].hand) % 10 == 9) if players > 1 else 0
    assert g.turn == (holder + 1) % players


def test_the_next_round_starts_when_everyone_is_ready_and_scores_carry_over():
    g = game(["7:1 c5 b5 0", "1:2 a5 a4 0", "7:3 d4 c4 1", "3:4 c3 b3 1"], [["0:5"], ["4:6", "1:1"]],
             turn=BLUE)
    g.apply(BLUE, "4:6 a3 a2")
    assert g.phase == "between rounds" and g.to_move() == (RED, BLUE)
    assert "ready" in refusal(g, RED, "draw")
    events = g.apply(BLUE, "ready")
    assert g.to_move() == (RED,) and "waiting for red" in events[0].text
    events = g.apply(RED, "ready")
    assert "round_start" in kinds(events)
    assert g.round == 2 and g.leaders[-1] < 7 and g.scores() == (-1, 3)


def test_the_game_ends_after_the_double_zero_round_with_the_totals():
    g = game(["0:0 d5 e5 leader", "0:1 d4 d3 0"], [["1:2"], ["3:4", "5:6"]], leaders=[7, 5, 0],
             seats=[{"score": 4}, {"score": 5}])
    events = g.apply(RED, "1:2 d2 d1")
    assert kinds(events)[-1] == "game_end"
    outcome = g.outcome()
    assert outcome is not None and outcome.scores == (6, 5) and outcome.winners == (RED,)
    assert g.to_move() == () and g.legal_actions(RED) == []


def test_a_tied_game_is_a_shared_win():
    g = game(["0:0 d5 e5 leader", "0:1 d4 d3 0"], [["1:2"], ["3:4"]], leaders=[7, 0],
             seats=[{"score": 1}, {"score": 3}])
    g.apply(RED, "1:2 d2 d1")
    assert g.outcome().winners == (RED, BLUE)


# =============================================================================================
# §3 legal placement

HEAD_AT_D4 = ["7:3 e4 d4 0"]


def test_a_tile_must_match_the_pips_at_the_open_end():
    g = game(HEAD_AT_D4, [["4:6", "3:5"], ["1:1"]])
    assert refusal(g, RED, "4:6 c4 b4") == "4:6 does not match the 3 at the end of your line (d4)"
    g.apply(RED, "3:5 c4 b4")
    assert g.lines[RED].tiles and g.head(g.lines[RED]).next_pips == 5


def test_the_other_half_may_point_any_way_even_alongside_the_head():
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]])
    assert {"3:5 d3 e3", "3:5 d3 d2", "3:5 d3 c3", "3:5 c4 c3", "3:5 c4 b4"} <= set(g.legal_actions(RED))


def test_pips_follow_the_squares_and_swapped_halves_are_retried():
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]])
    assert g.parse(RED, "5:3 c3 c4") == "3:5 c4 c3"
    assert g.parse(RED, "3:5 c3 c4") == "3:5 c4 c3"


def test_both_pip_assignments_alongside_a_double_are_two_moves():
    g = game(["7:5 d4 d3 0", "5:5 c3 b3 0"], [["5:1"], ["1:1"]])
    actions = g.legal_actions(RED)
    assert "5:1 c2 b2" in actions and "5:1 b2 c2" in actions
    assert g.parse(RED, "5:1 c2 b2") == "5:1 c2 b2"
    assert g.parse(RED, "1:5 c2 b2") == "5:1 b2 c2"


def test_a_double_head_dangles_both_ends_open():
    g = game(["7:5 d4 d3 0", "5:5 c3 b3 0"], [["5:1"], ["1:1"]])
    actions = g.legal_actions(RED)
    assert "5:1 a3 a2" in actions
    assert "5:1 c2 c1" in actions


def test_a_covered_square_is_refused():
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]])
    assert refusal(g, RED, "3:5 d3 d4") == "d4 is taken"


def test_a_square_off_the_board_is_refused_with_the_board_size():
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]])
    assert "columns run a–h and rows 1–9" in refusal(g, RED, "3:5 i4 i5")


def test_a_tile_not_in_hand_is_refused():
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]])
    assert refusal(g, RED, "3:6 c4 b4") == "you do not have 3:6"


def test_acting_out_of_turn_is_refused():
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]])
    assert refusal(g, BLUE, "draw") == "it is red's turn"



def test_nobody_may_play_on_an_unfooted_opponents_line():
    g = game(["7:1 e4 e3 0", "7:3 d6 c6 1"], [["3:5"], ["1:1"]])
    assert refusal(g, RED, "3:5 b6 a6") == "blue's line is not chicken-footed, so only blue may play on it"


def test_anyone_not_footed_may_play_on_a_chicken_footed_line_and_it_stays_footed():
    g = game(["7:1 e4 e3 0", "7:3 d6 c6 1"], [["3:5"], ["1:1"]], seats=[{}, {"footed": True}])
    events = g.apply(RED, "3:5 b6 a6")
    assert g.board[-1].line == BLUE and g.board[-1].by == RED
    assert g.seats[BLUE].footed and "unfoot" not in kinds(events)


def test_a_footed_player_may_only_play_on_their_own_line():
    g = game(["7:1 e4 e3 0", "7:3 d6 c6 1"], [["3:5", "1:2"], ["1:1"]],
             seats=[{"footed": True}, {"footed": True}])
    assert refusal(g, RED, "3:5 b6 a6").startswith("you are chicken-footed")
    events = g.apply(RED, "1:2 e2 e1")
    assert "unfoot" in kinds(events) and not g.seats[RED].footed


def test_a_dead_player_may_play_on_footed_lines_but_not_their_own():
    g = game(["7:1 e4 e3 0 dead", "7:3 d6 c6 1"], [["1:2", "3:5"], ["1:1"], ["0:0"]],
             seats=[{"dead": True}, {"footed": True}, {}])  # green keeps a second line alive
    assert refusal(g, RED, "1:2 e2 e1").startswith("your line is dead")
    g.apply(RED, "3:5 b6 a6")
    assert g.board[-1].line == BLUE


def test_a_lay_that_fits_several_lines_goes_to_your_own_unless_you_name_another():
    g = game(["7:3 d4 c4 0", "7:1 d6 d7 1", "1:3 c7 c6 1"], [["3:2"], ["1:1"]], seats=[{}, {"footed": True}])
    actions = g.legal_actions(RED)
    assert "3:2 c5 b5" in actions and "3:2 c5 b5 on blue" in actions
    assert g.parse(RED, "3:2 c5 b5 on red") == "3:2 c5 b5"
    assert g.parse(RED, "3:2 c5 b5 on p2") == "3:2 c5 b5 on blue"
    g.apply(RED, "3:2 c5 b5 on blue")
    assert g.board[-1].line == BLUE


def test_naming_a_line_that_does_not_exist_is_refused_with_the_line_names():
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]])
    assert refusal(g, RED, "3:5 c4 b4 on zed") == "there is no line called 'zed'; lines here: red, blue"


def test_a_double_gives_another_turn_with_a_new_draw():
    g = game(HEAD_AT_D4, [["3:3", "1:2"], ["1:1"]], bag=["0:1", "0:2"])
    g.apply(RED, "draw")
    events = g.apply(RED, "3:3 c4 b4")
    assert "again" in kinds(events)
    assert g.turn == RED and "draw" in g.legal_actions(RED)


def test_the_round_leader_gives_no_extra_turn():
    g = Tronimoes.new(3, seed=4)
    holder = next(i for i in range(3) if len(g.seats[i].hand) % 10 == 9)
    assert g.turn == (holder + 1) % 3


# =============================================================================================
# §5 drawing, passing, chicken-foot


def test_a_player_may_draw_once_per_turn():
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]], bag=["0:1", "0:2"])
    events = g.apply(RED, "draw")
    assert g.seats[RED].hand[-1] == (0, 1)
    assert [e.to for e in events] == [None, RED] and "0:1" not in events[0].text
    assert refusal(g, RED, "draw") == "you have already drawn this turn: lay a tile or `pass`"


def test_pass_without_draw_is_refused():
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]])
    assert refusal(g, RED, "pass") == "you must draw before you pass: type `draw` first"


def test_with_an_empty_bag_you_pass_without_drawing_and_may_not_draw():
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]], bag=[])
    assert refusal(g, RED, "draw") == "the bag is empty: lay a tile or `pass`"
    assert "pass" in g.legal_actions(RED)
    g.apply(RED, "pass")
    assert g.turn == BLUE


def test_passing_makes_you_chicken_footed():
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]])
    g.apply(RED, "draw")
    events = g.apply(RED, "pass")
    assert g.seats[RED].footed and g.seats[RED].foot is None
    assert "chicken-footed" in events[0].text and g.turn == BLUE


def test_a_dead_player_passes_without_becoming_footed():
    g = game(["7:1 e4 e3 0 dead"], [["3:5"], ["1:1"], ["0:0"]], seats=[{"dead": True}, {}, {}], bag=[])
    g.apply(RED, "pass")
    assert not g.seats[RED].footed


def test_starting_chicken_footed_needs_a_foot_square_next_to_the_leader():
    g = game([], [["3:5"], ["1:1"]], bag=[])
    message = refusal(g, RED, "pass")
    assert "choose a foot square" in message and "(free: d4, e4, c5, f5, d6, e6)" in message
    assert refusal(g, RED, "pass a1") == "a1 is not next to the round leader; choose one of d4, e4, c5, f5, d6, e6"
    g.apply(RED, "pass d4")
    assert g.seats[RED].footed and g.to_position()["seats"][RED]["foot"] == "d4"


def test_a_foot_square_needs_an_empty_neighbour():
    g = game(["7:1 e4 e3 1", "1:2 d3 c3 1", "2:3 c4 b4 1"], [["3:5"], ["4:4"]], bag=[])
    assert "has no empty square beside it" in refusal(g, RED, "pass d4")


def test_another_players_foot_square_cannot_be_chosen():
    g = game([], [["3:5"], ["1:1"]], bag=[], seats=[{}, {"footed": True, "foot": "d4"}])
    assert refusal(g, RED, "pass d4").startswith("d4 is already blue's foot square")


def test_your_first_tile_after_starting_footed_must_cover_your_foot_square():
    g = game([], [["7:1", "7:2"], ["1:1"]], seats=[{"footed": True, "foot": "d4"}, {}])
    assert refusal(g, RED, "7:1 d6 d7") == "your first tile must cover your foot square d4"
    assert "7:1 e4 d4" in g.legal_actions(RED)
    g.apply(RED, "7:1 d4 d3")
    assert not g.seats[RED].footed


def test_an_opponent_must_put_the_matching_half_on_a_footed_players_foot_square():
    g = game(["7:2 f5 g5 0"], [["2:2"], ["7:1"], ["0:0"]], turn=BLUE, names=["red", "blue", "green"],
             seats=[{}, {}, {"footed": True, "foot": "d4"}])
    actions = g.legal_actions(BLUE)
    assert "7:1 d4 e4" in actions and "7:1 e4 d4" not in actions
    assert g.parse(BLUE, "7:1 e4 d4 on green") == "7:1 d4 e4"
    assert g._foot_problem(BLUE, g.lines[GREEN], *[g.grid.parse_square(s) for s in ("e4", "d4")]) == (
        "green's line must start through their foot square d4, with the matching half on it")


def test_only_a_tile_on_its_owners_line_may_cover_a_foot_square():
    g = game(["7:1 e4 e3 1"], [["7:2"], ["1:5", "7:3"], ["0:0"]], turn=BLUE, names=["red", "blue", "green"],
             seats=[{"footed": True, "foot": "d4"}, {}, {}])
    assert refusal(g, BLUE, "1:5 d3 d4") == "d4 is red's foot square: only a tile on red's line may cover it"
    g.apply(BLUE, "7:3 d4 c4 on red")
    assert g.board[-1].line == RED
    assert g.seats[RED].footed and g.to_position()["seats"][RED]["foot"] is None


# =============================================================================================
# §5 the no-blocking rule (an exact search)

# The walls are a dead player's line: they fill d4 d6 e6 f6 c6 (and more), and red's line fills
# e4 f4, so that next to the leader only c5 (with b5 or c4) and f5 (with g5) are left.
# Red's line ends at h4 with a 3, so red can take g5 with `3:0 h5 g5`.
#
#       a   b   c   d   e   f   g   h
#   3   .   .   . W   .   . r   r   .
#   4   .   .   . W r   r   r   . r
#   5   .   .   . L   L   .   .   .
#   6   .   . W   W   W   W   .   .
#   7   .   . W   W   W   W   W   .
#   8   .   .   .   .   .   .   W   .
RED_LINE = ["7:1 e4 f4 0", "1:2 g4 g3 0", "2:3 h3 h4 0"]


def walls(seat):
    return [f"{tile} {seat} dead" for tile in ("7:4 d6 d7", "4:5 e7 e6", "5:6 f7 f6", "6:0 c7 c6",
                                                "0:2 d3 d4", "1:4 g7 g8")]


def blocking_game(blue=None, *, players=("red", "blue", "green")):
    seats = [{}, blue or {}] + [{}] * (len(players) - 3) + [{"dead": True}]
    hands = [["3:0", "3:6"], ["1:1"]] + [["2:2"]] * (len(players) - 3) + [[]]
    return game(RED_LINE + walls(len(players) - 1), hands, names=list(players), seats=seats)


def test_a_lay_may_leave_an_unstarted_opponent_one_slot():
    g = blocking_game()
    g.apply(RED, "3:0 h5 g5")
    assert not g.seats[BLUE].dead


def test_no_blocking_protects_every_unstarted_player_at_once():
    """Blue and yellow each still have a slot at c5, but not both at once."""
    g = blocking_game(players=("red", "blue", "yellow", "green"))
    assert refusal(g, RED, "3:0 h5 g5") == (
        "that would leave blue and yellow without room for the first tiles of their lines "
        "(everyone must be able to start their line)")
    g.apply(RED, "3:0 h5 h6")


def test_a_footed_unstarted_player_keeps_room_through_their_foot():
    g = blocking_game({"footed": True, "foot": "f5"})
    assert refusal(g, RED, "3:0 h5 g5") == "that would leave blue no room to lay the first tile of their line"
    assert "3:0 h5 h6" in g.legal_actions(RED)


def test_you_may_leave_a_box_that_kills_a_line_as_soon_as_it_starts():
    """After red's lay blue's only first tile is f5 g5, and g5 is boxed in: allowed."""
    g = blocking_game({"footed": True, "foot": "f5"})
    g.apply(RED, "3:0 h5 h6")
    assert not g.seats[BLUE].dead
    g.turn = BLUE
    g.seats[BLUE].hand = [(5, 7)]
    g._changed()
    assert g.legal_actions(BLUE) == ["7:5 f5 g5", "draw"]
    g.apply(BLUE, "7:5 f5 g5")
    assert g.seats[BLUE].dead


def test_your_own_unstarted_line_is_not_protected():
    blue_line = [entry.replace(" 0", " 1") for entry in RED_LINE]
    g = game(blue_line + walls(2) + ["0:1 b5 c5 2 dead"], [["3:0", "5:5"], ["1:1"], []],
             names=["red", "blue", "green"], seats=[{}, {"footed": True}, {"dead": True}])
    events = g.apply(RED, "3:0 h5 g5 on blue")
    assert g.seats[RED].dead and g.scores()[RED] == 0
    assert any(e.kind == "kill" and e.data["victim"] == RED for e in events)


# =============================================================================================
# §4 line death, kill credit, ouroboros

MURDER = ["7:1 c5 b5 0", "1:2 a5 a4 0", "7:3 d4 c4 1", "3:4 c3 b3 1"]


def test_blue_boxes_red_in_against_the_edge():
    """The rules text's murder: the edge blocks red on one side and blue's tiles on the other."""
    g = game(MURDER, [["0:5", "2:6"], ["4:6", "1:1"]], turn=BLUE)
    events = g.apply(BLUE, "4:6 a3 a2")
    kill = next(e for e in events if e.kind == "kill")
    assert kill.data == {"killer": BLUE, "victim": RED, "how": "cut off", "reaction": "skull"}
    assert g.seats[RED].dead
    assert g.scores() == (-1, 1 + 2)
    assert "round_end" in kinds(events)


def test_dead_lines_stay_on_the_board_as_obstacles():
    g = game(MURDER, [["0:5", "2:6"], ["4:6", "1:1"], ["0:0"]], turn=BLUE, names=["red", "blue", "green"])
    g.apply(BLUE, "4:6 a3 a2")
    assert not g.seats[BLUE].dead and g.phase == "playing"
    entries = g.to_position()["board"]
    assert [e.get("dead", False) for e in entries[1:3]] == [True, True]
    assert g.occupied[g.grid.parse_square("a5")]


def test_the_sniper_rifle_double_kills_and_plays_again():
    g = game(["7:1 c5 b5 1", "1:2 a5 a4 1", "7:3 d4 c4 0", "3:5 c3 b3 0"],
             [["5:5", "1:4"], ["2:6"], ["0:0"]], names=["red", "blue", "green"])
    events = g.apply(RED, "5:5 a3 a2")
    assert kinds(events) == ["lay", "kill", "again"]
    assert g.seats[BLUE].dead and g.scores() == (1, -1, 0)
    assert g.turn == RED and g.phase == "playing"


def test_a_line_boxed_in_by_its_own_owner_dies_for_net_zero():
    board = ["7:1 c5 b5 0", "1:2 b4 b3 0", "2:4 a3 a2 0", "7:3 d4 d3 1", "3:5 c3 c2 1", "5:6 c1 d1 1"]
    g = game(board, [["4:6", "0:1"], ["6:6"], ["0:0"]], names=["red", "blue", "green"])
    events = g.apply(RED, "4:6 a1 b1")
    assert g.seats[RED].dead and g.scores() == (0, 0, 0)
    assert "boxed in their own line" in next(e.text for e in events if e.kind == "kill")
    assert g.turn == BLUE


def test_an_opponent_backs_a_chicken_footed_line_into_a_corner():
    """The rules text's "your own worst enemy": red is chicken-footed, and blue extends red's own
    line into the corner, where it cannot grow; blue gets the kill."""
    board = ["7:1 c5 b5 0", "1:2 b4 b3 0", "2:4 a3 a2 0", "7:3 d4 d3 1", "3:5 c3 c2 1", "5:6 c1 d1 1"]
    g = game(board, [["0:1"], ["4:6", "6:6"], ["0:0"]], turn=BLUE, names=["red", "blue", "green"],
             seats=[{"footed": True}, {}, {}])
    events = g.apply(BLUE, "4:6 a1 b1")
    assert g.board[-1].line == RED and g.board[-1].by == BLUE
    kill = next(e for e in events if e.kind == "kill")
    assert kill.data == {"killer": BLUE, "victim": RED, "how": "cut off", "reaction": "skull"}
    assert g.seats[RED].dead and g.scores() == (-1, 1, 0)


def test_kill_credit_goes_to_whoever_laid_the_tile_even_on_a_free_line():
    """Green extends free line 1 into a3, boxing red in; the free line's new end is boxed too."""
    board = ["5:5 d5 e5 leader", "5:3 d4 c4 1", "3:4 c3 b3 1", "5:1 c5 b5 0", "1:2 a5 a4 0",
             "6:6 a1 b1 free1 by=2"]
    g = game(board, [["6:0"], ["0:0"], ["6:1", "2:2"]], turn=GREEN, names=["red", "blue", "green"],
             leaders=[5], highest=6)
    events = g.apply(GREEN, "6:1 a2 a3")
    assert kinds(events) == ["lay", "free_line_dead", "kill"]
    assert g.seats[RED].dead and not g.seats[BLUE].dead and g.scores() == (-1, 0, 1)


def test_a_cut_off_free_line_dies_and_nobody_scores():
    walls = ["7:7 b1 b2 free2 by=1 dead", "7:0 b3 b4 free2 by=1 dead", "0:3 a5 a6 free2 by=1 dead"]
    board = ["5:5 d5 e5 leader", "5:1 e4 e3 0", "6:6 a1 a2 free1 by=0", *walls, "5:2 d6 d7 1"]
    g = game(board, [["6:2", "1:3"], ["0:0"]], leaders=[5], highest=7)
    events = g.apply(RED, "6:2 a3 a4")
    assert kinds(events) == ["lay", "free_line_dead"]
    assert g.lines["free1"].dead and g.scores() == (0, 0) and g.turn == BLUE


def test_line_death_is_geometric_and_ignores_pips():
    """Red's last slot a3-a2 keeps the line alive though nobody holds a 2."""
    g = game(MURDER, [["0:5"], ["4:6", "1:1"]], turn=BLUE)
    g.apply(BLUE, "4:6 b2 c2")
    assert not g.seats[RED].dead


def test_ouroboros_kills_the_footed_line_and_the_line_it_was_laid_on():
    board = ["7:1 d4 d3 0", "7:2 e4 e3 1", "2:3 f3 f2 1"]
    g = game(board, [["1:3", "0:0"], ["6:6"], ["5:5"], ["4:4"]], names=["red", "blue", "green", "yellow"],
             seats=[{}, {"footed": True}, {}, {}])
    events = g.apply(RED, "1:3 d2 e2")
    assert [e.data["victim"] for e in events if e.kind == "kill"] == [RED, BLUE]
    assert g.scores() == (1, -1, 0, 0)


def test_ouroboros_needs_the_other_line_footed():
    board = ["7:1 d4 d3 0", "7:2 e4 e3 1", "2:3 f3 f2 1"]
    g = game(board, [["1:3", "0:0"], ["6:6"]])
    g.apply(RED, "1:3 d2 e2")
    assert not g.seats[RED].dead and not g.seats[BLUE].dead


def test_ouroboros_can_be_switched_off():
    board = ["7:1 d4 d3 0", "7:2 e4 e3 1", "2:3 f3 f2 1"]
    g = game(board, [["1:3", "0:0"], ["6:6"]], seats=[{}, {"footed": True}],
             options=TronimoesOptions.parse({"ouroboros": "off"}))
    g.apply(RED, "1:3 d2 e2")
    assert not g.seats[RED].dead and not g.seats[BLUE].dead


def test_ouroboros_with_your_own_line_costs_you_nothing_and_kills_the_footed_line():
    board = ["7:1 d4 d3 0", "7:2 e4 e3 1", "2:4 f3 f2 1"]
    g = game(board, [["4:1", "0:0"], ["6:6"], ["5:5"]], names=["red", "blue", "green"],
             seats=[{}, {"footed": True}, {}])
    g.apply(RED, "4:1 f1 e1 on blue")
    assert g.board[-1].line == BLUE
    g2 = game(board, [["4:1", "0:0"], ["6:6"], ["5:5"]], names=["red", "blue", "green"],
              seats=[{}, {"footed": True}, {}])
    events = g2.apply(RED, "4:1 e2 d2 on blue")
    assert sorted(e.data["victim"] for e in events if e.kind == "kill") == [RED, BLUE]
    assert g2.scores()[RED] == 1 and g2.scores()[BLUE] == -1


def test_ouroboros_with_a_free_line_kills_the_free_line_without_score():
    board = ["5:5 d5 e5 leader", "5:1 d4 d3 0", "6:6 f2 f1 free1 by=1"]
    g = game(board, [["1:6", "0:0"], ["2:2"]], leaders=[5], highest=6)
    events = g.apply(RED, "1:6 d2 e2")
    assert "free_line_dead" in kinds(events)
    assert not g.seats[RED].dead and g.scores() == (0, 0)


# =============================================================================================
# §6 free lines and the spacer

FREE = ["5:5 d5 e5 leader", "5:1 d4 d3 0"]


def free_game(hand=("6:6", "1:2"), *, third: bool = False, **kwargs):
    """Red to play, 6:6 in hand, on the FREE board; `third` seats a third player (green), so a
    dead line leaves two alive."""
    kwargs.setdefault("leaders", [5])
    kwargs.setdefault("highest", 5)
    return game(kwargs.pop("board", FREE), [list(hand), ["0:0"], *([["0:1"]] if third else [])], **kwargs)


def test_a_spacer_spans_six_squares_in_a_straight_line():
    g = free_game()
    assert refusal(g, RED, "spacer c3 d8").startswith("the spacer must lie in a straight line")
    assert refusal(g, RED, "spacer c3 c7") == "the spacer spans exactly 6 squares; c3 to c7 is 5"
    assert "spacer c3 c8" in g.legal_actions(RED)


def test_a_spacer_starts_next_to_the_open_end_of_a_living_line():
    g = free_game()
    assert refusal(g, RED, "spacer a1 a6").startswith("a spacer must start next to the open end of a living line")
    assert g.parse(RED, "spacer c8 c3") == "spacer c3 c8"


def test_a_spacer_may_not_start_from_a_dead_or_unstarted_line():
    g = free_game(board=[*FREE, "5:2 e6 e7 1 dead"], seats=[{}, {"dead": True}, {}], third=True)
    assert refusal(g, RED, "spacer f7 f2").startswith("a spacer must start")


def test_a_spacer_needs_a_double_higher_than_every_leader():
    g = free_game(hand=("4:4", "1:2"))
    assert refusal(g, RED, "spacer c3 c8").startswith("a free line needs a double higher than 5:5")


def test_a_free_line_needs_your_own_line_started():
    g = free_game(board=["5:5 d5 e5 leader", "5:1 d4 d3 1"])
    assert refusal(g, RED, "spacer c3 c8") == "start your own line before you start a free line"


def test_a_footed_player_may_not_lay_a_spacer():
    g = free_game(seats=[{"footed": True}, {}])
    assert refusal(g, RED, "spacer c3 c8").startswith("you are chicken-footed")


def test_only_a_free_line_leader_may_be_laid_while_the_spacer_is_down():
    g = free_game()
    g.apply(RED, "spacer c3 c8")
    assert refusal(g, RED, "1:2 d2 d1").startswith("the spacer is down")
    assert all(a.startswith(("6:6", "spacer", "draw")) for a in g.legal_actions(RED))


def test_a_free_line_leader_touches_the_far_end_and_not_the_spacer():
    g = free_game()
    g.apply(RED, "spacer c3 c8")
    assert refusal(g, RED, "6:6 a1 a2") == "a free-line leader must touch c8, the spacer's far end"
    assert refusal(g, RED, "6:6 c7 b7") == "a free-line leader goes off the end of the spacer, not on it"
    assert "6:6 d8 d7" in g.legal_actions(RED)


def test_the_rules_page_free_line_example_is_legal():
    """The spacer (1,1)-(1,6) and the 6:6 leader at (2,6)-(3,6), not in line with the spacer."""
    g = free_game(board=["5:5 d5 e5 leader", "5:1 d4 c4 0", "1:2 c3 c2 0", "2:3 c1 b1 0"], hand=("6:6", "0:4"))
    g.apply(RED, "spacer b2 b7")
    g.apply(RED, "6:6 c7 d7")
    assert g.lines["free1"].tiles and g.turn == RED


def test_starting_a_free_line_gives_another_turn_and_raises_the_highest_leader():
    g = free_game(hand=("6:6", "7:7", "1:2"))
    g.apply(RED, "spacer c3 c8")
    events = g.apply(RED, "6:6 d8 d7")
    assert "again" in kinds(events) and g.turn == RED
    assert g.highest_leader == 6 and g.spacer is None
    assert g.view(None)["board"][-1]["line"] == "free1"


def test_free_line_leaders_strictly_rise_including_dead_ones():
    board = [*FREE, "6:6 a9 b9 free1 by=0 dead"]
    g = free_game(board=board, hand=("4:4", "1:2"), highest=6)
    assert refusal(g, RED, "spacer c3 c8").startswith("a free line needs a double higher than 6:6")


def test_anyone_not_footed_plays_on_a_free_line_and_a_footed_player_may_not():
    board = [*FREE, "6:6 a9 b9 free1 by=0", "5:2 e6 e7 1"]
    g = game(board, [["1:2"], ["6:3"]], leaders=[5], highest=6, turn=BLUE)
    assert "6:3 a8 a7" in g.legal_actions(BLUE)
    g2 = game(board, [["1:2"], ["6:3"]], leaders=[5], highest=6, turn=BLUE, seats=[{}, {"footed": True}])
    assert refusal(g2, BLUE, "6:3 a8 a7").startswith("you are chicken-footed")


def test_a_pass_takes_the_spacer_away():
    g = free_game(bag=[])
    g.apply(RED, "spacer c3 c8")
    g.apply(RED, "pass")
    assert g.spacer is None


# =============================================================================================
# §4 round end, stalemate, dead players


def test_going_out_wins_the_round_and_the_others_die_without_penalty():
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"], ["0:0"]], names=["red", "blue", "green"])
    events = g.apply(RED, "3:5 c4 b4")
    assert kinds(events)[-2:] == ["round_end", "between_rounds"]
    assert g.scores() == (2, 0, 0)
    assert g.seats[BLUE].dead and g.seats[GREEN].dead


def test_going_out_wins_even_when_the_last_tile_kills_your_own_line():
    board = ["7:1 c5 b5 0", "1:2 b4 b3 0", "2:4 a3 a2 0", "7:3 d4 d3 1", "3:5 c3 c2 1", "5:6 c1 d1 1"]
    g = game(board, [["4:6"], ["6:6"], ["0:0"]], names=["red", "blue", "green"])
    events = g.apply(RED, "4:6 a1 b1")
    assert "kill" in kinds(events) and g.round_result["winner"] == RED
    assert g.scores() == (2, 0, 0)


def test_the_last_line_standing_wins_the_round():
    g = game(MURDER, [["0:5"], ["4:6", "1:1"]], turn=BLUE)
    g.apply(BLUE, "4:6 a3 a2")
    assert g.round_result["winner"] == BLUE and "last line standing" in g.round_result["how"]


def test_a_dead_player_who_empties_their_hand_does_not_win():
    g = game(["7:1 e4 e3 0 dead", "7:3 d6 c6 1"], [["3:5"], ["1:1"], ["0:0"]],
             names=["red", "blue", "green"], seats=[{"dead": True}, {"footed": True}, {}])
    g.apply(RED, "3:5 b6 a6")
    assert g.phase == "playing" and g.turn == BLUE and g.scores() == (0, 0, 0)


def test_dead_players_keep_taking_turns():
    g = game(["7:1 e4 e3 0 dead"], [["3:5"], ["1:1"], ["0:0"]], names=["red", "blue", "green"],
             seats=[{"dead": True}, {}, {}], bag=[], turn=GREEN)
    g.apply(GREEN, "pass e6")
    assert g.turn == RED and g.legal_actions(RED) == ["pass"]


def test_a_full_cycle_of_passes_with_an_empty_bag_is_a_stalemate():
    g = game(HEAD_AT_D4, [["1:2"], ["1:1"]], bag=[], seats=[{}, {"footed": True}], turn=BLUE)
    g.apply(BLUE, "pass")
    events = g.apply(RED, "pass")
    assert "stalemate" in events[-2].text
    assert g.scores() == (0, 0) and g.round_result["winner"] is None


def test_a_lay_resets_the_stalemate_count():
    g = game(HEAD_AT_D4, [["3:4", "1:2"], ["1:1"]], bag=[], seats=[{}, {"footed": True}], turn=BLUE)
    g.apply(BLUE, "pass")
    assert g.passes == 1
    g.apply(RED, "3:4 c4 b4")
    assert g.passes == 0


def test_a_pass_after_drawing_resets_the_stalemate_count():
    g = game(HEAD_AT_D4, [["1:2"], ["1:1"]], bag=["0:1"], passes=1, seats=[{}, {"footed": True}])
    g.apply(RED, "draw")
    g.apply(RED, "pass")
    assert g.passes == 0


def test_a_solo_round_ends_without_a_winner_when_its_only_line_dies():
    checked = 0
    for seed in range(60):
        g = Tronimoes.new(1, seed=seed)
        while g.outcome() is None and checked < 5:
            action = g.legal_actions(0)[0]
            out_before = len(g.seats[0].hand) == 1 and action not in ("draw", "ready") and not action.startswith(
                ("pass", "spacer"))
            before = g.scores()[0]
            events = g.apply(0, action)
            if "kill" in kinds(events) and not out_before:
                assert "round_end" in kinds(events) and g.round_result["winner"] is None
                assert g.scores()[0] == before
                checked += 1
    assert checked == 5


# =============================================================================================
# §11 notation


@pytest.mark.parametrize("typed", ["3:5 c4 b4", "3-5 C4-B4", "  3:5   c4   b4 ", "play 3/5 c4 b4",
                                   "[3|5] c4b4", "5:3 b4 c4", "3:5 at c4 to b4"])
def test_the_parser_is_forgiving_and_the_canonical_form_is_unique(typed):
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]])
    assert g.parse(RED, typed) == "3:5 c4 b4"


def test_a_tile_alone_is_played_when_it_fits_one_place():
    g = game(MURDER, [["0:5"], ["4:6", "1:1"]], turn=BLUE)
    with pytest.raises(AmbiguousMove) as caught:
        g.parse(BLUE, "4:6")
    assert "4:6 a3 a2" in caught.value.candidates and "Type the tile and both squares" in str(caught.value)
    assert g.parse(BLUE, "4:6 a3") == "4:6 a3 a2"


def test_an_ambiguous_move_without_a_tile_names_no_tile_from_the_hand():
    """Typed in a public thread, the refusal must not reveal which tiles the player holds."""
    g = game(HEAD_AT_D4, [["3:5", "3:6"], ["1:1"]])
    with pytest.raises(AmbiguousMove) as caught:
        g.parse(RED, "c4 b4")
    message = str(caught.value)
    assert "3:5" not in message and "3:6" not in message and "5:3" not in message
    assert "say which tile" in message
    assert sorted(caught.value.candidates) == ["3:5 c4 b4", "3:6 c4 b4"]


def test_unreadable_text_gets_an_example():
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]])
    assert "`3:5 c4 d4`" in refusal(g, RED, "hello there")
    assert refusal(g, RED, "3:5 c4 e4").startswith("c4 and e4 are not next to each other")
    assert refusal(g, RED, "3:5 c4 b4 c3") == "a tile covers two squares; you gave 3. Example: `3:5 c4 d4`"
    assert refusal(g, RED, "9:9 c4 b4") == "there is no 9:9 in this game: pips run 0–7"


def test_a_lay_written_in_the_notation_is_understood_even_when_its_tile_or_squares_do_not_exist():
    """A tile outside the set, a square off the board, squares that are not neighbours, a line
    nobody has: the move was read, and is refused as not allowed (answered wherever it was
    typed), not as unreadable (which typed chat takes for conversation)."""
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]])
    for typed in ("9:9 c4 b4", "3:5 c4 e4", "3:5 c4 c4", "3:5 z9 z10", "3:5 c4 b4 on zed", "pass z99"):
        with pytest.raises(IllegalMove):
            g.parse(RED, typed)
    for typed in ("hello there", "3:5 c4 b4 c3", "2", "c4 d4 e4 f4"):
        with pytest.raises(NotationError):
            g.parse(RED, typed)


def test_numbers_in_other_digits_are_refused_saying_to_write_0_to_9():
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]])
    for typed in ("٣:٥ c4 b4", "3:5 c٤ b4", "３:5 c4 b4", "²:5 c4 b4", "pass e①"):
        assert refusal(g, RED, typed).startswith("write numbers with the digits 0 to 9, not '")
    assert refusal(g, RED, "3:5 c4 b4 on free" + "9" * 5_000).startswith("there is no free line 99999")


def test_legal_actions_cover_draw_pass_spacer_and_lays():
    g = free_game(bag=["0:1"])
    actions = g.legal_actions(RED)
    assert "draw" in actions and "pass" not in actions and "spacer c3 c8" in actions
    g.apply(RED, "draw")
    assert "pass" in g.legal_actions(RED) and "draw" not in g.legal_actions(RED)


# =============================================================================================
# §12 positions and whole-game persistence

EXAMPLE = documented_example(Tronimoes)
"""The example of the documented position format (`tileref rules tronimoes --positions`)."""


def test_the_documented_position_example_round_trips_exactly():
    assert json.dumps(Tronimoes.from_position(EXAMPLE).to_position()) == json.dumps(EXAMPLE)


def test_a_position_from_any_moment_of_a_game_round_trips():
    g = Tronimoes.new(3, seed=9)
    for _ in range(25):
        seat = g.to_move()[0]
        g.apply(seat, g.legal_actions(seat)[-1 if _ % 3 else 0])
    p = g.to_position()
    assert Tronimoes.from_position(p).to_position() == p


@pytest.mark.parametrize(("change", "message"), [
    (lambda p: p["bag"].append("0:7"), "0:7 appears twice"),
    (lambda p: p["board"][1].update(at=["d5", "d4"]), "d5 is already covered"),
    (lambda p: p["board"][1].update(at=["f5", "h6"]), "are not next to each other"),
    (lambda p: p["board"][0].update(at=["a1", "b1"]), "must be the round leader"),
    (lambda p: p["seats"][0].update(hand=["9:9"]), "not a tile of this set"),
    (lambda p: p.update(turn=5), "'turn' must be a whole number"),
])
def test_a_broken_position_is_refused_with_the_reason(change, message):
    p = json.loads(json.dumps(EXAMPLE))
    change(p)
    with pytest.raises(PositionError, match=message):
        Tronimoes.from_position(p)


def test_a_saved_game_replays_with_identical_future_draws():
    g = Tronimoes.new(4, seed=21, names=["a", "b", "c", "d"])
    for step in range(120):
        seat = g.to_move()[0]
        actions = g.legal_actions(seat)
        g.apply(seat, actions[(step * 7) % len(actions)])
    copy = Tronimoes.from_json(json.loads(json.dumps(g.to_json())))
    for step in range(400):
        if g.outcome():
            break
        seat = g.to_move()[0]
        actions = g.legal_actions(seat)
        assert copy.legal_actions(seat) == actions
        action = actions[(step * 5) % len(actions)]
        assert [e.text for e in g.apply(seat, action)] == [e.text for e in copy.apply(seat, action)]
    assert copy.to_position() == g.to_position()


def test_a_game_started_from_a_position_saves_and_replays():
    g = game(MURDER, [["0:5"], ["4:6", "1:1"]], turn=BLUE)
    g.apply(BLUE, "4:6 a3 a2")
    copy = Tronimoes.from_json(g.to_json())
    assert copy.to_position() == g.to_position() and copy.scores() == g.scores()


# =============================================================================================
# leaving the game, the clock


def test_a_player_who_resigns_leaves_and_the_game_goes_on():
    g = Tronimoes.new(3, seed=3, names=["red", "blue", "green"])
    mover = g.turn
    g.resign(mover)
    assert g.seats[mover].dead and g.seats[mover].hand == [] and g.turn != mover
    assert g.outcome() is None


def test_when_everyone_else_resigns_the_last_player_wins():
    g = Tronimoes.new(3, seed=3, names=["red", "blue", "green"])
    g.resign(RED)
    g.resign(BLUE)
    assert g.outcome().winners == (GREEN,)


def test_a_missed_turn_draws_then_passes():
    g = game(HEAD_AT_D4, [["3:5"], ["1:1"]])
    assert g.timeout_actions(RED) == ["draw", "pass"]
    assert g.timeout_actions(BLUE) == []


def test_a_missed_turn_before_your_line_starts_picks_a_foot_square():
    g = game([], [["3:5"], ["1:1"]], bag=[])
    assert g.timeout_actions(RED) == ["pass d4"]


def test_a_missed_ready_is_ready():
    g = game(MURDER, [["0:5"], ["4:6", "1:1"]], turn=BLUE)
    g.apply(BLUE, "4:6 a3 a2")
    assert g.timeout_actions(RED) == ["ready"]


def test_a_line_is_chosen_by_any_unique_prefix_of_a_players_name():
    from engine.tronimoes.lines import resolve_line

    g = Tronimoes.new(3, seed=1, names=["ada", "pipbot", "pia"])
    assert resolve_line(g, 0, "pipbot") == 1 and resolve_line(g, 0, "pip") == 1 and resolve_line(g, 0, "pia") == 2
    with pytest.raises(IllegalMove, match="'pi' could be several lines: pipbot, pia; type more of the name"):
        resolve_line(g, 0, "pi")
    with pytest.raises(IllegalMove, match="there is no line called 'zed'"):
        resolve_line(g, 0, "zed")
    assert resolve_line(g, 0, "mía") == 0
    with pytest.raises(IllegalMove, match="there is no free line 1 yet"):
        resolve_line(g, 0, "libre1")


def test_no_option_or_sentence_a_player_reads_cites_a_rule_section():
    from engine import GAMES

    for cls in GAMES.values():
        assert "§" not in cls.Options.describe() and "§" not in cls.summary and "§" not in cls.notation_help


# ---- positions carry the whole game -----------------------------------------------------------------


def test_between_rounds_a_position_keeps_the_round_end_and_who_is_ready():
    g = game(MURDER, [["0:5"], ["4:6", "1:1"]], turn=BLUE)
    g.apply(BLUE, "4:6 a3 a2")  # red is boxed in: blue is the last line standing
    g.apply(BLUE, "ready")
    p = g.to_position()
    assert p["round_end"] == {"winner": BLUE, "how": "blue is the last line standing", "ready": [False, True]}
    assert p["result"] is None and [s["round_score"] for s in p["seats"]] == [-1, 3]
    again = Tronimoes.from_position(p)
    assert again.between_rounds() and again.to_move() == (RED,) and again.legal_actions(RED) == ["ready"]
    assert again.view(None)["round_result"] == g.view(None)["round_result"]


def test_a_finished_game_loads_back_finished_with_its_result():
    g = Tronimoes.new(3, seed=3, names=["red", "blue", "green"])
    g.resign(RED)
    g.resign(BLUE)
    p = g.to_position()
    assert p["result"] == {"scores": [0.0, 0.0, 0.0], "winners": [GREEN], "reason": "everyone else left", "teams": []}
    again = Tronimoes.from_position(p)
    assert again.outcome() == g.outcome() and again.to_move() == () and again.is_resigned(RED)


@pytest.mark.parametrize(("change", "message"), [
    (lambda p: p["seats"][0]["hand"].append("2:7"), "board entry 2: 2:7 appears twice"),
    (lambda p: p["seats"][1].update(hand=[]), "blue holds no tile, so they went out"),
    (lambda p: p["seats"][0].update(dead=True), "fewer than two lines are alive"),
    (lambda p: p.update(result={"scores": [1, 0], "winners": [0], "reason": "the 0:0 round is over",
                                "teams": []}), "a game ends after a round"),
    (lambda p: p.update(round_end={"winner": 0, "how": "red went out", "ready": [False, False]}),
     "blue's line is alive, but a round's end kills every line but the winner's"),
    (lambda p: p.update(round_end={"winner": 0}), "round_end is null during a round"),
    (lambda p: p.update(options={"ouroboros": "no"}), "option ouroboros cannot be \"no\""),
])
def test_a_position_that_contradicts_itself_is_refused_with_the_reason_it_gives(change, message):
    p = json.loads(json.dumps(EXAMPLE))
    change(p)
    with pytest.raises(PositionError, match=message):
        Tronimoes.from_position(p)


def test_a_round_end_that_everyone_is_ready_for_is_refused():
    g = game(MURDER, [["0:5"], ["4:6", "1:1"]], turn=BLUE)
    g.apply(BLUE, "4:6 a3 a2")
    p = g.to_position()
    p["round_end"]["ready"] = [True, True]
    with pytest.raises(PositionError, match="everyone is ready, so the next round would have started"):
        Tronimoes.from_position(p)


def test_only_a_spacer_can_be_played_again_and_again_in_one_turn():
    """Every other action ends the turn or uses up something finite (a tile laid, a tile drawn,
    the once-a-turn draw), so a round always ends unless a spacer is placed without end; agents
    never move one already down (tests/engine/test_ai.py)."""
    rng = random.Random(5)
    spacers = 0
    for seed in range(6):
        table = Tronimoes.new(4, seed=seed)
        while table.outcome() is None and not table.between_rounds():
            seat = table.to_move()[0]
            action = rng.choice(table.legal_actions(seat))
            before = (len(table.seats[seat].hand), len(table.bag), len(table.board), table.seats[seat].drew)
            table.apply(seat, action)
            after = (len(table.seats[seat].hand), len(table.bag), len(table.board), table.seats[seat].drew)
            if table.to_move() == (seat,) and not table.between_rounds() and after == before:
                assert action.startswith("spacer"), action
                spacers += 1
    assert spacers
