"""Reading Tromino Go actions typed in chat (§1.1), forgivingly, and writing them one way.

Canonical forms: `play 2,-1 SW` (the anchor, the lower-left cell of the 2×2 box, and the
orientation named after its elbow), `move 0,0 to 3,1 NE` (the lowest-left cell of the tromino
moved, then where it goes), `pass`, `concede 3`, `accept 3`, `forfeit`. Also read: the three
cells (`play 1,0 2,0 1,1`), the first play without its anchor (`play SW`), `play` left out, any
case, a letter prefix that is checked (`b 2,-1 SW`), a move's cell anywhere in the tromino and
its destination as three cells, `accept` alone (the largest offer)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import NotationError
from engine.tromino_go.geometry import ORIENTATIONS, Cell

LIMIT = 1000
MAX_CONCESSION = 7
"""7 TGpoints win the game, so no concession needs more."""
EXAMPLE = "`play 2,-1 SW` (a corner cell and the elbow: SW, SE, NW or NE), `play 1,0 2,0 1,1` or `pass`"
_CELL = re.compile(r"\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?")


@dataclass(frozen=True)
class Play:
    orientation: str | None = None
    anchor: Cell | None = None
    cells: tuple[Cell, ...] = ()
    letter: str | None = None


@dataclass(frozen=True)
class Move:
    origin: Cell
    destination: Play


@dataclass(frozen=True)
class Word:
    word: str  # "pass", "forfeit"


@dataclass(frozen=True)
class Concede:
    points: int


@dataclass(frozen=True)
class Accept:
    points: int | None


Parsed = Play | Move | Word | Concede | Accept


def play_text(orientation: str, anchor: Cell) -> str:
    return f"play {anchor[0]},{anchor[1]} {orientation}"


def move_text(origin: Cell, orientation: str, anchor: Cell) -> str:
    return f"move {origin[0]},{origin[1]} to {anchor[0]},{anchor[1]} {orientation}"


def _cells(text: str) -> list[Cell]:
    cells = [(int(x), int(y)) for x, y in _CELL.findall(text)]
    if any(abs(v) > LIMIT for cell in cells for v in cell):
        raise NotationError(f"coordinates run from -{LIMIT} to {LIMIT}")
    return cells


def _placement(text: str) -> Play:
    letter = None
    words = text.split()
    if words and len(words[0]) == 1 and words[0].lower() in "abc" and len(words) > 1:
        letter, text = words[0], " ".join(words[1:])
    cells = _cells(text)
    rest = _CELL.sub(" ", text).strip().upper()
    if not rest:
        if len(cells) != 3:
            raise NotationError(f"a tromino covers 3 cells; you gave {len(cells)}. Write {EXAMPLE}")
        return Play(cells=tuple(cells), letter=letter)
    if rest not in ORIENTATIONS:
        raise NotationError(f"'{rest[:12]}' is not an orientation: SW, SE, NW or NE (named after the elbow). "
                            f"Write {EXAMPLE}")
    if len(cells) > 1:
        raise NotationError(f"give one cell, the lower-left of the tromino's 2×2 box, and its elbow. Write {EXAMPLE}")
    return Play(orientation=rest, anchor=cells[0] if cells else None, letter=letter)


_DASHES = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\uff0c": ",", "\u2192": " to "})
"""Signs and commas as phones and chat clients type them: the minus sign, dashes, a full-width comma,
an arrow for `to`."""


def read(text: str) -> Parsed:
    cleaned = " ".join(text.translate(_DASHES).replace("->", " to ").strip().split())
    lowered = cleaned.lower()
    if lowered in ("pass", "forfeit"):
        return Word(lowered)
    if lowered == "verify":
        raise NotationError("nothing to verify: the referee checks every play and move as it is made. To dispute "
                            "one, ask a moderator to roll it back")
    words = lowered.split()
    if words and words[0] in ("concede", "accept"):
        number = words[1] if len(words) > 1 else None
        if number is not None and not number.isdigit():
            raise NotationError(f"{words[0]} takes a whole number of TGpoints, like `{words[0]} 2`")
        if len(words) > 2 or (number is not None and int(number) > MAX_CONCESSION):
            raise NotationError(f"write `{words[0]} N` with N from 0 to {MAX_CONCESSION} (7 TGpoints win the game)")
        if words[0] == "concede":
            if number is None:
                raise NotationError("say how many TGpoints you concede, like `concede 2`")
            return Concede(int(number))
        return Accept(int(number) if number is not None else None)
    if words and words[0] == "move":
        match = (re.fullmatch(r"move\s+(.+?)\s+to\s+(.+)", cleaned, flags=re.IGNORECASE)
                 or re.fullmatch(r"move\s+(\(?\s*-?\d+\s*,\s*-?\d+\s*\)?)\s*(.+)", cleaned, flags=re.IGNORECASE))
        if not match:
            raise NotationError("write a move as `move 0,0 to 3,1 NE`: a cell of your tromino, then where it goes")
        origin = _cells(match.group(1))
        if len(origin) != 1:
            raise NotationError("name the tromino to move by one of its cells, like `move 0,0 to 3,1 NE`")
        return Move(origin[0], _placement(match.group(2)))
    if words and words[0] == "play":
        cleaned = cleaned[4:].strip()
    if not cleaned:
        raise NotationError(f"say where to play: {EXAMPLE}")
    if not _CELL.search(cleaned) and cleaned.upper() not in ORIENTATIONS and not (
            len(cleaned.split()) == 2 and cleaned.split()[1].upper() in ORIENTATIONS):
        raise NotationError(f"I can't read '{text.strip()[:60]}' as a move. Write {EXAMPLE}")
    return _placement(cleaned)
