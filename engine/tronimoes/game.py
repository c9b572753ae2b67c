"""Tronimoes rules (shared/rules/tronimoes.md; section numbers below refer to it).

Players build lines of dominoes from a round leader in the middle of a square grid, matching
pips. A line that can no longer grow is dead; whoever laid the tile that boxed it in gets the
kill. A round is won by going out or by being the last line alive; the game ends after the
round led by 0:0.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from engine.core import (
    AmbiguousMove,
    Event,
    Game,
    GameOptions,
    IllegalMove,
    NotationError,
    NotYourTurn,
    Outcome,
    register,
)
from engine.tronimoes import notation
from engine.tronimoes.blocking import Claimant, blocking_region, most_first_tiles
from engine.tronimoes.board import HAND_SIZE, Tile, full_set, grid_for, tile_name
from engine.tronimoes.position import placed_entry, read_position, write_position
from engine.tronimoes.position_help import FORMAT as POSITION_HELP
from engine.tronimoes.refusals import explain_lay
from engine.tronimoes.state import (
    BETWEEN_ROUNDS,
    LEADER,
    OVER,
    PLAYING,
    Draw,
    Lay,
    Line,
    LineKey,
    Move,
    Pass,
    Placed,
    PlaceSpacer,
    Ready,
    Seat,
    free_line_key,
)

SPACER_LENGTH = 6


@dataclass(frozen=True)
class TronimoesOptions(GameOptions):
    ouroboros: bool = field(default=True, metadata={
        "help": "a new open end touching a matching open end of a footed line, your own line or a "
                "free line kills both (§4a)"})


SUMMARY = """\
**Tronimoes** — dominoes on a grid, one line per player.
• Each round a double is the **round leader** in the middle; every player's line starts from it. \
Lay a tile so that its matching half touches the open end of a line (a double's both ends are open).
• On your turn lay a tile, or `draw` once, then lay or `pass`. Passing makes you **chicken-footed**: \
others may play on your line and you may only play on your own until you lay a tile there. If your \
line has not started, choose a foot square next to the leader (`pass e5`); your first tile must cover it.
• A line that can no longer grow is **dead**. Whoever laid the tile that boxed it in scores +1, the \
victim −1 (your own line: net 0). Dead lines stay on the board.
• A **double** gives you another turn. With a double higher than every leader so far you may start a \
**free line**: put the 6-square `spacer` from the open end of a living line, then lay the double off \
its far end. Anyone not chicken-footed may play on free lines.
• You may not leave another player with no room to lay the first tile of their line.
• Win a round (+2) by going out or by being the last line alive. The game ends after the 0:0 round; \
the highest total wins."""

NOTATION_HELP = """\
Squares are written as on the board image: column letter, row number (`c4`).
• lay a tile: `3:5 c4 d4` (the first square is the half that matches), `on bob` / `on free1` to pick a line
• `draw`, `pass`, `pass e5` (choose your foot square), `spacer c2 c7`, `ready` (between rounds)"""


@register
class Tronimoes(Game):
    """The Tronimoes referee engine for 1 to 6 players."""

    name = "tronimoes"
    title = "Tronimoes"
    min_players = 1
    max_players = 6
    Options = TronimoesOptions
    summary = SUMMARY
    notation_help = NOTATION_HELP
    position_help = POSITION_HELP
    verbs = frozenset({"draw", "pass", "ready", "spacer", "on"})

    options: TronimoesOptions

    def __init__(self, players: int, seed: int, options: GameOptions, names: list[str]) -> None:
        super().__init__(players, seed, options, names)
        self.grid, self.max_pips = grid_for(players)
        self.seats = [Seat(name) for name in names]
        self.board: list[Placed] = []
        self.occupied = bytearray(self.grid.size)
        self.lines: dict[LineKey, Line] = {}
        self.free_lines = 0
        self.bag: list[Tile] = []
        self.leaders: list[int] = []
        self.highest_leader = -1
        self.turn = 0
        self.turns = 0
        """Turns begun so far (see `turn_count`)."""
        self.spacer: tuple[int, int] | None = None
        self.passes = 0
        self.phase = PLAYING
        self.round = 0
        self.last: dict[str, Any] | None = None
        self.round_result: dict[str, Any] | None = None
        self.end_reason = ""
        self.line_tokens = _seat_tokens(names)
        self._deck = self.random("deck")
        self._version = 0
        self._cache: dict[Any, Any] = {}
        self._parsed: tuple[int, int, str, Move] | None = None

    def setup(self) -> list[Event]:
        return self._start_round()

    # =========================================================================================
    # reading

    def to_move(self) -> tuple[int, ...]:
        if self.phase == PLAYING:
            return (self.turn,)
        if self.phase == BETWEEN_ROUNDS:
            return tuple(i for i, s in enumerate(self.seats) if not s.ready and not s.resigned)
        return ()

    def scores(self) -> tuple[float, ...]:
        return tuple(float(s.score) for s in self.seats)

    def turn_count(self) -> int:
        return self.turns

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """Other hands and the bag dealt again from the tiles `seat` cannot see (sizes kept);
        the rounds to come dealt from a fresh deck order."""
        copy = self.clone()
        others = [s for index, s in enumerate(copy.seats) if index != seat]
        unseen = sorted([tile for s in others for tile in s.hand] + copy.bag)  # whatever order they were in
        rng.shuffle(unseen)
        for other in others:
            size = len(other.hand)
            other.hand, unseen = unseen[:size], unseen[size:]
        copy.bag = unseen
        copy._deck = random.Random(rng.getrandbits(64))
        copy._cache = {}
        return copy

    def _reshuffle(self, rng: random.Random) -> None:
        """The bag and the deals of the rounds to come (no seat has seen either)."""
        rng.shuffle(self.bag)
        self._deck = random.Random(rng.getrandbits(64))
        self._cache = {}

    def is_resigned(self, seat: int) -> bool:
        return self.seats[seat].resigned

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = tuple(float(s.score) for s in self.seats)
        candidates = [i for i, s in enumerate(self.seats) if not s.resigned]
        if not candidates:
            return Outcome(scores, (), self.end_reason)
        best = max(self.seats[i].score for i in candidates)
        winners = tuple(i for i in candidates if self.seats[i].score == best)
        return Outcome(scores, winners, self.end_reason)

    def legal_actions(self, seat: int) -> list[str]:
        self._check_seat(seat)
        me = self.seats[seat]
        if self.phase == OVER or me.resigned:
            return []
        if self.phase == BETWEEN_ROUNDS:
            return [] if me.ready else ["ready"]
        if seat != self.turn:
            return []
        actions = list(self._lay_table(seat))
        actions += [notation.write(s, self.grid, None) for s in self._spacer_moves(seat)]
        if not me.drew and self.bag:
            actions.append("draw")
        else:
            actions += [notation.write(p, self.grid, None) for p in self._pass_moves(seat)]
        return actions

    def between_rounds(self) -> bool:
        return self.phase == BETWEEN_ROUNDS

    def timeout_actions(self, seat: int) -> list[str]:
        self._check_seat(seat)
        me = self.seats[seat]
        if self.phase == BETWEEN_ROUNDS and not me.ready and not me.resigned:
            return ["ready"]
        if self.phase != PLAYING or seat != self.turn:
            return []
        actions = []
        if not me.drew and self.bag:
            actions.append("draw")
        passes = self._pass_moves(seat, after_draw=True)
        actions.append(notation.write(passes[0], self.grid, None))
        return actions

    # =========================================================================================
    # lines and heads

    def head(self, line: Line) -> Placed:
        """The last tile of a line; a player line with no tiles yet ends at the round leader."""
        return self.board[line.tiles[-1]] if line.tiles else self.board[0]

    def _lines_in_priority(self, seat: int) -> list[Line]:
        """Own line, then other players' lines in seat order, then free lines in order."""
        others = [self.lines[s] for s in range(self.players) if s != seat]
        free = [self.lines[free_line_key(n)] for n in range(1, self.free_lines + 1)]
        return [self.lines[seat], *others, *free]

    def line_label(self, key: LineKey, viewer: int | None = None) -> str:
        if isinstance(key, str):
            return f"free line {key[4:]}" if key != LEADER else "the round leader"
        if key == viewer:
            return "your line"
        return f"{self.names[key]}'s line"

    def _feet(self) -> dict[int, int]:
        """Reserved foot squares of living chicken-footed players whose line has not started,
        each with the seat that reserved it."""
        if "feet" not in self._cache:
            self._cache["feet"] = {
                s.foot: seat for seat, s in enumerate(self.seats)
                if s.foot is not None and s.footed and not s.dead and not self.lines[seat].tiles}
        feet: dict[int, int] = self._cache["feet"]
        return feet

    def _active(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.resigned]

    def _next_seat(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if not self.seats[candidate].resigned:
                return candidate
        return seat

    # =========================================================================================
    # legality of lays (§3, §5)

    def _permission_problem(self, seat: int, line: Line) -> str | None:
        """Why `seat` may not use `line` at all now, or None."""
        me = self.seats[seat]
        if self.spacer is not None:
            far = self.grid.name(self.spacer[1])
            return (f"the spacer is down: the only tile you may lay now is a free-line leader, a double "
                    f"higher than {self.highest_leader}:{self.highest_leader} touching {far}")
        if line.key == seat:
            if line.dead or me.dead:
                return ("your line is dead; you may still play on free lines and on chicken-footed "
                        "players' lines")
            return None
        if line.dead:
            return f"{self.line_label(line.key)} is dead"
        if me.restricted:
            return "you are chicken-footed: you may only play on your own line until you lay a tile on it"
        if line.is_free:
            return None
        owner = self.seats[int(line.key)]
        if not owner.footed:
            return (f"{owner.name}'s line is not chicken-footed, so only {owner.name} may play on it")
        return None

    def _foot_problem(self, seat: int, line: Line, match: int, other: int) -> str | None:
        """The foot rule: a footed player's unstarted line starts through their foot square."""
        if line.is_free or line.tiles:
            return None
        owner = self.seats[int(line.key)]
        foot = owner.foot
        if not owner.footed or foot is None:
            return None
        if seat == line.key:
            if foot not in (match, other):
                return f"your first tile must cover your foot square {self.grid.name(foot)}"
        elif match != foot:
            return (f"{owner.name}'s line must start through their foot square {self.grid.name(foot)}, "
                    f"with the matching half on it")
        return None

    def _reserved_problem(self, line_key: LineKey | None, squares: tuple[int, ...]) -> str | None:
        """Another player's foot square may only be covered by a tile on that player's line."""
        feet = self._feet()
        for square in squares:
            owner = feet.get(square)
            if owner is not None and owner != line_key:
                name = self.names[owner]
                return (f"{self.grid.name(square)} is {name}'s foot square: only a tile on {name}'s line "
                        f"may cover it")
        return None

    def _claimants(self, seat: int) -> tuple[Claimant, ...]:
        key = ("claimants", seat)
        if key not in self._cache:
            self._cache[key] = tuple(
                Claimant(other, s.foot if s.footed else None)
                for other, s in enumerate(self.seats)
                if other != seat and not s.dead and not s.resigned and not self.lines[other].tiles)
        result: tuple[Claimant, ...] = self._cache[key]
        return result

    def _blocking_problem(self, seat: int, line_key: LineKey | None, squares: tuple[int, int]) -> str | None:
        """The no-blocking rule (§5): a lay may not take away any other unstarted player's room for
        a first tile. Counted exactly: the most unstarted players who could lay a first tile at
        once must not go down."""
        claimants = self._claimants(seat)
        if not claimants:
            return None
        region_key = ("region", seat)
        if region_key not in self._cache:
            self._cache[region_key] = blocking_region(self.grid, claimants)
        region = self._cache[region_key]
        if squares[0] not in region and squares[1] not in region:
            return None
        protected = tuple(c for c in claimants if c.seat != line_key)
        if not protected:
            return None
        feet = self._feet()
        before_key = ("packing", protected)
        if before_key not in self._cache:
            self._cache[before_key] = most_first_tiles(self.grid, self.occupied, protected, feet)
        before = self._cache[before_key]
        for square in squares:
            self.occupied[square] = 1
        try:
            after = most_first_tiles(self.grid, self.occupied, protected, feet)
        finally:
            for square in squares:
                self.occupied[square] = 0
        if after >= before:
            return None
        names = [self.names[c.seat] for c in protected]
        if len(names) == 1:
            return f"that would leave {names[0]} no room to lay the first tile of their line"
        return ("that would leave " + _join(names) + " without room for the first tiles of their lines "
                "(everyone must be able to start their line)")

    def _square_problem(self, seat: int, line: Line, match: int, other: int) -> str | None:
        """Problems of a lay that depend only on its squares and line, not on the tile."""
        return (self._foot_problem(seat, line, match, other)
                or self._reserved_problem(line.key, (match, other))
                or self._blocking_problem(seat, line.key, (match, other)))

    def _legal_lays(self, seat: int) -> list[Lay]:
        """Every legal lay for `seat` if it were their turn, in line priority order."""
        key = ("lays", seat)
        if key in self._cache:
            cached: list[Lay] = self._cache[key]
            return cached
        me = self.seats[seat]
        lays: list[Lay] = []
        if self.spacer is not None:
            lays = self._leader_lays(seat, self.spacer)
        else:
            hand = sorted(set(me.hand))
            occupied = self.occupied
            neighbours = self.grid.neighbours
            for line in self._lines_in_priority(seat):
                if self._permission_problem(seat, line):
                    continue
                head = self.head(line)
                wanted = head.next_pips
                tiles = [t for t in hand if wanted in t]
                if not tiles:
                    continue
                fits: dict[tuple[int, int], bool] = {}
                for end in head.open_squares:
                    for match in neighbours[end]:
                        if occupied[match]:
                            continue
                        for other in neighbours[match]:
                            if not occupied[other] and (match, other) not in fits:
                                fits[(match, other)] = self._square_problem(seat, line, match, other) is None
                found = []
                for (match, other), ok in fits.items():
                    if not ok:
                        continue
                    for t in tiles:
                        if t[0] == t[1]:
                            if fits.get((other, match)) and other < match:
                                continue
                            found.append(Lay(t, (match, other), (wanted, wanted), line.key))
                        else:
                            rest = t[1] if t[0] == wanted else t[0]
                            found.append(Lay(t, (match, other), (wanted, rest), line.key))
                found.sort(key=lambda lay: (lay.tile, lay.pips, lay.squares))
                lays.extend(found)
        self._cache[key] = lays
        return lays

    def _lay_table(self, seat: int) -> dict[str, Lay]:
        """Canonical text -> lay, for every legal lay. A placement that fits several lines is
        written plainly for the first line in priority and with `on <line>` for the others."""
        key = ("table", seat)
        if key in self._cache:
            cached: dict[str, Lay] = self._cache[key]
            return cached
        table: dict[str, Lay] = {}
        default_line: dict[frozenset[tuple[int, int]], LineKey | None] = {}
        for lay in self._legal_lays(seat):
            placement = lay.placement
            if placement not in default_line:
                default_line[placement] = lay.line
                suffix = None
            else:
                suffix = self.line_token(lay.line)
            table[notation.write(lay, self.grid, suffix)] = lay
        self._cache[key] = table
        return table

    def line_token(self, key: LineKey | None) -> str:
        """How a line is named after `on` in notation: a player's name token, or freeN."""
        if key is None or isinstance(key, str):
            return str(key)
        return self.line_tokens[key]

    # ---- free lines (§6) ---------------------------------------------------------------

    def _free_line_problem(self, seat: int) -> str | None:
        """Why `seat` cannot start a free line at all now, or None."""
        me = self.seats[seat]
        if me.restricted:
            return "you are chicken-footed: you may not start a free line until you lay a tile on your line"
        if not self.lines[seat].tiles:
            return "start your own line before you start a free line"
        if not self._leader_doubles(seat):
            top = self.highest_leader
            return (f"a free line needs a double higher than {top}:{top}, the highest leader this round, "
                    f"and you have none")
        return None

    def _leader_doubles(self, seat: int) -> list[Tile]:
        return sorted({t for t in self.seats[seat].hand if t[0] == t[1] and t[0] > self.highest_leader})

    def _leader_lays(self, seat: int, spacer: tuple[int, int]) -> list[Lay]:
        """Free-line leaders `seat` could lay off the far end of `spacer`."""
        if self._free_line_problem(seat):
            return []
        doubles = self._leader_doubles(seat)
        run = set(self.grid.line_between(*spacer) or ())
        far = spacer[1]
        lays: list[Lay] = []
        for first in self.grid.neighbours[far]:
            if self.occupied[first] or first in run:
                continue
            for second in self.grid.neighbours[first]:
                if self.occupied[second] or second in run:
                    continue
                squares = (first, second)
                if self._reserved_problem(None, squares) or self._blocking_problem(seat, None, squares):
                    continue
                lays.extend(Lay(d, squares, d, None, starts_free_line=True) for d in doubles)
        lays.sort(key=lambda lay: (lay.tile, lay.squares))
        return lays

    def _spacer_starts(self) -> dict[int, LineKey]:
        """Empty squares next to the open end of a living started player line or a living free
        line, each with the line it starts from (§6, §10.2)."""
        starts: dict[int, LineKey] = {}
        for line in self.lines.values():
            if line.dead or not line.tiles:
                continue
            for end in self.head(line).open_squares:
                for square in self.grid.neighbours[end]:
                    if not self.occupied[square]:
                        starts.setdefault(square, line.key)
        return starts

    def _spacer_moves(self, seat: int) -> list[PlaceSpacer]:
        key = ("spacers", seat)
        if key in self._cache:
            cached: list[PlaceSpacer] = self._cache[key]
            return cached
        moves = []
        if self._free_line_problem(seat) is None:
            for start in sorted(self._spacer_starts()):
                for end in self._spacer_ends(start):
                    if self._leader_lays(seat, (start, end)):
                        moves.append(PlaceSpacer(start, end))
        self._cache[key] = moves
        return moves

    def _spacer_ends(self, start: int) -> list[int]:
        """Far ends of straight 6-square runs of empty squares from `start`."""
        x, y = self.grid.xy(start)
        ends = []
        for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
            fx, fy = x + dx * (SPACER_LENGTH - 1), y + dy * (SPACER_LENGTH - 1)
            if not self.grid.on_board(fx, fy):
                continue
            run = self.grid.line_between(start, self.grid.square(fx, fy)) or []
            if all(not self.occupied[s] for s in run):
                ends.append(self.grid.square(fx, fy))
        return sorted(ends)

    # ---- passing (§5) ------------------------------------------------------------------

    def _needs_foot(self, seat: int) -> bool:
        me = self.seats[seat]
        return not me.dead and not me.footed and not self.lines[seat].tiles

    def _foot_squares(self, seat: int) -> list[int]:
        """Legal foot squares: next to the leader, empty, with an empty neighbour, and not
        another player's foot (unless every candidate is one)."""
        candidates = []
        for square in sorted(self.grid.leader_surround):
            if self.occupied[square]:
                continue
            if any(not self.occupied[n] for n in self.grid.neighbours[square]):
                candidates.append(square)
        feet = self._feet()
        free = [s for s in candidates if s not in feet]
        return free or candidates

    def _pass_moves(self, seat: int, *, after_draw: bool = False) -> list[Pass]:
        me = self.seats[seat]
        if not (me.drew or after_draw or not self.bag):
            return []
        if self._needs_foot(seat):
            feet = self._foot_squares(seat)
            if feet:
                return [Pass(square) for square in feet]
        return [Pass(None)]

    # =========================================================================================
    # parsing

    def parse(self, seat: int, text: str) -> str:
        self._check_seat(seat)
        request = notation.read(text, self.grid)
        me = self.seats[seat]
        if self.phase == OVER:
            raise IllegalMove("the game is over")
        if me.resigned:
            raise IllegalMove("you have left this game")
        if isinstance(request, Ready):
            return self._remember(seat, "ready", request, self._ready_problem(seat))
        if self.phase == BETWEEN_ROUNDS:
            raise IllegalMove(f"round {self.round} is over: type `ready` to start the next round")
        if seat != self.turn:
            raise NotYourTurn(f"it is {self.names[self.turn]}'s turn")
        if isinstance(request, Draw):
            problem = None
            if me.drew:
                problem = "you have already drawn this turn: lay a tile or `pass`"
            elif not self.bag:
                problem = "the bag is empty: lay a tile or `pass`"
            return self._remember(seat, "draw", request, problem)
        if isinstance(request, Pass):
            passing = self._read_pass(seat, request)
            return self._remember(seat, notation.write(passing, self.grid, None), passing, None)
        if isinstance(request, PlaceSpacer):
            spacer = self._read_spacer(seat, request)
            return self._remember(seat, notation.write(spacer, self.grid, None), spacer, None)
        text_out, lay = self._read_lay(seat, request)
        return self._remember(seat, text_out, lay, None)

    def _remember(self, seat: int, text: str, move: Move, problem: str | None) -> str:
        if problem:
            raise IllegalMove(problem)
        self._parsed = (self._version, seat, text, move)
        return text

    def _ready_problem(self, seat: int) -> str | None:
        if self.phase != BETWEEN_ROUNDS:
            return "the round is still being played; `ready` starts the next round once this one is over"
        if self.seats[seat].ready:
            waiting = [self.names[i] for i in self.to_move()]
            return f"you are ready; waiting for {_join(waiting)}"
        return None

    def _read_pass(self, seat: int, request: Pass) -> Pass:
        me = self.seats[seat]
        if not me.drew and self.bag:
            raise IllegalMove("you must draw before you pass: type `draw` first")
        options = self._pass_moves(seat)
        feet = [p.foot for p in options if p.foot is not None]
        if not feet:
            if request.foot is not None:
                if me.dead:
                    raise IllegalMove("your line is dead, so you pass without a foot square: type `pass`")
                if me.footed:
                    raise IllegalMove("you are already chicken-footed: type `pass`")
                raise IllegalMove("your line has started, so there is no foot square to choose: type `pass`")
            return Pass(None)
        names = ", ".join(self.grid.name(f) for f in feet)
        if request.foot is None:
            if len(feet) == 1:
                return Pass(feet[0])
            raise IllegalMove(f"passing makes you chicken-footed before your line has started: choose a foot "
                              f"square next to the leader for your first tile, e.g. `pass {self.grid.name(feet[0])}` "
                              f"(free: {names})")
        if request.foot in feet:
            return Pass(request.foot)
        square = self.grid.name(request.foot)
        if request.foot not in self.grid.leader_surround:
            reason = f"{square} is not next to the round leader"
        elif self.occupied[request.foot]:
            reason = f"{square} is taken"
        elif request.foot in self._feet():
            reason = f"{square} is already {self.names[self._feet()[request.foot]]}'s foot square"
        else:
            reason = (f"{square} has no empty square beside it, so you could never lay a tile through it "
                      f"(leave yourself at least one open square next to the foot)")
        raise IllegalMove(f"{reason}; choose one of {names}")

    def _read_spacer(self, seat: int, request: PlaceSpacer) -> PlaceSpacer:
        problem = self._free_line_problem(seat)
        if problem:
            raise IllegalMove(problem)
        a, b = request.start, request.end
        run = self.grid.line_between(a, b)
        an, bn = self.grid.name(a), self.grid.name(b)
        if run is None:
            raise IllegalMove(f"the spacer must lie in a straight line: {an} and {bn} are not in one row "
                              f"or column")
        if len(run) != SPACER_LENGTH:
            raise IllegalMove(f"the spacer spans exactly 6 squares; {an} to {bn} is {len(run)}")
        taken = [self.grid.name(s) for s in run if self.occupied[s]]
        if taken:
            raise IllegalMove(f"the spacer's squares must all be empty: {', '.join(taken)} "
                              f"{'is' if len(taken) == 1 else 'are'} taken")
        starts = self._spacer_starts()
        orders = [(a, b)] if a in starts else []
        if b in starts:
            orders.append((b, a))
        if not orders:
            raise IllegalMove(f"a spacer must start next to the open end of a living line; neither {an} "
                              f"nor {bn} is")
        for start, end in orders:
            if self._leader_lays(seat, (start, end)):
                return PlaceSpacer(start, end)
        far = self.grid.name(orders[0][1])
        raise IllegalMove(f"no double of yours could start a free line off {far}: there is no room for it "
                          f"there")

    def _read_lay(self, seat: int, request: notation.LayRequest) -> tuple[str, Lay]:
        me = self.seats[seat]
        wanted = request.tile
        if wanted is not None:
            if wanted[1] > self.max_pips:
                raise NotationError(f"there is no {tile_name(wanted)} in this game: pips run 0–{self.max_pips}")
            if wanted not in me.hand:
                raise IllegalMove(f"you do not have {tile_name(wanted)}")
        for square in request.squares:
            if self.occupied[square]:
                raise IllegalMove(f"{self.grid.name(square)} is taken")
        line_key = self._resolve_line(seat, request.line) if request.line else None
        table = self._lay_table(seat)
        matches = [(text, lay) for text, lay in table.items() if _fits(request, lay)]
        if request.line:
            matches = [(t, lay) for t, lay in matches if lay.line == line_key]
        else:
            matches = [(t, lay) for t, lay in matches if " on " not in t]
        if len(request.squares) == 2 and request.typed_pips and wanted and wanted[0] != wanted[1]:
            as_typed = [(t, lay) for t, lay in matches
                        if lay.pips[lay.squares.index(request.squares[0])] == request.typed_pips[0]]
            matches = as_typed or matches
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            texts = [t for t, _ in matches]
            if wanted is None:
                # The refusal may be shown to the whole table: it must not name tiles from the hand.
                raise AmbiguousMove("more than one of your tiles fits there: say which tile, before the squares, "
                                    "like `a:b c4 d4`", texts)
            shown = ", ".join(f"`{t}`" for t in texts[:8])
            more = f" and {len(texts) - 8} more" if len(texts) > 8 else ""
            raise AmbiguousMove(f"that fits {len(texts)} ways: {shown}{more}. Type the tile and both squares.",
                                texts)
        raise IllegalMove(explain_lay(self, seat, request, line_key))

    def _resolve_line(self, seat: int, text: str) -> LineKey | None:
        wanted = re.sub(r"\s+", " ", text.strip().lower())
        compact = wanted.replace(" ", "")
        if compact in ("me", "mine", "own", "myline", "myown", "yours"):
            return seat
        free = re.fullmatch(r"(?:free|f|freeline)(\d+)", compact)
        if free:
            number = int(free.group(1))
            if not 1 <= number <= self.free_lines:
                raise IllegalMove(f"there is no free line {number}" + (
                    f"; free lines so far: {', '.join(f'free{n}' for n in range(1, self.free_lines + 1))}"
                    if self.free_lines else " yet"))
            return free_line_key(number)
        for index, (token, name) in enumerate(zip(self.line_tokens, self.names, strict=True)):
            if compact in (token, name.lower().replace(" ", "")) or wanted == name.lower():
                return index
        numbered = re.fullmatch(r"(?:p|seat|player)?(\d+)", compact)
        if numbered and 1 <= int(numbered.group(1)) <= self.players:
            return int(numbered.group(1)) - 1
        known = [*self.line_tokens, *(f"free{n}" for n in range(1, self.free_lines + 1))]
        raise NotationError(f"there is no line called '{text}'; lines here: {', '.join(known)}")

    # =========================================================================================
    # acting

    def _execute(self, seat: int, action: str) -> list[Event]:
        parsed = self._parsed
        if parsed is None or parsed[:3] != (self._version, seat, action):
            self.parse(seat, action)
            parsed = self._parsed
        assert parsed is not None
        move = parsed[3]
        self._parsed = None
        self._changed()
        if isinstance(move, Lay):
            events = self._do_lay(seat, move)
        elif isinstance(move, Draw):
            events = self._do_draw(seat)
        elif isinstance(move, Pass):
            events = self._do_pass(seat, move)
        elif isinstance(move, PlaceSpacer):
            events = self._do_spacer(seat, move)
        else:
            events = self._do_ready(seat)
        self._changed()
        return events

    def _changed(self) -> None:
        self._version += 1
        self._cache.clear()

    def _do_lay(self, seat: int, lay: Lay) -> list[Event]:
        me = self.seats[seat]
        name = self.names[seat]
        was_alive = not me.dead
        me.hand.remove(lay.tile)
        if lay.starts_free_line:
            self.free_lines += 1
            line = Line(free_line_key(self.free_lines))
            self.lines[line.key] = line
            self.highest_leader = max(self.highest_leader, lay.pips[0])
        else:
            assert lay.line is not None
            line = self.lines[lay.line]
        placed = Placed(lay.pips, lay.squares, line.key, seat)
        line.tiles.append(len(self.board))
        self.board.append(placed)
        for square in lay.squares:
            self.occupied[square] = 1
        at = f"{self.grid.name(lay.squares[0])}–{self.grid.name(lay.squares[1])}"
        if lay.starts_free_line:
            where = f"and starts {self.line_label(line.key)}"
        elif line.key == seat:
            where = "on their own line"
        else:
            where = f"on {self.line_label(line.key)}"
        shown = f"{lay.pips[0]}:{lay.pips[1]}"
        events = [Event("lay", f"{name} lays {shown} at {at} {where}.", (seat,),
                        {"tile": tile_name(lay.tile), "squares": [self.grid.name(s) for s in lay.squares],
                         "line": line.key, "free_line": lay.starts_free_line})]
        if not line.is_free:
            owner = self.seats[int(line.key)]
            if len(line.tiles) == 1 and owner.foot is not None:
                owner.foot = None
        if me.footed:
            me.footed = False
            me.foot = None
            events.append(Event("unfoot", f"{name} is no longer chicken-footed.", (seat,)))
        self.spacer = None
        self.passes = 0
        self.last = {"seat": seat, "kind": "lay", "squares": [self.grid.name(s) for s in lay.squares]}

        if self.options.ouroboros and not lay.starts_free_line:
            events += self._ouroboros(seat, line, placed)
        events += self._cut_offs(seat)

        alive = [i for i in self._active() if not self.seats[i].dead]
        if was_alive and not me.hand:
            events += self._end_round(seat, f"{name} went out")
        elif len(alive) == 1 and self.players > 1:
            events += self._end_round(alive[0], f"{self.names[alive[0]]} is the last line standing")
        elif not alive:
            events += self._end_round(None, "no line is left standing")
        elif placed.is_double:
            me.drew = False
            self.turns += 1
            events.append(Event("again", f"A double: {name} plays again.", (seat,)))
        else:
            self._advance()
        return events

    def _ouroboros(self, seat: int, line: Line, placed: Placed) -> list[Event]:
        """§4a: the new open end meets a matching open end of a footed line, the mover's own line
        or a free line: those lines die, and the line the tile joined dies with any player line."""
        wanted = placed.next_pips
        ends = placed.open_squares
        adjacent = self.grid.neighbour_sets
        free_hit: list[LineKey] = []
        players_hit: list[LineKey] = []
        for other in self.lines.values():
            if other is line or other.dead:
                continue
            if not other.is_free and other.key != seat and not self.seats[int(other.key)].footed:
                continue
            head = self.head(other)
            if head is placed or head.next_pips != wanted:
                continue
            if any(b in adjacent[a] for a in ends for b in head.open_squares):
                (free_hit if other.is_free else players_hit).append(other.key)
        events = []
        for key in free_hit:
            events += self._kill_free_line(self.lines[key], "swallowed its own tail (ouroboros)")
        if players_hit:
            victims = sorted(set(players_hit) | ({line.key} if not line.is_free else set()))
            for victim in victims:
                events += self._kill(int(victim), seat, "ouroboros")
        return events

    def _is_cut_off(self, line: Line) -> bool:
        """§4b: no open end has an empty domino slot beside it. Pips are ignored."""
        occupied = self.occupied
        neighbours = self.grid.neighbours
        for end in self.head(line).open_squares:
            for near in neighbours[end]:
                if not occupied[near] and any(not occupied[far] for far in neighbours[near]):
                    return False
        return True

    def _cut_offs(self, mover: int) -> list[Event]:
        events = []
        for number in range(1, self.free_lines + 1):
            line = self.lines[free_line_key(number)]
            if not line.dead and self._is_cut_off(line):
                events += self._kill_free_line(line, "is cut off")
        for seat in range(self.players):
            if not self.seats[seat].dead and self._is_cut_off(self.lines[seat]):
                events += self._kill(seat, mover, "cut off")
        return events

    def _kill(self, victim: int, killer: int, how: str) -> list[Event]:
        self._mark_dead(victim)
        name, killer_name = self.names[victim], self.names[killer]
        if victim == killer:
            text = f"{name} boxed in their own line: it is dead (net 0)."
        else:
            self.seats[victim].score -= 1
            self.seats[killer].score += 1
            self.seats[killer].kills += 1
            verb = "closed an ouroboros on" if how == "ouroboros" else "cut off"
            text = f"{killer_name} {verb} {name}'s line: +1 {killer_name}, −1 {name}."
        return [Event("kill", text, (killer, victim), {"killer": killer, "victim": victim, "how": how,
                                                        "reaction": "skull"})]

    def _kill_free_line(self, line: Line, how: str) -> list[Event]:
        line.dead = True
        for index in line.tiles:
            self.board[index].dead = True
        return [Event("free_line_dead", f"{self.line_label(line.key).capitalize()} {how}: it is dead, "
                      f"and nobody scores.", (), {"line": line.key})]

    def _mark_dead(self, seat: int) -> None:
        self.seats[seat].dead = True
        line = self.lines[seat]
        line.dead = True
        for index in line.tiles:
            self.board[index].dead = True

    def _advance(self) -> None:
        self.seats[self.turn].drew = False
        self.turns += 1
        self.turn = self._next_seat(self.turn)
        self.seats[self.turn].drew = False

    def _do_draw(self, seat: int) -> list[Event]:
        me = self.seats[seat]
        drawn = self.bag.pop(0)
        me.hand.append(drawn)
        me.drew = True
        self.last = {"seat": seat, "kind": "draw", "squares": []}
        left = len(self.bag)
        return [Event("draw", f"{self.names[seat]} draws a tile ({left} left in the bag).", (seat,),
                      {"bag": left}),
                Event("drew", f"You drew {tile_name(drawn)}.", (seat,), {"tile": tile_name(drawn)}, to=seat)]

    def _do_pass(self, seat: int, move: Pass) -> list[Event]:
        me = self.seats[seat]
        name = self.names[seat]
        if me.drew:
            self.passes = 0
        else:
            self.passes += 1
        text = f"{name} passes"
        data: dict[str, Any] = {}
        if not me.dead and not me.footed:
            me.footed = True
            me.foot = move.foot
            if move.foot is not None:
                text += f" and is chicken-footed, with the foot at {self.grid.name(move.foot)}"
                data["foot"] = self.grid.name(move.foot)
            else:
                text += " and is chicken-footed: anyone may play on their line"
            data["footed"] = True
            data["picture"] = "foot"
        events = [Event("pass", text + ".", (seat,), data)]
        self.spacer = None
        foot = [self.grid.name(move.foot)] if move.foot is not None else []
        self.last = {"seat": seat, "kind": "pass", "squares": foot}
        if self.passes >= len(self._active()):
            events += self._end_round(None, "stalemate: everyone passed with the bag empty")
        else:
            self._advance()
        return events

    def _do_spacer(self, seat: int, move: PlaceSpacer) -> list[Event]:
        self.spacer = (move.start, move.end)
        a, b = self.grid.name(move.start), self.grid.name(move.end)
        self.last = {"seat": seat, "kind": "spacer", "squares": [a, b]}
        return [Event("spacer", f"{self.names[seat]} lays the spacer from {a} to {b}; a free-line leader "
                      f"goes off {b}.", (seat,), {"squares": [a, b]})]

    def _do_ready(self, seat: int) -> list[Event]:
        self.seats[seat].ready = True
        waiting = self.to_move()
        events = [Event("ready", f"{self.names[seat]} is ready" + (
            f"; waiting for {_join([self.names[i] for i in waiting])}." if waiting else "."), (seat,))]
        if not waiting:
            events += self._start_round()
        return events

    # ---- rounds (§2, §4) ---------------------------------------------------------------

    def _end_round(self, winner: int | None, how: str) -> list[Event]:
        """Close the round: +2 to the winner, everyone else's line dies without penalty."""
        if winner is not None:
            self.seats[winner].score += 2
        for seat, s in enumerate(self.seats):
            if seat != winner and not s.dead:
                self._mark_dead(seat)
        self.spacer = None
        deltas = [s.score - s.round_start_score for s in self.seats]
        totals = [s.score for s in self.seats]
        leader = self.leaders[-1]
        summary = f"Round {self.round} (led by {leader}:{leader}) is over: {how}"
        summary += f" (+2 {self.names[winner]})." if winner is not None else "; nobody wins the round."
        summary += " Totals: " + ", ".join(f"{n} {t}" for n, t in zip(self.names, totals, strict=True)) + "."
        self.round_result = {"round": self.round, "leader": leader, "winner": winner, "how": how,
                             "deltas": deltas, "totals": totals}
        events = [Event("round_end", summary, tuple(range(self.players)),
                        {**self.round_result, "reaction": "victory"})]
        if leader == 0:
            events += self._end_game("the 0:0 round is over")
        else:
            self.phase = BETWEEN_ROUNDS
            for s in self.seats:
                s.ready = s.resigned
            events.append(Event("between_rounds", "Type `ready` when you want the next round to start.",
                                tuple(self.to_move())))
        return events

    def _end_game(self, reason: str) -> list[Event]:
        self.phase = OVER
        self.end_reason = reason
        outcome = self.outcome()
        assert outcome is not None
        if not outcome.winners:
            text = f"Game over: {reason}."
        else:
            best = self.seats[outcome.winners[0]].score
            who = _join([self.names[w] for w in outcome.winners])
            verb = "wins" if len(outcome.winners) == 1 else "share the win"
            text = f"Game over ({reason}): {who} {verb} with {best}."
        return [Event("game_end", text, outcome.winners, outcome.to_json())]

    def _start_round(self, deck: list[Tile] | None = None) -> list[Event]:
        """Deal a fresh set and elect the round leader (§2). `deck` fixes the order (tests).

        The leader is the highest double below the previous round's leader held by anyone, in seat
        order; while nobody holds one, everyone draws a tile and the search starts again. If the
        bag runs out during those draws the round cannot start and the game ends."""
        if deck is None:
            deck = full_set(self.max_pips)
            self._deck.shuffle(deck)
        previous = self.leaders[-1] if self.leaders else self.max_pips + 1
        active = self._active()
        hands: dict[int, list[Tile]] = {}
        for index, seat in enumerate(active):
            hands[seat] = deck[index * HAND_SIZE:(index + 1) * HAND_SIZE]
        bag = deck[len(active) * HAND_SIZE:]
        number = self.round + 1
        draws = 0
        while (found := _find_leader(hands, active, previous)) is None:
            for seat in active:
                if not bag:
                    self._changed()
                    return self._end_game(f"round {number} could not start: the bag ran out while "
                                          f"everyone drew for a leader")
                hands[seat].append(bag.pop(0))
            draws += 1
        holder, value = found
        hands[holder].remove((value, value))

        self.board, self.occupied = [], bytearray(self.grid.size)
        self.lines = {seat: Line(seat) for seat in range(self.players)}
        self.free_lines = 0
        self.spacer, self.passes, self.last, self.round_result = None, 0, None, None
        for seat, s in enumerate(self.seats):
            s.hand = hands.get(seat, [])
            s.dead, s.footed, s.foot, s.drew, s.kills = s.resigned, False, None, False, 0
            s.ready, s.round_start_score = True, s.score
            self.lines[seat].dead = s.resigned
        self.bag = bag
        self.round = number
        self.turns += 1
        self.board.append(Placed((value, value), self.grid.leader_squares, LEADER, None))
        for square in self.grid.leader_squares:
            self.occupied[square] = 1
        self.leaders.append(value)
        self.highest_leader = value
        self.phase = PLAYING
        self.turn = self._next_seat(holder)
        self._changed()
        note = f" after everyone drew {draws} tile{'s' if draws != 1 else ''}" if draws else ""
        text = (f"Round {number}: {self.names[holder]} leads with {value}:{value}{note}; "
                f"{self.names[self.turn]} moves first.")
        return [Event("round_start", text, (holder,), {"round": number, "leader": value, "holder": holder,
                                                      "draws": draws})]

    # ---- resigning ---------------------------------------------------------------------

    def _resign(self, seat: int) -> list[Event]:
        me = self.seats[seat]
        if me.resigned:
            raise IllegalMove(f"{self.names[seat]} has already left the game")
        self._changed()
        me.resigned, me.ready = True, True
        events = [Event("resign", f"{self.names[seat]} leaves the game.", (seat,))]
        active = self._active()
        if not active or (self.players > 1 and len(active) == 1):
            return events + self._end_game("everyone else left" if active else "everyone left")
        if self.phase == BETWEEN_ROUNDS:
            if not self.to_move():
                events += self._start_round()
            return events
        if not me.dead:
            self._mark_dead(seat)
        me.hand, me.footed, me.foot = [], False, None
        alive = [i for i in active if not self.seats[i].dead]
        if len(alive) == 1 and self.players > 1:
            events += self._end_round(alive[0], f"{self.names[alive[0]]} is the last line standing")
        elif not alive:
            events += self._end_round(None, "no line is left standing")
        elif self.turn == seat:
            self.spacer = None
            self._advance()
        self._changed()
        return events

    # =========================================================================================
    # views and persistence

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self._check_seat(seat)
        name = self.grid.name
        outcome = self.outcome()
        lines = []
        for key, line in self.lines.items():
            head = self.head(line)
            lines.append({"line": key, "owner": None if line.is_free else key, "dead": line.dead,
                          "started": bool(line.tiles), "open": [name(s) for s in head.open_squares],
                          "next": head.next_pips, "length": len(line.tiles)})
        view: dict[str, Any] = {
            "game": self.name,
            "round": self.round,
            "phase": self.phase,
            "width": self.grid.width,
            "height": self.grid.height,
            "max_pips": self.max_pips,
            "turn": self.turn if self.phase == PLAYING else None,
            "to_move": list(self.to_move()),
            "seats": [
                {"name": s.name, "score": s.score, "hand_size": len(s.hand), "dead": s.dead,
                 "footed": s.footed, "foot": name(s.foot) if s.foot is not None else None,
                 "drew": s.drew, "ready": s.ready, "resigned": s.resigned, "kills": s.kills,
                 "round_score": s.score - s.round_start_score, "token": self.line_tokens[i]}
                for i, s in enumerate(self.seats)],
            "bag_size": len(self.bag),
            "leaders": list(self.leaders),
            "highest_leader": self.highest_leader,
            "board": [placed_entry(p, name) for p in self.board],
            "lines": lines,
            "spacer": [name(s) for s in self.spacer] if self.spacer else None,
            "passes": self.passes,
            "last": dict(self.last) if self.last else None,
            "round_result": dict(self.round_result) if self.round_result else None,
            "outcome": outcome.to_json() if outcome else None,
        }
        if seat is not None:
            me = self.seats[seat]
            playable = set()
            if self.phase == PLAYING and not me.resigned:
                playable = {lay.tile for lay in self._legal_lays(seat)}
            view["seat"] = seat
            view["hand"] = [tile_name(t) for t in me.hand]
            view["playable"] = [tile_name(t) for t in me.hand if t in playable]
        return view

    def to_position(self) -> dict[str, Any]:
        return write_position(self)

    @classmethod
    def from_position(cls, data: Mapping[str, Any], *, seed: int = 0,
                      options: GameOptions | None = None) -> Self:
        game = read_position(cls, data, seed=seed, options=options)
        game.start_position = game.to_position()
        return game

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the caches of derived facts (they rebuild on demand)."""
        state = dict(self.__dict__)
        state["_cache"] = {}
        state["_parsed"] = None
        return state

    def clone(self) -> Self:
        """A fast independent copy (the deck's random state included)."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.log = list(self.log)
        copy.names = list(self.names)
        copy.seats = [Seat(**vars(s)) for s in self.seats]
        for s in copy.seats:
            s.hand = list(s.hand)
        copy.board = [Placed(p.pips, p.squares, p.line, p.by, p.dead) for p in self.board]
        copy.occupied = bytearray(self.occupied)
        copy.lines = {k: Line(line.key, list(line.tiles), line.dead) for k, line in self.lines.items()}
        copy.bag = list(self.bag)
        copy.leaders = list(self.leaders)
        copy.last = dict(self.last) if self.last else None
        copy.round_result = dict(self.round_result) if self.round_result else None
        copy._deck = type(self._deck)()
        copy._deck.setstate(self._deck.getstate())
        copy._cache = {}
        copy._parsed = None
        return copy


def _find_leader(hands: Mapping[int, list[Tile]], seats: list[int], previous: int) -> tuple[int, int] | None:
    """The first seat, in seat order, holding the highest double below `previous`."""
    for value in range(previous - 1, -1, -1):
        for seat in seats:
            if (value, value) in hands[seat]:
                return seat, value
    return None


def _fits(request: notation.LayRequest, lay: Lay) -> bool:
    if request.tile is not None and request.tile != lay.tile:
        return False
    return all(square in lay.squares for square in request.squares)


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


_RESERVED_TOKENS = {"me", "mine", "own", "leader", "draw", "pass", "spacer", "ready", "on", "free"}


def _seat_tokens(names: list[str]) -> list[str]:
    """A one-word, unique, lower-case name per seat for `on <line>`; `p<n>` when a name gives none."""
    tokens: list[str] = []
    for index, name in enumerate(names):
        token = re.sub(r"[^a-z0-9_]", "", name.lower())
        if (not token or token in _RESERVED_TOKENS or token in tokens
                or re.fullmatch(r"free\d*|f\d+|p\d+|seat\d+|player\d+|[a-z]\d{1,2}|\d+", token)):
            token = f"p{index + 1}"
        tokens.append(token)
    return tokens

