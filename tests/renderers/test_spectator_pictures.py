"""Spectators' pictures: without the words only players need (`render(..., instructions=False)`),
and Tetromic's boards one at a time (`render(..., part=seat)`) for a phone."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import GAMES
from engine.triominoes import Triominoes
from renderers import board_parts, render
from renderers.text import recording
from tests.renderers.positions import between_rounds_six
from tests.renderers.test_finished_games import finished


def texts_drawn(**options: object) -> str:
    with recording() as record:
        render(options.pop("game"), None, **options)  # type: ignore[arg-type]
    return " | ".join(text for _, text, _ in record.boxes)


def size(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.size


def test_a_spectators_tronimoes_picture_does_not_tell_anyone_to_type_ready():
    game = between_rounds_six()
    assert "ready" in texts_drawn(game=game)
    spectators = texts_drawn(game=game, instructions=False)
    assert "ready" not in spectators
    assert "is over" in spectators  # the round's result is still said


def test_a_spectators_triominoes_picture_does_not_say_how_to_type_a_move():
    game = Triominoes.new(2, seed=5)
    assert "numbered spot" in texts_drawn(game=game)
    spectators = texts_drawn(game=game, instructions=False)
    assert "numbered spot" not in spectators and "Well:" in spectators


def test_each_tetromic_board_is_drawn_alone_narrower_than_all_side_by_side():
    game = GAMES["tetromic"].new(3, seed=2)
    assert board_parts(game) == 3
    whole = size(render(game))
    for seat in range(3):
        alone = size(render(game, part=seat))
        assert alone[0] < whole[0]
    with recording() as record:
        render(game, part=1)
    names = [text for _, text, _ in record.boxes]
    assert any(str(game.view(None)["seats"][1]["name"]) in text for text in names)
    assert not any(str(game.view(None)["seats"][0]["name"]) in text for text in names)


def test_the_winners_board_alone_says_so():
    game = finished("tetromic", seed=3)
    winner = game.outcome().winners[0]
    with recording() as record:
        render(game, part=winner)
    assert any("★" in text for _, text, _ in record.boxes)


@pytest.mark.parametrize("name", ["tronimoes", "triominoes", "tromino_go", "tronix"])
def test_games_drawn_as_one_board_have_one_part_and_no_other(name: str) -> None:
    game = finished(name, seed=1)
    assert board_parts(game) == 1
    assert size(render(game, part=0)) == size(render(game))
    with pytest.raises(ValueError):
        render(game, part=1)
