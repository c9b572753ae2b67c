"""Reading Tromino Go actions typed in chat (§1.1), forgivingly, and writing them one way.

Canonical forms: `play 2,-1 SW` (the anchor, the lower-left cell of the 2×2 box, and the
orientation named after its elbow), `move 0,0 to 3,1 NE` (the lowest-left cell of the tromino
moved, then where it goes), `pass`, `concede 3`, `accept 3`, `forfeit`. Also read: the three
cells (`play 1,0 2,0 1,1`), the first play without its anchor (`play SW`), `play` left out, any
case, a letter prefix that is checked (`b 2,-1 SW`), a move's cell anywhere in the tromino and
its destination as three cells, `accept` alone (the largest offer). Spanish words are read too
(`SPANISH`): `poner 2,-1 SO`, `mover 0,0 a 3,1 NE`, `ceder 2`, `aceptar`, `pasar`, `abandonar`, with
the elbow's W written O (oeste)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import N_, IllegalMove, NotationError, Term, check_digits, refuse
from engine.digits import whole_number
from engine.tromino_go.geometry import ORIENTATIONS, Cell

LIMIT = 1000
MAX_CONCESSION = 7
"""7 TGpoints win the game, so no concession needs more."""
EXAMPLE = Term(N_("`play 2,-1 SW` (a corner cell and the elbow: SW, SE, NW or NE) or `play 1,0 2,0 1,1`"))
SPANISH = {"play": "poner", "move": "mover", "to": "a", "concede": "ceder", "accept": "aceptar", "pass": "pasar",
           "forfeit": "abandonar", "SW": "SO", "NW": "NO"}
"""The canonical notation's words as a Spanish table types them (both are read)."""
_FROM_SPANISH = {spanish.lower(): english.lower() for english, spanish in SPANISH.items() if english != "to"}
_CELL = re.compile(r"\(?\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\)?")


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
    numbers = [(whole_number(x) or 0, whole_number(y) or 0) for x, y in _CELL.findall(text)]
    if any(abs(v) > LIMIT for cell in numbers for v in cell):
        raise refuse(IllegalMove, N_("coordinates run from -{limit} to {limit}"), limit=LIMIT)
    return numbers


def _placement(text: str) -> Play:
    letter = None
    words = text.split()
    if words and len(words[0]) == 1 and words[0].lower() in "abc" and len(words) > 1:
        letter, text = words[0], " ".join(words[1:])
    cells = _cells(text)
    rest = _CELL.sub(" ", text).strip().upper()
    if not rest:
        if len(cells) != 3:
            raise refuse(NotationError, N_("a tromino covers 3 cells; you gave {count}. Write {example}"),
                         count=len(cells), example=EXAMPLE)
        return Play(cells=tuple(cells), letter=letter)
    if rest not in ORIENTATIONS:
        raise refuse(NotationError, N_("'{text}' is not an orientation: SW, SE, NW or NE (named after the elbow). "
                                       "Write {example}"), text=rest[:12], example=EXAMPLE)
    if len(cells) > 1:
        raise refuse(NotationError, N_("give one cell, the lower-left of the tromino's 2×2 box, and its elbow. "
                                       "Write {example}"), example=EXAMPLE)
    return Play(orientation=rest, anchor=cells[0] if cells else None, letter=letter)


_DASHES = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\uff0c": ",", "\u2192": " to "})
"""Signs and commas as phones and chat clients type them: the minus sign, dashes, a full-width comma,
an arrow for `to`."""


def _english(text: str) -> str:
    """`text` with the Spanish words of the notation put in English (`mover 0,0 a 3,1 SO` ->
    `move 0,0 to 3,1 SW`)."""
    words = text.split()
    if not words:
        return text
    words = [_FROM_SPANISH.get(word.lower(), word) for word in words]
    if words[0] == "move":
        words = ["to" if word.lower() == "a" and index > 1 else word for index, word in enumerate(words)]
    return " ".join(words)


def read(text: str) -> Parsed:
    cleaned = _english(" ".join(text.translate(_DASHES).replace("->", " to ").strip().split()))
    check_digits(cleaned, EXAMPLE)
    lowered = cleaned.lower()
    if lowered in ("pass", "forfeit"):
        return Word(lowered)
    if lowered == "verify":
        raise refuse(NotationError, N_("nothing to verify: the referee checks every play and move as it is made. To "
                                       "dispute one, ask a moderator to roll it back"))
    words = lowered.split()
    if words and words[0] in ("concede", "accept"):
        number = whole_number(words[1]) if len(words) > 1 else None
        if len(words) > 1 and (number is None or words[1].startswith("-")):
            raise refuse(NotationError, N_("{verb} takes a whole number of TGpoints, like `{verb} 2`"), verb=words[0])
        if len(words) > 2:
            raise refuse(NotationError, N_("write `{verb} N` with N from 0 to {most} (7 TGpoints win the game)"),
                         verb=words[0], most=MAX_CONCESSION)
        if number is not None and number > MAX_CONCESSION:
            raise refuse(IllegalMove, N_("write `{verb} N` with N from 0 to {most} (7 TGpoints win the game)"),
                         verb=words[0], most=MAX_CONCESSION)
        if words[0] == "concede":
            if number is None:
                raise refuse(NotationError, N_("say how many TGpoints you concede, like `concede 2`"))
            return Concede(number)
        return Accept(number)
    if words and words[0] == "move":
        match = (re.fullmatch(r"move\s+(.+?)\s+to\s+(.+)", cleaned, flags=re.IGNORECASE)
                 or re.fullmatch(r"move\s+(\(?\s*-?[0-9]+\s*,\s*-?[0-9]+\s*\)?)\s*(.+)", cleaned, flags=re.IGNORECASE))
        if not match:
            raise refuse(NotationError, N_("write a move as `move 0,0 to 3,1 NE`: a cell of your tromino, then where "
                                           "it goes"))
        origin = _cells(match.group(1))
        if len(origin) != 1:
            raise refuse(NotationError, N_("name the tromino to move by one of its cells, like `move 0,0 to 3,1 NE`"))
        return Move(origin[0], _placement(match.group(2)))
    if words and words[0] == "play":
        cleaned = cleaned[4:].strip()
    if not cleaned:
        raise refuse(NotationError, N_("say where to play: {example}"), example=EXAMPLE)
    if not _CELL.search(cleaned) and cleaned.upper() not in ORIENTATIONS and not (
            len(cleaned.split()) == 2 and cleaned.split()[1].upper() in ORIENTATIONS):
        raise refuse(NotationError, N_("I can't read '{text}' as a move. Write {example}"), text=text.strip()[:60],
                     example=EXAMPLE)
    return _placement(cleaned)
