"""The process's garbage-collection schedule: what survives a full collection is frozen, so the
collector's automatic passes skip the games kept in memory; what survives the collector's own
oldest-generation passes is frozen too; stopping thaws everything."""

from __future__ import annotations

import gc

from bot.workers.memory import CollectorMaintenance
from engine import GAMES


async def test_survivors_are_frozen_until_the_schedule_stops():
    kept = [GAMES["tronimoes"].new(4, seed=seed) for seed in range(20)]
    assert gc.get_freeze_count() == 0
    collector = CollectorMaintenance(every=3600)
    collector.start()
    try:
        assert gc.get_freeze_count() > len(kept)
        assert collector.collect() >= 0 and gc.get_freeze_count() > 0
    finally:
        await collector.stop()
    assert gc.get_freeze_count() == 0


async def test_what_survives_an_automatic_oldest_generation_pass_is_frozen():
    collector = CollectorMaintenance(every=3600)
    collector.start()
    try:
        before = gc.get_freeze_count()
        made_since = [GAMES["tronimoes"].new(2, seed=seed) for seed in range(5)]
        gc.collect(2)  # as the collector's own threshold would start it
        assert gc.get_freeze_count() > before + len(made_since)
    finally:
        await collector.stop()
    gc.collect(2)
    assert gc.get_freeze_count() == 0, "stopping the schedule stops the freezing"


def test_a_game_dropped_from_memory_leaves_no_cycle_for_the_collector():
    for name, cls in sorted(GAMES.items()):
        game = cls.new(max(2, cls.min_players), seed=1)
        for _ in range(12):
            if game.outcome() is not None:
                break
            seat = game.to_move()[0]
            game.apply(seat, game.legal_actions(seat)[-1])
        gc.collect()
        del game
        assert gc.collect() == 0, f"dropping a {name} game left reference cycles behind"
