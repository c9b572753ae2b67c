"""The SIGKILL soak of bench/outbox_soak.py, lean: each game on each database, a few process
lives of the real bot killed with SIGKILL (between Discord creating an announcement and the bot
confirming it, during runs of AI moves, at random), with AI seats, typed and `/move` moves,
rollbacks and resignations; every public announcement must then be in its thread exactly once.
And a check that the soak can see a duplicate at all.

Marked `soak` (minutes, not seconds): not run by default; `pytest -m soak` runs them (the
PostgreSQL ones when $TILEREF_TEST_POSTGRES is set). `bench/outbox_soak.py` runs the longer soak.
"""

from __future__ import annotations

import json
import os

import pytest

from bench.outbox_soak import SEATINGS, soak_one
from tests.conftest import POSTGRES

pytestmark = pytest.mark.soak


@pytest.fixture(params=["sqlite", "postgresql"])
def database_kind(request: pytest.FixtureRequest) -> str:
    if request.param == "postgresql" and not os.environ.get(POSTGRES):
        pytest.skip(f"set {POSTGRES}=postgresql://user@host:5432/db to run the PostgreSQL soak")
    return str(request.param)


@pytest.mark.parametrize("game", list(SEATINGS))
async def test_every_announcement_reaches_its_thread_exactly_once_through_sigkills(game, database_kind, tmp_path):
    figures, problems = await soak_one(game, database_kind, kills=4, actions_per_life=3, seed=1,
                                       folder=tmp_path / "soak", rollback_share=0.25)
    shown = "\n".join(json.dumps(p, ensure_ascii=False) for p in [figures, *problems])
    assert figures["kills"] == 4 and figures["announcements_expected"] > 0, shown
    assert figures["duplicates"] == figures["lost"] == figures["false_notes"] == figures["unsent_left"] == 0, shown


async def test_the_soak_counts_an_announcement_posted_again_once_discord_has_forgotten_its_nonce(tmp_path):
    """The stand-in forgets every nonce at once (as Discord does after a few minutes): a typed
    move's announcement created just before the kill is posted again by the next process, and
    the soak must count it."""
    figures, problems = await soak_one("tronimoes", "sqlite", kills=3, actions_per_life=2, seed=1,
                                       folder=tmp_path / "soak", forget_nonces=True, moments={"between": 1.0},
                                       typed_share=1.0)
    shown = "\n".join(json.dumps(p, ensure_ascii=False) for p in [figures, *problems])
    assert figures["kills_between_delivering_and_confirming"] >= 1, shown
    assert figures["duplicates"] >= 1, shown
    # each one a message posted again with a nonce Discord forgot (a run of AI moves' message too)
    assert all("nonce" in p["how"] for p in problems if p["problem"] == "duplicate"), shown
