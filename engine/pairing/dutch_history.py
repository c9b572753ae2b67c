"""What the FIDE Dutch system (C.04.3, 2025) needs to know of each player from the earlier
rounds: score, colour history, floats, opponents met and whether the pairing-allocated bye may
still go to them.

Forfeited games are not games played (C.04.1, Article 6 of the basic rules; C.04.2): they do not
count in the colour history, and the two players may be paired again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from engine.pairing.records import Bye, Result, Round

WHITE = "w"
BLACK = "b"


class Float(Enum):
    """A player's float in one round (C.04.3 Article 1.4)."""

    NONE = 0
    DOWN = 1
    UP = 2


@dataclass
class History:
    """One player as the earlier rounds left them."""

    number: int
    score: float = 0.0
    colours: list[str] = field(default_factory=list)
    """The colours of the games actually played, oldest first."""
    met: set[int] = field(default_factory=set)
    """The opponents of games actually played (C.04.1: two players meet at most once)."""
    floats: list[Float] = field(default_factory=list)
    """One entry a round of `rounds`, oldest first."""
    bye_eligible: bool = True
    """False once they had the pairing-allocated bye or scored a win without playing (C.04.1)."""

    @property
    def played(self) -> int:
        """How many games they played over the board."""
        return len(self.colours)

    @property
    def colour_difference(self) -> int:
        """Games with white minus games with black (C.04.3 Article 1.6)."""
        return self.colours.count(WHITE) - self.colours.count(BLACK)

    @property
    def repeated(self) -> int:
        """How many of their latest played games in a row had the colour of the last one."""
        if not self.colours:
            return 0
        last, count = self.colours[-1], 0
        for colour in reversed(self.colours):
            if colour != last:
                break
            count += 1
        return count

    @property
    def preference(self) -> str | None:
        """The colour they are due (C.04.3 Article 1.7): the one they had fewer times, else the one
        alternating from their last game; None before their first game."""
        difference = self.colour_difference
        if difference > 1:
            return BLACK
        if difference < -1:
            return WHITE
        if self.repeated > 1:
            return _other(self.colours[-1])
        if difference:
            return BLACK if difference > 0 else WHITE
        return _other(self.colours[-1]) if self.colours else None

    @property
    def absolute(self) -> bool:
        """An absolute preference: colour difference beyond ±1, or the same colour in the last two
        games played (Article 1.7.1)."""
        return abs(self.colour_difference) > 1 or self.repeated > 1

    @property
    def strong(self) -> bool:
        """A strong (not absolute) preference: colour difference ±1 (Article 1.7.2)."""
        return not self.absolute and abs(self.colour_difference) == 1

    def float_back(self, rounds_back: int) -> Float:
        """Their float `rounds_back` rounds ago (1: the previous round)."""
        if len(self.floats) < rounds_back:
            return Float.NONE
        return self.floats[-rounds_back]


def _other(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


def histories(rounds: Sequence[Round], players: Sequence[int], *, bye_points: float = 1.0,
              win_points: float = 1.0) -> dict[int, History]:
    """Each of `players` (and everyone in `rounds`) as the rounds left them.

    Floats (Article 1.4): after a game between players of different scores (as they stood before
    the round), the higher receives a downfloat, the lower an upfloat; a player who scores more
    than a loss without playing also receives a downfloat."""
    known: dict[int, History] = {p: History(p) for p in players}
    for round_ in rounds:
        for p in round_.players():
            known.setdefault(p, History(p))
    for round_ in rounds:
        before = {p: h.score for p, h in known.items()}
        seen: set[int] = set()
        for board in round_.boards:
            first, second = known[board.first], known[board.second]
            seen.update((board.first, board.second))
            result = board.result
            got = result.points() if result else (0.0, 0.0)
            first.score += got[0]
            second.score += got[1]
            if result is not None and not result.played:
                for who, pts in ((first, got[0]), (second, got[1])):
                    who.floats.append(Float.DOWN if pts > 0 else Float.NONE)
                    if pts >= win_points:
                        who.bye_eligible = False
                continue
            first.colours.append(WHITE)
            second.colours.append(BLACK)
            first.met.add(board.second)
            second.met.add(board.first)
            a, b = before[board.first], before[board.second]
            first.floats.append(Float.DOWN if a > b else Float.UP if a < b else Float.NONE)
            second.floats.append(Float.DOWN if b > a else Float.UP if b < a else Float.NONE)
        for sat in round_.sat_out:
            who = known[sat.player]
            seen.add(sat.player)
            pts = sat.bye.points(bye_points)
            who.score += pts
            who.floats.append(Float.DOWN if pts > 0 else Float.NONE)
            if sat.bye is Bye.ALLOCATED or (sat.bye is Bye.FULL_POINT and pts >= win_points):
                who.bye_eligible = False
        for p, who in known.items():
            if p not in seen:
                who.floats.append(Float.NONE)
    return known


def unplayed_result(result: Result | None) -> bool:
    """Whether a board's result means the game was not played."""
    return result is not None and not result.played
