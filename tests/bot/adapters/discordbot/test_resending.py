"""Before the outbox sends an announcement again it checks it is not out already: an announcement
older than Discord's nonce window is looked for in the thread by its text, so one that was posted
but never confirmed is not posted twice, and one that never went out is still posted."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from bot.core.clock import ManualClock
from tests.bot.adapters.discordbot.harness import Harness, confirmed, running
from tests.standin import Channel, DiscordStandIn, RecordedMessage


def unconfirm_last_announcement(database: Path) -> None:
    """As if the process died after posting the last announcement and before confirming it."""
    with sqlite3.connect(database) as db:
        db.execute("UPDATE outbox SET delivered_at = NULL, lease_until = 0 "
                   "WHERE id = (SELECT MAX(id) FROM outbox WHERE seat IS NULL)")


async def typed_move(tileref: Harness, thread: Channel) -> RecordedMessage:
    s = tileref.s
    game = await tileref.game(thread)
    seat = game.to_move()[0]
    user = (s.alice, s.bob)[seat]
    mark = s.mark()
    await s.say(user, thread, game.legal_actions(seat)[0])
    announced = await s.wait_for_message(thread, lambda m: m.png_images(), since=mark)
    table = await tileref.table(thread)
    for _ in range(100):  # confirmed just after it is posted
        if not await tileref.referee.store.pending_notices(table.id):
            break
        await asyncio.sleep(0.05)
    return announced


async def test_an_old_announcement_already_in_the_thread_is_not_posted_again(standin: DiscordStandIn,
                                                                             tmp_path: Path) -> None:
    s = standin
    database = tmp_path / "t.sqlite3"
    clock = ManualClock(start=time.time() - 600)  # the move was made ten minutes ago
    async with running(s, database, clock=clock) as tileref:
        await tileref.referee.outbox.stop()  # sweeps are made by hand below
        thread, _ = await tileref.open_table(s.alice, s.bob)
        announced = await typed_move(tileref, thread)
        unconfirm_last_announcement(database)
        s.nonces.clear()  # Discord has long forgotten its nonce
        mark = s.mark()
        await tileref.referee.outbox.sweep()
        await s.settle()
        assert [m for m in s.messages[mark:] if m.kind == "create" and m.channel_id == thread.id] == []
        assert await tileref.referee.store.pending_notices((await tileref.table(thread)).id) == []
        assert announced.png_images()

        s.deleted_message_ids.clear()
        await s.delete_message(s.stored[announced.id])  # this time it is not in the thread
        unconfirm_last_announcement(database)
        await tileref.referee.outbox.sweep()
        again = await s.wait_for_message(thread, lambda m: m.png_images(), since=mark)
        assert again.content == announced.content and again.id != announced.id


async def slash_move(tileref: Harness, thread: Channel) -> RecordedMessage:
    s = tileref.s
    game = await tileref.game(thread)
    seat = game.to_move()[0]
    return await (await s.slash((s.alice, s.bob)[seat], thread, "move", text=game.legal_actions(seat)[0])).reply()


async def answered(tileref: Harness, thread: Channel, leaving: int = 0) -> None:
    """Wait until the bot has confirmed what it delivered: `leaving` announcements left unconfirmed."""
    table = await tileref.table(thread)
    for _ in range(200):
        if len(await tileref.referee.store.pending_notices(table.id)) <= leaving:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the bot never confirmed its answers")


def notes(s: DiscordStandIn, thread: Channel, since: int) -> list[RecordedMessage]:
    return [m for m in s.messages[since:] if m.kind == "create" and m.channel_id == thread.id
            and "was not sent" in m.content]


@pytest.mark.parametrize(("path", "minutes_ago"), [("typed", 0), ("typed", 10), ("slash", 0), ("slash", 10)])
async def test_an_announcement_posted_before_a_crash_and_rolled_back_since_gets_no_false_note(
        standin: DiscordStandIn, tmp_path: Path, path: str, minutes_ago: int) -> None:
    """The process posted a move's announcement and died before confirming it; a moderator then
    rolled the move back. The outbox's note that the announcement "was not sent" would be false:
    it is not posted, whether the announcement went out with a nonce (typed), as a command's
    answer (slash), or so long ago that Discord has forgotten its nonce."""
    s = standin
    database = tmp_path / "t.sqlite3"
    clock = ManualClock(start=time.time() - 60 * minutes_ago)
    async with running(s, database, clock=clock) as tileref:
        await tileref.referee.outbox.stop()  # sweeps are made by hand below
        thread, _ = await tileref.open_table(s.alice, s.bob)
        announced = await (typed_move if path == "typed" else slash_move)(tileref, thread)
        await answered(tileref, thread)
        unconfirm_last_announcement(database)
        await clock.advance(1)
        preview, rolled = await confirmed(s, s.mod, thread, "mod rollback", to=0)
        assert "rolled the game back to move 0" in rolled.content
        await answered(tileref, thread, leaving=1)
        if minutes_ago:
            s.nonces.clear()  # Discord has long forgotten its nonce
        mark = s.mark()
        await tileref.referee.outbox.sweep()
        await s.settle()
        assert notes(s, thread, mark) == []
        assert await tileref.referee.store.pending_notices((await tileref.table(thread)).id) == []
        assert announced.png_images() and preview.ephemeral


async def test_an_announcement_never_posted_and_rolled_back_since_gets_its_note(standin: DiscordStandIn,
                                                                               tmp_path: Path) -> None:
    s = standin
    database = tmp_path / "t.sqlite3"
    async with running(s, database) as tileref:
        await tileref.referee.outbox.stop()
        thread, _ = await tileref.open_table(s.alice, s.bob)
        announced = await typed_move(tileref, thread)
        await s.delete_message(s.stored[announced.id])  # it never went out
        s.nonces.clear()
        unconfirm_last_announcement(database)
        await confirmed(s, s.mod, thread, "mod rollback", to=0)
        mark = s.mark()
        await tileref.referee.outbox.sweep()
        note = await s.wait_for_message(thread, lambda m: "was not sent" in m.content, since=mark)
        assert note.content == ("(The announcement of move 1 was not sent: a moderator has rolled the game back to "
                                "move 0 since.)")
