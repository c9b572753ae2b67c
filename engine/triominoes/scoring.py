"""What a lay scores (rules §2.1 and §2.3): the opening's bonus, the tile's numbers, hexagons
and bridges; and the words an announcement names them with."""

from __future__ import annotations

from typing import Protocol

from engine.core import N_, Term, join_names, phrase
from engine.triominoes import rounds
from engine.triominoes.board import Board, Bonus
from engine.triominoes.geometry import Cell
from engine.triominoes.options import TriominoesOptions
from engine.triominoes.tiles import Corners, Tile, tile_of, value

BRIDGE_POINTS = 40


class ScoringView(Protocol):
    """What scoring reads of a Triominoes game."""

    board: Board
    pending: rounds.Opening | None
    round: int

    @property
    def options(self) -> TriominoesOptions: ...


def points_for(game: ScoringView, numbers: Corners, cell: Cell) -> tuple[int, Bonus]:
    """What laying this reading on the empty `cell` scores now, and the bonus it counts (a
    bridge is not counted beside a hexagon unless the options say so)."""
    tile = tile_of(numbers)
    options = game.options
    if game.pending is not None:
        bonus_opening = options.opening == "pressman" or game.round == 1
        return rounds.opening_points(tile, with_bonus=bonus_opening), Bonus()
    bonus = game.board.bonus_if(cell, numbers, extensions=options.bridge_extensions)
    points = value(tile)
    if bonus.hexagons:
        count = len(bonus.hexagons)
        points += 50 * count if options.hexagons == "pressman" else 40 + 10 * count
    if bonus.bridge is not None and (not bonus.hexagons or options.hexagon_and_bridge):
        points += BRIDGE_POINTS
    elif bonus.bridge is not None:
        bonus = Bonus(bonus.hexagons)
    return points, bonus


def bonus_words(game: ScoringView, tile: Tile, points: int, bonus: Bonus) -> Term:
    """How a lay's announcement names what it made: the opening (with its triple's bonus or
    without), or its hexagons and bridge; empty for a plain lay."""
    if game.pending is not None:
        return Term(N_("opening") if points == value(tile) else N_("opening triple"))
    words: list[str] = []
    if bonus.hexagons:
        count = len(bonus.hexagons)
        words.append(phrase(N_("a hexagon")) if count == 1 else phrase(N_("{count} hexagons"), count=count))
    if bonus.bridge is not None:
        words.append(phrase(N_("adds to a bridge") if bonus.extension else N_("a bridge")))
    said = join_names(words)
    return said if isinstance(said, Term) else Term(said)
