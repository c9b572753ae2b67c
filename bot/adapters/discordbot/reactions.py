"""GIFs and stickers on Discord: `/react` posts one in the game's thread under the caller's name,
`/quest` keeps one as the caller's chicken-foot (the vision quest), and a server that asks for it
gets a reaction picture on a kill, a round won, a hexagon, …

A search is answered privately with up to 9 pictures and a menu to pick one. The results are
kept in memory for a while (`Searches`), so a pick made after a restart asks for a new search.
Nothing here is on a move's path: a slow or failing picture service never delays a game.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.adapters.discordbot.answer import Answer, answering
from bot.adapters.discordbot.context import caller, guild_key, place_of
from bot.adapters.discordbot.delivery import Outgoing, escaped, post, render
from bot.core.i18n import N_, _
from bot.core.meta import FOOT
from bot.core.records import PLAYING
from bot.core.replies import Attachment, Reply
from bot.core.typing_rules import echo
from bot.media.picture import Picture
from bot.media.search import Media, MediaError
from bot.service.referee import Referee

log = logging.getLogger(__name__)
SEARCHES_KEPT = 500
REACTION_DEADLINE = 5.0
"""Seconds after a move within which its event reaction must be posted, else it is dropped (a
client's `reaction_deadline` attribute overrides it)."""


@dataclass
class Search:
    kind: str  # "react" or "quest"
    user_id: int
    place: str
    found: list[Picture]


class Searches(OrderedDict[str, Search]):
    """The latest searches, by token."""

    def keep(self, search: Search) -> str:
        token = secrets.token_hex(6)
        self[token] = search
        while len(self) > SEARCHES_KEPT:
            self.popitem(last=False)
        return token


def media_of(client: discord.Client) -> Media:
    media: Media = client.media  # type: ignore[attr-defined]
    return media


def searches_of(client: discord.Client) -> Searches:
    kept: Searches | None = getattr(client, "media_searches", None)
    if kept is None:
        kept = Searches()
        client.media_searches = kept  # type: ignore[attr-defined]
    return kept


@app_commands.command(name="react", description=N_("React with a GIF or sticker in this game's thread"))
@app_commands.describe(query=N_("What to search for, like victory, skull or frustration"))
@app_commands.guild_only()
async def react(interaction: discord.Interaction, query: str) -> None:
    await _search(interaction, "react", query)


@app_commands.command(name="quest",
                      description=N_("Your vision quest: pick the picture drawn at the foot of your line"))
@app_commands.describe(query=N_("What makes you feel chicken-footed? Words to search for"))
@app_commands.guild_only()
async def quest(interaction: discord.Interaction, query: str) -> None:
    await _search(interaction, "quest", query)


async def _search(interaction: discord.Interaction, kind: str, query: str) -> None:
    referee: Referee = interaction.client.referee  # type: ignore[attr-defined]
    async with answering(interaction, private=True) as answer:
        place = place_of(interaction.channel_id)
        table = await referee.table_at(place)
        if table is None or table.status != PLAYING:
            await answer.tell(_("Reactions and vision quests are for game threads: use this where a game is played."))
            return
        user = await caller(referee, interaction)
        if kind == "quest" and table.seat_of(user.id) is None:
            await answer.tell(_("Only the players of this game go on vision quests here."))
            return
        rating = (await referee.settings(guild_key(interaction.guild_id))).media_rating if interaction.guild_id else "g"
        found = await answer.run(media_of(interaction.client).search(query, rating=rating, limit=9))
        shown = escaped(echo(query))
        if not found.pictures:
            await answer.tell(_("The picture service is not answering right now, and tileref's own pictures have "
                                "nothing for “{query}”: try other words, or try again later.").format(query=shown)
                              if found.provider_down else
                              _("Nothing found for “{query}”: try other words.").format(query=shown))
            return
        token = searches_of(interaction.client).keep(Search(kind, interaction.user.id, place, found.pictures))
        await answer.send(results_message(kind, token, found.pictures, provider_down=found.provider_down),
                          ephemeral=True)


def results_message(kind: str, token: str, found: list[Picture], *, provider_down: bool = False) -> Outgoing:
    """The private answer to a search: the pictures (as embeds) and a menu to pick one; when the
    provider is down, a sentence saying so (these are then tileref's own pictures)."""
    attachments, embeds = [], []
    for number, picture in enumerate(found, start=1):
        embed = discord.Embed(title=f"{number}. {picture.title[:200]}")
        if picture.data:
            name = f"pick-{number}.png"
            attachments.append(Attachment(name, picture.data, picture.title[:100]))
            embed.set_image(url=f"attachment://{name}")
        else:
            embed.set_image(url=picture.preview_url or picture.url)
        embeds.append(embed)
    attribution = found[0].attribution
    what = _("Pick one to post it in the thread.") if kind == "react" else _("Pick one as your chicken-foot.")
    if provider_down:
        what = _("The picture service is not answering right now, so these are tileref's own pictures.") + " " + what
    view = discord.ui.View(timeout=None)
    view.add_item(PickMenu(kind, token, found))
    return Outgoing(f"{what} {attribution}.", attachments, view, embeds=embeds[:10])


class PickMenu(discord.ui.DynamicItem[discord.ui.Select[Any]],
               template=r"tileref:pick:(?P<kind>react|quest):(?P<token>[0-9a-f]+)"):
    """The menu under a search's results."""

    def __init__(self, kind: str, token: str, found: list[Picture] | None = None) -> None:
        options = [discord.SelectOption(label=f"{n}. {p.title}"[:100], value=str(n - 1))
                   for n, p in enumerate(found or [], start=1)] or [discord.SelectOption(label="…", value="0")]
        super().__init__(discord.ui.Select(custom_id=f"tileref:pick:{kind}:{token}", options=options,
                                           placeholder=_("Pick a picture")))
        self.kind, self.token = kind, token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PickMenu:
        return cls(match["kind"], match["token"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with answering(interaction) as answer:
            search = searches_of(interaction.client).get(self.token)
            values = (interaction.data or {}).get("values") or ["0"]
            if search is None or search.user_id != interaction.user.id:
                await answer.edit_clicked(content=_("That search has expired: search again."), embeds=[],
                                          attachments=[], view=None)
                return
            chosen = search.found[int(values[0]) % len(search.found)]
            await _use(answer, interaction, search, chosen)


async def _use(answer: Answer, interaction: discord.Interaction, search: Search, chosen: Picture) -> None:
    referee: Referee = interaction.client.referee  # type: ignore[attr-defined]
    try:
        png = await answer.run(media_of(interaction.client).picture(chosen))
    except MediaError as error:  # the results and their menu stay, so another can be picked
        await answer.edit_clicked(content=_("{reason} Pick another, or search again.").format(reason=error.said()))
        return
    if search.kind == "react":
        await answer.edit_clicked(content=_("✅ Posted."), embeds=[], attachments=[], view=None)
        channel = interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            who = escaped(interaction.user.display_name)
            await post(channel, Outgoing(_("**{player}** reacts: {title} · {attribution}").format(
                player=who, title=escaped(chosen.title), attribution=chosen.attribution),
                                         [Attachment("reaction.png", png, chosen.title[:100])]))
        return
    user = await caller(referee, interaction)
    reply: Reply = await answer.run(referee.choose_picture(search.place, user, FOOT, png, chosen.source))
    text = render(reply.caller.text) if reply.caller else _("✅ Done.")
    await answer.edit_clicked(content=f"{'✅ ' if reply.ok else ''}{text} ({chosen.attribution})", embeds=[],
                              attachments=[discord.File(io.BytesIO(png), filename="your-foot.png")] if reply.ok else [],
                              view=None)


async def react_to_events(client: discord.Client, referee: Referee, reply: Reply,
                          move: discord.Message | None) -> None:
    """If the server wants reactions to events, post one for the first event of `reply` that
    suggests one (a kill: "skull"), as a reply to `move` (the message that announced it); in the
    background, never delaying or failing anything. A reaction that cannot be posted within
    `REACTION_DEADLINE` seconds of the move (a slow picture service) is dropped: a late one would
    sit among later moves."""
    words = next((str(e.data["reaction"]) for e in reply.events if e.to is None and e.data.get("reaction")), None)
    if words is None or reply.place is None or move is None:
        return
    started = time.monotonic()
    table = await referee.table_at(reply.place)
    if table is None or table.guild is None:
        return
    settings = await referee.settings(table.guild)
    if not settings.event_reactions:
        return
    deadline = started + getattr(client, "reaction_deadline", REACTION_DEADLINE)
    task = asyncio.ensure_future(_post_reaction(client, move, words, settings.media_rating, deadline))
    pending: set[asyncio.Task[Any]] = getattr(client, "in_flight", set())
    pending.add(task)
    task.add_done_callback(pending.discard)


async def _post_reaction(client: discord.Client, move: discord.Message, words: str, rating: str,
                         deadline: float) -> None:
    """Find a picture for `words` and post it as a reply to `move`, unless `deadline` (a
    `time.monotonic()` moment) has passed by then."""
    try:
        media = media_of(client)
        async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
            found = (await media.search(words, rating=rating, limit=9)).pictures
            if not found:
                return
            chosen = found[0]
            png = await media.picture(chosen)
        await post(move.channel, Outgoing(f"🎞️ {escaped(chosen.title)} · {chosen.attribution}",
                                          [Attachment("reaction.png", png, chosen.title[:100])]), reference=move)
    except TimeoutError:
        log.info("a reaction to the move in %s was dropped: the picture came too late", move.channel.id)
    except Exception:
        log.info("a reaction to an event could not be posted", exc_info=True)


MEDIA_COMMANDS = [react, quest]
