"""The pages' addresses and live updates: an address names the position it shows (a rollback
gives the same ply another address), an update carries only what changed (the new moves, the
new picture's address) and says from which move the list is replaced, a picture is drawn once
however many ask, another process's commit reaches the pages on SQLite too, `tileref web` serves
a database on its own, and bad requests get a 4xx without a traceback."""

from __future__ import annotations

import asyncio
import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest
from PIL import Image

from bot.adapters.web.server import WebServer
from bot.cli.web import default_processes, processes_setting, start_web_process
from bot.core.clock import ManualClock
from bot.media.watching import WebSettings
from bot.storage.sqlite import SQLiteStore
from tests.bot.adapters.web.conftest import PLACE, Site, open_table, play_moves, players
from tests.bot.referees import MOD, running_referee

PICTURE = re.compile(r'<img class="whole"[^>]*? src="(/t/[\w-]+/board/(\d+)-[0-9a-f]{16}\.png)"')


async def get(base: str, path: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    async with aiohttp.ClientSession() as session, session.request(method, base + path) as response:
        return response.status, dict(response.headers), await response.read()


async def next_change(stream: aiohttp.ClientResponse, seconds: float = 5) -> dict[str, object]:
    """The next `change` event's data (comments and the retry line skipped)."""
    while True:
        message = (await asyncio.wait_for(stream.content.readuntil(b"\n\n"), seconds)).decode()
        if "event: change" in message:
            return json.loads(message.split("data: ", 1)[1])


async def page_picture(site: Site, path: str) -> tuple[str, int]:
    _status, _headers, body = await get(site.base, path)
    found = PICTURE.search(body.decode())
    assert found, "the page shows a picture at an address naming its position"
    return found.group(1), int(found.group(2))


async def test_a_rollback_gives_the_same_ply_another_picture_address(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 4)
    before, ply = await page_picture(site, path)
    status, headers, body = await get(site.base, before)
    assert status == 200 and ply == 4 and "immutable" in headers["Cache-Control"]
    assert Image.open(io.BytesIO(body)).size[0] > 100
    assert (await site.referee.rollback(PLACE, MOD, 2)).ok
    await play_moves(site.referee, "tronimoes", 1, seed=5)  # ply 3 is the rollback's own entry: now at 4 again
    after, ply = await page_picture(site, path)
    assert ply == 4 and after != before
    status, _headers, again = await get(site.base, before)  # what an address names never changes
    assert status == 200 and again == body
    status, _headers, new_body = await get(site.base, after)
    assert status == 200 and new_body != body
    undone = re.sub(r"/4-[0-9a-f]{16}", "/4-" + "0" * 16, after)  # no log of this table had this digest
    status, _headers, body = await get(site.base, undone)
    assert status == 404 and b"rollback" in body and b"Traceback" not in body
    status, headers, _body = await get(site.base, f"{path}/board.png?ply=4")  # the old address form redirects
    assert status == 200


async def test_a_live_update_carries_only_the_new_move_and_the_new_pictures_address(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 6)
    _status, _headers, page = await get(site.base, path)
    at = re.search(r'data-at="([\w-]+)"', page.decode())
    assert at
    async with aiohttp.ClientSession() as session, \
            session.get(f"{site.base}{path}/live", params={"at": at.group(1)}) as stream:
        await stream.content.readuntil(b"\n\n")
        await asyncio.sleep(0.1)
        await play_moves(site.referee, "tronimoes", 1, seed=1)
        change = await next_change(stream)
    assert change["last"] == 7 and change["from"] == 7
    items = str(change["items"])
    assert items.count("<li ") == 1 and 'value="7"' in items, "only the new move, not the whole list"
    assert re.fullmatch(rf"{path}/board/7-[0-9a-f]{{16}}\.png", str(change["picture"]))
    assert change["ended"] is False and "<table>" in str(change["players"])
    status, headers, _body = await get(site.base, str(change["picture"]))
    assert status == 200 and headers["Content-Type"] == "image/png"


async def test_after_a_rollback_the_update_replaces_the_list_from_where_the_log_changed(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 5)
    async with aiohttp.ClientSession() as session, session.get(f"{site.base}{path}/live") as stream:
        await stream.content.readuntil(b"\n\n")
        await asyncio.sleep(0.1)
        assert (await site.referee.rollback(PLACE, MOD, 2)).ok
        change = await next_change(stream)
    assert change["from"] == 3 and change["last"] == 3, change  # moves 3–5 undone; 3 is now the rollback's entry
    assert str(change["items"]).count("<li ") == 1 and "shuffled again" in str(change["items"])


async def test_a_page_that_comes_back_is_told_only_what_it_missed(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 3)
    _status, _headers, page = await get(site.base, path)
    at = re.search(r'data-at="([\w-]+)"', page.decode())
    assert at
    await play_moves(site.referee, "tronimoes", 2, seed=2)  # while the page was away
    async with aiohttp.ClientSession() as session, \
            session.get(f"{site.base}{path}/live", headers={"Last-Event-ID": at.group(1)}) as stream:
        change = await next_change(stream)
    assert (change["from"], change["last"]) == (4, 5) and str(change["items"]).count("<li ") == 2


async def test_every_open_stream_gets_each_update_and_a_closed_one_is_forgotten(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 2)
    async with aiohttp.ClientSession() as session:
        streams = [await session.get(f"{site.base}{path}/live") for _ in range(20)]
        for stream in streams:
            await stream.content.readuntil(b"\n\n")  # the retry line: the stream is open
        await until_true(lambda: site.web.feed.streams == 20)
        await play_moves(site.referee, "tronimoes", 1, seed=3)
        changes = await asyncio.gather(*(next_change(stream) for stream in streams))
        assert {change["last"] for change in changes} == {3}
        assert len({json.dumps(change, sort_keys=True) for change in changes}) == 1, "one update, the same bytes"
        for stream in streams[10:]:
            stream.close()
        await until_true(lambda: site.web.feed.streams == 10)
        await play_moves(site.referee, "tronimoes", 1, seed=4)
        changes = await asyncio.gather(*(next_change(stream) for stream in streams[:10]))
        assert {change["last"] for change in changes} == {4}
        for stream in streams[:10]:
            stream.close()
        await until_true(lambda: site.web.feed.streams == 0)


async def test_a_browser_asking_again_for_a_picture_it_has_is_told_304_without_it(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 2)
    picture, _ply = await page_picture(site, path)
    async with aiohttp.ClientSession() as session:
        async with session.get(site.base + picture) as first:
            body, tag = await first.read(), first.headers["ETag"]
            assert first.status == 200 and body[:4] == b"\x89PNG" and tag
        async with session.get(site.base + picture, headers={"If-None-Match": tag}) as again:
            assert again.status == 304 and await again.read() == b""
            assert again.headers["ETag"] == tag and "immutable" in again.headers["Cache-Control"]
        async with session.get(site.base + picture, headers={"If-None-Match": '"1-0000000000000000"'}) as other:
            assert other.status == 200 and await other.read() == body


async def until_true(condition: Callable[[], bool], seconds: float = 5) -> None:
    for _ in range(int(seconds * 20)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"still false after {seconds} s")


async def test_a_picture_many_pages_ask_for_at_once_is_drawn_once_and_kept_on_disk(tmp_path: Path) -> None:
    async with running_referee(tmp_path / "tileref.sqlite3", ManualClock(1_000_000.0)) as referee:
        web = WebServer(referee.store, port=0, cache=tmp_path / "cache")
        await web.start()
        referee.public_url = f"http://127.0.0.1:{web.port}"
        try:
            path = await open_table(referee, "triominoes")
            await play_moves(referee, "triominoes", 3)
            site = Site(referee, web, ManualClock(0))
            picture, _ply = await page_picture(site, path)
            answers = await asyncio.gather(*(get(site.base, picture) for _ in range(40)))
            assert {status for status, _h, _b in answers} == {200} and len({b for _s, _h, b in answers}) == 1
            assert web.pictures.drawn == 1
        finally:
            await web.stop()
        assert len(list((tmp_path / "cache").rglob("*.png"))) == 1
        again = WebServer(referee.store, port=0, cache=tmp_path / "cache")  # a restart: read back, not drawn
        await again.start()
        try:
            status, _headers, _body = await get(f"http://127.0.0.1:{again.port}", picture)
            assert status == 200 and again.pictures.drawn == 0
        finally:
            await again.stop()


async def test_a_move_another_process_commits_to_the_sqlite_file_reaches_the_pages(tmp_path: Path) -> None:
    """The web server's store is not the referee's: only SQLite's change counter can tell it."""
    database = tmp_path / "tileref.sqlite3"
    async with running_referee(database, ManualClock(1_000_000.0), render=False) as referee:
        pages_store = SQLiteStore(database)
        await pages_store.open()
        web = WebServer(pages_store, port=0)
        await web.start()
        referee.public_url = f"http://127.0.0.1:{web.port}"
        try:
            path = await open_table(referee, "tronimoes")
            async with aiohttp.ClientSession() as session, \
                    session.get(f"http://127.0.0.1:{web.port}{path}/live") as stream:
                await stream.content.readuntil(b"\n\n")
                await asyncio.sleep(0.2)
                await play_moves(referee, "tronimoes", 1)
                change = await next_change(stream)
            assert change["last"] == 1 and change["from"] == 1
        finally:
            await web.stop()
            await pages_store.close()


async def test_tileref_web_serves_a_finished_terminal_game_on_its_own(tmp_path: Path) -> None:
    database = tmp_path / "tileref.sqlite3"
    async with running_referee(database, ManualClock(1_000_000.0)) as referee:
        referee.public_url = "http://placeholder"
        path = await open_table(referee, "tromino_go")
        await play_moves(referee, "tromino_go", 2)
        await referee.resign(PLACE, players("tromino_go")[0])  # unless two passes ended it already
        table = await referee.table_at(PLACE)
        assert table is not None and table.status == "finished"
    process = await start_web_process(str(database), WebSettings("127.0.0.1", 0, ""))
    try:
        status, _headers, body = await get(process.public_url, path)
        assert status == 200 and 'data-ended="1"' in body.decode()
        status, _headers, body = await get(process.public_url, "/healthz")
        assert status == 200 and json.loads(body)["ok"] is True
    finally:
        await process.stop()
    assert process.process.returncode == 0


async def test_other_methods_are_refused_with_allow_and_a_trailing_slash_works(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    for method in ("POST", "PUT", "DELETE"):
        status, headers, body = await get(site.base, path, method)
        assert status == 405 and set(headers["Allow"].split(", ")) == {"GET", "HEAD"}, method
        assert b"GET or HEAD" in body
    status, _headers, _body = await get(site.base, path, "HEAD")
    assert status == 200
    status, _headers, body = await get(site.base, f"{path}/?ply=0")
    assert status == 200 and b'data-ply="0"' in body


@pytest.mark.parametrize("request_bytes", [
    b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /té HTTP/1.1\r\nHost: x\r\n\r\n".encode("latin-1"),
    b"\xff\xfe\x00 GARBAGE\r\n\r\n",
    b"GET / HTTP/1.1\r\nX-Long: " + b"b" * 20_000 + b"\r\n\r\n"])
async def test_a_request_that_is_not_http_gets_400_and_logs_no_traceback(site: Site, request_bytes: bytes,
                                                                         caplog: pytest.LogCaptureFixture) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", site.web.port)
    writer.write(request_bytes)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(100), 5)
    writer.close()
    assert answer.startswith(b"HTTP/1.") and b" 400 " in answer[:20]
    assert not [r for r in caplog.records if r.exc_info or r.levelname in ("ERROR", "CRITICAL")]


async def test_a_keyed_address_with_other_digits_is_refused(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    for bad in ("²-00", "١-00", "９-00", "9" * 5_000 + "-00", "-1-00"):
        for kind in ("board", "position"):
            suffix = "png" if kind == "board" else "json"
            status, _headers, body = await get(site.base, f"{path}/{kind}/{bad}.{suffix}")
            assert status == 400 and b"0 (the start)" in body, (kind, bad)


async def test_two_web_processes_share_one_port_and_each_serves_the_pages(tmp_path: Path) -> None:
    database = tmp_path / "tileref.sqlite3"
    async with running_referee(database, ManualClock(1_000_000.0)) as referee:
        referee.public_url = "http://placeholder"
        path = await open_table(referee, "tronimoes")
        await play_moves(referee, "tronimoes", 2)
    web = await start_web_process(str(database), WebSettings("127.0.0.1", 0, ""), processes=2)
    try:
        assert len({process.pid for process in web.processes}) == 2
        assert all(process.returncode is None for process in web.processes)
        answers = await asyncio.gather(*(get(web.public_url, path) for _ in range(20)))
        assert {status for status, _headers, _body in answers} == {200}
    finally:
        await web.stop()
    assert [process.returncode for process in web.processes] == [0, 0]


@pytest.mark.parametrize("text", ["0", "17", "²", "two", "1.5", "9" * 5_000])
def test_a_number_of_web_processes_that_is_not_1_to_16_is_refused_saying_what_to_write(text: str) -> None:
    with pytest.raises(ValueError, match="TILEREF_WEB_PROCESSES must be a whole number of processes from 1 to 16"):
        processes_setting(text)
    assert processes_setting("2") == 2


def test_tileref_run_starts_a_web_process_a_core_unless_told() -> None:
    import os

    assert processes_setting("") == processes_setting(None) == default_processes()
    assert default_processes() == min(16, len(os.sched_getaffinity(0)))  # these tests run on Linux
    assert processes_setting("1") == 1


def test_tileref_run_refuses_a_wrong_number_of_web_processes_before_connecting(monkeypatch, capsys) -> None:
    from bot.cli.main import main

    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("TILEREF_WEB_PROCESSES", "０")
    assert main(["run"]) == 2
    assert "TILEREF_WEB_PROCESSES must be a whole number of processes from 1 to 16, like 2" in capsys.readouterr().err


def test_nothing_the_web_process_logs_reaches_a_terminal_games_screen(tmp_path: Path) -> None:
    """Bad requests to a terminal game's pages (a raw line too long, a ply in other digits, a
    POST) are answered and logged by the web process into web.log, never onto the game."""
    import os
    import socket
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(TILEREF_DATABASE=str(tmp_path / "cli.sqlite3"), TILEREF_WEB="127.0.0.1:0", PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-m", "bot", "--verbose", "play", "tronimoes", "--players",
                                "me,random", "--ai-seconds", "0"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        assert process.stdout is not None
        link = ""
        while not link:
            line = process.stdout.readline()
            assert line, "the game printed its page's link"
            if "Watch it live and replay it on the web:" in line:
                link = line.split(": ", 1)[1].strip()
        host, port = link.split("//", 1)[1].split("/", 1)[0].split(":")
        with socket.create_connection((host, int(port))) as raw:
            raw.sendall(b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\n\r\n")
            assert b" 400 " in raw.recv(100)
        for address, method in ((f"{link}?ply=%C2%B2", "GET"), (link, "POST")):
            with pytest.raises(urllib.error.HTTPError):
                urllib.request.urlopen(urllib.request.Request(address, method=method), timeout=10)
        out, err = process.communicate("quit\n", timeout=60)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 0
    for said in (out, err):
        assert "Traceback" not in said and "aiohttp" not in said and "spectator pages at" not in said, said
    assert "spectator pages at" in (tmp_path / "web.log").read_text()


async def test_web_processes_that_share_a_pictures_folder_draw_each_picture_once(tmp_path: Path) -> None:
    async with running_referee(tmp_path / "tileref.sqlite3", ManualClock(1_000_000.0)) as referee:
        servers = [WebServer(referee.store, port=0, cache=tmp_path / "cache") for _ in range(2)]
        for server in servers:
            await server.start()
        referee.public_url = f"http://127.0.0.1:{servers[0].port}"
        try:
            path = await open_table(referee, "tronix")
            await play_moves(referee, "tronix", 2)
            picture, _ply = await page_picture(Site(referee, servers[0], ManualClock(0)), path)
            answers = await asyncio.gather(*(get(f"http://127.0.0.1:{server.port}", picture)
                                             for server in servers for _ in range(5)))
            assert {status for status, _h, _b in answers} == {200} and len({b for _s, _h, b in answers}) == 1
            assert sum(server.pictures.drawn for server in servers) == 1
        finally:
            for server in servers:
                await server.stop()


async def test_a_web_process_that_dies_is_started_again(tmp_path: Path) -> None:
    database = tmp_path / "tileref.sqlite3"
    async with running_referee(database, ManualClock(1_000_000.0)) as referee:
        referee.public_url = "http://placeholder"
        path = await open_table(referee, "tronimoes")
    web = await start_web_process(str(database), WebSettings("127.0.0.1", 0, ""))
    supervising = asyncio.create_task(web.supervise())
    try:
        first = web.process.pid
        web.process.kill()
        for _ in range(200):
            if web.process.pid != first and web.process.returncode is None:
                break
            await asyncio.sleep(0.05)
        assert web.process.pid != first, "a new process took its place"
        status, _headers, _body = await get(web.public_url, path)  # at the same address
        assert status == 200
    finally:
        supervising.cancel()
        await web.stop()
