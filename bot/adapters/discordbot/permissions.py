"""What the bot may do in a channel, and telling a table once which permission it lacks.

A message Discord refuses for a missing permission (403, code 50013) is sent again without what
needs it: without files (Attach Files: the board comes as text), embeds (Embed Links), or being
a reply (Read Message History); a reaction that cannot be added (Add Reactions) is said in words.
The first time a table meets a missing permission, it is told which one and what it costs.
Without View Channel or Send Messages nothing can be said there at all: the message is left to
the outbox, which tries again for a while.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Iterable

import discord

from bot.core.i18n import N_, _

log = logging.getLogger(__name__)

FORBIDDEN = 50013
"""Discord's error code for a missing permission."""
TOLD_KEPT = 10_000

ATTACH_FILES = "attach_files"
EMBED_LINKS = "embed_links"
READ_MESSAGE_HISTORY = "read_message_history"
ADD_REACTIONS = "add_reactions"

WHAT_IT_COSTS = {
    ATTACH_FILES: (N_("Attach Files"), N_("boards come as text only; `/board` shows you the picture privately")),
    EMBED_LINKS: (N_("Embed Links"), N_("some pictures and links are left out")),
    READ_MESSAGE_HISTORY: (N_("Read Message History"), N_("I cannot answer typed moves as replies to them")),
    ADD_REACTIONS: (N_("Add Reactions"), N_("I answer typed moves in words instead of with ⏳ and ❌")),
}

_told: OrderedDict[tuple[int, str], None] = OrderedDict()


def permissions_here(channel: object) -> discord.Permissions | None:
    """The bot's permissions in `channel` as Discord last told it, or None if unknown (a DM, a
    server not in the cache)."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not hasattr(channel, "permissions_for"):
        return None
    permissions: discord.Permissions = channel.permissions_for(me)
    return permissions


def can_post(channel: object) -> bool:
    """Whether the bot may post at all in `channel` (as far as it knows: True when unknown)."""
    permissions = permissions_here(channel)
    if permissions is None:
        return True
    needed = permissions.send_messages_in_threads if isinstance(channel, discord.Thread) else permissions.send_messages
    return bool(permissions.view_channel and needed)


def lacking(channel: object, *, files: bool = False, embeds: bool = False, reply: bool = False,
            reaction: bool = False) -> list[str]:
    """The permissions, of those a message with these parts needs beyond posting, that the bot
    lacks in `channel` ([] when unknown)."""
    permissions = permissions_here(channel)
    if permissions is None:
        return []
    wanted = [(files, ATTACH_FILES), (embeds, EMBED_LINKS), (reply or reaction, READ_MESSAGE_HISTORY),
              (reaction, ADD_REACTIONS)]
    return [name for needed, name in wanted if needed and not getattr(permissions, name)]


def refused_for_permission(error: discord.HTTPException) -> bool:
    """Whether Discord refused a request because a permission is missing."""
    return isinstance(error, discord.Forbidden) and error.code == FORBIDDEN


def not_yet_told(channel_id: int, names: Iterable[str]) -> list[str]:
    """Those of `names` the table at `channel_id` has not been told it lacks; they count as told
    from now on (in this process)."""
    fresh = []
    for name in names:
        if (channel_id, name) not in _told:
            _told[(channel_id, name)] = None
            fresh.append(name)
    while len(_told) > TOLD_KEPT:
        _told.popitem(last=False)
    return fresh


def missing_note(names: Iterable[str]) -> str:
    """What the table reads about the permissions it lacks, one line each."""
    lines = [_("⚠️ I am missing the **{permission}** permission here, so {consequence}. A server admin can "
               "give it to my role in the channel's settings.").format(permission=_(WHAT_IT_COSTS[name][0]),
                                                                       consequence=_(WHAT_IT_COSTS[name][1]))
             for name in names if name in WHAT_IT_COSTS]
    return "\n".join(lines)


async def tell_missing(channel: discord.abc.Messageable, names: Iterable[str]) -> None:
    """Tell the table in `channel` which of `names` the bot lacks, unless it was told already;
    never raises (a note that cannot be posted is logged)."""
    fresh = not_yet_told(getattr(channel, "id", 0), names)
    if not fresh:
        return
    log.warning("missing permissions %s in channel %s", fresh, getattr(channel, "id", "?"))
    try:
        await channel.send(content=missing_note(fresh), allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.warning("could not tell channel %s about missing permissions", getattr(channel, "id", "?"), exc_info=True)
