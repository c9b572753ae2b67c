"""Row covers: which of a seat's held pieces, placed where, fill every off cell of a band of
adjacent rows, so that the band clears. Pieces may stick out of the band onto off cells above or
below it (those cells stay on, a start on rows to come).

A piece held costs nothing and a piece placed can never move, so a good packer places pieces only
as part of a cover it can finish now: that clears rows before the phase's draw (drawing after a
level-up brings more pieces) and keeps every other piece free for a better spot later. Playing
alone, packing by the cover that clears the most rows (the fewest pieces among equals), and
otherwise drawing, reached level 10 in 22.5 phases on average (22 to 23) over 50 deals, where
greedy's placement one piece at a time took 23.3 (22 to 26) on the same deals
(`python bench/tetromic.py`). Covers of exactly the band's cells, nothing sticking out, took 25.6
over 12 deals: waiting for pieces that tile a band exactly costs more than the cells left over."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from engine.tetromic.board import OFF, Board
from engine.tetromic.pieces import BY_KIND, KINDS, ORIENTATIONS, Cell

Placement = tuple[str, Cell]
"""An orientation name and its anchor."""

LARGEST_COVER = 6
"""The most pieces a cover may use (a band of 4 empty rows takes 6)."""

TALLEST_BAND = 4
"""The most rows a band may have (one placement clears at most 4)."""

TRIES_PER_BAND = 500
"""How many placements the search of one band may try before it gives the band up. Ruling out a
band no held pieces fill can take thousands (2,393 for four empty rows and seven mixed kinds,
and all seven such bands are tried); with this limit the slowest search of 12 solo games took
40 ms (248 without it) and every game went exactly as before."""


Filling = tuple[str, Placement, frozenset[Cell]]
"""A held kind, a placement of it and the cells it covers."""


def _fillings(cell: Cell, kinds: Counter[str], free: frozenset[Cell]) -> Iterator[Filling]:
    """Every placement of a held kind that covers `cell` using only `free` cells."""
    for kind in KINDS:
        if not kinds[kind]:
            continue
        for name in BY_KIND[kind]:
            offsets = ORIENTATIONS[name]
            for dx, dy in offsets:
                ax, ay = cell[0] - dx, cell[1] - dy
                cells = frozenset((ax + ox, ay + oy) for ox, oy in offsets)
                if cells <= free:
                    yield kind, (name, (ax, ay)), cells


def _cover(band: frozenset[Cell], free: frozenset[Cell], kinds: Counter[str], room: int,
           tries: list[int]) -> list[Placement] | None:
    """Placements of at most `room` pieces of `kinds` covering every cell of `band` (a subset of
    `free`) without overlapping, or None (also once `tries[0]` placements have been tried, which
    counts them down). The lowest, leftmost uncovered cell is always filled next, so each cover is
    found once."""
    if not band:
        return []
    if room == 0 or len(band) > 4 * room:
        return None
    cell = min(band, key=lambda c: (c[1], c[0]))
    for kind, placement, cells in _fillings(cell, kinds, free):
        tries[0] -= 1
        if tries[0] < 0:
            return None
        kinds[kind] -= 1
        rest = _cover(band - cells, free - cells, kinds, room - 1, tries)
        kinds[kind] += 1
        if rest is not None:
            return [placement, *rest]
    return None


def best_cover(board: Board, hand: list[str]) -> list[Placement] | None:
    """The placements of held pieces that clear the most rows at once (the fewest pieces among
    covers of as many rows, then the lowest band), or None if no band of rows can be filled."""
    off_by_row = [frozenset((x, y) for x, cell in enumerate(row) if cell == OFF) for y, row in enumerate(board.cells)]
    off = frozenset().union(*off_by_row)
    kinds = Counter(hand)
    room = min(len(hand), LARGEST_COVER)
    best: tuple[tuple[int, int], list[Placement]] | None = None
    for rows in range(TALLEST_BAND, 0, -1):
        if best is not None and best[0][0] > rows:
            break
        for bottom in range(board.height - rows + 1):
            band = frozenset().union(*off_by_row[bottom:bottom + rows])
            if not band:
                continue
            cover = _cover(band, off, kinds, room if best is None else min(room, -best[0][1] - 1), [TRIES_PER_BAND])
            if cover is not None and (best is None or (rows, -len(cover)) > best[0]):
                best = ((rows, -len(cover)), cover)
    return best[1] if best else None
