"""Tetromic heuristics for the shared agents (`engine.ai`). Greedy ranks placements per §2.4:
rows cleared first, then how full the rows are (squared, so nearly full rows count most), with
a penalty for single off cells shut in on every side, which no piece can ever fill. The planning
agent packs by row covers instead (`engine.tetromic.packing`): it places a piece only as part of
a set of held pieces that clears rows now, and otherwise draws."""

from __future__ import annotations

import random

from engine.ai import Heuristics
from engine.core import Game
from engine.tetromic.board import OFF, Board
from engine.tetromic.game import Tetromic
from engine.tetromic.notation import canonical_play
from engine.tetromic.packing import LARGEST_COVER, best_cover
from engine.tetromic.pieces import placed_cells


def board_value(board: Board) -> float:
    """How good a board looks for packing: full-ish rows, no dead holes."""
    fill = sum(sum(1 for c in row if c != OFF) ** 2 for row in board.cells) / (board.width ** 2)
    holes = 0
    for y, row in enumerate(board.cells):
        for x, cell in enumerate(row):
            if cell == OFF and all(not board.inside(n) or not board.is_off(n)
                                   for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))):
                holes += 1
    return fill - 2.0 * holes


def tie_break(game: Game, seat: int, action: str, after: Game) -> tuple[float, ...]:
    assert isinstance(after, Tetromic)
    me = after.seats[seat]
    rows = float(me.cleared - game.seats[seat].cleared) if isinstance(game, Tetromic) else 0.0
    placing = 1.0 if action.startswith("play ") else 0.0
    drawing = 1.0 if action == "draw" else 0.0
    return (rows, placing, board_value(me.board), drawing)


def packing_action(game: Game, seat: int) -> str:
    """The next piece of the best row cover the seat's hand makes (`packing.best_cover`); with
    none, a draw (or, having drawn, `skip`). A hand grown past any cover's size with no cover in
    sight places its best piece as greedy would, so a board no cover fits still moves on."""
    assert isinstance(game, Tetromic)
    me = game.seats[seat]
    cover = best_cover(me.board, me.hand)
    if cover:
        orientation, anchor = cover[0]
        return canonical_play(orientation, anchor)
    actions = game.legal_actions(seat)
    plays = [a for a in actions if a.startswith("play ")]
    if plays and len(me.hand) > LARGEST_COVER:
        return max(plays, key=lambda a: _value_after(game, seat, a))
    for word in ("draw", "skip"):
        if word in actions:
            return word
    return actions[0]


def _value_after(game: Tetromic, seat: int, action: str) -> float:
    board = game.seats[seat].board.copy()
    _, orientation, anchor = action.split()
    x, y = (int(v) for v in anchor.split(","))
    board.place(placed_cells(orientation, (x, y)), "x")
    return 10.0 * len(board.full_rows()) + board_value(board)


def leaf_value(game: Game, seat: int) -> float:
    assert isinstance(game, Tetromic)
    me = game.seats[seat]
    return me.points / (me.level + 1) + 0.05 * board_value(me.board)


class TetromicHeuristics(Heuristics):
    """Tetromic for the shared agents: the functions above. The planning agent's favourite and
    its simulated players pack by row covers (`packing_action`); simulations stop after 8 actions
    (about a phase) and judge the boards by `leaf_value`.

    Greedy playing alone reached level 10 in 22 to 26 phases (23.4 on average over 12 deals):
    which of two packers wins is much the luck of the draws, and simulations of greedy's own
    play found little it missed (48 a move won 7 of 12 games against it). Packing by covers
    takes a phase less on average (see `engine.tetromic.packing`), and with it 48 simulations a
    move won 20 of 20 games against greedy (`bench/ai.py --game tetromic`)."""

    easy_slips = 0.83
    """Random play won 5.5 of 20 two-player games against easy at 0.83 (3 of 20 at 0.8, 12 of 30 at 0.85)."""

    depth = 8
    tree_search = False
    """Players never touch each other's boards, so there are no replies to weigh, and the
    rollout packs by one fixed rule: `hard` searched a tree and won 4 of 12 games against
    normal (the flat comparison, 6 of 12), with half the simulations."""

    tie_break = staticmethod(tie_break)
    leaf_value = staticmethod(leaf_value)

    def favourite(self, game: Game, seat: int) -> str | None:
        return packing_action(game, seat)

    def rollout(self, game: Game, seat: int, rng: random.Random) -> str:
        return packing_action(game, seat)
