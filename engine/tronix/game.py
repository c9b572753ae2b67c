"""Tronix (shared/rules/tronix.md): two teams, green and pink, place square cards whose lines
run on from card to card; a closed line (a CIRCUIT) is scored at once, each card to the team
whose colour it gives. With every hand empty comes God Mode: move or turn any card but the one
moved last, until the cards run out, a TRONIX (one open line through every card) ends the game,
or the table stalls."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from engine.core import (
    N_,
    NP_,
    Event,
    Game,
    GameOptions,
    IllegalMove,
    NotYourTurn,
    Outcome,
    PieceNoun,
    phrase,
    register,
)
from engine.tronix import notation, position, teams
from engine.tronix.cards import GREEN, KINDS, ORDER, PINK, Cell, neighbours, term
from engine.tronix.lines import Line, islands, line_through, shares, tronix_line
from engine.tronix.notation import Move, Play, Turn, cell_text
from engine.tronix.options import TronixOptions
from engine.tronix.phases import ENDINGS, GOD, OVER, PLACEMENT
from engine.tronix.position_help import FORMAT as POSITION_HELP
from engine.tronix.state import Card, Seat

ORIGIN: Cell = (0, 0)

SUMMARY = N_("""\
**Tronix** — two teams, green and pink, close circuits of their colour.
• Seats alternate in pairs (green, green, pink, pink…); the 48 cards are dealt out. Each card shows a
green and a pink line: a curve (two quarter arcs) on one face, a cross (two straight lines) on the other.
• Placement: on your turn place one card from your hand next to a card on the table (edge to edge), any
way up. With two players, two cards a turn.
• A closed line is a CIRCUIT: its cards leave the table at once, each to the team whose colour it gives to
the circuit, whoever built it. A card giving both colours is shared and stays.
• God Mode, once every hand is empty: move a card to another cell or turn it in place (the pattern must
change), but not the card moved last, and never cutting the table into a new island.
• TRONIX: in God Mode, one open line through every card on the table scores them all and ends the game.
A last single card is a SINGULARITY and is discarded. The team with more cards wins.""")

NOTATION_HELP = N_("""\
• Cells are `x,y` as printed on the picture (y grows downwards; the first card is at 0,0).
• A pattern is where the green line runs: `NE`, `SE`, `SW`, `NW` (curves) or `NS`, `EW` (straights).
• `play 1,0 NE` places a card; `move 1,0 to 2,1 SW` and `turn 1,0 SW` in God Mode.
• In Spanish: `poner 1,0 NE`, `mover 1,0 a 2,1 SO`, `girar 1,0 SO` (O for west).""")


def event(kind: str, template: str, seats: tuple[int, ...] = (), data: Mapping[str, Any] | None = None,
          **args: Any) -> Event:
    return Event(kind, template.format(**args), seats, dict(data or {}), template=template, args=args)


def refusal(template: str, **args: Any) -> IllegalMove:
    return IllegalMove(template.format(**args), template=template, args=args)


@register
class Tronix(Game):
    name = "tronix"
    title = "Tronix"
    min_players = 2
    max_players = 16
    Options = TronixOptions
    summary = SUMMARY
    notation_help = NOTATION_HELP
    position_help = POSITION_HELP
    verbs = notation.VERBS
    notation_words: ClassVar[Mapping[str, Mapping[str, str]]] = {"es": notation.SPANISH}
    piece_noun: ClassVar[PieceNoun] = PieceNoun(NP_("{count} card", "{count} cards"), N_("the unseen cards"))
    command_help: ClassVar[Mapping[str, str]] = {
        "draw": N_("Tronix has no drawing: every card is dealt at the start. Place one like `play 1,0 NE`."),
        "pass": N_("Tronix has no passing: place a card (`play 1,0 NE`), or in God Mode move or turn one."),
        "skip": N_("Tronix has no skip: place a card (`play 1,0 NE`), or in God Mode move or turn one.")}
    example_moves = ("play 1,0 NE", "move 1,0 to 2,1 SW")

    def example_move(self) -> str:
        return self.example_moves[1] if self.phase == GOD else self.example_moves[0]
    options: TronixOptions

    team_names = (N_("green"), N_("pink"))

    def __init__(self, players: int, seed: int, options: GameOptions, names: list[str]) -> None:
        super().__init__(players, seed, options, names)
        seating = teams.seating(players)
        self.seats = [Seat(n, seating[i]) for i, n in enumerate(names)]
        self.table: dict[Cell, Card] = {}
        """Cards on the table, in the order they reached their cells: a card placed, or moved to
        another cell, goes last; a card turned in place keeps its place (rules §5)."""
        self.turn = 0
        self.actions_left = self.per_turn
        self.turns = 0
        self.phase = PLACEMENT
        self.locked: Cell | None = None
        self.piles = {GREEN: 0, PINK: 0}
        self.discarded = 0
        self.quiet = 0
        self.seen: Counter[str] = Counter()
        self.last: dict[str, Any] | None = None
        self.scored: list[dict[str, Any]] = []
        """Cards that just left the table (drawn ghosted on the next picture)."""
        self.end_reason = ""

    @classmethod
    def player_counts(cls) -> tuple[int, ...]:
        """Two equal teams: an even number of players."""
        return tuple(range(2, cls.max_players + 1, 2))

    @property
    def per_turn(self) -> int:
        return 2 if self.players == 2 else 1

    @classmethod
    def teams(cls, players: int) -> tuple[tuple[int, ...], ...]:
        seating = teams.seating(players)
        return (tuple(i for i, t in enumerate(seating) if t == GREEN),
                tuple(i for i, t in enumerate(seating) if t == PINK))

    def setup(self) -> list[Event]:
        size = self.options.deck_size
        deck = ["cx"] * size if self.options.deck == "cx" else \
            ["cc"] * (size // 6) + ["xx"] * (size // 6) + ["cx"] * (size - 2 * (size // 6))
        self.random("deal").shuffle(deck)
        for index, kind in enumerate(deck):
            self.seats[index % self.players].hand.append(kind)
        green = ", ".join(self.names[i] for i in self.teams(self.players)[0])
        pink = ", ".join(self.names[i] for i in self.teams(self.players)[1])
        return [event("teams", N_("Green: {green}. Pink: {pink}. {player} places the first card at 0,0."),
                      (0,), {"teams": [list(t) for t in self.teams(self.players)]},
                      green=green, pink=pink, player=self.names[0])]

    # ---- reading -------------------------------------------------------------------------------

    def to_move(self) -> tuple[int, ...]:
        return (self.turn,) if self.phase != OVER else ()

    def turn_count(self) -> int:
        return self.turns

    def team_of(self, seat: int) -> str:
        return self.seats[seat].team

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.piles[s.team]) for s in self.seats)

    def is_resigned(self, seat: int) -> bool:
        return self.seats[seat].resigned

    def _standing(self) -> dict[str, tuple[int, ...]]:
        """Each team's seats that have not resigned."""
        green, pink = self.teams(self.players)
        return {GREEN: tuple(s for s in green if not self.seats[s].resigned),
                PINK: tuple(s for s in pink if not self.seats[s].resigned)}

    def winning_team(self) -> str | None:
        """The team that won a finished game, the one source of every way the result is told
        (the outcome, the end announcement, the picture): the team still playing when the whole
        other team left, else the team with more cards. None for a draw, or while it is played."""
        if self.phase != OVER:
            return None
        standing = self._standing()
        if bool(standing[GREEN]) != bool(standing[PINK]):
            return GREEN if standing[GREEN] else PINK
        if self.piles[GREEN] == self.piles[PINK]:
            return None
        return GREEN if self.piles[GREEN] > self.piles[PINK] else PINK

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        green, pink = self.teams(self.players)
        team = self.winning_team()
        standing = self._standing()
        if team is None:
            winners = tuple(range(self.players))  # a draw: both teams share it
        elif not standing[PINK if team == GREEN else GREEN]:
            winners = standing[team]  # the other team left: those still playing win
        else:
            winners = green if team == GREEN else pink
        return Outcome(self.scores(), tuple(winners), self.end_reason, teams=(green, pink))

    def legal_actions(self, seat: int) -> list[str]:
        self._check_seat(seat)
        if self.phase == OVER or seat != self.turn:
            return []
        if self.phase == PLACEMENT:
            return [notation.write(play) for play in self._placements(seat)]
        return self._god_actions()

    def timeout_actions(self, seat: int) -> list[str]:
        """No passing in Tronix: a missed turn makes the first legal action for the player."""
        actions = self.legal_actions(seat)
        return actions[:1]

    # ---- what may be done ----------------------------------------------------------------------

    def _open_cells(self) -> list[Cell]:
        if not self.table:
            return [ORIGIN]
        return sorted({n for cell in self.table for n in neighbours(cell) if n not in self.table},
                      key=lambda c: (c[1], c[0]))

    @property
    def deck_kinds(self) -> frozenset[str]:
        """The kinds of card the deck is made of (public: the table's options say it)."""
        return frozenset({"cx"} if self.options.deck == "cx" else {"cx", "cc", "xx"})

    def _placements(self, seat: int) -> list[Play]:
        """Every placement, in cell then pattern order, each named as `_kind_label` says."""
        held = sorted(set(self.seats[seat].hand))
        plays = []
        for cell in self._open_cells():
            for pattern in ORDER:
                plays += [Play(cell, pattern, self._kind_label(kind, pattern)) for kind in held
                          if pattern in KINDS[kind]]
        return plays

    def _kind_label(self, kind: str, pattern: str) -> str | None:
        """The kind a placement names: whenever the deck has several kinds that could show the
        pattern. Which kinds the player holds never decides it, so a move written without its
        kind tells nobody that the player holds no other kind (the mixed deck's hands stay
        hidden); with the plain deck, never."""
        return kind if sum(pattern in KINDS[k] for k in self.deck_kinds) > 1 else None

    def _god_actions(self) -> list[str]:
        """Every God Mode action, canonical: per card on the table (in table order) but the
        locked one, its turns in place, then its moves by target cell and pattern."""
        cells = set(self.table)
        before = islands(cells)
        frontier = self._open_cells_around(cells)
        names = {cell: cell_text(cell) for cell in (*cells, *frontier)}
        actions: list[str] = []
        for source, card in self.table.items():
            if source == self.locked:
                continue
            here = names[source]
            patterns = KINDS[card.kind]
            actions += [f"turn {here} {p}" for p in patterns if p != card.pattern]
            groups = _group_of(cells - {source})
            count = len(set(groups.values()))
            for target in frontier:
                touching = {groups[n] for n in neighbours(target) if n in groups}
                if not touching or (not self.options.new_islands and count - len(touching) + 1 > before):
                    continue
                there = names[target]
                actions += [f"move {here} to {there} {p}" for p in patterns]
        return actions

    def _open_cells_around(self, cells: set[Cell]) -> list[Cell]:
        """The empty cells next to any of `cells`, in reading order."""
        return sorted({n for cell in cells for n in neighbours(cell) if n not in self.table},
                      key=lambda c: (c[1], c[0]))

    # ---- reading a move ------------------------------------------------------------------------

    def parse(self, seat: int, text: str) -> str:
        self._check_seat(seat)
        if self.phase == OVER:
            raise refusal(N_("the game is over"))
        action = notation.read(text)
        if seat != self.turn:
            raise NotYourTurn(N_("it is {player}'s turn").format(player=self.names[self.turn]),
                              template=N_("it is {player}'s turn"), args={"player": self.names[self.turn]})
        if self.phase == PLACEMENT:
            if not isinstance(action, Play):
                raise refusal(N_("God Mode has not begun: place a card from your hand, like `play 1,0 NE`"))
            return notation.write(self._check_play(seat, action))
        if isinstance(action, Play):
            raise refusal(N_("it is God Mode: move or turn a card on the table, like `move 1,0 to 2,1 SW` or "
                             "`turn 1,0 SW`"))
        return notation.write(self._check_god(action))

    def _check_play(self, seat: int, play: Play) -> Play:
        me = self.seats[seat]
        where = cell_text(play.cell)
        if not me.hand:
            raise refusal(N_("your hand is empty"))
        if not self.table and play.cell != ORIGIN:
            raise refusal(N_("the table is empty: the card goes at 0,0"))
        if play.cell in self.table:
            raise refusal(N_("{cell} is taken"), cell=where)
        if self.table and not any(n in self.table for n in neighbours(play.cell)):
            raise refusal(N_("{cell} is not next to any card"), cell=where)
        kinds = sorted({k for k in me.hand if play.pattern in KINDS[k]})
        if play.kind is not None:
            if play.kind not in me.hand:
                raise refusal(N_("you hold no {kind} card"), kind=play.kind.upper())
            if play.pattern not in KINDS[play.kind]:
                raise refusal(N_("a {kind} card cannot show {pattern}"), kind=play.kind.upper(),
                              pattern=term(play.pattern))
            kinds = [play.kind]
        if not kinds:
            raise refusal(N_("none of your cards can show {pattern}"), pattern=term(play.pattern))
        if len(kinds) > 1:
            raise refusal(N_("say which card: `play {kind} {cell} {pattern}`"), kind=kinds[0], cell=where,
                          pattern=term(play.pattern))
        return Play(play.cell, play.pattern, self._kind_label(kinds[0], play.pattern))

    def _check_god(self, action: Move | Turn) -> Move | Turn:
        source = action.source if isinstance(action, Move) else action.cell
        where = cell_text(source)
        card = self.table.get(source)
        if card is None:
            raise refusal(N_("there is no card at {cell}"), cell=where)
        if source == self.locked:
            raise refusal(N_("that card was just moved: pick another"))
        if action.pattern not in KINDS[card.kind]:
            raise refusal(N_("a {kind} card cannot show {pattern}"), kind=card.kind.upper(),
                          pattern=term(action.pattern))
        if isinstance(action, Turn):
            if action.pattern == card.pattern:
                raise refusal(N_("the card at {cell} already shows {pattern}: turn it to another pattern"),
                              cell=where, pattern=term(card.pattern))
            return action
        target = cell_text(action.target)
        if action.target == source:
            raise refusal(N_("to change a card where it lies, `turn {cell} {pattern}`"), cell=where,
                          pattern=term(action.pattern))
        if action.target in self.table:
            raise refusal(N_("{cell} is taken"), cell=target)
        rest = set(self.table) - {source}
        if not any(n in rest for n in neighbours(action.target)):
            raise refusal(N_("{cell} is not next to any other card"), cell=target)
        if not self.options.new_islands and islands(rest | {action.target}) > islands(set(self.table)):
            raise refusal(N_("moving the card at {cell} to {target} would leave a new island"), cell=where,
                          target=target)
        return action

    # ---- acting --------------------------------------------------------------------------------

    def _execute(self, seat: int, action: str) -> list[Event]:
        move = notation.read(action)
        self.scored = []
        name = self.names[seat]
        if isinstance(move, Play):
            kind = move.kind or next(k for k in sorted(set(self.seats[seat].hand)) if move.pattern in KINDS[k])
            self.seats[seat].hand.remove(kind)
            self.table[move.cell] = Card(kind, move.pattern)
            landed = move.cell
            events = [event("play", N_("{player} places a card at {cell} ({pattern})."), (seat,),
                            {"cell": cell_text(landed)}, player=name, cell=cell_text(landed),
                            pattern=term(move.pattern))]
        elif isinstance(move, Move):
            card = self.table.pop(move.source)
            self.table[move.target] = Card(card.kind, move.pattern)
            landed = move.target
            events = [event("move", N_("{player} moves the card at {cell} to {target} ({pattern})."), (seat,),
                            {"cell": cell_text(landed)}, player=name, cell=cell_text(move.source),
                            target=cell_text(landed), pattern=term(move.pattern))]
        else:
            card = self.table[move.cell]
            self.table[move.cell] = Card(card.kind, move.pattern)  # turned where it lies: it keeps its place
            landed = move.cell
            events = [event("turn", N_("{player} turns the card at {cell} to {pattern}."), (seat,),
                            {"cell": cell_text(landed)}, player=name, cell=cell_text(landed),
                            pattern=term(move.pattern))]
        self.last = {"seat": seat, "cell": list(landed), "kind": events[0].kind}
        lines = self._lines_through(landed)
        gained = self._score([line for line in lines if line.closed], seat)
        events += gained
        if self.phase == GOD:
            self.locked = landed if landed in self.table else None
            self.quiet = 0 if gained else self.quiet + 1
            events += self._after_god_action(seat, None if gained else lines)
        else:
            events += self._after_placement(seat)
        return events

    def patterns(self) -> dict[Cell, str]:
        """Each card's cell -> the pattern it shows."""
        return {cell: card.pattern for cell, card in self.table.items()}

    def _score(self, lines: list[Line], seat: int, *, tronix: bool = False) -> list[Event]:
        """Award the cards on `lines`: one colour to its team (off the table), both colours shared
        (it stays, or, for a TRONIX, which ends the game, is discarded)."""
        if not lines:
            return []
        won = {GREEN: 0, PINK: 0}
        shared = 0
        for cell, colours in shares(lines).items():
            card = self.table[cell]
            if len(colours) == 1:
                colour = next(iter(colours))
                won[colour] += 1
                del self.table[cell]
                self.scored.append({"at": list(cell), "kind": card.kind, "pattern": card.pattern, "to": colour})
            else:
                shared += 1
                if tronix:
                    del self.table[cell]
                    self.discarded += 1
                    self.scored.append({"at": list(cell), "kind": card.kind, "pattern": card.pattern, "to": None})
        self.piles[GREEN] += won[GREEN]
        self.piles[PINK] += won[PINK]
        data = {"green": won[GREEN], "pink": won[PINK], "shared": shared,
                "reaction": "lightning" if tronix else "party"}
        if tronix:
            discarded = phrase(N_("{count} shared card discarded") if shared == 1 else
                               N_("{count} shared cards discarded"), count=shared)
            return [event("tronix", N_("TRONIX! One line runs through every card: green wins {green}, pink wins "
                                       "{pink}, {shared}."), (seat,), data,
                          green=won[GREEN], pink=won[PINK], shared=discarded)]
        count = len(lines)
        stay = phrase(N_("{count} shared card stays on the table") if shared == 1 else
                      N_("{count} shared cards stay on the table"), count=shared)
        template = N_("Circuit! Green wins {green}, pink wins {pink}; {shared}.") \
            if count == 1 else N_("{count} circuits! Green wins {green}, pink wins {pink}; {shared}.")
        return [event("circuit", template, (seat,), data, count=count, green=won[GREEN], pink=won[PINK],
                      shared=stay)]

    def _after_placement(self, seat: int) -> list[Event]:
        self.actions_left -= 1
        if self.actions_left > 0 and self.seats[seat].hand:
            return []
        if not any(s.hand for s in self.seats if not s.resigned):
            return self._enter_god(seat)
        self._next_turn(seat, need_cards=True)
        return []

    def _enter_god(self, last: int) -> list[Event]:
        ended = self._table_size_end()
        if ended:
            return ended
        self.phase = GOD
        self.locked = next(reversed(self.table)) if self.options.lock_at_god_start else None
        self._next_turn(last, need_cards=False)
        self.seen[self._position_key()] += 1
        return [event("god", N_("Every hand is empty: God Mode begins. {player} moves first."), (self.turn,),
                      {"reaction": "god"}, player=self.names[self.turn])]

    def _lines_through(self, cell: Cell) -> list[Line]:
        """The lines through the card at `cell` (one, or two when they differ). No circuit stands
        on the table before an action, so any the action closed runs through the card it moved;
        and a TRONIX, touching every card, runs through it too."""
        patterns = self.patterns()
        first = line_through(patterns, (cell, GREEN))
        if (cell, PINK) in first.segments:
            return [first]
        return [first, line_through(patterns, (cell, PINK))]

    def _tronix(self, lines: list[Line] | None) -> Line | None:
        """The open line through every card on the table, if any. `lines` are the lines through
        the card just moved when nothing else changed since (a line through every card runs
        through it too); None: circuits left the table meanwhile, so the table is traced."""
        if lines is None:
            return tronix_line(self.patterns())
        everyone = set(self.table)
        return next((line for line in lines if not line.closed and len(everyone) >= 2 and line.cells() == everyone),
                    None)

    def _after_god_action(self, seat: int, lines: list[Line] | None) -> list[Event]:
        """TRONIX, the end of the cards, the turn's next action and the stalemate caps, after a
        God Mode action (`lines`: see `_tronix`)."""
        found = self._tronix(lines)
        if found is not None:
            events = self._score([found], seat, tronix=True)
            self.discarded += len(self.table)
            self.table.clear()
            return events + self._end_game(ENDINGS["tronix"])
        ended = self._table_size_end()
        if ended:
            return ended
        self.actions_left -= 1
        if self.actions_left <= 0:
            self._next_turn(seat, need_cards=False)
        if self.options.quiet_limit and self.quiet >= self.options.quiet_limit:
            return self._stalemate(N_("{count} God Mode actions in a row scored nothing: the game ends and {left}."),
                                   self.quiet)
        key = self._position_key()
        self.seen[key] += 1
        if self.options.repetitions and self.seen[key] >= self.options.repetitions:
            return self._stalemate(N_("The same position came up {count} times: the game ends and {left}."),
                                   self.seen[key])
        return []

    def _table_size_end(self) -> list[Event]:
        if not self.table:
            return self._end_game(ENDINGS["empty"])
        if len(self.table) == 1:
            self.discarded += 1
            cell = next(iter(self.table))
            self.table.clear()
            return [event("singularity", N_("One card is left, at {cell}: a SINGULARITY. It is discarded."), (),
                          {}, cell=cell_text(cell)), *self._end_game(ENDINGS["singularity"])]
        return []

    def _stalemate(self, template: str, count: int) -> list[Event]:
        left = len(self.table)
        self.discarded += left
        self.table.clear()
        discarded = phrase(N_("the card left is discarded") if left == 1 else
                           N_("the {count} cards left are discarded"), count=left)
        return [event("stalemate", template, (), {}, count=count, left=discarded),
                *self._end_game(ENDINGS["stalemate"])]

    def _end_game(self, reason: str) -> list[Event]:
        self.phase = OVER
        self.end_reason = reason
        self.locked = None
        green, pink = self.piles[GREEN], self.piles[PINK]
        team = self.winning_team()
        if team is None:
            template = N_("The game is over: a draw, {cards}.")
            cards = phrase(N_("{count} card each") if green == 1 else N_("{count} cards each"), count=green)
        else:
            if reason == ENDINGS["team"]:
                template = N_("The game is over: green wins, as the whole pink team left ({cards}).") \
                    if team == GREEN else \
                    N_("The game is over: pink wins, as the whole green team left ({cards}).")
            else:
                template = N_("The game is over: green wins, {cards}.") if team == GREEN else \
                    N_("The game is over: pink wins, {cards}.")
            won, lost = (green, pink) if team == GREEN else (pink, green)
            cards = phrase(N_("{count} card to {other}") if won == 1 else N_("{count} cards to {other}"), count=won,
                           other=lost)
        outcome = self.outcome()
        return [event("game_end", template, outcome.winners if outcome else (), {"piles": dict(self.piles)},
                      green=green, pink=pink, cards=cards)]

    def _next_turn(self, seat: int, *, need_cards: bool) -> None:
        self.turns += 1
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            other = self.seats[candidate]
            if not other.resigned and (other.hand or not need_cards):
                self.turn = candidate
                break
        self.actions_left = self.per_turn

    def _position_key(self) -> str:
        cards = ";".join(f"{x},{y}{c.pattern}{c.kind}" for (x, y), c in sorted(self.table.items()))
        locked = cell_text(self.locked) if self.locked else "-"
        return f"{cards}|{locked}|{self.turn}|{self.actions_left}"

    def _resign(self, seat: int) -> list[Event]:
        me = self.seats[seat]
        me.resigned = True
        self.discarded += len(me.hand)
        me.hand = []
        events = [event("resign", N_("{player} leaves the game."), (seat,), {}, player=self.names[seat])]
        team = [s for s in self.seats if s.team == me.team and not s.resigned]
        if not team:
            return events + self._end_game(ENDINGS["team"])
        if self.phase == PLACEMENT and not any(s.hand for s in self.seats if not s.resigned):
            return events + self._enter_god(seat)
        if seat == self.turn:
            self._next_turn(seat, need_cards=self.phase == PLACEMENT)
        return events

    # ---- hidden information --------------------------------------------------------------------

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """Other hands' kinds dealt again among them (sizes kept): all a seat cannot see."""
        copy = self.clone()
        others = [s for i, s in enumerate(copy.seats) if i != seat]
        unseen = sorted(k for s in others for k in s.hand)
        rng.shuffle(unseen)
        for other in others:
            size = len(other.hand)
            other.hand, unseen = unseen[:size], unseen[size:]
        return copy

    # ---- views and persistence -----------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self._check_seat(seat)
        outcome = self.outcome()
        view: dict[str, Any] = {
            "game": self.name,
            "phase": self.phase,
            "turn": self.turn if self.phase != OVER else None,
            "actions_left": self.actions_left,
            "to_move": list(self.to_move()),
            "seats": [{"name": s.name, "team": s.team, "hand_size": len(s.hand), "resigned": s.resigned}
                      for s in self.seats],
            "table": position.table_entries(self),
            "locked": list(self.locked) if self.locked else None,
            "piles": dict(self.piles),
            "discarded": self.discarded,
            "quiet": self.quiet,
            "last": dict(self.last) if self.last else None,
            "scored": list(self.scored),
            "outcome": outcome.to_json() if outcome else None,
            "winner": self.winning_team(),
        }
        if seat is not None:
            view["seat"] = seat
            held = self.seats[seat].hand
            view["hand"] = {kind.upper(): held.count(kind) for kind in sorted(set(held))}
        return view

    def to_position(self) -> dict[str, Any]:
        return position.write(self)

    @classmethod
    def _read_position(cls, data: Mapping[str, Any], *, seed: int, options: GameOptions) -> Self:
        return position.read(cls, data, seed=seed, options=options)

    def clone(self) -> Self:
        copy = self._shallow_copy()
        copy.seats = [s.copy() for s in self.seats]
        copy.table = dict(self.table)
        copy.piles = dict(self.piles)
        copy.seen = Counter(self.seen)
        copy.last = dict(self.last) if self.last else None
        copy.scored = list(self.scored)
        return copy


def _group_of(cells: set[Cell]) -> dict[Cell, int]:
    """Each cell -> the number of its island (edge-joined group) among `cells`."""
    group: dict[Cell, int] = {}
    for start in cells:
        if start in group:
            continue
        number = len(group) and max(group.values()) + 1
        group[start] = number
        todo = [start]
        while todo:
            for other in neighbours(todo.pop()):
                if other in cells and other not in group:
                    group[other] = number
                    todo.append(other)
    return group
