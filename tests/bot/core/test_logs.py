"""Logs with context: the JSON and plain formats, the scope of a command (its fields, outcome and
duration), and what is blanked before a line is written."""

from __future__ import annotations

import asyncio
import io
import json
import logging

import pytest

from bot.core import logs

TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.abcdefghijklmnopqrstuvwxyz0123"


@pytest.fixture
def configured(monkeypatch, configured_logs):
    """`configure` at DEBUG into a buffer (`configured_logs`), with a Discord token in the
    environment. Call it with the format wanted."""
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    return configured_logs


def json_lines(buffer: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in buffer.getvalue().splitlines()]


def test_a_json_line_names_the_server_table_place_and_command_and_the_end_says_how_long(configured):
    buffer = configured("json")
    with logs.scope("act", server="discord:1", place="discord:99"):
        logs.note(table=12)
        logging.getLogger("bot.test").warning("something %s", "odd")
    said, ended = json_lines(buffer)
    assert said["time"].endswith("+00:00") and "T" in said["time"]
    assert {k: said[k] for k in ("level", "logger", "message", "server", "table", "place", "command")} == {
        "level": "WARNING", "logger": "bot.test", "message": "something odd", "server": "discord:1", "table": 12,
        "place": "discord:99", "command": "act"}
    assert "duration_ms" not in said and "exception" not in said
    assert ended["logger"] == "bot.commands" and ended["outcome"] == "ok" and ended["table"] == 12
    assert isinstance(ended["duration_ms"], float) and ended["duration_ms"] >= 0


def test_outside_a_scope_the_fields_are_null_and_notes_are_not_kept(configured):
    buffer = configured("json")
    logs.note(table=5)
    try:
        raise ValueError("broken")
    except ValueError:
        logging.getLogger("bot.test").exception("failed")
    [line] = json_lines(buffer)
    assert (line["server"], line["table"], line["place"], line["command"]) == (None, None, None, None)
    assert "ValueError: broken" in line["exception"]


def test_the_outcome_is_what_the_command_said_or_error_when_it_raised(configured):
    buffer = configured("json")
    with logs.scope("join"):
        logs.outcome("refused")
    with pytest.raises(RuntimeError), logs.scope("start"):
        raise RuntimeError
    with logs.scope("board"):
        pass
    assert [(line["command"], line["outcome"]) for line in json_lines(buffer)] == [
        ("join", "refused"), ("start", "error"), ("board", "ok")]


def test_an_inner_scope_keeps_the_adapters_command_name_and_a_fresh_one_keeps_nothing(configured):
    buffer = configured("json")
    with logs.scope("/move", server="discord:1", timed=False):
        with logs.scope("act"):
            pass
        with logs.scope("ai turn", table=3, fresh=True):
            pass
    inner, fresh = json_lines(buffer)
    assert (inner["command"], inner["server"]) == ("/move", "discord:1")
    assert (fresh["command"], fresh["server"], fresh["table"]) == ("ai turn", None, 3)
    assert logs.current() == logs.NO_CONTEXT


async def test_tasks_keep_their_own_context(configured):
    buffer = configured("json")

    async def command(table: int) -> None:
        with logs.scope("act"):
            logs.note(table=table)
            await asyncio.sleep(0)
            logging.getLogger("bot.test").info("moved")

    await asyncio.gather(command(1), command(2))
    moved = [line["table"] for line in json_lines(buffer) if line["message"] == "moved"]
    assert sorted(moved) == [1, 2]


def test_the_plain_line_names_the_table_and_command_in_brackets(configured):
    buffer = configured("plain")
    with logs.scope("resign", timed=False):
        logs.note(table=7)
        logging.getLogger("bot.test").info("hello")
    logging.getLogger("bot.test").info("bye")
    first, second = buffer.getvalue().splitlines()
    assert first.endswith("INFO bot.test [table 7 resign]: hello"), first
    assert second.endswith("INFO bot.test: bye"), second


def test_the_format_comes_from_tileref_log_format():
    assert logs.wanted_format({"TILEREF_LOG_FORMAT": "json"}) == "json"
    assert logs.wanted_format({"TILEREF_LOG_FORMAT": " JSON "}) == "json"
    assert logs.wanted_format({"TILEREF_LOG_FORMAT": "text"}) == "plain"
    assert logs.wanted_format({}) == "plain"


def test_tokens_are_blanked_before_a_line_is_written(configured):
    buffer = configured("json")
    log = logging.getLogger("discord.http")
    log.warning("POST https://discord.com/api/v10/interactions/1234/%s/callback has returned 429",
                "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OTA6")
    log.warning("PATCH https://discord.com/api/v10/webhooks/99/aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEy/messages/@original")
    logging.getLogger("bot.test").error("the token is %s", TOKEN)
    logging.getLogger("bot.test").error("GET /t/yrx1T3EAZOpVCBfcLAiM1_jN/part failed")
    written = buffer.getvalue()
    for secret in ("aW50ZXJhY3Rpb246", TOKEN, "yrx1T3EAZOpVCBfcLAiM1_jN"):
        assert secret not in written
    assert [line["message"] for line in json_lines(buffer)] == [
        "POST https://discord.com/api/v10/interactions/1234/<token>/callback has returned 429",
        "PATCH https://discord.com/api/v10/webhooks/99/<token>/messages/@original",
        "the token is <token>", "GET /t/<token>/part failed"]


def test_libraries_whose_debug_lines_hold_bodies_or_parameters_stay_at_info(configured):
    buffer = configured("json")
    logging.getLogger("aiosqlite").debug("executing INSERT ... ('chance 918273645',)")
    logging.getLogger("discord.http").debug("POST ... with {'content': 'your hand: 3:5'} has returned 200")
    logging.getLogger("discord.gateway").debug("For Shard ID 0: WebSocket Event: {...}")
    logging.getLogger("bot.test").debug("ours are kept")
    assert [line["message"] for line in json_lines(buffer)] == ["ours are kept"]
