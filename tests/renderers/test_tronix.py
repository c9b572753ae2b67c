"""Tronix pictures, decoded: each card's green line solid and its pink line dashed where the
pattern runs them, crossings bridged, the last card haloed, the locked card padlocked, the cards
just scored faded in place; golden pictures; the text board; many positions without a crash."""

from __future__ import annotations

import io
import math
import random

import pytest
from PIL import Image

from engine.tronix import Tronix
from renderers import RENDERERS, render, render_hand, text_board
from renderers.common import HIGHLIGHT, INK
from renderers.text import recording
from renderers.tronix import LEGEND, board
from renderers.tronix.pictures import CARD, CELL, GREEN, PINK, board_image, layout
from tests.engine.test_tronix import ENDINGS, SQUARE, T, at, god
from tests.renderers.golden import assert_golden


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def pixel(image: Image.Image, game: Tronix, cell: tuple[int, int], fx: float, fy: float) -> tuple[int, int, int]:
    x0, y0, _, _ = layout(game.view(None)).box(cell)
    return image.getpixel((round(x0 + fx * CELL), round(y0 + fy * CELL)))


def test_the_game_has_a_renderer():
    assert RENDERERS["tronix"].board is board


def test_a_cross_shows_green_over_a_bridged_pink_line():
    game = at([(0, 0, "NS")])
    image = decode(render(game))
    assert pixel(image, game, (0, 0), 0.5, 0.5) == GREEN  # the green straight runs through the middle
    assert pixel(image, game, (0, 0), 0.5, 0.15) == GREEN
    assert pixel(image, game, (0, 0), 0.39, 0.5) != PINK  # the pink one stops short: a bridge
    assert PINK in {pixel(image, game, (0, 0), f, 0.5) for f in (0.06, 0.1, 0.14, 0.18, 0.22)}


def test_a_curve_shows_its_quarter_arcs_in_the_right_corners():
    game = at([(0, 0, "NE")])
    image = decode(render(game))
    r = 0.5 / 2 ** 0.5  # the middle of an arc of radius 1/2 round a corner
    assert pixel(image, game, (0, 0), 1 - r, r) == GREEN  # green round the top-right corner
    pinks = {pixel(image, game, (0, 0), 0.5 * math.cos(a), 1 - 0.5 * math.sin(a)) for a in
             (0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 1.1, 1.25, 1.4)}
    assert PINK in pinks  # pink round the bottom-left corner, dashed


def test_the_last_card_is_haloed_and_the_locked_one_padlocked():
    game = god(T)
    game.apply(0, "turn 1,0 NS")
    image = decode(render(game))
    assert pixel(image, game, (1, 0), 0.5, 0.04) == HIGHLIGHT
    game.apply(1, "turn 2,0 NS")
    image = decode(render(game))
    assert pixel(image, game, (2, 0), 0.2, 0.32) == INK


@pytest.mark.parametrize("pattern", ["NE", "SE", "SW", "NW", "NS", "EW"])
def test_the_padlock_covers_none_of_the_locked_cards_lines(pattern):
    game = god([(0, 0, "NE"), (1, 0, pattern), (2, 0, "NE"), (1, 1, "NE")], locked=[1, 0])
    view = game.view(None)
    locked, free = board_image(view), board_image({**view, "locked": None})
    x0, y0, x1, y1 = layout(view).box((1, 0))
    padlock = [(x, y) for x in range(x0, x1) for y in range(y0, y1) if locked.getpixel((x, y)) != free.getpixel((x, y))]
    assert len(padlock) > 40  # it is drawn...
    assert {free.getpixel(p) for p in padlock} == {CARD}  # ...on the bare card only, off its lines and edge


def test_cards_just_scored_are_drawn_faded_where_they_were():
    game = at(SQUARE)
    game.apply(0, "play 1,1 NW")
    image = decode(render(game))
    r = 0.5 / 2 ** 0.5
    faded = pixel(image, game, (0, 0), 1 - r, 1 - r)  # 0,0 was SE: its green arc round the bottom-right
    assert faded not in (GREEN, PINK) and faded[1] > faded[0] and sum(faded) > sum(GREEN)  # a pale green


@pytest.mark.parametrize("ending", ENDINGS)
def test_the_pictures_header_and_the_text_board_name_the_winner_the_game_announced(ending):
    build, team = ENDINGS[ending]
    game, events = build()
    [end] = [e for e in events if e.kind == "game_end"]
    result = "a draw" if team is None else f"{team} wins"
    with recording() as record:
        render(game)
    assert record.page is not None
    [title] = [text for text, _ in record.on(record.page) if text.startswith("Tronix")]
    assert title == f"Tronix · game over: {result}" and result in end.text
    assert result in (text_board(game) or "").splitlines()[-1]


def test_golden_pictures():
    game = at(SQUARE)
    game.apply(0, "play 1,1 NW")
    assert_golden("tronix_circuit_scored", render(game))
    crossing = god([(0, 0, "SE"), (1, 0, "EW"), (2, 0, "SW"), (0, 1, "NS"), (2, 1, "NS")], locked=[1, 0])
    assert_golden("tronix_god_mode", render(crossing))
    assert_golden("tronix_hand", render_hand(Tronix.new(4, seed=0), 0))


def test_the_text_board_names_patterns_and_marks():
    game = god(T)
    game.apply(0, "turn 1,0 NS")
    shown = text_board(game, legend=True) or ""
    assert "NS*" in shown and "God Mode" in shown and LEGEND in shown


def test_many_positions_draw_without_a_crash():
    for seed in range(4):
        game = Tronix.new(2 * (1 + seed % 3), seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(10, 80)):
            if game.outcome() is not None:
                break
            seat = game.to_move()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        decode(render(game))
        decode(render(game, deadline=1_800_000_000))
        decode(render_hand(game, 0))
        assert text_board(game, colour=True)


def test_a_spanish_table_reads_its_pictures_and_text_board_in_spanish():
    from bot.core.i18n import speaking

    game = at([(0, 0, "SW")])
    with speaking("es"):
        shown = text_board(game, legend=True) or ""
        spanish = render(game)
    english = render(game)
    assert "Colocación · verde 0, rosa 0 · juega P1 (verde)" in shown and "SO" in shown.splitlines()[1]
    assert "dónde va su línea verde" in shown
    assert spanish != english  # the header's words differ; the cards do not
