"""Reading and writing Triominoes actions (rules §5).

Canonical forms: a placement is the numbers on the cell's corners 0, 1, 2 (clockwise, §3) and
the cell, `2-1-2 r1c0`; the other actions are `draw` and `pass`. A player may write a
tile as named or in any order (`1-2-2`, `122`, `221`), and a cell as `r1c0` or as the number
shown on the board picture (`122 at 7`, `122 7`, `122 #7`); the game finds the rotation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import N_, NotationError, Term, check_digits, quoted, refuse
from engine.triominoes.geometry import Cell, cell_name, read_cell
from engine.triominoes.tiles import Corners, name, read_numbers

EXAMPLE = Term(N_("`1-2-2 r1c0` or `122 at 7` (a tile and a cell, or the number of a spot on the picture), "
                   "`draw`, `pass`"))
FILLER = {"play", "lay", "put", "at", "on", "to", "in", "@", "poner", "pon", "jugar", "en", "a"}
SPANISH = {"draw": "robar", "pass": "pasar", "at": "en"}
"""The canonical notation's words as a Spanish table types them (both are read)."""


@dataclass(frozen=True)
class Place:
    """A tile as typed (its numbers in the typed order) and where: a cell or a spot number."""

    numbers: tuple[int, int, int]
    cell: Cell | None = None
    spot: int | None = None
    exact: bool = False
    """Written in canonical form (`5-3-4 r0c0`): the numbers are the corners in order."""


@dataclass(frozen=True)
class Word:
    """`draw` or `pass`."""

    word: str


Request = Place | Word
WORDS = {"draw": "draw", "pass": "pass", "robar": "draw", "roba": "draw", "pasar": "pass", "paso": "pass"}


def write_place(numbers: Corners, cell: Cell) -> str:
    return f"{name(numbers)} {cell_name(cell)}"


_TURNED = re.compile(r"^(\S+)\s*(?:→|->)\s*(\S+)(.*)$")


def _turned(text: str) -> str:
    """A hint as shown, `0-0-1 → 0-1-0 r0c1` (the tile as held, then as turned), read as the
    turned placement; NotationError if the two are not the same tile."""
    match = _TURNED.match(text)
    if match is None:
        return text
    held, turned = read_numbers(match[1]), read_numbers(match[2])
    if held is None or turned is None or sorted(held) != sorted(turned):
        raise NotationError(f"'{match[1]}' and '{match[2]}' are not the same tile: type the tile and where it "
                            f"goes, like {EXAMPLE}")
    return match[2] + match[3]


def read(text: str) -> Request:
    """Free text -> a request; NotationError saying what was expected otherwise."""
    cleaned = " ".join(text.strip().lower().replace("#", " ").split())
    if not cleaned:
        raise refuse(NotationError, N_("nothing to read: type a move, like {example}"), example=EXAMPLE)
    check_digits(cleaned, EXAMPLE)
    if cleaned in WORDS:
        return Word(WORDS[cleaned])
    cleaned = _turned(cleaned)
    tokens = [t for t in re.split(r"[\s,;]+", cleaned) if t and t not in FILLER]
    if not tokens:
        raise refuse(NotationError, N_("'{text}' is not a move: type {example}"), text=quoted(text), example=EXAMPLE)
    numbers = read_numbers(tokens[0])
    if numbers is None:
        raise refuse(NotationError, N_("'{text}' is not a tile: write its three numbers, like 1-2-2, then where it "
                                       "goes, like r1c0 or at 7"), text=quoted(tokens[0]))
    rest = "".join(tokens[1:])
    if not rest:
        raise refuse(NotationError, N_("where does {tile} go? Add a cell or a spot number: `{tile} r1c0` or "
                                       "`{tile} at 7`"), tile=name(numbers))
    cell = read_cell(rest)
    if cell is not None:
        return Place(numbers, cell=cell, exact=tokens[0].count("-") == 2)
    if re.fullmatch(r"[0-9]{1,4}", rest):
        return Place(numbers, spot=int(rest))
    raise refuse(NotationError, N_("'{text}' is not a cell: write a cell as on the picture's edges (r1c0: row 1, "
                                   "column 0) or a spot's number (at 7)"), text=quoted(" ".join(tokens[1:])))
