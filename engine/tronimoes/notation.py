"""Reading what players type, and writing the one canonical form of each move.

| action            | typed (any of)                                   | canonical            |
|-------------------|--------------------------------------------------|----------------------|
| lay a tile        | `3:5 c4 d4`, `3-5 c4-d4`, `5:3 d4 c4`, `3:5`     | `3:5 c4 d4`          |
| on a chosen line  | `3:5 c4 d4 on bob`, `... on free2`               | suffix when not the default line |
| draw              | `draw`                                           | `draw`               |
| pass              | `pass`, `pass e5` (choosing a foot square)       | `pass` / `pass e5`   |
| spacer            | `spacer c2 c7`, `spacer c2-c7`, `spacer c2 to c7`| `spacer c2 c7`       |
| next round        | `ready`                                          | `ready`              |

Spanish players may type the same moves with Spanish words: `robar` (draw), `pasar e5` (pass),
`separador c2 c7` (spacer), `listo` (ready), `3:5 c4 d4 en bob` / `en libre1` (on a line);
`SPANISH` maps each canonical word to the Spanish one.

In a canonical lay the pips are written in the order of the squares, and the first square is
the half that matches the line. Reading is forgiving: case, spacing, separators, a leading
`play`, and squares run together (`c4d4`) are all accepted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import N_, IllegalMove, NotationError, Term, check_digits, quoted, refuse
from engine.tronimoes.board import Grid, Tile, tile
from engine.tronimoes.state import Draw, Lay, Move, Pass, PlaceSpacer, Ready

EXAMPLES = Term(N_("`3:5 c4 d4` (tile, then the two squares it covers), `draw`, `pass`, `spacer c2 c7`"))
SPANISH = {"draw": "robar", "pass": "pasar", "spacer": "separador", "ready": "listo", "on": "en"}
"""The canonical notation's words as a Spanish table types them (both are read)."""


@dataclass(frozen=True)
class LayRequest:
    """A lay as typed; any part may be missing. `typed_pips` keeps the pips in the typed order,
    because pips follow the squares (`5:3 d4 c4` puts the 5 on d4)."""

    tile: Tile | None
    squares: tuple[int, ...]
    typed_pips: tuple[int, int] | None
    line: str | None


Request = LayRequest | Draw | Pass | PlaceSpacer | Ready

_WORDS_DRAW = {"draw", "d", "pick", "pickup", "pick up", "take", "robar", "roba", "robo"}
_WORDS_READY = {"ready", "next", "next round", "go", "r", "listo", "lista", "listos", "siguiente"}
_WORDS_PASS = {"pass", "pasar", "paso", "pasa"}
_WORDS_SPACER = {"spacer", "space", "separador"}
_LEADING = re.compile(r"^(?:/?(?:play|lay|move|put|place|poner|pon|jugar|juego|colocar)\s+)")
_TOKEN = re.compile(
    r"\s+|(?P<tile>\[?[0-9]{1,2}\s*[:\-/|]\s*[0-9]{1,2}\]?)|(?P<square>[a-z][0-9]{1,2})(?![0-9])"
    r"|(?P<filler>(?:at|to|from|and|onto|a|de|hasta|y)\b|[-–,])")
_LINE_WORDS = (" on ", " en ")


def normalize(text: str) -> str:
    cleaned = text.strip().strip("`'\"").lower()
    cleaned = cleaned.replace("–", "-").replace("—", "-")
    return re.sub(r"\s+", " ", cleaned).strip()


def read(text: str, grid: Grid) -> Request:
    """Turn typed text into a request; NotationError explains what was expected. Numbers are
    written with the digits 0–9 (a line's name after `on` may hold any character)."""
    cleaned = _LEADING.sub("", normalize(text))
    before_line = f"{cleaned} "
    for word in _LINE_WORDS:
        before_line = before_line.partition(word)[0]
    check_digits(before_line, EXAMPLES)
    if not cleaned:
        raise refuse(NotationError, N_("type a move, for example {examples}"), examples=EXAMPLES)
    if cleaned in _WORDS_DRAW:
        return Draw()
    if cleaned in _WORDS_READY:
        return Ready()
    first, _, rest = cleaned.partition(" ")
    if first in _WORDS_PASS:
        squares = _squares(rest, grid, what=first)
        if len(squares) > 1:
            raise refuse(NotationError, N_("pass takes at most one square, the foot square: `pass e5`"))
        return Pass(squares[0] if squares else None)
    if first in _WORDS_SPACER:
        squares = _squares(rest, grid, what=first)
        if len(squares) != 2:
            raise refuse(NotationError, N_("a spacer needs its two end squares, six squares apart: `spacer c2 c7`"))
        return PlaceSpacer(squares[0], squares[1])
    return _read_lay(cleaned, grid)


def _read_lay(text: str, grid: Grid) -> LayRequest:
    line = None
    body = text
    marker = next((word for word in _LINE_WORDS if word in f"{text} "), None)
    if marker:
        body, _, line_text = f"{text} ".partition(marker)
        line = line_text.strip()
        if not line:
            raise refuse(NotationError, N_("say which line after `on`, e.g. `3:5 c4 d4 on bob` or `on free1`"))
    found_tile: Tile | None = None
    typed: tuple[int, int] | None = None
    squares: list[int] = []
    position = 0
    while position < len(body):
        token = _TOKEN.match(body, position)
        if not token or token.end() == position:
            leftover = body[position:].split(" ")[0]
            raise refuse(NotationError, N_("I can't read '{word}' in '{text}'. Type {examples}"), word=quoted(leftover),
                         text=quoted(text), examples=EXAMPLES)
        if token.group("tile"):
            if found_tile is not None:
                raise refuse(NotationError, N_("lay one tile at a time, e.g. `3:5 c4 d4`"))
            pips = [int(p) for p in re.findall(r"[0-9]{1,2}", token.group("tile"))]
            typed = (pips[0], pips[1])
            found_tile = tile(*typed)
        elif token.group("square"):
            squares.append(grid.parse_square(token.group("square")))
        position = token.end()
    if found_tile is None and not squares:
        raise refuse(NotationError, N_("I can't read '{text}'. Type {examples}"), text=quoted(text),
                     examples=EXAMPLES)
    if len(squares) > 2:
        raise refuse(NotationError, N_("a tile covers two squares; you gave {count}. Example: `3:5 c4 d4`"),
                     count=len(squares))
    if len(squares) == 2:
        if squares[0] == squares[1]:
            raise refuse(IllegalMove, N_("a tile covers two different squares, e.g. `3:5 c4 d4`"))
        if not grid.adjacent(squares[0], squares[1]):
            a, b = grid.name(squares[0]), grid.name(squares[1])
            raise refuse(IllegalMove, N_("{a} and {b} are not next to each other: a tile covers two "
                                           "neighbouring squares, like c4 d4 or c4 c5"), a=a, b=b)
    return LayRequest(found_tile, tuple(squares), typed, line)


def _squares(text: str, grid: Grid, *, what: str) -> list[int]:
    words = [w for w in re.split(r"[\s,\-]+|\b(?:to|from|at|a|de|hasta|en)\b", text) if w]
    squares = []
    for word in words:
        for part in re.findall(r"[a-z][0-9]{1,2}|\S", word):
            if not re.fullmatch(r"[a-z][0-9]{1,2}", part):
                raise refuse(NotationError, N_("I can't read '{word}' after {verb}: give squares like e5"),
                             word=quoted(word), verb=what)
            squares.append(grid.parse_square(part))
    return squares


def write(move: Move, grid: Grid, line_name: str | None) -> str:
    """The canonical text of a move. `line_name` is given only when the lay goes to a line other
    than the one it would join by default."""
    if isinstance(move, Lay):
        a, b = move.squares
        text = f"{move.pips[0]}:{move.pips[1]} {grid.name(a)} {grid.name(b)}"
        return f"{text} on {line_name}" if line_name else text
    if isinstance(move, Draw):
        return "draw"
    if isinstance(move, Pass):
        return f"pass {grid.name(move.foot)}" if move.foot is not None else "pass"
    if isinstance(move, PlaceSpacer):
        return f"spacer {grid.name(move.start)} {grid.name(move.end)}"
    return "ready"

