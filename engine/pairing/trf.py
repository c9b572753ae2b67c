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

from engine.pairing.records import Board, Bye, Result, Round, SatOut
from engine.pairing.tiebreaks import standings

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


@dataclass(frozen=True)
class Parsed:
    """What a TRF says: the starting list, the rounds (boards ordered by white's number; the
    file does not keep board order), and the planned number of rounds if it gives one (`XXR`)."""

    entrants: tuple[Entrant, ...]
    rounds: tuple[Round, ...]
    rounds_planned: int | None


_PLAYED = {"1": Result.FIRST_WON, "0": Result.SECOND_WON, "=": Result.DRAWN,
           "W": Result.FIRST_WON, "L": Result.SECOND_WON, "D": Result.DRAWN}
_BYES = {"U": Bye.ALLOCATED, "H": Bye.HALF_POINT, "F": Bye.FULL_POINT, "Z": Bye.ZERO_POINT,
         "-": Bye.ZERO_POINT, " ": Bye.ZERO_POINT}


def parse(text: str) -> Parsed:
    """Read a TRF (TRF-16, TRF(x) or TRF-2026 player lines). Raises ValueError on a line it
    cannot read or games whose two sides disagree."""
    entrants: list[Entrant] = []
    blocks: dict[int, list[tuple[int, str, str]]] = {}
    planned: int | None = None
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if line.startswith("XXR"):
            planned = int(line[3:].split()[0])
        if not line.startswith("001"):
            continue
        try:
            number = int(line[4:8])
            rating = int(line[48:52]) if line[48:52].strip() else 0
        except ValueError as error:
            raise ValueError(f"unreadable player line: {line!r}") from error
        entrants.append(Entrant(number, line[14:47].strip(), rating))
        own = []
        rest = line[91:]
        for start in range(0, len(rest), 10):
            block = rest[start:start + 8].ljust(8)
            if not block.strip():
                own.append((0, "-", " "))
                continue
            opponent = int(block[0:4]) if block[0:4].strip() else 0
            own.append((opponent, block[5], block[7]))
        blocks[number] = own
    count = max((len(b) for b in blocks.values()), default=0)
    rounds = []
    for r in range(count):
        boards: list[Board] = []
        sat: list[SatOut] = []
        for number, own in sorted(blocks.items()):
            if r >= len(own):
                continue
            opponent, colour, code = own[r]
            if opponent == 0 or opponent == number:
                if code in _BYES:
                    sat.append(SatOut(number, _BYES[code]))
                elif code != " ":
                    raise ValueError(f"player {number}, round {r + 1}: unknown bye code {code!r}")
                continue
            if colour != "w":
                continue
            theirs = blocks.get(opponent, [])
            other = theirs[r][2] if r < len(theirs) else "-"
            boards.append(Board(number, opponent, _result(code, other)))
        rounds.append(Round(tuple(boards), tuple(sat)))
    return Parsed(tuple(entrants), tuple(rounds), planned)


def _result(white: str, black: str) -> Result | None:
    if white in _PLAYED:
        return _PLAYED[white]
    if white == "+":
        return Result.FIRST_WON_BY_FORFEIT
    if white == "-":
        return Result.SECOND_WON_BY_FORFEIT if black == "+" else Result.BOTH_FORFEITED
    if white == " ":
        return None
    raise ValueError(f"unknown result code {white!r}")


def paired_players(round_: Round) -> list[int]:
    """Who took part in the pairing of `round_`: everyone on a board, and the pairing-allocated
    bye (the other byes were given before the pairing)."""
    return sorted({p for b in round_.boards for p in (b.first, b.second)}
                  | {s.player for s in round_.sat_out if s.bye is Bye.ALLOCATED})


def initial_white(parsed: Parsed) -> bool:
    """The tournament's initial colour as its first round shows it: the colour of the lowest
    pairing number who played (C.04.3 Article 5.2.5)."""
    for round_ in parsed.rounds:
        seats = {b.first: True for b in round_.boards} | {b.second: False for b in round_.boards}
        if seats:
            return seats[min(seats)]
    return True
