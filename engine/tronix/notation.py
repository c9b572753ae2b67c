"""Reading and writing Tronix actions (rules §4), in English and Spanish.

Canonical forms: `play 1,0 NE` (with the kind first, `play cx 1,0 NE`, when the deck is mixed and
several of its kinds can show the pattern, whatever the hand holds), `move 1,0 to 2,1 SW`,
`turn 1,0 SW`. Spanish is read
everywhere English is: `poner`/`colocar` for play, `mover … a …` for move, `girar` for turn, and
`O` (oeste) for W in patterns (`NO`, `SO`, `EO`). Case, spaces and `(x, y)` brackets are forgiven;
a bare `1,0 NE` is a placement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import N_, IllegalMove, NotationError, Term, check_digits, quoted, refuse
from engine.digits import whole_number
from engine.tronix.cards import KINDS, Cell, read_pattern

PLAY_WORDS = {"play", "place", "put", "poner", "pon", "colocar", "coloca", "jugar", "juega"}
MOVE_WORDS = {"move", "mover", "mueve"}
TURN_WORDS = {"turn", "flip", "rotate", "girar", "gira", "voltear", "rotar"}
TO_WORDS = {"to", "a", "->", "hacia"}
VERBS = frozenset(PLAY_WORDS | MOVE_WORDS | TURN_WORDS | TO_WORDS | set(KINDS)
                  | {"ne", "se", "sw", "nw", "ns", "ew", "no", "so", "eo", "sn", "we", "oe", "en", "es", "ws", "wn"})
EXAMPLES = Term(N_("`play 1,0 NE`, `move 1,0 to 2,1 SW` or `turn 1,0 SW`"))
SPANISH = {"play": "poner", "move": "mover", "to": "a", "turn": "girar", "SW": "SO", "NW": "NO", "EW": "EO"}
"""The canonical notation's words as a Spanish table types them (both are read)."""
_CELL = re.compile(r"^\(?(-?[0-9]+),(-?[0-9]+)\)?$")
LIMIT = 999
"""Coordinates run from -LIMIT to LIMIT."""


@dataclass(frozen=True)
class Play:
    cell: Cell
    pattern: str
    kind: str | None = None


@dataclass(frozen=True)
class Move:
    source: Cell
    target: Cell
    pattern: str


@dataclass(frozen=True)
class Turn:
    cell: Cell
    pattern: str


Action = Play | Move | Turn


def cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def write(action: Action) -> str:
    if isinstance(action, Play):
        kind = f"{action.kind} " if action.kind else ""
        return f"play {kind}{cell_text(action.cell)} {action.pattern}"
    if isinstance(action, Move):
        return f"move {cell_text(action.source)} to {cell_text(action.target)} {action.pattern}"
    return f"turn {cell_text(action.cell)} {action.pattern}"


def _refuse(template: str, **args: str) -> NotationError:
    values = {"examples": EXAMPLES, **args}
    return NotationError(template.format(**values), template=template, args=values)


def read(text: str) -> Action:
    """Free text -> an action; NotationError, with examples, when it cannot be read."""
    cleaned = text.strip().lower().replace("(", " ").replace(")", " ")
    check_digits(cleaned, EXAMPLES)
    cleaned = re.sub(r"\s*,\s*", ",", cleaned)
    tokens = cleaned.split()
    if not tokens:
        raise _refuse(N_("nothing to read: type {examples}"))
    verb = "play"
    if tokens[0] in PLAY_WORDS:
        tokens = tokens[1:]
    elif tokens[0] in MOVE_WORDS:
        verb, tokens = "move", tokens[1:]
    elif tokens[0] in TURN_WORDS:
        verb, tokens = "turn", tokens[1:]
    kind = None
    if tokens and tokens[0] in KINDS:
        kind, tokens = tokens[0], tokens[1:]
    tokens = [t for t in tokens if t not in TO_WORDS]
    cells = []
    while tokens and (found := _CELL.match(tokens[0])):
        cells.append((whole_number(found[1]) or 0, whole_number(found[2]) or 0))
        tokens = tokens[1:]
    if any(abs(v) > LIMIT for cell in cells for v in cell):
        raise refuse(IllegalMove, N_("coordinates run from -{limit} to {limit}"), limit=LIMIT)
    pattern = read_pattern(tokens[0]) if len(tokens) == 1 else None
    if pattern is None:
        shown = tokens[0] if tokens else ""
        raise _refuse(N_("'{text}' is not a pattern: name where the green line runs, NE, SE, SW, NW (curves) or "
                         "NS, EW (straights); type {examples}"), text=quoted(shown)) if shown else \
            _refuse(N_("which pattern? End with where the green line runs (NE, SE, SW, NW, NS or EW): type {examples}"))
    wanted = {"play": 1, "turn": 1, "move": 2}[verb]
    if len(cells) != wanted:
        raise _refuse(N_("could not read '{text}': type {examples}"), text=quoted(text))
    if verb == "move":
        return Move(cells[0], cells[1], pattern)
    if verb == "turn":
        return Turn(cells[0], pattern)
    return Play(cells[0], pattern, kind)
