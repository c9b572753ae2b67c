"""A real bot process killed with SIGKILL just after committing a move, before it could answer:
after a restart the move is announced all the same (the outbox), as a message in the thread
since the interaction has long expired."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.bot.adapters.discordbot.bot_process import spawn, started_two_player_table, stop
from tests.standin import DiscordStandIn


def start_bot(s: DiscordStandIn, database: Path) -> subprocess.Popen[bytes]:
    return spawn(s.api_base, s.gateway_url, database, s.guild.id, s.token)


def last_action(database: Path) -> str | None:
    with sqlite3.connect(database) as db:
        row = db.execute("SELECT action FROM actions WHERE undone = 0 ORDER BY id DESC LIMIT 1").fetchone()
    return row[0] if row else None


@pytest.fixture
async def standin():
    async with DiscordStandIn(default_timeout=20) as s:
        yield s


async def test_a_move_committed_just_before_a_sigkill_is_announced_after_the_restart(standin, tmp_path):
    s = standin
    database = tmp_path / "tileref.sqlite3"
    first = start_bot(s, database)
    try:
        await s.wait_for_connection()
        thread, mover = await started_two_player_table(s)
        move = (await s.autocomplete(mover, thread, "move", text=""))[0]["value"]

        hold = s.hold("POST", r"/interactions/\d+/[^/]+/callback")
        await s.slash(mover, thread, "move", text=move)
        await asyncio.wait_for(hold.reached.wait(), 20)
        for _ in range(200):  # a busy machine may defer the answer first: the commit follows at once
            if last_action(database) == move:
                break
            await asyncio.sleep(0.05)
        assert last_action(database) == move  # committed; the answer is on its way
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        hold.release()
    finally:
        first.kill()

    mark = s.mark()
    second = start_bot(s, database)
    try:
        await s.wait_for_connection(after=1)
        def announced(m) -> bool:  # the move may be a lay or a draw: the board it announces
            return m.channel_id == thread.id and not m.ephemeral and bool(m.png_images())

        announcement = await s.wait_for_message(thread, announced, since=mark, timeout=20)
        assert announcement.png_images() and announcement.button("Show hand")
        assert not announcement.ephemeral and mover.name in announcement.content
        other = s.bob if mover is s.alice else s.alice
        assert {int(u["id"]) for u in announcement.payload["mentions"]} <= {other.id}
        await asyncio.sleep(1.5)  # a sweep or two later: sent once
        assert len([m for m in s.messages[mark:] if m.kind == "create" and announced(m)]) == 1
    finally:
        stop(second)


async def test_an_announcement_posted_just_before_a_sigkill_is_not_posted_again(standin, tmp_path):
    """The kill falls after Discord created the move's announcement and before the bot could
    confirm it: the next process sends it again, with the same nonce, and Discord (the stand-in)
    answers with the first message instead of posting a second."""
    s = standin
    database = tmp_path / "tileref.sqlite3"
    first = start_bot(s, database)
    try:
        await s.wait_for_connection()
        thread, mover = await started_two_player_table(s)
        move = (await s.autocomplete(mover, thread, "move", text=""))[0]["value"]

        hold = s.hold("POST", rf"/channels/{thread.id}/messages", after=True)
        mark = s.mark()
        await s.say(mover, thread, move)  # a typed move: announced in the thread, with its nonce
        await asyncio.wait_for(hold.reached.wait(), 20)
        posted = [m for m in s.messages[mark:] if m.kind == "create" and m.channel_id == thread.id]
        assert len(posted) == 1 and posted[0].png_images()  # Discord has it; the bot does not know yet
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        hold.release()
    finally:
        first.kill()

    second = start_bot(s, database)
    try:
        await s.wait_for_connection(after=1)
        for _ in range(200):  # the outbox sends it again once the dead process's lease is over
            if s.nonce_repeats:
                break
            await asyncio.sleep(0.1)
        assert s.nonce_repeats == [posted[0].id]  # sent again, and answered with the first message
        await asyncio.sleep(1.5)  # a sweep or two later
        again = [m for m in s.messages[mark:] if m.kind == "create" and m.channel_id == thread.id]
        assert [m.id for m in again] == [posted[0].id]  # posted once
        with sqlite3.connect(database) as db:
            assert db.execute("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL").fetchone()[0] == 0
    finally:
        stop(second)


async def test_a_move_answered_just_before_a_sigkill_is_not_announced_again(standin, tmp_path):
    """The kill falls after Discord posted the answer to `/move` (the announcement) and before
    the bot could confirm it. An interaction's answer carries no nonce, so the next process looks
    for it in the thread before sending the announcement again: it is there, so it is not posted
    twice."""
    s = standin
    database = tmp_path / "tileref.sqlite3"
    first = start_bot(s, database)
    try:
        await s.wait_for_connection()
        thread, mover = await started_two_player_table(s)
        move = (await s.autocomplete(mover, thread, "move", text=""))[0]["value"]

        mark = s.mark()
        answering = r"/interactions/\d+/[^/]+/callback|/webhooks/\d+/[^/]+"
        holds = [s.hold("POST", answering, after=True) for _ in range(2)]  # a busy bot defers first
        await s.slash(mover, thread, "move", text=move)

        def boards() -> list:
            return [m for m in s.messages[mark:] if m.channel_id == thread.id and not m.ephemeral
                    and m.png_images()]

        for _ in range(400):
            if boards():
                break
            if holds[0].reached.is_set() and not holds[0].released.is_set() and not boards():
                holds[0].release()  # only the "thinking…" acknowledgement: let the answer come
            await asyncio.sleep(0.05)
        assert len(boards()) == 1 and last_action(database) == move  # on Discord; not yet confirmed
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        for hold in holds:
            hold.release()
    finally:
        first.kill()

    second = start_bot(s, database)
    try:
        await s.wait_for_connection(after=1)
        for _ in range(200):  # the outbox takes the notice up once the dead process's lease is over
            with sqlite3.connect(database) as db:
                if db.execute("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL").fetchone()[0] == 0:
                    break
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.5)  # a sweep or two later
        assert len(boards()) == 1  # announced once
        with sqlite3.connect(database) as db:
            assert db.execute("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL").fetchone()[0] == 0
    finally:
        stop(second)
