"""A bot that lacks a permission it needs still answers: announcements without the pictures when it
may not attach files, words instead of reactions when it may not react, plain messages instead of
replies when it may not read the history; and the table is told once what is missing."""

from __future__ import annotations

import asyncio

import discord

from tests.bot.adapters.discordbot.harness import Harness
from tests.standin import Channel, RecordedMessage, User


def bot_posts(tileref: Harness, thread: Channel, mark: int) -> list[RecordedMessage]:
    return [m for m in tileref.s.messages[mark:] if m.kind == "create" and m.channel_id == thread.id]


async def mover(tileref: Harness, thread: Channel) -> tuple[User, str]:
    """Whoever the game waits for, and a legal move of theirs."""
    game = await tileref.game(thread)
    seat = game.to_move()[0]
    return (tileref.s.alice, tileref.s.bob)[seat], game.legal_actions(seat)[0]


async def test_without_attach_files_typed_moves_are_announced_as_text_and_the_table_told_once(
        tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    s.withhold_from_bot("attach_files")
    await s.settle()
    mark = s.mark()
    user, move = await mover(tileref, thread)
    await s.say(user, thread, move)
    note = await s.wait_for_message(thread, lambda m: "Attach Files" in m.content, since=mark)
    first = bot_posts(tileref, thread, mark)
    assert len(first) == 2 and first[1] is note  # the announcement, then the note
    assert user.name in first[0].content and not first[0].png_images()
    assert "text only" in note.content and "/board" in note.content

    mark = s.mark()
    user, move = await mover(tileref, thread)
    await s.say(user, thread, move)
    announced = await s.wait_for_message(thread, lambda m: user.name in m.content, since=mark)
    await s.settle()
    assert bot_posts(tileref, thread, mark) == [announced] and not announced.png_images()  # told once
    table = await tileref.table(thread)
    for _ in range(100):  # confirmed just after it is posted
        if not await tileref.referee.store.pending_notices(table.id):
            break
        await asyncio.sleep(0.05)
    assert await tileref.referee.store.pending_notices(table.id) == []  # delivered: nothing left to retry
    assert s.errors == []  # it knew from its permissions: not one refused request


async def test_without_add_reactions_or_history_a_typed_move_is_still_answered(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    s.withhold_from_bot("add_reactions", "read_message_history")
    await s.settle()
    user, _ = await mover(tileref, thread)
    other = s.bob if user is s.alice else s.alice
    mark = s.mark()
    await s.say(other, thread, "draw")  # not their turn: no ⏳ possible, so in words
    early = await s.wait_for_message(thread, lambda m: "not your turn" in m.content, since=mark)
    await s.wait_for_message(thread, lambda m: "Add Reactions" in m.content, since=mark)
    assert "message_reference" not in early.payload or early.payload["message_reference"] is None
    notes = " ".join(m.content for m in bot_posts(tileref, thread, mark) if "missing the" in m.content)
    assert notes.count("**Add Reactions**") == 1 and notes.count("**Read Message History**") == 1

    mark = s.mark()
    await s.say(user, thread, "pass")  # refused: nobody passes before drawing
    refused = await s.wait_for_message(thread, lambda m: "refused" in m.content, since=mark)
    assert refused.content == "That move was refused; I sent you the reason privately."
    await s.wait_for_message(predicate=lambda m: m.guild_id is None and "refused" in m.content, since=mark)
    await s.settle()
    assert not [m for m in bot_posts(tileref, thread, mark) if "missing" in m.content]  # told once
    assert s.errors == []


async def test_a_permission_discord_refuses_before_the_bot_hears_of_it_still_loses_no_announcement(
        tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    for role in s.guild.roles.values():  # taken away without the bot hearing of it yet
        role.permissions &= ~discord.Permissions(attach_files=True).value
    mark = s.mark()
    user, move = await mover(tileref, thread)
    await s.say(user, thread, move)
    announced = await s.wait_for_message(thread, lambda m: user.name in m.content, since=mark)
    assert not announced.png_images() and len(s.errors) == 1 and "403" in s.errors[0]  # refused once, then text
    s.errors.clear()


async def test_without_send_messages_in_threads_no_table_is_opened_and_the_caller_is_told_why(
        tileref: Harness) -> None:
    s = tileref.s
    s.withhold_from_bot("send_messages_in_threads")
    await s.settle()
    refused = await (await s.slash(s.alice, s.channel, "tileref new", game="tronimoes")).reply()
    assert refused.ephemeral and "Send Messages in Threads" in refused.content
    assert s.threads == [] and s.errors == []
