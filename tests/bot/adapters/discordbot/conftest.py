"""A running tileref bot against the Discord stand-in: a real SQLite file, the real referee on a
manual clock (games seeded 7, 8, …), commands synced to the stand-in's guild."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.adapters.discordbot.harness import Harness, assert_described, running
from tests.standin import DiscordStandIn


@pytest.fixture
async def standin() -> AsyncIterator[DiscordStandIn]:
    async with DiscordStandIn() as s:
        yield s


@pytest.fixture
async def tileref(standin: DiscordStandIn, tmp_path: Path) -> AsyncIterator[Harness]:
    async with running(standin, tmp_path / "tileref.sqlite3") as harness:
        yield harness
    standin.assert_clean()
    assert_described(standin)

