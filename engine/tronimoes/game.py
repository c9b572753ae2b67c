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
from typing import Any, ClassVar, Self

from engine.core import (
    N_,
    AmbiguousMove,
    Event,
    Game,
    GameOptions,
    IllegalMove,
    NotationError,
    NotYourTurn,
    Outcome,
    Term,
    event,
    join_names,
    phrase,
    refuse,
    refused,
    register,
)
from engine.tronimoes import notation
from engine.tronimoes.blocking import Claimant, blocking_region, most_first_tiles
from engine.tronimoes.board import HAND_SIZE, Tile, full_set, grid_for, tile_name
from engine.tronimoes.position import placed_entry, read_position, write_position
from engine.tronimoes.refusals import explain_lay
from engine.tronimoes.state import (
    LEADER,
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
PLAYING, BETWEEN_ROUNDS, OVER = "playing", "between rounds", "over"


@dataclass(frozen=True)
class TronimoesOptions(GameOptions):
    ouroboros: bool = field(default=True, metadata={
        "help": N_("a new open end touching a matching open end of a footed line, your own line or a "
                   "free line kills both")})


SUMMARY = N_("""\
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
the highest total wins.""")

NOTATION_HELP = N_("""\
Squares are written as on the board image: column letter, row number (`c4`).
• lay a tile: `3:5 c4 d4` (the first square is the half that matches), `on bob` / `on free1` to pick a line
• `draw`, `pass`, `pass e5` (choose your foot square), `spacer c2 c7`, `ready` (between rounds)""")


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
    verbs = frozenset({"draw", "pass", "ready", "spacer", "on", "robar", "pasar", "listo", "separador", "en"})
    notation_words: ClassVar[Mapping[str, Mapping[str, str]]] = {"es": notation.SPANISH}
    command_moves: ClassVar[Mapping[str, str]] = {"draw": "draw", "pass": "pass"}
    command_help: ClassVar[Mapping[str, str]] = {
        "skip": N_("Tronimoes has no skip: `draw` once, then lay a tile or `pass`.")}
    example_moves = ("3:5 c4 d4", "draw", "pass")

    def example_move(self) -> str:
        return "ready" if self.phase == BETWEEN_ROUNDS else self.example_moves[0]

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

    def line_label(self, key: LineKey, viewer: int | None = None) -> Term:
        """A line's name in a sentence ("free line 2", "your line", "bob's line")."""
        if isinstance(key, str):
            return phrase(N_("free line {number}"), number=key[4:]) if key != LEADER else Term(N_("the round leader"))
        if key == viewer:
            return Term(N_("your line"))
        return phrase(N_("{player}'s line"), player=self.names[key])

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

    def _permission_problem(self, seat: int, line: Line) -> Term | None:
        """Why `seat` may not use `line` at all now, or None."""
        me = self.seats[seat]
        if self.spacer is not None:
            far = self.grid.name(self.spacer[1])
            return phrase(N_("the spacer is down: the only tile you may lay now is a free-line leader, a double "
                             "higher than {top}:{top} touching {square}"), top=self.highest_leader, square=far)
        if line.key == seat:
            if line.dead or me.dead:
                return phrase(N_("your line is dead; you may still play on free lines and on chicken-footed "
                                 "players' lines"))
            return None
        if line.dead:
            return phrase(N_("{line} is dead"), line=self.line_label(line.key))
        if me.restricted:
            return phrase(N_("you are chicken-footed: you may only play on your own line until you lay a tile on it"))
        if line.is_free:
            return None
        owner = self.seats[int(line.key)]
        if not owner.footed:
            return phrase(N_("{player}'s line is not chicken-footed, so only {player} may play on it"),
                          player=owner.name)
        return None

    def _foot_problem(self, seat: int, line: Line, match: int, other: int) -> Term | None:
        """The foot rule: a footed player's unstarted line starts through their foot square."""
        if line.is_free or line.tiles:
            return None
        owner = self.seats[int(line.key)]
        foot = owner.foot
        if not owner.footed or foot is None:
            return None
        if seat == line.key:
            if foot not in (match, other):
                return phrase(N_("your first tile must cover your foot square {square}"), square=self.grid.name(foot))
        elif match != foot:
            return phrase(N_("{player}'s line must start through their foot square {square}, "
                             "with the matching half on it"), player=owner.name, square=self.grid.name(foot))
        return None

    def _reserved_problem(self, line_key: LineKey | None, squares: tuple[int, ...]) -> Term | None:
        """Another player's foot square may only be covered by a tile on that player's line."""
        feet = self._feet()
        for square in squares:
            owner = feet.get(square)
            if owner is not None and owner != line_key:
                name = self.names[owner]
                return phrase(N_("{square} is {player}'s foot square: only a tile on {player}'s line "
                                 "may cover it"), square=self.grid.name(square), player=name)
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

    def _blocking_problem(self, seat: int, line_key: LineKey | None, squares: tuple[int, int]) -> Term | None:
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
            return phrase(N_("that would leave {player} no room to lay the first tile of their line"),
                          player=names[0])
        return phrase(N_("that would leave {players} without room for the first tiles of their lines "
                         "(everyone must be able to start their line)"), players=join_names(names))

    def _square_problem(self, seat: int, line: Line, match: int, other: int) -> Term | None:
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

    def _free_line_problem(self, seat: int) -> Term | None:
        """Why `seat` cannot start a free line at all now, or None."""
        me = self.seats[seat]
        if me.restricted:
            return phrase(N_("you are chicken-footed: you may not start a free line until you lay a tile on "
                             "your line"))
        if not self.lines[seat].tiles:
            return phrase(N_("start your own line before you start a free line"))
        if not self._leader_doubles(seat):
            return phrase(N_("a free line needs a double higher than {top}:{top}, the highest leader this round, "
                             "and you have none"), top=self.highest_leader)
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
            raise refuse(IllegalMove, N_("the game is over"))
        if me.resigned:
            raise refuse(IllegalMove, N_("you have left this game"))
        if isinstance(request, Ready):
            return self._remember(seat, "ready", request, self._ready_problem(seat))
        if self.phase == BETWEEN_ROUNDS:
            raise refuse(IllegalMove, N_("round {round} is over: type `ready` to start the next round"),
                         round=self.round)
        if seat != self.turn:
            raise refuse(NotYourTurn, N_("it is {player}'s turn"), player=self.names[self.turn])
        if isinstance(request, Draw):
            problem: Term | None = None
            if me.drew:
                problem = phrase(N_("you have already drawn this turn: lay a tile or `pass`"))
            elif not self.bag:
                problem = phrase(N_("the bag is empty: lay a tile or `pass`"))
            return self._remember(seat, "draw", request, problem)
        if isinstance(request, Pass):
            passing = self._read_pass(seat, request)
            return self._remember(seat, notation.write(passing, self.grid, None), passing, None)
        if isinstance(request, PlaceSpacer):
            spacer = self._read_spacer(seat, request)
            return self._remember(seat, notation.write(spacer, self.grid, None), spacer, None)
        text_out, lay = self._read_lay(seat, request)
        return self._remember(seat, text_out, lay, None)

    def _remember(self, seat: int, text: str, move: Move, problem: Term | None) -> str:
        if problem:
            raise refused(IllegalMove, problem)
        self._parsed = (self._version, seat, text, move)
        return text

    def _ready_problem(self, seat: int) -> Term | None:
        if self.phase != BETWEEN_ROUNDS:
            return phrase(N_("the round is still being played; `ready` starts the next round once this one is over"))
        if self.seats[seat].ready:
            waiting = [self.names[i] for i in self.to_move()]
            return phrase(N_("you are ready; waiting for {players}"), players=join_names(waiting))
        return None

    def _read_pass(self, seat: int, request: Pass) -> Pass:
        me = self.seats[seat]
        if not me.drew and self.bag:
            raise refuse(IllegalMove, N_("you must draw before you pass: type `draw` first"))
        options = self._pass_moves(seat)
        feet = [p.foot for p in options if p.foot is not None]
        if not feet:
            if request.foot is not None:
                if me.dead:
                    raise refuse(IllegalMove, N_("your line is dead, so you pass without a foot square: type `pass`"))
                if me.footed:
                    raise refuse(IllegalMove, N_("you are already chicken-footed: type `pass`"))
                raise refuse(IllegalMove, N_("your line has started, so there is no foot square to choose: "
                                             "type `pass`"))
            return Pass(None)
        names = ", ".join(self.grid.name(f) for f in feet)
        if request.foot is None:
            if len(feet) == 1:
                return Pass(feet[0])
            raise refuse(IllegalMove, N_("passing makes you chicken-footed before your line has started: choose a "
                                         "foot square next to the leader for your first tile, e.g. `pass {square}` "
                                         "(free: {squares})"), square=self.grid.name(feet[0]), squares=names)
        if request.foot in feet:
            return Pass(request.foot)
        square = self.grid.name(request.foot)
        if request.foot not in self.grid.leader_surround:
            reason = phrase(N_("{square} is not next to the round leader"), square=square)
        elif self.occupied[request.foot]:
            reason = phrase(N_("{square} is taken"), square=square)
        elif request.foot in self._feet():
            reason = phrase(N_("{square} is already {player}'s foot square"), square=square,
                            player=self.names[self._feet()[request.foot]])
        else:
            reason = phrase(N_("{square} has no empty square beside it, so you could never lay a tile through it "
                               "(leave yourself at least one open square next to the foot)"), square=square)
        raise refuse(IllegalMove, N_("{reason}; choose one of {squares}"), reason=reason, squares=names)

    def _read_spacer(self, seat: int, request: PlaceSpacer) -> PlaceSpacer:
        problem = self._free_line_problem(seat)
        if problem:
            raise refused(IllegalMove, problem)
        a, b = request.start, request.end
        run = self.grid.line_between(a, b)
        an, bn = self.grid.name(a), self.grid.name(b)
        if run is None:
            raise refuse(IllegalMove, N_("the spacer must lie in a straight line: {a} and {b} are not in one row "
                                         "or column"), a=an, b=bn)
        if len(run) != SPACER_LENGTH:
            raise refuse(IllegalMove, N_("the spacer spans exactly 6 squares; {a} to {b} is {count}"), a=an, b=bn,
                         count=len(run))
        taken = [self.grid.name(s) for s in run if self.occupied[s]]
        if taken:
            template = (N_("the spacer's squares must all be empty: {squares} is taken") if len(taken) == 1
                        else N_("the spacer's squares must all be empty: {squares} are taken"))
            raise refuse(IllegalMove, template, squares=", ".join(taken))
        starts = self._spacer_starts()
        orders = [(a, b)] if a in starts else []
        if b in starts:
            orders.append((b, a))
        if not orders:
            raise refuse(IllegalMove, N_("a spacer must start next to the open end of a living line; neither {a} "
                                         "nor {b} is"), a=an, b=bn)
        for start, end in orders:
            if self._leader_lays(seat, (start, end)):
                return PlaceSpacer(start, end)
        far = self.grid.name(orders[0][1])
        raise refuse(IllegalMove, N_("no double of yours could start a free line off {square}: there is no room "
                                     "for it there"), square=far)

    def _read_lay(self, seat: int, request: notation.LayRequest) -> tuple[str, Lay]:
        me = self.seats[seat]
        wanted = request.tile
        if wanted is not None:
            if wanted[1] > self.max_pips:
                raise refuse(NotationError, N_("there is no {tile} in this game: pips run 0–{most}"),
                             tile=tile_name(wanted), most=self.max_pips)
            if wanted not in me.hand:
                raise refuse(IllegalMove, N_("you do not have {tile}"), tile=tile_name(wanted))
        for square in request.squares:
            if self.occupied[square]:
                raise refuse(IllegalMove, N_("{square} is taken"), square=self.grid.name(square))
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
                template = N_("more than one of your tiles fits there: say which tile, before the squares, "
                              "like `a:b c4 d4`")
                raise AmbiguousMove(template, texts, template=template)
            shown = ", ".join(f"`{t}`" for t in texts[:8])
            if len(texts) > 8:
                shown = phrase(N_("{listed} and {count} more"), listed=shown, count=len(texts) - 8)
            template = N_("that fits {count} ways: {moves}. Type the tile and both squares.")
            raise AmbiguousMove(template.format(count=len(texts), moves=shown), texts, template=template,
                                args={"count": len(texts), "moves": shown})
        raise refused(IllegalMove, explain_lay(self, seat, request, line_key))

    def _resolve_line(self, seat: int, text: str) -> LineKey | None:
        wanted = re.sub(r"\s+", " ", text.strip().lower())
        compact = wanted.replace(" ", "")
        if compact in ("me", "mine", "own", "myline", "myown", "yours", "mía", "mia", "mi", "milínea", "milinea"):
            return seat
        free = re.fullmatch(r"(?:free|f|freeline|libre|línealibre|linealibre)(\d+)", compact)
        if free:
            number = int(free.group(1))
            if not 1 <= number <= self.free_lines:
                if not self.free_lines:
                    raise refuse(IllegalMove, N_("there is no free line {number} yet"), number=number)
                raise refuse(IllegalMove, N_("there is no free line {number}; free lines so far: {lines}"),
                             number=number, lines=", ".join(f"free{n}" for n in range(1, self.free_lines + 1)))
            return free_line_key(number)
        for index, (token, name) in enumerate(zip(self.line_tokens, self.names, strict=True)):
            if compact in (token, name.lower().replace(" ", "")) or wanted == name.lower():
                return index
        numbered = re.fullmatch(r"(?:p|seat|player)?(\d+)", compact)
        if numbered and 1 <= int(numbered.group(1)) <= self.players:
            return int(numbered.group(1)) - 1
        starting = {index for index, (token, name) in enumerate(zip(self.line_tokens, self.names, strict=True))
                    if compact and (token.startswith(compact) or name.lower().replace(" ", "").startswith(compact))}
        if len(starting) == 1:
            return starting.pop()
        if len(starting) > 1:
            raise refuse(NotationError, N_("'{text}' could be several lines: {lines}; type more of the name"),
                         text=text, lines=", ".join(self.line_tokens[i] for i in sorted(starting)))
        known = [*self.line_tokens, *(f"free{n}" for n in range(1, self.free_lines + 1))]
        raise refuse(NotationError, N_("there is no line called '{text}'; lines here: {lines}"), text=text,
                     lines=", ".join(known))

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
            template = N_("{player} lays {tile} at {squares} and starts {line}.")
        elif line.key == seat:
            template = N_("{player} lays {tile} at {squares} on their own line.")
        else:
            template = N_("{player} lays {tile} at {squares} on {line}.")
        shown = f"{lay.pips[0]}:{lay.pips[1]}"
        events = [event("lay", template, (seat,),
                        {"tile": tile_name(lay.tile), "squares": [self.grid.name(s) for s in lay.squares],
                         "line": line.key, "free_line": lay.starts_free_line},
                        player=name, tile=shown, squares=at, line=self.line_label(line.key))]
        if not line.is_free:
            owner = self.seats[int(line.key)]
            if len(line.tiles) == 1 and owner.foot is not None:
                owner.foot = None
        if me.footed:
            me.footed = False
            me.foot = None
            events.append(event("unfoot", N_("{player} is no longer chicken-footed."), (seat,), player=name))
        self.spacer = None
        self.passes = 0
        self.last = {"seat": seat, "kind": "lay", "squares": [self.grid.name(s) for s in lay.squares]}

        if self.options.ouroboros and not lay.starts_free_line:
            events += self._ouroboros(seat, line, placed)
        events += self._cut_offs(seat)

        alive = [i for i in self._active() if not self.seats[i].dead]
        if was_alive and not me.hand:
            events += self._end_round(seat, phrase(N_("{player} went out"), player=name))
        elif len(alive) == 1 and self.players > 1:
            events += self._end_round(alive[0], phrase(N_("{player} is the last line standing"),
                                                       player=self.names[alive[0]]))
        elif not alive:
            events += self._end_round(None, Term(N_("no line is left standing")))
        elif placed.is_double:
            me.drew = False
            self.turns += 1
            events.append(event("again", N_("A double: {player} plays again."), (seat,), player=name))
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
            events += self._kill_free_line(self.lines[key], "ouroboros")
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
                events += self._kill_free_line(line, "cut off")
        for seat in range(self.players):
            if not self.seats[seat].dead and self._is_cut_off(self.lines[seat]):
                events += self._kill(seat, mover, "cut off")
        return events

    def _kill(self, victim: int, killer: int, how: str) -> list[Event]:
        self._mark_dead(victim)
        name, killer_name = self.names[victim], self.names[killer]
        if victim == killer:
            template = N_("{victim} boxed in their own line: it is dead (net 0).")
        else:
            self.seats[victim].score -= 1
            self.seats[killer].score += 1
            self.seats[killer].kills += 1
            template = (N_("{killer} closed an ouroboros on {victim}'s line: +1 {killer}, −1 {victim}.")
                        if how == "ouroboros" else N_("{killer} cut off {victim}'s line: +1 {killer}, −1 {victim}."))
        return [event("kill", template, (killer, victim), {"killer": killer, "victim": victim, "how": how,
                                                            "reaction": "skull"}, killer=killer_name, victim=name)]

    def _kill_free_line(self, line: Line, how: str) -> list[Event]:
        line.dead = True
        for index in line.tiles:
            self.board[index].dead = True
        template = (N_("Free line {number} swallowed its own tail (ouroboros): it is dead, and nobody scores.")
                    if how == "ouroboros" else N_("Free line {number} is cut off: it is dead, and nobody scores."))
        return [event("free_line_dead", template, (), {"line": line.key}, number=str(line.key)[4:])]

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
        return [event("draw", N_("{player} draws a tile ({count} left in the bag)."), (seat,), {"bag": left},
                      player=self.names[seat], count=left),
                event("drew", N_("You drew {tile}."), (seat,), {"tile": tile_name(drawn)}, to=seat,
                      tile=tile_name(drawn))]

    def _do_pass(self, seat: int, move: Pass) -> list[Event]:
        me = self.seats[seat]
        name = self.names[seat]
        if me.drew:
            self.passes = 0
        else:
            self.passes += 1
        template = N_("{player} passes.")
        data: dict[str, Any] = {}
        if not me.dead and not me.footed:
            me.footed = True
            me.foot = move.foot
            if move.foot is not None:
                template = N_("{player} passes and is chicken-footed, with the foot at {square}.")
                data["foot"] = self.grid.name(move.foot)
            else:
                template = N_("{player} passes and is chicken-footed: anyone may play on their line.")
            data["footed"] = True
            data["picture"] = "foot"
        events = [event("pass", template, (seat,), data, player=name, square=data.get("foot", ""))]
        self.spacer = None
        foot = [self.grid.name(move.foot)] if move.foot is not None else []
        self.last = {"seat": seat, "kind": "pass", "squares": foot}
        if self.passes >= len(self._active()):
            events += self._end_round(None, Term(N_("stalemate: everyone passed with the bag empty")))
        else:
            self._advance()
        return events

    def _do_spacer(self, seat: int, move: PlaceSpacer) -> list[Event]:
        self.spacer = (move.start, move.end)
        a, b = self.grid.name(move.start), self.grid.name(move.end)
        self.last = {"seat": seat, "kind": "spacer", "squares": [a, b]}
        return [event("spacer", N_("{player} lays the spacer from {a} to {b}; a free-line leader goes off {b}."),
                      (seat,), {"squares": [a, b]}, player=self.names[seat], a=a, b=b)]

    def _do_ready(self, seat: int) -> list[Event]:
        self.seats[seat].ready = True
        waiting = self.to_move()
        template = N_("{player} is ready; waiting for {players}.") if waiting else N_("{player} is ready.")
        events = [event("ready", template, (seat,), player=self.names[seat],
                        players=join_names([self.names[i] for i in waiting]))]
        if not waiting:
            events += self._start_round()
        return events

    # ---- rounds (§2, §4) ---------------------------------------------------------------

    def _end_round(self, winner: int | None, how: Term) -> list[Event]:
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
        template = (N_("Round {round} (led by {leader}:{leader}) is over: {how} (+2 {player}). Totals: {totals}.")
                    if winner is not None else
                    N_("Round {round} (led by {leader}:{leader}) is over: {how}; nobody wins the round. Totals: "
                       "{totals}."))
        self.round_result = {"round": self.round, "leader": leader, "winner": winner, "how": how,
                             "deltas": deltas, "totals": totals}
        events = [event("round_end", template, tuple(range(self.players)), {**self.round_result, "reaction": "victory"},
                        round=self.round, leader=leader, how=how,
                        player=self.names[winner] if winner is not None else "",
                        totals=", ".join(f"{n} {t}" for n, t in zip(self.names, totals, strict=True)))]
        if leader == 0:
            events += self._end_game(Term(N_("the 0:0 round is over")))
        else:
            self.phase = BETWEEN_ROUNDS
            for s in self.seats:
                s.ready = s.resigned
            events.append(event("between_rounds", N_("Type `ready` when you want the next round to start."),
                                tuple(self.to_move())))
        return events

    def _end_game(self, reason: Term) -> list[Event]:
        self.phase = OVER
        self.end_reason = reason
        outcome = self.outcome()
        assert outcome is not None
        if not outcome.winners:
            return [event("game_end", N_("Game over: {reason}."), (), outcome.to_json(), reason=reason)]
        template = (N_("Game over ({reason}): {players} wins with {score}.") if len(outcome.winners) == 1
                    else N_("Game over ({reason}): {players} share the win with {score}."))
        return [event("game_end", template, outcome.winners, outcome.to_json(), reason=reason,
                      players=join_names([self.names[w] for w in outcome.winners]),
                      score=self.seats[outcome.winners[0]].score)]

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
                    return self._end_game(phrase(N_("round {round} could not start: the bag ran out while "
                                                    "everyone drew for a leader"), round=number))
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
        if not draws:
            template = N_("Round {round}: {leader} leads with {tile}; {player} moves first.")
        elif draws == 1:
            template = N_("Round {round}: {leader} leads with {tile} after everyone drew {count} tile; "
                          "{player} moves first.")
        else:
            template = N_("Round {round}: {leader} leads with {tile} after everyone drew {count} tiles; "
                          "{player} moves first.")
        return [event("round_start", template, (holder,), {"round": number, "leader": value, "holder": holder,
                                                          "draws": draws},
                      round=number, leader=self.names[holder], tile=f"{value}:{value}", count=draws,
                      player=self.names[self.turn])]

    # ---- resigning ---------------------------------------------------------------------

    def _resign(self, seat: int) -> list[Event]:
        me = self.seats[seat]
        if me.resigned:
            raise refuse(IllegalMove, N_("{player} has already left the game"), player=self.names[seat])
        self._changed()
        me.resigned, me.ready = True, True
        events = [event("resign", N_("{player} leaves the game."), (seat,), player=self.names[seat])]
        active = self._active()
        if not active or (self.players > 1 and len(active) == 1):
            return events + self._end_game(Term(N_("everyone else left") if active else N_("everyone left")))
        if self.phase == BETWEEN_ROUNDS:
            if not self.to_move():
                events += self._start_round()
            return events
        if not me.dead:
            self._mark_dead(seat)
        me.hand, me.footed, me.foot = [], False, None
        alive = [i for i in active if not self.seats[i].dead]
        if len(alive) == 1 and self.players > 1:
            events += self._end_round(alive[0], phrase(N_("{player} is the last line standing"),
                                                       player=self.names[alive[0]]))
        elif not alive:
            events += self._end_round(None, Term(N_("no line is left standing")))
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

