"""The planning pool: a worker process plans on the seat's view only (everything the seat cannot
see dealt again), the same position hands over the same view, and its choice is the one the
agent makes on the real game: an AI move is reproducible from the table's seed and log."""

from __future__ import annotations

import asyncio
import os
import pickle
import random

import pytest

from bot.core import metrics
from bot.workers.planning import PROCESSES_SETTING, PlanningPool, default_processes, handover, processes_from
from engine import GAMES
from engine.ai import GreedyAgent, RandomAgent


def played(name: str, players: int, seed: int, moves: int):
    """A game of `name` after `moves` random legal moves."""
    game = GAMES[name].new(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.outcome() is not None:
            break
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def test_the_handover_shows_the_seat_its_own_hand_and_nobody_elses():
    game = played("tronimoes", 3, 11, 4)
    seat = game.to_move()[0]
    copy = pickle.loads(handover(game, seat))
    assert copy.view(seat) == game.view(seat) and copy.view(None) == game.view(None)
    others = [s for s in range(3) if s != seat]
    assert [sorted(copy.seats[s].hand) for s in others] != [sorted(game.seats[s].hand) for s in others]
    assert handover(game, seat) == handover(game.clone(), seat)  # the same position, the same view


@pytest.mark.parametrize("name,players", [("tronimoes", 3), ("tromino_go", 2), ("triominoes", 3), ("tronix", 4),
                                          ("tetromic", 2)])
async def test_a_worker_process_chooses_what_the_agent_chooses_on_the_real_game(name, players):
    pool = PlanningPool(1)
    try:
        for moves in (0, 7):
            game = played(name, players, 5 + moves, moves)
            if game.outcome() is not None:
                continue
            seat = game.to_move()[0]
            assert await pool.plan(game, seat, "greedy", 0.0) == GreedyAgent().choose(game, seat)
            assert await pool.plan(game, seat, "random", 0.0) == RandomAgent().choose(game, seat)
    finally:
        pool.close()


async def test_planning_time_is_measured():
    before = metrics.REGISTRY.get_sample_value("tileref_ai_planning_seconds_count") or 0.0
    pool = PlanningPool(1)
    try:
        game = played("tronimoes", 2, 5, 0)
        await pool.plan(game, game.to_move()[0], "greedy", 0.0)
    finally:
        pool.close()
    assert metrics.REGISTRY.get_sample_value("tileref_ai_planning_seconds_count") == before + 1


async def test_planning_runs_in_another_process():
    pool = PlanningPool(1)
    try:
        worker = await asyncio.get_running_loop().run_in_executor(pool._pool(), os.getpid)
    finally:
        pool.close()
    assert worker != os.getpid()


def test_the_pool_size_comes_from_the_setting_with_a_sensible_default():
    assert processes_from(None) == processes_from("  ") == default_processes() >= 1
    assert processes_from("3") == 3
    for bad in ("0", "many", "65"):
        with pytest.raises(ValueError, match=f"{PROCESSES_SETTING} is how many processes plan AI moves"):
            processes_from(bad)
