"""Boards in words: what a picture shows, said for a player who cannot see it (a screen reader,
Discord's attachment description, the web page's text alternative, the terminal).

`describe(game, viewer=None)` says the whole position: whose turn, the scores, the last move, then
each game's own parts (`renderers/<game>/description.py`: its `parts(view)`). `describe_within`
says the same in at most `limit` characters (Discord's 1,024 for an attachment): where it must cut,
it keeps the start of every part it can, then names what it leaves out and that `/board
describe` gives it whole.

Everything is said from the public view (`game.view(None)`); a `viewer` seat adds its own hand
and nothing else of what it hides. The words are marked with `N_` and said with `say`, in the
language of the table being served.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.core import CHANCE, JOIN, RESIGN
from renderers.common import N_, RENDERERS, renderer_for, say

if TYPE_CHECKING:
    from engine.core import Game

LIMIT = 1024
"""Discord's limit on an attachment's description, in characters."""


@dataclass(frozen=True)
class Part:
    """One part of a description: a `heading` (marked with `N_`, already said or not) and its
    `items`, each a whole sentence or clause already said in the table's language. `what` names
    the items in a sentence saying some were left out ("open ends"), marked with `N_`."""

    heading: str
    items: list[str] = field(default_factory=list)
    what: str = ""

    def text(self, items: list[str] | None = None) -> str:
        shown = self.items if items is None else items
        return f"{say(self.heading)}: {'; '.join(shown)}." if shown else ""


def seat_name(names: list[str], seat: int) -> str:
    """How a description names a seat: its player's name and number ("Ana (seat 2)")."""
    return say(N_("{name} (seat {number})")).format(name=names[seat], number=seat + 1)


def _turn(game: Game) -> str:
    outcome = game.outcome()
    if outcome is not None:
        winners = [game.names[s] for s in outcome.winners]
        if not winners:
            return say(N_("The game is over: {reason}.")).format(reason=say(outcome.reason).rstrip("."))
        return say(N_("The game is over: {winners} won ({reason}).")).format(
            winners=", ".join(winners), reason=say(outcome.reason).rstrip("."))
    waiting = [seat_name(game.names, s) for s in game.to_move()]
    if not waiting:
        return say(N_("Nobody is to move."))
    if game.between_rounds():
        return say(N_("Between rounds: waiting for {seats} to be ready.")).format(seats=", ".join(waiting))
    if len(waiting) == 1:
        return say(N_("{seat} to move.")).format(seat=waiting[0])
    return say(N_("Waiting for {seats}.")).format(seats=", ".join(waiting))


def _scores(game: Game) -> str:
    scores = game.scores()
    shown = ", ".join(f"{game.names[s]} {_number(score)}" for s, score in enumerate(scores))
    return say(N_("Scores: {scores}.")).format(scores=shown)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def last_move(game: Game) -> str:
    """The last entry of the log that a player made (never a chance entry, whose seed is
    secret), as the history shows it: "Last move: Ana (seat 1) played `3:0 b8 c8`."."""
    for seat, action in reversed(game.log):
        if seat < 0 or action.startswith(CHANCE + " "):
            continue
        who = seat_name(game.names, seat)
        if action == RESIGN:
            return say(N_("Last move: {seat} resigned.")).format(seat=who)
        if action.startswith(JOIN + " "):
            return say(N_("Last move: {seat} joined.")).format(seat=who)
        return say(N_("Last move: {seat} played {action}.")).format(seat=who, action=action)
    return say(N_("No move yet."))


def _header(game: Game) -> list[str]:
    return [say(N_("{game} board.")).format(game=game.title), _turn(game), _scores(game), last_move(game)]


def _hand(game: Game, viewer: int) -> Part | None:
    """The viewer's own hand, or None in a game without hands (Tromino Go)."""
    hand = game.view(viewer).get("hand")
    if hand is None:
        return None
    if isinstance(hand, dict):  # kinds held, counted (Tronix: {"CX": 2})
        items = [f"{kind} ×{count}" for kind, count in hand.items() if count]
    else:
        items = [_piece(piece) for piece in hand]
    return Part(N_("Your hand"), items or [say(N_("empty"))], N_("pieces of your hand"))


def _piece(piece: Any) -> str:
    if isinstance(piece, dict):
        return " ".join(str(v) for v in piece.values() if isinstance(v, str | int))
    if isinstance(piece, list | tuple):
        return "-".join(str(v) for v in piece)
    return str(piece)


def _parts(game: Game, viewer: int | None) -> tuple[str, list[Part]]:
    parts: list[Part] = list(renderer_for(game).describe_parts(game, game.view(None)))
    own = _hand(game, viewer) if viewer is not None and 0 <= viewer < game.players else None
    return " ".join(_header(game)), [own, *parts] if own is not None else parts


def describe(game: Game, viewer: int | None = None) -> str:
    """The whole description of `game`'s board: whose turn, the scores, the last move, then the
    position in words (each game's parts). Only what everyone sees, plus `viewer`'s own hand when
    `viewer` is a seat."""
    header, parts = _parts(game, viewer)
    return _whole(header, parts)


def _whole(header: str, parts: list[Part]) -> str:
    return "\n".join([header, *(p.text() for p in parts if p.items)])


def describe_within(game: Game, limit: int = LIMIT, viewer: int | None = None) -> str:
    """`describe`, in at most `limit` characters. Where the whole does not fit, the parts keep
    as many of their items as fit, in order, and the end says what was left out and that
    `/board describe` gives the description whole."""
    header, parts = _parts(game, viewer)
    whole = _whole(header, parts)
    if len(whole) <= limit:
        return whole
    return fit(header, [p for p in parts if p.items], limit)


def fit(header: str, parts: list[Part], limit: int) -> str:
    """`header` and as much of `parts` as fits in `limit` characters with the closing note that
    names what is left out (see `describe_within`). Parts take turns: every part's first item
    is kept before any part's second, so a cut leaves something of each part."""
    shown: list[list[str]] = [[] for _ in parts]
    full: set[int] = set()
    for depth in range(max((len(p.items) for p in parts), default=0)):
        for index, part in enumerate(parts):
            if index in full or depth >= len(part.items):
                continue
            shown[index].append(part.items[depth])
            if len(_cut_text(header, parts, shown)) > limit:
                shown[index].pop()
                full.add(index)
    text = _cut_text(header, parts, shown)
    if len(text) > limit:  # even the header does not fit: cut it, keeping the note whole
        note = _left_out_note([o for p in parts for o in _omitted(p, len(p.items))])
        if len(note) > limit // 2:
            note = say(N_("Cut short: /board describe gives the whole description."))
        room = limit - len(note) - 2
        text = (header[: max(0, room)] + "…\n" + note)[:limit]
    return text


def _cut_text(header: str, parts: list[Part], shown: list[list[str]]) -> str:
    lines = [header, *(part.text(items) for part, items in zip(parts, shown, strict=True) if items)]
    note = _left_out_note([o for part, items in zip(parts, shown, strict=True)
                           for o in _omitted(part, len(part.items) - len(items))])
    return "\n".join([*lines, note] if note else lines)


def _omitted(part: Part, count: int) -> list[str]:
    if count <= 0:
        return []
    what = say(part.what or part.heading)
    if count == len(part.items):
        return [f"{what} ({count})"]
    return [say(N_("{count} more {what}")).format(what=what, count=count)]


def _left_out_note(left_out: list[str] | str) -> str:
    if not left_out:
        return ""
    return say(N_("Left out here: {what}. /board describe gives the whole description.")).format(
        what="; ".join(left_out))


__all__ = ["LIMIT", "RENDERERS", "Part", "describe", "describe_within", "fit", "last_move", "seat_name"]
