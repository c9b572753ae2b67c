"""`/privacy`: what tileref keeps about the caller, that data as a file (`what: export`), or its
removal (`what: forget`), which first asks, privately, with Forget and Cancel buttons. Every
answer is for the caller alone; the button carries the caller's id and works for them only."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.adapters.discordbot.answer import answering
from bot.adapters.discordbot.confirm import CancelButton
from bot.adapters.discordbot.context import user_key
from bot.adapters.discordbot.delivery import Outgoing, render, split
from bot.community.privacy import export, forget, forgotten_text, kept_text
from bot.core.i18n import N_, _
from bot.core.refusals import Refused
from bot.service.referee import Referee

EXPORT, FORGET = "export", "forget"


def _referee(interaction: discord.Interaction) -> Referee:
    return interaction.client.referee  # type: ignore[attr-defined]


@app_commands.command(name="privacy", description=N_("What tileref keeps about you; have it as a file, or forgotten"))
@app_commands.describe(what=N_("export: send it to me as a file; forget: remove my name and ids"))
@app_commands.choices(what=[app_commands.Choice(name=N_("export"), value=EXPORT),
                            app_commands.Choice(name=N_("forget"), value=FORGET)])
async def privacy(interaction: discord.Interaction, what: str = "") -> None:
    referee = _referee(interaction)
    me = user_key(interaction.user.id)
    async with answering(interaction, private=True) as answer:
        if what == EXPORT:
            file = await answer.run(export(referee.store, me, referee.clock.now()))
            await answer.send(Outgoing(_("📦 Everything tileref keeps about you:"), attachments=[file]),
                              ephemeral=True)
        elif what == FORGET:
            view = discord.ui.View(timeout=None)
            view.add_item(ForgetButton(interaction.user.id))
            view.add_item(CancelButton())
            await answer.send(Outgoing(_("Forget you? Your name and ids are removed from every table, rating and "
                                         "setting; your games stay, your seat taken by “a former player”. This "
                                         "cannot be undone."), view=view), ephemeral=True)
        else:
            for piece in split(render(await answer.run(kept_text(referee.store, me)))):
                await answer.send(Outgoing(piece), ephemeral=True)


class ForgetButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tileref:forget:(?P<user>\d+)"):
    """Forget the player who asked (`/privacy forget`), once they confirm; nobody else may."""

    def __init__(self, user_id: int) -> None:
        super().__init__(discord.ui.Button(label=_("Forget me"), style=discord.ButtonStyle.danger, emoji="⚠️",
                                           custom_id=f"tileref:forget:{user_id}"))
        self.user_id = user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ForgetButton:
        return cls(int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        referee = _referee(interaction)
        async with answering(interaction) as answer:
            if interaction.user.id != self.user_id:
                await answer.tell(_("Only the player who asked can confirm this."))
                return
            try:
                done = await answer.run(forget(referee.store, user_key(self.user_id)))
            except Refused as refusal:
                await answer.edit_clicked(content=_("Not done: {why}.").format(why=str(refusal)), view=None)
                return
            await answer.edit_clicked(content=render(forgotten_text(done)), view=None)
