"""Live pages in a real browser (Debian's Chromium, driven by Playwright): after a moderator's
rollback and new moves, the open page and a reloaded one show the new board (never a picture
the browser kept from before); a page whose server stops says it is reconnecting, comes back
when the server does, and stops asking once the game has ended."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.web.server import WebServer
from bot.core.clock import ManualClock
from tests.bot.adapters.web.conftest import PLACE, open_table, play_moves, players, until
from tests.bot.referees import MOD, running_referee

playwright_api = pytest.importorskip("playwright.async_api")


async def picture_of(page: Any) -> str:
    await until(page, "document.querySelector('.board img.whole').complete && "
                      "document.querySelector('.board img.whole').naturalWidth > 0")
    return await page.locator(".board img.whole").get_attribute("src") or ""


async def test_after_a_rollback_and_new_moves_the_page_and_a_reload_show_the_new_board(site, browser) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 6)
    page = await browser.new_page()
    await page.goto(f"{site.base}{path}")
    old_six = await picture_of(page)
    assert re.search(r"/board/6-[0-9a-f]{16}\.png$", old_six)
    await page.wait_for_timeout(300)  # the live stream is open
    assert (await site.referee.rollback(PLACE, MOD, 4)).ok  # 5 is the rollback's entry; 6 a new move
    await play_moves(site.referee, "tronimoes", 1, seed=9)
    await until(page, "document.querySelector('#spectacle').dataset.last === '6' && "
                      f"!document.querySelector('.board img.whole').src.endsWith('{old_six.rsplit('/', 1)[1]}')")
    live_six = await picture_of(page)
    assert live_six != old_six
    assert await page.locator(".moves li").count() == 6
    assert "shuffled again" in (await page.locator(".moves li[value='5']").inner_text())
    await page.reload()
    assert await picture_of(page) == live_six, "a reload shows the new board, not the one kept from before"
    await page.goto(f"{site.base}{path}?ply=6")
    assert await picture_of(page) == live_six
    await page.close()


async def test_a_page_whose_server_stops_says_reconnecting_and_stops_once_the_game_ended(tmp_path: Path,
                                                                                         browser) -> None:
    async with running_referee(tmp_path / "tileref.sqlite3", ManualClock(1_000_000.0), render=True) as referee:
        web = WebServer(referee.store, port=0)
        await web.start()
        port = web.port
        referee.public_url = f"http://127.0.0.1:{port}"
        path = await open_table(referee, "tronimoes")
        await play_moves(referee, "tronimoes", 2)
        page = await browser.new_page()
        await page.goto(f"http://127.0.0.1:{port}{path}")
        await page.wait_for_timeout(300)
        notice = page.locator("#connection")
        assert await notice.is_hidden()
        await web.stop()
        await page.wait_for_selector("#connection:not([hidden])", timeout=10_000)
        assert await notice.inner_text() == "Reconnecting…"
        assert (await referee.resign(PLACE, players("tronimoes")[0])).ok  # it ends while the page is away
        web = WebServer(referee.store, port=port)
        await web.start()
        try:
            await page.wait_for_selector("#spectacle[data-ended='1']", timeout=10_000)
            assert await notice.is_hidden(), "back: the notice goes"
            assert await page.locator(".board img.whole").count() == 1
        finally:
            await web.stop()
        await page.wait_for_selector("#connection:not([hidden])", timeout=10_000)
        assert "server has stopped" in await notice.inner_text()
        asked = []
        page.on("request", lambda request: asked.append(request.url))
        await page.wait_for_timeout(4500)  # more than two of the stream's retry intervals
        assert not [url for url in asked if url.endswith("/live") or "/live?" in url], "it stopped asking"
        await page.close()


async def test_a_reader_stepping_back_keeps_their_position_while_the_list_and_the_count_grow(site, browser) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 3)
    page = await browser.new_page()
    await page.goto(f"{site.base}{path}?ply=1")
    shown = await picture_of(page)
    assert await page.locator(".steps .counter").inner_text() == "Move 1 of 3"
    await page.wait_for_timeout(300)  # the live stream is open
    await play_moves(site.referee, "tronimoes", 1, seed=4)
    await until(page, "document.querySelector('#spectacle').dataset.last === '4'")
    assert await page.locator("#spectacle").get_attribute("data-ply") == "1"
    assert await picture_of(page) == shown, "the picture the reader chose stays"
    assert await page.locator(".moves li").count() == 4
    assert await page.locator("a[data-step='now']").get_attribute("data-ply") == "4"
    assert await page.locator(".steps .counter").inner_text() == "Move 1 of 4", "the total counts the new move"
    await play_moves(site.referee, "tronimoes", 1, seed=5)
    await until(page, "document.querySelector('#spectacle').dataset.last === '5'")
    assert await page.locator(".steps .counter").inner_text() == "Move 1 of 5"
    assert await page.locator("#spectacle").get_attribute("data-ply") == "1"
    assert await page.locator(".moves li").count() == 5
    await page.keyboard.press("End")
    await until(page, "document.querySelector('#spectacle').dataset.ply === '5'")
    assert re.search(r"/board/5-[0-9a-f]{16}\.png$", await picture_of(page))
    assert await page.locator(".steps .counter").inner_text() == "Move 5 of 5"
    await page.close()
