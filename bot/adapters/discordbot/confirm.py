"""Confirming what cannot be undone: rollback, abort, kick and resign first show what they will
undo or end, privately, with Confirm and Cancel buttons; only Confirm carries the command out.

The buttons' custom ids hold everything needed (`tileref:confirm:rollback:42:17:5`: the command,
the table, the log length the preview was based on, and the command's argument), so they work
across restarts; a rollback confirmed after the game moved on is refused by the referee.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.adapters.discordbot.answer import answering
from bot.adapters.discordbot.context import caller, place_of, user_key
from bot.adapters.discordbot.delivery import Outgoing, render
from bot.adapters.discordbot.lobby import refresh_lobby
from bot.adapters.discordbot.replying import answer_reply, refusal_messages
from bot.core.i18n import _
from bot.core.records import LOBBY
from bot.core.replies import Reply
from bot.service.referee import Referee

COMMANDS = ("rollback", "reopen", "abort", "kick", "resign")


def confirm_view(what: str, table_id: int, ply: int, argument: str = "") -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(what, table_id, ply, argument))
    view.add_item(CancelButton())
    return view


class ConfirmButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"tileref:confirm:(?P<what>[a-z]+):(?P<table>\d+):(?P<ply>\d+):(?P<arg>\d*)"):
    """Carry out a previewed moderator command (or a resignation)."""

    def __init__(self, what: str, table_id: int, ply: int, argument: str = "") -> None:
        super().__init__(discord.ui.Button(label=_("Confirm"), style=discord.ButtonStyle.danger, emoji="⚠️",
                                           custom_id=f"tileref:confirm:{what}:{table_id}:{ply}:{argument}"))
        self.what, self.table_id, self.ply, self.argument = what, table_id, ply, argument

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ConfirmButton:
        return cls(match["what"], int(match["table"]), int(match["ply"]), match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        referee: Referee = interaction.client.referee  # type: ignore[attr-defined]
        async with answering(interaction) as answer:
            place = place_of(interaction.channel_id)
            table = await referee.table_at(place)
            if table is None or table.id != self.table_id:
                await answer.edit_clicked(content=_("This table is no longer open here."), view=None)
                return
            user = await caller(referee, interaction)
            if self.what in ("rollback", "reopen"):
                work = referee.rollback(place, user, int(self.argument or 0), reopen=self.what == "reopen",
                                        seen=self.ply)
            elif self.what == "abort":
                work = referee.abort(place, user, seen=self.ply)
            elif self.what == "kick":
                work = referee.kick(place, user, user_key(int(self.argument)), seen=self.ply)
            else:
                work = referee.resign(place, user)
            reply = await answer.run(work)
            if reply.ok and reply.status == LOBBY:  # a kick from the lobby: the lobby message shows it
                await answer.edit_clicked(content=f"✅ {render(reply.public.text.splitlines()[0])}"
                                          if reply.public else _("✅ Done."), view=None)
                await refresh_lobby(interaction, referee, reply)
                return
            await answer.edit_clicked(content=_("✅ Confirmed.") if reply.ok else _("Not done."), view=None)
            await answer_reply(answer, referee, reply, user, place)


class CancelButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tileref:cancel"):
    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label=_("Cancel"), style=discord.ButtonStyle.secondary,
                                           custom_id="tileref:cancel"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> CancelButton:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        async with answering(interaction) as answer:
            await answer.edit_clicked(content=_("Cancelled: nothing was changed."), view=None)


async def ask(interaction: discord.Interaction, what: str, *, to: int | None = None,
              target: int | None = None) -> None:
    """Show the caller, privately, what `what` would do, with Confirm and Cancel."""
    referee: Referee = interaction.client.referee  # type: ignore[attr-defined]
    async with answering(interaction, private=True) as answer:
        place = place_of(interaction.channel_id)
        user = await caller(referee, interaction)
        preview: Reply = await answer.run(referee.preview(
            place, user, "rollback" if what == "reopen" else what, to=to,
            target=user_key(target) if target is not None else None, reopen=what == "reopen"))
        if not preview.ok or preview.table_id is None:
            for outgoing in await refusal_messages(referee, preview, place):
                await answer.send(outgoing, ephemeral=True)
            return
        argument = str(to if to is not None else target if target is not None else "")
        text = render(preview.caller.text) if preview.caller else _("Are you sure?")
        await answer.send(Outgoing(text, view=confirm_view(what, preview.table_id, preview.ply or 0, argument)),
                          ephemeral=True)
