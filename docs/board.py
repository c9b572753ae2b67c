"""Draw the README's picture, docs/board.png: a Tronimoes table of four in the middle of its
first round, played by greedy AI seats from a fixed seed and drawn by the project's own renderer
(the public board, as every player sees it after a move).

    python docs/board.py [PATH]        (default: docs/board.png next to this script)
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.ai import GreedyAgent
from engine.tronimoes import Tronimoes
from renderers import render

SEED = 3
MOVES = 40
NAMES = ["Ana", "Bruno", "Chen", "Dara"]


def position() -> Tronimoes:
    """The game after `MOVES` greedy moves (or at the end of its first round, if sooner)."""
    game = Tronimoes.new(len(NAMES), seed=SEED, names=NAMES)
    agent = GreedyAgent()
    for _ in range(MOVES):
        if game.phase != "playing":
            break
        seat = game.to_move()[0]
        game.apply(seat, agent.choose(game, seat))
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=Path(__file__).with_name("board.png"))
    path = parser.parse_args().path
    data = render(position())
    path.write_bytes(data)
    print(f"{path}: {len(data) // 1024} KB")


if __name__ == "__main__":
    main()
