"""Tronix rules (shared/rules/tronix.md), one statement per test; §3.6's worked examples as
scenarios."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GAMES, IllegalMove, NotationError, NotYourTurn, PositionError
from engine.ai import GreedyAgent, heuristics, margin
from engine.tronix import Tronix, TronixOptions
from engine.tronix.ai import ROLLOUT, closable, leaf_value, proposals, ranked, threats
from engine.tronix.cards import KINDS, ORDER, read_pattern
from engine.tronix.lines import circuits, shares, tronix_line
from engine.tronix.teams import seating


def position(table: list[tuple[int, int, str]], *, hands: list[int] | None = None, phase: str = "placement",
             turn: int = 0, players: int = 4, locked: list[int] | None = None, kinds: str = "cx",
             **extra: Any) -> dict[str, Any]:
    hands = hands if hands is not None else [2] * players
    return {"game": "tronix", "turn": turn, "phase": phase, "locked": locked,
            "table": [{"at": [x, y], "kind": kinds, "pattern": p} for x, y, p in table],
            "seats": [{"name": f"P{i + 1}", "team": team, "hand": ["cx"] * hands[i]}
                      for i, team in enumerate(seating(players))], **extra}


def at(table: list[tuple[int, int, str]], **kwargs: Any) -> Tronix:
    options = kwargs.pop("options", None)
    return Tronix.from_position(position(table, **kwargs), options=options)


SQUARE = [(0, 0, "SE"), (1, 0, "SW"), (0, 1, "NE")]
"""Three arcs of the smallest circuit; NW at 1,1 closes it."""


# ---- seating and dealing (§3.5) -----------------------------------------------------------------


def test_teams_sit_in_pairs_and_the_odd_pair_last():
    assert seating(2) == ["green", "pink"]
    assert seating(4) == ["green", "green", "pink", "pink"]
    assert seating(6) == ["green", "green", "pink", "pink", "green", "pink"]
    assert Tronix.teams(6) == ((0, 1, 4), (2, 3, 5))


def test_only_an_even_number_of_players_sits_down():
    assert Tronix.player_counts() == (2, 4, 6, 8, 10, 12, 14, 16)
    with pytest.raises(ValueError):
        Tronix.new(3, seed=0)


def test_the_deck_is_dealt_out_round_robin():
    game = Tronix.new(10, seed=1)
    assert sorted(len(s.hand) for s in game.seats) == [4] * 2 + [5] * 8
    assert [len(s.hand) for s in Tronix.new(4, seed=1).seats] == [12] * 4


def test_the_mixed_deck_holds_curves_and_crosses_only_cards():
    game = Tronix.new(2, seed=3, options=TronixOptions(deck="mixed"))
    kinds = [k for s in game.seats for k in s.hand]
    assert (kinds.count("cx"), kinds.count("cc"), kinds.count("xx")) == (32, 8, 8)


# ---- placement (§3.2, §3.5) ---------------------------------------------------------------------------


def test_the_first_card_goes_at_the_origin():
    game = Tronix.new(4, seed=0)
    assert {a.split()[1] for a in game.legal_actions(0)} == {"0,0"}
    with pytest.raises(IllegalMove, match="goes at 0,0"):
        game.apply(0, "play 1,0 NE")


def test_a_card_must_touch_the_table_along_an_edge():
    game = at([(0, 0, "SE")])
    with pytest.raises(IllegalMove, match="1,1 is not next to any card"):
        game.apply(0, "play 1,1 NE")
    with pytest.raises(IllegalMove, match="0,0 is taken"):
        game.apply(0, "play 0,0 NE")
    game.apply(0, "play 1,0 NE")
    assert game.turn == 1


def test_any_of_the_six_patterns_may_be_placed():
    game = at([(0, 0, "SE")])
    assert [a.split()[2] for a in game.legal_actions(0) if a.split()[1] == "1,0"] == ["NE", "SE", "SW", "NW", "NS",
                                                                                      "EW"]


def test_two_players_act_twice_a_turn():
    game = at([(0, 0, "SE")], players=2, hands=[3, 3])
    game.apply(0, "play 1,0 NE")
    assert game.to_move() == (0,) and game.actions_left == 1
    game.apply(0, "play 2,0 NE")
    assert game.to_move() == (1,)


def test_seats_with_empty_hands_are_skipped():
    game = at([(0, 0, "SE")], hands=[1, 0, 1, 1])
    game.apply(0, "play 1,0 NE")
    assert game.turn == 2


# ---- circuits (§3.3, §3.4, §3.6) -----------------------------------------------------------------------


def test_the_smallest_circuit_is_four_curves_and_scores_four():
    game = at(SQUARE)
    events = game.apply(0, "play 1,1 NW")
    assert game.piles == {"green": 4, "pink": 0} and not game.table
    assert events[1].kind == "circuit"


def test_each_card_goes_to_the_team_whose_colour_it_gives_whoever_builds_it():
    game = at(SQUARE, turn=2)  # a pink player closes a green circuit
    game.apply(2, "play 1,1 NW")
    assert game.piles == {"green": 4, "pink": 0}


def test_three_green_and_one_pink_score_three_and_one():
    table = {(0, 0): "SE", (1, 0): "SW", (0, 1): "NE", (1, 1): "SE"}  # 1,1 SE: its pink arc joins N and W
    found = circuits(table)
    assert len(found) == 1
    colours = shares(found)
    assert sorted(len(c) for c in colours.values()) == [1, 1, 1, 1]
    assert sum(1 for c in colours.values() if c == {"pink"}) == 1


def test_a_six_card_ring_needs_straights_and_scores_six():
    game = at([(0, 0, "SE"), (1, 0, "EW"), (2, 0, "SW"), (0, 1, "NE"), (1, 1, "EW")])
    game.apply(0, "play 2,1 NW")
    assert game.piles == {"green": 6, "pink": 0}


def test_a_card_with_both_colours_in_a_circuit_is_shared_and_stays():
    figure_eight = [(1, 1, "EW"), (2, 1, "NW"), (2, 0, "SW"), (1, 0, "SE"), (0, 2, "NE"), (1, 2, "NW")]
    game = at(figure_eight)
    events = game.apply(0, "play 0,1 SE")
    assert game.piles == {"green": 6, "pink": 0} and list(game.table) == [(1, 1)]
    assert events[1].data["shared"] == 1


# ---- God Mode (§3.5) ----------------------------------------------------------------------------------


def god(table: list[tuple[int, int, str]], **kwargs: Any) -> Tronix:
    kwargs.setdefault("hands", [0] * kwargs.get("players", 4))
    return at(table, phase="god", **kwargs)


T = [(0, 0, "NE"), (1, 0, "NE"), (2, 0, "NE"), (1, 1, "NE")]
"""Three arms round a centre card: every arm ends a line, so no circuit and no TRONIX can form
by turning cards in place."""


def test_god_mode_begins_when_every_hand_is_empty_with_the_next_seat():
    game = at([(0, 0, "SE"), (1, 0, "NS")], hands=[0, 0, 1, 0], turn=2)
    events = game.apply(2, "play 2,0 NS")
    assert game.phase == "god" and game.turn == 3 and events[-1].kind == "god"


def test_the_card_moved_last_is_locked():
    game = god(T)
    game.apply(0, "turn 2,0 NS")
    with pytest.raises(IllegalMove, match="that card was just moved: pick another"):
        game.apply(1, "turn 2,0 EW")
    assert not any(a.startswith(("turn 2,0", "move 2,0")) for a in game.legal_actions(1))


def test_a_turn_in_place_must_change_the_pattern():
    game = god(T)
    with pytest.raises(IllegalMove, match="already shows NE"):
        game.apply(0, "turn 1,0 NE")
    assert "turn 1,0 NS" in game.legal_actions(0)


def test_a_move_may_not_leave_a_new_island():
    game = god([(0, 0, "SE"), (1, 0, "EW"), (2, 0, "EW"), (3, 0, "NS")])
    with pytest.raises(IllegalMove, match="new island"):
        game.apply(0, "move 1,0 to 0,1 NE")
    free = god([(0, 0, "SE"), (1, 0, "EW"), (2, 0, "EW"), (3, 0, "NS")], options=TronixOptions(new_islands=True))
    free.apply(0, "move 1,0 to 0,1 NE")
    assert (0, 1) in free.table


def test_a_moved_card_must_touch_another_card():
    game = god(T)
    with pytest.raises(IllegalMove, match="5,5 is not next to any other card"):
        game.apply(0, "move 0,0 to 5,5 NE")
    with pytest.raises(IllegalMove, match="0,1 is taken"):
        god([(0, 0, "NE"), (0, 1, "NE"), (1, 0, "NE")]).apply(0, "move 1,0 to 0,1 NE")


def test_a_tronix_ends_the_game_with_one_line_through_every_card():
    table = {(0, 0): "SE", (0, 1): "NS", (1, 0): "EW"}
    assert tronix_line(table) is not None
    game = god([(0, 0, "SE"), (1, 0, "EW"), (0, 1, "EW")])
    events = game.apply(0, "turn 0,1 NS")
    assert game.outcome() is not None and events[1].kind == "tronix" and game.end_reason == "a TRONIX"


def test_a_tronix_does_not_count_in_the_placement_phase():
    game = at([(0, 0, "SE"), (1, 0, "EW")])
    game.apply(0, "play 0,1 NS")
    assert game.outcome() is None and len(game.table) == 3


def test_a_single_card_left_is_a_singularity_and_discarded():
    game = at([(0, 0, "SE"), (1, 0, "SW"), (0, 1, "NE"), (1, 2, "NS"), (1, 1, "NS")], phase="god",
              hands=[0, 0, 0, 0])
    events = game.apply(0, "turn 1,1 NW")
    assert game.outcome() is not None and game.discarded == 1
    assert [e.kind for e in events][-2:] == ["singularity", "game_end"]


def test_god_mode_stalls_after_the_quiet_limit():
    game = god(T, options=TronixOptions(quiet_limit=2, repetitions=0))
    game.apply(0, "turn 1,0 NS")
    game.apply(1, "turn 2,0 NS")
    assert game.outcome() is not None and game.end_reason == "a stalemate" and game.discarded == 4


def test_the_same_position_a_third_time_ends_god_mode():
    game = god(T, players=2, options=TronixOptions(quiet_limit=0))
    for action in ("turn 1,0 NS", "turn 2,0 NS", "turn 1,0 NE", "turn 2,0 NE") * 3:
        if game.outcome() is not None:
            break
        game.apply(game.turn, action)
    assert game.outcome() is not None and game.end_reason == "a stalemate"


def test_god_mode_may_start_with_the_last_card_locked():
    game = at([(0, 0, "SE"), (1, 0, "NS")], hands=[0, 0, 1, 0], turn=2,
              options=TronixOptions(lock_at_god_start=True))
    game.apply(2, "play 2,0 NS")
    assert game.locked == (2, 0)


# ---- the outcome ---------------------------------------------------------------------------------------


def test_the_team_with_more_cards_wins_and_equal_piles_draw():
    game = god(T, piles={"green": 5, "pink": 3}, options=TronixOptions(quiet_limit=1, repetitions=0))
    game.apply(0, "turn 1,0 NS")
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (0, 1) and outcome.teams == ((0, 1), (2, 3))
    tie = god(T, piles={"green": 3, "pink": 3}, options=TronixOptions(quiet_limit=1, repetitions=0))
    tie.apply(0, "turn 1,0 NS")
    assert tie.outcome().winners == (0, 1, 2, 3)  # type: ignore[union-attr]


def _resigned(*seats: int, piles: dict[str, int]) -> tuple[Tronix, list[Any]]:
    game = at(SQUARE, piles=piles)
    return game, [e for seat in seats for e in game.resign(seat)]


def _applied(game: Tronix, action: str) -> tuple[Tronix, list[Any]]:
    return game, game.apply(game.turn, action)


ENDINGS = {
    "a tronix": (lambda: _applied(god([(0, 0, "SE"), (1, 0, "EW"), (0, 1, "EW")], piles={"green": 0, "pink": 9}),
                                  "turn 0,1 NS"), "pink"),
    "no cards left": (lambda: _applied(god([(0, 0, "SE"), (1, 0, "SW"), (0, 1, "NE"), (1, 1, "NE")],
                                           piles={"green": 0, "pink": 2}), "turn 1,1 NW"), "green"),
    "a singularity": (lambda: _applied(at([(0, 0, "SE"), (1, 0, "SW"), (0, 1, "NE"), (1, 2, "NS"), (1, 1, "NS")],
                                          phase="god", hands=[0, 0, 0, 0], piles={"green": 1, "pink": 0}),
                                       "turn 1,1 NW"), "green"),
    "a stalemate": (lambda: _applied(god(T, piles={"green": 3, "pink": 5},
                                         options=TronixOptions(quiet_limit=1, repetitions=0)), "turn 1,0 NS"), "pink"),
    "a drawn stalemate": (lambda: _applied(god(T, piles={"green": 3, "pink": 3},
                                               options=TronixOptions(quiet_limit=1, repetitions=0)), "turn 1,0 NS"),
                          None),
    "green leaves ahead": (lambda: _resigned(0, 1, piles={"green": 5, "pink": 0}), "pink"),
    "pink leaves level": (lambda: _resigned(2, 3, piles={"green": 2, "pink": 2}), "green"),
}
"""Every way a game ends, and the team that wins it (None: a draw)."""


@pytest.mark.parametrize("ending", ENDINGS)
def test_every_ending_names_the_same_winner_in_its_outcome_announcement_and_view(ending):
    build, team = ENDINGS[ending]
    game, events = build()
    outcome = game.outcome()
    assert outcome is not None
    [end] = [e for e in events if e.kind == "game_end"]
    said = "a draw" if team is None else f"{team} wins"
    assert said in end.text, end.text
    assert game.view(None)["winner"] == team
    if team is None:
        assert outcome.winners == tuple(range(game.players))
    else:
        members = outcome.teams[0 if team == "green" else 1]
        assert outcome.winners and set(outcome.winners) <= set(members)


# ---- notation (§4) ------------------------------------------------------------------------------------


def test_english_and_spanish_notation_read_to_one_canonical_form():
    game = at([(0, 0, "SE")])
    for typed in ("play 1,0 NW", "poner 1,0 no", "colocar (1, 0) NO", "1,0 nw", "PLAY 1 ,0 WN"):
        assert game.parse(0, typed) == "play 1,0 NW"
    god_game = god(T)
    assert god_game.parse(0, "mover 1,1 a 0,1 SO") == "move 1,1 to 0,1 SW"
    assert god_game.parse(0, "girar 2,0 sn") == "turn 2,0 NS"
    assert read_pattern("eo") == "EW"


def test_notation_mistakes_say_what_to_type_in_one_language():
    game = at([(0, 0, "SE")])
    with pytest.raises(NotationError, match="play 1,0 NE") as refused:
        game.parse(0, "hello")
    assert "poner" not in str(refused.value)  # the Spanish examples come with the Spanish sentence
    with pytest.raises(NotationError, match="not a pattern"):
        game.parse(0, "play 1,0 XY")
    with pytest.raises(IllegalMove, match="God Mode has not begun"):
        game.parse(0, "turn 0,0 NE")
    with pytest.raises(NotYourTurn):
        game.parse(1, "play 1,0 NE")
    assert "turn" in god(T).legal_actions(0)[0]


# ---- positions (§5) -----------------------------------------------------------------------------------


def test_positions_round_trip_exactly():
    game = Tronix.new(4, seed=2)
    for _ in range(20):
        seat = game.to_move()[0]
        game.apply(seat, game.legal_actions(seat)[len(game.log) * 5 % len(game.legal_actions(seat))])
    saved = game.to_position()
    assert Tronix.from_position(saved).to_position() == saved


def test_impossible_positions_are_refused_with_the_reason():
    with pytest.raises(PositionError, match="two cards"):
        Tronix.from_position(position([(0, 0, "NE"), (0, 0, "SE")]))
    with pytest.raises(PositionError, match="locked"):
        Tronix.from_position(position([(0, 0, "NE")], locked=[4, 4]))
    bad = position([])
    bad["seats"] = bad["seats"][:3]
    with pytest.raises(PositionError, match="even number"):
        Tronix.from_position(bad)


# ---- the greedy agent ---------------------------------------------------------------------------------


def test_greedy_closes_its_own_circuit_and_blocks_the_other_teams():
    game = at(SQUARE)
    assert ranked(game, 0)[0] == "play 1,1 NW"
    blocker = at(SQUARE, turn=2)
    assert closable(blocker.patterns())["green"] == [(1, 1)]
    first = ranked(blocker, 2)[0]  # pink fills the gap with a card that closes nothing
    assert first.startswith("play 1,1") and first.split()[-1] not in ("NW", "SE")


# ---- the planning agent's simulated games ----------------------------------------------------------


def test_open_lines_one_card_could_close_are_threats_with_the_cards_each_colour_would_win():
    (gap,) = threats(at(SQUARE).patterns())
    assert gap.cell == (1, 1) and (gap.green, gap.pink) == (3, 0)
    assert gap.worth("green") == 4 and gap.worth("pink") == -2


def test_the_rollout_closes_its_teams_circuit_when_one_card_can():
    game = at(SQUARE)
    action = ROLLOUT.choose(game, 0, random.Random(1))
    assert game.parse(0, action) == "play 1,1 NW"
    moved = god([*SQUARE, (2, 0, "NS")])  # God Mode: a card comes from elsewhere to close it
    action = ROLLOUT.choose(moved, 0, random.Random(1))
    assert action in moved.legal_actions(0)
    moved.apply(0, action)
    assert moved.piles == {"green": 4, "pink": 0}


def test_the_rollout_fills_the_other_teams_gap_without_closing_it():
    game = at(SQUARE, turn=2)
    for seed in range(5):
        action = game.parse(2, ROLLOUT.choose(game, 2, random.Random(seed)))
        assert action.startswith("play 1,1") and action.split()[-1] not in ("NW", "SE")


def test_rollout_actions_are_legal_all_game_long():
    game = Tronix.new(4, seed=3)
    rng = random.Random(3)
    while game.outcome() is None:
        seat = game.to_move()[0]
        action = ROLLOUT.choose(game, seat, rng)
        assert game.parse(seat, action) in game.legal_actions(seat)
        game.apply(seat, action)


def test_proposals_bring_the_ends_of_the_teams_line_together():
    game = at([(0, 0, "SE"), (1, 0, "SW")])  # a green line whose ends face 0,1 and 1,1
    best = game.parse(0, proposals(game, 0, game.patterns())[0])
    assert best in ("play 0,1 NE", "play 1,1 NW")
    game.apply(0, best)
    assert [t.worth("green") for t in threats(game.patterns())] == [4]


def test_the_planner_weighs_greedys_favourite_first_among_every_legal_action():
    for game in (at(SQUARE), at([(0, 0, "SE"), (1, 0, "SW")]), god([*SQUARE, (2, 0, "NS")])):
        order = heuristics(game).ranked(game, 0)
        assert order is not None and order[0] == ranked(game, 0)[0] == GreedyAgent().choose(game, 0)
        assert sorted(order) == sorted(game.legal_actions(0))


def test_the_planner_judges_a_seat_by_its_teams_lead_over_the_other_team():
    game = at([(0, 0, "NE")], piles={"green": 6, "pink": 2})  # a team-mate's score is no rival's
    assert margin(game, 0) + leaf_value(game, 0) == 4.0
    assert margin(game, 2) + leaf_value(game, 2) == -4.0


def test_the_game_is_registered():
    assert GAMES["tronix"] is Tronix


# ---- positions carry the whole game -----------------------------------------------------------------


def test_a_card_turned_in_place_keeps_its_place_in_the_positions_table_order():
    """§5: `table` lists cards in the order they reached their cells; a turn leaves the card where it is."""
    game = god(T)
    game.apply(0, "turn 1,0 NS")
    assert [entry["at"] for entry in game.to_position()["table"]] == [[0, 0], [1, 0], [2, 0], [1, 1]]
    game.apply(1, "move 0,0 to 0,1 SE")
    assert [entry["at"] for entry in game.to_position()["table"]] == [[1, 0], [2, 0], [1, 1], [0, 1]]


def read_cell(text: str) -> tuple[int, int]:
    x, y = text.split(",")
    return int(x), int(y)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 4]))
def test_the_positions_table_lists_cards_in_the_order_they_reached_their_cells_and_loads_back(seed, players):
    """In random games played into God Mode, after every action: the exported `table` lists the
    cards in the order they reached their cells (a placement or a move to another cell puts a card
    last; a turn in place keeps its place), and the game loaded from the position writes it back
    unchanged, offers the same actions, holds the same lines, and plays the next action alike."""
    rng = random.Random(seed)
    game = Tronix.new(players, seed=seed, options=TronixOptions(deck_size=12, quiet_limit=12))
    arrived: list[tuple[int, int]] = []
    while game.outcome() is None:
        seat = game.to_move()[0]
        action = rng.choice(game.legal_actions(seat))
        words = action.split()
        saved = game.to_position()
        copy = Tronix.from_position(saved)
        assert copy.to_position() == saved
        assert copy.legal_actions(seat) == game.legal_actions(seat) and copy.patterns() == game.patterns()
        assert [e.text for e in copy.apply(seat, action)] == [e.text for e in game.apply(seat, action)]
        assert copy.to_position() == game.to_position()
        if words[0] == "play":
            arrived.append(read_cell(words[-2]))
        elif words[0] == "move":
            arrived.remove(read_cell(words[1]))
            arrived.append(read_cell(words[3]))
        arrived = [cell for cell in arrived if cell in game.table]
        assert [tuple(entry["at"]) for entry in game.to_position()["table"]] == arrived
    assert not game.table


def test_a_finished_game_loads_back_finished_with_its_result():
    game = at([(0, 0, "NE")], hands=[1, 0, 0, 0])
    game.resign(2)
    game.resign(3)
    saved = game.to_position()
    assert saved["phase"] == "over" and saved["result"]["reason"] == "a whole team left"
    again = Tronix.from_position(saved)
    assert again.outcome() == game.outcome() and again.to_move() == ()


@pytest.mark.parametrize(("change", "message"), [
    (lambda p: p["table"].append({"at": [1, 1], "kind": "cx", "pattern": "NW"}),
     "is a closed circuit, so its cards would have been won"),
    (lambda p: p.update(phase="over", result={"scores": [0, 0, 0, 0], "winners": [0, 1, 2, 3],
                                              "reason": "a stalemate", "teams": [[0, 1], [2, 3]]}),
     "ends with the table empty"),
    (lambda p: p.update(phase="god"), "a seat still holds cards"),
    (lambda p: [s.update(hand=[]) for s in p["seats"]], "every hand is empty, so God Mode has begun"),
    (lambda p: [s.update(hand=[], resigned=True) for s in p["seats"][2:]],
     "every seat of a team has left, so the game is over"),
    (lambda p: p.update(result={"scores": [0, 0, 0, 0], "winners": [0, 1], "reason": "a TRONIX",
                                "teams": [[0, 1], [2, 3]]}), "this position is still being played"),
])
def test_a_position_that_contradicts_itself_is_refused_with_the_reason(change, message):
    p = position(SQUARE)
    change(p)
    with pytest.raises(PositionError, match=message):
        Tronix.from_position(p)


def test_god_mode_past_its_quiet_limit_is_refused():
    with pytest.raises(PositionError, match="5 God Mode actions in a row without scoring end the game"):
        Tronix.from_position(position(T, phase="god", hands=[0] * 4, quiet=5),
                             options=TronixOptions(quiet_limit=5))


def test_with_a_mixed_deck_a_placement_names_its_kind_whatever_else_the_hand_holds():
    """Which kinds a player holds is hidden: a placement's canonical form (the log, the history,
    the announcement) names the card's kind whenever the deck has several kinds that could show
    the pattern, so writing it without one never tells the table they hold no other."""
    game = Tronix.new(4, seed=3, options=TronixOptions.parse({"deck": "mixed"}))
    shown_by = {pattern: sum(pattern in KINDS[k] for k in ("cx", "cc", "xx")) for pattern in ORDER}
    checked = 0
    for _ in range(12):
        seat = game.to_move()[0]
        for action in game.legal_actions(seat):
            words = action.split()
            if words[0] == "play":
                named = len(words) == 4
                assert named == (shown_by[words[-1]] > 1), action
                checked += 1
        game.apply(seat, game.legal_actions(seat)[0])
    assert checked > 100
