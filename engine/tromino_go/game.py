"""Tromino Go (shared/rules/tromino_go.md): two players lay L-trominoes in the cycle A, b, C, a,
B, c, each touching the opponent, until someone's group is surrounded; after 30 trominoes they
move them instead, for double points. First to 7 TGpoints wins; a missed deadline loses the game."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from engine.core import (
    N_,
    NP_,
    Event,
    Game,
    GameOptions,
    IllegalMove,
    NotationError,
    NotYourTurn,
    Outcome,
    PieceNoun,
    Term,
    event,
    phrase,
    refuse,
    refused,
    register,
)
from engine.tromino_go import notation, position
from engine.tromino_go.generation import each_placement
from engine.tromino_go.geometry import (
    Analysis,
    Cell,
    Cells,
    analyse,
    cells_of,
    groups,
    is_cut,
    neighbours,
    shape_of,
    surrounded,
)
from engine.tromino_go.notation import Accept, Concede, Move, Play, Word
from engine.tromino_go.position_help import FORMAT as POSITION_HELP
from engine.tromino_go.rules import LETTERS, PIECES_TO_MOVE, POINTS_TO_WIN, STALEMATE_PASSES
from engine.tromino_go.state import Piece

SUMMARY = N_("""\
**Tromino Go** (Sid Sackson) — surround the other player's trominoes, not your own.
• Two players lay L-trominoes in the cycle A b C a B c (capitals for whoever starts the round).
Play 1 sits at 0,0; play 2 touches A along 2 units of edge; play 3 touches b along 2 and not A;
play 4 touches C along 2 and neither b nor A.
• From play 5: a tromino may not touch any tromino of its own letter (either case), must touch the
opponent's trominoes, and must touch trominoes along at least 2 units of edge in all.
• A group (your trominoes joined edge to edge) with no edge facing the open outside is surrounded:
empty space enclosed by trominoes (No Man's Land) does not count as outside, and diagonal gaps seal it.
• When a group is surrounded the round ends: the player with fewer surrounded trominoes scores the
difference in TGpoints. After 30 trominoes, players move a tromino of their letter instead (one
with an outside edge that does not hold the others together), and points count double.
• You pass only when nothing is legal (the referee does it for you); 6 passes in a row tie the round.
• Either player may `concede N` at any time; the other may `accept`. First to 7 TGpoints wins; a
missed deadline (72 hours by default) loses the whole game.""")

NOTATION_HELP = N_("""\
• `play 2,-1 SW`: the lower-left cell of the tromino's 2×2 box and its elbow (SW, SE, NW, NE).
Or the three cells: `play 2,-1 3,-1 2,0`. The first play is just `play SW` (at 0,0).
• `move 0,0 to 3,1 NE` in the moving phase: a cell of your tromino, then where it goes.
• `concede 2`, `accept` (the largest offer) or `accept 2`, `forfeit`. The letter is never typed;
`b 2,-1 SW` is checked if you add it.""")


@dataclass(frozen=True)
class TrominoGoOptions(GameOptions):
    group_mode: str = field(default="component", metadata={
        "choices": ("component", "single"),
        "help": N_("a group is a whole same-player chain (component) or each tromino alone (single)")})
    opening_rule_i: bool = field(default=True, metadata={"help": N_("play 4 may not touch A either")})
    max_moving_turns: int = field(default=0, metadata={
        "min": 0, "max": 1000, "help": N_("the moving phase ends in a tie after this many moves (0: no limit)")})


@register
class TrominoGo(Game):
    name = "tromino_go"
    title = "Tromino Go"
    min_players = 2
    max_players = 2
    Options = TrominoGoOptions
    summary = SUMMARY
    notation_help = NOTATION_HELP
    position_help = POSITION_HELP
    verbs = frozenset({"play", "move", "to", "pass", "concede", "accept", "forfeit", "verify", "sw", "se", "nw", "ne",
                       "a", "b", "c", "poner", "mover", "ceder", "aceptar", "pasar", "abandonar", "so", "no"})
    notation_words: ClassVar[Mapping[str, Mapping[str, str]]] = {"es": notation.SPANISH}
    command_moves: ClassVar[Mapping[str, str]] = {"pass": "pass"}
    """`/pass` is the move `pass`, so it is answered as a typed `pass` is (the referee passes for
    you when nothing else is legal, so a pass of your own is refused, saying so)."""
    piece_noun: ClassVar[PieceNoun] = PieceNoun(NP_("{count} tromino", "{count} trominoes"), N_("the unseen trominoes"))
    command_help: ClassVar[Mapping[str, str]] = {
        "draw": N_("Tromino Go has no drawing: every tromino is the same L. Play one like `play 2,-1 SW`."),
        "skip": N_("Tromino Go has no skip: when nothing is legal the referee passes for you.")}
    example_moves = ("play 2,-1 SW", "move 0,0 to 3,1 NE")

    def example_move(self) -> str:
        return self.example_moves[1] if self.phase == "moving" else self.example_moves[0]
    default_turn_seconds = 72 * 3600
    options: TrominoGoOptions

    def __init__(self, players: int, seed: int, options: GameOptions, names: list[str]) -> None:
        super().__init__(players, seed, options, names)
        self.points = [0, 0]
        self.round = 1
        self.first = 0
        self.pieces: list[Piece] = []
        self.t = 0
        self.placed = 0
        self.phase = "placing"
        self.passes = 0
        self.moves = 0
        self.concessions: list[tuple[int, int]] = []
        self.winner: int | None = None
        self.end_reason = ""
        self.gone: int | None = None
        """The seat that forfeited (a missed deadline, `forfeit`) or left, if one did."""
        self.last: Cells = frozenset()
        self.previous: dict[str, Any] | None = None
        """The last finished round as it ended (its pieces, No Man's Land, surrounded trominoes and
        result), so the picture after a round-ending play shows the surround, not an empty grid."""
        self._analysis: Analysis | None = None

    # ---- the round ---------------------------------------------------------------------------

    def setup(self) -> list[Event]:
        self.first = self.random("first").randrange(2)
        return [self._round_start_event()]

    def _round_start_event(self) -> Event:
        name = self.names[self.first]
        return event("round_start", N_("Round {round}: {player} plays first, with capitals."), (self.first,),
                     {"round": self.round, "first": self.first}, round=self.round, player=name)

    @property
    def mover(self) -> int:
        return self.first if self.t % 2 == 0 else 1 - self.first

    @property
    def letter(self) -> str:
        plain = LETTERS[self.t % 3]
        return plain if self.mover == self.first else plain.lower()

    def analysis(self) -> Analysis:
        if self._analysis is None:
            self._analysis = analyse([p.cells for p in self.pieces])
        return self._analysis

    # ---- reading -------------------------------------------------------------------------------

    def to_move(self) -> tuple[int, ...]:
        return () if self.winner is not None else (self.mover,)

    def turn_count(self) -> int:
        return self.round * 100_000 + self.t

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(self.scores(), (self.winner,), self.end_reason)

    def scores(self) -> tuple[float, ...]:
        return (float(self.points[0]), float(self.points[1]))

    def is_resigned(self, seat: int) -> bool:
        return self.gone == seat

    def legal_actions(self, seat: int) -> list[str]:
        if self.winner is not None:
            return []
        actions: list[str] = []
        if seat == self.mover:
            actions = sorted(self._plays() if self.phase == "placing" else self._moves(), key=_order)
            if not actions:
                actions = ["pass"]
        actions += [f"concede {n}" for n in range(notation.MAX_CONCESSION + 1)]
        actions += [f"accept {n}" for n in sorted({p for s, p in self.concessions if s != seat})]
        actions.append("forfeit")
        return actions

    def forced_action(self, seat: int) -> str | None:
        if self.winner is None and seat == self.mover and not self._can_play():
            return "pass"
        return None

    def _can_play(self) -> bool:
        """Whether the mover has a play (or, once every tromino is placed, a move): what
        `legal_actions` would list before its concessions, stopping at the first one found."""
        if self.phase == "placing":
            return next(self._each_placement(self._occupied()), None) is not None
        for index in self.movable():
            piece = self.pieces[index]
            if any(cells_of(orientation, anchor) != piece.cells
                   for orientation, anchor in self._each_placement(self._occupied(index))):
                return True
        return False

    # ---- legality --------------------------------------------------------------------------------

    def _occupied(self, lifted: int | None = None) -> dict[Cell, int]:
        """Cell -> index of the piece on it (without the piece `lifted`, if any)."""
        return {c: i for i, p in enumerate(self.pieces) if i != lifted for c in p.cells}

    def _touches(self, cells: Cells, occupied: dict[Cell, int]) -> list[tuple[Piece, int]]:
        counts: dict[int, int] = {}
        for cell in cells:
            for n in neighbours(cell):
                index = occupied.get(n)
                if index is not None:
                    counts[index] = counts.get(index, 0) + 1
        return [(self.pieces[i], n) for i, n in counts.items()]

    def _refusal(self, cells: Cells, lifted: int | None = None,
                 occupied: dict[Cell, int] | None = None) -> Term | None:
        """Why a tromino on `cells` may not be placed now (None if it may), in the board's terms:
        "`b` must touch `A` along 2 units of edge; 2,1 SW touches it along 1": the letters in
        backticks, in the case the board shows (capitals for the round's first player), so that a
        refusal that begins with one keeps it as it is."""
        occupied = occupied if occupied is not None else self._occupied(lifted)
        taken = sorted(c for c in cells if c in occupied)
        if taken:
            return phrase(N_("{cell} is taken"), cell=f"{taken[0][0]},{taken[0][1]}")
        letter = self.letter
        if self.placed == 0 and self.phase == "placing":
            anchor = (min(x for x, _ in cells), min(y for _, y in cells))
            return None if anchor == (0, 0) else phrase(N_("the first tromino goes at 0,0"))
        touching = self._touches(cells, occupied)
        if self.phase == "placing" and self.placed < 4:
            return self._opening_refusal(touching, _label(cells))
        same = [(p, n) for p, n in touching if p.letter.upper() == letter.upper()]
        if same:
            piece, units = same[0]
            template = (N_("`{letter}` may not touch `{other}` (the same letter); {where} touches it along {count} "
                           "unit of edge") if units == 1 else
                        N_("`{letter}` may not touch `{other}` (the same letter); {where} touches it along {count} "
                           "units of edge"))
            return phrase(template, letter=letter, other=piece.letter, where=_label(cells), count=units)
        opponent = sum(n for p, n in touching if p.owner != self.mover)
        if opponent < 1:
            return phrase(N_("`{letter}` must touch the other player's trominoes; {where} touches none of them"),
                          letter=letter, where=_label(cells))
        total = sum(n for _, n in touching)
        if total < 2:
            return phrase(N_("`{letter}` must touch trominoes along 2 units of edge in all; {where} touches along "
                             "{count}"), letter=letter, where=_label(cells), count=total)
        return None

    def _opening_refusal(self, touching: list[tuple[Piece, int]], label: str) -> Term | None:
        by_id = {p.id: n for p, n in touching}
        letter = self.letter
        names = {p.id: p.letter for p in self.pieces}
        must, avoid = self._opening_ids()
        if by_id.get(must, 0) < 2:
            return phrase(N_("`{letter}` must touch `{other}` along 2 units of edge; {where} touches it along {count}"),
                          letter=letter, other=names[must], where=label, count=by_id.get(must, 0))
        for other in avoid:
            if by_id.get(other, 0):
                return phrase(N_("`{letter}` may not touch `{other}`; {where} does"), letter=letter, other=names[other],
                              where=label)
        return None

    def _placements(self, occupied: dict[Cell, int]) -> list[tuple[str, Cell]]:
        """Every (orientation, anchor) that `_refusal` would let through on `occupied`, within
        the coordinates the notation writes (±`notation.LIMIT`)."""
        return list(self._each_placement(occupied))

    def _each_placement(self, occupied: dict[Cell, int]) -> Iterator[tuple[str, Cell]]:
        """`_placements` one at a time, as found."""
        letter = self.letter.upper()
        opening = None
        if self.phase == "placing" and 1 <= self.placed < 4:
            index = {p.id: i for i, p in enumerate(self.pieces)}
            must, avoid = self._opening_ids()
            opening = (index.get(must, -1), tuple(index.get(a, -1) for a in avoid))
        found = each_placement(occupied, [p.owner for p in self.pieces],
                               [p.letter.upper() == letter for p in self.pieces], self.mover, opening)
        return ((orientation, anchor) for orientation, anchor in found  # the board ends where notation does
                if all(abs(v) <= notation.LIMIT for cell in cells_of(orientation, anchor) for v in cell))

    def _opening_ids(self) -> tuple[int, tuple[int, ...]]:
        """Plays 2-4 (§1.4): the id of the tromino to touch along 2 units, and those not to touch."""
        return {1: (1, ()), 2: (2, (1,)), 3: (3, (2,) + ((1,) if self.options.opening_rule_i else ()))}[self.placed]

    def _plays(self) -> list[str]:
        return [notation.play_text(*placement) for placement in self._placements(self._occupied())]

    def movable(self) -> list[int]:
        """Indices of the mover's trominoes of the current letter that may be moved: with an
        outside edge, and not holding the others together."""
        analysis = self.analysis()
        cells = [p.cells for p in self.pieces]
        return [i for i, p in enumerate(self.pieces)
                if p.owner == self.mover and p.letter == self.letter and analysis.out[i] >= 1 and not is_cut(cells, i)]

    def _moves(self) -> list[str]:
        found = []
        for index in self.movable():
            piece = self.pieces[index]
            origin = min(piece.cells)
            for orientation, anchor in self._placements(self._occupied(index)):
                if cells_of(orientation, anchor) != piece.cells:
                    found.append(notation.move_text(origin, orientation, anchor))
        return found

    # ---- acting --------------------------------------------------------------------------------

    def parse(self, seat: int, text: str) -> str:
        self._check_seat(seat)
        if self.winner is not None:
            raise refuse(IllegalMove, N_("the game is over"))
        move = notation.read(text)
        if isinstance(move, Word):
            if move.word == "pass":
                if seat != self.mover:
                    raise refuse(NotYourTurn, N_("it is {player}'s turn"), player=self.names[self.mover])
                if self.legal_actions(seat)[0] != "pass":
                    raise refuse(IllegalMove, N_("you never pass yourself: when nothing is legal the referee passes "
                                                 "for you. The suggestions as you type a move (`hints` in the "
                                                 "console) show what is legal; to give up points instead, "
                                                 "`concede 2`"))
            return move.word
        if isinstance(move, Concede):
            return f"concede {move.points}"
        if isinstance(move, Accept):
            offers = sorted(p for s, p in self.concessions if s != seat)
            if not offers:
                raise refuse(IllegalMove, N_("there is no concession from the other player to accept this round"))
            if move.points is not None and move.points not in offers:
                raise refuse(IllegalMove, N_("the other player offered {offers}, not {points}"),
                             offers=", ".join(map(str, offers)), points=move.points)
            return f"accept {move.points if move.points is not None else offers[-1]}"
        if seat != self.mover:
            raise refuse(NotYourTurn, N_("it is {player}'s turn ({letter})"), player=self.names[self.mover],
                         letter=self.letter)
        if isinstance(move, Move):
            return self._read_move(move)
        return self._read_play(move)

    def _cells_of(self, play: Play) -> Cells:
        if play.letter is not None and play.letter.upper() != self.letter.upper():
            raise refuse(IllegalMove, N_("the letter to play is {letter}, not {typed}; leave the letter out and the "
                                         "referee fills it in"), letter=self.letter, typed=play.letter)
        if play.cells:
            shape = shape_of(play.cells)
            if shape is None:
                raise refuse(IllegalMove, N_("{cells} do not form an L-tromino; {example}"),
                             cells=" ".join(f"{x},{y}" for x, y in play.cells), example=notation.EXAMPLE)
            return cells_of(*shape)
        assert play.orientation is not None
        anchor = play.anchor
        if anchor is None:
            if self.placed or self.phase != "placing":
                raise refuse(NotationError, N_("say where: {example}"), example=notation.EXAMPLE)
            anchor = (0, 0)
        return cells_of(play.orientation, anchor)

    def _read_play(self, play: Play) -> str:
        if self.phase != "placing":
            raise refuse(IllegalMove, N_("all {count} trominoes are down: move one of your {letter} trominoes, like "
                                         "`move 0,0 to 3,1 NE`"), count=PIECES_TO_MOVE, letter=self.letter)
        cells = self._cells_of(play)
        if self.placed == 0 and (min(x for x, _ in cells), min(y for _, y in cells)) != (0, 0):
            raise refuse(IllegalMove, N_("the first tromino goes at 0,0: `play SW`, `play SE`, `play NW` or "
                                         "`play NE`"))
        reason = self._refusal(cells)
        if reason is not None:
            raise refused(IllegalMove, reason)
        return notation.play_text(*_shape(cells))

    def _read_move(self, move: Move) -> str:
        if self.phase != "moving":
            raise refuse(IllegalMove, N_("trominoes move only after {count} are down; now play one: {example}"),
                         count=PIECES_TO_MOVE, example=notation.EXAMPLE)
        index = next((i for i, p in enumerate(self.pieces) if move.origin in p.cells), None)
        if index is None:
            raise refuse(IllegalMove, N_("there is no tromino on {cell}"), cell=f"{move.origin[0]},{move.origin[1]}")
        piece = self.pieces[index]
        if piece.owner != self.mover or piece.letter != self.letter:
            raise refuse(IllegalMove, N_("move one of your {letter} trominoes; that one is {other}"),
                         letter=self.letter, other=piece.letter)
        if index not in self.movable():
            template = (N_("that {letter} may not move: it has no edge facing the outside")
                        if self.analysis().out[index] == 0 else
                        N_("that {letter} may not move: it holds the other trominoes together"))
            raise refuse(IllegalMove, template, letter=piece.letter)
        cells = self._cells_of(move.destination)
        if cells == piece.cells:
            raise refuse(IllegalMove, N_("a move must put the tromino somewhere else"))
        reason = self._refusal(cells, lifted=index)
        if reason is not None:
            raise refused(IllegalMove, reason)
        return notation.move_text(min(piece.cells), *_shape(cells))

    def _execute(self, seat: int, action: str) -> list[Event]:
        word = action.split()[0]
        name = self.names[seat]
        if word == "forfeit":
            self.gone = seat
            return [event("resign", N_("{player} forfeits the game."), (seat,), player=name),
                    *self._end_game(1 - seat, phrase(N_("{player} forfeited the game"), player=name))]
        if word == "concede":
            points = int(action.split()[1])
            self.concessions.append((seat, points))
            template = (N_("{player} concedes {count} TGpoint; {other} may `accept`.") if points == 1
                        else N_("{player} concedes {count} TGpoints; {other} may `accept`."))
            return [event("concede", template, (seat,), {"points": points}, player=name, count=points,
                          other=self.names[1 - seat])]
        if word == "accept":
            points = int(action.split()[1])
            self.points[seat] += points
            events = [event("accept", N_("{player} accepts {other}'s concession of {count}."), (seat,), player=name,
                            other=self.names[1 - seat], count=points)]
            return events + self._end_round(seat, 1 - seat, points, phrase(N_("{player} conceded {count}"),
                                                                         player=self.names[1 - seat], count=points))
        if word == "pass":
            return self._pass(seat)
        if word == "play":
            _, anchor_text, orientation = action.split()
            cells = cells_of(orientation, _cell(anchor_text))
            self.pieces.append(Piece(len(self.pieces) + 1, seat, self.letter, cells))
            self.placed += 1
            template = N_("{player} plays {letter} at {cell} {orientation}.")
            told: dict[str, Any] = {"player": name, "letter": self.letter, "cell": anchor_text,
                                    "orientation": Term(orientation)}
        else:
            _, origin_text, _, anchor_text, orientation = action.split()
            origin = _cell(origin_text)
            piece = next(p for p in self.pieces if origin in p.cells)
            piece.cells = cells_of(orientation, _cell(anchor_text))
            self.moves += 1
            cells = piece.cells
            template = N_("{player} moves {letter} from {origin} to {cell} {orientation}.")
            told = {"player": name, "letter": piece.letter, "origin": origin_text, "cell": anchor_text,
                    "orientation": Term(orientation)}
        self.last = cells
        self._analysis = None
        self.passes = 0
        events = [event(word, template, (seat,), {"cells": sorted(cells)}, **told)]
        self.t += 1
        events += self._after_change()
        return events

    def _pass(self, seat: int) -> list[Event]:
        self.passes += 1
        self.t += 1
        events = [event("pass", N_("{player} passes: nothing is legal."), (seat,), player=self.names[seat])]
        if self.passes >= STALEMATE_PASSES:
            events += self._tie(phrase(N_("{count} passes in a row"), count=STALEMATE_PASSES))
        return events

    def _after_change(self) -> list[Event]:
        """The round-end check after a play or a move (§1.7), then the phase switch."""
        counts = surrounded([p.cells for p in self.pieces], [p.owner for p in self.pieces], self.analysis(),
                            single=self.options.group_mode == "single")
        if counts[0] or counts[1]:
            if counts[0] == counts[1]:
                return self._tie(phrase(N_("both players have {count} surrounded"), count=counts[0]))
            winner = 0 if counts[0] < counts[1] else 1
            points = abs(counts[0] - counts[1]) * (2 if self.phase == "moving" else 1)
            self.points[winner] += points
            how = phrase(N_("{loser} has {lost} surrounded, {winner} {won}"), loser=self.names[1 - winner],
                         lost=counts[1 - winner], winner=self.names[winner], won=counts[winner])
            return self._end_round(winner, 1 - winner, points, how)
        events = []
        if self.phase == "placing" and self.placed >= PIECES_TO_MOVE:
            self.phase = "moving"
            events.append(event("moving", N_("All {count} trominoes are down: from now on players move them, and "
                                             "points count double."), (0, 1), count=PIECES_TO_MOVE))
        if self.phase == "moving" and self.options.max_moving_turns and self.moves >= self.options.max_moving_turns:
            events += self._tie(phrase(N_("{count} moves without a surround"), count=self.options.max_moving_turns))
        return events

    def _tie(self, why: Term) -> list[Event]:
        second = 1 - self.first
        self._remember(phrase(N_("Round {round}: a tie ({why})"), round=self.round, why=why))
        return [event("round_end", N_("Round {round} is a tie ({why}): nobody scores."), (0, 1),
                      {"winner": None, "points": 0}, round=self.round, why=why), *self._next_round(second)]

    def _end_round(self, winner: int, loser: int, points: int, how: Term) -> list[Event]:
        self._remember(phrase(N_("Round {round} to {player}, +{count} ({how})"), round=self.round,
                              player=self.names[winner], count=points, how=how))
        template = (N_("Round {round} goes to {player} for {count} TGpoint ({how}). Totals: {totals}.") if points == 1
                    else N_("Round {round} goes to {player} for {count} TGpoints ({how}). Totals: {totals}."))
        events = [event("round_end", template, (winner, loser), {"winner": winner, "points": points,
                                                                 "reaction": "victory"},
                        round=self.round, player=self.names[winner], count=points, how=how,
                        totals=f"{self.names[0]} {self.points[0]}, {self.names[1]} {self.points[1]}")]
        if self.points[winner] >= POINTS_TO_WIN:
            return events + self._end_game(winner, phrase(N_("{player} reached {count} TGpoints"),
                                                          player=self.names[winner], count=self.points[winner]))
        return events + self._next_round(loser)

    def surrounded_ids(self) -> list[int]:
        """Ids of the trominoes in surrounded groups now."""
        analysis = self.analysis()
        single = self.options.group_mode == "single"
        found = [i for group in groups([p.cells for p in self.pieces], [p.owner for p in self.pieces], single)
                 if all(analysis.out[i] == 0 for i in group) for i in group]
        return sorted(self.pieces[i].id for i in found)

    def _remember(self, result: Term) -> None:
        """Keep the round that is ending for the pictures (rules §1.7: announce the surround)."""
        self.previous = {
            "round": self.round, "first": self.first, "result": result,
            "pieces": self._pieces_view(), "nml": sorted(list(c) for c in self.analysis().no_mans_land()),
            "last": sorted(list(c) for c in self.last), "surrounded": self.surrounded_ids(),
        }

    def _pieces_view(self) -> list[dict[str, Any]]:
        return [{"id": p.id, "owner": p.owner, "letter": p.letter, "cells": sorted(list(c) for c in p.cells)}
                for p in self.pieces]

    def _next_round(self, starter: int) -> list[Event]:
        self.round += 1
        self.first = starter
        self.pieces, self.t, self.placed, self.phase = [], 0, 0, "placing"
        self.passes, self.moves, self.concessions, self.last = 0, 0, [], frozenset()
        self._analysis = None
        return [self._round_start_event()]

    def _end_game(self, winner: int, reason: Term) -> list[Event]:
        self.winner = winner
        self.end_reason = reason
        return [event("game_end", N_("{player} wins the game: {reason}."), (winner,), {"winner": winner},
                      player=self.names[winner], reason=reason)]

    def timeout_actions(self, seat: int) -> list[str]:
        """A missed deadline loses the whole game (§1.8)."""
        return [] if self.winner is not None else ["forfeit"]

    def _resign(self, seat: int) -> list[Event]:
        self.gone = seat
        return [event("resign", N_("{player} leaves the game."), (seat,), player=self.names[seat]),
                *self._end_game(1 - seat, phrase(N_("{player} left the game"), player=self.names[seat]))]

    # ---- copies and positions ------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        analysis = self.analysis()
        return {
            "game": self.name, "round": self.round, "t": self.t, "first": self.first, "mover": self.mover,
            "letter": self.letter, "placed": self.placed, "phase": self.phase, "passes": self.passes,
            "points": list(self.points), "names": list(self.names), "winner": self.winner,
            "to_move": list(self.to_move()),
            "pieces": self._pieces_view(),
            "nml": sorted(list(c) for c in analysis.no_mans_land()),
            "surrounded": self.surrounded_ids(),
            "movable": sorted(self.pieces[i].id for i in self.movable())
            if self.phase == "moving" and self.winner is None else [],
            "previous": self.previous,
            "last": sorted(list(c) for c in self.last),
            "concessions": [{"seat": s, "points": n} for s, n in self.concessions],
        }

    def clone(self) -> Self:
        copy = self._shallow_copy()
        copy.points = list(self.points)
        copy.pieces = [p.copy() for p in self.pieces]
        copy.concessions = list(self.concessions)
        return copy

    def to_position(self) -> dict[str, Any]:
        return position.write(self)

    @classmethod
    def _read_position(cls, data: Mapping[str, Any], *, seed: int, options: GameOptions) -> Self:
        game = cls(2, seed, options, position.seat_names(data))
        position.read(game, data)
        return game


def _label(cells: Cells) -> str:
    """A placement as players write it: `2,1 SW`."""
    orientation, anchor = _shape(cells)
    return f"{anchor[0]},{anchor[1]} {orientation}"


def _cell(text: str) -> Cell:
    x, y = text.split(",")
    return int(x), int(y)


def _shape(cells: Cells) -> tuple[str, Cell]:
    shape = shape_of(cells)
    assert shape is not None
    return shape


def _order(action: str) -> tuple[int, ...]:
    numbers = [int(v) for part in action.split() if "," in part for v in part.split(",")]
    return (*numbers, sum(map(ord, action.split()[-1])))

