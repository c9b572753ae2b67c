"""The engine contract (DESIGN.md), checked for every registered game.

Seeded random playouts must end; every legal action must read back as itself and apply; saved
games must reload identically; garbage must be refused without changing anything; views must
not show another seat's secrets.
"""

from __future__ import annotations

import importlib
import json
import random
from collections import deque
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GAMES, Game, GameError

PLAYOUTS = 200
STEP_LIMIT = 50_000


def hooks(cls: type[Game]) -> Any:
    """The game's optional contract hooks, `tests/engine/contract_hooks/<game>.py`: `PLAYOUTS` (how
    many random playouts to run, when 200 would be slow), `ROUND_TRIP_GAMES` and `ACTIONS_CHECKED`
    (for games with thousands of actions a turn: how many games, and at most how many actions of
    a position, evenly spread, the round-trip test tries) and `shuffle_hidden(position, viewer,
    rng)` (the position with everything `viewer` cannot see dealt differently), or None."""
    try:
        return importlib.import_module(f"tests.engine.contract_hooks.{cls.name}")
    except ModuleNotFoundError:
        return None


def players_for(cls: type[Game], seed: int) -> int:
    counts = cls.player_counts()
    return counts[seed % len(counts)]


def playout(cls: type[Game], seed: int, *, resign_chance: float = 0.0,
            timeout_chance: float = 0.05) -> Iterator[Game]:
    """Play a seeded random game to the end, yielding the game before every step."""
    game = cls.new(players_for(cls, seed), seed=seed)
    rng = random.Random(seed)
    for _ in range(STEP_LIMIT):
        if game.outcome() is not None:
            return
        yield game
        waiting = game.to_move()
        assert waiting, "a game that is not over must be waiting for someone"
        seat = rng.choice(waiting)
        roll = rng.random()
        if roll < resign_chance:
            game.resign(seat)
        elif roll < resign_chance + timeout_chance:
            timeouts = game.timeout_actions(seat)
            assert timeouts, "a seat the game waits for must have a timeout action"
            for action in timeouts:
                game.apply(seat, action)
        else:
            actions = game.legal_actions(seat)
            assert actions, "a seat the game waits for must have a legal action"
            game.apply(seat, rng.choice(actions))
    raise AssertionError(f"seed {seed}: no end after {STEP_LIMIT} steps")


@pytest.fixture(params=sorted(GAMES), ids=sorted(GAMES))
def cls(request: pytest.FixtureRequest) -> type[Game]:
    return GAMES[request.param]


def test_random_playouts_always_end(cls: type[Game]) -> None:
    for seed in range(getattr(hooks(cls), "PLAYOUTS", PLAYOUTS)):
        steps = sum(1 for _ in playout(cls, seed, resign_chance=0.002 if seed % 4 == 0 else 0.0))
        assert steps > 0


def test_finished_games_wait_for_nobody_and_report_an_outcome(cls: type[Game]) -> None:
    for seed in range(10):
        game = deque(playout(cls, seed), maxlen=1)[0]
        outcome = game.outcome()
        assert outcome is not None and game.to_move() == ()
        assert len(outcome.scores) == game.players and outcome.reason
        assert all(game.legal_actions(s) == [] for s in range(game.players))


def test_between_rounds_nothing_but_ready_is_legal(cls: type[Game]) -> None:
    breaks = 0
    for seed in range(6):
        for game in playout(cls, seed):
            if game.between_rounds():
                breaks += 1
                assert all(game.legal_actions(s) in ([], ["ready"]) for s in range(game.players))
                assert any(game.legal_actions(s) == ["ready"] for s in game.to_move())
            else:
                assert all(game.legal_actions(s) != ["ready"] for s in game.to_move())
    assert breaks or cls.name != "tronimoes"  # the only game with a round break, which playouts reach


def test_the_rules_force_only_draws_and_passes_never_a_placement(cls: type[Game]) -> None:
    """The referee plays a forced action for the player and announces it: a tile laid that way
    would tell the table that none of the player's other tiles fits."""
    for seed in range(8):
        for game in playout(cls, seed):
            for seat in game.to_move():
                forced = game.forced_action(seat)
                assert forced is None or forced.split()[0] in ("draw", "pass"), (seed, forced)
                assert forced is None or forced in game.legal_actions(seat)


def test_every_legal_action_reads_back_as_itself_and_applies(cls: type[Game]) -> None:
    most = getattr(hooks(cls), "ACTIONS_CHECKED", None)
    for seed in range(getattr(hooks(cls), "ROUND_TRIP_GAMES", 12)):
        for step, game in enumerate(playout(cls, seed)):
            if step % 9:
                continue
            for seat in range(game.players):
                actions = game.legal_actions(seat)
                if most is not None and len(actions) > most:
                    actions = actions[::len(actions) // most + 1]  # an even spread, ends included
                    actions.append(game.legal_actions(seat)[-1])
                for action in actions:
                    assert game.parse(seat, action) == action
                    game.clone().apply(seat, action)


def test_a_saved_game_reloads_identically_and_draws_the_same_future(cls: type[Game]) -> None:
    for seed in range(10):
        snapshots = {}
        for step, game in enumerate(playout(cls, seed)):
            if step in (0, 15, 60):
                snapshots[step] = (json.loads(json.dumps(game.to_json())), game.view(None), game.to_move(),
                                   {s: game.legal_actions(s) for s in game.to_move()})
        final = game.to_json()
        for saved, view, waiting, legal in snapshots.values():
            copy = cls.from_json(saved)
            assert copy.to_json() == saved
            assert (copy.view(None), copy.to_move()) == (view, waiting)
            assert {s: copy.legal_actions(s) for s in copy.to_move()} == legal
            copy.replay(final["log"][len(saved["log"]):])
            assert copy.to_json() == final
            assert copy.view(None) == game.view(None) and copy.outcome() == game.outcome()


def sample_states(cls: type[Game], seeds: range, every: int) -> list[Game]:
    states = []
    for seed in seeds:
        for step, game in enumerate(playout(cls, seed)):
            if step % every == 3:
                states.append(game.clone())
    return states


NEAR_MISSES = st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from(["3:5", "0:0", "12:12", "7-7", "a1", "c4", "z99", "d5", "on", "bob", "free1",
                              "pass", "draw", "spacer", "ready", "play", "-", ":", "  ", "resign", "∞", "\x00"]),
             max_size=6).map(" ".join),
)


def test_garbage_is_refused_with_a_game_error_and_changes_nothing(cls: type[Game]) -> None:
    states = sample_states(cls, range(3), every=40)[:12]

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(text=NEAR_MISSES, pick=st.integers(min_value=0))
    def check(text: str, pick: int) -> None:
        game = states[pick % len(states)]
        seat = pick % game.players
        before = json.dumps(game.to_json(), sort_keys=True)
        try:
            parsed = game.parse(seat, text)
        except GameError as error:
            assert str(error)
            with pytest.raises(GameError):
                game.clone().apply(seat, text)
        else:
            assert parsed in game.legal_actions(seat)
        assert json.dumps(game.to_json(), sort_keys=True) == before

    check()


def hide_secrets_shuffled(position: dict[str, Any], viewer: int | None, rng: random.Random) -> dict[str, Any]:
    """The same position with every tile the viewer cannot see dealt differently: the other seats'
    hands and the draw pile are shuffled together, keeping their sizes."""
    shuffled = json.loads(json.dumps(position))
    hidden_places: list[list[Any]] = [s["hand"] for i, s in enumerate(shuffled["seats"])
                                      if i != viewer and "hand" in s]
    for pile in ("bag", "pool"):
        if pile in shuffled:
            hidden_places.append(shuffled[pile])
    tiles = [t for place in hidden_places for t in place]
    rng.shuffle(tiles)
    for place in hidden_places:
        size = len(place)
        place[:] = tiles[:size]
        del tiles[:size]
    return shuffled


def test_views_show_no_other_seats_hand_and_no_bag_order(cls: type[Game]) -> None:
    rng = random.Random(0)
    for game in sample_states(cls, range(4), every=25)[:30]:
        position = game.to_position()
        for viewer in [None, *range(game.players)]:
            original = cls.from_position(position).view(viewer)
            json.dumps(original)
            shuffle = getattr(hooks(cls), "shuffle_hidden", hide_secrets_shuffled)
            for _ in range(3):
                other = cls.from_position(shuffle(position, viewer, rng)).view(viewer)
                assert other == original, f"view({viewer}) changes when hidden tiles change"
