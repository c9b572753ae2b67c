"""Moderators' commands: `/mod forcepass|kick|pause|resume|abort|rollback` for the table of the
thread, and `/settings` for the server's defaults.

A moderator has Manage Threads in the channel or the server's moderator role. The commands are
visible to everyone (a role-based moderator may lack Manage Threads); the referee refuses
anyone else, ephemerally. Kick, abort and rollback first show what they will do and ask for
confirmation (`confirm`). Changing `/settings` needs Manage Server: they apply to the whole server.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.adapters.discordbot.answer import answering
from bot.adapters.discordbot.commands import run
from bot.adapters.discordbot.confirm import ask
from bot.adapters.discordbot.context import caller, guild_key, user_key
from bot.adapters.discordbot.delivery import Outgoing, personal, render
from bot.adapters.discordbot.shown import shown_boards
from bot.core.absence import MODES
from bot.core.i18n import LANGUAGES, N_, _
from bot.media.search import RATINGS
from bot.service.referee import Referee
from bot.words.wording import settings_text


def seen(interaction: discord.Interaction, place: str) -> int | None:
    """The log length of the board the moderator saw when sending the command (None: unknown,
    the referee then takes the one when it arrives): a command sent twice applies once."""
    return shown_boards(interaction.client).seen(place, interaction.id)


mod = app_commands.Group(name="mod", description=N_("Moderator tools for the game in this thread"), guild_only=True)


@mod.command(name="forcepass", description=N_("Play the timeout move for the player(s) the game waits for"))
@app_commands.describe(player=N_("Only this player (default: everyone the game waits for)"))
async def forcepass(interaction: discord.Interaction, player: discord.Member | None = None) -> None:
    target = user_key(player.id) if player is not None else None
    await run(interaction, lambda referee, place, user: referee.force_pass(place, user, target,
                                                                           seen=seen(interaction, place)))


@mod.command(name="kick", description=N_("Remove a player from the table (they resign if the game has started)"))
@app_commands.describe(player=N_("Who to remove"))
async def kick(interaction: discord.Interaction, player: discord.Member) -> None:
    await ask(interaction, "kick", target=player.id)


@mod.command(name="pause", description=N_("Stop the turn clock"))
async def pause(interaction: discord.Interaction) -> None:
    await run(interaction, lambda referee, place, user: referee.pause(place, user, seen=seen(interaction, place)))


@mod.command(name="resume", description=N_("Restart the turn clock where it stopped"))
async def resume(interaction: discord.Interaction) -> None:
    await run(interaction, lambda referee, place, user: referee.resume(place, user, seen=seen(interaction, place)))


@mod.command(name="abort", description=N_("Stop the game without a result"))
async def abort(interaction: discord.Interaction) -> None:
    await ask(interaction, "abort")


@mod.command(name="rollback", description=N_("Take the game back to how it was after move N (see /history)"))
@app_commands.describe(to=N_("The move number to go back to (0 = the start)"),
                       reopen=N_("Needed to roll back a game that is over (it is then played on)"))
async def rollback(interaction: discord.Interaction, to: app_commands.Range[int, 0, 1_000_000],
                   reopen: bool = False) -> None:
    await ask(interaction, "reopen" if reopen else "rollback", to=to)


@app_commands.command(name="settings", description=N_("Show or change this server's tileref settings"))
@app_commands.describe(turn_time=N_("Default time per turn: 90s, 10m, 1h30m, 2d or off"),
                       reminders=N_("Reminders before the deadline: like 50%,10% or 1h,10m, or off"),
                       moderator_role=N_("A role whose members may use /mod (besides Manage Threads)"),
                       no_moderator_role=N_("Forget the moderator role"),
                       allowed_games=N_("Games allowed here, comma-separated, or all"),
                       rating=N_("The strictest rating of GIFs and stickers searched here (g by default)"),
                       event_reactions=N_("Post a reaction picture on a kill, a round won, a hexagon, …"),
                       language=N_("The language of new tables here (default: the language of whoever opens one)"),
                       clock=N_("New tables' time control: move, none, or a bank like 3d+1d/7d (presets: bank, fast, "
                                "slow)"),
                       vacation_days=N_("Each player's vacation days a year here (21 by default)"),
                       absent=N_("At new tables of 3+ players, when a player's time runs out: standin, skip or "
                                 "remove"))
@app_commands.choices(rating=[app_commands.Choice(name=r, value=r) for r in RATINGS],
                      language=[app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()],
                      absent=[app_commands.Choice(name=mode, value=mode) for mode in MODES])
@app_commands.guild_only()
async def settings(interaction: discord.Interaction, turn_time: str | None = None, reminders: str | None = None,
                   moderator_role: discord.Role | None = None, no_moderator_role: bool = False,
                   allowed_games: str | None = None, rating: str | None = None,
                   event_reactions: bool | None = None, language: str | None = None, clock: str | None = None,
                   vacation_days: app_commands.Range[int, 0, 366] | None = None, absent: str | None = None) -> None:
    referee: Referee = interaction.client.referee  # type: ignore[attr-defined]
    async with answering(interaction, private=True) as answer:
        assert interaction.guild_id is not None
        guild = guild_key(interaction.guild_id)
        role = "" if no_moderator_role else (moderator_role.mention if moderator_role is not None else None)
        if all(value is None for value in (turn_time, reminders, role, allowed_games, rating, event_reactions,
                                           language, clock, vacation_days, absent)):
            current = await answer.run(referee.settings(guild))
            await answer.tell(settings_text(current))
            return
        user = await caller(referee, interaction)
        reply = await answer.run(referee.update_settings(guild, user, turn_time=turn_time, reminders=reminders,
                                                         moderator_role=role, allowed_games=allowed_games,
                                                         media_rating=rating, event_reactions=event_reactions,
                                                         language=language, clock=clock,
                                                         vacation_days=None if vacation_days is None
                                                         else str(vacation_days), absent=absent))
        if not reply.ok:
            for outgoing in personal(reply.caller, refusal=True):
                await answer.send(outgoing, ephemeral=True)
            return
        text = render(reply.caller.text) if reply.caller else ""
        await answer.send(Outgoing(_("✅ Saved.") + f" {text}"), ephemeral=True)


MODERATOR_COMMANDS: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = [mod, settings]
