"""A referee on a real SQLite file (or PostgreSQL) with its web server on a free port of
127.0.0.1, and helpers to play a table forward through the referee."""

from __future__ import annotations

import asyncio
import random
import re
import shutil
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.web.server import WebServer
from bot.core.clock import ManualClock
from bot.core.records import User
from bot.service.referee import Referee
from engine import GAMES
from tests.bot.referees import running_referee

PLACE = "test:web"
ARTEFACTS = Path(__file__).resolve().parents[4] / "tmp" / "artefacts"
"""Where the browser tests keep their screenshots (the repository's tmp/artefacts)."""
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


async def until(page: Any, script: str, seconds: float = 5.0) -> None:
    """Wait until `script` (an expression, functions allowed: the page's policy forbids the
    `eval` that `wait_for_function` needs) is true in the page."""
    for _ in range(int(seconds / 0.05)):
        if await page.evaluate(script):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"still false after {seconds} s: {script}")


@pytest.fixture
async def browser() -> AsyncIterator[object]:
    """Debian's Chromium, driven by Playwright (the test is skipped without either)."""
    playwright_api = pytest.importorskip("playwright.async_api")
    if not shutil.which(CHROMIUM):
        pytest.skip("Chromium is not installed (apt-get install -y chromium)")
    async with playwright_api.async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@dataclass
class Site:
    referee: Referee
    web: WebServer
    clock: ManualClock

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.web.port}"


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    clock = ManualClock(time.time())  # the browser counts deadlines down against the real time
    async with running_referee(tmp_path / "db" / "tileref.sqlite3", clock, render=True) as referee:
        web = WebServer(referee.store, port=0)
        await web.start()
        referee.public_url = f"http://127.0.0.1:{web.port}"
        try:
            yield Site(referee, web, clock)
        finally:
            await web.stop()


def players(game: str) -> list[User]:
    counts = GAMES[game].player_counts()
    count = 2 if 2 in counts else counts[0]
    return [User(f"test:p{i}", f"Player{i}") for i in range(count)]


async def open_table(referee: Referee, game: str, place: str = PLACE, options: str = "") -> str:
    """Start a table of `game` with people only; returns the page's path (`/t/<token>`), given
    in the lobby message when the referee has a web server ("" without)."""
    seated = players(game)
    reply = await referee.create(place, seated[0], game, options=options or None)
    assert reply.ok, reply
    for user in seated[1:]:
        assert (await referee.join(place, user)).ok
    assert (await referee.start(place, seated[0])).ok
    link = re.search(r"https?://\S+(/t/[\w-]+)", reply.public.text if reply.public else "")
    if referee.public_url is None:
        assert link is None
        return ""
    assert link, "the lobby message gives the page's link"
    return link.group(1)


async def play_moves(referee: Referee, game: str, count: int, place: str = PLACE, seed: int = 0) -> int:
    """Play up to `count` random legal moves through the referee (as the players would); returns
    how many were played."""
    rng = random.Random(seed)
    seated = players(game)
    played = 0
    for _ in range(count):
        view = await referee.view(place)
        assert view is not None
        table, state = view
        if state.outcome() is not None or table.status != "playing":
            break
        seat = rng.choice(state.to_move())
        action = rng.choice(state.legal_actions(seat))
        reply = await referee.act(place, seated[seat], action)
        assert reply.ok, reply
        played += 1
    return played
