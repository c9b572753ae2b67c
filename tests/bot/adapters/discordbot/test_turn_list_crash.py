"""The standing list of turns survives a real bot process killed with SIGKILL: killed between a
move's commit and the list's edit, the next process edits it (the outbox kept the note); killed
after Discord created the list's message and before the bot stored where it is, the next process
does not post a second one (the same nonce, which Discord enforces)."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.bot.adapters.discordbot.bot_process import spawn, started_two_player_table, stop
from tests.standin import DiscordStandIn, RecordedMessage, User


def start_bot(s: DiscordStandIn, database: Path) -> subprocess.Popen[bytes]:
    return spawn(s.api_base, s.gateway_url, database, s.guild.id, s.token)


@pytest.fixture
async def standin():
    async with DiscordStandIn(default_timeout=20) as s:
        yield s


def lists(s: DiscordStandIn, user: User) -> list[RecordedMessage]:
    """The bot's own messages in its DM with `user` (every version), answers to commands aside."""
    channel = s.dm_channel(user)
    return [] if channel is None else [m for m in s.messages if m.channel_id == channel.id
                                       and m.interaction_id is None and not m.ephemeral]


def undelivered(database: Path) -> int:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL").fetchone()[0]


async def kill(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGKILL)
    await asyncio.to_thread(process.wait, 10)


async def test_a_list_whose_edit_a_sigkill_interrupted_is_edited_after_the_restart(standin, tmp_path):
    s = standin
    database = tmp_path / "tileref.sqlite3"
    first = start_bot(s, database)
    try:
        await s.wait_for_connection()
        await (await s.slash(s.bob, s.channel, "notify list", keep="on")).reply()
        (posted,) = [m for m in lists(s, s.bob) if m.kind == "create"]
        thread, mover = await started_two_player_table(s, "tromino_go")
        jump = f"https://discord.com/channels/{s.guild.id}/{thread.id}"
        await s.wait_until(lambda: (jump in lists(s, s.bob)[-1].content) == (mover is s.bob), timeout=20,
                           what="bob's list as the game starts")
        move = (await s.autocomplete(mover, thread, "move", text=""))[0]["value"]
        hold = s.hold("PATCH", rf"/channels/{posted.channel_id}/messages/{posted.id}")
        await s.slash(mover, thread, "move", text=move)
        await asyncio.wait_for(hold.reached.wait(), 20)  # committed; the list's edit is on its way
        await kill(first)
        hold.release()
    finally:
        first.kill()

    second = start_bot(s, database)
    try:
        await s.wait_for_connection(after=1)
        await s.wait_until(lambda: (jump in lists(s, s.bob)[-1].content) == (mover is s.alice), timeout=20,
                           what="bob's list edited after the restart")
        await s.wait_until(lambda: undelivered(database) == 0, timeout=20, what="the outbox to empty")
        assert [m.id for m in lists(s, s.bob) if m.kind == "create"] == [posted.id]
    finally:
        stop(second)


async def test_a_list_created_just_before_a_sigkill_is_not_posted_twice(standin, tmp_path):
    s = standin
    database = tmp_path / "tileref.sqlite3"
    first = start_bot(s, database)
    try:
        await s.wait_for_connection()
        dm = s.dm(s.bob)
        hold = s.hold("POST", rf"/channels/{dm.id}/messages", after=True)
        await s.slash(s.bob, s.channel, "notify list", keep="on")
        await asyncio.wait_for(hold.reached.wait(), 20)  # Discord has it; the bot does not know where
        await kill(first)
        hold.release()
    finally:
        first.kill()
    (posted,) = [m for m in lists(s, s.bob) if m.kind == "create"]

    second = start_bot(s, database)
    try:
        await s.wait_for_connection(after=1)
        thread, _mover = await started_two_player_table(s, "tromino_go")  # a change to bob's list, if he moves first
        jump = f"https://discord.com/channels/{s.guild.id}/{thread.id}"
        game_waits_for_bob = _mover is s.bob
        if not game_waits_for_bob:  # then alice's first move makes the game wait for him
            move = (await s.autocomplete(s.alice, thread, "move", text=""))[0]["value"]
            await (await s.slash(s.alice, thread, "move", text=move)).replies(1)
        await s.wait_until(lambda: jump in lists(s, s.bob)[-1].content, timeout=20, what="bob's list to show it")
        assert s.nonce_repeats == [posted.id]  # created again with its nonce: Discord gave the first back
        assert [m.id for m in lists(s, s.bob) if m.kind == "create"] == [posted.id]
        assert lists(s, s.bob)[-1].id == posted.id
    finally:
        stop(second)
