"""Persistent buttons: their custom ids encode the action and the table (`tileref:join:42`), so
any running instance of the bot handles them, old messages and restarts included.

Lobby messages carry Join, Leave, Add bot (the table's `ai_level`, normal by default), Add bot: easy,
Add bot: hard and Start; move messages carry Show hand (and Ready
while a round break waits for the players, and Join in a game that lets players join on the way).
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.core.i18n import N_, _
from bot.core.replies import Reply
from bot.words.wording import level_word

ACTIONS = ("join", "leave", "addbot", "addeasy", "addhard", "start", "hand", "ready", "rematch")
BOT_LEVELS = {"addbot": None, "addeasy": "easy", "addhard": "hard"}
"""The level each Add bot button seats (None: the table's `ai_level` option, else normal); a
button naming its level names it in the table's language ("Añadir bot: fácil")."""
_LOOK: dict[str, tuple[str, discord.ButtonStyle, str]] = {
    "join": (N_("Join"), discord.ButtonStyle.primary, "👋"),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary, "🚪"),
    "addbot": (N_("Add bot"), discord.ButtonStyle.secondary, "🤖"),
    "addeasy": (N_("Add bot: {level}"), discord.ButtonStyle.secondary, "🐣"),
    "addhard": (N_("Add bot: {level}"), discord.ButtonStyle.secondary, "🧠"),
    "start": (N_("Start"), discord.ButtonStyle.success, "▶️"),
    "hand": (N_("Show hand"), discord.ButtonStyle.secondary, "✋"),
    "ready": (N_("Ready"), discord.ButtonStyle.success, "✅"),
    "rematch": (N_("Rematch"), discord.ButtonStyle.primary, "🔁"),
}


class ButtonHandler(Protocol):
    """The client that handles presses of table buttons (the bot in app.py)."""

    async def table_button_pressed(self, interaction: discord.Interaction, action: str, table_id: int) -> None: ...


def custom_id(action: str, table_id: int) -> str:
    return f"tileref:{action}:{table_id}"


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"tileref:(?P<action>join|leave|addbot|addeasy|addhard|start|hand|ready|rematch)"
                           r":(?P<table>\d+)"):
    """One table button; pressing it hands the press to the client's `table_button_pressed`."""

    def __init__(self, action: str, table_id: int) -> None:
        label, style, emoji = _LOOK[action]
        level = BOT_LEVELS.get(action)
        super().__init__(discord.ui.Button(label=_(label).format(level=level_word(level)) if level else _(label),
                                           style=style, emoji=emoji,
                                           custom_id=custom_id(action, table_id)))
        self.action = action
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> TableButton:
        return cls(match["action"], int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # The bot (app.py) owns the handlers: views are built by the modules that reply, so the
        # handlers, which reply, are reached through the client rather than imported here.
        client: ButtonHandler = interaction.client  # type: ignore[assignment]
        await client.table_button_pressed(interaction, self.action, self.table_id)


def view_of(table_id: int, *actions: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(TableButton(action, table_id))
    return view


def lobby_view(table_id: int) -> discord.ui.View:
    return view_of(table_id, "join", "leave", "addbot", "addeasy", "addhard", "start")


def controls(reply: Reply) -> discord.ui.View | None:
    """The buttons for a message showing the game after `reply` (`Reply.controls`: Show hand while
    it is played, Ready while a round break waits for players, Join while newcomers may sit down,
    and Rematch once it is over)."""
    if reply.table_id is None or not reply.controls:
        return None
    return view_of(reply.table_id, *reply.controls)
