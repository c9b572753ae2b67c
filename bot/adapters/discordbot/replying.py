"""Delivering a whole `Reply`: in answer to an interaction, or unprompted (a typed move, the
clock) in the table's thread."""

from __future__ import annotations

import contextlib
import logging

import discord

from bot.adapters.discordbot.answer import Answer
from bot.adapters.discordbot.context import NO_GAME, snowflake
from bot.adapters.discordbot.delivery import Outgoing, direct, personal, post, public_message, render
from bot.adapters.discordbot.reactions import react_to_events
from bot.adapters.discordbot.resending import posted_already
from bot.adapters.discordbot.shown import shown_boards
from bot.adapters.discordbot.turn_list import show_lists
from bot.adapters.discordbot.views import controls
from bot.core.i18n import _
from bot.core.records import User
from bot.core.replies import Reply
from bot.service.referee import Referee

log = logging.getLogger(__name__)

STARTED = "▶️"
"""How the lobby message's line saying how the game started begins (`buttons._started`)."""


async def refusal_messages(referee: Referee, reply: Reply, place: str) -> list[Outgoing]:
    """The reason a command was refused, for the caller; "no game here" says how to start one."""
    if reply.table_id is None and await referee.table_at(place) is None:
        return [Outgoing(_(NO_GAME))]
    return personal(reply.caller, refusal=True) or [Outgoing(_("That was refused."))]


async def answer_reply(answer: Answer, referee: Referee, reply: Reply, user: User, place: str) -> None:
    """Answer an interaction with a reply: a refusal ephemerally; otherwise the public message
    (with its buttons) in the thread, then the caller's note and the caller's secrets ephemerally,
    and other seats' secrets (what a forced pass drew for them) by DM. Once everything is out,
    the referee is told, so its outbox does not send it again."""
    if not reply.ok:
        for outgoing in await refusal_messages(referee, reply, place):
            await answer.send(outgoing, ephemeral=True)
        if reply.stale:  # the caller was told how the game now is: a command sent after this is based on it
            shown_boards(answer.interaction.client).record(place, answer.interaction, reply.ply)
        return
    public = public_message(reply, controls(reply))
    if public is not None:
        sent = await answer.send(public, ephemeral=False)
        shown_boards(answer.interaction.client).record(reply.place, sent, reply.ply)
        await react_to_events(answer.interaction.client, referee, reply, sent)
    for outgoing in personal(reply.caller):
        await answer.send(outgoing, ephemeral=True)
    if reply.private:
        seat = next((s for s, player in reply.recipients.items() if player == user.id), None)
        for outgoing in personal(reply.private.get(seat) if seat is not None else None):
            await answer.send(outgoing, ephemeral=True)
        await direct_secrets(answer.interaction.client, reply, skip=seat)
    await shown_lists(answer.interaction.client, referee, reply)
    await edit_lobby(answer.interaction.client, reply)
    await referee.delivered(reply)


async def edit_lobby(client: discord.Client, reply: Reply) -> None:
    """Edit the table's lobby message as the reply asks (`Reply.lobby`: who is away, who stands
    in), keeping the line that says how the game started; best effort: a lobby message that is
    gone stays gone."""
    if reply.lobby is None:
        return
    message_id, text = reply.lobby
    channel = await thread_of(client, reply.place)
    if not isinstance(channel, discord.Thread | discord.TextChannel):
        return
    with contextlib.suppress(discord.HTTPException, ValueError):
        message = await channel.fetch_message(int(message_id))
        kept = [line for line in message.content.split("\n") if line.startswith(STARTED)]
        await message.edit(content="\n".join([render(text), *kept]), allowed_mentions=discord.AllowedMentions.none())


async def shown_lists(client: discord.Client, referee: Referee, reply: Reply) -> list[int]:
    """Show the standing lists of turns the reply changes (`turn_list.show_lists`); those that
    could not be shown are left out of what the referee is told was delivered (the outbox tries
    them again) and returned."""
    if not reply.lists:
        return []
    failed = await show_lists(client, referee.store, reply)
    reply.notices = [n for n in reply.notices if n not in failed]
    return failed


async def direct_secrets(client: discord.Client, reply: Reply, *, skip: int | None = None) -> None:
    """Send each seat's secrets in `reply` to its player by DM (but `skip`'s), without a
    notification to those in their quiet hours."""
    for seat, message in reply.private.items():
        player = reply.recipients.get(seat)
        if seat != skip and player:
            await direct(client, player, personal(message), silent=player in reply.quiet)


async def post_reply(client: discord.Client, referee: Referee, channel: discord.abc.Messageable,
                     reply: Reply, *, reference: discord.Message | None = None,
                     strict: bool = False) -> discord.Message | None:
    """Post a reply nobody is waiting for interactively: the public message in the thread (as a
    reply to `reference` if given), each seat's secrets to its player by DM, and the standing
    lists of turns it changes (`strict`: raise if one could not be shown, once the rest is
    delivered, for the outbox to try it again)."""
    sent = None
    public = public_message(reply, controls(reply))
    if public is not None:
        sent = await post(channel, public, reference=reference)
        shown_boards(client).record(reply.place, sent, reply.ply)
        await react_to_events(client, referee, reply, sent)
    if reply.private:
        await direct_secrets(client, reply)
    failed = await shown_lists(client, referee, reply)
    await edit_lobby(client, reply)
    await referee.delivered(reply)
    if failed and strict:
        raise RuntimeError(f"the lists of turns of outbox entries {failed} wait in the outbox")
    return sent


async def thread_of(client: discord.Client, place: str | None) -> discord.abc.Messageable | None:
    """The channel of a table's place on Discord, or None (not on Discord, gone or hidden)."""
    channel_id = snowflake(place) if place else None
    if channel_id is None:
        log.debug("a place that is not on Discord: %s", place)
        return None
    channel = client.get_channel(channel_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(channel_id)
        except (discord.NotFound, discord.Forbidden):
            log.warning("the thread of %s is gone or hidden", place)
            return None
    if not isinstance(channel, discord.abc.Messageable):
        log.warning("%s is not a channel I can post in", place)
        return None
    return channel


async def out_already(client: discord.Client, reply: Reply) -> bool:
    """Whether the public message of an announcement the outbox sends again is in its thread
    already (see `resending.posted_already`); False when that cannot be told."""
    channel = await thread_of(client, reply.place)
    return channel is not None and reply.public is not None and await posted_already(client, channel, reply)


async def post_notice(client: discord.Client, referee: Referee, reply: Reply) -> None:
    """Deliver a reply nobody is waiting for (a timeout, a reminder, an announcement a crash left
    unsent) to its table's thread, and its secrets by DM. Raises if Discord fails, so the outbox
    tries again; a thread that is gone drops the notice."""
    channel = await thread_of(client, reply.place)
    if channel is None:
        return
    if reply.public is not None and await posted_already(client, channel, reply):
        log.info("the announcement of %s move %s was out already (%s)", reply.place, reply.ply,
                 reply.origin or "the same text, after it was committed")
        reply.public = None
    await post_reply(client, referee, channel, reply, strict=True)
