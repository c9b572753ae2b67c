"""The Tronimoes board in words states what a player needs: each line's owner, its open end
square and the number it needs, the chicken-footed players and their foot squares, the dead
lines, the spacer and the free lines; it never says a hand (but the viewer's own) or the bag."""

from __future__ import annotations

import re

from bot.core.i18n import speaking
from engine.tronimoes import Tronimoes
from renderers import describe
from tests.engine.build import game
from tests.renderers.positions import free_line, murder, murder_round_over, seeded, spacer_down

THREE = ["red", "blue", "green"]


def footed() -> Tronimoes:
    """Red's line ends at b5 (needs a 1), blue's at g5 (needs a 3) and blue is chicken-footed
    with its foot at h4; green has not started. Red holds 6:6 and 2:5, blue 4:6 and 1:1, green
    0:0; the bag holds 0:1, 0:2 and 0:3."""
    return game(["7:1 c5 b5 0", "7:3 f5 g5 1"], [["6:6", "2:5"], ["4:6", "1:1"], ["0:0"]], turn=1, names=THREE,
                 seats=[{}, {"footed": True, "foot": "h4"}, {}], bag=["0:1", "0:2", "0:3"])


def test_an_open_end_says_the_number_it_needs():
    said = describe(footed())
    assert "red (seat 1)'s line: open end b5 needs 1, 1 tile" in said
    assert "green (seat 3)'s line: not started, lays next to the leader at d5 e5, needs 7" in said


def test_whose_turn_the_scores_and_the_last_move_come_first():
    said = describe(murder())
    first = said.splitlines()[0]
    assert first.startswith("Tronimoes board. green (seat 3) to move. Scores: red -1, blue 1, green 0.")
    assert first.endswith("Last move: blue (seat 2) played 4:6 a3 a2.")


def test_a_chicken_footed_line_says_others_may_lay_on_it_and_where_the_foot_is():
    said = describe(footed())
    assert "blue (seat 2)'s line: open end g5 needs 3, 1 tile (chicken-footed: others may lay on it)" in said
    assert "Chicken-footed: blue (seat 2), foot square h4." in said


def test_a_dead_line_is_said_with_its_owner_and_left_out_of_the_living_lines():
    said = describe(murder())
    assert "Dead lines: red (seat 1)'s line, 2 tiles." in said and "Dead players: red (seat 1)." in said
    living = next(line for line in said.splitlines() if line.startswith("Lines:"))
    assert "red" not in living


def test_the_spacer_says_where_the_free_line_must_start():
    said = describe(spacer_down())
    assert ("the spacer lies from b2 to b7: the only tile to lay is a double next to b7, starting a free line"
            in said)


def test_a_free_line_is_said_with_its_open_ends_and_the_number_they_need():
    said = describe(free_line())
    assert "free line 1: not started" in said or "free line 1: open ends c7 d7 need 6" in said
    assert "the spacer" not in said


def test_no_hand_and_no_bag_is_said_but_the_viewers_own_hand():
    g = footed()
    public = describe(g)
    for hidden in ("6:6", "2:5", "4:6", "1:1", "0:0", "0:1", "0:2", "0:3", "Your hand"):
        assert hidden not in public
    red = describe(g, 0)
    assert "Your hand: 6:6; 2:5." in red
    assert not any(tile in red for tile in ("4:6", "1:1", "0:0", "0:1", "0:2", "0:3"))
    assert "Tiles in hand: red 2; blue 2; green 1; the bag 3." in public


def test_a_spanish_table_hears_the_board_in_spanish():
    with speaking("es"):
        said = describe(footed())
    assert "Le toca a blue (asiento 2)." in said and "extremo abierto b5 necesita 1" in said
    assert "pata de gallo" in said and "needs" not in said


def test_between_rounds_the_round_that_ended_and_what_it_paid_are_said():
    said = describe(murder_round_over())
    assert said.startswith("Tronimoes board. Between rounds: waiting for red (seat 1), blue (seat 2) to be ready.")
    assert "round 1 is over: blue is the last line standing (red -1, blue +3)" in said


def _square(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("a"), int(name[1:])


def test_every_lay_next_to_a_said_open_end_carries_the_number_it_says_is_needed():
    checked = 0
    for seed in (3, 11):
        for steps in range(4, 80, 4):
            g = seeded(seed, steps, players=4)
            said = describe(g)
            needs = {_square(square): int(pips)
                     for squares, pips in re.findall(r"open ends? ([a-z0-9 ]+?) needs? ([0-9]+)", said)
                     for square in squares.split()}
            for action in g.legal_actions(g.turn) if g.phase == "playing" else []:
                parts = action.split()
                if ":" not in parts[0]:
                    continue
                x, y = _square(parts[1])
                beside = [pips for (ex, ey), pips in needs.items() if abs(ex - x) + abs(ey - y) == 1]
                if len(beside) == 1:  # next to one said open end only: the lay is on that line
                    assert int(parts[0].split(":")[0]) == beside[0], (action, said)
                    checked += 1
    assert checked >= 20
