"""Every player can tell the seats apart, whatever their colour vision: every game's colours stay
apart, and off their backgrounds, under simulated protanopia, deuteranopia and tritanopia; every
seat carries a sign that is not colour; and `palette=mono` draws every picture in greys.

Distances are in CAM02-UCS after colorspacious's simulation at severity 100 (bench/palettes.py
prints them, before and after issue 40)."""

from __future__ import annotations

import itertools
import random

import pytest
from PIL import ImageChops

from bench.palettes import BACKGROUND_MIN, BEFORE, PAIR_MIN, VISIONS, closest_background, closest_pair
from engine import GAMES
from engine.core import Game
from renderers import RENDERERS, render, render_hand
from renderers.common import BOARD, GridLayout
from renderers.glyphs import SHAPES, seat_shape
from renderers.palettes import PALETTES, Palette, drawing_in, grey_of, mono, set_grey, use_palette
from renderers.tronimoes import pictures as tronimoes_pictures
from renderers.tronimoes.style import cell_size
from tests.renderers.golden import assert_golden, decode
from tests.renderers.positions import late_six, seeded

PLAYERS = {"tronimoes": 6, "tromino_go": 2, "triominoes": 6, "tronix": 8, "tetromic": 8}


def played(name: str, moves: int, seed: int = 5) -> Game:
    """A seeded random game of `name`, all its seats, after up to `moves` moves."""
    game = GAMES[name].new(PLAYERS[name], seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.outcome() is not None:
            break
        seat = rng.choice(game.to_move())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def test_every_game_lists_its_palette():
    assert set(PALETTES) == set(RENDERERS)
    assert all(len(palette.colours) >= 2 and palette.backgrounds for palette in PALETTES.values())


@pytest.mark.parametrize("vision", sorted(VISIONS))
@pytest.mark.parametrize("name", sorted(PALETTES))
def test_every_pair_of_a_games_colours_stays_apart_for_every_colour_vision(name, vision):
    distance, a, b = closest_pair(PALETTES[name], vision)
    assert distance >= PAIR_MIN, f"{name}: {a} and {b} are only {distance:.1f} apart for {vision}"


@pytest.mark.parametrize("vision", sorted(VISIONS))
@pytest.mark.parametrize("name", sorted(PALETTES))
def test_every_colour_stands_off_the_board_and_the_tiles_for_every_colour_vision(name, vision):
    distance, colour, behind = closest_background(PALETTES[name], vision)
    assert distance >= BACKGROUND_MIN, f"{name}: {colour} is only {distance:.1f} from the {behind} for {vision}"


def test_the_colours_before_issue_40_ran_together_for_colour_blind_players():
    """What the check catches: main's Okabe–Ito seats came within 11 of each other."""
    assert closest_pair(BEFORE["tronimoes"], "tritanopia")[0] < PAIR_MIN
    assert closest_pair(BEFORE["tronix"], "deuteranopia")[0] < PAIR_MIN


def test_the_seat_colours_give_two_players_the_two_most_different():
    seats = PALETTES["tronimoes"]
    first_two = Palette(seats.game, seats.what, seats.colours[:2], ())
    assert all(closest_pair(first_two, vision)[0] >= 2 * PAIR_MIN for vision in VISIONS)


# ---------------------------------------------------------------------------------------------
# Signs that are not colour


def test_every_joint_of_a_tronimoes_line_carries_its_number_and_lines_that_only_touch_do_not():
    game = late_six()
    view = game.view(None)
    image = tronimoes_pictures.board_image(game)
    columns = int(view["width"])
    cell = cell_size(columns)
    layout = GridLayout(columns, int(view["height"]), cell, 0, 0)
    top = image.height - layout.height  # the header is above the grid
    left, grid_top = layout.margin, top + layout.margin
    tiles = tronimoes_pictures.read_tiles(view)
    joints = set()
    last: dict[object, tronimoes_pictures.Tile] = {}
    for tile in tiles:
        if tile.line != "leader" and tile.line in last:
            joint = tronimoes_pictures._joint(last[tile.line], tile)
            assert joint is not None
            joints.add(frozenset(joint))
        last[tile.line] = tile

    def between(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
        """In the gap between the two squares' tiles, just off the grid line on their edge."""
        across = (2, 0) if a[1] == b[1] else (0, 2)
        return (round(left + (a[0] + b[0] + 1) * cell / 2) + across[0],
                round(grid_top + (a[1] + b[1] + 1) * cell / 2) + across[1])

    assert len(joints) > 20
    for joint in joints:
        a, b = sorted(joint)
        assert image.getpixel(between(a, b)) != BOARD
    owner = {square: tile.line for tile in tiles for square in tile.squares}
    touching = [(a, (a[0] + dx, a[1] + dy)) for a in owner for dx, dy in ((1, 0), (0, 1))
                if (a[0] + dx, a[1] + dy) in owner and owner[(a[0] + dx, a[1] + dy)] != owner[a]
                and "leader" not in (owner[a], owner[(a[0] + dx, a[1] + dy)])
                and frozenset((a, (a[0] + dx, a[1] + dy))) not in joints]
    assert touching, "the position should have lines that touch"
    assert any(image.getpixel(between(a, b)) == BOARD for a, b in touching)


def test_each_triominoes_seat_marks_its_tiles_with_a_shape_of_its_own():
    masks = [seat_shape(seat, (0, 0, 0), 24).getchannel("A").point(lambda a: 255 if a > 127 else 0)
             for seat in range(len(SHAPES))]
    for a, b in itertools.combinations(range(len(masks)), 2):
        differ = ImageChops.difference(masks[a], masks[b]).histogram()[255]
        assert differ > 40, f"seats {a + 1} and {b + 1} have marks of nearly the same shape"


# ---------------------------------------------------------------------------------------------
# The high-contrast look


def greys_only(png: bytes) -> bool:
    image = decode(png)
    return all(r == g == b for (r, g, b) in (colour for _, colour in image.getcolors(1 << 20) or []))


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_palette_mono_draws_every_board_and_hand_in_greys_only(name):
    game = played(name, 40)
    with drawing_in("mono"):
        assert mono()
        board = render(game)
        hand = render_hand(game, 0)
    assert not mono()
    assert greys_only(board) and greys_only(hand)
    assert not greys_only(render(game))
    assert decode(board).size == decode(render(game)).size


def test_palette_mono_paints_every_tronimoes_seat_in_ink_on_white_faces():
    game = seeded(4, 40)
    with drawing_in("mono"):
        image = decode(render(game))
    greys = sorted({colour[0] for _, colour in image.getcolors(1 << 20) or []})
    assert greys[0] <= 10 and greys[-1] == 255  # black frames and ink, white faces and paper


def test_use_palette_holds_until_changed_and_anything_but_mono_is_the_normal_look():
    try:
        use_palette("mono")
        assert mono()
        use_palette("colours")
        assert not mono()
    finally:
        use_palette(None)


def test_a_blend_of_two_colours_is_the_same_blend_of_their_greys():
    a, b = (0x12, 0x34, 0x56), (0xFE, 0xDC, 0xBA)
    set_grey(a, 0)
    set_grey(b, 200)
    from renderers.common import blend_palette, mix
    blend_palette([a, b], [(a, b, 3)])
    assert grey_of(mix(a, b, 0.25)) == 50


@pytest.mark.parametrize("name", ["tronimoes", "triominoes", "tronix", "tromino_go", "tetromic"])
def test_palette_mono_pictures_match_their_golden_pictures(name):
    """Looked at: every line in ink with its numbers, every seat's shape, letters and dashes."""
    game = late_six() if name == "tronimoes" else played(name, 40)
    with drawing_in("mono"):
        assert_golden(f"mono_{name}", render(game))
