"""`/tournament`: tournaments the bot runs (`bot.tournaments`). Thin handlers over the tournament
desk: `new` (a moderator's, announced in the channel it is used in, where each game gets its
thread), `withdraw`, `standings`, `export` (its FIDE report, privately), `list`, and the
moderators' `pause`, `resume`, `remove`, `repair` and `end`, each of which asks to confirm
first. The announcement carries the Sign up button (and Check in, where asked for); the buttons'
custom ids hold the tournament, so they work across restarts.

The bot posts a tournament's messages (`post_message`) and makes each board's thread
(`board_thread`) for the runner."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.adapters.discordbot.answer import Answer, answering
from bot.adapters.discordbot.confirm import CancelButton
from bot.adapters.discordbot.context import caller, guild_key, place_of, user_key
from bot.adapters.discordbot.delivery import Outgoing, capitalised, pinging, post, render, split
from bot.adapters.discordbot.lobby import game_choices
from bot.adapters.discordbot.replying import thread_of
from bot.core.i18n import N_, _
from bot.core.records import User
from bot.core.refusals import Refused
from bot.core.replies import Attachment, Reply
from bot.storage.tournaments import FORMATS, BoardRecord, TournamentMessage, TournamentView
from bot.tournaments.desk import TournamentDesk
from bot.tournaments.export import export_trf
from bot.tournaments.wording import ADJUDICATIONS, format_name

ID = N_("The tournament's number (from /tournament list)")


def _desk(interaction: discord.Interaction) -> TournamentDesk:
    return interaction.client.tournament_desk  # type: ignore[attr-defined]


async def _tell(answer: Answer, reply: Reply, *, public: bool = False) -> None:
    """A desk's reply: its caller's part privately, its public part in the channel."""
    for message, ephemeral in ((reply.caller, True), (reply.public, not public)):
        if message is None:
            continue
        text = capitalised(message.text) if not reply.ok else message.text
        for index, piece in enumerate(split(render(text))):
            await answer.send(Outgoing(piece, message.attachments if index == 0 else []), ephemeral=ephemeral)


tournament = app_commands.Group(name="tournament", description=N_("Tournaments the bot runs from sign-up to winner"),
                                guild_only=True)


@tournament.command(name="new", description=N_("Create a tournament announced here (moderators)"))
@app_commands.describe(game=N_("Which game"), format=N_("Swiss, round robin, pods (3+ seats) or league"),
                       rounds=N_("How many rounds (round robins: all by default)"),
                       clock=N_("Time control of every game, as clock= at a table (like 3d+1d)"),
                       start=N_("When it starts, from now (like 2h or 3d); sign-up is open until then"),
                       late=N_("How long after the start late entries are taken (Swiss and pods)"),
                       rated=N_("Whether its games count for the ratings"),
                       vacation=N_("Whether vacations stop its games' clocks"),
                       seats=N_("Players at each table (pods)"), division_size=N_("Players in each division (leagues)"),
                       adjudication=N_("How games still on at a round's deadline are decided"),
                       checkin=N_("Whether players must check in before round 1"),
                       round_time=N_("Each round's deadline after it is paired (like 7d)"),
                       name=N_("The tournament's name"))
@app_commands.choices(game=game_choices(),
                      format=[app_commands.Choice(name=name, value=name) for name in FORMATS],
                      adjudication=[app_commands.Choice(name=name, value=name) for name in ADJUDICATIONS])
async def new(interaction: discord.Interaction, game: str, format: str,
              rounds: app_commands.Range[int, 0, 30] = 0, clock: str | None = None, start: str = "1d",
              late: str | None = None, rated: bool = True, vacation: bool = True,
              seats: app_commands.Range[int, 2, 8] | None = None,
              division_size: app_commands.Range[int, 3, 16] | None = None, adjudication: str = "draw",
              checkin: bool = False, round_time: str | None = None, name: str | None = None) -> None:
    desk = _desk(interaction)
    async with answering(interaction, private=True) as answer:
        assert interaction.guild_id is not None
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await answer.tell(_("Create a tournament in a text channel: each of its games gets a thread there."))
            return
        permissions = channel.permissions_for(channel.guild.me)
        if not (permissions.create_public_threads and permissions.send_messages_in_threads):
            await answer.tell(_("I cannot run a tournament here: I need the Create Public Threads and Send Messages "
                                "in Threads permissions in this channel, for its games' threads."))
            return
        user = await caller(desk.referee, interaction)
        reply = await answer.run(desk.new(
            user, place_of(interaction.channel_id), guild_key(interaction.guild_id), game, format,
            rounds=rounds or None, clock=clock, start=start, late=late, rated=rated, vacation=vacation, seats=seats,
            division_size=division_size, adjudication=adjudication, checkin=checkin, round_time=round_time,
            name=name))
        await _tell(answer, reply)
        if reply.ok:
            await desk.runner.send_messages()


@tournament.command(name="withdraw", description=N_("Leave a tournament (your games not played are forfeited)"))
@app_commands.describe(id=N_("The tournament's number (from /tournament list); yours if you are in one"))
async def withdraw(interaction: discord.Interaction, id: int | None = None) -> None:
    desk = _desk(interaction)
    async with answering(interaction, private=True) as answer:
        assert interaction.guild_id is not None
        user = await caller(desk.referee, interaction)
        await _tell(answer, await answer.run(desk.withdraw(user, id, guild_key(interaction.guild_id))))


@tournament.command(name="standings", description=N_("A tournament's standings"))
@app_commands.describe(id=ID)
async def standings(interaction: discord.Interaction, id: int) -> None:
    desk = _desk(interaction)
    async with answering(interaction, private=True) as answer:
        await _tell(answer, await answer.run(desk.standings(id)), public=False)


@tournament.command(name="export", description=N_("A two-player tournament's FIDE report (TRF), only you see it"))
@app_commands.describe(id=ID)
async def export(interaction: discord.Interaction, id: int) -> None:
    """Anyone may export: the report holds only what the standings show (names, ratings, results)."""
    desk = _desk(interaction)
    async with answering(interaction, private=True) as answer:
        try:
            name, data = await answer.run(export_trf(desk.store, id))
        except Refused as refused:
            await answer.tell(capitalised(str(refused)))
            return
        await answer.send(Outgoing(_("FIDE report of tournament #{id}").format(id=id), [Attachment(name, data)]),
                          ephemeral=True)


@tournament.command(name="list", description=N_("This server's open tournaments (only you see it)"))
async def listed(interaction: discord.Interaction) -> None:
    desk = _desk(interaction)
    async with answering(interaction, private=True) as answer:
        assert interaction.guild_id is not None
        await _tell(answer, await answer.run(desk.listed(guild_key(interaction.guild_id))))


@tournament.command(name="pause", description=N_(
    "Pause a tournament: no round closes or is paired and its games' clocks stop (moderators)"))
@app_commands.describe(id=ID)
async def pause(interaction: discord.Interaction, id: int) -> None:
    await _ask(interaction, "pause", id, None)


@tournament.command(name="resume", description=N_("Carry on with a paused tournament (moderators)"))
@app_commands.describe(id=ID)
async def resume(interaction: discord.Interaction, id: int) -> None:
    await _ask(interaction, "resume", id, None)


@tournament.command(name="repair", description=N_("Pair the current round again, before its games are under way "
                                                  "(moderators)"))
@app_commands.describe(id=ID)
async def repair(interaction: discord.Interaction, id: int) -> None:
    await _ask(interaction, "repair", id, None)


@tournament.command(name="end", description=N_("End a tournament now: games still on are adjudicated (moderators)"))
@app_commands.describe(id=ID)
async def end(interaction: discord.Interaction, id: int) -> None:
    await _ask(interaction, "end", id, None)


@tournament.command(name="remove", description=N_("Remove a player from a tournament (moderators)"))
@app_commands.describe(id=ID, player=N_("Who to remove"))
async def remove(interaction: discord.Interaction, id: int, player: discord.Member) -> None:
    await _ask(interaction, "remove", id, player.id)


def _question(what: str) -> str:
    return {"pause": _("Pause tournament #{id}? No round closes or is paired, and the clocks of its games "
                      "under way stop."),
            "resume": _("Carry on with tournament #{id}?"),
            "repair": _("Pair the current round of tournament #{id} again? Its tables are stopped and new ones "
                        "opened."),
            "end": _("End tournament #{id} now? Games still on are adjudicated, and the standings are final."),
            "remove": _("Remove {player} from tournament #{id}? Their game still on is forfeited.")}[what]


async def _ask(interaction: discord.Interaction, what: str, tournament_id: int, target: int | None) -> None:
    """Ask the moderator, privately, to confirm (Confirm carries it out; Cancel does nothing)."""
    desk = _desk(interaction)
    async with answering(interaction, private=True) as answer:
        user = await caller(desk.referee, interaction)
        if not user.moderator:
            await answer.send(Outgoing(_("Only a moderator can do this to a tournament.")), ephemeral=True)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(TournamentConfirm(what, tournament_id, target))
        view.add_item(CancelButton())
        text = _question(what).format(id=tournament_id, player=f"<@{target}>" if target else "")
        await answer.send(Outgoing(text, view=view), ephemeral=True)


class TournamentConfirm(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=r"tileref:tconfirm:(?P<what>[a-z]+):(?P<id>\d+):(?P<target>\d*)"):
    """Carry out a moderator's tournament command once confirmed."""

    def __init__(self, what: str, tournament_id: int, target: int | None) -> None:
        super().__init__(discord.ui.Button(label=_("Confirm"), style=discord.ButtonStyle.danger, emoji="⚠️",
                                           custom_id=f"tileref:tconfirm:{what}:{tournament_id}:{target or ''}"))
        self.what, self.tournament_id, self.target = what, tournament_id, target

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> TournamentConfirm:
        return cls(match["what"], int(match["id"]), int(match["target"]) if match["target"] else None)

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = _desk(interaction)
        async with answering(interaction) as answer:
            user = await caller(desk.referee, interaction)
            if self.what == "remove" and self.target is not None:
                member = interaction.guild.get_member(self.target) if interaction.guild else None
                name = member.display_name if member is not None else str(self.target)
                work = desk.remove(user, User(user_key(self.target), name), self.tournament_id)
            else:
                work = getattr(desk, self.what)(user, self.tournament_id)
            reply: Reply = await answer.run(work)
            await answer.edit_clicked(content=_("✅ Confirmed.") if reply.ok else _("Not done."), view=None)
            await _tell(answer, reply, public=True)
            await desk.runner.send_messages()


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=r"tileref:tournament:(?P<what>signup|checkin):(?P<id>\d+)"):
    """The announcement's Sign up and Check in buttons."""

    def __init__(self, what: str, tournament_id: int) -> None:
        label = _("Sign up") if what == "signup" else _("Check in")
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           emoji="✍️" if what == "signup" else "✅",
                                           custom_id=f"tileref:tournament:{what}:{tournament_id}"))
        self.what, self.tournament_id = what, tournament_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> TournamentButton:
        return cls(match["what"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = _desk(interaction)
        async with answering(interaction, private=True) as answer:
            user = await caller(desk.referee, interaction)
            work = desk.sign_up(self.tournament_id, user) if self.what == "signup" else \
                desk.check_in(self.tournament_id, user)
            await _tell(answer, await answer.run(work))


async def post_message(client: discord.Client, message: TournamentMessage, attachments: list[Attachment]) -> None:
    """Post one of a tournament's messages in its place (the channel, or a board's thread), with its
    buttons and the players it pings; its nonce (of its row) makes a second post return the first.
    A place that is gone drops it."""
    channel = await thread_of(client, message.place)
    if channel is None:
        return
    view = None
    if message.data.get("buttons"):
        view = discord.ui.View(timeout=None)
        for what in message.data["buttons"]:
            view.add_item(TournamentButton(what, message.tournament_id))
    pieces = split(render(str(message.data.get("text", ""))))
    for index, piece in enumerate(pieces):
        last = index == len(pieces) - 1
        await post(channel, Outgoing(piece, attachments if last else [], view=view if last else None,
                                     mentions=pinging(message.data.get("mentions", [])),
                                     nonce=f"tt{message.id}.{index}"))


async def board_thread(client: discord.Client, view: TournamentView, board: BoardRecord) -> str:
    """A public thread for the board's game in the tournament's channel; its place."""
    channel = await thread_of(client, view.tournament.channel)
    if not isinstance(channel, discord.TextChannel):
        raise RuntimeError(f"tournament {view.tournament.id}: its channel {view.tournament.channel} takes no threads")
    names = " – ".join(e.name for p in board.players if (e := view.entrant(p)) is not None)
    title = f"{view.tournament.name} · R{board.round} B{board.board} · {names}"[:100]
    thread = await channel.create_thread(name=title, type=discord.ChannelType.public_thread,
                                         auto_archive_duration=10080)
    return place_of(thread.id)


TOURNAMENT_COMMANDS = [tournament]
__all__ = ["TOURNAMENT_COMMANDS", "TournamentButton", "TournamentConfirm", "board_thread",
           "format_name", "post_message"]
