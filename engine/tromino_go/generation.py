"""Every legal placement at once (rules §1.3 step 4), for `legal_actions`, forced passes and the
AI: each empty cell next to a tromino, each orientation and each of its 3 cells on that cell,
checked against a cell map built once. This must agree exactly with the refusals in `game.py`
(the tests compare them on many positions); it only skips building their messages."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from engine.tromino_go.geometry import ORIENTATIONS, Cell

Placement = tuple[str, Cell]
"""(orientation, anchor): the anchor is the lower-left cell of the tromino's 2×2 box."""

_SHAPES = tuple(ORIENTATIONS.items())


def placements(occupied: dict[Cell, int], owners: Sequence[int], same_letter: Sequence[bool], mover: int,
               opening: tuple[int, tuple[int, ...]] | None) -> list[Placement]:
    """The placements that cover only empty cells and obey the touching rules.

    `occupied` maps cells to piece indices (without a lifted piece); `owners[i]` and
    `same_letter[i]` describe piece i; `opening` is (the piece to touch along 2 units, the pieces
    not to touch) for plays 2-4, or None for rules i-iii. An empty grid takes the first play at 0,0."""
    return list(each_placement(occupied, owners, same_letter, mover, opening))


def each_placement(occupied: dict[Cell, int], owners: Sequence[int], same_letter: Sequence[bool], mover: int,
                   opening: tuple[int, tuple[int, ...]] | None) -> Iterator[Placement]:
    """`placements` one at a time, as found: whoever asks whether there is any stops at the first."""
    if not occupied:
        yield from ((name, (0, 0)) for name in ORIENTATIONS)
        return
    frontier = {(x + dx, y + dy) for x, y in occupied for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    frontier.difference_update(occupied)
    seen: set[Placement] = set()
    for fx, fy in frontier:
        for name, offsets in _SHAPES:
            for ox, oy in offsets:
                anchor = (fx - ox, fy - oy)
                key = (name, anchor)
                if key in seen:
                    continue
                seen.add(key)
                ax, ay = anchor
                cells = [(ax + dx, ay + dy) for dx, dy in offsets]
                if any(c in occupied for c in cells):
                    continue
                counts: dict[int, int] = {}
                for cx, cy in cells:
                    for n in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                        index = occupied.get(n)
                        if index is not None:
                            counts[index] = counts.get(index, 0) + 1
                if opening is not None:
                    must, avoid = opening
                    if counts.get(must, 0) >= 2 and not any(a in counts for a in avoid):
                        yield key
                    continue
                if any(same_letter[i] for i in counts):
                    continue
                if not any(owners[i] != mover for i in counts):
                    continue
                if sum(counts.values()) >= 2:
                    yield key
