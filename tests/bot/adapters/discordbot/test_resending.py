"""Before the outbox sends an announcement again it checks it is not out already: an announcement
older than Discord's nonce window is looked for in the thread by its text, so one that was posted
but never confirmed is not posted twice, and one that never went out is still posted."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

from bot.timers import ManualClock
from tests.bot.adapters.discordbot.harness import Harness, running
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
