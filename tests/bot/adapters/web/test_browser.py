"""Each game's spectator page in a real browser (Debian's Chromium, driven by Playwright): the
board and move list show, a move made through the referee appears without a reload, the arrow
key steps back, `?ply=N` opens that position, and the console stays free of errors. Screenshots
at 360 and 1280 px wide are kept in tmp/artefacts."""

from __future__ import annotations

import pytest

from engine import GAMES
from tests.bot.adapters.web.conftest import ARTEFACTS, Site, open_table, play_moves, until

pytest.importorskip("playwright.async_api")
SHOWN_BOARD = ("[...document.querySelectorAll('.board img')].some(i => i.offsetParent !== null && i.complete && "
               "i.naturalWidth > 0)")


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_page_follows_the_game_live_and_steps_back_in_a_real_browser(site: Site, browser: object,
                                                                           game: str) -> None:
    path = await open_table(site.referee, game)
    played = await play_moves(site.referee, game, 3)
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    context = await browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page = await context.new_page()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    await page.goto(site.base + path)
    await until(page, "document.querySelector('.board img.whole').complete && "
                                 "document.querySelector('.board img.whole').naturalWidth > 0")
    assert await page.locator(".moves li").count() == played
    assert await page.locator(".players tbody tr").count() >= 2
    await page.screenshot(path=str(ARTEFACTS / f"{game}-1280.png"), full_page=True)
    await page.set_viewport_size({"width": 360, "height": 740})
    await page.screenshot(path=str(ARTEFACTS / f"{game}-360.png"), full_page=True)
    print(f"screenshots of {game} at 1280 and 360 px in {ARTEFACTS}")
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px phone"

    await page.evaluate("window.sameDocument = true")
    await page.wait_for_timeout(300)  # the live stream is open
    more = await play_moves(site.referee, game, 1, seed=1)
    if more:
        await page.wait_for_selector(f"#spectacle[data-last='{played + 1}']", timeout=5000)
        assert await page.locator(".moves li").count() == played + 1
        assert await page.evaluate("window.sameDocument === true"), "the page updated without a reload"
    last = played + more

    await page.keyboard.press("ArrowLeft")
    await page.wait_for_selector(f"#spectacle[data-ply='{last - 1}']", timeout=5000)
    assert f"/board/{last - 1}-" in (await page.locator(".board img.whole").get_attribute("src") or "")
    assert await page.evaluate("window.sameDocument === true")
    await until(page, SHOWN_BOARD)

    await page.goto(f"{site.base}{path}?ply=1")
    assert await page.locator("#spectacle").get_attribute("data-ply") == "1"
    assert await page.locator(".moves li.current").get_attribute("value") == "1"
    await until(page, SHOWN_BOARD)
    await context.close()
    assert problems == [], problems
