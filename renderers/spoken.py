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
Runs whose prefixes differ only in their last word and share their endings are said once:
`STEM A or B, then ENDING, ENDING` (" o " in Spanish) is STEM A ENDING, STEM B ENDING, and so on
(Tronix's God Mode: `move 1,0 to 2,2 or 3,3, then NE, EW`).
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
OR = N_(" or ")
"""Between the last words of prefixes said once; translated (" o ")."""
RUNS = "; "
ITEMS = ", "
TITLE = ": "


@dataclass(frozen=True)
class Run:
    """Moves that share their first words: `prefix` (empty when the moves are written in full)
    and each move's remaining words; with `middles`, one word of which comes between the two (a
    move for every middle and every ending)."""

    prefix: str
    endings: tuple[str, ...]
    middles: tuple[str, ...] = ()

    def moves(self) -> list[str]:
        if self.middles:
            return [f"{self.prefix} {middle} {ending}" for middle in self.middles for ending in self.endings]
        return [f"{self.prefix} {ending}" if self.prefix else ending for ending in self.endings]


def joined(runs: list[Run]) -> list[Run]:
    """`runs` with those in a row whose prefixes differ only in their last word, and whose
    endings are the same, said as one run with middles."""
    out: list[Run] = []
    for run in runs:
        stem, _, last = run.prefix.rpartition(" ")
        before = out[-1] if out else None
        before_stem = "" if before is None else before.prefix if before.middles else before.prefix.rpartition(" ")[0]
        if before is not None and stem and before_stem == stem and before.endings == run.endings:
            middles = before.middles or (before.prefix.rpartition(" ")[2],)
            out[-1] = Run(stem, run.endings, (*middles, last))
        else:
            out.append(run)
    return out


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
        groups.append(Group(title, joined(runs)))
    return groups


def clean(text: str) -> str:
    """A name or word put in a title, with the marks the written form uses for its own structure
    (": ", "; ") made harmless."""
    return text.replace(":", " ").replace(";", ",").strip()


def written(group: Group, game: Game, language: str) -> str:
    """One group in words, its moves written with `language`'s notation words."""
    spoken = type(game).spoken
    then, alternatives = say(THEN), say(OR)
    parts = []
    for run in group.runs:
        endings = ITEMS.join(spoken(ending, language) for ending in run.endings)
        prefix = spoken(run.prefix, language)
        if run.middles:
            prefix += " " + alternatives.join(spoken(middle, language) for middle in run.middles)
        parts.append(f"{prefix}{then}{endings}" if run.prefix else endings)
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
    then, alternatives = say(THEN), say(OR)
    moves: list[str] = []
    for run in body.split(RUNS):
        if then in run:
            prefix, _, endings = run.partition(then)
            first, *others = prefix.split(alternatives)
            stem = first.rpartition(" ")[0]
            prefixes = [first, *(f"{stem} {other}" for other in others)]
            moves.extend(f"{each} {ending}" for each in prefixes for ending in endings.split(ITEMS))
        else:
            moves.extend(run.split(ITEMS))
    return moves
