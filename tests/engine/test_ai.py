"""The agents, for every game: legal choices; no cheating (an agent's choice never changes when
everything its seat cannot see is dealt again, the game's seed included: so `determinize` must
deal from a canonical order of the unseen things, or the real arrangement leaks through the
shuffle); planning within its budget; copies that behave like the original."""

from __future__ import annotations

import json
import random

import pytest

from engine import GAMES, Game
from engine.ai import (
    EasyAgent,
    GreedyAgent,
    PlanningAgent,
    RandomAgent,
    _preferred,
    heuristics,
    margin,
    seat_rng,
)
from engine.levels import LEVELS, agent, level_name, level_of, planning_seconds
from engine.tree_search import TreeSearchAgent
from tests.engine.test_contract import playout


def states(cls: type[Game], seeds: range, every: int, limit: int) -> list[Game]:
    found = []
    for seed in seeds:
        for step, game in enumerate(playout(cls, seed, timeout_chance=0.0)):
            if step % every == 5 and game.to_move():
                found.append(game.clone())
            if len(found) >= limit:
                return found
    return found


@pytest.fixture(params=sorted(GAMES), ids=sorted(GAMES))
def cls(request: pytest.FixtureRequest) -> type[Game]:
    return GAMES[request.param]


def redealt(game: Game, seat: int) -> Game:
    """The same game as `seat` sees it, with everything else dealt again and another seed."""
    other = game.determinize(seat, random.Random(4242))
    other.seed = game.seed + 7919
    assert json.dumps(other.view(seat), sort_keys=True, default=str) == \
        json.dumps(game.view(seat), sort_keys=True, default=str)
    return other


def test_agents_choose_only_from_what_their_seat_can_see(cls: type[Game]) -> None:
    for game in states(cls, range(3), every=17, limit=6):
        seat = game.to_move()[0]
        for chooser in (RandomAgent(), GreedyAgent(), EasyAgent(), PlanningAgent(simulations=24),
                        agent("hard", simulations=8)):
            choice = chooser.choose(game, seat)
            assert choice in game.legal_actions(seat)
            assert chooser.choose(redealt(game, seat), seat) == choice, (chooser.name, game.log[-3:])


def test_a_copy_plays_on_exactly_like_the_original(cls: type[Game]) -> None:
    """Also when the copy plays the listed actions unread (`apply_listed`, as simulations do)."""
    for game in states(cls, range(2), every=23, limit=4):
        copy, unread = game.clone(), game.clone()
        assert copy.to_json() == game.to_json() and copy.view(None) == game.view(None)
        rng = random.Random(1)
        for _ in range(30):
            if game.outcome() is not None:
                break
            seat = game.to_move()[0]
            action = rng.choice(game.legal_actions(seat))
            game.apply(seat, action)
            copy.apply(seat, action)
            unread.apply_listed(seat, action)
        assert copy.to_json() == game.to_json() == unread.to_json()


def test_a_determinised_copy_keeps_what_the_seat_sees_and_the_rules(cls: type[Game]) -> None:
    for game in states(cls, range(2), every=19, limit=4):
        seat = game.to_move()[0]
        sample = game.determinize(seat, random.Random(3))
        assert sample.view(seat) == game.view(seat) and sample.to_move() == game.to_move()
        assert sample.legal_actions(seat) == game.legal_actions(seat)


def test_simulated_moves_are_legal_and_listed_where_the_game_says_so(cls: type[Game]) -> None:
    """Simulations play the rollout's actions unread (`apply_listed`) when the game's heuristics
    say they are written exactly as `legal_actions` lists them, and through `apply` otherwise:
    either way they are legal."""
    known = heuristics(cls.new(2, seed=0))
    rng = random.Random(11)
    for game in states(cls, range(3), every=7, limit=12):
        for _ in range(20):
            if game.outcome() is not None or not game.to_move():
                break
            seat = rng.choice(game.to_move())
            legal = game.legal_actions(seat)
            action = known.rollout(game, seat, rng)
            assert (action if known.listed_rollouts else game.parse(seat, action)) in legal
            (game.apply_listed if known.listed_rollouts else game.apply)(seat, action)


def test_no_agent_moves_a_tronimoes_spacer_that_is_already_down() -> None:
    """The rules let a new spacer replace the old one without end; an agent that did so could
    go on for ever (the planner moved it again in about one position in ten)."""
    checked = 0
    for seed in range(40):
        game = GAMES["tronimoes"].new(4, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if game.outcome() is not None or checked >= 6:
                break
            seat = game.to_move()[0]
            spacers = [a for a in game.legal_actions(seat) if a.startswith("spacer")]
            if spacers:
                game.apply(seat, spacers[0])
                assert any(a.startswith("spacer") for a in game.legal_actions(seat)), "the rules allow moving it"
                for chooser in (RandomAgent(), GreedyAgent(), EasyAgent(slips=1.0), EasyAgent(slips=0.0),
                                PlanningAgent(simulations=16), agent("hard", simulations=8)):
                    assert not chooser.choose(game, seat).startswith("spacer"), chooser.name
                checked += 1
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert checked >= 3


def test_the_random_agent_never_gives_up_while_it_can_play() -> None:
    game = GAMES["tromino_go"].new(2, seed=3)
    for _ in range(12):
        seat = game.to_move()[0]
        action = RandomAgent().choose(game, seat)
        assert action.split()[0] in ("play", "move", "pass"), action
        game.apply(seat, action)
    assert game.outcome() is None


def test_the_planning_agent_falls_back_to_greedy_on_a_tiny_budget(cls: type[Game]) -> None:
    game = cls.new(2, seed=5)
    for _ in range(40):  # each seat's greedy choices; Tetromic's own plan would differ
        if game.outcome() is not None:
            break
        seat = game.to_move()[0]
        greedy = GreedyAgent().choose(game, seat)
        assert PlanningAgent(budget=0.0).choose(game, seat) == greedy
        game.apply(seat, greedy)


def test_levels_are_named_alike_and_the_old_names_are_aliases() -> None:
    assert [agent(level).name for level in LEVELS] == ["easy", "normal", "hard"]
    assert {agent(old).name for old in ("bot", "ai", "strong", "Normal")} == {"normal"}
    assert agent("greedy").name == "greedy" and agent("random").name == "random"
    assert level_of("HARD ") == "hard" and level_of("chess") is None
    with pytest.raises(ValueError, match="no AI called 'chess'"):
        agent("chess")


def test_a_level_has_a_word_in_each_language_and_is_read_in_any_of_them() -> None:
    assert [level_name(level, "es") for level in LEVELS] == ["fácil", "normal", "difícil"]
    assert level_name("hard", "en") == "hard" and level_name("random", "es") == "al azar"
    for typed, meant in (("fácil", "easy"), ("Facil", "easy"), ("DIFÍCIL", "hard"), ("dificil ", "hard"),
                         ("voraz", "greedy"), ("al  azar", "random"), ("azar", "random"), ("easy", "easy")):
        assert level_of(typed) == meant, typed
    assert level_of("fácilísimo") is None


def test_hard_searches_a_tree_longer_and_wider_than_normal_plans() -> None:
    normal, hard = agent("normal", budget=2.0), agent("hard", budget=2.0)
    assert type(normal) is PlanningAgent and isinstance(hard, TreeSearchAgent)
    assert hard.budget > normal.budget and hard.wider > normal.wider
    assert planning_seconds("hard", 2.0) == hard.budget and planning_seconds("strong", 2.0) == 2.0
    counted = agent("hard", simulations=16)
    assert isinstance(counted, PlanningAgent) and counted.simulations is not None and counted.simulations > 16


def test_easy_plays_greedy_moves_or_slips_reproducibly(cls: type[Game]) -> None:
    games = states(cls, range(8), every=13, limit=16)
    assert games
    slipped = 0
    for game in games:
        seat = game.to_move()[0]
        choice = EasyAgent().choose(game, seat)
        assert choice in game.legal_actions(seat)
        assert EasyAgent().choose(redealt(game, seat), seat) == choice
        greedy = GreedyAgent().choose(game, seat)
        assert EasyAgent(slips=0.0).choose(game, seat) == greedy
        slipped += EasyAgent(slips=1.0).choose(game, seat) != greedy
    assert slipped > 0


def test_a_game_with_wide_swings_asks_for_more_certainty_before_leaving_the_favourite() -> None:
    candidates = ["favourite", "lucky"]
    # a lead of 6 with paired differences 0, 12, 0, 12 (a standard error of 3.5): enough at one
    # standard error, not at two
    results = {"favourite": [0.0, 0.0, 0.0, 0.0], "lucky": [0.0, 12.0, 0.0, 12.0]}
    assert _preferred(candidates, results, 0.25, certainty=1.0) == "lucky"
    assert _preferred(candidates, results, 0.25, certainty=2.0) == "favourite"
    assert heuristics(GAMES["triominoes"].new(2, seed=0)).certainty == 2.0


def test_one_sample_never_overrides_the_favourite() -> None:
    candidates = ["favourite", "lucky"]
    assert _preferred(candidates, {"favourite": [0.0], "lucky": [9.0]}, 0.25) == "favourite"
    assert _preferred(candidates, {"favourite": [0.0, 0.0, 0.0], "lucky": [9.0, 8.0, 9.5]}, 0.25) == "lucky"


def round_enders(limit: int) -> list[tuple[Game, int, str]]:
    """Three-player Tronimoes positions, met in random play, where one of the seat's lays wins
    the round at once; that lay."""
    found = []
    for seed in range(60):
        game, rng = GAMES["tronimoes"].new(3, seed=seed), random.Random(seed)
        while game.outcome() is None and not game.between_rounds() and len(found) < limit:
            seat = game.to_move()[0]
            for action in game.legal_actions(seat):
                after = game.clone()
                after.apply(seat, action)
                if after.between_rounds() and after.scores()[seat] >= game.scores()[seat] + 2:
                    found.append((game.clone(), seat, action))
                    break
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        if len(found) >= limit:
            break
    return found


def test_a_simulation_stops_where_the_round_ends() -> None:
    game, seat, action = round_enders(1)[0]
    known = heuristics(game)
    after = game.clone()
    after.apply(seat, action)
    length = len(after.log)
    value = PlanningAgent._rollout(known, after, seat, random.Random(1), known.round_of(game))
    assert len(after.log) == length and after.between_rounds()  # nobody played `ready`
    assert value == margin(after, seat)


def test_a_small_budget_never_gives_up_a_lay_that_wins_the_round() -> None:
    for game, seat, _ in round_enders(3):
        for chooser in (PlanningAgent(simulations=8), TreeSearchAgent(simulations=8, wider=4)):
            choice = chooser.choose(game, seat)
            after = game.clone()
            after.apply(seat, choice)
            assert after.between_rounds() and after.scores()[seat] >= game.scores()[seat] + 2, (chooser.name, choice)


def test_hard_chooses_the_same_move_again_from_the_same_view(cls: type[Game]) -> None:
    for game in states(cls, range(2), every=19, limit=3):
        seat = game.to_move()[0]
        first = agent("hard", simulations=12).choose(game, seat)
        assert agent("hard", simulations=12).choose(game.clone(), seat) == first


def test_hard_grows_a_tree_past_its_candidates() -> None:
    """The search weighs replies, and its own later moves, inside the tree: not only the
    candidates at its root."""
    game = GAMES["tronimoes"].new(2, seed=4)
    seat = game.to_move()[0]
    searcher = TreeSearchAgent(simulations=60)
    searcher.choose(game, seat)
    assert searcher.made == 60 and searcher.tree is not None
    replies = [reply for child in searcher.tree.children.values() for reply in child.children.values()]
    answers = [answer for reply in replies for answer in reply.children.values()]
    assert max(reply.visits for reply in replies) >= 2 and answers


def test_hard_keeps_the_flat_comparison_where_players_never_interact() -> None:
    game = GAMES["tetromic"].new(2, seed=4)
    seat = game.to_move()[0]
    searcher = TreeSearchAgent(simulations=24)
    assert searcher.choose(game, seat) in game.legal_actions(seat)
    assert searcher.made == 24 and not heuristics(game).tree_search and searcher.tree is None


def test_hard_keeps_the_flat_comparison_at_tables_of_more_than_two() -> None:
    game = GAMES["tronimoes"].new(4, seed=4)
    while len(GreedyAgent().ranked(game, seat := game.to_move()[0])) < 2:
        game.apply(seat, GreedyAgent().choose(game, seat))
    searcher = TreeSearchAgent(simulations=24)
    assert searcher.choose(game, seat) in game.legal_actions(seat)
    assert searcher.made == 24 and searcher.tree is None


def test_the_seat_generator_depends_on_the_seats_view_only() -> None:
    game = GAMES["tronimoes"].new(3, seed=11)
    seat = game.to_move()[0]
    assert seat_rng(game, seat, "x").random() == seat_rng(redealt(game, seat), seat, "x").random()
    assert seat_rng(game, seat, "x").random() != seat_rng(game, (seat + 1) % 3, "x").random()


def test_team_mates_are_not_rivals_in_the_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    tronix = GAMES["tronix"]
    game = tronix.new(4, seed=2)
    (first, mate), (rival, other_rival) = tronix.teams(4)
    scores = {first: 5.0, mate: 5.0, rival: 2.0, other_rival: 2.0}
    monkeypatch.setattr(game, "scores", lambda: [scores[seat] for seat in range(4)])
    assert margin(game, first) == 3.0 and margin(game, rival) == -3.0
    alone = GAMES["tronimoes"].new(3, seed=1)
    monkeypatch.setattr(alone, "scores", lambda: [4.0, 6.0, 1.0])
    assert margin(alone, 0) == -2.0  # every other seat is a rival

