"""What a member may do in a channel, computed as Discord computes it.

Discord's developer documentation ("Permissions" topic: *Permission Overwrites*, *Implicit
Permissions*, *Inherited Permissions (Threads)*) gives the order, and the stand-in follows it:

1. base permissions: the guild's owner may do everything; otherwise the ``@everyone`` role's
   permissions OR those of every role the member has; ADMINISTRATOR among them grants everything
   and no channel overwrite applies;
2. the channel's overwrites, in this order: the ``@everyone`` overwrite (deny, then allow); the
   overwrites of the member's roles, all denies together and then all allows together (so a role
   that allows beats a role that denies, whatever their positions); the member's own overwrite;
3. the implicit rules: without Send Messages a channel also takes Send TTS Messages, Mention
   @everyone, Embed Links and Attach Files away; without View Channel nothing in the channel is
   left;
4. threads have no overwrites of their own: they take their parent channel's, and there Send
   Messages in Threads plays the part of Send Messages.

The results are bit for bit what discord.py's ``permissions_for`` computes from the same roles and
overwrites (``TextChannel``, ``ForumChannel``, ``Thread``; a text channel also leaves out the
voice permissions, even for the owner), so the bot's cache and the stand-in agree whenever the bot
heard of every change. Not modelled: timed-out members, private threads' membership, categories' syncing (an
overwrite lives on the channel it is set on).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from .model import Channel, Guild, Overwrite

ALL = discord.Permissions.all().value
ADMINISTRATOR = discord.Permissions(administrator=True).value
VIEW_CHANNEL = discord.Permissions(view_channel=True).value
SEND_MESSAGES = discord.Permissions(send_messages=True).value
SEND_MESSAGES_IN_THREADS = discord.Permissions(send_messages_in_threads=True).value
TAKEN_WITHOUT_SENDING = discord.Permissions(
    send_tts_messages=True, mention_everyone=True, embed_links=True, attach_files=True
).value
"""What a channel implicitly denies to whoever may not send messages in it."""
CHANNEL_PERMISSIONS = discord.Permissions.all_channel().value
"""Everything that applies in a channel: all of it is gone without View Channel."""
VOICE_PERMISSIONS = discord.Permissions.voice().value

# Channel types (kept here so this module needs nothing from model.py at run time)
_TEXT, _CATEGORY, _NEWS, _FORUM = 0, 4, 5, 15
_THREADS = (10, 11, 12)


def names(value: int) -> list[str]:
    """The names (discord.py's, ``attach_files``…) of the permissions set in ``value``."""
    return [name for name, granted in discord.Permissions(value) if granted]


def value_of(permissions: int | discord.Permissions | Iterable[str]) -> int:
    """A permission value from a number, a ``discord.Permissions`` or names (``"attach_files"``)."""
    if isinstance(permissions, discord.Permissions):
        return permissions.value
    if isinstance(permissions, int):
        return permissions
    return discord.Permissions(**dict.fromkeys(permissions, True)).value


def base_permissions(guild: Guild, user_id: int) -> int:
    """A member's guild-level permissions: everything for the owner; else ``@everyone`` and the
    member's roles together, everything if that includes ADMINISTRATOR. 0 for a non-member."""
    if user_id == guild.owner_id:
        return ALL
    member = guild.members.get(user_id)
    if member is None:
        return 0
    value = guild.everyone.permissions
    for role_id in member.role_ids:
        role = guild.roles.get(role_id)
        if role is not None:
            value |= role.permissions
    return ALL if value & ADMINISTRATOR else value


def with_overwrites(base: int, guild: Guild, user_id: int, overwrites: Iterable[Overwrite]) -> int:
    """``base`` after a channel's overwrites, in Discord's order: ``@everyone``'s, then the
    member's roles' (all denies, then all allows), then the member's own. ADMINISTRATOR (and so
    the owner's ``ALL``) is beyond every overwrite."""
    if base & ADMINISTRATOR:
        return ALL
    member = guild.members.get(user_id)
    role_ids = set(member.role_ids) if member is not None else set()
    by_target = {(o.type, o.id): o for o in overwrites}
    value = base
    everyone = by_target.get((0, guild.id))
    if everyone is not None:
        value = (value & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for (kind, target), overwrite in by_target.items():
        if kind == 0 and target in role_ids and target != guild.id:
            allow |= overwrite.allow
            deny |= overwrite.deny
    value = (value & ~deny) | allow
    own = by_target.get((1, user_id))
    if own is not None:
        value = (value & ~own.deny) | own.allow
    return value


def channel_permissions(guild: Guild, channel: Channel, user_id: int) -> int:
    """What ``user_id`` may do in ``channel`` (a channel or thread of ``guild``): base
    permissions, the channel's overwrites (a thread's parent's), then the implicit rules."""
    thread = channel.type in _THREADS
    source = guild.channels.get(channel.parent_id or 0) if thread else channel
    base = base_permissions(guild, user_id)
    value = with_overwrites(base, guild, user_id, source.overwrites if source is not None else [])
    if thread:
        sending = SEND_MESSAGES_IN_THREADS
    elif channel.type in (_TEXT, _NEWS, _FORUM):
        sending = SEND_MESSAGES
        value &= ~VOICE_PERMISSIONS
    else:  # a category: no implicit rules (as discord.py)
        return value
    if not value & sending:
        value &= ~TAKEN_WITHOUT_SENDING
    if not value & VIEW_CHANNEL:
        value &= ~CHANNEL_PERMISSIONS
    return value


__all__ = [
    "ADMINISTRATOR",
    "ALL",
    "CHANNEL_PERMISSIONS",
    "SEND_MESSAGES",
    "SEND_MESSAGES_IN_THREADS",
    "TAKEN_WITHOUT_SENDING",
    "VIEW_CHANNEL",
    "VOICE_PERMISSIONS",
    "base_permissions",
    "channel_permissions",
    "names",
    "value_of",
    "with_overwrites",
]
