"""A bot that lacks a permission it needs still answers: announcements without the pictures when it
may not attach files, words instead of reactions when it may not react, plain messages instead of
replies when it may not read the history; and the table is told once what is missing.

Permissions are taken away as a server admin takes them: denied to the bot's role on the channel
the game threads belong to (the threads inherit it), or taken off the roles that grant it. The
stand-in computes the bot's permissions as Discord does and refuses (403) whatever they do not
allow, so a bot that ignored a missing permission would have a request refused here. With
``tell_bot=False`` the server changes and the bot does not hear of it yet: its cached permissions
are behind Discord's, and only Discord's refusal tells it."""

from __future__ import annotations

import asyncio

import discord
import pytest

from tests.bot.adapters.discordbot.harness import Harness, confirmed
from tests.standin import Channel, DiscordStandIn, RecordedMessage, User


def bot_posts(tileref: Harness, thread: Channel, mark: int) -> list[RecordedMessage]:
    return [m for m in tileref.s.messages[mark:] if m.kind == "create" and m.channel_id == thread.id]


async def mover(tileref: Harness, thread: Channel) -> tuple[User, str]:
    """Whoever the game waits for, and a legal move of theirs."""
    game = await tileref.game(thread)
    seat = game.to_move()[0]
    return (tileref.s.alice, tileref.s.bob)[seat], game.legal_actions(seat)[0]


def refused(s: DiscordStandIn) -> list[str]:
    """The requests the stand-in refused for a missing permission (and forgets them)."""
    found = [e for e in s.errors if "50013" in e or "50001" in e]
    s.errors.clear()
    return found


def take_from_roles(s: DiscordStandIn, name: str, *, tell_bot: bool) -> None:
    """A server where neither @everyone nor the bot's role grants `name`."""
    for role in (s.guild.everyone, s.bot_role):
        s.set_role_permissions(role, role.permissions & ~discord.Permissions(**{name: True}).value, tell_bot=tell_bot)


def deny_on_the_parent(s: DiscordStandIn, name: str, *, tell_bot: bool) -> None:
    """The game threads' channel denies `name` to the bot's role."""
    s.withhold_from_bot(name, tell_bot=tell_bot)


async def test_without_attach_files_typed_moves_are_announced_as_text_and_the_table_told_once(
        tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    deny_on_the_parent(s, "attach_files", tell_bot=True)
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
    refused_note = await s.wait_for_message(thread, lambda m: "refused" in m.content, since=mark)
    assert refused_note.content == "That move was refused; I sent you the reason privately."
    await s.wait_for_message(predicate=lambda m: m.guild_id is None and "refused" in m.content, since=mark)
    await s.settle()
    assert not [m for m in bot_posts(tileref, thread, mark) if "missing" in m.content]  # told once
    assert s.errors == []


@pytest.mark.parametrize("take_away", [take_from_roles, deny_on_the_parent])
async def test_a_permission_discord_refuses_before_the_bot_hears_of_it_still_loses_no_announcement(
        tileref: Harness, take_away: object) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    assert callable(take_away)
    take_away(s, "attach_files", tell_bot=False)  # the server knows; the bot's cache does not yet
    mark = s.mark()
    user, move = await mover(tileref, thread)
    await s.say(user, thread, move)
    announced = await s.wait_for_message(thread, lambda m: user.name in m.content, since=mark)
    assert not announced.png_images() and len(refused(s)) == 1  # refused once, then sent as text
    await s.settle()
    assert bot_posts(tileref, thread, mark) == [announced]

    for target in (s.guild.everyone, s.bot_role, s.channel):  # Discord's events arrive
        s.send_update(target)
    mark = s.mark()
    user, move = await mover(tileref, thread)
    await s.say(user, thread, move)
    await s.wait_for_message(thread, lambda m: "Attach Files" in m.content, since=mark)  # now it knows
    assert not bot_posts(tileref, thread, mark)[0].png_images() and refused(s) == []


async def test_a_reaction_discord_refuses_before_the_bot_hears_of_it_is_said_in_words(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    s.withhold_from_bot("add_reactions", tell_bot=False)
    user, _ = await mover(tileref, thread)
    other = s.bob if user is s.alice else s.alice
    mark = s.mark()
    said = await s.say(other, thread, "draw")  # not their turn: ⏳ is refused, so it is said
    early = await s.wait_for_message(thread, lambda m: "not your turn" in m.content, since=mark)
    assert early.payload["message_reference"]["message_id"] == str(said.message.id)  # still a reply
    assert len(refused(s)) == 1 and not s.stored[said.message.id].reactions


async def test_without_send_messages_in_threads_no_table_is_opened_and_the_caller_is_told_why(
        tileref: Harness) -> None:
    s = tileref.s
    s.withhold_from_bot("send_messages_in_threads")
    await s.settle()
    told = await (await s.slash(s.alice, s.channel, "tileref new", game="tronimoes")).reply()
    assert told.ephemeral and "Send Messages in Threads" in told.content
    assert s.threads == [] and s.errors == []


async def test_without_create_public_threads_no_table_is_opened_and_the_caller_is_told_why(
        tileref: Harness) -> None:
    s = tileref.s
    s.withhold_from_bot("create_public_threads")
    await s.settle()
    told = await (await s.slash(s.alice, s.channel, "tileref new", game="tronimoes")).reply()
    assert told.ephemeral and "Create Public Threads" in told.content
    assert s.threads == [] and s.errors == []


async def test_a_rematch_is_not_opened_where_the_bot_could_not_post_its_lobby(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob, game="tromino_go")
    _preview, final = await confirmed(s, s.bob, thread, "resign")
    s.withhold_from_bot("send_messages_in_threads")
    await s.settle()
    told = await (await s.click(s.alice, final, label="Rematch")).reply()
    assert told.ephemeral and "Send Messages in Threads" in told.content
    assert [t.id for t in s.threads] == [thread.id] and s.errors == []


@pytest.mark.parametrize(("taken", "named"), [("create_public_threads", "Create Public Threads"),
                                              ("send_messages_in_threads", "Send Messages in Threads")])
async def test_a_table_discord_refuses_before_the_bot_hears_of_it_leaves_nothing_open(
        tileref: Harness, taken: str, named: str) -> None:
    """The permission was taken away and the bot has not heard yet: Discord refuses the thread
    or the lobby. The caller is told which permission is missing, and no table is left open
    (a lobby without buttons, in a thread nobody can use)."""
    s = tileref.s
    s.withhold_from_bot(taken, tell_bot=False)
    handle = await s.slash(s.alice, s.channel, "tileref new", game="tronimoes")
    told = await s.wait_for_message(predicate=lambda m: m.ephemeral and named in m.content)
    assert "Something went wrong" not in told.content
    await s.settle()
    for thread in s.threads:
        table = await tileref.referee.table_at(f"discord:{thread.id}")
        assert table is None or table.status == "aborted"
    assert handle is not None and all(" 403 " in error for error in s.errors)
    s.errors.clear()  # Discord's refusals were the point
