"""The Tronix table in words states what a player needs: the open line ends by colour and the
empty cell each runs into, the circuits one card from closing and the patterns that close them,
the locked card of God Mode, and the teams' piles."""

from __future__ import annotations

import random
import re

from engine.tronix import Tronix
from renderers import describe
from tests.engine.test_tronix import SQUARE, T, at, god


def test_a_circuit_one_card_from_closing_names_the_cell_and_the_patterns_that_close_it():
    said = describe(at(SQUARE))
    assert ("Circuits one card from closing: a card at 1,1 closes one: SE (pink, 4 cards), NW (green, 4 cards)."
            in said)


def test_a_said_closing_card_closes_the_circuit():
    g = at(SQUARE)
    events = g.apply(0, "play 1,1 NW")
    assert any(e.kind == "circuit" for e in events), [e.kind for e in events]


def test_open_line_ends_are_said_by_colour_with_the_cell_they_run_into():
    said = describe(at(SQUARE))
    assert "3 cards: green at 1,0 into 1,1, green at 0,1 into 1,1" in said
    assert "1 card: pink at 0,0 into 0,-1, pink at 0,0 into -1,0" in said


def test_the_locked_card_of_god_mode_is_said():
    said = describe(god(T, locked=[1, 1]))
    assert "God Mode: each turn moves or turns a card on the table" in said
    assert "the locked card (moved last, may not move) is at 1,1" in said
    assert "Circuits one card from closing" not in said


def test_hands_are_counted_and_only_the_viewers_own_is_listed():
    g = at(SQUARE, hands=[3, 1, 2, 2])
    public = describe(g)
    assert "Your hand" not in public and "P1 green, 3 cards in hand; P2 green, 1 card in hand" in public
    assert "Your hand: CX ×3." in describe(g, 0)


def test_every_closing_card_said_in_a_played_game_closes_a_circuit_when_laid():
    checked = 0
    for seed in range(6):
        game = Tronix.new(4, seed=seed)
        rng = random.Random(seed)
        while game.phase == "placement":
            said = describe(game)
            seat = game.to_move()[0]
            for cell, ways in re.findall(r"a card at (-?[0-9]+,-?[0-9]+) closes one: ([^;.]*)", said):
                for pattern in re.findall(r"([NSEW]{2}) \(", ways):
                    trial = game.clone()
                    events = trial.apply(seat, f"play {cell} {pattern}")
                    assert any(e.kind == "circuit" for e in events), (cell, pattern, said)
                    checked += 1
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert checked >= 4
