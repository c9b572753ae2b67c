"""Triominoes (Pressman Tri-Ominos, shared/rules/triominoes.md): 2 to 6 players lay triangular
tiles whose touching corners match, scoring the tile's numbers plus hexagons and bridges, paying
for draws and passes; a round ends when someone goes out or nobody can play, and the game after
the round in which someone reaches 400."""

from __future__ import annotations

import random
from collections.abc import Mapping
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
    any_of,
    copied_random,
    event,
    join_names,
    phrase,
    refuse,
    refused,
    register,
)
from engine.digits import ASCII_DIGITS, foreign_digit, whole_number
from engine.triominoes import notation, position, rounds
from engine.triominoes.board import Board, Pattern, tiles_fitting
from engine.triominoes.geometry import Cell, cell_name, read_cell
from engine.triominoes.notation import Place, Word
from engine.triominoes.options import TriominoesOptions
from engine.triominoes.position_help import FORMAT as POSITION_HELP
from engine.triominoes.refusals import why_not
from engine.triominoes.rounds import OVER, PLAYING
from engine.triominoes.scoring import bonus_words, points_for
from engine.triominoes.state import Seat
from engine.triominoes.tiles import TILES, Corners, Tile, name, rotations, tile_of, tile_with_numbers, value

SUMMARY = N_("""\
**Triominoes** (Pressman Tri-Ominos) — lay triangles whose corners match, score their numbers.
• Each player gets 9 tiles (2 players), 7 (3–4) or 6 (5–6); the rest is the well. The highest triple
opens for its sum + 10 (0-0-0: 40); its holder may open with 0-0-0 instead. With no triple out,
the highest tile opens, for its face value.
• A tile must share at least one full edge with the table, and every corner it touches, even at a
point, must carry the same number. Tiles turn but never flip. You score the tile's three numbers.
• Closing a hexagon (six tiles around a point) scores 50; a bridge (a side and the opposite point
matching, with both cells beside that point empty) scores 40.
• If nothing fits, draw (−5 a tile, at most 3); a drawn tile that fits must be played. If none of
the three fits, pass for −10 more; with the well empty, pass for −10.
• Going out scores 25 plus everyone else's tiles. If nobody can play, the lowest hand wins the
others' points minus its own. After the round in which someone reaches 400, the highest total wins.""")

NOTATION_HELP = N_("""\
• `1-2-2 r1c0`: a tile (its numbers in any order) and a cell from the picture's edges (row 1,
column 0). Or the number of a spot on the picture: `122 at 7`. The referee turns the tile for you
and asks when two ways fit.
• `draw` and `pass` are made for you when they are all you can do; with `allow_voluntary_draw=on`
you always draw yourself. When your time runs out, the referee plays your best-scoring tile for you
(or draws, or passes); with voluntary draws it draws first.""")


@register
class Triominoes(Game):
    name = "triominoes"
    title = "Triominoes"
    min_players = 2
    max_players = 6
    Options = TriominoesOptions
    summary = SUMMARY
    notation_help = NOTATION_HELP
    position_help = POSITION_HELP
    verbs = frozenset({"draw", "pass", "at", "play", "on", "robar", "pasar", "en", "poner"})
    notation_words: ClassVar[Mapping[str, Mapping[str, str]]] = {"es": notation.SPANISH}
    piece_noun: ClassVar[PieceNoun] = PieceNoun(NP_("{count} tile", "{count} tiles"), N_("the unseen tiles"))
    command_moves: ClassVar[Mapping[str, str]] = {"draw": "draw", "pass": "pass"}
    command_help: ClassVar[Mapping[str, str]] = {
        "skip": N_("Triominoes has no skip: when nothing fits you draw (up to 3 tiles), then pass. The referee does "
                   "both for you, unless this table lets you draw when you choose: then type `draw`.")}
    example_moves = ("1-2-2 r1c0", "122 at 7")
    options: TriominoesOptions

    def __init__(self, players: int, seed: int, options: GameOptions, names: list[str]) -> None:
        super().__init__(players, seed, options, names)
        self.seats = [Seat(n) for n in names]
        self.board = Board()
        self.well: list[Tile] = []
        self.turn = 0
        self.turns = 0
        self.round = 0
        self.passes = 0
        self.phase = PLAYING
        self.pending: rounds.Opening | None = None
        """The round's opening while the board is empty: who lays which tiles."""
        self.round_winners: list[int] = []
        self.end_reason = ""
        self.last: dict[str, Any] | None = None
        self.previous: dict[str, Any] | None = None
        """The last finished round's board and result, for the picture after it ends."""
        self.stuck: dict[int, list[tuple[Cell, Pattern]]] = {}
        """For each seat, the open cells and what they asked (`Board.open_patterns`, a list the
        board replaces and never changes, so it is kept as it is) the last time this round it had
        nothing to lay (its first draw of a turn, or a pass without drawing): public knowledge
        that its hand then held no tile fitting them, nor does now, as it has drawn nothing since
        but tiles that did not fit either (under the standard draw rules)."""
        self._deck = self.random("deck")

    def setup(self) -> list[Event]:
        return self._start_round()

    # ---- reading -------------------------------------------------------------------------------

    def active(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.resigned]

    def to_move(self) -> tuple[int, ...]:
        return (self.turn,) if self.phase == PLAYING else ()

    def turn_count(self) -> int:
        return self.turns

    def scores(self) -> tuple[float, ...]:
        return tuple(float(s.score) for s in self.seats)

    def is_resigned(self, seat: int) -> bool:
        return self.seats[seat].resigned

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        return Outcome(self.scores(), tuple(self._game_winners()), self.end_reason)

    def _game_winners(self) -> list[int]:
        candidates = self.active()
        if not candidates:
            return []
        if self.options.winner == "first_to_target":
            reached = [s for s in candidates if self.seats[s].score >= self.options.target]
            if len(reached) == 1:
                return reached
            if reached:
                by_round = [s for s in reached if s in self.round_winners]
                candidates = by_round or reached
        best = max(self.seats[s].score for s in candidates)
        return [s for s in candidates if self.seats[s].score == best]

    def legal_actions(self, seat: int) -> list[str]:
        self._check_seat(seat)
        if self.phase != PLAYING or seat != self.turn:
            return []
        actions = [notation.write_place(turned, cell) for cell, turned in self._placements(seat)]
        if self.pending is not None:
            return actions
        if self._may_draw(seat):
            actions.append("draw")
        if not actions:
            actions.append("pass")
        return actions

    def rank_suggestions(self, seat: int, actions: list[str]) -> list[str]:
        """Placements scoring most first; draw and pass last."""
        worth = {a: self._placement_points(a) for a in actions}
        return sorted(actions, key=lambda a: -worth[a])

    def describe_action(self, seat: int, action: str) -> str:
        """A placement shows the tile as it is in the hand, then the corners it is turned to:
        `0-0-1 → 0-1-0 r0c1` (typed as shown, it plays that action)."""
        if action in ("draw", "pass"):
            return action
        numbers, _ = _placement(action)
        held = tile_of(numbers)
        return action if held == numbers else f"{name(held)} → {action}"

    def suggestion_match(self, action: str, typed: str) -> int | None:
        """Also a tile's numbers typed in any order (`221`, `1-2`), then a cell's beginning
        (`r1`) or a spot's number (`at 3`)."""
        plain = super().suggestion_match(action, typed)
        if plain is not None or action in ("draw", "pass") or foreign_digit(typed) is not None:
            return plain
        words = [w for w in typed.lower().replace("#", " ").split() if w not in notation.FILLER]
        numbers, cell = _placement(action)
        if words:
            digits = [int(ch) for ch in words[0] if ch in ASCII_DIGITS]
            if not digits or any(digits.count(d) > numbers.count(d) for d in set(digits)):
                return None
        if len(words) > 1:
            where = "".join(words[1:])
            spots = self.spots()
            spot = whole_number(where)
            if spot is not None:
                return 1 if cell in spots and spots.index(cell) + 1 == spot else None
            return 1 if cell_name(cell).startswith(where) else None
        return 1

    def _placement_points(self, action: str) -> int:
        """What a placement would score now; -1000 for draw and pass."""
        if action in ("draw", "pass"):
            return -1_000
        numbers, cell = _placement(action)
        return points_for(self, numbers, cell)[0]

    def forced_action(self, seat: int) -> str | None:
        """A draw when nothing fits, a pass when nothing fits and no draw is left: the rules leave
        no choice, so the referee makes them. Never a placement, even the only one (the opening
        included): laying it for the player would tell the table that none of their other tiles fits.
        Nor a draw the rules let a player choose even with a tile that fits (`_draws_freely`): the
        player's own such draw says nothing of their hand, and one made for them would say that
        nothing fits, so the player makes it."""
        actions = self.legal_actions(seat)
        if actions == ["draw"] and self._draws_freely(seat):
            return None
        return actions[0] if actions in (["draw"], ["pass"]) else None

    def timeout_actions(self, seat: int) -> list[str]:
        """A missed turn is played for the player: the placement scoring most, or else a draw,
        or else a pass (the rules allow no other choice then). Where the rules let a player draw
        even with a tile that fits, the referee draws while it may, so its draw, like the player's
        own, says nothing of the hand. After a draw the turn, with a fresh deadline, is still theirs."""
        self._check_seat(seat)
        if self.phase != PLAYING or seat != self.turn:
            return []
        actions = self.legal_actions(seat)
        if "draw" in actions and self._draws_freely(seat):
            return ["draw"]
        return self.rank_suggestions(seat, actions)[:1]

    # ---- what fits ---------------------------------------------------------------------------

    def _placements(self, seat: int) -> list[tuple[Cell, Corners]]:
        """Where the seat may lay what now: the opening tiles at the origin, a drawn tile that
        must be played, or any tile of the hand that fits."""
        me = self.seats[seat]
        if self.pending is not None:
            return [(cell, turned) for tile in self.pending.tiles
                    for cell, turned in self.board.placements(tile)]
        drawn_tile = me.hand[-1] if me.drawn and self.options.must_play_drawn else None
        if drawn_tile is not None:
            found = self.board.placements(drawn_tile)
            if found:
                return found
        return self.board.placements_of(me.hand)

    def _may_draw(self, seat: int) -> bool:
        me = self.seats[seat]
        if self.pending is not None or not self.well:
            return False
        if self.options.max_draws and me.drawn >= self.options.max_draws:
            return False
        if me.drawn and self.options.must_play_drawn and self.board.fits_anywhere(me.hand[-1]):
            return False
        return self._draws_freely(seat) or not self._placements(seat)

    def _draws_freely(self, seat: int) -> bool:
        """Whether the rules let the seat draw now even if a tile of theirs fits (voluntary draws;
        or, having started to draw, when a drawn tile need not be played): a draw then tells the
        table nothing about the hand."""
        if self.options.allow_voluntary_draw:
            return True
        return bool(self.seats[seat].drawn) and not self.options.must_play_drawn

    def spots(self) -> list[Cell]:
        """The numbered spots of the board picture (public: from the table alone)."""
        return self.board.spots()

    # ---- reading a move ------------------------------------------------------------------------

    def parse(self, seat: int, text: str) -> str:
        self._check_seat(seat)
        if self.phase != PLAYING:
            raise refuse(IllegalMove, N_("the game is over"))
        request = notation.read(text)
        if seat != self.turn:
            raise refuse(NotYourTurn, N_("it is {player}'s turn"), player=self.names[self.turn])
        legal = self.legal_actions(seat)
        if isinstance(request, Word):
            if request.word not in legal:
                raise refused(IllegalMove, self._word_refusal(seat, request.word))
            return request.word
        return self._read_place(seat, request, legal)

    def _word_refusal(self, seat: int, word: str) -> Term:
        me = self.seats[seat]
        if self.pending is not None:
            return phrase(N_("the round opens first: lay {tiles} at r0c0"),
                          tiles=any_of([name(t) for t in self.pending.tiles]))
        if word == "draw":
            if not self.well:
                return phrase(N_("the well is empty: you cannot draw (type `pass` if nothing fits)"))
            if self.options.max_draws and me.drawn >= self.options.max_draws:
                return phrase(N_("you have drawn {count} tiles this turn, the most you may") if me.drawn != 1
                              else N_("you have drawn {count} tile this turn, the most you may"), count=me.drawn)
            if me.drawn and self.options.must_play_drawn and self.board.fits_anywhere(me.hand[-1]):
                return phrase(N_("the tile you drew, {tile}, fits: you must play it"), tile=name(me.hand[-1]))
            return phrase(N_("a tile of yours fits, so you may not draw: play it (the suggestions show where)"))
        if self._may_draw(seat):
            return phrase(N_("you may not pass while you can draw: type `draw`"))
        return phrase(N_("a tile of yours fits, so you may not pass: play it (the suggestions show where)"))

    def _read_place(self, seat: int, request: Place, legal: list[str]) -> str:
        tile = tile_with_numbers(request.numbers)
        shown = name(request.numbers)
        if tile is None:
            raise refuse(IllegalMove, N_("{tile} is not a tile: the numbers go from 0 to 5"), tile=shown)
        cell = request.cell
        if cell is None:
            spots = self.spots()
            if not 1 <= (request.spot or 0) <= len(spots):
                template = (N_("there is no spot {spot} on the board: the picture numbers only spot 1")
                            if len(spots) == 1 else
                            N_("there is no spot {spot} on the board: the picture numbers spots 1 to {count}"))
                raise refuse(IllegalMove, template, spot=request.spot, count=len(spots))
            cell = spots[(request.spot or 1) - 1]
        me = self.seats[seat]
        if tile not in me.hand:
            raise refuse(IllegalMove, N_("you do not hold {tile}"), tile=name(tile))
        fitting = [notation.write_place(t, cell) for t in rotations(tile)]
        fitting = [a for a in fitting if a in legal]
        if len(fitting) == 1:
            return fitting[0]
        if len(fitting) > 1:
            exact = notation.write_place(request.numbers, cell)
            if request.exact and exact in fitting:
                return exact
            template = N_("{tile} fits {cell} turned {count} ways: type one of {moves}")
            told = {"tile": name(tile), "cell": cell_name(cell), "count": len(fitting),
                    "moves": ", ".join(f"`{a}`" for a in fitting)}
            raise AmbiguousMove(template.format(**told), fitting, template=template, args=told)
        raise refused(IllegalMove, why_not(self, seat, tile, cell))

    # ---- acting ----------------------------------------------------------------------------------

    def _execute(self, seat: int, action: str) -> list[Event]:
        if action == "draw":
            return self._draw(seat)
        if action == "pass":
            return self._pass(seat)
        return self._lay(seat, *_placement(action))

    def scored_placements(self, seat: int) -> list[tuple[int, str]]:
        """Each placement legal for `seat` now with what it would score (empty when the seat may
        only draw or pass), in the order of `legal_actions`."""
        if self.phase != PLAYING or seat != self.turn:
            return []
        return [(points_for(self, turned, cell)[0], notation.write_place(turned, cell))
                for cell, turned in self._placements(seat)]

    def _lay(self, seat: int, numbers: Corners, cell: Cell) -> list[Event]:
        me = self.seats[seat]
        tile = tile_of(numbers)
        points, bonus = points_for(self, numbers, cell)
        words = bonus_words(self, tile, points, bonus)
        opening = self.pending
        self.board.place(cell, numbers, seat)
        me.hand.remove(tile)
        me.score += points
        self.pending = None
        self.passes = 0
        where = cell_name(cell)
        one = points == 1
        if opening is not None and opening.shown and tile != opening.shown:
            template = N_("{player} opens round {round} with {tile} (showing {shown}) for {points} point.") if one \
                else N_("{player} opens round {round} with {tile} (showing {shown}) for {points} points.")
        elif opening is not None:
            template = N_("{player} opens round {round} with {tile} for {points} point.") if one else \
                N_("{player} opens round {round} with {tile} for {points} points.")
        elif words:
            template = N_("{player} lays {tile} at {cell}, making {bonus}: {points} points.")
        else:
            template = N_("{player} lays {tile} at {cell} for {points} point.") if one else \
                N_("{player} lays {tile} at {cell} for {points} points.")
        told: dict[str, Any] = {"player": self.names[seat], "round": self.round, "tile": name(tile), "cell": where,
                                "points": points, "bonus": words,
                                "shown": name(opening.shown) if opening is not None and opening.shown else ""}
        data: dict[str, Any] = {"cell": where, "tile": name(tile), "points": points,
                                "hexagons": [list(p) for p in bonus.hexagons],
                                "bridge": list(bonus.bridge) if bonus.bridge else None}
        if bonus.hexagons:
            data["reaction"] = "amazing"
        elif bonus.bridge:
            data["reaction"] = "nice"
        self.last = {"seat": seat, "kind": "lay", "cell": where, "points": points, **data}
        events = [event("lay", template, (seat,), data, **told)]
        if not me.hand:
            return events + self._went_out(seat)
        if self.options.blocked_when == "exact" and self.nothing_fits():
            return events + self._blocked()
        self._advance()
        return events

    def _draw(self, seat: int) -> list[Event]:
        me = self.seats[seat]
        if not me.drawn and self.options.must_play_drawn and not self.options.allow_voluntary_draw:
            self.stuck[seat] = self.board.open_patterns()
        tile = self.well.pop(0)
        me.hand.append(tile)
        me.drawn += 1
        me.score -= self.options.draw_penalty
        self.last = {"seat": seat, "kind": "draw"}
        left = len(self.well)
        template = (N_("{player} draws a tile for −{penalty} (draw {count} of {most}); {left} left in the well.")
                    if self.options.max_draws else N_("{player} draws a tile for −{penalty}; {left} left in the well."))
        return [event("draw", template, (seat,), {"well": left, "drawn": me.drawn}, player=self.names[seat],
                      penalty=self.options.draw_penalty, count=me.drawn, most=self.options.max_draws, left=left),
                event("drew", N_("You drew {tile}."), (seat,), {"tile": name(tile)}, to=seat, tile=name(tile))]

    def _pass(self, seat: int) -> list[Event]:
        me = self.seats[seat]
        if not me.drawn:
            self.stuck[seat] = self.board.open_patterns()
        empty = not self.well and not (self.options.max_draws and me.drawn >= self.options.max_draws)
        penalty = self.options.empty_well_penalty if empty else self.options.pass_penalty
        me.score -= penalty
        # A round is blocked when everyone passes in a row with the well empty.
        self.passes = self.passes + 1 if not self.well else 0
        if empty:
            template = N_("{player} passes with the well empty: −{penalty}.")
        elif me.drawn == 1:
            template = N_("{player} passes: the {count} tile drawn does not fit, −{penalty} more.")
        else:
            template = N_("{player} passes: none of the {count} tiles drawn fits, −{penalty} more.")
        self.last = {"seat": seat, "kind": "pass"}
        events = [event("pass", template, (seat,), {"penalty": penalty}, player=self.names[seat], count=me.drawn,
                        penalty=penalty)]
        if self.passes >= len(self.active()) or (self.options.blocked_when == "exact" and self.nothing_fits()):
            return events + self._blocked()
        self._advance()
        return events

    def _advance(self) -> None:
        self.seats[self.turn].drawn = 0
        self.turns += 1
        self.turn = self._next_seat(self.turn)

    def _next_seat(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if not self.seats[candidate].resigned:
                return candidate
        return seat

    def nothing_fits(self) -> bool:
        """No tile in any hand or in the well fits anywhere (a true block)."""
        loose = {t for i in self.active() for t in self.seats[i].hand} | set(self.well)
        return not any(self.board.fits_anywhere(t) for t in loose)

    # ---- rounds ----------------------------------------------------------------------------------

    def _hands(self) -> dict[int, list[Tile]]:
        return {i: self.seats[i].hand for i in self.active()}

    def _went_out(self, seat: int) -> list[Event]:
        others = sum(value(t) for i in self.active() if i != seat for t in self.seats[i].hand)
        points = rounds.GOING_OUT_BONUS + others
        self.seats[seat].score += points
        text = phrase(N_("{player} goes out and wins round {round}: 25 + {others} left in the other hands = "
                         "{points} points."), player=self.names[seat], round=self.round, others=others, points=points)
        return self._end_round([seat], text, {"out": seat, "points": points})

    def _blocked(self) -> list[Event]:
        hands = self._hands()
        winners = rounds.blocked_winners(hands, self.options.blocked_winner)
        paid = {w: rounds.blocked_payout(hands, w, self.options.blocked_payout) for w in winners}
        for winner, points in paid.items():
            self.seats[winner].score += points
        who = join_names([f"{self.names[w]} ({'+' if p >= 0 else ''}{p})" for w, p in paid.items()])
        if self.options.blocked_winner == "lowest_total":
            template = (N_("Round {round} is blocked: no tile in any hand or the well fits. The lowest hand wins it: "
                           "{players}.") if self.well else
                        N_("Round {round} is blocked: nobody can play and the well is empty. The lowest hand wins it: "
                           "{players}."))
        else:
            template = (N_("Round {round} is blocked: no tile in any hand or the well fits. The fewest tiles win it: "
                           "{players}.") if self.well else
                        N_("Round {round} is blocked: nobody can play and the well is empty. The fewest tiles win it: "
                           "{players}."))
        text = phrase(template, round=self.round, players=who)
        return self._end_round(winners, text, {"blocked": True, "paid": {str(w): p for w, p in paid.items()}})

    def _end_round(self, winners: list[int], text: Term, data: dict[str, Any]) -> list[Event]:
        self.round_winners = winners
        totals = ", ".join(f"{self.names[i]} {self.seats[i].score}" for i in self.active())
        hands = {self.names[i]: [name(t) for t in self.seats[i].hand] for i in self.active()}
        self.previous = {"round": self.round, "board": position.board_entries(self), "text": text,
                         "winners": winners}
        events = [event("round_end", N_("{result} Totals: {totals}."), tuple(winners),
                        {**data, "round": self.round, "hands": hands, "scores": list(self.scores()),
                         "reaction": "celebrate"}, result=text, totals=totals)]
        self.seats[self.turn].drawn = 0
        finished = self.options.rounds and self.round >= self.options.rounds
        reached = any(self.seats[i].score >= self.options.target for i in self.active())
        if finished or (reached and not self.options.rounds):
            return events + self._end_game(phrase(N_("the last round is played")) if finished
                                           else phrase(N_("someone reached {count} points"), count=self.options.target))
        return events + self._start_round()

    def _end_game(self, reason: Term) -> list[Event]:
        self.phase = OVER
        self.end_reason = reason
        self.pending = None
        winners = self._game_winners()
        if not winners:
            template = N_("The game is over ({reason}): nobody wins.")
        elif len(winners) == 1:
            template = N_("The game is over ({reason}): {players} wins with {points} points.")
        else:
            template = N_("The game is over ({reason}): {players} win with {points} points.")
        return [event("game_end", template, tuple(winners), {"winners": winners, "scores": list(self.scores())},
                      reason=reason, players=join_names([self.names[w] for w in winners]),
                      points=self.seats[winners[0]].score if winners else 0)]

    def _start_round(self) -> list[Event]:
        self.round += 1
        self.turns += 1
        self.board = Board()
        self.passes = 0
        self.last = None
        self.stuck = {}
        deck = list(TILES)
        self._deck.shuffle(deck)
        seats = self.active()
        size = rounds.hand_size(len(seats))
        for index, seat in enumerate(seats):
            self.seats[seat].hand = deck[index * size:(index + 1) * size]
            self.seats[seat].drawn = 0
        self.well = deck[len(seats) * size:]
        self.pending = self._opening()
        self.turn = self.pending.seat
        opener = self.names[self.turn]
        if len(self.pending.tiles) <= 2:
            template = N_("Round {round}: {player} {reason} and opens with {tiles}.")
        else:
            template = N_("Round {round}: {player} {reason}, with any tile.")
        return [event("round_start", template, (self.turn,), {"round": self.round, "opener": self.turn},
                      round=self.round, player=opener, reason=self.pending.reason,
                      tiles=any_of([name(t) for t in self.pending.tiles]))]

    def _opening(self) -> rounds.Opening:
        seats = self.active()
        dealer = (self.round - 1) % self.players
        order = sorted(seats, key=lambda s: (s - dealer - 1) % self.players)
        rule = self.options.opening
        if rule == "pressman" or (self.round == 1 and rule == "winner"):
            return rounds.find_opening(self._hands(), order)
        if rule == "winner" and self.round_winners and self.round_winners[0] in seats:
            seat = self.round_winners[0]
        else:
            seat = self.random(f"opener:{self.round}").choice(order)
        return rounds.Opening(seat, tuple(sorted(set(self.seats[seat].hand))), Term(N_("opens the round")))

    def _resign(self, seat: int) -> list[Event]:
        me = self.seats[seat]
        me.resigned = True
        me.hand = []
        me.drawn = 0
        events = [event("resign", N_("{player} leaves the game."), (seat,), player=self.names[seat])]
        if len(self.active()) < 2:
            return events + self._end_game(phrase(N_("everyone else left")))
        if self.pending is not None:
            self.pending = self._opening()
            self.turn = self.pending.seat
            self.turns += 1
        elif seat == self.turn:
            self.turns += 1
            self.turn = self._next_seat(seat)
        if self.passes >= len(self.active()):
            events += self._blocked()
        return events

    # ---- hidden information ------------------------------------------------------------------

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """Other hands and the well dealt again from the tiles `seat` cannot see (sizes kept),
        a hand known to hold nothing that fitted when its player last had to draw (`stuck`)
        dealt only tiles that did not, as far as the unseen tiles allow."""
        copy = self.clone()
        others = [i for i, s in enumerate(copy.seats) if i != seat and not s.resigned]
        unseen = sorted([t for i in others for t in copy.seats[i].hand] + copy.well)
        rng.shuffle(unseen)
        for other in sorted(others, key=lambda i: i not in self.stuck):
            hand = copy.seats[other].hand
            lacked = self.stuck.get(other, [])
            ruled_out = tiles_fitting(pattern for _, pattern in lacked)
            dealt = [t for t in unseen if t not in ruled_out][:len(hand)]
            dealt += [t for t in unseen if t in ruled_out][:len(hand) - len(dealt)]
            chosen = set(dealt)
            copy.seats[other].hand = dealt
            unseen = [t for t in unseen if t not in chosen]
        copy.well = unseen
        copy._deck = random.Random(rng.getrandbits(64))
        return copy

    def _reshuffle(self, rng: random.Random) -> None:
        rng.shuffle(self.well)
        self._deck = random.Random(rng.getrandbits(64))

    # ---- views and persistence -------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self._check_seat(seat)
        outcome = self.outcome()
        view: dict[str, Any] = {
            "game": self.name,
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn if self.phase == PLAYING else None,
            "to_move": list(self.to_move()),
            "seats": [{"name": s.name, "score": s.score, "hand_size": len(s.hand), "drawn": s.drawn,
                       "resigned": s.resigned} for s in self.seats],
            "well_size": len(self.well),
            "board": position.board_entries(self),
            "spots": [cell_name(c) for c in self.spots()],
            "opening": [name(t) for t in self.pending.tiles] if self.pending and len(self.pending.tiles) <= 2
            else None,
            "passes": self.passes,
            "last": dict(self.last) if self.last else None,
            "previous": self.previous,
            "outcome": outcome.to_json() if outcome else None,
        }
        if seat is not None:
            me = self.seats[seat]
            playable = {tile_of(turned) for _, turned in self._placements(seat)} if seat in self.to_move() else set()
            view["seat"] = seat
            view["hand"] = [name(t) for t in me.hand]
            view["playable"] = [name(t) for t in me.hand if t in playable]
        return view

    def to_position(self) -> dict[str, Any]:
        return position.write(self)

    @classmethod
    def _read_position(cls, data: Mapping[str, Any], *, seed: int, options: GameOptions) -> Self:
        return position.read(cls, data, seed=seed, options=options)

    def clone(self) -> Self:
        """A fast independent copy (the deck's random state included)."""
        copy = self._shallow_copy()
        copy.seats = [s.copy() for s in self.seats]
        copy.board = self.board.copy()
        copy.well = list(self.well)
        copy.round_winners = list(self.round_winners)
        copy.stuck = dict(self.stuck)
        copy.last = dict(self.last) if self.last else None
        copy._deck = copied_random(self._deck)
        return copy


def _placement(action: str) -> tuple[Corners, Cell]:
    """A canonical placement (`2-1-2 r1c0`) as its corner numbers and cell."""
    numbers_text, cell_text = action.split()
    a, b, c = (int(n) for n in numbers_text.split("-"))
    cell = read_cell(cell_text)
    assert cell is not None, action
    return (a, b, c), cell
