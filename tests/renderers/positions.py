"""Tronimoes positions the renderer tests draw: the rules text's diagrams and seeded 6-player games.

Every builder returns a fresh game, so a test may change it. `SCENARIOS` names the golden images.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from PIL import Image, ImageDraw

from engine.tronimoes import Tronimoes
from tests.engine.build import game

RED, BLUE, GREEN = 0, 1, 2
THREE = ["red", "blue", "green"]

MURDER = ["7:1 c5 b5 0", "1:2 a5 a4 0", "7:3 d4 c4 1", "3:4 c3 b3 1"]
"""The rules text's murder: blue boxes red in against the edge with 4:6 a3 a2."""


def murder() -> Tronimoes:
    """Three players, so the game goes on after blue kills red: red's line is dead (grey)."""
    g = game(MURDER, [["0:5", "2:6"], ["4:6", "1:1"], ["0:0"]], turn=BLUE, names=THREE)
    g.apply(BLUE, "4:6 a3 a2")
    return g


def murder_round_over() -> Tronimoes:
    """Two players: the murder ends the round, blue is the last line standing (between rounds)."""
    g = game(MURDER, [["0:5", "2:6"], ["4:6", "1:1"]], turn=BLUE)
    g.apply(BLUE, "4:6 a3 a2")
    return g


RED_LINE = ["7:1 e4 f4 0", "1:2 g4 g3 0", "2:3 h3 h4 0"]
WALLS = ["7:4 d6 d7", "4:5 e7 e6", "5:6 f7 f6", "6:0 c7 c6", "0:2 d3 d4", "1:4 g7 g8"]


def box_in() -> Tronimoes:
    """The chicken-foot box-in: blue passed before starting and reserved foot square f5; red's
    3:0 h5 h6 leaves blue only f5-g5, and g5 is boxed in (legal: the box kills on the first tile).
    Green's dead line forms the walls."""
    g = game(RED_LINE + [f"{t} 2 dead" for t in WALLS], [["3:0", "3:6"], ["5:7", "1:1"], []], names=THREE,
             seats=[{}, {"footed": True, "foot": "f5"}, {"dead": True}])
    g.apply(RED, "3:0 h5 h6")
    return g


def box_in_sprung() -> Tronimoes:
    """After the box-in blue lays its first tile through the foot square and its line dies."""
    g = box_in()
    g.apply(BLUE, "7:5 f5 g5")
    return g


def dangling_double() -> Tronimoes:
    """Red's line ends in the double 5:5 (c3 b3): both ends are open."""
    return game(["7:5 d4 d3 0", "5:5 c3 b3 0"], [["5:1"], ["1:1"]])


FREE_BOARD = ["5:5 d5 e5 leader", "5:1 d4 c4 0", "1:2 c3 c2 0", "2:3 c1 b1 0"]


def spacer_down() -> Tronimoes:
    """The rules page's free-line example: the spacer from b2 to b7."""
    g = game(FREE_BOARD, [["6:6", "0:4"], ["0:0"]], leaders=[5], highest=5)
    g.apply(RED, "spacer b2 b7")
    return g


def free_line() -> Tronimoes:
    """...and the free-line leader 6:6 laid off the spacer's far end at c7 d7."""
    g = spacer_down()
    g.apply(RED, "6:6 c7 d7")
    return g


def footed_line() -> Tronimoes:
    """Blue passed with a started line: chicken-footed, its foot at the open end; red is next."""
    g = game(["7:1 e4 e3 0", "7:3 d6 c6 1"], [["3:5"], ["1:1"]], seats=[{}, {"footed": True}], bag=[],
             turn=BLUE)
    return g


LATE_SEED = 23
"""Round 1 of this seed ends after 149 moves with 79 tiles down: four dead lines, a footed
player and a living free line."""


def _choose(g: Tronimoes, rng: random.Random) -> str:
    seat = g.turn
    actions = g.legal_actions(seat)
    lays = [a for a in actions if a[0].isdigit()]
    spacers = [a for a in actions if a.startswith("spacer")]
    if g.spacer is not None and lays:
        return lays[0]
    if spacers and rng.random() < 0.5:
        return rng.choice(spacers)
    if lays:
        return rng.choice(lays)
    return actions[0]


def seeded(seed: int, steps: int | None = None, *, players: int = 6, finish: bool = False) -> Tronimoes:
    """A `players` game from `seed` played by a fixed policy (free lines when it can, else a
    seeded random lay, else draw, else pass) for `steps` moves; when `steps` is None, to the
    last position of round 1 before the move that ends it, or past that move if `finish`."""
    g = Tronimoes.new(players, seed=seed)
    rng = random.Random(seed)
    done = 0
    while g.phase == "playing" and (steps is None or done < steps):
        action = _choose(g, rng)
        if steps is None and not finish:
            trial = g.clone()
            trial.apply(g.turn, action)
            if trial.phase != "playing":
                return g
        g.apply(g.turn, action)
        done += 1
    return g


def game_over() -> Tronimoes:
    """The 0:0 round ends: the game is over; a long name is shortened, letters no shipped font has
    (CJK without a system font, an emoji) are drawn as boxes, never dropped."""
    g = game(["0:0 d5 e5 leader", "0:1 d4 d3 0"], [["1:2"], ["3:4", "5:6"]], leaders=[7, 5, 0],
             seats=[{"score": 4}, {"score": 5}], names=["Zoë Åberg-Łukasiewicz the Magnificent", "李雷 🐔"])
    g.apply(RED, "1:2 d2 d1")
    return g


def four_middle() -> Tronimoes:
    """A 4-player board (12×13, pips to 10) 30 moves in: feet on a dangling 0:0."""
    return seeded(7, 30, players=4)


def five_middle() -> Tronimoes:
    """A 5-player board (14×15, pips to 11) 40 moves in: a kill on a footed line."""
    return seeded(7, 40, players=5)


def hand_game() -> Tronimoes:
    """Red to move with twelve tiles, three of which fit (3:5, 3:3, 1:3 off the 3 at d4)."""
    return game(["7:3 e4 d4 0"], [["3:5", "4:6", "3:3", "1:7", "0:0", "2:7", "3:1", "5:5", "6:6", "0:7", "1:2",
                                   "2:2"], ["1:1"]])


def smiley() -> Image.Image:
    """A player's own chicken-foot picture: a drawn smiley on a transparent ground."""
    picture = Image.new("RGBA", (120, 100), (0, 0, 0, 0))
    draw = ImageDraw.Draw(picture)
    draw.ellipse((10, 0, 110, 100), fill=(255, 200, 0, 255), outline=(0, 0, 0, 255), width=4)
    draw.ellipse((35, 25, 50, 45), fill=(0, 0, 0, 255))
    draw.ellipse((70, 25, 85, 45), fill=(0, 0, 0, 255))
    draw.arc((30, 40, 90, 85), 20, 160, fill=(200, 0, 0, 255), width=6)
    return picture


def late_six() -> Tronimoes:
    """A crowded late-round 6-player board."""
    return seeded(LATE_SEED)


def between_rounds_six() -> Tronimoes:
    """The same game once round 1 is over: waiting for everyone to type ready."""
    return seeded(LATE_SEED, finish=True)


SCENARIOS: dict[str, Callable[[], Tronimoes]] = {
    "murder": murder,
    "murder_round_over": murder_round_over,
    "box_in": box_in,
    "box_in_sprung": box_in_sprung,
    "dangling_double": dangling_double,
    "spacer_down": spacer_down,
    "free_line": free_line,
    "footed_line": footed_line,
    "four_middle": four_middle,
    "five_middle": five_middle,
    "late_six": late_six,
    "between_rounds_six": between_rounds_six,
    "game_over": game_over,
}
