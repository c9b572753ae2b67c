"""How legible each game's board picture is at the size Discord first shows it, one JSON line
per game and table language: the pictures' sizes, the smallest text on them (its font size and
the height of its digits, in full and at the preview's scale), and the median time to draw one.

Discord shows an image attached to a message scaled down (never up) to fit a preview, and opens
it full size only when clicked. Two models of that preview are reported:

* `at_width`: the picture scaled to the preview's width, 550 px (`--width`): what the issue
  measures ("text height in pixels at the preview width");
* `in_box`: the picture fitted inside the preview box, 550 × 350 px (`--box`; Discord's desktop
  and web clients; older clients and embeds used 400 × 300), where a tall picture is shrunk by
  its height.

The 550 × 350 box is our reading of Discord's client, not a documented figure; the 400 × 300 box
of older clients is documented by measurement in leovoel/embed-visualizer#30.

Positions: seeded random games of each game after a few moves, in the middle, later, and played
to the end, at an English and a Spanish table. Every text drawn through
`renderers.text.draw_text` is measured (labels, numbers on pieces, headers); the badges drawn as
sprites on Tronimoes tiles are not.

    python bench/legibility.py [--width 550] [--box 550x350] [--seeds 4]
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass

import benchpath  # noqa: F401  (must come before the project's imports)
from PIL import Image

from bot.core.i18n import speaking
from engine import GAMES
from engine.core import Game
from renderers import render
from renderers.text import digit_height, recording

PLAYERS = {"tronimoes": 4, "tromino_go": 2, "triominoes": 3, "tronix": 4, "tetromic": 3}
STAGES = (6, 30, 80, None)
"""Random moves played before the picture is taken (None: to the end of the game)."""


def positions(name: str, seeds: int) -> Iterator[Game]:
    """Seeded random games of `name` after each of STAGES moves."""
    for seed in range(seeds):
        for moves in STAGES:
            game = GAMES[name].new(PLAYERS[name], seed=seed)
            rng = random.Random(seed)
            left = moves
            while game.outcome() is None and (left is None or left > 0):
                seat = rng.choice(game.to_move())
                game.apply(seat, rng.choice(game.legal_actions(seat)))
                left = None if left is None else left - 1
            yield game


@dataclass(frozen=True)
class Picture:
    width: int
    height: int
    size: int
    """The smallest text's size in pixels."""
    text: str
    milliseconds: float

    def scale(self, box: tuple[float, float]) -> float:
        return min(1.0, box[0] / self.width, box[1] / self.height)

    def at_preview(self, box: tuple[float, float]) -> float:
        """The smallest text's digit height in pixels once the picture is fitted in `box`."""
        return digit_height(self.size) * self.scale(box)


def measure(game: Game) -> Picture:
    """One picture: its size, its smallest text and the median time to draw it."""
    with recording() as record:
        png = render(game, None)
    assert record.page is not None
    width, height = Image.open(io.BytesIO(png)).size
    text, size = min(record.sizes_on(record.page), key=lambda pair: pair[1])
    times = []
    for _ in range(3):
        start = time.perf_counter()
        render(game, None)
        times.append((time.perf_counter() - start) * 1000)
    return Picture(width, height, size, text, statistics.median(times))


def model(pictures: list[Picture], box: tuple[float, float]) -> dict[str, object]:
    """The worst picture under one preview model: the smallest scale and the smallest digits."""
    worst = min(pictures, key=lambda p: p.at_preview(box))
    return {"scale_min": round(min(p.scale(box) for p in pictures), 3),
            "digit_px": round(worst.at_preview(box), 1),
            "digit_px_median": round(statistics.median(p.at_preview(box) for p in pictures), 1)}


def summary(name: str, language: str, pictures: list[Picture], width: float,
            box: tuple[float, float]) -> dict[str, object]:
    smallest = min(pictures, key=lambda p: p.size)
    return {
        "game": name,
        "language": language,
        "pictures": len(pictures),
        "width": [min(p.width for p in pictures), max(p.width for p in pictures)],
        "height": [min(p.height for p in pictures), max(p.height for p in pictures)],
        "smallest_text_px": smallest.size,
        "smallest_text": smallest.text,
        "digit_px_full": digit_height(smallest.size),
        "at_width": model(pictures, (width, float("inf"))),
        "in_box": model(pictures, box),
        "render_ms_median": round(statistics.median(p.milliseconds for p in pictures), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=550, help="the preview's width in pixels")
    parser.add_argument("--box", default="550x350", help="the preview box, WIDTHxHEIGHT in pixels")
    parser.add_argument("--seeds", type=int, default=4, help="games per stage")
    args = parser.parse_args()
    box_width, box_height = (float(n) for n in args.box.lower().split("x"))
    for name in PLAYERS:
        for language in ("en", "es"):
            with speaking(language):
                pictures = [measure(game) for game in positions(name, args.seeds)]
            print(json.dumps(summary(name, language, pictures, args.width, (box_width, box_height)),
                             ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
