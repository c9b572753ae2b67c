"""The FIDE Tournament Report File (TRF-16, with the TRF(x) lines the common pairing engines
read, `XXR` and `XXC`) of a two-player Swiss or round robin, so an arbiter's tools can check
every pairing.

A player line (`001`) is fixed columns: the starting rank at 5–8, the name at 15–47, the
rating at 49–52, the points at 81–84, the rank at 86–89, then one 10-column block a round from
column 92: the opponent's starting rank (4 columns; `0000` for none), the colour (`w`, `b` or `-`)
and the result (`1`, `0`, `=`, `+`, `-`, or a bye's `U`, `H`, `F`, `Z`). Only finished rounds
are written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.pairing.records import Board, Bye, Result, Round
from engine.pairing.standings import standings

_CODES = {
    Result.FIRST_WON: ("1", "0"),
    Result.SECOND_WON: ("0", "1"),
    Result.DRAWN: ("=", "="),
    Result.FIRST_WON_BY_FORFEIT: ("+", "-"),
    Result.SECOND_WON_BY_FORFEIT: ("-", "+"),
    Result.BOTH_FORFEITED: ("-", "-"),
}


@dataclass(frozen=True)
class Entrant:
    """A player on the starting list: `number` is their starting rank (pairing number)."""

    number: int
    name: str
    rating: int = 0


@dataclass(frozen=True)
class Event:
    """What the report says about the tournament itself."""

    name: str
    start: str
    """The first round's date, YYYY/MM/DD."""
    end: str
    kind: str
    """The system, as TRF's 092 line writes it (e.g. "Individual: Swiss-System (Dutch)")."""
    rounds_planned: int
    time_control: str = ""


def finished(round_: Round) -> bool:
    """Whether every board of `round_` has a result."""
    return all(board.result is not None for board in round_.boards)


def report(event: Event, entrants: Sequence[Entrant], rounds: Sequence[Round], *,
           allocated_bye: float = 1.0) -> str:
    """The TRF of the tournament so far (the rounds up to the first unfinished one)."""
    done: list[Round] = []
    for round_ in rounds:
        if not finished(round_):
            break
        done.append(round_)
    table = standings(done, [e.number for e in entrants], allocated_bye=allocated_bye)
    rank = {row.player: place for place, row in enumerate(table, 1)}
    points = {row.player: row.points for row in table}
    lines = [
        f"012 {_clean(event.name)}",
        f"042 {event.start}",
        f"052 {event.end}",
        f"062 {len(entrants)}",
        f"072 {sum(1 for e in entrants if e.rating)}",
        f"092 {event.kind}",
        f"122 {_clean(event.time_control)}" if event.time_control else "",
        f"XXR {event.rounds_planned}",
        "XXC white1",
    ]
    lines = [line for line in lines if line]
    for entrant in sorted(entrants, key=lambda e: e.number):
        head = (f"001 {entrant.number:>4}      {_clean(entrant.name)[:33]:<33} {entrant.rating or '':>4}"
                f"{'':<28}{points[entrant.number]:>4.1f} {rank[entrant.number]:>4}  ")
        blocks = "".join(_block(entrant.number, round_) for round_ in done)
        lines.append((head + blocks).rstrip())
    return "\n".join(lines) + "\n"


def _block(player: int, round_: Round) -> str:
    for board in round_.boards:
        if player in (board.first, board.second):
            return _board_block(player, board)
    for sat in round_.sat_out:
        if sat.player == player:
            return f"0000 - {sat.bye.value}  "
    return f"0000 - {Bye.ZERO_POINT.value}  "


def _board_block(player: int, board: Board) -> str:
    assert board.result is not None
    first_code, second_code = _CODES[board.result]
    if player == board.first:
        return f"{board.second:>4} w {first_code}  "
    return f"{board.first:>4} b {second_code}  "


def _clean(text: str) -> str:
    """`text` on one line, as TRF's fixed columns need."""
    return " ".join(text.split())
