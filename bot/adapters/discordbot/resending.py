"""Before the outbox sends an announcement again: is it out already?

A process can die after Discord posted an announcement and before it confirmed it. Sent again
by a typed move's path or the clock's, the announcement carries the nonce of its outbox row and
Discord returns the first message, for a few minutes. Two cases remain, checked here in the
thread's history: an announcement that went out as the answer to an interaction (an answer
carries no nonce), found by that interaction's id; and one older than Discord's nonce window,
found as the bot's message with the same text posted after it was committed.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import replace

import discord

from bot.adapters.discordbot.answer import INTERACTION
from bot.adapters.discordbot.delivery import public_message
from bot.core.replies import Message, Reply

log = logging.getLogger(__name__)

NONCE_TRUSTED_SECONDS = 240.0
"""How old an announcement may be for its nonce alone to keep Discord from posting it twice
(Discord keeps nonces for "a few minutes")."""
CLOCK_MARGIN_SECONDS = 10.0
"""How far our clock may be ahead of Discord's."""
LOOK_AT = 100
"""How many messages after the moment of the first attempt are looked at."""


async def posted_already(client: discord.Client, channel: discord.abc.Messageable, reply: Reply) -> bool:
    """Whether the public message of `reply` (an announcement the outbox sends again) is already
    in `channel`: as the public answer to the interaction that first delivered it, or, when it is
    too old for its nonce to be trusted, as the bot's own message with the same text posted
    after it was committed. For an announcement a rollback withdrew (`Reply.withdrawn`), whether
    the announcement itself is out (then the note standing in for it is not needed). False when
    unknown (the history cannot be read): sending it twice beats never."""
    if reply.public is None:
        return False
    try:
        if reply.origin.startswith(INTERACTION):
            return await _answered(channel, int(reply.origin.removeprefix(INTERACTION)))
        age = dt.datetime.now(dt.UTC).timestamp() - (reply.committed_at or 0.0)
        if reply.committed_at is None or age < NONCE_TRUSTED_SECONDS or client.user is None:
            return False
        said = [reply]
        if reply.withdrawn:  # the announcement itself, or the note standing for it, once posted
            said.insert(0, replace(reply, public=Message(reply.withdrawn)))
        for candidate in said:
            outgoing = public_message(candidate)
            if outgoing is not None and await _said(channel, client.user.id, outgoing.text, reply.committed_at):
                return True
        return False
    except (discord.HTTPException, ValueError):
        log.info("could not look for an earlier copy in %s", getattr(channel, "id", "?"), exc_info=True)
        return False


async def _answered(channel: discord.abc.Messageable, interaction_id: int) -> bool:
    """Whether a public answer (not a "thinking…" placeholder) to the interaction is in `channel`:
    it is among the first messages after the interaction (whose id says when it was made)."""
    async for message in channel.history(limit=LOOK_AT, after=discord.Object(interaction_id), oldest_first=True):
        metadata = message.interaction_metadata
        if metadata is not None and metadata.id == interaction_id and not message.flags.loading:
            return True
    return False


async def _said(channel: discord.abc.Messageable, author_id: int, text: str, since: float) -> bool:
    """Whether `author_id` posted `text` in `channel` after `since` (a Unix time, minus a margin)."""
    moment = dt.datetime.fromtimestamp(since - CLOCK_MARGIN_SECONDS, dt.UTC)
    after = discord.Object(discord.utils.time_snowflake(moment))
    async for message in channel.history(limit=LOOK_AT, after=after, oldest_first=True):
        if message.author.id == author_id and message.content == text:
            return True
    return False
