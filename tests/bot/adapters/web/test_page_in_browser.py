"""The spectator page as readers use it, in a real browser (Debian's Chromium, driven by
Playwright): the move list follows the game unless the reader scrolled away, stepping keeps the
focus where it was, replaces the history entry and loses no key press, autoplay, sharing, the
link preview's tags, the board beside its step controls on a laptop, a phone's large scores and
Tetromic's one board at a time, and an axe-core scan of every page of every game in English and
Spanish at a phone's and a desktop's width. Screenshots are kept in tmp/artefacts."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from engine import GAMES
from tests.bot.adapters.web.conftest import ARTEFACTS, PLACE, Site, open_table, play_moves, players, until
from tests.bot.referees import MOD

pytest.importorskip("playwright.async_api")

LAPTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
SERIOUS = ("serious", "critical")


async def new_page(browser: Any, viewport: dict[str, int], **options: Any) -> Any:
    context = await browser.new_context(viewport=viewport, **options)
    page = await context.new_page()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.problems = problems
    return page


async def opened(page: Any, address: str) -> None:
    await page.goto(address)
    await until(page, "[...document.querySelectorAll('.board img')].some(i => i.complete && i.naturalWidth > 0)")


NEWEST_IN_VIEW = """() => { const ol = document.querySelector('.moves ol'); const li = ol.lastElementChild;
    return li.offsetTop + li.offsetHeight <= ol.scrollTop + ol.clientHeight + 1; }"""


async def test_the_move_list_follows_the_game_unless_the_reader_scrolled_away(site: Site, browser: Any) -> None:
    path = await open_table(site.referee, "tronimoes")
    played = await play_moves(site.referee, "tronimoes", 40)
    assert played > 20
    page = await new_page(browser, LAPTOP)
    await opened(page, site.base + path)
    assert await page.evaluate("(() => { const ol = document.querySelector('.moves ol'); "
                               "return ol.scrollHeight > ol.clientHeight; })()"), "the list is long enough to scroll"
    assert await page.evaluate(NEWEST_IN_VIEW), "the newest move is in view when the page opens"
    assert await page.locator(".moves li.current").get_attribute("value") == str(played)

    await page.wait_for_timeout(300)  # the live stream is open
    played += await play_moves(site.referee, "tronimoes", 1, seed=1)
    await page.wait_for_selector(f"#spectacle[data-last='{played}']")
    assert await page.evaluate(NEWEST_IN_VIEW), "the list followed the new move"
    assert await page.locator(".moves li.current").get_attribute("value") == str(played)
    await until(page, f"document.getElementById('announce').textContent.includes('{played}')")

    await page.evaluate("document.querySelector('.moves ol').scrollTop = 40")
    played += await play_moves(site.referee, "tronimoes", 1, seed=2)
    await page.wait_for_selector(f"#spectacle[data-last='{played}']")
    assert await page.evaluate("document.querySelector('.moves ol').scrollTop") == 40, \
        "a reader who scrolled up stays where they were"
    assert await page.locator(".moves li").count() == played
    assert page.problems == []


async def test_new_items_arrive_through_one_function_that_replaces_what_a_rollback_undid(site: Site,
                                                                                        browser: Any) -> None:
    path = await open_table(site.referee, "tronimoes")
    played = await play_moves(site.referee, "tronimoes", 5)
    page = await new_page(browser, LAPTOP)
    await opened(page, site.base + path)
    items = ('<li value="4" id="ply-4" data-said="Move 4: X."><h3 id="round-2">Round 2</h3>'
             '<a href="?ply=4" data-ply="4">X</a></li><li value="5" id="ply-5" data-said="Move 5: Y.">'
             '<a href="?ply=5" data-ply="5">Y</a></li>')
    await page.evaluate("items => window.tileref.appendMoves(4, items)", items)
    assert await page.locator(".moves li").count() == played
    assert await page.locator(".moves li").last.inner_text() == "Y"
    assert await page.locator(".moves nav.rounds a").count() == 2, "a jump to the new round"
    assert await page.locator(".moves nav.rounds a").last.get_attribute("data-ply") == "4"


async def test_stepping_keeps_the_focus_replaces_history_and_loses_no_key_press(site: Site, browser: Any) -> None:
    path = await open_table(site.referee, "tronimoes")
    played = await play_moves(site.referee, "tronimoes", 12)
    page = await new_page(browser, LAPTOP)

    async def slowly(route: Any) -> None:  # every step is still being fetched when the next key comes
        await asyncio.sleep(0.2)
        await route.continue_()

    await page.route("**/part*", slowly)
    await opened(page, site.base + path)
    entries = await page.evaluate("history.length")
    await page.focus("[data-focus='step-back']")
    await page.keyboard.press("Enter")
    await page.wait_for_selector(f"#spectacle[data-ply='{played - 1}']")
    assert await page.evaluate("document.activeElement.dataset.focus") == "step-back", \
        "Enter on a step button leaves the focus on it"
    for _ in range(5):
        await page.keyboard.press("ArrowLeft")
    await page.wait_for_selector(f"#spectacle[data-ply='{played - 6}']", timeout=5000)
    await page.wait_for_timeout(500)
    assert await page.locator("#spectacle").get_attribute("data-ply") == str(played - 6), "every key press counted"
    assert await page.evaluate("history.length") == entries, "steps replace the history entry"
    assert page.url.endswith(f"?ply={played - 6}")
    assert await page.locator(".moves li.current").get_attribute("value") == str(played - 6)
    assert await page.evaluate("document.activeElement.dataset.focus") == "step-back"
    await until(page, "document.getElementById('announce').textContent.includes"
                                 f"('{played - 6}')")
    assert page.problems == []


async def test_autoplay_steps_forward_to_now_at_the_chosen_speed(site: Site, browser: Any) -> None:
    path = await open_table(site.referee, "triominoes")
    played = await play_moves(site.referee, "triominoes", 4)
    page = await new_page(browser, LAPTOP)
    await opened(page, f"{site.base}{path}?ply=0")
    await page.select_option("[data-action='speed']", "250")
    await page.click("[data-action='autoplay']")
    assert await page.get_attribute("[data-action='autoplay']", "aria-pressed") == "true"
    await page.wait_for_selector(f"#spectacle[data-ply='{played}']", timeout=5000)
    await until(page, "document.querySelector('[data-action=autoplay]')"
                                 ".getAttribute('aria-pressed') === 'false'")
    assert await page.locator("[data-action='speed']").input_value() == "250"
    assert page.problems == []


async def test_share_copies_the_link_to_the_move_shown(site: Site, browser: Any) -> None:
    path = await open_table(site.referee, "tronix")
    await play_moves(site.referee, "tronix", 3)
    page = await new_page(browser, LAPTOP)
    await page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.base)
    await page.add_init_script("delete Navigator.prototype.share")  # a desktop browser without a share sheet
    await opened(page, f"{site.base}{path}?ply=2")
    await page.click("[data-action='share']")
    await until(page, "document.getElementById('announce').textContent.length > 0")
    assert await page.evaluate("navigator.clipboard.readText()") == f"{site.base}{path}?ply=2"


async def test_the_clock_counts_down_then_says_the_turns_time_is_up(site: Site, browser: Any) -> None:
    path = await open_table(site.referee, "tromino_go")
    page = await new_page(browser, LAPTOP)
    await opened(page, site.base + path)
    await until(page, "/^2d 23:5\\d:\\d\\d$/.test(document.querySelector('.clock time').textContent)")  # 3d a turn
    assert await page.locator(".clock .over").is_hidden()
    await page.evaluate("document.querySelector('.clock time').dataset.deadline = String(Date.now() / 1000 - 1)")
    await until(page, "!document.querySelector('.clock .over').hidden")
    assert await page.locator(".clock .running").is_hidden()
    assert (await page.locator(".clock").inner_text()).startswith("The turn’s time is up.")
    assert not page.problems


async def test_a_link_unfurls_with_the_players_and_the_board_at_an_absolute_address(site: Site,
                                                                                   browser: Any) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 3)
    page = await new_page(browser, LAPTOP)
    await opened(page, f"{site.base}{path}?ply=2")

    async def tag(name: str) -> str:
        return await page.locator(f"meta[property='{name}']").get_attribute("content") or ""

    assert "Player0" in await tag("og:title") and "Player1" in await tag("og:title")
    assert await tag("og:description")
    image = await tag("og:image")
    assert re.fullmatch(re.escape(f"{site.base}{path}/board/") + r"2-[0-9a-f]{16}\.png", image or "")
    response = await page.request.get(image)
    assert response.ok and (await response.body())[:8] == b"\x89PNG\r\n\x1a\n"
    assert await tag("og:url") == f"{site.base}{path}?ply=2"
    assert await page.locator("meta[name='twitter:card']").get_attribute("content") == "summary_large_image"


async def test_the_replay_and_the_record_download_from_the_page(site: Site, browser: Any) -> None:
    path = await open_table(site.referee, "tromino_go")
    played = await play_moves(site.referee, "tromino_go", 3)
    page = await new_page(browser, LAPTOP, accept_downloads=True)
    await opened(page, site.base + path)
    for link, start in (("replay.gif", b"GIF89a"), ("record.txt", b"Tromino Go"), ("record.json", b"{")):
        async with page.expect_download() as waiting:
            await page.click(f".downloads a[href$='{link}']")
        download = await waiting.value
        saved = await download.path()
        data = Path(saved).read_bytes()
        assert data.startswith(start), (link, data[:20])
    assert data.count(b'"ply"') == played


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_on_a_laptop_the_board_fits_with_its_step_buttons_beside_it(site: Site, browser: Any,
                                                                          game: str) -> None:
    path = await open_table(site.referee, game)
    await play_moves(site.referee, game, 8)
    page = await new_page(browser, LAPTOP)
    await opened(page, site.base + path)
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTEFACTS / f"{game}-laptop-1280x720.png"))
    print(f"laptop screenshot of {game} in {ARTEFACTS}")
    board = await page.locator(".board img.whole").bounding_box()
    for step in await page.locator(".steps a").all():
        box = await step.bounding_box()
        assert box["y"] + box["height"] <= LAPTOP["height"], f"{game}: a step button is below the fold"
        assert box["x"] >= board["x"] + board["width"], f"{game}: the step buttons are beside the board"
    assert board["y"] + board["height"] <= LAPTOP["height"]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_on_a_phone_whose_turn_and_the_scores_come_first_in_large_text(site: Site, browser: Any,
                                                                             game: str) -> None:
    path = await open_table(site.referee, game)
    await play_moves(site.referee, game, 2)
    page = await new_page(browser, PHONE)
    await opened(page, site.base + path)
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTEFACTS / f"{game}-phone-390.png"), full_page=True)
    print(f"phone screenshot of {game} in {ARTEFACTS}")
    size = "el => parseFloat(getComputedStyle(el).fontSize)"
    assert await page.locator(".players td.score").first.evaluate(size) >= 20
    assert await page.locator(".status").evaluate(size) >= 20
    players_at = (await page.locator(".players").bounding_box())["y"]
    assert players_at < (await page.locator(".board").bounding_box())["y"], "the scores come before the board"
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


async def test_tetromic_shows_one_board_at_a_time_on_a_phone_the_others_a_tap_away(site: Site,
                                                                                  browser: Any) -> None:
    path = await open_table(site.referee, "tetromic")
    await play_moves(site.referee, "tetromic", 2)
    page = await new_page(browser, PHONE)
    await page.goto(site.base + path)
    shown = "[...document.querySelectorAll('.board img')].filter(i => i.offsetParent !== null)"
    await until(page, f"{shown}.length === 1 && {shown}[0].complete && {shown}[0].naturalWidth > 0")
    assert await page.evaluate(f"{shown}[0].dataset.board") == "0"
    first = await page.evaluate(f"{shown}[0].getBoundingClientRect().width")
    assert first > 300, "one board fills the phone's width"
    await page.click(".parts .tabs button[data-board='1']")
    await until(page, f"{shown}.length === 1 && {shown}[0].dataset.board === '1' && "
                      f"{shown}[0].complete && {shown}[0].naturalWidth > 0")
    assert await page.get_attribute(".parts .tabs button[data-board='1']", "aria-pressed") == "true"
    await page.keyboard.press("ArrowLeft")  # a step keeps the board chosen
    await page.wait_for_selector("#spectacle[data-ply='1']")
    assert await page.evaluate(f"{shown}[0].dataset.board") == "1"
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTEFACTS / "tetromic-phone-second-board.png"), full_page=True)
    await page.evaluate(f"window.tileref.setBoardPicture('{path}/board.png?ply=0')")  # as a live update does
    await until(page, f"{shown}.length === 1 && {shown}[0].src.endsWith('{path}/board.png?ply=0&part=1') && "
                      f"{shown}[0].complete && {shown}[0].naturalWidth > 0")
    await page.set_viewport_size(LAPTOP)
    await until(page, f"{shown}.length === 1 && {shown}[0].classList.contains('whole')")
    assert page.problems == []


async def _lobby(site: Site, game: str, place: str, language: str) -> str:
    reply = await site.referee.create(place, players(game)[0], game, options=f"lang={language}")
    assert reply.ok, reply
    text = reply.public.text if reply.public else ""
    return text[text.index("/t/"):].split()[0].rstrip(")>")


async def _finished(site: Site, game: str, place: str, language: str) -> str:
    path = await open_table(site.referee, game, place=place, options=f"lang={language}")
    await play_moves(site.referee, game, 2, place=place)
    view = await site.referee.view(place)
    assert view is not None
    if view[1].outcome() is None:  # not over by chance already
        reply = await site.referee.resign(place, players(game)[0])
        assert reply.ok, reply
    view = await site.referee.view(place)
    assert view is not None
    if view[1].outcome() is None:  # a game whose leaver's turn is still awaited: a moderator stops it
        assert (await site.referee.abort(place, MOD)).ok
    view = await site.referee.view(place)
    assert view is None or view[1].outcome() is not None or view[0].status != "playing"
    return path


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_page_has_no_serious_accessibility_violations(site: Site, browser: Any, game: str) -> None:
    axe_module = pytest.importorskip("axe_playwright_python.async_playwright")
    axe = axe_module.Axe()
    found: list[str] = []
    for language in ("en", "es"):
        live = await open_table(site.referee, game, place=f"{PLACE}:{language}", options=f"lang={language}")
        await play_moves(site.referee, game, 3, place=f"{PLACE}:{language}")
        pages = {"lobby": await _lobby(site, game, f"{PLACE}:lobby:{language}", language),
                 "live": live, "replay": f"{live}?ply=1",
                 "finished": await _finished(site, game, f"{PLACE}:over:{language}", language),
                 "problem": f"/t/{'x' * 24}"}
        for width in (360, 1280):
            page = await new_page(browser, {"width": width, "height": 800}, bypass_csp=True,
                                  extra_http_headers={"Accept-Language": language})
            for kind, address in pages.items():
                await page.goto(site.base + address)
                await page.wait_for_load_state("load")
                assert await page.evaluate("document.documentElement.lang") == language
                results = await axe.run(page)
                assert results.response["testEngine"]["name"] == "axe-core"
                for violation in results.response["violations"]:
                    if violation["impact"] in SERIOUS:
                        targets = [node["target"] for node in violation["nodes"]][:3]
                        found.append(f"{game} {kind} {language} {width}px: {violation['id']} ({violation['impact']}):"
                                     f" {violation['help']} {targets}")
            await page.context.close()
    assert found == [], "\n".join(found)
