"""The no-blocking rule, as an exact search.

Every other player whose line is still only the round leader must keep room to lay the first
tile of their line, all of them at the same time: there must be a set of non-overlapping
dominoes of empty squares, one per such player. A chicken-footed player's domino covers their
foot square; anyone else's touches the leader. No domino covers another player's foot square.
Pips are ignored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.tronimoes.board import Grid


@dataclass(frozen=True)
class Claimant:
    """A player whose line is still only the leader; `foot` is set if they started footed."""

    seat: int
    foot: int | None


def most_first_tiles(grid: Grid, occupied: Sequence[int], claimants: Sequence[Claimant],
                     feet: Mapping[int, int]) -> int:
    """How many of `claimants` could each lay a first tile at once (at most all of them).

    `occupied[square]` is true for covered squares; `feet` maps every reserved foot square to
    the seat that reserved it.
    """
    if not claimants:
        return 0
    neighbours = grid.neighbours
    leader = set(grid.leader_squares)
    surround = grid.leader_surround
    reserved_mask = 0
    for square in feet:
        reserved_mask |= 1 << square

    def open_for(square: int, seat: int | None) -> bool:
        if occupied[square]:
            return False
        owner = feet.get(square)
        return owner is None or owner == seat

    footed_options: list[list[int]] = []
    unfooted = 0
    for claimant in claimants:
        if claimant.foot is None:
            unfooted += 1
            continue
        foot = claimant.foot
        options = []
        if open_for(foot, claimant.seat):
            for other in neighbours[foot]:
                if other not in leader and open_for(other, claimant.seat):
                    options.append((1 << foot) | (1 << other))
        footed_options.append(options)

    shared: list[int] = []
    seen: set[int] = set()
    for first in surround:
        if not open_for(first, None):
            continue
        for other in neighbours[first]:
            if other in leader or not open_for(other, None):
                continue
            domino = (1 << first) | (1 << other)
            if domino not in seen:
                seen.add(domino)
                shared.append(domino)
    surround_masks = [1 << square for square in surround if open_for(square, None)]

    total = len(footed_options) + unfooted
    best = 0

    def pack_unfooted(used: int) -> int:
        """Most disjoint shared dominoes avoiding `used`, up to `unfooted`."""
        candidates = [d for d in shared if not d & used]
        most = 0

        def room(taken: int) -> int:
            return sum(1 for mask in surround_masks if not mask & taken)

        def extend(start: int, taken: int, count: int) -> None:
            nonlocal most
            most = max(most, count)
            if most == unfooted or count + room(taken) <= most:
                return
            for index in range(start, len(candidates)):
                domino = candidates[index]
                if not domino & taken:
                    extend(index + 1, taken | domino, count + 1)
                    if most == unfooted:
                        return

        if unfooted:
            extend(0, used, 0)
        return most

    def assign_footed(index: int, used: int, count: int) -> None:
        nonlocal best
        if count + (len(footed_options) - index) + unfooted <= best:
            return
        if index == len(footed_options):
            best = max(best, count + pack_unfooted(used))
            return
        for domino in footed_options[index]:
            if not domino & used:
                assign_footed(index + 1, used | domino, count + 1)
                if best == total:
                    return
        assign_footed(index + 1, used, count)

    assign_footed(0, 0, 0)
    return best


def blocking_region(grid: Grid, claimants: Sequence[Claimant]) -> frozenset[int]:
    """Every square some claimant's first-tile domino could use: a lay that misses all of them
    cannot take room from anyone."""
    region: set[int] = set()
    for square in grid.leader_surround:
        region.add(square)
        region.update(grid.neighbours[square])
    for claimant in claimants:
        if claimant.foot is not None:
            region.add(claimant.foot)
            region.update(grid.neighbours[claimant.foot])
    return frozenset(region - set(grid.leader_squares))
