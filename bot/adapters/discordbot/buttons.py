"""What pressing a table button does.

Lobby buttons (Join, Leave, the three Add bot buttons) update the lobby message in place; Start closes the lobby
message and posts the opening board; Show hand answers with the presser's hand, ephemerally;
Ready plays `ready` for the presser. A button of an earlier table at the same thread is refused.
"""

from __future__ import annotations

import contextlib

import discord

from bot.adapters.discordbot.answer import Answer, answering
from bot.adapters.discordbot.context import caller, place_of
from bot.adapters.discordbot.delivery import render
from bot.adapters.discordbot.rematching import rematch
from bot.adapters.discordbot.replying import answer_reply, refusal_messages
from bot.adapters.discordbot.shown import shown_boards
from bot.adapters.discordbot.views import BOT_LEVELS, lobby_view
from bot.core.i18n import N_, _
from bot.core.records import LOBBY, PLAYING, User
from bot.core.replies import Reply, name_token
from bot.service.referee import Referee
from bot.words.wording import lobby_text

STALE = N_("This button belongs to a table that is no longer open here.")


async def pressed(interaction: discord.Interaction, action: str, table_id: int) -> None:
    """Handle a press of `action` for table `table_id`; every outcome is answered."""
    referee: Referee = interaction.client.referee  # type: ignore[attr-defined]
    async with answering(interaction, private=action == "hand") as answer:
        place = place_of(interaction.channel_id)
        table = await referee.table_at(place)
        if table is None or table.id != table_id:
            await answer.tell(_(STALE))
            return
        user = await caller(referee, interaction)
        if action == "join" and table.status == PLAYING:  # a game that lets players join on the way
            reply = await answer.run(referee.join(place, user))
            await answer_reply(answer, referee, reply, user, place)
            if reply.ok:
                await _add_to_thread(interaction)
        elif action in ("join", "leave", *BOT_LEVELS):
            await _lobby_change(answer, referee, place, user, action)
        elif action == "start":
            await _start(answer, referee, place, user)
        elif action == "rematch":
            await rematch(answer, referee, place, user)
        elif action == "hand":
            await answer_reply(answer, referee, await answer.run(referee.hand(place, user)), user, place)
        else:
            seen = shown_boards(interaction.client).seen(place, interaction.id)
            reply = await answer.run(referee.act(place, user, "ready", seen=seen))
            await answer_reply(answer, referee, reply, user, place)


async def _lobby_change(answer: Answer, referee: Referee, place: str, user: User, action: str) -> None:
    if action == "join":
        reply = await answer.run(referee.join(place, user))
    elif action == "leave":
        reply = await answer.run(referee.leave(place, user))
    else:
        reply = await answer.run(referee.add_ai(place, user, BOT_LEVELS[action]))
    if await _refused(answer, referee, reply, place):
        return
    if action == "join" and reply.status == PLAYING:  # the last player invited to a rematch: it starts
        await _started(answer, referee, reply, place, user, by_joining=True)
    else:
        await _show_lobby(answer, reply)
    if action == "join":
        await _add_to_thread(answer.interaction)


async def _start(answer: Answer, referee: Referee, place: str, user: User) -> None:
    reply = await answer.run(referee.start(place, user))
    if await _refused(answer, referee, reply, place):
        return
    await _started(answer, referee, reply, place, user)


async def _started(answer: Answer, referee: Referee, reply: Reply, place: str, user: User, *,
                   by_joining: bool = False) -> None:
    """Close the lobby message (its buttons go), saying how the game started, and post the
    opening board. `by_joining`: `user` took the last seat of a rematch, which starts it."""
    table = await referee.table_at(place)
    if table is not None:
        how = (_("▶️ Everyone invited has joined, so the game started.") if by_joining else
               _("▶️ Started by {player}.").format(player=name_token(user.name)))
        await answer.edit_clicked(content=render(lobby_text(table) + "\n" + how), view=None,
                                  allowed_mentions=discord.AllowedMentions.none())
    await answer_reply(answer, referee, reply, user, place)


async def _refused(answer: Answer, referee: Referee, reply: Reply, place: str) -> bool:
    if reply.ok:
        return False
    for outgoing in await refusal_messages(referee, reply, place):
        await answer.send(outgoing, ephemeral=True)
    return True


async def _show_lobby(answer: Answer, reply: Reply) -> None:
    """The lobby message, updated; its buttons stay while the lobby is open."""
    text = render(reply.public.text) if reply.public else ""
    view = lobby_view(reply.table_id) if reply.status == LOBBY and reply.table_id is not None else None
    await answer.edit_clicked(content=text, view=view, allowed_mentions=discord.AllowedMentions.none())


async def _add_to_thread(interaction: discord.Interaction) -> None:
    """Add a new player to the table's thread, so it shows in their list (best effort)."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and isinstance(interaction.user, discord.Member):
        with contextlib.suppress(discord.HTTPException):
            await channel.add_user(interaction.user)
