"""A finished game looks finished, in all five games: the winner is highlighted, no prompt,
numbered spot or "to draw" is left, and the final scores are on the picture."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from engine import GAMES
from engine.core import Game
from renderers import render, render_hand
from renderers.common import HIGHLIGHT
from renderers.text import recording
from renderers.triominoes.pictures import SPOT_FILL
from tests.renderers.golden import decode

NAMES = ["Ada", "Bob", "Cy", "Di", "Ed", "Flo"]
SEATS = {"tronimoes": 3, "tromino_go": 2, "triominoes": 3, "tronix": 4, "tetromic": 3}
PROMPTS = ("to play", "to move", "to draw", "must play", "plays by", "type a tile", "numbered spot", "phase ends",
           "Your turn")


def finished(name: str, seed: int) -> Game:
    """A seeded random game of `name`, played to its end by a clear winner."""
    for attempt in range(40):
        game = GAMES[name].new(SEATS[name], seed=seed + attempt, names=NAMES[:SEATS[name]])
        rng = random.Random(seed + attempt)
        while game.outcome() is None:
            seat = rng.choice(game.to_move())
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        outcome = game.outcome()
        assert outcome is not None
        if name == "tronix":
            piles = game.view(None)["piles"]
            if piles["green"] != piles["pink"]:
                return game
        elif len(outcome.winners) == 1:
            return game
    raise AssertionError(f"no {name} game with a winner")


def drawn(game: Game) -> tuple[Image.Image, list[tuple[str, tuple[int, int, int, int]]]]:
    with recording() as record:
        png = render(game, 0, deadline=1_800_000_000.0)
    assert record.page is not None
    return decode(png), record.on(record.page)


def highlighted_around(image: Image.Image, box: tuple[int, int, int, int], reach: int = 40) -> bool:
    """Whether the highlight colour shows within `reach` pixels of a text box."""
    left, top, right, bottom = box
    area = image.crop((max(0, left - reach), max(0, top - reach // 2), min(image.width, right + reach),
                       min(image.height, bottom + reach // 2)))
    return any(colour == HIGHLIGHT for _, colour in area.getcolors(1 << 16) or [])


def labelled(boxes: list[tuple[str, tuple[int, int, int, int]]], start: str) -> tuple[int, int, int, int]:
    """The box of the first text that starts with `start`."""
    return next(box for text, box in boxes if text.startswith(start))


@pytest.mark.parametrize("name", sorted(SEATS))
def test_a_finished_game_shows_no_prompt_and_highlights_only_the_winner(name):
    game = finished(name, seed=3)
    image, boxes = drawn(game)
    words = " ".join(text for text, _ in boxes)
    assert not [prompt for prompt in PROMPTS if prompt in words], words
    outcome = game.outcome()
    assert outcome is not None
    if name == "tronix":
        view = game.view(None)
        teams = {seat["team"] for seat in (view["seats"][w] for w in outcome.winners)}
        for team, label in (("green", "Green"), ("pink", "Pink")):
            assert highlighted_around(image, labelled(boxes, label), reach=12) is (team in teams)
        return
    for seat, seat_name in enumerate(NAMES[:SEATS[name]]):
        if name in ("tromino_go", "triominoes"):  # the legend's label: name, then score
            near = highlighted_around(image, labelled(boxes, seat_name + ":"), reach=12)
        else:  # the name on the player's card or board
            near = highlighted_around(image, labelled(boxes, seat_name))
        assert near is (seat in outcome.winners), (seat_name, outcome)


@pytest.mark.parametrize("name", sorted(SEATS))
def test_a_finished_games_hand_pictures_ask_for_nothing(name):
    game = finished(name, seed=3)
    for seat in range(game.players):
        with recording() as record:
            render_hand(game, seat)
        assert record.page is not None
        words = " ".join(text for text, _ in record.on(record.page))
        assert not [prompt for prompt in (*PROMPTS, "`draw`", "`play", "yellow tiles fit") if prompt in words], words


@pytest.mark.parametrize("name", sorted(SEATS))
def test_a_finished_game_shows_every_players_final_score(name):
    game = finished(name, seed=5)
    _, boxes = drawn(game)
    words = " ".join(text for text, _ in boxes)
    view = game.view(None)
    if name == "tronimoes":
        expected = [f"{s['score']} pt" for s in view["seats"]]
    elif name == "tromino_go":
        expected = [f"{n}: {p} TGpoint" for n, p in zip(view["names"], view["points"], strict=True)]
    elif name == "triominoes":
        expected = [f"{s['name']}: {s['score']}" for s in view["seats"]]
    elif name == "tetromic":
        expected = [f"level {s['level']} · {s['points']}/{s['needed']} pts" for s in view["seats"]]
    else:
        expected = [f"Green {view['piles']['green']}", f"Pink {view['piles']['pink']}"]
    assert all(score in words for score in expected), (expected, words)


def test_a_finished_triominoes_game_draws_no_numbered_spots():
    game = finished("triominoes", seed=7)
    image, _ = drawn(game)
    assert SPOT_FILL not in {colour for _, colour in image.getcolors(1 << 16) or []}
    assert game.view(None)["spots"], "the engine still lists spots: the picture must leave them out"


def test_tetromic_boards_show_each_hand_as_icons_with_a_count():
    game = GAMES["tetromic"].new(2, seed=1, names=["Ada", "Bob"])
    game.apply(0, "draw")
    _, boxes = drawn(game)
    hands = [text for text, _ in boxes if text.startswith("hand: ")]
    held = game.view(None)["seats"][0]["hand_size"]
    assert held >= 1 and sorted(hands) == sorted([f"hand: {held}", "hand: empty"])
