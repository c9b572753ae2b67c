"""`/tileref new`: open a table in a new thread (or in the thread it is used in) and post the
lobby message with its Join, Leave, Add bot and Start buttons."""

from __future__ import annotations

import contextlib
import logging

import discord
from discord import app_commands

from bot.adapters.discordbot.answer import Answer, answering
from bot.adapters.discordbot.context import caller, guild_key, place_of
from bot.adapters.discordbot.delivery import Outgoing, capitalised, escaped, render
from bot.adapters.discordbot.replying import refusal_messages
from bot.adapters.discordbot.views import lobby_view
from bot.core import meta
from bot.core.i18n import N_, _, language_of, speaking
from bot.core.records import LOBBY, User
from bot.core.replies import Reply
from bot.service.referee import Referee
from bot.words.wording import lobby_text
from engine import GAMES

log = logging.getLogger(__name__)

NO_THREADS = N_("I cannot open a thread here: I need the Create Public Threads permission in this channel. You can "
                "also run `/tileref new` inside an existing thread.")
NO_POSTING = N_("I cannot play in threads here: I need the Send Messages in Threads permission in this channel to "
                "post the lobby, the boards and the turns.")
LOBBY_MESSAGE = meta.LOBBY_MESSAGE
"""The table meta key holding the lobby message's id."""

tileref = app_commands.Group(name="tileref", description=N_("Open a table for a tile or card game"), guild_only=True)


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=cls.title, value=name) for name, cls in sorted(GAMES.items())]


async def vet(referee: Referee, game: str, options: str | None, turn_time: str | None,
              guild: str) -> str | None:
    """Why the referee would refuse to open this table, asked before a thread is made for it;
    None if it would open."""
    problem = await referee.check_new(game, options=options, turn_time=turn_time, guild=guild)
    return capitalised(problem) if problem else None


def with_clock(options: str | None, clock: str | None, vacation: bool | None) -> str | None:
    """The table options with `/tileref new`'s `clock` and `vacation` added as `clock=` and
    `vacation=` (spaces in a clock, as in `3d + 1d / 7d`, dropped)."""
    extra = []
    if clock is not None:
        extra.append("clock=" + "".join(clock.split()))
    if vacation is not None:
        extra.append("vacation=" + ("on" if vacation else "off"))
    if not extra:
        return options
    return " ".join([options or "", *extra]).strip()


@tileref.command(name="new", description=N_("Open a table in a new thread, with Join and Start buttons"))
@app_commands.describe(game=N_("Which game"), options=N_("Game options, like ouroboros=off (see /rules)"),
                       turn_time=N_("Time per turn: 90s, 10m, 1h30m, 2d or off (default: the server's)"),
                       clock=N_("Time control: move (a time per turn), none, or a bank like 3d+1d/7d; presets bank, "
                                "fast, slow"),
                       vacation=N_("Whether players' vacations stop this table's clock (on by default)"))
@app_commands.choices(game=game_choices())
async def new(interaction: discord.Interaction, game: str, options: str | None = None,
              turn_time: str | None = None, clock: str | None = None, vacation: bool | None = None) -> None:
    referee: Referee = interaction.client.referee  # type: ignore[attr-defined]
    options = with_clock(options, clock, vacation)
    async with answering(interaction) as answer:
        assert interaction.guild_id is not None
        guild = guild_key(interaction.guild_id)
        problem = await answer.run(vet(referee, game, options, turn_time, guild))
        if problem:
            await answer.tell(problem)
            return
        user = await caller(referee, interaction)
        channel = interaction.channel
        if isinstance(channel, discord.Thread):
            reply = await answer.run(referee.create(place_of(channel.id), user, game, options=options,
                                                    turn_time=turn_time, guild=guild,
                                                    language=language_of(str(interaction.locale))))
            if not reply.ok:
                for outgoing in await refusal_messages(referee, reply, place_of(channel.id)):
                    await answer.send(outgoing, ephemeral=True)
                return
            sent = await answer.send(_lobby(reply), ephemeral=False)
            if sent is None:
                sent = await answer.interaction.original_response()
            await referee.note_message(place_of(channel.id), LOBBY_MESSAGE, sent.id)
            return
        if not isinstance(channel, discord.TextChannel):
            await answer.tell(_("Open a table in a text channel (I make a thread for it) or inside a thread."))
            return
        await _in_new_thread(answer, referee, channel, user, game, options, turn_time, guild)


async def _in_new_thread(answer: Answer, referee: Referee, channel: discord.TextChannel, user: User, game: str,
                         options: str | None, turn_time: str | None, guild: str) -> None:
    title = GAMES[game.strip().lower()].title
    permissions = channel.permissions_for(channel.guild.me)
    if not permissions.create_public_threads:
        await answer.tell(_(NO_THREADS))
        return
    if not permissions.send_messages_in_threads:
        await answer.tell(_(NO_POSTING))
        return
    spoken = await referee.language_for(options, guild, language_of(str(answer.interaction.locale)))
    with speaking(spoken):
        said = _("🎲 {player} is opening a **{game}** table: join in the thread below.").format(
            player=escaped(user.name), game=title)
    announcement = await answer.send(Outgoing(said), ephemeral=False)
    if announcement is None:
        announcement = await answer.interaction.original_response()
    try:
        thread = await channel.create_thread(name=f"{title} · {user.name}"[:100], message=announcement,
                                             auto_archive_duration=10080)
    except discord.Forbidden:  # the permission went since the bot last heard: nothing is opened
        await _not_opened(answer, announcement, None, _(NO_THREADS))
        return
    reply = await referee.create(place_of(thread.id), user, game, options=options, turn_time=turn_time,
                                 guild=guild, language=language_of(str(answer.interaction.locale)))
    if not reply.ok:
        messages = await refusal_messages(referee, reply, place_of(thread.id))
        await thread.send(**Outgoing(_("This table could not be opened: {reason}").format(
            reason=messages[0].text)).kwargs())
        for outgoing in messages:
            await answer.send(outgoing, ephemeral=True)
        return
    try:
        lobby = await thread.send(**_lobby(reply).kwargs())
    except discord.Forbidden:  # the lobby cannot be shown: the table is closed again, its thread removed
        await referee.leave(place_of(thread.id), user)
        await _not_opened(answer, announcement, thread, _(NO_POSTING))
        return
    await referee.note_message(place_of(thread.id), LOBBY_MESSAGE, lobby.id)
    if isinstance(answer.interaction.user, discord.Member):
        with contextlib.suppress(discord.HTTPException):
            await thread.add_user(answer.interaction.user)


async def _not_opened(answer: Answer, announcement: discord.Message, thread: discord.Thread | None,
                      why: str) -> None:
    """Take back a table that could not be shown: its thread goes (where the bot may remove it),
    the public announcement says it was not opened, and the caller is told which permission is
    missing."""
    if thread is not None:
        with contextlib.suppress(discord.HTTPException):
            await thread.delete()
    with contextlib.suppress(discord.HTTPException):
        await announcement.edit(content=_("(This table was not opened.)"),
                                allowed_mentions=discord.AllowedMentions.none())
    await answer.tell(why)


async def refresh_lobby(interaction: discord.Interaction, referee: Referee, reply: Reply) -> None:
    """Show the lobby as it now is in the table's lobby message (after a moderator's kick);
    best effort: a lobby message that is gone stays gone."""
    table = await referee.table_at(place_of(interaction.channel_id))
    channel = interaction.channel
    message_id = table.meta.get(LOBBY_MESSAGE) if table is not None else None
    if table is None or message_id is None or not isinstance(channel, discord.Thread):
        return
    with contextlib.suppress(discord.HTTPException):
        message = channel.get_partial_message(int(message_id))
        await message.edit(content=render(lobby_text(table)), view=lobby_view(table.id) if table.status == LOBBY
                           else None, allowed_mentions=discord.AllowedMentions.none())


def _lobby(reply: Reply) -> Outgoing:
    assert reply.table_id is not None
    text = render(reply.public.text) if reply.public else ""
    return Outgoing(text, view=lobby_view(reply.table_id))
