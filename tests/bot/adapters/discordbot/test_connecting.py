"""While discord.py is still getting ready (just after starting or reconnecting, it waits for
every server before it says so), commands already arrive and AI seats already move. An
announcement made then waits for the connection, instead of being left to the outbox, which
would send each AI move of the run on its own and later."""

from __future__ import annotations

from pathlib import Path

from bot.adapters.discordbot import build_bot
from bot.core.clock import ManualClock
from bot.core.replies import Message, Reply
from bot.media.search import Media
from bot.service.referee import Referee
from bot.storage.sqlite import SQLiteStore
from tests.standin import DiscordStandIn


async def test_a_notice_made_before_the_connection_is_ready_is_posted_once_it_is(standin: DiscordStandIn,
                                                                                tmp_path: Path) -> None:
    s = standin
    store = SQLiteStore(tmp_path / "t.sqlite3")
    await store.open()
    referee = Referee(store, clock=ManualClock(), ai_seconds=0.0)
    await referee.open()
    bot = build_bot(referee, guild_ids=[s.guild.id], guild_ready_timeout=1.0, media=Media.from_environment({}))
    try:
        async with s.run_bot(bot):  # back once the servers are sent; discord.py is ready a second later
            assert not bot.is_ready()
            mark = s.mark()
            text = "Dot (bot) lays 3:5 at c4–d4. It's alice's turn."
            await bot.notice(Reply(public=Message(text), place=f"discord:{s.channel.id}"))
            assert bot.is_ready()
            posted = [m for m in s.messages[mark:] if m.channel_id == s.channel.id and m.kind == "create"]
            assert [m.content for m in posted] == [text]
    finally:
        await referee.close()
        await store.close()
    s.assert_clean()
