"""Lines through the cards on the table (rules §3.3): a segment is one card's green or pink
line; at each end it runs on into the neighbour's segment at the facing port. A line is a chain
of segments: closed (a CIRCUIT) or open. A TRONIX is an open line through every card."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.tronix.cards import COLOURS, PATTERNS, PORT_STEP, Cell, segment_ports

Segment = tuple[Cell, str]
"""(cell, colour): one line of one card."""

THROUGH: dict[str, dict[int, tuple[str, int]]] = {
    pattern: {port: (colour, next(p for p in ports if p != port))
              for colour, ports in zip(COLOURS, lines, strict=True) for port in ports}
    for pattern, lines in PATTERNS.items()}
"""pattern -> port a line enters by -> (the line's colour, the port it leaves by)."""


@dataclass(frozen=True)
class Line:
    segments: tuple[Segment, ...]
    closed: bool

    def cells(self) -> set[Cell]:
        return {cell for cell, _ in self.segments}


def trace(table: Mapping[Cell, str]) -> list[Line]:
    """Every line on the table (each segment in exactly one)."""
    seen: set[Segment] = set()
    found = []
    for cell in table:
        for colour in COLOURS:
            start = (cell, colour)
            if start in seen:
                continue
            line, closed = _walk(table, start)
            seen.update(line)
            found.append(Line(tuple(line), closed))
    return found


def _walk(table: Mapping[Cell, str], start: Segment) -> tuple[list[Segment], bool]:
    """The line through `start`: its segments from one end to the other (or round), and whether
    it is closed."""
    ends = sorted(segment_ports(table[start[0]], start[1]))
    forward = _follow(table, start, ends[1])
    if forward and forward[-1] == start:
        return [start, *forward[:-1]], True
    backward = _follow(table, start, ends[0])
    return [*reversed(backward), start, *forward], False


def _follow(table: Mapping[Cell, str], start: Segment, port: int) -> list[Segment]:
    """Segments met leaving `start` through `port`, in order; ends with `start` if the line
    comes back round to it."""
    met: list[Segment] = []
    (x, y), out = start[0], port
    for _ in range(2 * len(table) + 2):
        dx, dy = PORT_STEP[out]
        x, y = x + dx, y + dy
        pattern = table.get((x, y))
        if pattern is None:
            return met
        colour, out = THROUGH[pattern][(out + 2) % 4]
        segment = ((x, y), colour)
        met.append(segment)
        if segment == start:
            return met
    raise AssertionError("a line cannot be longer than the table's segments")


def line_through(table: Mapping[Cell, str], start: Segment) -> Line:
    """The line `start` belongs to."""
    segments, closed = _walk(table, start)
    return Line(tuple(segments), closed)


def circuits(table: Mapping[Cell, str]) -> list[Line]:
    return [line for line in trace(table) if line.closed]


def tronix_line(table: Mapping[Cell, str]) -> Line | None:
    """An open line touching every card on the table (at least two cards), if there is one."""
    if len(table) < 2:
        return None
    everyone = set(table)
    return next((line for line in trace(table) if not line.closed and line.cells() == everyone), None)


def shares(lines: list[Line]) -> dict[Cell, set[str]]:
    """For each card on any of `lines`, the colours of its segments on them."""
    colours: dict[Cell, set[str]] = {}
    for line in lines:
        for cell, colour in line.segments:
            colours.setdefault(cell, set()).add(colour)
    return colours


def islands(cells: set[Cell]) -> int:
    """How many groups of edge-joined cards `cells` make."""
    left = set(cells)
    count = 0
    while left:
        count += 1
        todo = [left.pop()]
        while todo:
            x, y = todo.pop()
            for other in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if other in left:
                    left.remove(other)
                    todo.append(other)
    return count
