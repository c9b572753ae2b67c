"""A player who cannot see the board, for tests: it reads only the texts a screen reader would
(the board's description and the legal moves grouped in words) and chooses its move from what
they say. It never looks at a picture or at the game's engine."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

GIVING_UP = ("concede", "forfeit", "resign", "ceder", "abandonar")
"""Moves a player who wants to finish the game does not pick while it has others."""
HEADINGS = ("Your moves:", "Tus jugadas:")
"""The line that comes before the groups of moves, in English and in Spanish."""
THEN = (", then ", ", luego ")
OR = (" or ", " o ")


def moves_of_group(line: str) -> list[str]:
    """The moves one group's words offer, as typed: `TITLE: RUN; RUN`, a run being moves written
    in full (", " between them) or `PREFIX, then ENDING, ENDING`, PREFIX perhaps `STEM A or B`."""
    _, _, body = line.partition(": ")
    moves: list[str] = []
    for run in body.split("; "):
        then = next((word for word in THEN if word in run), None)
        if then:
            prefix, _, endings = run.partition(then)
            alternatives = next((word for word in OR if word in prefix), None)
            prefixes = [prefix]
            if alternatives:
                first, *others = prefix.split(alternatives)
                stem = first.rpartition(" ")[0]
                prefixes = [first, *(f"{stem} {other}" for other in others)]
            moves.extend(f"{each} {ending}" for each in prefixes for ending in endings.split(", "))
        else:
            moves.extend(run.split(", "))
    return moves


def groups_in(text: str) -> list[str] | None:
    """The group lines of the last moves list in `text` (None when `text` has none)."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() in HEADINGS]
    if not starts:
        return None
    groups = []
    for line in lines[starts[-1] + 1:]:
        if ": " not in line:
            break
        groups.append(line)
    return groups


@dataclass
class ScreenReaderPlayer:
    """Picks a move, seeded, from the groups it was last read; a giving-up move only if nothing
    else is offered. `heard` keeps every text it was read, for the test to look at."""

    seed: int = 0
    heard: list[str] = field(default_factory=list)
    moves_made: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, text: str) -> str | None:
        """The move to type after reading `text`, or None if `text` offers no moves."""
        self.heard.append(text)
        groups = groups_in(text)
        if not groups:
            return None
        offered = [move for group in groups for move in moves_of_group(group)]
        playing = [move for move in offered if not move.lower().startswith(GIVING_UP)] or offered
        self.moves_made += 1
        return self.rng.choice(playing)
