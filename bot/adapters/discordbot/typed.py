"""Moves typed in a table's thread, and @mentions of the bot.

A message in a table's thread from the player the game waits for is tried as a move: played
if it is one, answered with the reason if it is a move the rules refuse, and ignored if it is
not a move at all (it was chat). A message that mentions the bot (`@tileref 3:5 c4 d4`) is
always answered, from any player; mentions reach the bot even without the Message Content
intent, so this is the typed path that always works.
"""

from __future__ import annotations

import logging
import re

import discord

from bot.adapters.discordbot.answer import busy
from bot.adapters.discordbot.context import NO_GAME, place_of, player
from bot.adapters.discordbot.delivery import Outgoing, personal, post
from bot.adapters.discordbot.replying import post_reply
from bot.records import PLAYING
from bot.referee import Referee

log = logging.getLogger(__name__)
LONGEST_MOVE = 120


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
        with busy(client):
            await _handle(client, referee, message)
    except Exception:
        log.exception("handling a typed message in %s failed", message.channel.id)


async def _handle(client: discord.Client, referee: Referee, message: discord.Message) -> None:
    mentioned, text = addressed(client, message)
    if not text or (len(text) > LONGEST_MOVE and not mentioned):
        return
    place = place_of(message.channel.id)
    user = player(message.author)
    if not mentioned:
        viewed = await referee.view(place)
        if viewed is None:
            return
        table, game = viewed
        seat = table.seat_of(user.id)
        if table.status != PLAYING or seat is None or seat not in game.to_move():
            return
    elif await referee.status(place) is None:
        await post(message.channel, Outgoing(NO_GAME), reference=message)
        return
    reply = await referee.act(place, user, text)
    if not reply.ok:
        if reply.unreadable and not mentioned:
            return
        for outgoing in personal(reply.caller, refusal=True) or [Outgoing("That was refused.")]:
            await post(message.channel, outgoing, reference=message)
        return
    await post_reply(client, referee, message.channel, reply)
