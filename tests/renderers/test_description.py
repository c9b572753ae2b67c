"""What every board in words promises, in all five games: `describe_within` stays within its
limit over whole played games and, where it cuts, says what it leaves out and that `/board
describe` gives it whole; it is `describe` itself when that fits; the public description never
holds a hand; the dispatch refuses a game without a renderer."""

from __future__ import annotations

import random
import re

import pytest

from bot.core.i18n import speaking
from engine import GAMES
from engine.core import Game
from renderers import NoRenderer, describe, describe_within
from renderers.description import LIMIT, Part, fit
from tests.renderers.test_finished_games import SEATS, finished

CUT_NOTE = "/board describe gives the whole description."


def plies(name: str, seed: int) -> list[Game]:
    """A seeded random game of `name` at every 7th ply, to its end."""
    game = GAMES[name].new(SEATS[name], seed=seed)
    rng = random.Random(seed)
    shown = [game.clone()]
    while game.outcome() is None:
        seat = rng.choice(game.to_move())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        if len(game.log) % 7 == 0:
            shown.append(game.clone())
    return [*shown, game]


@pytest.mark.parametrize("name", sorted(SEATS))
def test_every_description_of_a_whole_played_game_fits_in_1024_and_says_what_it_leaves_out(name):
    cut = 0
    for game in plies(name, seed=5):
        whole, within = describe(game), describe_within(game)
        assert len(within) <= LIMIT
        if len(whole) <= LIMIT:
            assert within == whole
        else:
            cut += 1
            assert within.endswith(CUT_NOTE) and "Left out here: " in within
            assert within.splitlines()[0] == whole.splitlines()[0]  # turn, scores and last move kept
    final = finished(name, seed=3)
    assert len(describe_within(final)) <= LIMIT and "The game is over: " in describe_within(final)
    if name in ("tronix", "tetromic", "triominoes"):
        assert cut, "a long game of it needs cutting somewhere"


def test_a_cut_keeps_something_of_every_part_and_counts_what_it_leaves_out():
    parts = [Part("Lines", [f"line {i} open end" for i in range(30)], "lines"),
             Part("Dead lines", ["red's line", "blue's line"], "dead lines")]
    text = fit("Header.", parts, 300)
    assert len(text) <= 300 and text.startswith("Header.\nLines: line 0 open end; ")
    assert "\nDead lines: red's line" in text
    shown = text.split("\n")[1].count("open end")
    assert f"Left out here: {30 - shown} more lines" in text and text.endswith(CUT_NOTE)


def test_a_limit_below_the_header_still_ends_with_how_to_get_the_whole():
    game = finished("tronimoes", seed=3)
    text = describe_within(game, 200)
    assert len(text) <= 200 and "/board describe" in text


@pytest.mark.parametrize("name", sorted(SEATS))
def test_no_public_description_holds_a_hand(name):
    for game in plies(name, seed=9)[::3]:
        public = describe(game)
        assert "Your hand" not in public and describe_within(game).count("Your hand") == 0
        if name == "tronimoes":
            for seat in range(game.players):
                for tile in game.view(seat)["hand"]:
                    a, b = tile.split(":")
                    assert not re.search(rf"(?<![0-9])({a}:{b}|{b}:{a})(?![0-9])", public), (tile, public)


def test_the_viewers_own_hand_comes_first_after_the_header():
    game = plies("tronimoes", seed=9)[2]
    lines = describe(game, 1).splitlines()
    assert lines[1].startswith("Your hand: ") and all(t in lines[1] for t in game.view(1)["hand"])


def test_a_game_without_a_renderer_is_refused_naming_those_that_have_one():
    game = GAMES["tronimoes"].new(2, seed=1)
    game.name = "chess"  # type: ignore[misc]
    with pytest.raises(NoRenderer, match="renderers exist for: "):
        describe(game)


@pytest.mark.parametrize("name", sorted(SEATS))
def test_a_spanish_table_hears_every_game_in_spanish(name):
    english = ("board.", "Scores:", "to move", "Last move", "Left out", "needs", "open end", "Open spots",
               "Groups", "Circuits", "cards on the table", "is one piece from clearing", "pieces in hand", "Round:")
    for game in plies(name, seed=2)[1::4]:
        with speaking("es"):
            said, cut = describe(game), describe_within(game, 600)
        assert "Puntos: " in said and "Tablero de " in said
        assert not [word for word in english if word in said or word in cut], (said, cut)
