"""Who and where: Discord users, threads and servers as the referee names them.

Places are `discord:<thread id>`, users `discord:<user id>`, servers `discord:<guild id>`. A
moderator has the Manage Threads permission in the channel, or the server's moderator role
(`Settings.moderator_role`, stored as a role mention `<@&id>`). A manager, who may change the
server's settings, has Manage Server.
"""

from __future__ import annotations

import re
from typing import TypeVar

import discord
from discord import app_commands

from bot.core.i18n import N_
from bot.core.records import User
from bot.service.referee import Referee

PREFIX = "discord:"
T = TypeVar("T")
NO_GAME = N_("There is no game here; start one with `/tileref new`.")
_ROLE = re.compile(r"([0-9]{1,20})")


def place_of(channel_id: int | None) -> str:
    """The referee's place for a Discord channel or thread."""
    return f"{PREFIX}{channel_id}"


def user_key(user_id: int) -> str:
    """The referee's user id for a Discord user."""
    return f"{PREFIX}{user_id}"


def guild_key(guild_id: int) -> str:
    """The referee's settings key for a Discord server."""
    return f"{PREFIX}{guild_id}"


def snowflake(user_id: str | None) -> int | None:
    """The Discord id inside a referee user id (`discord:123` -> 123); None for other transports."""
    number = user_id[len(PREFIX):] if user_id and user_id.startswith(PREFIX) else ""
    return int(number) if number.isascii() and number.isdigit() else None


def role_id(stored: str | None) -> int | None:
    """The role id in a stored moderator role (`<@&123>` or `123`)."""
    match = _ROLE.search(stored or "")
    return int(match.group(1)) if match else None


def player(member: discord.abc.User) -> User:
    """A referee user for someone who is not acting as a moderator (typed moves)."""
    return User(id=user_key(member.id), name=member.display_name)


async def is_moderator(referee: Referee, member: discord.abc.User, permissions: discord.Permissions,
                       guild_id: int | None) -> bool:
    """Manage Threads in this channel, or the server's moderator role."""
    if permissions.manage_threads or permissions.administrator:
        return True
    if guild_id is None or not isinstance(member, discord.Member):
        return False
    wanted = role_id((await referee.settings(guild_key(guild_id))).moderator_role)
    return wanted is not None and any(role.id == wanted for role in member.roles)


async def caller(referee: Referee, interaction: discord.Interaction) -> User:
    """The referee user issuing an interaction, with their moderator standing."""
    member = interaction.user
    moderator = await is_moderator(referee, member, interaction.permissions, interaction.guild_id)
    permissions = interaction.permissions
    manager = permissions.manage_guild or permissions.administrator
    return User(id=user_key(member.id), name=member.display_name, moderator=moderator, manager=manager)


def everywhere(command: T) -> T:
    """A command players may use wherever they are: on a server that has the bot, in a DM with
    the bot, and, once they have installed the app for themselves, in any DM or on any server
    (Discord's user-installable apps)."""
    command = app_commands.allowed_installs(guilds=True, users=True)(command)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(command)


def served_here(interaction: discord.Interaction) -> str | None:
    """The server whose records a command reads: the one it was used on, if the bot is on it
    (installed there, not only by the user); None elsewhere (a DM, or a server the bot is not
    on): then every server's."""
    if interaction.guild_id is None or not interaction.is_guild_integration():
        return None
    return guild_key(interaction.guild_id)
