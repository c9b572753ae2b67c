"""Legal moves grouped so they can be read aloud, and read back.

A player who cannot see the board gets their legal moves as a few lines of words, one a group
("on your line, end d4, needs 4: 4:2 d5, then d6, e5; 4:6 d5 e5"). Each game's package says how
its moves group (`spoken_groups(game, seat)`: a list of `Group`); this module writes the groups
in words (`spoken_moves`) and reads a group's words back into the moves a player types
(`typed_moves`), which is how a screen-reader user, or a test playing as one, picks a move.

The written form, in any language:

    TITLE: RUN; RUN; …

where a RUN is either moves written in full and separated by ", ", or `PREFIX, then ENDING,
ENDING, …` (", luego " in Spanish), each move being PREFIX followed by a space and one ENDING.
Every move is written with the table's notation words (`Game.spoken`), so what is read is what
is typed; every legal action appears exactly once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from renderers.common import N_, RENDERERS, say

if TYPE_CHECKING:
    from engine.core import Game

THEN = N_(", then ")
"""Between a run's common beginning and its endings; translated (", luego ")."""
RUNS = "; "
ITEMS = ", "
TITLE = ": "


@dataclass(frozen=True)
class Run:
    """Moves that share their first words: `prefix` (empty when the moves are written in full)
    and each move's remaining words."""

    prefix: str
    endings: tuple[str, ...]

    def moves(self) -> list[str]:
        return [f"{self.prefix} {ending}" if self.prefix else ending for ending in self.endings]


@dataclass
class Group:
    """Moves a player thinks of together ("on your line at d4"), under a `title` in words."""

    title: str
    runs: list[Run] = field(default_factory=list)


def runs_of(actions: Iterable[str], prefix_words: int) -> list[Run]:
    """`actions` as runs: those sharing their first `prefix_words` words (and having more) share a
    prefix; the rest, and a prefix with one move only, are written in full. Order is kept."""
    by_prefix: dict[str, list[str]] = {}
    whole: list[str] = []
    order: list[tuple[str, str]] = []
    for action in actions:
        words = action.split(" ")
        if prefix_words <= 0 or len(words) <= prefix_words:
            whole.append(action)
            order.append(("", action))
            continue
        prefix = " ".join(words[:prefix_words])
        if prefix not in by_prefix:
            by_prefix[prefix] = []
            order.append((prefix, ""))
        by_prefix[prefix].append(" ".join(words[prefix_words:]))
    runs: list[Run] = []
    loose: list[str] = []
    for prefix, action in order:
        if not prefix:
            loose.append(action)
        elif len(by_prefix[prefix]) == 1:
            loose.append(f"{prefix} {by_prefix[prefix][0]}")
        else:
            if loose:
                runs.append(Run("", tuple(loose)))
                loose = []
            runs.append(Run(prefix, tuple(by_prefix[prefix])))
    if loose:
        runs.append(Run("", tuple(loose)))
    return runs


def grouped(actions: Iterable[str], title_of: Callable[[str], str],
            prefix_words: Callable[[str], int]) -> list[Group]:
    """`actions` grouped by their title (`title_of`), groups in the order their first action comes,
    each group's moves in runs sharing `prefix_words(action)` first words."""
    members: dict[str, list[str]] = {}
    for action in actions:
        members.setdefault(title_of(action), []).append(action)
    groups = []
    for title, listed in members.items():
        runs: list[Run] = []
        by_width: dict[int, list[str]] = {}
        for action in listed:
            by_width.setdefault(prefix_words(action), []).append(action)
        for width, same in by_width.items():
            runs.extend(runs_of(same, width))
        groups.append(Group(title, runs))
    return groups


def clean(text: str) -> str:
    """A name or word put in a title, with the marks the written form uses for its own structure
    (": ", "; ") made harmless."""
    return text.replace(":", " ").replace(";", ",").strip()


def written(group: Group, game: Game, language: str) -> str:
    """One group in words, its moves written with `language`'s notation words."""
    spoken = type(game).spoken
    then = say(THEN)
    parts = []
    for run in group.runs:
        endings = ITEMS.join(spoken(ending, language) for ending in run.endings)
        parts.append(f"{spoken(run.prefix, language)}{then}{endings}" if run.prefix else endings)
    return f"{group.title}{TITLE}{RUNS.join(parts)}"


def spoken_moves(game: Game, seat: int, language: str = "en") -> list[str]:
    """`seat`'s legal moves now, grouped as the game's package groups them, one line of words a
    group in the language being spoken (titles through `say`, moves in `language`'s notation
    words). Every legal action is in exactly one group, written so that typing it plays it; an
    empty list when the seat has no move (not its turn) or the game has no renderer."""
    module = RENDERERS.get(game.name)
    if module is None or not game.legal_actions(seat):
        return []
    return [written(group, game, language) for group in module.spoken_groups(game, seat)]


def typed_moves(line: str) -> list[str]:
    """The moves one line of `spoken_moves` offers, as a player types them: the inverse of
    `written` (in the language being spoken)."""
    _, _, body = line.partition(TITLE)
    then = say(THEN)
    moves: list[str] = []
    for run in body.split(RUNS):
        if then in run:
            prefix, _, endings = run.partition(then)
            moves.extend(f"{prefix} {ending}" for ending in endings.split(ITEMS))
        else:
            moves.extend(run.split(ITEMS))
    return moves
