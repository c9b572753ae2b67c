"""Moves typed in a table's thread, and @mentions of the bot.

A message in a table's thread is tried as a move only if it is written in the game's notation
(its exact verbs, squares, tiles; `**draw**` counts, "take" or "go" do not: see
`bot.core.typing_rules`). Then:
* played if the rules allow it, announced in the thread;
* refused: the thread gets a short note (nothing about the player's hand), and the reason goes
  to the player alone, by DM;
* typed by someone the game is not waiting for: a ⏳ reaction on their message (said in words
  where the bot may not add reactions).
Anything else is conversation and is left alone. A message that mentions the bot (`@tileref
3:5 c4 d4`) is always answered, from any player: played, or refused as above (the reason by DM:
it may be about the player's hand), or, if it cannot be read as a move or it is someone else's
turn, told so in the thread. Mentions reach the bot even without the Message Content intent, so
this is the typed path that always works. A note for the mover alone (a move stored although
the database was slow to confirm it, a chain of moves played in part) goes by DM.
"""

from __future__ import annotations

import contextlib
import logging
import re

import discord

from bot.adapters.discordbot.answer import busy
from bot.adapters.discordbot.context import NO_GAME, guild_key, place_of, player
from bot.adapters.discordbot.delivery import Outgoing, capitalised, direct, personal, post, render
from bot.adapters.discordbot.permissions import lacking, refused_for_permission, tell_missing
from bot.adapters.discordbot.replying import post_reply
from bot.adapters.discordbot.shown import shown_boards
from bot.core import logs
from bot.core.i18n import _
from bot.service.referee import Referee

log = logging.getLogger(__name__)
WAIT_REACTION = "⏳"
REFUSED_REACTION = "❌"


def addressed(client: discord.Client, message: discord.Message) -> tuple[bool, str]:
    """(whether the message mentions the bot, its text without the bot's mentions)."""
    me = client.user
    if me is None:
        return False, message.content.strip()
    pattern = re.compile(rf"<@!?{me.id}>")
    mentioned = bool(pattern.search(message.content))
    return mentioned, " ".join(pattern.sub(" ", message.content).split())


async def on_message(client: discord.Client, referee: Referee, message: discord.Message) -> None:
    """Handle one message; never raises."""
    if message.author.bot or message.guild is None or not isinstance(message.channel, discord.Thread):
        return
    try:
        with busy(client), logs.scope("typed move", server=guild_key(message.guild.id), timed=False):
            await _handle(client, referee, message)
    except Exception:
        log.exception("handling a typed message in %s failed", message.channel.id)


async def _handle(client: discord.Client, referee: Referee, message: discord.Message) -> None:
    mentioned, text = addressed(client, message)
    if not text:
        return
    place = place_of(message.channel.id)
    user = player(message.author)
    if mentioned and await referee.table_at(place) is None:
        await post(message.channel, Outgoing(_(NO_GAME)), reference=message)
        return
    seen = shown_boards(client).seen(place, message.id)
    reply = await referee.act(place, user, text, seen=seen, typed=not mentioned)
    if reply.ok:
        await post_reply(client, referee, message.channel, reply)
        await direct(client, user.id, personal(reply.caller))  # a note for the mover alone, if any
        return
    if mentioned and (reply.unreadable or reply.early):  # how moves are written, whose turn it is: public facts
        for outgoing in personal(reply.caller, refusal=True) or [Outgoing(_("That was refused."))]:
            await post(message.channel, outgoing, reference=message)
        return
    if reply.unreadable:
        return
    if reply.early:
        await _react(message, WAIT_REACTION, instead=_("⏳ It is not your turn yet: that move was not played."))
        return
    await _refused_privately(client, message, reply.caller.text if reply.caller else "")


async def _refused_privately(client: discord.Client, message: discord.Message, reason: str) -> None:
    """A typed move the rules refuse: a reaction and a short public note; the reason by DM."""
    await _react(message, REFUSED_REACTION)  # the note below says it in words anyway
    told = await direct(client, f"discord:{message.author.id}",
                        [Outgoing(_("Your move in {thread} was refused: {reason}").format(
                            thread=message.channel.mention, reason=render(capitalised(reason))))])
    note = (_("That move was refused; I sent you the reason privately.") if told else
            _("That move was refused. Use `/move` to see why (your direct messages are closed)."))
    await post(message.channel, Outgoing(note), reference=message)


async def _react(message: discord.Message, emoji: str, *, instead: str = "") -> None:
    """React to `message` with `emoji`; if the bot may not (Add Reactions, Read Message History),
    as its permissions say or as Discord's refusal shows, say `instead` in a reply and tell the
    table once which permission is missing (when its permissions say). Never raises."""
    missing = lacking(message.channel, reaction=True)
    if not missing:
        try:
            await message.add_reaction(emoji)
            return
        except discord.HTTPException as error:
            if not refused_for_permission(error):
                log.info("could not react to %s", message.id, exc_info=True)
                return
            # what the bot knows of its permissions may be behind Discord's: say it in words anyway
            missing = lacking(message.channel, reaction=True)
    with contextlib.suppress(discord.HTTPException):
        if instead:
            await post(message.channel, Outgoing(instead), reference=message)
        await tell_missing(message.channel, missing)
