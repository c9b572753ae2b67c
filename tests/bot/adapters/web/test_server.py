"""The spectator pages over HTTP: what they show, what they refuse and how, their headers and
weight, live updates from the store's change feed (a move committed by another process on
PostgreSQL included), and that no ply's page or position shows a tile in anyone's hand."""

from __future__ import annotations

import asyncio
import io
import json
import re
from html import escape

import aiohttp
import pytest
from PIL import Image

import renderers
from bot.adapters.web.server import WebServer
from bot.core import metrics
from bot.core.clock import ManualClock
from bot.core.i18n import speaking
from bot.core.records import DEADLINE, User
from bot.service.referee import Referee
from bot.storage.address import store_for
from engine import GAMES
from tests.bot.adapters.web.conftest import PLACE, Site, open_table, play_moves, players
from tests.bot.referees import ALICE, MOD, running_referee


async def fetch(site: Site, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    async with aiohttp.ClientSession() as session, session.get(site.base + path, headers=headers) as response:
        return response.status, dict(response.headers), await response.read()


async def test_page_shows_board_players_and_moves_with_strict_headers(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 4)
    status, headers, body = await fetch(site, path)
    html = body.decode()
    assert status == 200
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert headers["Referrer-Policy"] == "no-referrer"
    assert re.search(rf"{path}/board/4-[0-9a-f]{{16}}\.png", html)
    assert html.count("<li ") == 4 and "Player0" in html and "Player1" in html
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", html), "the page loads nothing from elsewhere"


async def test_a_page_load_weighs_at_most_300_kb(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 30)
    total = 0
    for part in (path, f"{path}/board.png", "/static/watch.css", "/static/watch.js"):
        status, _headers, body = await fetch(site, part)
        assert status == 200
        total += len(body)
    assert total <= 300 * 1024, f"a page load is {total} bytes"


async def test_a_lobby_page_shows_who_is_seated_and_hears_the_start(site: Site) -> None:
    seated = players("tronimoes")
    reply = await site.referee.create(PLACE, seated[0], "tronimoes")
    path = re.search(r"/t/[\w-]{24}", reply.public.text if reply.public else "")
    assert path
    status, _headers, body = await fetch(site, path.group(0))
    assert status == 200 and "Player0" in body.decode() and "not started" in body.decode()
    status, _headers, body = await fetch(site, f"{path.group(0)}/position.json")
    assert status == 404 and b"not started" in body
    async with aiohttp.ClientSession() as session, session.get(f"{site.base}{path.group(0)}/live") as stream:
        await stream.content.readuntil(b"\n\n")
        await asyncio.sleep(0.2)
        assert (await site.referee.join(PLACE, seated[1])).ok
        assert b"event: change" in await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
        assert (await site.referee.start(PLACE, seated[0])).ok
        assert b"event: change" in await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
    status, headers, body = await fetch(site, f"{path.group(0)}/part")
    assert status == 200 and headers["X-Last"] == "0" and re.search(r"/board/0-\w+\.png", body.decode())


async def test_a_page_shows_the_tables_clock(site: Site) -> None:
    seated = players("tronimoes")
    reply = await site.referee.create(PLACE, seated[0], "tronimoes", options="clock=3d+1d/7d")
    path = re.search(r"/t/[\w-]{24}", reply.public.text if reply.public else "")
    assert path
    _status, _headers, body = await fetch(site, path.group(0))
    assert "bank 3d + 1d a move, at most 7d" in body.decode()
    assert (await site.referee.join(PLACE, seated[1])).ok and (await site.referee.start(PLACE, seated[0])).ok
    _status, _headers, body = await fetch(site, path.group(0))
    assert "bank 3d + 1d a move, at most 7d" in body.decode() and "Turn ends" in body.decode()


async def test_a_bad_ply_is_refused_saying_what_to_type(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 2)
    for bad in ("x", "-1", "99"):
        status, headers, body = await fetch(site, f"{path}?ply={bad}")
        assert status == 400
        assert "like ?ply=1" in body.decode() and "Traceback" not in body.decode()
        assert "Content-Security-Policy" in headers
    status, _headers, body = await fetch(site, f"{path}/position.json?ply=99")
    assert status == 400


async def test_a_ply_written_with_other_digits_or_too_long_is_refused_and_nothing_fails(
        site: Site, caplog: pytest.LogCaptureFixture) -> None:
    """'²' passed `isdigit()` and then failed `int()` (a 500 and a traceback in the log); '٣' and
    the full-width '１' were read silently as 3 and 1."""
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 4)
    for bad in ("²", "٣", "１", "①", "%2B1", "1_0", "9" * 5_000, "1" + "0" * 400, "2x", "-0x1"):
        for page in (path, f"{path}/position.json", f"{path}/part", f"{path}/board.png"):
            status, _headers, body = await fetch(site, f"{page}?ply={bad}")
            assert status == 400, (page, bad)
            assert b"Traceback" not in body
    status, _headers, _body = await fetch(site, f"{path}?ply=3")
    assert status == 200
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


async def test_an_unknown_link_says_how_to_get_the_right_one_in_the_readers_language(site: Site) -> None:
    status, _headers, body = await fetch(site, "/t/nottherighttoken00", **{"Accept-Language": "es-ES,es;q=0.9"})
    assert status == 404
    with speaking("es"):
        from bot.core.i18n import _

        assert escape(_("No table has this link. Check that it was copied whole, or ask for it again with /watch "
                        "in the game's thread.")) in body.decode()
    status, _headers, body = await fetch(site, "/t/1")
    assert status == 404 and b"/watch" in body


async def test_the_link_is_random_and_not_the_table_id(site: Site) -> None:
    first = await open_table(site.referee, "tronimoes")
    second = await open_table(site.referee, "tronimoes", place="test:other")
    token = first.rsplit("/", 1)[1]
    assert len(token) >= 24 and first != second
    table = await site.referee.store.table_at(PLACE)
    assert table is not None and not token.isdigit() and "web" not in token
    assert re.fullmatch(r"[\w-]{24}", token), "144 random bits, URL-safe"


async def test_a_page_is_in_the_tables_language(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes", options="lang=es")
    status, _headers, body = await fetch(site, path)
    assert status == 200 and '<html lang="es">' in body.decode()
    with speaking("es"):
        from bot.core.i18n import _

        assert _("Players") in body.decode() and _("Moves") in body.decode()


async def test_a_finished_games_page_stays_and_replay_links_to_it(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 3)
    assert (await site.referee.resign(PLACE, players("tronimoes")[0])).ok
    table = await site.referee.store.table_at(PLACE)
    assert table is not None and table.status == "finished"
    status, _headers, body = await fetch(site, path)
    assert status == 200 and "🏆" in body.decode()
    reply = await site.referee.replay(PLACE, ALICE)
    assert reply.ok and path in (reply.caller.text if reply.caller else "")
    watched = await site.referee.watch(PLACE, ALICE)
    assert path in (watched.caller.text if watched.caller else "")
    status, _headers, body = await fetch(site, f"{path}?ply=2")
    assert status == 200 and 'data-ply="2"' in body.decode()


@pytest.mark.parametrize("name", sorted(GAMES))
async def test_no_plys_page_or_position_shows_a_tile_in_a_hand(site: Site, name: str) -> None:
    path = await open_table(site.referee, name)
    for ply in range(25):
        view = await site.referee.view(PLACE)
        assert view is not None
        game = view[1]
        timeline = site.web.timelines.get(view[0], await site.referee.store.actions(view[0].id))
        public = json.dumps(game.view(None)) + json.dumps([e.events for e in timeline.entries])
        hidden = {tile for seat in game.to_position().get("seats", []) for tile in seat.get("hand", [])
                  if isinstance(tile, str) and len(tile) >= 3 and tile not in public}
        _status, _headers, page = await fetch(site, path)
        _status, _headers, position = await fetch(site, f"{path}/position.json?ply={len(game.log)}")
        text = page.decode()
        shown = json.loads(position)
        assert not [t for t in hidden if re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", text)], f"ply {ply}"
        assert not [t for t in hidden if f'"{t}"' in json.dumps(shown)], f"ply {ply}"
        assert "seed" not in shown["position"]
        if not await play_moves(site.referee, name, 1, seed=ply):
            break


async def test_live_stream_says_when_a_move_is_committed_by_another_process(database: str, tmp_path) -> None:
    """On PostgreSQL the move is made by a second store (as another process would), and heard
    through LISTEN/NOTIFY; on SQLite, by the same process, through its in-process signal."""
    clock = ManualClock(1_000_000.0)
    async with running_referee(database, clock) as referee:
        web = WebServer(referee.store, port=0)
        await web.start()
        referee.public_url = f"http://127.0.0.1:{web.port}"
        try:
            path = await open_table(referee, "tronimoes")
            other_store = store_for(database) if database.startswith("postgres") else None
            mover = referee
            if other_store is not None:
                await other_store.open()
                mover = Referee(other_store, clock=clock, render=False, confirms_delivery=False, ai_seconds=0.0)
            watchers = metrics.REGISTRY.get_sample_value("tileref_web_watchers")
            async with aiohttp.ClientSession() as session, \
                    session.get(f"http://127.0.0.1:{web.port}{path}/live") as stream:
                assert stream.headers["Content-Type"].startswith("text/event-stream")
                await stream.content.readuntil(b"\n\n")  # the retry line
                assert metrics.REGISTRY.get_sample_value("tileref_web_watchers") == watchers + 1
                await asyncio.sleep(0.2)
                await play_moves(mover, "tronimoes", 1)
                message = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
            assert b"event: change" in message and b'"last": 1' in message, message
            if other_store is not None:
                await other_store.close()
        finally:
            await web.stop()


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # SQLite's feed has no connection to lose
async def test_live_updates_survive_a_lost_database_connection(database: str) -> None:
    """PostgreSQL: when the listening connection is cut, the store listens again, looks at every
    watched table again (a page is told only what changed meanwhile), and hears the next move."""
    import asyncpg

    async with running_referee(database, ManualClock(1_000_000.0)) as referee:
        web = WebServer(referee.store, port=0)
        await web.start()
        referee.public_url = f"http://127.0.0.1:{web.port}"
        try:
            path = await open_table(referee, "tronimoes")
            listening = referee.store._listening  # type: ignore[attr-defined]
            async with aiohttp.ClientSession() as session, \
                    session.get(f"http://127.0.0.1:{web.port}{path}/live") as stream:
                await stream.content.readuntil(b"\n\n")
                killer = await asyncpg.connect(database.split("?")[0])
                await killer.execute("SELECT pg_terminate_backend($1)", listening.get_server_pid())
                await killer.close()
                for _ in range(200):  # the store listens again (and composes every watched table's update)
                    if referee.store._listening not in (None, listening):  # type: ignore[attr-defined]
                        break
                    await asyncio.sleep(0.05)
                await play_moves(referee, "tronimoes", 1)
                message = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
            assert b'"last": 1' in message
        finally:
            await web.stop()


@pytest.mark.parametrize(("name", "english", "spanish"), [
    ("tronimoes", "tiles", "fichas"), ("triominoes", "tiles", "fichas"), ("tronix", "cards", "cartas"),
    ("tetromic", "pieces", "piezas")])
async def test_a_page_counts_each_games_own_pieces_in_the_tables_language(site: Site, name: str, english: str,
                                                                          spanish: str) -> None:
    for place, lang, noun, others in (("test:en", "en", english, {"tiles", "cards", "pieces"} - {english}),
                                      ("test:es", "es", spanish, {"fichas", "cartas", "piezas"} - {spanish})):
        path = await open_table(site.referee, name, place=place, options=f"lang={lang}")
        await play_moves(site.referee, name, 2, place=place)
        _status, _headers, body = await fetch(site, path)
        hands = re.findall(r"<td>(\d+ \w+)</td>", body.decode())
        assert hands and all(h.endswith((noun, noun[:-1])) for h in hands), (lang, hands)
        assert not any(word in body.decode() for word in others), (lang, others)


async def test_a_spanish_page_writes_moves_in_spanish_notation_and_names_the_shuffled_pieces(site: Site) -> None:
    path = await open_table(site.referee, "tronix", options="lang=es")
    await play_moves(site.referee, "tronix", 3)
    assert (await site.referee.rollback(PLACE, MOD, 2)).ok
    _status, _headers, body = await fetch(site, path)
    html = body.decode()
    assert "<code>poner " in html and "<code>play " not in html, html
    assert "⏪ la partida se hizo retroceder hasta aquí" in html and "ficha" not in html  # every card is dealt
    path = await open_table(site.referee, "tetromic", options="lang=es", place="test:pieces")
    await play_moves(site.referee, "tetromic", 3, place="test:pieces")
    assert (await site.referee.rollback("test:pieces", MOD, 2)).ok
    _status, _headers, body = await fetch(site, path)
    assert "se volvieron a barajar las piezas que nadie ha visto" in body.decode()


async def test_a_failed_request_is_logged_by_its_route_never_by_its_token(site: Site, caplog, monkeypatch) -> None:
    path = await open_table(site.referee, "tronimoes")
    token = path.rsplit("/", 1)[1]

    async def broken(_token: str) -> None:
        raise RuntimeError("the database is gone")

    monkeypatch.setattr(site.web.store, "table_by_token", broken)
    status, _headers, _body = await fetch(site, f"{path}/part")
    assert status == 500
    failed = [r for r in caplog.records if r.name == "bot.adapters.web.server"]
    assert [r.getMessage() for r in failed] == ["web request /t/{token}/part failed"]
    assert all(token not in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("name", sorted(GAMES))
async def test_the_board_pictures_text_alternative_is_the_board_in_words(site: Site, name: str) -> None:
    path = await open_table(site.referee, name)
    await play_moves(site.referee, name, 6)
    view = await site.referee.view(PLACE)
    assert view is not None
    game = view[1]
    _status, _headers, body = await fetch(site, path)
    alt = re.search(r'<img class="whole"[^>]* alt="([^"]*)"', body.decode())
    assert alt is not None
    prefix = f"The board after move {len(game.log)} of {len(game.log)}."
    words = renderers.describe_within(game, 1024 - len(prefix) - 1)
    assert alt.group(1) == escape(f"{prefix} {words}")
    assert len(prefix) + 1 + len(words) <= 1024


async def test_the_board_picture_of_a_palette_mono_table_is_in_greys(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes", options="palette=mono")
    await play_moves(site.referee, "tronimoes", 3)
    status, headers, body = await fetch(site, f"{path}/board.png")
    image = Image.open(io.BytesIO(body)).convert("RGB")
    assert status == 200 and headers["Content-Type"] == "image/png"
    assert all(r == g == b for _, (r, g, b) in image.getcolors(1 << 20) or [])


async def test_the_page_marks_a_player_a_stand_in_plays_for_now_and_not_in_past_positions(site: Site) -> None:
    seated = [User(f"test:p{i}", f"Player{i}") for i in range(3)]
    reply = await site.referee.create(PLACE, seated[0], "tronimoes", turn_time="1h")
    for user in seated[1:]:
        assert (await site.referee.join(PLACE, user)).ok
    assert (await site.referee.start(PLACE, seated[0])).ok
    link = re.search(r"https?://\S+(/t/[\w-]+)", reply.public.text if reply.public else "")
    assert link is not None
    path = link.group(1)
    table = await site.referee.table_at(PLACE)
    assert table is not None
    due = min(t.due for t in await site.referee.store.timers(table.id) if t.kind == DEADLINE)
    await site.clock.advance(due - site.clock.now() + 1)
    await site.referee.timers.idle()
    await site.referee.ai.idle()  # the stand-in has played
    _status, _headers, body = await fetch(site, path)
    assert body.decode().count("🤖 a stand-in plays (away)") == 1
    _status, _headers, past = await fetch(site, path + "?ply=0")
    assert "stand-in" not in past.decode()
