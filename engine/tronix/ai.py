"""Tronix greedy play (`engine.ai` registers it): the action that wins the seat's team the most
cards minus the other team's (a TRONIX counts like any score, and ends the game); among equals,
the one that leaves the other team the fewest circuits a single card could close (an open line,
mostly of their colour, whose two free ends face the same empty cell), then the one that keeps
the most such chances for the seat's own team, then the one landing among the most cards (a
compact table closes circuits); then the first in canonical order.

Tronix offers thousands of actions in God Mode, so each is judged on the table's patterns alone
(the lines through the card it moves), not by applying it to a copy of the game. Nothing hidden
is looked at: the table is public, and only the seat's own hand decides its placements."""

from __future__ import annotations

from collections.abc import Mapping

from engine.ai import Heuristics
from engine.core import Game
from engine.tronix import notation
from engine.tronix.cards import GREEN, PINK, PORT_STEP, Cell, neighbours
from engine.tronix.game import GOD, Tronix
from engine.tronix.lines import THROUGH, Line, line_through, shares
from engine.tronix.notation import Move, Play


def gain(before: Game, seat: int, after: Game) -> float:
    """Cards the action won the seat's team minus those it gave the other team."""
    assert isinstance(before, Tronix) and isinstance(after, Tronix)
    mine = before.team_of(seat)
    theirs = PINK if mine == GREEN else GREEN
    return float((after.piles[mine] - before.piles[mine]) - (after.piles[theirs] - before.piles[theirs]))


def ranked(game: Game, seat: int) -> list[str]:
    assert isinstance(game, Tronix)
    actions = game.legal_actions(seat)
    if len(actions) <= 1:
        return actions
    mine = game.team_of(seat)
    theirs = PINK if mine == GREEN else GREEN
    table = game.patterns()
    now = closable(table)
    hot = _hot_cells(table, now[theirs] + now[mine])
    keyed = []
    for index, action in enumerate(actions):
        after, landed, left = _patterns_after(table, action)
        won = _won(after, landed, game.phase == GOD)
        score = won[mine] - won[theirs]
        if landed in hot or left in hot:
            chances = closable(after)
            block = (-float(len(chances[theirs])), float(len(chances[mine])))
        else:
            block = (-float(len(now[theirs])), float(len(now[mine])))
        snug = float(sum(1 for n in neighbours(landed) if n in after))
        keyed.append(((float(score), *block, snug), index, action))
    keyed.sort(key=lambda item: (tuple(-k for k in item[0]), item[1]))
    return [action for _, _, action in keyed]


def _patterns_after(table: Mapping[Cell, str], action: str) -> tuple[dict[Cell, str], Cell, Cell | None]:
    """The table's patterns after `action`, where its card lands, and the cell it left."""
    move = notation.read(action)
    after = dict(table)
    if isinstance(move, Play):
        after[move.cell] = move.pattern
        return after, move.cell, None
    if isinstance(move, Move):
        del after[move.source]
        after[move.target] = move.pattern
        return after, move.target, move.source
    after[move.cell] = move.pattern
    return after, move.cell, None


def _won(table: dict[Cell, str], landed: Cell, god: bool) -> dict[str, int]:
    """Cards each team would win: the circuits through the landed card, or, in God Mode with
    none, a TRONIX through it."""
    first = line_through(table, (landed, GREEN))
    lines = [first] if (landed, PINK) in first.segments else [first, line_through(table, (landed, PINK))]
    closed = [line for line in lines if line.closed]
    won = {GREEN: 0, PINK: 0}
    if not closed and god:
        closed = [line for line in lines if not line.closed and len(table) >= 2 and line.cells() == set(table)]
    for colours in shares(closed).values():
        if len(colours) == 1:
            won[next(iter(colours))] += 1
    return won


def _hot_cells(table: Mapping[Cell, str], threats: list[Cell]) -> set[Cell]:
    """Cells where a card landing or leaving may change the closable counts: the threatened
    empty cells and everything around them."""
    hot = set(threats)
    for cell in threats:
        hot.update(neighbours(cell))
    return hot


def closable(table: Mapping[Cell, str]) -> dict[str, list[Cell]]:
    """For each colour, the empty cells where one card could close an open line of mostly that
    colour (both of the line's free ends face the cell)."""
    parent: dict[tuple[Cell, str], tuple[Cell, str]] = {}

    def root(segment: tuple[Cell, str]) -> tuple[Cell, str]:
        while parent[segment] != segment:
            parent[segment] = parent[parent[segment]]
            segment = parent[segment]
        return segment

    entering: dict[Cell, list[tuple[Cell, str]]] = {}
    for cell, pattern in table.items():
        for colour in (GREEN, PINK):
            parent.setdefault((cell, colour), (cell, colour))
        for port, (colour, _) in THROUGH[pattern].items():
            dx, dy = PORT_STEP[port]
            other = (cell[0] + dx, cell[1] + dy)
            facing = table.get(other)
            if facing is None:
                entering.setdefault(other, []).append((cell, colour))
                continue
            partner = (other, THROUGH[facing][(port + 2) % 4][0])
            parent.setdefault(partner, partner)
            a, b = root((cell, colour)), root(partner)
            if a != b:
                parent[a] = b
    greens: dict[tuple[Cell, str], int] = {}
    sizes: dict[tuple[Cell, str], int] = {}
    for segment in parent:
        top = root(segment)
        sizes[top] = sizes.get(top, 0) + 1
        greens[top] = greens.get(top, 0) + (segment[1] == GREEN)
    found: dict[str, list[Cell]] = {GREEN: [], PINK: []}
    for cell, ends in sorted(entering.items()):
        roots = [root(segment) for segment in ends]
        for line in {r for r in roots if roots.count(r) == 2}:
            found[GREEN if 2 * greens[line] >= sizes[line] else PINK].append(cell)
    return found


def tie_break(game: Game, seat: int, action: str, after: Game) -> tuple[float, ...]:
    """The same blocking judgement for agents that try actions on a copy (rollouts)."""
    assert isinstance(after, Tronix)
    if after.outcome() is not None:
        return (0.0, 0.0)
    chances = closable(after.patterns())
    mine = after.team_of(seat)
    theirs = PINK if mine == GREEN else GREEN
    return (-float(len(chances[theirs])), float(len(chances[mine])))


__all__ = ["Line", "TronixHeuristics", "closable", "gain", "ranked", "tie_break"]


class TronixHeuristics(Heuristics):
    """Tronix for the shared agents: the functions above."""

    def tie_break(self, before: Game, seat: int, action: str, after: Game) -> tuple[float, ...]:
        return tie_break(before, seat, action, after)

    def gain(self, before: Game, seat: int, after: Game) -> float:
        return gain(before, seat, after)

    def ranked(self, game: Game, seat: int) -> list[str] | None:
        return ranked(game, seat)
