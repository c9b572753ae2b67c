"""Tronix cards (rules §3.1): squares with one green and one pink line, each joining two of the
four ports N, E, S, W. A CX card shows a CURVE on one face and a CROSS on the other; six line
patterns exist, named by where the green line runs: the corners `NE`, `SE`, `SW`, `NW` (curves)
and the straights `NS`, `EW` (crosses)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.core import N_, Term

N, E, S, W = 0, 1, 2, 3
PORT_STEP = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}
GREEN, PINK = "green", "pink"
COLOURS = (GREEN, PINK)

Cell = tuple[int, int]
Ports = frozenset[int]

PATTERNS: Mapping[str, tuple[Ports, Ports]] = {
    "NE": (frozenset({N, E}), frozenset({S, W})),
    "SE": (frozenset({S, E}), frozenset({N, W})),
    "SW": (frozenset({S, W}), frozenset({N, E})),
    "NW": (frozenset({N, W}), frozenset({S, E})),
    "NS": (frozenset({N, S}), frozenset({E, W})),
    "EW": (frozenset({E, W}), frozenset({N, S})),
}
"""Pattern name -> (the ports the green line joins, the ports the pink line joins)."""
ORDER = tuple(PATTERNS)
CURVES = ("NE", "SE", "SW", "NW")
CROSSES = ("NS", "EW")

KINDS: Mapping[str, tuple[str, ...]] = {"cx": ORDER, "cc": CURVES, "xx": CROSSES}
"""Card kind -> the patterns it can show (CX: curve one side, cross the other; CC: curves on
both; XX: crosses on both)."""

SPANISH_PORTS = {"N": "N", "E": "E", "S": "S", "O": "W"}
"""Spanish compass letters (O for oeste, west) -> the English ones of the canonical form."""


def opposite(port: int) -> int:
    return (port + 2) % 4


def step(cell: Cell, port: int) -> Cell:
    dx, dy = PORT_STEP[port]
    return cell[0] + dx, cell[1] + dy


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    x, y = cell
    return (x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)


def segment_ports(pattern: str, colour: str) -> Ports:
    green, pink = PATTERNS[pattern]
    return green if colour == GREEN else pink


def read_pattern(text: str) -> str | None:
    """`ne`, `NO` (Spanish NW), `eo` (Spanish EW), `sn` -> the canonical pattern; None if not one."""
    letters = text.strip().upper()
    if len(letters) != 2:
        return None
    english = "".join(SPANISH_PORTS.get(ch, "?") if ch == "O" else ch for ch in letters)
    ports = {"N": N, "E": E, "S": S, "W": W}
    if any(ch not in ports for ch in english) or english[0] == english[1]:
        return None
    wanted = frozenset(ports[ch] for ch in english)
    return next((name for name, (green, _) in PATTERNS.items() if green == wanted), None)


def spanish(pattern: str) -> str:
    """The pattern as a Spanish player writes it (W is O): `NO`, `SO`, `EO`."""
    return pattern.replace("W", "O")


SPOKEN = (N_("SW"), N_("NW"), N_("EW"))
"""The pattern names a Spanish table says differently (O for oeste)."""


def term(pattern: str) -> Term:
    """A pattern name as a value of an event or refusal: said in the table's language."""
    return Term(pattern)
