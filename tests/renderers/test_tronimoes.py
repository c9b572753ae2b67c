"""The Tronimoes board and hand images: golden pictures, privacy, Discord limits, determinism.

Golden images live in tests/renderers/golden/ (regenerate with UPDATE_GOLDEN=1, then look at
every one). Positions come from tests/renderers/positions.py.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from engine.tronimoes import Tronimoes
from renderers import RENDERERS, render, render_hand
from renderers.common import HIGHLIGHT, encode_png
from renderers.tronimoes import pictures as board_renderer
from renderers.tronimoes.panel import TEXT, hand_slots
from renderers.tronimoes.style import SPACER_FILL, cell_size, palette
from tests.engine.build import game
from tests.renderers.golden import assert_golden, decode
from tests.renderers.positions import (
    BLUE,
    FREE_BOARD,
    RED,
    SCENARIOS,
    box_in,
    footed_line,
    hand_game,
    late_six,
    seeded,
    smiley,
)

ROOT = Path(__file__).resolve().parents[2]


def board(g: Tronimoes, viewer: int | None = None, **kwargs) -> bytes:
    """The board PNG, checked to decode as a PNG."""
    data = board_renderer.board(g, viewer, **kwargs)
    decode(data)
    return data


def hand(g: Tronimoes, seat: int) -> bytes:
    """The hand PNG, checked to decode as a PNG."""
    data = board_renderer.hand(g, seat)
    decode(data)
    return data


# =============================================================================================
# golden pictures


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_board_matches_golden(name):
    assert_golden(name, board(SCENARIOS[name]()))


def test_players_own_foot_picture_and_your_seat_match_golden():
    assert_golden("footed_line_picture_you", board(footed_line(), RED, feet={BLUE: smiley()}))
    assert_golden("box_in_picture_you", board(box_in(), BLUE, feet={BLUE: smiley()}))


def test_hand_images_match_golden():
    assert_golden("hand_your_turn", hand(hand_game(), RED))
    assert_golden("hand_waiting", hand(hand_game(), BLUE))
    late = late_six()
    assert_golden("hand_late_six", hand(late, late.turn))


# =============================================================================================
# hidden information


def _reshuffle_hidden(g: Tronimoes, seed: int) -> Tronimoes:
    """A copy with every hand and the bag dealt afresh from the same unseen tiles, each hand
    keeping its size: everything public stays the same."""
    other = g.clone()
    unseen = [t for s in other.seats for t in s.hand] + list(other.bag)
    random.Random(seed).shuffle(unseen)
    for seat in other.seats:
        seat.hand, unseen = unseen[:len(seat.hand)], unseen[len(seat.hand):]
    other.bag = unseen
    other._changed()
    return other


def _states() -> list[Tronimoes]:
    return [late_six(), seeded(3, 40, players=4), seeded(5, 12, players=2), seeded(8, 25, players=3), box_in()]


@pytest.mark.parametrize("index", range(5))
def test_the_public_board_does_not_change_when_hidden_tiles_do(index):
    g = _states()[index]
    hidden = _reshuffle_hidden(g, index)
    assert [s.hand for s in hidden.seats] != [s.hand for s in g.seats] or hidden.bag != g.bag
    assert board(g) == board(hidden)
    for seat in range(g.players):
        assert board(g, seat) == board(hidden, seat)


def test_the_board_asks_the_game_only_for_the_public_view(monkeypatch):
    g = late_six()
    asked = []
    real_view = g.view

    def spy(seat):
        asked.append(seat)
        return real_view(seat)

    monkeypatch.setattr(g, "view", spy)
    board(g, viewer=2, feet={5: smiley()})
    render(g, 3)
    assert asked and set(asked) == {None}


def test_the_board_is_drawn_from_a_view_without_hands_and_ignores_private_keys():
    g = late_six()
    public = g.view(None)
    assert "hand" not in public and "bag" not in public
    expected = encode_png(board_renderer.draw_board(public), palette())
    decode(expected)
    for seat in range(g.players):
        private = g.view(seat)
        assert "hand" in private
        assert encode_png(board_renderer.draw_board(private), palette()) == expected


def test_a_viewer_changes_only_the_header():
    g = late_six()
    public = decode(board(g))
    mine = decode(board(g, 3))
    assert public.size == mine.size
    header = board_renderer.panel.Header(g.view(None), None, {}, public.width).height
    box = (0, header, public.width, public.height)
    assert public.crop(box).tobytes() == mine.crop(box).tobytes()
    assert public.crop((0, 0, public.width, header)).tobytes() != mine.crop((0, 0, public.width, header)).tobytes()


# =============================================================================================
# fit for Discord


@pytest.mark.parametrize("players", range(1, 7))
def test_board_and_hand_fit_discord_for_every_player_count(players):
    g = seeded(players, 15, players=players)
    image = decode(board(g))
    assert image.width <= 1600
    assert decode(hand(g, g.turn)).width <= 1600


def test_a_huge_hand_still_fits():
    tiles = [f"{a}:{b}" for a in range(8) for b in range(a, 8) if (a, b) != (7, 7)]
    g = game([], [tiles[:30], tiles[30:31]], bag=[])
    image = decode(hand(g, RED))
    assert image.width <= 1600 and image.height <= 1600
    assert len(hand_slots(30)) == 30


def test_a_crowded_late_six_player_board_is_well_under_300_kb():
    g = late_six()
    assert len(g.board) >= 75 and sum(s.dead for s in g.seats) >= 3
    assert len(board(g)) <= 300_000
    noisy = Image.effect_noise((256, 256), 120).convert("RGB")
    feet = dict.fromkeys(range(6), noisy)
    assert len(board(g, feet=feet)) <= 300_000


def test_pips_and_labels_stay_legible_at_half_size():
    """At half size a six-player square is still 32 px, pips stay 5 px wide or more, and header
    text 13 px."""
    assert cell_size(16) // 2 >= 32
    assert int(0.086 * cell_size(16) * 2) // 2 >= 5
    assert TEXT // 2 >= 13


def test_an_open_ends_badge_is_never_drawn_on_the_spacer():
    """A spacer starts next to an open end, often straight on from it, where the end's badge
    goes: the badge moves to a free side instead."""
    g = game(FREE_BOARD, [["6:6", "0:4"], ["0:0"]], leaders=[5], highest=5)
    g.apply(RED, "spacer a1 a6")  # straight on from red's open end at b1
    image = decode(board(g))
    spacer = [(x, y) for x in range(image.width) for y in range(image.height) if image.getpixel((x, y)) == SPACER_FILL]
    left, top = min(x for x, _ in spacer), min(y for _, y in spacer)
    right, bottom = max(x for x, _ in spacer), max(y for _, y in spacer)
    badge = board_renderer.line_colour(RED)
    assert badge in {image.getpixel((x, y)) for x in range(image.width) for y in range(image.height)}
    assert not any(image.getpixel((x, y)) == badge for x in range(left, right + 1) for y in range(top, bottom + 1))


# =============================================================================================
# determinism


def test_the_same_state_always_gives_the_same_bytes():
    g = late_six()
    first = board(g)
    assert board(g) == first
    assert board(g.clone()) == first
    assert board(Tronimoes.from_json(g.to_json())) == first
    assert hand(g, 1) == hand(g.clone(), 1)


def test_a_fresh_process_draws_the_same_bytes():
    """No hidden state (caches, fonts loaded on first use) changes the picture."""
    script = ("import sys, hashlib; from tests.renderers.positions import late_six, smiley; "
              "from renderers.tronimoes.pictures import board; "
              "sys.stdout.write(hashlib.sha256(board(late_six(), 1, feet={2: smiley()})).hexdigest())")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    import hashlib

    here = hashlib.sha256(board(late_six(), 1, feet={2: smiley()})).hexdigest()
    assert result.stdout == here


# =============================================================================================
# the hand image


def test_the_hand_lists_every_tile_and_highlights_exactly_the_playable_ones():
    g = hand_game()
    mine = g.view(RED)
    assert mine["playable"] == ["3:5", "3:3", "1:3"]
    image = decode(hand(g, RED))
    slots = hand_slots(len(mine["hand"]))
    assert len(slots) == 12
    for name, (left, top, right, bottom) in zip(mine["hand"], slots, strict=True):
        ring = image.crop((left - 5, top - 5, right + 5, bottom + 5))
        lit = any(colour == HIGHLIGHT for _, colour in ring.getcolors(1 << 16) or [])
        assert lit == (name in mine["playable"]), name


def test_a_hand_between_rounds_has_no_highlight():
    g = SCENARIOS["murder_round_over"]()
    data = hand(g, BLUE)
    image = decode(data)
    assert HIGHLIGHT not in {colour for _, colour in image.getcolors(1 << 16) or []}


# =============================================================================================
# the package entry points


def test_render_and_render_hand_dispatch_to_the_tronimoes_renderer():
    g = late_six()
    assert RENDERERS["tronimoes"].board is board_renderer.board
    assert decode(render(g)) and render(g) == board(g)
    assert render(g, 2, feet={2: smiley()}) == board(g, 2, feet={2: smiley()})
    assert decode(render_hand(g, 4)) and render_hand(g, 4) == hand(g, 4)


def test_a_seat_outside_the_game_is_refused():
    with pytest.raises(ValueError, match="seat 7"):
        board(late_six(), 7)


def test_the_text_board_counts_one_tile_in_the_singular():
    from engine.tronimoes import Tronimoes
    from renderers.tronimoes.text_board import _summary

    view = Tronimoes.new(2, seed=1, names=["ada", "bo"]).view(None)
    view["seats"][0]["hand_size"] = 1
    summary = "\n".join(_summary(view))
    assert "ada: 0 pts, 1 tile\n" in summary and " 1 tiles" not in summary and "bo: 0 pts, 9 tiles" in summary
