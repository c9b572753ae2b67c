"""What carries over between games: `/leaderboard`, `/profile`, `/games`, `/notify` and
`/accessibility`. Every answer is for the caller alone and reads this server's records only (the
accessibility choice is the player's own, on every server)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.adapters.discordbot.answer import Answer, answering
from bot.adapters.discordbot.context import caller, guild_key, user_key
from bot.adapters.discordbot.delivery import Outgoing, capitalised, personal, render, split
from bot.adapters.discordbot.lobby import game_choices
from bot.community.leaderboards import leaderboard_text, profile_text
from bot.community.my_games import games_text
from bot.core.i18n import N_, _
from bot.service.referee import Referee
from bot.storage.standings import NOTIFY_LONG, NOTIFY_OFF, NOTIFY_ON


def _referee(interaction: discord.Interaction) -> Referee:
    return interaction.client.referee  # type: ignore[attr-defined]


async def _tell(answer: Answer, text: str) -> None:
    for piece in split(render(text)):
        await answer.send(Outgoing(piece), ephemeral=True)


@app_commands.command(name="leaderboard", description=N_("This server's best players of a game (only you see it)"))
@app_commands.describe(game=N_("Which game"), page=N_("1 is the top 10, 2 the next 10, …"))
@app_commands.choices(game=game_choices())
@app_commands.guild_only()
async def leaderboard(interaction: discord.Interaction, game: str,
                      page: app_commands.Range[int, 1, 100_000] = 1) -> None:
    store = _referee(interaction).store
    async with answering(interaction, private=True) as answer:
        assert interaction.guild_id is not None
        try:
            text = await answer.run(leaderboard_text(store, guild_key(interaction.guild_id), game,
                                                     user_key(interaction.user.id), page))
        except ValueError as error:
            text = capitalised(str(error))
        await _tell(answer, text)


@app_commands.command(name="profile", description=N_("A player's ratings and last games here (only you see it)"))
@app_commands.describe(user=N_("Whose profile (default: yours)"))
@app_commands.guild_only()
async def profile(interaction: discord.Interaction, user: discord.User | None = None) -> None:
    store = _referee(interaction).store
    async with answering(interaction, private=True) as answer:
        assert interaction.guild_id is not None
        who = user or interaction.user
        text = await answer.run(profile_text(store, guild_key(interaction.guild_id), user_key(who.id),
                                             who.display_name))
        await _tell(answer, text)


@app_commands.command(name="games", description=N_("Your unfinished games here, the ones waiting for you first"))
@app_commands.guild_only()
async def games(interaction: discord.Interaction) -> None:
    store = _referee(interaction).store
    async with answering(interaction, private=True) as answer:
        assert interaction.guild_id is not None
        text = await answer.run(games_text(store, guild_key(interaction.guild_id), user_key(interaction.user.id)))
        await _tell(answer, text)


NOTIFY_SAID = {
    NOTIFY_ON: N_("🔔 From now on I send you a direct message when a turn of yours begins on this server, and "
                  "your reminders too."),
    NOTIFY_LONG: N_("🔔 From now on I send you a direct message when a turn of yours lasting an hour or more "
                    "begins on this server, and its reminders too."),
    NOTIFY_OFF: N_("🔕 No more direct messages about your turns on this server."),
}


@app_commands.command(name="notify", description=N_("Be told by direct message when your turn begins here"))
@app_commands.describe(when=N_("on, off, or only for turns of an hour or more"))
@app_commands.choices(when=[app_commands.Choice(name=N_("on"), value=NOTIFY_ON),
                            app_commands.Choice(name=N_("only turns of an hour or more"), value=NOTIFY_LONG),
                            app_commands.Choice(name=N_("off"), value=NOTIFY_OFF)])
@app_commands.guild_only()
async def notify(interaction: discord.Interaction, when: str) -> None:
    store = _referee(interaction).store
    async with answering(interaction, private=True) as answer:
        assert interaction.guild_id is not None
        if when not in NOTIFY_SAID:
            await answer.tell(_("Choose on, off, or only turns of an hour or more."))
            return
        await answer.run(store.standings.set_notify(guild_key(interaction.guild_id), user_key(interaction.user.id),
                                                    when))
        text = _(NOTIFY_SAID[when])
        if when != NOTIFY_OFF:
            text += " " + _("Direct messages from members of this server must be open to you for them to arrive.")
        await answer.tell(text)


TEXT_PLAY_SAID = {
    "on": N_("🔊 Text-first play is on: with each turn of yours, in any game on any server, I send you privately the "
             "board in words and your legal moves grouped to be read aloud; type any of them as it is written. "
             "`/accessibility text off` stops it."),
    "off": N_("Text-first play is off: turns come with the board picture only. `/accessibility text on` brings the "
              "words back."),
}


@app_commands.command(name="accessibility", description=N_("Play by words: the board described and your moves "
                                                           "listed privately with each turn"))
@app_commands.describe(text=N_("on: the board in words and your moves grouped, privately with each turn; off: not"))
@app_commands.choices(text=[app_commands.Choice(name=N_("on"), value="on"),
                            app_commands.Choice(name=N_("off"), value="off")])
async def accessibility(interaction: discord.Interaction, text: str) -> None:
    store = _referee(interaction).store
    async with answering(interaction, private=True) as answer:
        if text not in TEXT_PLAY_SAID:
            await answer.tell(_("Choose on or off, like `/accessibility text on`."))
            return
        await answer.run(store.standings.set_text_play(user_key(interaction.user.id), text == "on"))
        said = _(TEXT_PLAY_SAID[text])
        if text == "on":
            said += " " + _("Direct messages from members of the server must be open to you for the turns that "
                            "others begin to reach you.")
        await answer.tell(said)


@app_commands.command(name="vacation", description=N_("Declare a vacation: your clocks stop in your games here "
                                                      "(or see the days you have left)"))
@app_commands.describe(starts=N_("Your vacation's first day: 2026-12-24, today or tomorrow (UTC days)"),
                       ends=N_("Your vacation's last day: 2026-12-31 (it is included)"))
@app_commands.rename(starts="from", ends="to")
@app_commands.guild_only()
async def vacation(interaction: discord.Interaction, starts: str | None = None, ends: str | None = None) -> None:
    referee = _referee(interaction)
    async with answering(interaction, private=True) as answer:
        assert interaction.guild_id is not None
        user = await caller(referee, interaction)
        reply = await answer.run(referee.vacation(guild_key(interaction.guild_id), user, starts, ends))
        for outgoing in personal(reply.caller, refusal=not reply.ok):
            await answer.send(outgoing, ephemeral=True)


COMMUNITY_COMMANDS: list[app_commands.Command[Any, ..., Any]] = [leaderboard, profile, games, notify, accessibility,
                                                                      vacation]
