"""Pictures are legible in Discord's chat preview: scaled down to the preview's width, the
smallest digits of every picture of the four games drawn at about 520–620 pixels are as tall as
the Tronimoes board's (LEGIBLE_DIGITS), at every stage of a game and at a Spanish table.
bench/legibility.py prints the figures."""

from __future__ import annotations

import random

import pytest

from bot.core.i18n import speaking
from engine import GAMES
from engine.core import Game
from renderers import render
from renderers.common import LEGIBLE_DIGITS, PREVIEW_WIDTH, legible, preview_scale
from renderers.text import digit_height, recording

TABLES = [("tromino_go", 2), ("triominoes", 3), ("triominoes", 6), ("tronix", 4), ("tronix", 8), ("tetromic", 3),
          ("tetromic", 8)]
STAGES = (6, 30, 80, None)


def played(name: str, players: int, seed: int, moves: int | None) -> Game:
    """A seeded random game of `name` after `moves` moves (None: to its end)."""
    game = GAMES[name].new(players, seed=seed)
    rng = random.Random(seed)
    while game.outcome() is None and (moves is None or moves > 0):
        seat = rng.choice(game.to_move())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        moves = None if moves is None else moves - 1
    return game


def test_a_wider_picture_draws_its_text_larger():
    assert legible(14, PREVIEW_WIDTH) == 14
    assert digit_height(legible(14, 2 * PREVIEW_WIDTH)) * 0.5 >= LEGIBLE_DIGITS
    assert legible(30, 2 * PREVIEW_WIDTH) == 30


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_every_text_keeps_its_digits_legible_at_the_previews_width(name, players):
    for seed, language in ((0, "en"), (1, "es")):
        for moves in STAGES:
            game = played(name, players, seed, moves)
            with speaking(language), recording() as record:
                render(game, None)
            assert record.page is not None
            scale = preview_scale(record.page.width)
            small = {(text, size) for text, size in record.sizes_on(record.page)
                     if digit_height(size) * scale < LEGIBLE_DIGITS}
            assert not small, (moves, record.page.size, sorted(small, key=lambda pair: pair[1])[:5])
