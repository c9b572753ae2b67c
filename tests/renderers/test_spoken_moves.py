"""A player's legal moves in words (`renderers.spoken_moves`): every legal action is offered
exactly once, written so that typing what is read plays it, in English and at a Spanish table
(with the Spanish notation words), at every moment of seeded random games of every game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.core.i18n import speaking
from engine import GAMES
from engine.ai import heuristics
from engine.core import Game
from renderers import spoken_moves, typed_moves

MOMENTS = 25
"""Positions checked per game and seed: every few moves of a random game."""


PARSED = 40
"""Moves per position also typed through the game's own reader (Tronix's God Mode offers
thousands); every one is compared with the legal actions as written."""


def offered(game: Game, seat: int, language: str) -> Counter[str]:
    """The canonical actions the groups' words offer `seat`, each as often as it is written: each
    move read back to the canonical form, and an even spread of them typed to the game, which
    must play exactly that action."""
    lines = spoken_moves(game, seat, language)
    assert all(line.strip() for line in lines)
    typed = [move for line in lines for move in typed_moves(line)]
    for move in typed[::max(1, len(typed) // PARSED)]:
        assert game.parse(seat, move) == type(game).canonical(move, language), move
    return Counter(type(game).canonical(move, language) for move in typed)


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_legal_move_is_offered_once_in_words_the_player_can_type_back(name: str, language: str) -> None:
    cls = GAMES[name]
    players = min(cls.max_players, 4)
    checked = 0
    for seed in range(3):
        game = cls.new(players, seed=seed)
        rng = random.Random(seed)
        for step in range(600):
            if game.outcome() is not None:
                break
            if step % 5 == 0:
                with speaking(language):
                    for seat in game.to_move():
                        legal = game.legal_actions(seat)
                        assert offered(game, seat, language) == Counter(legal), f"seed {seed}, move {step}"
                        checked += 1
                if checked >= MOMENTS * (seed + 1):
                    break
            seat = rng.choice(game.to_move())
            game.apply(seat, rng.choice(heuristics(game).playing(game, seat)))
    assert checked >= MOMENTS


def test_a_seat_without_a_move_hears_no_groups() -> None:
    game = GAMES["tronimoes"].new(3, seed=1)
    waiting = next(seat for seat in range(3) if seat not in game.to_move())
    assert spoken_moves(game, waiting) == []


def test_tronimoes_lays_are_grouped_by_the_line_end_they_go_on() -> None:
    game = GAMES["tronimoes"].new(3, seed=3)
    rng = random.Random(1)
    for _ in range(40):
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(sorted(game.legal_actions(seat))))
    seat = game.to_move()[0]
    lines = spoken_moves(game, seat)
    assert lines[0].startswith("on your line, end a9, needs 3: 3:3 b9, then b8, c9, b10")
    assert lines[-1] == "other moves: draw"
    with speaking("es"):
        spanish = spoken_moves(game, seat, "es")
    assert spanish[0].startswith("en tu línea, extremo a9, pide 3: 3:3 b9, luego b8, c9, b10")
    assert spanish[-1] == "otras jugadas: robar"


def test_tronix_god_mode_says_each_cards_destinations_once_with_their_patterns() -> None:
    cls = GAMES["tronix"]
    game = cls.new(2, seed=3, options=cls.Options.parse({"deck_size": "12"}))
    rng = random.Random(1)
    while not any(a.startswith("move ") for a in game.legal_actions(game.to_move()[0])):
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(sorted(game.legal_actions(seat))))
    seat = game.to_move()[0]
    lines = spoken_moves(game, seat)
    moving = [line for line in lines if line.startswith("moving the card at ")]
    assert moving and all(", then " in line for line in moving) and any(" or " in line for line in moving)
    assert sum(map(len, lines)) < 4 * len(game.legal_actions(seat)), "far shorter than every move in full"
    assert offered(game, seat, "en") == Counter(game.legal_actions(seat))
    with speaking("es"):
        spanish = spoken_moves(game, seat, "es")
        assert any(" o " in line and "mover " in line for line in spanish)
        assert offered(game, seat, "es") == Counter(game.legal_actions(seat))
