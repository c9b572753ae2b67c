"""The Rematch button of a finished game's last message: a new thread beside the old one, with a
lobby that invites everyone who played (mentioning them) and a link to it in the old thread."""

from __future__ import annotations

import asyncio
import contextlib
import weakref

import discord

from bot.adapters.discordbot.answer import Answer
from bot.adapters.discordbot.context import place_of, snowflake
from bot.adapters.discordbot.delivery import Outgoing, capitalised, pinging, render
from bot.adapters.discordbot.lobby import LOBBY_MESSAGE
from bot.adapters.discordbot.views import lobby_view
from bot.core.i18n import _
from bot.core.records import User
from bot.core.replies import link_token, name_token
from bot.service.referee import Referee
from engine import GAMES

_OPENING: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
"""One rematch being opened per finished game at a time in this process (a game's thread and its
buttons are served by the process of its server's shard): a second press waits, then finds the
rematch open, before any thread is made for it."""


async def rematch(answer: Answer, referee: Referee, place: str, user: User) -> None:
    """Open the rematch of the finished game at `place` for `user`, or tell them why not."""
    lock = _OPENING.get(place)
    if lock is None:
        lock = _OPENING[place] = asyncio.Lock()
    async with lock:
        await _rematch(answer, referee, place, user)


async def _rematch(answer: Answer, referee: Referee, place: str, user: User) -> None:
    problem = await answer.run(referee.rematch_problem(place, user))
    if problem:
        await answer.tell(render(capitalised(problem)))
        return
    thread = answer.interaction.channel
    parent = thread.parent if isinstance(thread, discord.Thread) else None
    if not isinstance(parent, discord.TextChannel) or not parent.permissions_for(parent.guild.me).create_public_threads:
        await answer.tell(_("I cannot open a thread for the rematch: I need the Create Public Threads permission in "
                            "the channel this thread belongs to."))
        return
    if not parent.permissions_for(parent.guild.me).send_messages_in_threads:
        await answer.tell(_("I cannot open the rematch: I need the Send Messages in Threads permission in the channel "
                            "this thread belongs to, to post its lobby, the boards and the turns."))
        return
    old = await referee.table_at(place)
    assert old is not None
    title = GAMES[old.game].title
    await answer.defer()
    name = _("{game} · rematch · {player}").format(game=title, player=user.name)[:100]
    created = await parent.create_thread(name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080)
    reply = await referee.rematch(place, place_of(created.id), user)
    if not reply.ok:  # another process opened one first: this thread is not needed
        try:
            await created.delete()
        except discord.HTTPException:
            await created.send(_("This rematch could not be opened."))
        await answer.tell(render(capitalised(reply.caller.text if reply.caller else "")))
        return
    assert reply.table_id is not None and reply.public is not None
    lobby = await created.send(content=render(reply.public.text), view=lobby_view(reply.table_id),
                               allowed_mentions=pinging(reply.mentions))
    await referee.note_message(place_of(created.id), LOBBY_MESSAGE, lobby.id)
    for user_id in [user.id, *reply.mentions]:
        member = snowflake(user_id)
        if member is not None:
            with contextlib.suppress(discord.HTTPException):
                await created.add_user(discord.Object(member))
    await answer.send(Outgoing(render(_("🔁 {player} opened a rematch: {link}").format(
        player=name_token(user.name), link=link_token(place_of(created.id), old.guild)))), ephemeral=False)
