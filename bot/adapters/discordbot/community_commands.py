"""What carries over between games: `/leaderboard`, `/profile`, `/games`, `/notify`,
`/accessibility` and `/vacation`. Every answer is for the caller alone. `/leaderboard` and
`/vacation` read this server's records; `/profile`, `/games`, `/notify` and `/accessibility` work
wherever the player is (`everywhere`): on a server with the bot they read its records, elsewhere (a
DM, a server the app is installed on only by the user) every server's (the accessibility choice is
the player's own, on every server)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.adapters.discordbot.answer import Answer, answering
from bot.adapters.discordbot.context import caller, everywhere, guild_key, served_here, user_key
from bot.adapters.discordbot.delivery import Outgoing, capitalised, personal, render, split
from bot.adapters.discordbot.lobby import game_choices
from bot.adapters.discordbot.turn_list import retire_list, show_list
from bot.community.leaderboards import leaderboard_text, profile_text
from bot.community.my_games import games_text
from bot.community.quiet_hours import BadQuietHours, parse_quiet
from bot.core.i18n import N_, _, current_language
from bot.core.replies import name_token
from bot.service.referee import Referee
from bot.storage.standings import NOTIFY_LONG, NOTIFY_OFF, NOTIFY_ON
from bot.storage.store import Store


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


@everywhere
@app_commands.command(name="profile", description=N_("A player's ratings and last games (only you see it)"))
@app_commands.describe(user=N_("Whose profile (default: yours)"))
async def profile(interaction: discord.Interaction, user: discord.User | None = None) -> None:
    store = _referee(interaction).store
    async with answering(interaction, private=True) as answer:
        who = user or interaction.user
        here = served_here(interaction)
        if here is not None:
            text = await answer.run(profile_text(store, here, user_key(who.id), who.display_name))
        else:
            text = await answer.run(profile_everywhere(store, user_key(who.id), who.display_name))
        await _tell(answer, text)


async def profile_everywhere(store: Store, player: str, name: str) -> str:
    """A player's record on each server where they have finished a rated game."""
    guilds = await store.standings.rated_guilds(player)
    if not guilds:
        return _("{player} has not finished a rated game yet.").format(player=name_token(name))
    return "\n\n".join([await profile_text(store, guild, player, name) for guild in guilds])


@everywhere
@app_commands.command(name="games", description=N_("Your unfinished games, the ones waiting for you first"))
async def games(interaction: discord.Interaction) -> None:
    store = _referee(interaction).store
    async with answering(interaction, private=True) as answer:
        text = await answer.run(games_text(store, served_here(interaction), user_key(interaction.user.id)))
        await _tell(answer, text)


NOTIFY_SAID = {
    NOTIFY_ON: N_("🔔 From now on I send you a direct message when a turn of yours begins on this server, and "
                  "your reminders too."),
    NOTIFY_LONG: N_("🔔 From now on I send you a direct message when a turn of yours lasting an hour or more "
                    "begins on this server, and its reminders too."),
    NOTIFY_OFF: N_("🔕 No more direct messages about your turns on this server."),
}

notify = everywhere(app_commands.Group(name="notify", description=N_("How you are told that your turn began")))


@notify.command(name="dm", description=N_("Be told by direct message when your turn begins on this server"))
@app_commands.describe(when=N_("on, off, or only for turns of an hour or more"))
@app_commands.choices(when=[app_commands.Choice(name=N_("on"), value=NOTIFY_ON),
                            app_commands.Choice(name=N_("only turns of an hour or more"), value=NOTIFY_LONG),
                            app_commands.Choice(name=N_("off"), value=NOTIFY_OFF)])
async def notify_dm(interaction: discord.Interaction, when: str) -> None:
    store = _referee(interaction).store
    async with answering(interaction, private=True) as answer:
        here = served_here(interaction)
        if here is None:
            await answer.tell(_("Direct messages a turn are chosen server by server: use `/notify dm` in a channel of "
                                "the server. Here, `/notify list` keeps one list of your turns on every server."))
            return
        if when not in NOTIFY_SAID:
            await answer.tell(_("Choose on, off, or only turns of an hour or more."))
            return
        await answer.run(store.standings.set_notify(here, user_key(interaction.user.id), when))
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


@everywhere
@app_commands.command(name="vacation", description=N_("Declare a vacation: your clocks stop in your games "
                                                      "(or see the days you have left)"))
@app_commands.describe(starts=N_("Your vacation's first day: 2026-12-24, today or tomorrow (UTC days)"),
                       ends=N_("Your vacation's last day: 2026-12-31 (it is included)"),
                       cancel=N_("next: cancel your next vacation, or end the one under way (back now); or the "
                                 "first day of the one to cancel"))
@app_commands.rename(starts="from", ends="to")
async def vacation(interaction: discord.Interaction, starts: str | None = None, ends: str | None = None,
                   cancel: str | None = None) -> None:
    referee = _referee(interaction)
    async with answering(interaction, private=True) as answer:
        user = await caller(referee, interaction)
        reply = await answer.run(referee.vacation(served_here(interaction), user, starts, ends, cancel))
        for outgoing in personal(reply.caller, refusal=not reply.ok):
            await answer.send(outgoing, ephemeral=True)


@notify.command(name="list", description=N_("One message in your DMs listing every game waiting for you"))
@app_commands.describe(keep=N_("on: keep the list up to date (no message a turn); off: stop"))
@app_commands.choices(keep=[app_commands.Choice(name=N_("on"), value=NOTIFY_ON),
                            app_commands.Choice(name=N_("off"), value=NOTIFY_OFF)])
async def notify_list(interaction: discord.Interaction, keep: str) -> None:
    store = _referee(interaction).store
    async with answering(interaction, private=True) as answer:
        if keep not in (NOTIFY_ON, NOTIFY_OFF):
            await answer.tell(_("Choose on or off."))
            return
        user = user_key(interaction.user.id)
        await answer.run(store.standings.set_list(user, keep == NOTIFY_ON, current_language()))
        if keep == NOTIFY_OFF:
            await answer.run(retire_list(interaction.client, store, user))
            await answer.tell(_("🔕 Your list of turns is no longer kept up to date: turns bring direct messages again "
                                "where you chose them with `/notify dm`."))
            return
        try:
            shown = await answer.run(show_list(interaction.client, store, user))
        except discord.HTTPException:
            shown = None
        if shown is None:
            await answer.tell(_("I could not send you a direct message: open your direct messages to me (or to members "
                                "of a server we share), then ask again with `/notify list keep:on`."))
            return
        await answer.tell(_("📋 Your list of turns is in our direct messages: {link}. I edit it whenever a game starts "
                            "or stops waiting for you, on any server, instead of sending a message a turn.").format(
            link=shown.jump_url))


@notify.command(name="quiet", description=N_("Hours of your day when nothing pings you"))
@app_commands.describe(start=N_("When they begin, on the 24-hour clock (23:00), or off"),
                       end=N_("When they end (08:00)"),
                       tz=N_("Your time zone, like Europe/Madrid or America/Mexico_City"))
@app_commands.rename(start="from", end="to")
async def notify_quiet(interaction: discord.Interaction, start: str, end: str | None = None,
                       tz: str | None = None) -> None:
    store = _referee(interaction).store
    async with answering(interaction, private=True) as answer:
        user = user_key(interaction.user.id)
        if start.strip().lower() in (NOTIFY_OFF, _("off")):
            await answer.run(store.standings.set_quiet(user, None))
            await answer.tell(_("🔔 No more quiet hours: your turns ping you at any time of day."))
            return
        if end is None or tz is None:
            await answer.tell(_("Give all three: when your quiet hours begin and end, and your time zone, like "
                                "`/notify quiet from:23:00 to:08:00 tz:Europe/Madrid`."))
            return
        try:
            quiet = parse_quiet(start, end, tz)
        except BadQuietHours as bad:
            await answer.tell(capitalised(str(bad)))
            return
        await answer.run(store.standings.set_quiet(user, str(quiet)))
        await answer.tell(_("🌙 Quiet hours set: every day from {start} to {end} ({zone} time), nothing pings you. "
                            "Your turns still appear in their threads (and in your list), and a reminder that comes "
                            "after your quiet hours pings you as usual.").format(start=f"{quiet.start:%H:%M}",
                                                                     end=f"{quiet.end:%H:%M}", zone=quiet.zone))


EVERYWHERE: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = [profile, games, notify, accessibility,
                                                                              vacation]
"""The community commands a player may use wherever they are (see `everywhere`; /back, a game
command, too)."""
COMMUNITY_COMMANDS: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = [leaderboard, *EVERYWHERE]
