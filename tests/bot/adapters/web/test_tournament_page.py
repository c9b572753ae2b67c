"""A tournament's web page: its rules stated first, the standings, every round with links to
each game's page and replay; found only through its link; in the tournament's language; and
no serious accessibility problem in Chromium (axe-core), on a phone and a laptop, in English
and Spanish. A real referee runs the tournament on a real database; the page is served by the
real web server and read over HTTP."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.adapters.web.server import WebServer
from bot.tournaments.page import page_path, page_token
from tests.bot.adapters.web.conftest import ARTEFACTS
from tests.bot.tournaments.helpers import MOD, Event, player, running_event

HOUR = 3600.0
SERIOUS = ("serious", "critical")


@pytest.fixture
async def event(database) -> AsyncIterator[tuple[Event, WebServer]]:
    async with running_event(database) as event:
        web = WebServer(event.referee.store, port=0)
        await web.start()
        try:
            yield event, web
        finally:
            await web.stop()


async def _get(web: WebServer, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{web.port}{path}") as answer:
        return answer.status, await answer.text()


async def _swiss(event: Event, players: int = 5, rounds: int = 2, language: str | None = None) -> int:
    reply = await event.desk.new(MOD, "test:lobby", "g1", "tromino_go", "swiss", rounds=rounds, start="1h",
                                 language=language)
    assert reply.ok, reply.caller
    tid = (await event.referee.store.tournaments.listed("g1"))[0].id
    for index in range(1, players + 1):
        assert (await event.desk.sign_up(tid, player(index))).ok
    await event.step(HOUR)
    await event.play_out(tid, winner=lambda board: board.board % 2)
    await event.step()
    return tid


async def test_the_page_states_the_rules_then_the_standings_then_the_rounds(event):
    event, web = event
    tid = await _swiss(event)
    token = await page_token(event.referee.store, tid)
    assert token
    status, html = await _get(web, page_path(tid, token))
    assert status == 200
    assert html.index(">Rules<") < html.index(">Standings<") < html.index(">Rounds<")
    assert "FIDE Dutch system" in html and "Buchholz cut-1" in html
    view = await event.view(tid)
    assert all(entrant.name in html for entrant in view.entrants)
    assert "Round 2" in html and "Round 1" in html and "sits this round out" in html


async def test_every_board_links_to_its_game_page_and_its_replay(event):
    event, web = event
    tid = await _swiss(event)
    token = await page_token(event.referee.store, tid)
    _, html = await _get(web, page_path(tid, token or ""))
    view = await event.view(tid)
    boards = [b for r in view.rounds for b in r.boards]
    games = re.findall(r'href="(/t/[\w-]+)"', html)
    replays = re.findall(r'href="(/t/[\w-]+/replay\.gif)"', html)
    assert len(games) == len(replays) == len(boards) == 4
    for game in games:
        status, page = await _get(web, game)
        assert status == 200 and "Tromino Go" in page
    again = await _get(web, page_path(tid, token or ""))
    assert re.findall(r'href="(/t/[\w-]+)"', again[1]) == games


async def test_the_page_is_found_only_through_its_link(event):
    event, web = event
    tid = await _swiss(event, rounds=2)
    token = await page_token(event.referee.store, tid)
    assert token and token == await page_token(event.referee.store, tid)
    for path in (page_path(tid, "x" * len(token)), page_path(tid + 1, token)):
        status, html = await _get(web, path)
        assert status == 404 and "No tournament has this link" in html
    status, _ = await _get(web, f"/tournament/{tid}")
    assert status == 404


async def test_a_spanish_tournament_has_a_spanish_page(event):
    event, web = event
    tid = await _swiss(event, language="es")
    token = await page_token(event.referee.store, tid)
    _, html = await _get(web, page_path(tid, token or ""))
    assert '<html lang="es">' in html
    assert ">Reglas<" in html and ">Clasificación<" in html and ">Rondas<" in html


async def test_the_page_has_no_serious_accessibility_violations(event, browser: Any) -> None:
    axe_module = pytest.importorskip("axe_playwright_python.async_playwright")
    axe = axe_module.Axe()
    event, web = event
    found: list[str] = []
    for language in ("en", "es"):
        tid = await _swiss(event, language=language)
        token = await page_token(event.referee.store, tid)
        for width in (360, 1280):
            context = await browser.new_context(viewport={"width": width, "height": 800}, bypass_csp=True,
                                                extra_http_headers={"Accept-Language": language})
            page = await context.new_page()
            await page.goto(f"http://127.0.0.1:{web.port}{page_path(tid, token or '')}")
            await page.wait_for_load_state("load")
            assert await page.evaluate("document.documentElement.lang") == language
            wide = await page.evaluate("[...document.querySelectorAll('body *')].filter(e => "
                                       "e.getBoundingClientRect().right > window.innerWidth + 1 && "
                                       "!e.closest('.scroll')).map(e => e.tagName + '.' + e.className).slice(0, 5)")
            assert wide == [], f"the page scrolls sideways at {width}px: {wide}"
            assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            ARTEFACTS.mkdir(parents=True, exist_ok=True)
            await page.screenshot(path=str(ARTEFACTS / f"tournament-{language}-{width}.png"), full_page=True)
            results = await axe.run(page)
            assert results.response["testEngine"]["name"] == "axe-core"
            for violation in results.response["violations"]:
                if violation["impact"] in SERIOUS:
                    targets = [node["target"] for node in violation["nodes"]][:3]
                    found.append(f"{language} {width}px: {violation['id']}: {violation['help']} {targets}")
            await context.close()
    assert found == [], "\n".join(found)
