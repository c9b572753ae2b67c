"""The agents, for every game: legal choices; no cheating (an agent's choice never changes when
everything its seat cannot see is dealt again, the game's seed included: so `determinize` must
deal from a canonical order of the unseen things, or the real arrangement leaks through the
shuffle); planning within its budget; copies that behave like the original."""

from __future__ import annotations

import json
import random

import pytest

from engine import GAMES, Game
from engine.ai import GreedyAgent, PlanningAgent, RandomAgent, agent, margin, seat_rng
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
        for chooser in (RandomAgent(), GreedyAgent(), PlanningAgent(simulations=24)):
            choice = chooser.choose(game, seat)
            assert choice in game.legal_actions(seat)
            assert chooser.choose(redealt(game, seat), seat) == choice, (chooser.name, game.log[-3:])


def test_a_copy_plays_on_exactly_like_the_original(cls: type[Game]) -> None:
    for game in states(cls, range(2), every=23, limit=4):
        copy = game.clone()
        assert copy.to_json() == game.to_json() and copy.view(None) == game.view(None)
        rng = random.Random(1)
        for _ in range(30):
            if game.outcome() is not None:
                break
            seat = game.to_move()[0]
            action = rng.choice(game.legal_actions(seat))
            game.apply(seat, action)
            copy.apply(seat, action)
        assert copy.to_json() == game.to_json()


def test_a_determinised_copy_keeps_what_the_seat_sees_and_the_rules(cls: type[Game]) -> None:
    for game in states(cls, range(2), every=19, limit=4):
        seat = game.to_move()[0]
        sample = game.determinize(seat, random.Random(3))
        assert sample.view(seat) == game.view(seat) and sample.to_move() == game.to_move()
        assert sample.legal_actions(seat) == game.legal_actions(seat)


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


def test_bot_means_the_strong_agent_and_unknown_agents_are_refused() -> None:
    assert agent("bot").name == "strong" and agent("greedy").name == "greedy"
    with pytest.raises(ValueError, match="no AI called 'chess'"):
        agent("chess")


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

