"""Driving tileref through the Discord stand-in: open a table, find the bot's messages, read
what the referee knows."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from bot.adapters.discordbot import build_bot
from bot.adapters.discordbot.delivery import escaped
from bot.core.clock import ManualClock
from bot.core.records import TableRecord
from bot.core.replies import clean_name
from bot.media.search import Media
from bot.service.referee import Referee
from bot.storage.sqlite import SQLiteStore
from engine import Game
from tests.standin import Channel, DiscordStandIn, RecordedMessage, User


@dataclass
class Harness:
    s: DiscordStandIn
    referee: Referee
    clock: ManualClock
    bot: object

    @staticmethod
    def place(thread: Channel) -> str:
        return f"discord:{thread.id}"

    async def table(self, thread: Channel) -> TableRecord:
        table = await self.referee.table_at(self.place(thread))
        assert table is not None
        return table

    async def game(self, thread: Channel) -> Game:
        viewed = await self.referee.view(self.place(thread))
        assert viewed is not None
        return viewed[1]

    async def open_table(self, creator: User, *others: User, turn_time: str | None = None,
                         start: bool = True, game: str = "tronimoes",
                         options: str | None = None) -> tuple[Channel, RecordedMessage]:
        """`/tileref new` in #general by `creator`; `others` press Join; the creator presses
        Start. Returns the thread and the lobby message (or the opening board if started)."""
        s = self.s
        extra = {"turn_time": turn_time} if turn_time else {}
        if options:
            extra["options"] = options
        announced = await (await s.slash(creator, s.channel, "tileref new", game=game, **extra)).reply()
        assert not announced.ephemeral and "table" in announced.content
        thread = await s.wait_for_thread(lambda t: t.id == announced.id)
        lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
        for other in others:
            joined = await (await s.click(other, lobby, label="Join")).reply()
            assert joined.id == lobby.id and escaped(clean_name(other.name)) in joined.content
            lobby = joined
        if not start:
            return thread, lobby
        handle = await s.click(creator, lobby, label="Start")
        answers = await handle.replies(2)
        opening = next(m for m in answers if m.id != lobby.id)
        return thread, opening


@asynccontextmanager
async def running(s: DiscordStandIn, path: Path, *, clock: ManualClock | None = None, seed: int = 7,
                  grace: float | None = None, message_content: bool = True,
                  media: Media | None = None, guild_ids: list[int] | None = None) -> AsyncIterator[Harness]:
    """tileref on the SQLite file at `path`, connected to the stand-in, closed afterwards. Its
    commands are published to the stand-in's server (`guild_ids`; [] publishes them globally, as a
    real deployment does, so they also work in DMs)."""
    clock = clock or ManualClock()
    store = SQLiteStore(path)
    await store.open()
    seeds = iter(range(seed, seed + 1_000_000))
    referee = Referee(store, clock=clock, seeds=lambda: next(seeds), ai_seconds=0.0)
    await referee.open()
    guild_ids = [s.guild.id] if guild_ids is None else guild_ids
    bot = build_bot(referee, guild_ids=guild_ids, message_content=message_content, guild_ready_timeout=0.1,
                    media=media or Media.from_environment({}))
    if grace is not None:
        bot.grace_seconds = grace  # type: ignore[attr-defined]
    try:
        async with s.run_bot(bot, wait_ready=True):
            yield Harness(s, referee, clock, bot)
    finally:
        await referee.close()
        await store.close()


async def confirmed(s: DiscordStandIn, user: User, thread: Channel, command: str,
                    **options: object) -> tuple[RecordedMessage, RecordedMessage]:
    """Run a command that first asks for confirmation (rollback, abort, kick, resign) and press
    Confirm. Returns (the private preview, the answer that follows: the public message)."""
    preview = await (await s.slash(user, thread, command, **options)).reply()
    assert preview.ephemeral and preview.button("Confirm") and preview.button("Cancel"), preview.content
    answers = await (await s.click(user, preview, label="Confirm")).replies(2)
    answer = next(m for m in answers if m.kind == "create")
    return preview, answer


BOARD_PICTURE = re.compile(r"-move-[0-9]+\.png$")
"""How the bot names a board picture it posts (`bot.tables.pictures`)."""


def assert_described(s: DiscordStandIn) -> None:
    """Every board picture the bot posted carries its description, the board in words (at most
    Discord's 1,024 characters: the stand-in refuses longer ones)."""
    pictures = [a for a in s.files.values() if BOARD_PICTURE.search(a.filename)]
    bare = [a.filename for a in pictures if not a.description]
    assert not bare, f"board pictures posted without a description: {bare}"


def hand_images(message: RecordedMessage) -> list[str]:
    return [name for name, _ in message.attachments if "hand" in name]
