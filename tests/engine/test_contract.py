"""The engine contract (DESIGN.md), checked for every registered game.

Seeded random playouts must end; every legal action must read back as itself and apply; saved
games must reload identically; garbage must be refused without changing anything; views must
not show another seat's secrets.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import random
import re
import unicodedata
from collections import Counter, deque
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GAMES, Event, Game, GameError, OptionError
from engine.core import RESIGN, PieceNoun

PLAYOUTS = 200
STEP_LIMIT = 50_000


def hooks(cls: type[Game]) -> Any:
    """The game's optional contract hooks, `tests/engine/contract_hooks/<game>.py`: `PLAYOUTS` (how
    many random playouts to run, when 200 would be slow), `ROUND_TRIP_GAMES` and `ACTIONS_CHECKED`
    (for games with thousands of actions a turn: how many games, and at most how many actions of
    a position, evenly spread, the round-trip test tries), `shuffle_hidden(position, viewer,
    rng)` (the position with everything `viewer` cannot see dealt differently), `OPTION_VALUES`
    (values to try for whole-number options, which are otherwise left at their defaults),
    `POSITION_GAMES` (how many games the position round-trip test plays), and `choose(actions,
    rng)` and `TIMEOUT_CHANCE` (how that test picks an action, and how often a seat misses its
    turn, when an even pick or the usual 5% would end games too soon), or None."""
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
    for _ in steps(game, random.Random(seed), resign_chance=resign_chance, timeout_chance=timeout_chance):
        yield game


Step = tuple[int, list[str]]
"""One random step: the seat, and what it does (actions in order, or `[RESIGN]`)."""


def steps(game: Game, rng: random.Random, *, resign_chance: float = 0.0, timeout_chance: float = 0.05,
          choose: Callable[[list[str], random.Random], str] | None = None) -> Iterator[Step]:
    """Choose random steps until `game` ends: yields each step before taking it on `game` (with
    `take`, once the consumer resumes the generator). `choose` picks among the legal actions
    (by default any, evenly)."""
    for _ in range(STEP_LIMIT):
        if game.outcome() is not None:
            return
        waiting = game.to_move()
        assert waiting, "a game that is not over must be waiting for someone"
        seat = rng.choice(waiting)
        roll = rng.random()
        if roll < resign_chance:
            step: Step = (seat, [RESIGN])
        elif roll < resign_chance + timeout_chance:
            timeouts = game.timeout_actions(seat)
            assert timeouts, "a seat the game waits for must have a timeout action"
            step = (seat, timeouts)
        else:
            actions = game.legal_actions(seat)
            assert actions, "a seat the game waits for must have a legal action"
            step = (seat, [choose(actions, rng) if choose else rng.choice(actions)])
        yield step
        take(game, step)
    raise AssertionError(f"no end after {STEP_LIMIT} steps")


def take(game: Game, step: Step) -> list[Event]:
    """Take a step chosen by `steps`; returns what happened."""
    seat, actions = step
    if actions == [RESIGN]:
        return game.resign(seat)
    return [event for action in actions for event in game.apply(seat, action)]


@pytest.fixture(params=sorted(GAMES), ids=sorted(GAMES))
def cls(request: pytest.FixtureRequest) -> type[Game]:
    return GAMES[request.param]


def test_every_game_names_its_own_pieces_in_both_numbers(cls: type[Game]) -> None:
    noun = cls.__dict__.get("piece_noun")
    assert isinstance(noun, PieceNoun), f"{cls.name} must say what its pieces are called"
    one, many = noun.counted
    assert one.format(count=1) != many.format(count=1) and noun.unseen


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


FOREIGN_DIGITS = "²³¹①٣١２３𝟙Ⅳ½۵߂"
"""Characters that write numbers without being the digits 0–9: superscripts, circled, Arabic-Indic,
full-width, mathematical, Roman, fractions, Persian, N'Ko."""
HUGE = ("9" * 5_000, "1" + "0" * 400, "0" * 300 + "7", "18446744073709551617")
SIGNED = st.tuples(st.sampled_from(["+", "-", "−", "⁻", "－", "﹣", "--", "+-"]),
                   st.sampled_from(["3", "0", "12", *HUGE])).map("".join)
ODD_NUMBERS = st.one_of(
    st.text(alphabet=FOREIGN_DIGITS, min_size=1, max_size=3),
    st.tuples(st.sampled_from("0123456789"), st.sampled_from(FOREIGN_DIGITS)).map("".join),
    st.sampled_from(HUGE),
    SIGNED,
    st.tuples(st.sampled_from(["", " ", "  "]), st.sampled_from(["1", "5"]), st.sampled_from(["", " "])).map("".join),
)


SCRIPTS = (0x660, 0x6F0, 0xFF10, 0x1D7D8, 0x966)
"""Where the digits 0–9 of other scripts begin: Arabic-Indic, Persian, full-width, mathematical
double-struck, Devanagari. `int()` and `re`'s `\\d` read them all."""


@st.composite
def oddly_numbered(draw: st.DrawFn, texts: list[str]) -> str:
    """One of `texts` (moves of the game as it is) with some of its numbers written oddly: the
    same digits in another script, other digit-like characters, signed, padded or thousands of
    digits long; or such numbers alone."""
    text = draw(st.sampled_from(texts)) if texts and draw(st.booleans()) else draw(ODD_NUMBERS)
    if draw(st.booleans()):  # the same move, one digit written in another script
        digits = [i for i, ch in enumerate(text) if ch in "0123456789"]
        if digits:
            at = draw(st.sampled_from(digits))
            return text[:at] + chr(draw(st.sampled_from(SCRIPTS)) + int(text[at])) + text[at + 1:]
    for run in reversed(list(re.finditer(r"[0-9]+", text))):
        if draw(st.booleans()):
            text = text[:run.start()] + draw(ODD_NUMBERS) + text[run.end():]
    return text


def test_numbers_are_read_in_the_digits_0_to_9_and_anything_else_is_refused(cls: type[Game]) -> None:
    """Numbers written in other scripts' digits ('²', '٣', the full-width '３'), signed, or
    thousands of digits long, in moves and options: each is read as a legal move or refused with
    the game's own refusal (never a ValueError or the like), a number not written with 0–9 is
    never taken, and nothing changes. Autocomplete's paths (`canonical`, `suggestion_match`,
    `describe_action`) answer without failing."""
    states = [cls.new(players_for(cls, 0), seed=0), *sample_states(cls, range(3), every=12)[:10]]
    numeric = [f for f in dataclasses.fields(cls.Options) if f.type in ("int", "float", int, float)]

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data(), pick=st.integers(min_value=0))
    def check(data: st.DataObject, pick: int) -> None:
        game = states[pick % len(states)]
        seat = pick % game.players
        moves = [*game.legal_actions(seat)[:40], *game.legal_actions((seat + 1) % game.players)[:10],
                 *cls.example_moves]
        text = data.draw(oddly_numbered(moves))
        odd = any(not ch.isascii() and unicodedata.category(ch) in ("Nd", "Nl", "No") for ch in text)
        before = json.dumps(game.to_json(), sort_keys=True)
        try:
            parsed = game.parse(seat, text)
        except GameError as error:
            assert str(error)
        else:
            assert parsed in game.legal_actions(seat)
            assert not odd, f"{text!r} was read as {parsed!r}"
        for language in ("en", "es"):
            typed = cls.canonical(text, language)
            for action in game.legal_actions(seat)[:60]:
                assert game.suggestion_match(action, typed) in (None, 0, 1)
                game.describe_action(seat, action)
        if numeric:
            option = numeric[pick % len(numeric)]
            try:
                chosen = cls.Options.parse({option.name: text})
            except OptionError as error:
                assert str(error)
            else:
                value = getattr(chosen, option.name)
                assert not odd and option.metadata.get("min", value) <= value <= option.metadata.get("max", value)
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


# ---- positions: every exported position loads back into the same game ------------------------------


def varied_options(cls: type[Game], rng: random.Random) -> dict[str, Any]:
    """Random option values for `cls`, as `Options.parse` takes them: any of each listed choice,
    on or off, and whole numbers from the game's `OPTION_VALUES` hook (else the default)."""
    spelled: dict[str, Any] = {}
    numbers = getattr(hooks(cls), "OPTION_VALUES", {})
    for option in dataclasses.fields(cls.Options):
        if option.name in numbers:
            spelled[option.name] = str(rng.choice(numbers[option.name]))
        elif option.metadata.get("choices"):
            spelled[option.name] = rng.choice(option.metadata["choices"])
        elif isinstance(option.default, bool):
            spelled[option.name] = rng.choice(["on", "off"])
    return spelled


def same_game(game: Game, copy: Game) -> None:
    """`copy` waits for the same seats, offers every seat the same actions and has the same outcome."""
    assert copy.to_move() == game.to_move()
    for seat in range(game.players):
        assert copy.legal_actions(seat) == game.legal_actions(seat), f"seat {seat}'s legal actions differ"
    assert copy.outcome() == game.outcome()


def loaded(position: dict[str, Any], cls: type[Game], seed: int = 0) -> Game:
    """The game a position describes, loaded from its JSON text (so nothing but JSON survives)."""
    return cls.from_position(json.loads(json.dumps(position)), seed=seed)


def documented_example(cls: type[Game]) -> dict[str, Any]:
    """The example position in the game's documented position format (`position_help`)."""
    found = re.search(r"```json\n(.*?)\n```", cls.position_help, re.DOTALL)
    assert found, f"{cls.name}'s position_help needs an example position in a ```json block"
    return json.loads(found.group(1))


def test_the_documented_example_position_loads_and_writes_back_exactly(cls: type[Game]) -> None:
    example = documented_example(cls)
    game = cls.from_position(example)
    assert json.dumps(game.to_position()) == json.dumps(example)
    assert game.to_move() and game.outcome() is None


def features(position: dict[str, Any]) -> set[str]:
    """What a position shows that the round-trip test should meet (counted by bench/positions.py):
    a result, a round's end, the moving phase or God Mode, a seat out or gone."""
    seats = position.get("seats", [])
    found = {name for name, present in (
        ("result", position.get("result") is not None), ("round_end", position.get("round_end") is not None),
        ("moving", position.get("phase") == "moving"), ("god", position.get("phase") == "god"),
        ("moving_turns", bool(position.get("moving_turns"))), ("out", any(s.get("out") for s in seats)),
        ("resigned", any(s.get("resigned") for s in seats))) if present}
    return found


def check_positions(cls: type[Game], number: int) -> Counter[str]:
    """Play random game `number` of `cls` (players and options chosen by `number`) and check, at
    every step, that the game loaded from the exported position waits for the same seats, offers
    the same actions, has the same outcome, and after the next step is where the game is, unless
    that step drew on chance (a loaded game then draws from its own seed: the draw order is not
    part of a position). Returns how many steps were checked, skipped as chance, and features met."""
    rng = random.Random(f"positions {cls.name} {number}")
    counts = [n for n in cls.player_counts() if n >= 2] or list(cls.player_counts())
    options = cls.Options.parse(varied_options(cls, rng))
    game = cls.new(counts[number % len(counts)], seed=number, options=options)
    tally: Counter[str] = Counter()
    hook = hooks(cls)
    for step in steps(game, rng, resign_chance=0.01, timeout_chance=getattr(hook, "TIMEOUT_CHANCE", 0.05),
                      choose=getattr(hook, "choose", None)):
        position = game.to_position()
        tally.update(features(position))
        copy = loaded(position, cls)
        assert copy.to_position() == position, "a loaded position must write itself back unchanged"
        same_game(game, copy)
        other = loaded(position, cls, seed=1)
        happened = take(copy, step)
        take(other, step)
        if copy.to_position() != other.to_position():
            tally["chance"] += 1
            continue
        after = game.clone()
        assert [e.text for e in take(after, step)] == [e.text for e in happened]
        assert copy.to_position() == after.to_position()
        assert copy.to_move() == after.to_move() and copy.outcome() == after.outcome()
        tally["steps"] += 1
    position = game.to_position()
    tally.update(features(position))
    final = loaded(position, cls)
    same_game(game, final)
    assert final.outcome() is not None
    return tally


def test_every_position_loads_back_as_the_same_game(cls: type[Game]) -> None:
    """At every step of random games (2 to the most players, options varied) the position loads
    back as the same game (`check_positions`; bench/positions.py runs a longer sweep)."""
    for number in range(getattr(hooks(cls), "POSITION_GAMES", 6)):
        assert check_positions(cls, number)["steps"]
