"""What a spectator page may know: at every sampled moment of every game, the spectator's
position, players and board picture stay the same when everything hidden (hands, the draw pile)
is dealt differently, as `test_contract` checks views; chance entries never show their seed."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import renderers
from bot.core.records import ActionRecord, SeatRecord, TableRecord
from bot.media.spectator import Timeline, players, public_position
from engine import GAMES, Game
from engine.core import CHANCE
from tests.engine.test_contract import hide_secrets_shuffled, hooks, sample_states


def table_for(game: Game) -> TableRecord:
    return TableRecord(id=1, place="test:x", game=game.name, options={}, status="playing", created_by="test:a",
                       created_at=0.0, seed=game.seed, seats=[SeatRecord(i, n) for i, n in enumerate(game.names)],
                       meta={"players": game.players})


def secret_free(game: Game) -> dict[str, Any]:
    """Everything a spectator page shows of this moment, besides the log."""
    return {"position": public_position(game), "players": players(table_for(game), game),
            "to_move": game.to_move()}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_spectator_sees_the_same_whatever_is_hidden(name: str) -> None:
    cls = GAMES[name]
    rng = random.Random(1)
    shuffle = getattr(hooks(cls), "shuffle_hidden", hide_secrets_shuffled)
    for game in sample_states(cls, range(2), every=20)[:10]:
        position = game.to_position()
        original = cls.from_position(position)
        other = cls.from_position(shuffle(position, None, rng))
        assert secret_free(other) == secret_free(original), "the spectator's page changes with hidden tiles"
        assert renderers.render(other, None) == renderers.render(original, None)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_position_download_holds_no_hand_and_no_pile(name: str) -> None:
    cls = GAMES[name]
    for game in sample_states(cls, range(1), every=15)[:8]:
        shown = public_position(game)["position"]
        assert all("hand" not in seat for seat in shown.get("seats", []))
        assert not {"bag", "pool", "well", "queue", "deck"} & set(shown)
        hidden = {tile for seat in game.to_position().get("seats", []) for tile in seat.get("hand", [])
                  if isinstance(tile, str) and len(tile) >= 3}
        public = json.dumps(game.view(None))
        leaked = {tile for tile in hidden if f'"{tile}"' in json.dumps(shown) and f'"{tile}"' not in public}
        assert not leaked, f"the downloaded position shows tiles in hand: {leaked}"


def test_a_chance_entry_is_shown_without_its_seed() -> None:
    cls = GAMES["tronimoes"]
    game = cls.new(2, seed=5)
    table = table_for(game)
    game.reshuffle(987654321)
    actions = [ActionRecord(1, -1, f"{CHANCE} 987654321", "mod:test:m", 0.0)]
    timeline = Timeline(table, actions)
    entry = timeline.entries[0]
    assert entry.action == ""
    assert "987654321" not in " ".join(entry.events)
    assert "shuffled" in " ".join(entry.events)
