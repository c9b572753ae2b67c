"""Which typed chat is a move: the rules shared by every transport that reads chat.

In a game's thread people talk. Text is taken as a move only when every word in it belongs to
the game's notation: its verbs (`Game.verbs`, in every language the game accepts), the words
of the actions the seat could take now, and the players' names. Everything else ("ok", "take
that!", "go") is conversation and is left alone. Markdown emphasis (`**draw**`) is stripped first.
"""

from __future__ import annotations

import re

from engine import Game
from engine.core import QUOTE_LIMIT, quoted

_MARKDOWN = re.compile(r"[*_~`|>]+")


def strip_markdown(text: str) -> str:
    """`**draw**` -> `draw`; quotes, spoilers and code marks gone; spaces normalised."""
    return " ".join(_MARKDOWN.sub(" ", text).split())


def words(text: str) -> set[str]:
    """The alphabetic words of `text`, lower-cased (`3:5 c4 on Bob` -> {"c", "on", "bob"})."""
    found = set()
    for chunk in re.split(r"[\s,;]+", text.lower()):
        if chunk.isalpha():
            found.add(chunk)
    return found


def is_move_text(game: Game, seat: int, text: str) -> bool:
    """Whether typed `text` is written in `game`'s notation for `seat` (see the module doc)."""
    typed = words(text)
    if not typed and not re.search(r"[0-9]", text):
        return False
    known = set(type(game).verbs)
    for action in game.legal_actions(seat):
        known |= words(action)
    for name in game.names:
        known |= words(name) | {name.lower()}
    return typed <= known


def echo(text: str, limit: int = QUOTE_LIMIT) -> str:
    """User input shortened for quoting back: at most `limit` characters, marked when cut."""
    return quoted(text, limit)
