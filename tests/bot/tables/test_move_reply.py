"""The buttons a move's message carries."""

from __future__ import annotations

from bot.core.records import FINISHED, PLAYING, SeatRecord, TableRecord
from bot.tables.move_reply import controls
from engine import GAMES
from engine.ai import RandomAgent


def _table(game: str, players: int) -> TableRecord:
    seats = [SeatRecord(seat=s, name=f"p{s}", user_id=f"u{s}") for s in range(players)]
    return TableRecord(id=1, place="test:1", game=game, options={}, status=PLAYING, created_by="u0",
                       created_at=0.0, seats=seats)


def test_the_ready_button_shows_exactly_when_a_player_waited_for_can_say_ready():
    table = _table("tronimoes", 3)
    game = GAMES["tronimoes"].new(3, seed=7)
    agent = RandomAgent()
    breaks = 0
    for _ in range(3000):
        if game.outcome() is not None:
            break
        can_say_ready = any("ready" in game.legal_actions(seat) for seat in game.to_move())
        assert ("ready" in controls(table, game)) == can_say_ready
        breaks += can_say_ready
        seat = game.to_move()[0]
        game.apply(seat, agent.choose(game, seat))
    assert breaks, "the game never reached a round break"
    table.status = FINISHED
    assert controls(table, game) == ["rematch"]
