"""The standing "your turn" list in a player's DMs (`/notify list`): one message, posted silently
once and edited in place whenever a game starts or stops waiting for them, listing every game
waiting for them on every server with its deadline (Discord's `<t:…:R>`, in the reader's own
time) and a link to its thread.

Durable: every commit that changes a player's list leaves a note in the outbox
(`notifications.TURN_LIST`) with the move, confirmed only once the list is shown, so a crash
between the commit and the edit shows it after the restart. The list is drawn from the store as
it then is, so showing it twice changes nothing. The message's place is stored once it exists;
a message whose creation a crash interrupted before that is not posted twice, because it is
created with a nonce Discord enforces (the same until the message is found deleted).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import weakref

import discord

from bot.adapters.discordbot.context import snowflake
from bot.adapters.discordbot.delivery import NO_PINGS, render, trim
from bot.community.my_games import turn_list_text
from bot.core.i18n import _, speaking
from bot.core.replies import Reply
from bot.storage.standings import PlayerChoices
from bot.storage.store import Store

log = logging.getLogger(__name__)

_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()


def list_nonce(user_id: str, number: int) -> str:
    """The nonce that creates a player's `number`-th list message (25 characters at most)."""
    return "tl" + hashlib.sha256(f"{user_id}:{number}".encode()).hexdigest()[:22]


def _address(message: discord.Message) -> str:
    return f"{message.channel.id}/{message.id}"


async def show_lists(client: discord.Client, store: Store, reply: Reply) -> list[int]:
    """Show again the list of each player in `reply.lists`; returns the outbox entries of those
    that could not be shown now (Discord failed), for the outbox to try again. A player whose
    DMs are closed is skipped."""
    failed = []
    for user_id, notice in reply.lists.items():
        try:
            await show_list(client, store, user_id)
        except Exception:
            log.warning("showing %s's list of turns failed; the outbox tries again", user_id, exc_info=True)
            if notice is not None:
                failed.append(notice)
    return failed


async def show_list(client: discord.Client, store: Store, user_id: str) -> discord.Message | None:
    """Post or edit the player's list as their games now stand (nothing if they do not keep one,
    or do not take DMs). Raises if Discord fails otherwise."""
    lock = _locks.get(user_id)
    if lock is None:
        lock = _locks[user_id] = asyncio.Lock()
    async with lock:
        choices = (await store.standings.player_choices([user_id])).get(user_id)
        if choices is None or not choices.listed:
            return None
        with speaking(choices.language):
            text = trim(render(await turn_list_text(store, user_id)))
        try:
            return await _shown(client, store, user_id, choices, text)
        except discord.Forbidden:
            log.info("could not DM %s their list of turns (DMs closed)", user_id)
            return None


async def retire_list(client: discord.Client, store: Store, user_id: str) -> None:
    """Say on the player's list, if there is one, that it is no longer kept up to date (it stays
    where it is: keeping it again edits the same message). Nothing raised."""
    choices = (await store.standings.player_choices([user_id])).get(user_id)
    if choices is None or not choices.list_message:
        return
    channel_id, _slash, message_id = choices.list_message.partition("/")
    channel = client.get_partial_messageable(int(channel_id), type=discord.ChannelType.private)
    with speaking(choices.language):
        text = _("🔕 This list is no longer kept up to date: `/notify list keep:on` brings it back.")
    try:
        await channel.get_partial_message(int(message_id)).edit(content=text, allowed_mentions=NO_PINGS)
    except discord.HTTPException:
        log.info("%s's list of turns could not be marked as no longer kept", user_id)


async def _shown(client: discord.Client, store: Store, user_id: str, choices: PlayerChoices,
                 text: str) -> discord.Message | None:
    nonce = choices.list_nonce
    if choices.list_message:
        channel_id, _slash, message_id = choices.list_message.partition("/")
        channel = client.get_partial_messageable(int(channel_id), type=discord.ChannelType.private)
        try:
            return await channel.get_partial_message(int(message_id)).edit(content=text, allowed_mentions=NO_PINGS)
        except discord.NotFound:
            log.info("%s's list of turns was deleted; posting a new one", user_id)
            nonce += 1
            await store.standings.list_posted(user_id, None, nonce)
    snow = snowflake(user_id)
    if snow is None:
        return None
    user = client.get_user(snow) or await client.fetch_user(snow)
    sent = await user.send(content=text, nonce=list_nonce(user_id, nonce), silent=True, allowed_mentions=NO_PINGS)
    await store.standings.list_posted(user_id, _address(sent), nonce)
    if sent.content != text:  # Discord gave back the message a crash left unrecorded, as it was then
        sent = await sent.edit(content=text, allowed_mentions=NO_PINGS)
    return sent
