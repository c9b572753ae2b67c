"""Tronimoes rules (shared/rules/tronimoes.md; section numbers below refer to it).

Players build lines of dominoes from a round leader in the middle of a square grid, matching
pips. A line that can no longer grow is dead; whoever laid the tile that boxed it in gets the
kill. A round is won by going out or by being the last line alive; the game ends after the
round led by 0:0.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from engine.core import (
    N_,
    NP_,
    AmbiguousMove,
    Event,
    Game,
    GameOptions,
    IllegalMove,
    NotYourTurn,
    Outcome,
    PieceNoun,
    Term,
    copied_random,
    event,
    join_names,
    phrase,
    refuse,
    refused,
    register,
)
from engine.tronimoes import lines, notation, placement, rounds
from engine.tronimoes.board import Tile, full_set, grid_for, tile_name
from engine.tronimoes.position import placed_entry, read_position, write_position
from engine.tronimoes.position_help import FORMAT as POSITION_HELP
from engine.tronimoes.refusals import explain_lay
from engine.tronimoes.state import (
    BETWEEN_ROUNDS,
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
    position_help = POSITION_HELP
    verbs = frozenset({"draw", "pass", "ready", "spacer", "on", "robar", "pasar", "listo", "separador", "en"})
    chosen_pictures = frozenset({"foot"})
    notation_words: ClassVar[Mapping[str, Mapping[str, str]]] = {"es": notation.SPANISH}
    piece_noun: ClassVar[PieceNoun] = PieceNoun(NP_("{count} tile", "{count} tiles"), N_("the unseen tiles"))
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
        self.line_tokens = lines.seat_tokens(names)
        self._deck = self.random("deck")
        self._version = 0
        self.cache: dict[Any, Any] = {}
        self._parsed: tuple[int, int, str, Move] | None = None

    def setup(self) -> list[Event]:
        return self._start_round()

    # =========================================================================================
    # reading

    def to_move(self) -> tuple[int, ...]:
        if self.phase == PLAYING:
            return (self.turn,)
        if self.phase == BETWEEN_ROUNDS:
            return rounds.waiting_seats(self)
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
        copy.cache = {}
        return copy

    def _reshuffle(self, rng: random.Random) -> None:
        """The bag and the deals of the rounds to come (no seat has seen either)."""
        rng.shuffle(self.bag)
        self._deck = random.Random(rng.getrandbits(64))
        self.cache = {}

    def is_resigned(self, seat: int) -> bool:
        return self.seats[seat].resigned

    def outcome(self) -> Outcome | None:
        return rounds.outcome(self)

    def legal_actions(self, seat: int) -> list[str]:
        self._check_seat(seat)
        me = self.seats[seat]
        if self.phase == OVER or me.resigned:
            return []
        if self.phase == BETWEEN_ROUNDS:
            return [] if me.ready else ["ready"]
        if seat != self.turn:
            return []
        actions = list(placement.lay_table(self, seat))
        actions += [notation.write(s, self.grid, None) for s in placement.spacer_moves(self, seat)]
        if not me.drew and self.bag:
            actions.append("draw")
        else:
            actions += [notation.write(p, self.grid, None) for p in placement.pass_moves(self, seat)]
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
        passes = placement.pass_moves(self, seat, after_draw=True)
        actions.append(notation.write(passes[0], self.grid, None))
        return actions

    # =========================================================================================
    # lines and lays (the rules live in lines.py and placement.py)

    def head(self, line: Line) -> Placed:
        """The last tile of a line; a player line with no tiles yet ends at the round leader."""
        return lines.head(self, line)

    def line_label(self, key: LineKey, viewer: int | None = None) -> Term:
        """A line named for the player `viewer`: "your line", "bob's line", "free line 2"."""
        return lines.line_label(self, key, viewer)

    def _foot_problem(self, seat: int, line: Line, match: int, other: int) -> Term | None:
        """The foot rule: a footed player's unstarted line starts through their foot square."""
        return placement.foot_problem(self, seat, line, match, other)

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
            passing = placement.check_pass(self, seat, request)
            return self._remember(seat, notation.write(passing, self.grid, None), passing, None)
        if isinstance(request, PlaceSpacer):
            spacer = placement.check_spacer(self, seat, request)
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

    def _read_lay(self, seat: int, request: notation.LayRequest) -> tuple[str, Lay]:
        me = self.seats[seat]
        wanted = request.tile
        if wanted is not None:
            if wanted[1] > self.max_pips:
                raise refuse(IllegalMove, N_("there is no {tile} in this game: pips run 0–{most}"),
                             tile=tile_name(wanted), most=self.max_pips)
            if wanted not in me.hand:
                raise refuse(IllegalMove, N_("you do not have {tile}"), tile=tile_name(wanted))
        for square in request.squares:
            if self.occupied[square]:
                raise refuse(IllegalMove, N_("{square} is taken"), square=self.grid.name(square))
        line_key = lines.resolve_line(self, seat, request.line) if request.line else None
        table = placement.lay_table(self, seat)
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
        self.cache.clear()

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
                        player=name, tile=shown, squares=at, line=lines.line_label(self, line.key))]
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
            events += lines.ouroboros(self, seat, line, placed)
        events += lines.cut_offs(self, seat)

        alive = [i for i in rounds.active_seats(self) if not self.seats[i].dead]
        if was_alive and not me.hand:
            events += rounds.end_round(self, seat, phrase(N_("{player} went out"), player=name))
        elif len(alive) == 1 and self.players > 1:
            events += rounds.end_round(self, alive[0], phrase(N_("{player} is the last line standing"),
                                                              player=self.names[alive[0]]))
        elif not alive:
            events += rounds.end_round(self, None, Term(N_("no line is left standing")))
        elif placed.is_double:
            me.drew = False
            self.turns += 1
            events.append(event("again", N_("A double: {player} plays again."), (seat,), player=name))
        else:
            rounds.advance(self)
        return events

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
        if self.passes >= len(rounds.active_seats(self)):
            events += rounds.end_round(self, None, Term(N_("stalemate: everyone passed with the bag empty")))
        else:
            rounds.advance(self)
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

    def _start_round(self, deck: list[Tile] | None = None) -> list[Event]:
        """Deal a fresh set and elect the round leader (see `rounds.start_round`). `deck` fixes
        the order (tests)."""
        if deck is None:
            deck = full_set(self.max_pips)
            self._deck.shuffle(deck)
        events = rounds.start_round(self, deck)
        self._changed()
        return events

    # ---- resigning ---------------------------------------------------------------------

    def _resign(self, seat: int) -> list[Event]:
        me = self.seats[seat]
        if me.resigned:
            raise refuse(IllegalMove, N_("{player} has already left the game"), player=self.names[seat])
        self._changed()
        me.resigned, me.ready = True, True
        events = [event("resign", N_("{player} leaves the game."), (seat,), player=self.names[seat])]
        active = rounds.active_seats(self)
        if not active or (self.players > 1 and len(active) == 1):
            return events + rounds.end_game(self, Term(N_("everyone else left") if active else N_("everyone left")))
        if self.phase == BETWEEN_ROUNDS:
            if not self.to_move():
                events += self._start_round()
            return events
        if not me.dead:
            lines.mark_dead(self, seat)
        me.hand, me.footed, me.foot = [], False, None
        alive = [i for i in active if not self.seats[i].dead]
        if len(alive) == 1 and self.players > 1:
            events += rounds.end_round(self, alive[0], phrase(N_("{player} is the last line standing"),
                                                              player=self.names[alive[0]]))
        elif not alive:
            events += rounds.end_round(self, None, Term(N_("no line is left standing")))
        elif self.turn == seat:
            self.spacer = None
            rounds.advance(self)
        self._changed()
        return events

    # =========================================================================================
    # views and persistence

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self._check_seat(seat)
        name = self.grid.name
        outcome = self.outcome()
        line_views = []
        for key, line in self.lines.items():
            head = self.head(line)
            line_views.append({"line": key, "owner": None if line.is_free else key, "dead": line.dead,
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
            "lines": line_views,
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
                playable = {lay.tile for lay in placement.legal_lays(self, seat)}
            view["seat"] = seat
            view["hand"] = [tile_name(t) for t in me.hand]
            view["playable"] = [tile_name(t) for t in me.hand if t in playable]
        return view

    def to_position(self) -> dict[str, Any]:
        return write_position(self)

    @classmethod
    def _read_position(cls, data: Mapping[str, Any], *, seed: int, options: GameOptions) -> Self:
        """The position read, then whatever was cached while reading it dropped (`_changed`)."""
        game = read_position(cls, data, seed=seed, options=options)
        game._changed()
        return game

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the caches of derived facts (they rebuild on demand)."""
        state = dict(self.__dict__)
        state["cache"] = {}
        state["_parsed"] = None
        return state

    def clone(self) -> Self:
        """A fast independent copy (the deck's random state included)."""
        copy = self._shallow_copy()
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
        copy._deck = copied_random(self._deck)
        copy.cache = {}
        copy._parsed = None
        return copy


def _fits(request: notation.LayRequest, lay: Lay) -> bool:
    if request.tile is not None and request.tile != lay.tile:
        return False
    return all(square in lay.squares for square in request.squares)
