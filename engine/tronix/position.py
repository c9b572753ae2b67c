"""Tronix positions (rules §5): one moment of a game as JSON, read back with every rule the
position could break refused by name."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

from engine.core import GameOptions, GameShape, Outcome, PositionError, check_result
from engine.tronix.cards import GREEN, KINDS, PINK, Cell, read_pattern
from engine.tronix.lines import circuits
from engine.tronix.options import TronixOptions
from engine.tronix.phases import ENDINGS, OVER, PLACEMENT
from engine.tronix.state import Card, Seat


class TronixTable(GameShape, Protocol):
    """The state of a Tronix game that a position records."""

    seats: list[Seat]
    table: dict[Cell, Card]
    turn: int
    actions_left: int
    phase: str
    locked: Cell | None
    piles: dict[str, int]
    discarded: int
    quiet: int
    seen: Counter[str]
    end_reason: str

    @property
    def per_turn(self) -> int: ...

    @property
    def options(self) -> TronixOptions: ...

    def patterns(self) -> dict[Cell, str]: ...


GameT = TypeVar("GameT", bound=TronixTable)


def table_entries(game: TronixTable) -> list[dict[str, Any]]:
    """The cards on the table in the order they reached their cells (a card turned in place keeps
    its place), each with its cell, kind and pattern; `read` lays them back in this order."""
    return [{"at": list(cell), "kind": card.kind, "pattern": card.pattern} for cell, card in game.table.items()]


def write(game: TronixTable) -> dict[str, Any]:
    seats = []
    for s in game.seats:
        entry: dict[str, Any] = {"name": s.name, "team": s.team, "hand": list(s.hand)}
        if s.resigned:
            entry["resigned"] = True
        seats.append(entry)
    outcome = game.outcome()
    return {"game": game.name, "options": game.options.differences(), "seats": seats, "turn": game.turn,
            "actions_left": game.actions_left, "phase": game.phase, "table": table_entries(game),
            "locked": list(game.locked) if game.locked else None, "piles": dict(game.piles),
            "discarded": game.discarded, "quiet": game.quiet, "seen": dict(game.seen),
            "result": outcome.to_json() if outcome is not None else None}


def _cell(value: Any, where: str) -> Cell:
    if not isinstance(value, list | tuple) or len(value) != 2 or not all(isinstance(v, int) for v in value):
        raise PositionError(f"{where} must be a cell like [1, 0]")
    return int(value[0]), int(value[1])


def read(cls: type[GameT], data: Mapping[str, Any], *, seed: int, options: GameOptions) -> GameT:
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) % 2 or not cls.min_players <= len(seats) <= cls.max_players:
        raise PositionError("seats must list an even number of players, 2 to 16")
    game = cls(len(seats), seed, options, [str(s.get("name", f"P{i + 1}")) for i, s in enumerate(seats)])
    for index, (seat, entry) in enumerate(zip(game.seats, seats, strict=True)):
        team = entry.get("team", seat.team)
        if team not in (GREEN, PINK):
            raise PositionError(f"seat {index}'s team must be green or pink, not {team!r}")
        hand = entry.get("hand", [])
        if not isinstance(hand, list) or any(k not in KINDS for k in hand):
            raise PositionError(f"seat {index}'s hand must list card kinds: {', '.join(KINDS)}")
        seat.team, seat.hand, seat.resigned = team, list(hand), bool(entry.get("resigned", False))
    if Counter(s.team for s in game.seats)[GREEN] != len(seats) // 2:
        raise PositionError("the two teams must be the same size")
    for index, entry in enumerate(data.get("table", [])):
        cell = _cell(entry.get("at") if isinstance(entry, dict) else None, f"table card {index + 1}")
        kind = entry.get("kind", "cx")
        pattern = read_pattern(str(entry.get("pattern", "")))
        if kind not in KINDS or pattern is None or pattern not in KINDS[kind]:
            raise PositionError(f"table card {index + 1} must be a kind ({', '.join(KINDS)}) showing one of its "
                                "patterns")
        if cell in game.table:
            raise PositionError(f"two cards at {cell[0]},{cell[1]}")
        game.table[cell] = Card(kind, pattern)
    phase = data.get("phase", "placement")
    if phase not in ("placement", "god", "over"):
        raise PositionError("phase must be placement, god or over")
    game.phase = phase
    game.turn = int(data.get("turn", 0))
    if not 0 <= game.turn < game.players:
        raise PositionError(f"turn must be a seat from 0 to {game.players - 1}")
    game.actions_left = int(data.get("actions_left", game.per_turn))
    if not 1 <= game.actions_left <= game.per_turn:
        raise PositionError(f"actions_left must be 1 to {game.per_turn}")
    locked = data.get("locked")
    game.locked = _cell(locked, "locked") if locked is not None else None
    if game.locked is not None and game.locked not in game.table:
        raise PositionError("locked must be the cell of a card on the table")
    piles = data.get("piles", {})
    game.piles = {GREEN: int(piles.get(GREEN, 0)), PINK: int(piles.get(PINK, 0))}
    game.discarded = int(data.get("discarded", 0))
    game.quiet = int(data.get("quiet", 0))
    game.seen = Counter({str(k): int(v) for k, v in dict(data.get("seen", {})).items()})
    result = Outcome.from_position(data.get("result"), game.players)
    if result is not None:
        game.end_reason = result.reason
    _check(game)
    check_result(game, result)
    return game


def _check(game: TronixTable) -> None:
    """Refuse what the rules could not have left on the table or in the hands."""
    active = [s for s in game.seats if not s.resigned]
    if any(s.hand for s in game.seats if s.resigned):
        raise PositionError("a seat that left the game holds no cards (they are discarded)")
    whole_team_left = {s.team for s in active} != {GREEN, PINK}
    if game.phase == OVER:
        if whole_team_left != (game.end_reason == ENDINGS["team"]):
            raise PositionError(f"the game ends by \"{ENDINGS['team']}\" exactly when every seat of a team has left")
        if game.table and not whole_team_left:
            raise PositionError("a game that ends on the table ends with the table empty (its cards are won or "
                                "discarded)")
        if game.end_reason not in ENDINGS.values():
            raise PositionError(f"a game ends by one of: {', '.join(ENDINGS.values())}")
        return
    if whole_team_left:
        raise PositionError("every seat of a team has left, so the game is over: give its result")
    if game.seats[game.turn].resigned:
        raise PositionError("turn must be a seat still playing")
    closed = circuits(game.patterns())
    if closed:
        cell = closed[0].cells()
        first = min(cell)
        raise PositionError(f"the line through {first[0]},{first[1]} is a closed circuit, so its cards would have "
                            f"been won")
    holding = any(s.hand for s in active)
    if game.phase == PLACEMENT:
        if not holding:
            raise PositionError("every hand is empty, so God Mode has begun: the phase is god")
        if not game.seats[game.turn].hand:
            raise PositionError("in the placement phase the seat to act must hold a card")
        return
    if holding:
        raise PositionError("God Mode begins when every hand is empty; a seat still holds cards")
    if len(game.table) < 2:
        raise PositionError("God Mode needs two cards on the table or more (fewer ends the game)")
    options = game.options
    if options.quiet_limit and game.quiet >= options.quiet_limit:
        raise PositionError(f"{game.quiet} God Mode actions in a row without scoring end the game (the limit is "
                            f"{options.quiet_limit})")
    # God Mode's first position is counted without the check (which follows each action), so with a
    # limit of 1 it may stand at 1.
    limit = max(options.repetitions, 2)
    if options.repetitions and any(count >= limit for count in game.seen.values()):
        raise PositionError(f"a position seen {options.repetitions} times ends the game")
