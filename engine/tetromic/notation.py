"""Reading Tetromic actions typed in chat (§2.1, §2.8), forgivingly, and writing them one way.

Canonical forms: `play T-u 2,3` (an orientation name and the anchor, the lower-left corner of
its bounding box), `draw`, `skip`, `discard T`. Also read: the name without `play`, in any case
and with or without the dash (`tu 2,3`, `L90 0,0`); four cells in any order (`2,3 3,3 4,3 3,4`);
a kind and an anchor (`I 4,0`, `line 4,0`) when one orientation of it fits there; cells as `2,3`
or `(2, 3)`. Several placements joined by `;` are split by the referee (`split_actions`). Spanish
words are read too (`SPANISH`): `poner T-u 2,3`, `robar`, `saltar`, `descartar T`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import N_, NotationError, Term, check_digits, refuse
from engine.digits import whole_number
from engine.tetromic.pieces import KINDS, ORIENTATIONS, Cell

SEPARATOR = ";"
EXAMPLE = Term(N_("`play T-u 2,3` (a piece and its lower-left corner), `play 2,3 3,3 4,3 3,4` (four cells), "
                   "`draw` or `skip`"))
SPANISH = {"play": "poner", "draw": "robar", "skip": "saltar", "discard": "descartar"}
"""The canonical notation's words as a Spanish table types them (both are read)."""
_FROM_SPANISH = {"poner": "play", "pon": "play", "jugar": "play", "robar": "draw", "roba": "draw", "saltar": "skip",
                 "salto": "skip", "paso": "skip", "pasar": "skip", "descartar": "discard", "descarta": "discard",
                 "linea": "line", "línea": "line", "cuadrado": "square"}
_CELL = re.compile(r"\(?\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\)?")
_NAMES = {re.sub(r"[^a-z0-9]", "", name.lower()): name for name in ORIENTATIONS}
_KIND_WORDS = {"i": "I", "line": "I", "o": "O", "square": "O", "l": "L", "j": "L", "s": "S", "z": "S", "t": "T"}


@dataclass(frozen=True)
class Place:
    """A placement as typed: an orientation and an anchor, or a kind and an anchor, or cells."""

    orientation: str | None = None
    kind: str | None = None
    anchor: Cell | None = None
    cells: tuple[Cell, ...] = ()


@dataclass(frozen=True)
class Verb:
    word: str  # "draw", "skip"


@dataclass(frozen=True)
class Discard:
    kind: str


Parsed = Place | Verb | Discard


def canonical_play(orientation: str, anchor: Cell) -> str:
    return f"play {orientation} {anchor[0]},{anchor[1]}"


def split_actions(text: str) -> list[str]:
    """Several placements typed at once, in order."""
    return [part.strip() for part in text.split(SEPARATOR) if part.strip()]


def read(text: str) -> Parsed:
    """What `text` says, before the board is looked at; NotationError with an example if it
    says nothing Tetromic understands."""
    cleaned = " ".join(_FROM_SPANISH.get(word, word) for word in text.strip().lower().split())
    check_digits(cleaned, EXAMPLE)
    if SEPARATOR in cleaned:
        raise refuse(NotationError, N_("send one placement at a time here, or join several with `;` in one message"))
    if cleaned in ("draw", "skip"):
        return Verb(cleaned)
    words = cleaned.split(" ", 1)
    if words[0] == "discard":
        kind = _KIND_WORDS.get(words[1].strip() if len(words) > 1 else "")
        if kind is None:
            raise refuse(NotationError, N_("say which kind to discard: one of {kinds}, like `discard T`"),
                         kinds=", ".join(KINDS))
        return Discard(kind)
    if words[0] == "play":
        cleaned = words[1] if len(words) > 1 else ""
    cells = [(whole_number(x) or 0, whole_number(y) or 0) for x, y in _CELL.findall(cleaned)]
    rest = _CELL.sub(" ", cleaned).strip()
    if not cells:
        raise refuse(NotationError, N_("I can't read '{text}' as a move. Write {example}"), text=text.strip()[:60],
                     example=EXAMPLE)
    if not rest:
        if len(cells) != 4:
            raise refuse(NotationError, N_("a piece covers 4 cells; you gave {count}. Write {example}"),
                         count=len(cells), example=EXAMPLE)
        return Place(cells=tuple(cells))
    if len(cells) != 1:
        raise refuse(NotationError, N_("give a piece's name and one cell, its lower-left corner, like `play T-u 2,3`; "
                                       "or four cells alone. Write {example}"), example=EXAMPLE)
    key = re.sub(r"[^a-z0-9]", "", rest)
    if key in _NAMES:
        return Place(orientation=_NAMES[key], anchor=cells[0])
    if key in _KIND_WORDS:
        return Place(kind=_KIND_WORDS[key], anchor=cells[0])
    names = ", ".join(ORIENTATIONS)
    raise refuse(NotationError, N_("'{text}' is not a piece. Pieces are {names}; or a kind: I, O, L, S, T"),
                 text=rest[:20], names=names)
