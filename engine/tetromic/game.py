"""Tetromic (shared/rules/tetromic.md): a packing race. Every player has their own board, draws
tetrominoes once a phase, places them anywhere they fit, and levels up by clearing rows; the
first to reach the target level wins at once.

Players act at the same time: `to_move` is every seat the phase still waits for (not yet drawn
or skipped); a seat may place pieces at any time, in or out of its turn."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
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
    phrase,
    refuse,
    register,
)
from engine.tetromic import notation
from engine.tetromic.board import Board
from engine.tetromic.notation import Discard, Place, Verb
from engine.tetromic.pieces import (
    BY_KIND,
    KINDS,
    ORIENTATIONS,
    SHAPES,
    Cell,
    kind_of,
    normalised,
    piece_name,
    placed_cells,
)
from engine.tetromic.position import read_position, write_position
from engine.tetromic.position_help import FORMAT as POSITION_HELP
from engine.tetromic.state import Seat

SUMMARY = N_("""\
**Tetromic** — a packing race on boards of your own.
• Everyone has a 6×10 board (x 0–5 from the left, y 0–9 from the bottom). Once a phase you may
`draw` as many random tetrominoes as your level (at least 1), or `skip`.
• Place pieces you hold anywhere they fit, at any time, as many as you like: no gravity, no
contact needed. Flips are allowed, so L covers J and S covers Z.
• A full row clears (nothing falls) and scores a point; reaching level n+1 takes n+1 points,
counted row by row. The first to reach level 10 wins at once.
• A phase ends when everyone has drawn or skipped, or when its time (24 h by default) runs out.
New players may join a running game: they start on an empty board at level 0 from the next phase.
• A board that no piece of any kind fits any more is out. If every board is out before anyone
wins, the highest level (then points) wins.""")

NOTATION_HELP = N_("""\
• `play T-u 2,3`: a piece turned as named, by its lower-left corner. The names, by the kind your hand
and the board show: I: I-h I-v · O: O · T: T-u T-d T-r T-l (where the nub points) · L: L0 L90 L180
L270, flipped J0 J90 J180 J270 · S: S-h S-v, flipped Z-h Z-v.
• `play 2,3 3,3 4,3 3,4`: the four cells, in any order. `play I 4,0`: a kind, if only one way fits.
• Several at once: `play O 0,0; play O 2,0; play O 4,0`.
• `draw`, `skip`; `discard T` when no piece you hold fits anywhere (if the table allows it).""")


@dataclass(frozen=True)
class TetromicOptions(GameOptions):
    preset: str = field(default="classic", metadata={
        "choices": ("quick", "classic", "nomic"),
        "help": N_("quick: target level 5; classic: the rules as written; nomic: calendar phases of 48 hours")})
    width: int = field(default=6, metadata={"min": 4, "max": 12, "help": N_("board width")})
    height: int = field(default=10, metadata={"min": 4, "max": 20, "help": N_("board height")})
    target_level: int = field(default=10, metadata={"min": 1, "max": 30, "help": N_("the level that wins")})
    multi_clear: str = field(default="sequential", metadata={
        "choices": ("sequential", "batch_reset"),
        "help": N_("rows cleared at once count one by one (sequential) or excess points are dropped (batch_reset)")})
    gravity_collapse: bool = field(default=False, metadata={"help": N_("rows above a cleared row move down")})
    phase_mode: str = field(default="round", metadata={
        "choices": ("round", "calendar"),
        "help": N_("round: a phase ends when everyone has drawn or skipped; calendar: phases are fixed UTC windows "
                "of the turn time (drawing does not end yours; skip or the window's end does)")})
    auto_draw: bool = field(default=False, metadata={"help": N_("a seat that did not draw draws when the phase ends")})
    allow_discard: bool = field(default=False, metadata={"help": N_("discard a held piece when none fits anywhere")})
    allow_join: bool = field(default=True, metadata={"help": N_("new players may join a running game")})


@register
class Tetromic(Game):
    name = "tetromic"
    title = "Tetromic"
    min_players = 1
    max_players = 8
    Options = TetromicOptions
    summary = SUMMARY
    notation_help = NOTATION_HELP
    position_help = POSITION_HELP
    verbs = frozenset({"play", "draw", "skip", "discard", "line", "square", *(k.lower() for k in KINDS), "j", "z",
                       "poner", "robar", "saltar", "descartar", "línea", "cuadrado"})
    notation_words: ClassVar[Mapping[str, Mapping[str, str]]] = {"es": notation.SPANISH}
    piece_noun: ClassVar[PieceNoun] = PieceNoun(NP_("{count} piece", "{count} pieces"), N_("the unseen pieces"))
    command_moves: ClassVar[Mapping[str, str]] = {"draw": "draw", "skip": "skip"}
    command_help: ClassVar[Mapping[str, str]] = {
        "pass": N_("Tetromic has no pass: `skip` ends your phase without drawing.")}
    example_moves = ("play T-u 2,3", "draw", "skip")
    action_separator = notation.SEPARATOR
    allows_join = True
    default_turn_seconds = 24 * 3600
    options: TetromicOptions

    def __init__(self, players: int, seed: int, options: GameOptions, names: list[str]) -> None:
        super().__init__(players, seed, options, names)
        assert isinstance(options, TetromicOptions)
        self.target = options.target_level if options.preset != "quick" or options.target_level != 10 else 5
        self.calendar = options.phase_mode == "calendar" or options.preset == "nomic"
        self.seats: list[Seat] = []
        self.phase = 1
        self.queue: list[str] = []
        self.winner: int | None = None
        self._draws = self.random("draws")

    # ---- setting up ---------------------------------------------------------------------------

    def setup(self) -> list[Event]:
        self.seats = [Seat(self._empty_board()) for _ in range(self.players)]
        return [event("phase", N_("Phase 1: everyone may draw 1 piece (or `skip`)."), tuple(range(self.players)),
                      {"phase": 1})]

    def _empty_board(self) -> Board:
        return Board(self.options.width, self.options.height)

    # ---- reading -------------------------------------------------------------------------------

    def to_move(self) -> tuple[int, ...]:
        if self.winner is not None:
            return ()
        return tuple(i for i, s in enumerate(self.seats) if not s.resigned and not s.done)

    def turn_count(self) -> int:
        return self.phase

    def deadline(self, since: float, turn_seconds: int) -> float:
        """Calendar phases are fixed UTC windows of the table's turn time (counted from the
        epoch, so a day-long phase runs midnight to midnight UTC); round phases run the turn
        time from their start."""
        if not self.calendar:
            return since + turn_seconds
        return (since // turn_seconds + 1) * turn_seconds

    @classmethod
    def default_turn_seconds_for(cls, options: GameOptions) -> int | None:
        """The nomic preset's phases last 48 hours; otherwise 24."""
        if isinstance(options, TetromicOptions) and options.preset == "nomic":
            return 48 * 3600
        return cls.default_turn_seconds

    def outcome(self) -> Outcome | None:
        scores = self.scores()
        if self.winner is not None:
            return Outcome(scores, (self.winner,), phrase(N_("{player} reached level {level}"),
                                                          player=self.names[self.winner], level=self.target))
        if self.seats and all(s.resigned for s in self.seats):
            finishers = [i for i, s in enumerate(self.seats) if s.locked]
            if not finishers:
                return Outcome(scores, (), Term(N_("everyone left the game")))
            best = max((self.seats[i].level, self.seats[i].points) for i in finishers)
            winners = tuple(i for i in finishers if (self.seats[i].level, self.seats[i].points) == best)
            return Outcome(scores, winners, Term(N_("no board can take another piece; the highest level wins")))
        return None

    def scores(self) -> tuple[float, ...]:
        return tuple(float(s.level) for s in self.seats)

    def is_resigned(self, seat: int) -> bool:
        """A seat that left; not one whose board is full (it is out of play, but finished the
        game at its level, and may even have the highest)."""
        me = self.seats[seat]
        return me.resigned and not me.locked

    def legal_actions(self, seat: int) -> list[str]:
        me = self.seats[seat]
        if self.winner is not None or me.resigned:
            return []
        actions = self.placements(seat)
        if not me.drew and not me.done:
            actions.append("draw")
        if not me.done:
            actions.append("skip")
        if self.options.allow_discard and me.hand and not any(a.startswith("play ") for a in actions):
            actions += [f"discard {k}" for k in KINDS if k in me.hand]
        return actions

    def placements(self, seat: int) -> list[str]:
        """Every placement of a held kind on `seat`'s board, in the rules' orientation order."""
        return [notation.canonical_play(orientation, anchor) for orientation, anchor in self._fits(seat)]

    def _fits(self, seat: int) -> Iterator[tuple[str, Cell]]:
        """Each orientation of a held kind and anchor where it fits on `seat`'s board, in the
        rules' order, found one at a time."""
        me = self.seats[seat]
        cells = me.board.cells
        for kind in KINDS:
            if kind not in me.hand:
                continue
            for orientation in BY_KIND[kind]:
                offsets = ORIENTATIONS[orientation]
                span_x = max(x for x, _ in offsets)
                span_y = max(y for _, y in offsets)
                for y in range(me.board.height - span_y):
                    for x in range(me.board.width - span_x):
                        if all(cells[y + dy][x + dx] == "." for dx, dy in offsets):
                            yield orientation, (x, y)

    def _anything_fits(self, seat: int) -> bool:
        return next(self._fits(seat), None) is not None

    def locked(self, seat: int) -> bool:
        """Whether no tetromino of any kind fits anywhere on the seat's board: it can never
        change again (a row clears only by filling it)."""
        board = self.seats[seat].board
        return not any(board.fits(placed_cells(o, (x, y))) for o in ORIENTATIONS
                       for y in range(board.height) for x in range(board.width))

    def held_as(self, piece: str) -> tuple[str, ...]:
        """A kind's orientations (`L`: `L0` … `J270`), by which `play` places it."""
        names = BY_KIND.get(piece, ())
        return () if names == (piece,) else names

    def rank_suggestions(self, seat: int, actions: list[str]) -> list[str]:
        """Placements that clear the most rows first, then the rest as they were."""
        board = self.seats[seat].board

        def cleared(action: str) -> int:
            if not action.startswith("play "):
                return -1
            _, orientation, anchor = action.split()
            x, y = (int(v) for v in anchor.split(","))
            cells = set(placed_cells(orientation, (x, y)))
            return sum(1 for row in {c[1] for c in cells}
                       if all(board.cells[row][col] != "." or (col, row) in cells for col in range(board.width)))

        return sorted(actions, key=lambda a: -cleared(a))

    def view(self, seat: int | None) -> dict[str, Any]:
        public = {
            "game": self.name,
            "width": self.options.width,
            "height": self.options.height,
            "phase": self.phase,
            "target_level": self.target,
            "phase_mode": "calendar" if self.calendar else "round",
            "winner": self.winner,
            "to_move": list(self.to_move()),
            "seats": [{"name": self.names[i], "level": s.level, "points": s.points, "needed": s.level + 1,
                       "board": s.board.rows_top_first(), "drew": s.drew, "done": s.done,
                       "resigned": s.resigned, "hand_size": len(s.hand), "last": [list(c) for c in s.last],
                       "just_cleared": list(s.just_cleared)}
                      for i, s in enumerate(self.seats)],
        }
        if seat is not None:
            me = self.seats[seat]
            public["you"] = seat
            public["hand"] = {k: me.hand.count(k) for k in KINDS if k in me.hand}
            public["playable"] = sorted({kind_of(a.split()[1]) for a in self.placements(seat)})
        return public

    # ---- acting --------------------------------------------------------------------------------

    def parse(self, seat: int, text: str) -> str:
        self._check_seat(seat)
        me = self.seats[seat]
        if self.winner is not None:
            raise refuse(IllegalMove, N_("the game is over"))
        if me.resigned:
            raise refuse(IllegalMove, N_("you have left this game"))
        move = notation.read(text)
        if isinstance(move, Verb):
            if me.done:
                if move.word == "draw" and me.drew:
                    raise refuse(IllegalMove, N_("you have already drawn this phase; place your pieces, and draw "
                                                 "again next phase"))
                raise refuse(NotYourTurn, N_("you are done with phase {phase}: it ends when everyone has drawn or "
                                             "skipped. You can still place the pieces you hold"), phase=self.phase)
            if move.word == "draw" and me.drew:
                raise refuse(IllegalMove, N_("you have already drawn this phase; type `skip` to end your phase"))
            return move.word
        if isinstance(move, Discard):
            if not self.options.allow_discard:
                raise refuse(IllegalMove, N_("this table does not allow discarding (the option allow_discard is off)"))
            if move.kind not in me.hand:
                raise refuse(IllegalMove, N_("you hold no {kind}"), kind=move.kind)
            if self._anything_fits(seat):
                raise refuse(IllegalMove, N_("you may only discard when no piece you hold fits anywhere"))
            return f"discard {move.kind}"
        return self._read_placement(seat, move)

    def _read_placement(self, seat: int, move: Place) -> str:
        me = self.seats[seat]
        if move.cells:
            shape = normalised(frozenset(move.cells))
            if len(set(move.cells)) != 4 or shape not in SHAPES:
                raise refuse(IllegalMove, N_("{cells} do not form a tetromino; {example}"),
                             cells=" ".join(f"{x},{y}" for x, y in move.cells), example=notation.EXAMPLE)
            orientation = SHAPES[shape]
            anchor = (min(x for x, _ in move.cells), min(y for _, y in move.cells))
            return self._checked(seat, orientation, anchor)
        assert move.anchor is not None
        if move.orientation is not None:
            return self._checked(seat, move.orientation, move.anchor)
        assert move.kind is not None
        self._holds(me, move.kind)
        fitting = [o for o in BY_KIND[move.kind] if me.board.fits(placed_cells(o, move.anchor))]
        if not fitting:
            x, y = move.anchor
            raise refuse(IllegalMove, N_("no way of placing {kind} with its corner at {cell} fits your board; name "
                                         "the piece, like `play {piece} {cell}`"), kind=move.kind, cell=f"{x},{y}",
                         piece=BY_KIND[move.kind][0])
        if len(fitting) > 1:
            candidates = [notation.canonical_play(o, move.anchor) for o in fitting]
            template = N_("{kind} fits at {cell} in {count} ways: {moves}")
            told = {"kind": move.kind, "cell": f"{move.anchor[0]},{move.anchor[1]}", "count": len(fitting),
                    "moves": ", ".join(candidates)}
            raise AmbiguousMove(template.format(**told), candidates, template=template, args=told)
        return notation.canonical_play(fitting[0], move.anchor)

    def _holds(self, me: Seat, kind: str) -> None:
        if kind not in me.hand:
            if not me.hand:
                raise refuse(IllegalMove, N_("you hold no {kind} (you hold nothing); `draw` once a phase"), kind=kind)
            raise refuse(IllegalMove, N_("you hold no {kind} (you hold {held}); `draw` once a phase"), kind=kind,
                         held=", ".join(me.hand))

    def _checked(self, seat: int, orientation: str, anchor: Cell) -> str:
        me = self.seats[seat]
        self._holds(me, kind_of(orientation))
        for x, y in placed_cells(orientation, anchor):
            if not me.board.inside((x, y)):
                raise refuse(IllegalMove, N_("{piece} at {cell} would cover {covered}, off the board (x runs "
                                             "0–{width}, y 0–{height})"), piece=piece_name(orientation),
                             cell=f"{anchor[0]},{anchor[1]}", covered=f"{x},{y}", width=me.board.width - 1,
                             height=me.board.height - 1)
            if not me.board.is_off((x, y)):
                raise refuse(IllegalMove, N_("{piece} at {cell} would cover {covered}, which is already on"),
                             piece=piece_name(orientation), cell=f"{anchor[0]},{anchor[1]}", covered=f"{x},{y}")
        return notation.canonical_play(orientation, anchor)

    def _execute(self, seat: int, action: str) -> list[Event]:
        if action == "draw":
            return self._draw(seat)
        if action == "skip":
            me = self.seats[seat]
            me.done = True
            return [event("skip", N_("{player} skips phase {phase}."), (seat,), player=self.names[seat],
                          phase=self.phase), *self._phase_end()]
        if action.startswith("discard "):
            kind = action.split()[1]
            self.seats[seat].hand.remove(kind)
            return [event("discard", N_("{player} discards a {kind} that fits nowhere."), (seat,),
                          player=self.names[seat], kind=kind)]
        _, orientation, anchor_text = action.split()
        x, y = (int(v) for v in anchor_text.split(","))
        return self._place(seat, orientation, (x, y))

    def _draw(self, seat: int, *, automatic: bool = False) -> list[Event]:
        me = self.seats[seat]
        count = max(me.level, 1)
        drawn = [self._next_kind() for _ in range(count)]
        me.hand += drawn
        me.drew = True
        if not self.calendar:
            me.done = True
        if automatic:
            template = (N_("{player} draws at the end of the phase: {count} piece.") if count == 1 else
                        N_("{player} draws at the end of the phase: {count} pieces."))
        else:
            template = N_("{player} draws {count} piece.") if count == 1 else N_("{player} draws {count} pieces.")
        events = [event("draw", template, (seat,), {"count": count}, player=self.names[seat], count=count),
                  event("drew", N_("You drew {pieces}."), (seat,), {"kinds": drawn}, to=seat, pieces=", ".join(drawn))]
        events += self._stuck(seat)
        if not automatic:
            events += self._phase_end()
        return events

    def _next_kind(self) -> str:
        if self.queue:
            return self.queue.pop(0)
        return self._draws.choice(KINDS)

    def _place(self, seat: int, orientation: str, anchor: Cell) -> list[Event]:
        me = self.seats[seat]
        kind = kind_of(orientation)
        me.hand.remove(kind)
        cells = placed_cells(orientation, anchor)
        me.board.place(cells, kind)
        me.placed += 1
        me.last = cells
        name = self.names[seat]
        events = [event("place", N_("{player} places {piece} at {cell}."), (seat,),
                        {"cells": [list(c) for c in cells]}, player=name, piece=piece_name(orientation),
                        cell=f"{anchor[0]},{anchor[1]}")]
        rows = me.board.full_rows()
        me.just_cleared = tuple(rows)
        if rows:
            me.board.clear(rows, collapse=self.options.gravity_collapse)
            me.cleared += len(rows)
            events.append(event("clear", N_("{player} clears {count} row ({rows}).") if len(rows) == 1 else
                                N_("{player} clears {count} rows ({rows})."), (seat,), {"rows": rows}, player=name,
                                count=len(rows), rows=", ".join(f"y={r}" for r in rows)))
            events += self._score(seat, len(rows))
        if self.winner is None:
            events += self._stuck(seat)
            if self.locked(seat):
                me.locked = me.resigned = me.done = True
                events.append(event("locked", N_("{player}'s board is full: no piece of any kind fits it any more, "
                                                 "so {player} is out at level {level}."), (seat,), player=name,
                                    level=me.level))
                events += self._phase_end()
        return events

    def _score(self, seat: int, rows: int) -> list[Event]:
        """One point per cleared row, counted row by row (or all at once with batch_reset)."""
        me = self.seats[seat]
        events = []
        if self.options.multi_clear == "batch_reset":
            me.points += rows
            if me.points >= me.level + 1:
                me.level += 1
                me.points = 0
                events.append(self._level_up(seat))
        else:
            for _ in range(rows):
                me.points += 1
                if me.points >= me.level + 1:
                    me.level += 1
                    me.points = 0
                    events.append(self._level_up(seat))
                    if self.winner is not None:
                        break
        return events

    def _level_up(self, seat: int) -> Event:
        me = self.seats[seat]
        name = self.names[seat]
        if me.level >= self.target and self.winner is None:
            self.winner = seat
            me.points = 0
            return event("game_end", N_("{player} reaches level {level} and wins!"), (seat,),
                         {"winner": seat, "reaction": "victory"}, player=name, level=me.level)
        return event("level_up", N_("{player} reaches level {level}."), (seat,),
                     {"level": me.level, "reaction": "level up"}, player=name, level=me.level)

    def _stuck(self, seat: int) -> list[Event]:
        me = self.seats[seat]
        if not me.hand or self._anything_fits(seat):
            return []
        kinds = ", ".join(sorted(set(me.hand), key=KINDS.index))
        template = (N_("No held piece fits: {pieces}. You may `discard` one.") if self.options.allow_discard
                    else N_("No held piece fits: {pieces}. You may clear rows to make room."))
        return [event("stuck", template, (seat,), {"kinds": kinds}, to=seat, pieces=kinds)]

    def _phase_end(self) -> list[Event]:
        """End the phase if no active seat is left to draw or skip, and open the next one."""
        active = [i for i, s in enumerate(self.seats) if not s.resigned]
        if self.winner is not None or not active or any(not self.seats[i].done for i in active):
            return []
        events: list[Event] = []
        if self.options.auto_draw:
            for i in active:
                if not self.seats[i].drew:
                    events += self._draw(i, automatic=True)
        self.phase += 1
        for seat in self.seats:
            seat.drew = False
            seat.done = seat.resigned
        listed = ", ".join(f"{self.names[i]} {max(self.seats[i].level, 1)}" for i in active)
        events.append(event("phase", N_("Phase {phase}: everyone may draw (pieces: {listed})."),
                            tuple(active), {"phase": self.phase}, phase=self.phase, listed=listed))
        return events

    def timeout_actions(self, seat: int) -> list[str]:
        me = self.seats[seat]
        return [] if me.done or me.resigned or self.winner is not None else ["skip"]

    def _resign(self, seat: int) -> list[Event]:
        me = self.seats[seat]
        me.resigned = True
        me.done = True
        return [event("resign", N_("{player} leaves the game."), (seat,), player=self.names[seat]),
                *self._phase_end()]

    def _join(self, name: str) -> list[Event]:
        if not self.options.allow_join:
            raise refuse(IllegalMove, N_("this table does not let new players join (the option allow_join is off)"))
        self.seats.append(Seat(self._empty_board(), done=True, drew=True))
        return [event("join", N_("{player} joins with an empty board at level 0, from the next phase."),
                      (len(self.seats) - 1,), player=name)]


    # ---- copies, chance and positions --------------------------------------------------------------

    def clone(self) -> Self:
        copy = self._shallow_copy()
        copy.seats = [s.copy() for s in self.seats]
        copy.queue = list(self.queue)
        copy._draws = copied_random(self._draws)
        return copy

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """Other hands are random kinds (sizes kept); the draws to come are fresh."""
        copy = self.clone()
        for index, other in enumerate(copy.seats):
            if index != seat:
                other.hand = [rng.choice(KINDS) for _ in other.hand]
        copy.queue = []
        copy._draws = random.Random(rng.getrandbits(64))
        return copy

    def _reshuffle(self, rng: random.Random) -> None:
        self.queue = []
        self._draws = random.Random(rng.getrandbits(64))

    def to_position(self) -> dict[str, Any]:
        return write_position(self)

    @classmethod
    def _read_position(cls, data: Mapping[str, Any], *, seed: int, options: GameOptions) -> Self:
        return read_position(cls, data, seed=seed, options=options)
