"""The FIDE Tournament Report File of a two-player Swiss or round robin, so an arbiter's tools
(and the pairing engines bbpPairings and JaVaFo) can re-check every pairing; `parse` reads one
back.

What is written (TRF-16's fixed columns, with the TRF-2026 codes and the TRF(x) lines the pairing
engines read):

- header lines: `012` name, `022` city, `032` federation, `042`/`052` first and last day,
  `062` players, `072` rated players, `092` the system in words, `102` chief arbiter, `112`
  deputies, `122` time control, `132` each round's date (from column 92, 10 columns a round);
  for the engines `142` and `XXR` (rounds planned), `152` and `XXC white1` (the first seat,
  tileref's white, goes to the top player in round 1), `192 FIDE_DUTCH_2025` for a Dutch
  Swiss, and `162` (the points of a result) where a pairing-allocated bye is not worth a win;
- one `001` line a player: the starting rank at 5–8, the name at 15–47, the rating at 49–52,
  the points at 81–84, the rank at 86–89, then a 10-column block a round from column 92: the
  opponent's starting rank (`0000` for none), the colour (`w`, `b` or `-`) and the result
  (`1`, `=`, `0`; `+` and `-` for forfeits; a bye's `U` allocated, `H` half-point, `F`
  full-point, `Z` zero-point). A player in no board of a round is written `0000 - Z`.

Only finished rounds are written (a round with a game still on, and every round after it, is
left out), except `absent`: players known not to play in the round to be paired next, written
as a zero-point bye in it, as the engines read them. Columns count characters: names are
written in full Unicode (bbpPairings reads the file as UTF-8), cleaned onto one line.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from engine.pairing.records import Board, Bye, Result, Round, SatOut
from engine.pairing.standings import swiss_table
from engine.pairing.tiebreaks import SWISS_ORDER

_CODES = {
    Result.FIRST_WON: ("1", "0"),
    Result.SECOND_WON: ("0", "1"),
    Result.DRAWN: ("=", "="),
    Result.FIRST_WON_BY_FORFEIT: ("+", "-"),
    Result.SECOND_WON_BY_FORFEIT: ("-", "+"),
    Result.BOTH_FORFEITED: ("-", "-"),
}
_RESULTS = {codes: result for result, codes in _CODES.items()}
DUTCH = "FIDE_DUTCH_2025"
"""TRF-2026's name (line 192) for the FIDE Dutch system, C.04.3 as of 2025."""


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
    """The system in words, as TRF's 092 line writes it (e.g. "Individual: Swiss-System")."""
    rounds_planned: int
    time_control: str = ""
    city: str = ""
    federation: str = ""
    arbiter: str = ""
    deputies: tuple[str, ...] = ()
    round_dates: tuple[str, ...] = ()
    """Each round's date, YY/MM/DD, for line 132."""
    system: str = ""
    """The pairing engine's name for the system (line 192: `DUTCH`); "" for a round robin."""
    first_white: bool = True
    """Whether the top player had white (the first seat) in round 1 (lines 152, XXC)."""


@dataclass(frozen=True)
class Report:
    """A report read back: its event, starting list, finished rounds (boards ordered by the
    first seat's number), and the points and rank each player's line gives."""

    event: Event
    entrants: tuple[Entrant, ...]
    rounds: tuple[Round, ...]
    points: dict[int, float] = field(default_factory=dict)
    ranks: dict[int, int] = field(default_factory=dict)
    absent: frozenset[int] = frozenset()
    planned: int | None = None
    """The rounds planned as the file gives them (`XXR`, `142`), None where it does not."""

    @property
    def rounds_planned(self) -> int | None:
        """The rounds planned as the file gives them (None where it does not)."""
        return self.planned


Parsed = Report
"""The name the Dutch pairing's tests know a report read back by."""


def finished(round_: Round) -> bool:
    """Whether every board of `round_` has a result."""
    return all(board.result is not None for board in round_.boards)


def report(event: Event, entrants: Sequence[Entrant], rounds: Sequence[Round], *, allocated_bye: float = 1.0,
           order: Sequence[str] = SWISS_ORDER, absent: Collection[int] = ()) -> str:
    """The TRF of the tournament so far (the rounds up to the first unfinished one), players
    ranked by points and `order`'s tie-breaks; `absent`: players who will not be paired in the
    next round (written as its zero-point byes)."""
    done: list[Round] = []
    for round_ in rounds:
        if not finished(round_):
            break
        done.append(round_)
    table = swiss_table(done, [e.number for e in entrants], order=order, allocated_bye=allocated_bye)
    rank = {row.player: place for place, row in enumerate(table, 1)}
    points = {row.player: row.points for row in table}
    lines = [_header(event, entrants, allocated_bye)]
    for entrant in sorted(entrants, key=lambda e: e.number):
        head = (f"001 {entrant.number:>4}      {_clean(entrant.name)[:33]:<33} {entrant.rating or '':>4}"
                f"{'':<28}{points[entrant.number]:>4.1f} {rank[entrant.number]:>4}  ")
        blocks = "".join(_block(entrant.number, round_) for round_ in done)
        if entrant.number in absent:
            blocks += f"0000 - {Bye.ZERO_POINT.value}  "
        lines.append((head + blocks).rstrip())
    return "\n".join(lines) + "\n"


def _header(event: Event, entrants: Sequence[Entrant], allocated_bye: float) -> str:
    lines = [f"012 {_clean(event.name)}", f"022 {_clean(event.city)}" if event.city else "",
             f"032 {_clean(event.federation)}" if event.federation else "",
             f"042 {event.start}", f"052 {event.end}", f"062 {len(entrants)}",
             f"072 {sum(1 for e in entrants if e.rating)}", f"092 {_clean(event.kind)}",
             f"102 {_clean(event.arbiter)}" if event.arbiter else "",
             *(f"112 {_clean(deputy)}" for deputy in event.deputies),
             f"122 {_clean(event.time_control)}" if event.time_control else "",
             f"{'132':<91}" + "".join(f"{day:<10}" for day in event.round_dates).rstrip()
             if event.round_dates else "",
             f"142 {event.rounds_planned}", f"152 {'W' if event.first_white else 'B'}",
             f"162  W{1.0:>4.1f}    D{0.5:>4.1f}    P{allocated_bye:>4.1f}" if allocated_bye != 1.0 else "",
             f"192 {event.system}" if event.system else "",
             f"XXR {event.rounds_planned}", f"XXC {'white1' if event.first_white else 'black1'}"]
    return "\n".join(line for line in lines if line)


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


# ---------------------------------------------------------------------------------------------
# Reading


class TrfError(ValueError):
    """A file that is not a TRF tileref can read, saying which line and why."""


def parse(text: str) -> Report:
    """The report `text` holds (what `report` writes, and any TRF-16 or TRF(x) file of a
    two-player tournament); raises TrfError naming the line that cannot be read."""
    header: dict[str, list[str]] = {}
    players: dict[int, tuple[Entrant, float, int, list[tuple[int, str, str]]]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        code = line[:3]
        if not line.strip():
            continue
        if code != "001":
            header.setdefault(code, []).append(line[4:].rstrip() if code != "132" else line)
            continue
        try:
            entrant, points, rank, blocks = _player_line(line)
        except (ValueError, IndexError) as error:
            raise TrfError(f"line {number} is not a player line TRF can read ({error}): {line!r}") from error
        if entrant.number in players:
            raise TrfError(f"line {number}: starting rank {entrant.number} is given twice")
        players[entrant.number] = (entrant, points, rank, blocks)
    rounds_planned = int(_first(header, "XXR") or _first(header, "142") or 0)
    rounds_seen = max((len(blocks) for *_, blocks in players.values()), default=0)
    absent: set[int] = set()
    if rounds_planned and rounds_seen and rounds_seen <= rounds_planned:
        last = rounds_seen - 1
        only_byes = all(len(blocks) < rounds_seen or blocks[last] == (0, "-", "Z") for *_, blocks in players.values())
        shorter = any(len(blocks) < rounds_seen for *_, blocks in players.values())
        if only_byes and shorter:
            absent = {n for n, (*_, blocks) in players.items() if len(blocks) == rounds_seen}
            rounds_seen -= 1
    rounds = tuple(_round(players, index) for index in range(rounds_seen))
    planned = rounds_planned or None
    rounds_planned = rounds_planned or rounds_seen
    dates = header.get("132", [""])[0]
    colour = _first(header, "152") or {"white1": "W", "black1": "B"}.get(_first(header, "XXC").split(" ")[0], "")
    if not colour:
        colour = "W" if _first_white(rounds) else "B"
    event = Event(_first(header, "012"), _first(header, "042"), _first(header, "052"), _first(header, "092"),
                  rounds_planned, _first(header, "122"), _first(header, "022"), _first(header, "032"),
                  _first(header, "102"), tuple(header.get("112", [])),
                  tuple(dates[i:i + 10].strip() for i in range(91, len(dates), 10)), _first(header, "192"),
                  colour == "W")
    return Report(event, tuple(entry[0] for _, entry in sorted(players.items())), rounds,
                  {n: entry[1] for n, entry in players.items()}, {n: entry[2] for n, entry in players.items()},
                  frozenset(absent), planned)


def _first(header: dict[str, list[str]], code: str) -> str:
    return header.get(code, [""])[0].strip()


def _player_line(line: str) -> tuple[Entrant, float, int, list[tuple[int, str, str]]]:
    if len(line) < 84:
        raise ValueError("shorter than its points' columns")
    number = int(line[4:8])
    rating = int(line[48:52]) if line[48:52].strip() else 0
    points = float(line[80:84])
    rank = int(line[85:89]) if line[85:89].strip() else 0
    blocks: list[tuple[int, str, str]] = []
    for start in range(91, len(line), 10):
        block = line[start:start + 8].ljust(8)
        opponent = int(block[0:4]) if block[0:4].strip() else 0
        colour, result = block[5], block[7]
        if colour not in "wb- " or result not in "10=+-UHFZWDL ":
            raise ValueError(f"round {len(blocks) + 1} reads {block!r}")
        blocks.append((opponent, colour, result))
    return Entrant(number, line[14:47].rstrip(), rating), points, rank, blocks


def _round(players: dict[int, tuple[Entrant, float, int, list[tuple[int, str, str]]]], index: int) -> Round:
    boards: list[Board] = []
    sat_out: list[SatOut] = []
    for number, (*_, blocks) in sorted(players.items()):
        if index >= len(blocks):
            sat_out.append(SatOut(number, Bye.ZERO_POINT))
            continue
        opponent, colour, code = blocks[index]
        if opponent == 0:
            sat_out.append(SatOut(number, _bye(code, number, index)))
            continue
        if colour != "w":
            continue
        theirs = players.get(opponent)
        if theirs is None or index >= len(theirs[3]) or theirs[3][index][0] != number:
            raise TrfError(f"round {index + 1}: {number} and {opponent} do not list each other")
        their_code = theirs[3][index][2]
        if code == their_code == " ":
            boards.append(Board(number, opponent))
            continue
        result = _RESULTS.get((_plain(code), _plain(their_code)))
        if result is None:
            raise TrfError(f"round {index + 1}: {number} against {opponent} reads {code!r} and {their_code!r}")
        boards.append(Board(number, opponent, result))
    return Round(tuple(boards), tuple(sat_out))


def _plain(code: str) -> str:
    """An unrated game's result (W, D, L) read as a rated one's."""
    return {"W": "1", "D": "=", "L": "0"}.get(code, code)


def _bye(code: str, player: int, index: int) -> Bye:
    for bye in Bye:
        if bye.value == code:
            return bye
    if code in "- ":
        return Bye.ZERO_POINT
    raise TrfError(f"round {index + 1}: {player} has no opponent but the result {code!r}")


def paired_players(round_: Round) -> list[int]:
    """Who took part in the pairing of `round_`: everyone on a board, and the pairing-allocated
    bye (the other byes were given before the pairing)."""
    return sorted({p for b in round_.boards for p in (b.first, b.second)}
                  | {s.player for s in round_.sat_out if s.bye is Bye.ALLOCATED})


def initial_white(parsed: Report) -> bool:
    """The tournament's initial colour: as the file states it (lines 152, XXC), or as its first
    round shows it."""
    return parsed.event.first_white


def _first_white(rounds: Sequence[Round]) -> bool:
    """The initial colour as the first round shows it: the colour of the lowest pairing number
    who played (C.04.3 Article 5.2.5)."""
    for round_ in rounds:
        seats = {b.first: True for b in round_.boards} | {b.second: False for b in round_.boards}
        if seats:
            return seats[min(seats)]
    return True
