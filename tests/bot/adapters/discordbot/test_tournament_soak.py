"""The tournament SIGKILL soak of bench/tournament_soak.py, lean: a round robin of four played to
its end through a few SIGKILLs of the real bot, on each database; nothing twice, nothing lost,
no round stuck. Marked `soak`: `pytest -m soak` runs it."""

from __future__ import annotations

import json
import os

import pytest

from bench.tournament_soak import soak_one
from tests.conftest import POSTGRES

pytestmark = pytest.mark.soak


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_a_tournament_through_sigkills_pairs_opens_and_announces_everything_once(kind, tmp_path):
    if kind == "postgresql" and not os.environ.get(POSTGRES):
        pytest.skip(f"set {POSTGRES}=postgresql://user@host:5432/db to run the PostgreSQL soak")
    figures = await soak_one(kind, players=4, kills=3, seed=1, folder=tmp_path / "soak")
    shown = json.dumps(figures)
    assert figures["status"] == "finished" and figures["rounds"] == figures["rounds_expected"], shown
    assert figures["stuck"] == figures["boards_doubled"] == figures["boards_without_table"] == 0, shown
    assert figures["duplicates"] == figures["lost"] == 0, shown
