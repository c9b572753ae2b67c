"""Triominoes pictures, decoded: tiles where the notation puts them, the numbered spots, the last
tile haloed, a hexagon or bridge just made outlined, nothing from anyone's hand; golden pictures;
the text board; many positions drawn without a crash."""

from __future__ import annotations

import io
import random

from PIL import Image

from engine.triominoes import Triominoes
from renderers import RENDERERS, render, render_hand, text_board
from renderers.common import HIGHLIGHT, seat_colour
from renderers.text import recording
from renderers.triominoes import LEGEND, board, hand
from renderers.triominoes.pictures import BONUS, SPOT_FILL, TILE, face, layout
from tests.engine.test_triominoes import BRIDGE_BOARD, HEXAGON_BOARD, game_at, position
from tests.renderers.golden import assert_golden


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def after_hexagon() -> Triominoes:
    game = game_at(HEXAGON_BOARD, [["0-2-4", "1-1-4"], ["0-0-5"]])
    game.apply(0, "2-4-0 r-1c-1")
    return game


def after_bridge() -> Triominoes:
    game = game_at(BRIDGE_BOARD, [["0-3-5", "1-2-2"], ["2-3-5"]])
    game.apply(0, "5-0-3 r-2c0")
    return game


def on_face(at, cell) -> tuple[int, int]:
    """A point of a tile's face clear of its numbers and of its seat's mark: from the centre, half
    way to the middle of its first edge."""
    x, y = at.centre(cell)
    (ax, ay), (bx, by) = at.triangle(cell)[:2]
    return round(x + ((ax + bx) / 2 - x) * 0.55), round(y + ((ay + by) / 2 - y) * 0.55)


def test_the_game_has_a_renderer():
    assert RENDERERS["triominoes"].board is board


def test_each_tile_is_drawn_in_its_cell_and_each_spot_is_numbered_in_its_own():
    game = after_hexagon()
    image = decode(render(game))
    at = layout(game.view(None))
    for entry in game.view(None)["board"]:
        row, column = entry["at"][1:].split("c")
        assert image.getpixel(on_face(at, (int(row), int(column)))) == face(entry.get("seat"))
    for spot in game.view(None)["spots"]:
        row, column = spot[1:].split("c")
        x, y = at.centre((int(row), int(column)))
        assert image.getpixel((round(x) - 11, round(y))) == SPOT_FILL


def test_each_tile_shows_in_the_colour_of_the_player_who_laid_it():
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-1-2", "0-0-0"], ["1-1-3", "1-2-2", "2-2-3", "3-3-3"]])
    for seat in (0, 1):
        game.apply(seat, next(a for a in game.legal_actions(seat) if a[0].isdigit()))
    view = game.view(None)
    assert [entry.get("seat") for entry in view["board"]] == [None, 0, 1]  # the first came with the position
    image = decode(render(game))
    at = layout(view)
    for entry in view["board"]:
        row, column = entry["at"][1:].split("c")
        cell = (int(row), int(column))
        x, y = at.centre(cell)
        seat = entry.get("seat")
        assert image.getpixel(on_face(at, cell)) == face(seat)
        (ax, ay), (bx, by) = at.triangle(cell)[:2]  # just inside the middle of its first edge: its player's colour
        mx, my = (ax + bx) / 2, (ay + by) / 2
        inward = 3 / ((x - mx) ** 2 + (y - my) ** 2) ** 0.5
        edge = image.getpixel((round(mx + (x - mx) * inward), round(my + (y - my) * inward)))
        assert edge == (TILE if seat is None else seat_colour(seat))
    assert face(0) != face(1) != TILE


def test_column_labels_sit_over_their_columns_middles_and_never_overlap():
    game = Triominoes.new(3, seed=3)
    rng = random.Random(3)
    for _ in range(40):
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    with recording() as record:
        render(game)
    assert record.page is not None
    at = layout(game.view(None))
    labels = [(text, box) for text, box in record.on(record.page) if text.startswith("c")]
    assert len(labels) == 2 * (at.high_c - at.low_c + 1)
    for text, (left, _, right, _) in labels:
        column = int(text[1:])
        middle = at.centre((at.low_r, column))[0]  # the middle of the column's triangles, in any row
        assert abs((left + right) / 2 - middle) <= 3, (text, left, right, middle)
    for index, (_, a) in enumerate(labels):
        assert not any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3] for _, b in labels[index + 1:])


def test_the_last_tile_is_haloed_and_its_hexagon_outlined():
    game = after_hexagon()
    image = decode(render(game))
    at = layout(game.view(None))
    corners = at.triangle((-1, -1))
    (ax, ay), (bx, by) = corners[0], corners[1]
    cx, cy = at.centre((-1, -1))
    mx, my = (ax + bx) / 2, (ay + by) / 2
    inward = 1.2 / ((cx - mx) ** 2 + (cy - my) ** 2) ** 0.5
    assert image.getpixel((round(mx + (cx - mx) * inward), round(my + (cy - my) * inward))) == HIGHLIGHT
    # the hexagon around lattice point (0, 0): its edge from (2, 0) to (1, 1)
    (px, py), (qx, qy) = at.point((2, 0)), at.point((1, 1))
    assert image.getpixel((round((px + qx) / 2), round((py + qy) / 2))) == BONUS


def test_a_bridge_just_made_is_ringed_at_its_point():
    game = after_bridge()
    image = decode(render(game))
    px, py = layout(game.view(None)).point((-1, -1))
    ring = [image.getpixel((round(px + dx), round(py + dy))) for dx, dy in ((9, 0), (-9, 0), (0, 9), (0, -9))]
    assert ring.count(BONUS) >= 3


def test_the_board_picture_shows_nothing_from_anyones_hand():
    one = Triominoes.from_position(position(HEXAGON_BOARD, [["0-2-4", "1-1-4"], ["0-0-5"]]))
    other = Triominoes.from_position(position(HEXAGON_BOARD, [["0-0-5", "1-1-4"], ["0-2-4"]]))
    assert render(one) == render(other)


def test_the_hand_picture_shows_the_players_tiles():
    game = after_hexagon()
    image = decode(render_hand(game, 1))
    assert image.width >= 560 and game.view(1)["hand"] == ["0-0-5"]
    assert_golden("triominoes_hand", hand(game, 1))


def test_golden_hexagon_and_bridge():
    assert_golden("triominoes_hexagon", render(after_hexagon()))
    assert_golden("triominoes_bridge", render(after_bridge()))


def test_a_new_round_waiting_for_its_opening_shows_the_round_that_ended():
    game = game_at([{"at": "r0c0", "corners": [1, 2, 3]}], [["1-2-2"], ["0-0-5", "3-4-5"]])
    game.apply(0, "1-2-2 r0c1")
    assert game.view(None)["board"] == [] and game.round == 2
    shown = text_board(game) or ""
    assert shown.startswith("P1 goes out and wins round 1") and "v1-2-2" in shown and "Round 2" in shown
    image = decode(render(game))
    at = layout(game.view(None))
    assert image.getpixel(on_face(at, (0, 1))) == face(0)  # the tile that went out, still shown as P1's


def test_the_text_board_names_tiles_spots_and_the_turn():
    game = after_hexagon()
    shown = text_board(game, legend=True) or ""
    assert "^4-4-4" in shown and "*^2-4-0" in shown and "(1)" in shown and LEGEND in shown
    assert "P2 to play" in shown and "well" in shown


def test_many_positions_draw_without_a_crash():
    for seed in range(6):
        game = Triominoes.new(2 + seed % 5, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 60)):
            if game.outcome() is not None:
                break
            seat = game.to_move()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        decode(render(game))
        decode(render(game, deadline=1_800_000_000))
        if game.outcome() is None:
            decode(render_hand(game, game.to_move()[0]))
        assert text_board(game, colour=True)
