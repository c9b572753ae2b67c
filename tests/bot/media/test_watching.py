"""Web settings and links: TILEREF_WEB and TILEREF_PUBLIC_URL are read or refused with what to
write; a table keeps one token; without a web server the referee says there is no link."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.clock import ManualClock
from bot.media.watching import WebSettings, WebSettingsError, page_link
from tests.bot.referees import ALICE, PLACE, running_referee


def test_web_listens_on_localhost_8080_by_default() -> None:
    settings = WebSettings.from_env({})
    assert (settings.host, settings.port, settings.public_url) == ("127.0.0.1", 8080, "http://127.0.0.1:8080")


def test_web_can_be_turned_off_and_given_a_public_address() -> None:
    assert not WebSettings.from_env({"TILEREF_WEB": "off"}).enabled
    settings = WebSettings.from_env({"TILEREF_WEB": "0.0.0.0:9000", "TILEREF_PUBLIC_URL": "https://watch.example/"})
    assert (settings.host, settings.port, settings.public_url) == ("0.0.0.0", 9000, "https://watch.example")


@pytest.mark.parametrize("env", [{"TILEREF_WEB": "8080"}, {"TILEREF_WEB": "localhost:http"},
                                 {"TILEREF_WEB": "localhost:70000"}, {"TILEREF_PUBLIC_URL": "watch.example"}])
def test_unusable_web_settings_say_what_to_write(env: dict[str, str]) -> None:
    with pytest.raises(WebSettingsError, match="like"):
        WebSettings.from_env(env)


async def test_a_table_keeps_its_one_token(database: str) -> None:
    async with running_referee(database, ManualClock()) as referee:
        assert (await referee.create(PLACE, ALICE, "tronimoes")).ok
        table = await referee.store.table_at(PLACE)
        assert table is not None
        first = await page_link(referee.store, table.id, "https://w.example")
        assert first == await page_link(referee.store, table.id, "https://w.example")
        found = await referee.store.table_by_token(first.rsplit("/", 1)[1])
        assert found is not None and found.id == table.id
        assert await referee.store.table_by_token("not-a-token") is None


async def test_without_a_web_server_watch_says_there_is_no_link(tmp_path: Path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        reply = await referee.create(PLACE, ALICE, "tronimoes")
        assert "/t/" not in (reply.public.text if reply.public else "")
        reply = await referee.watch(PLACE, ALICE)
        assert not reply.ok and "web server is off" in (reply.caller.text if reply.caller else "")
