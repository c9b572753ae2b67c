"""Plain data objects of the Discord stand-in and their Discord JSON shapes.

Everything here is synchronous and free of I/O: users, roles, channels, guilds,
stored messages (mutable, the stand-in's "database") and the immutable
:class:`RecordedMessage` snapshots that tests read.
"""

from __future__ import annotations

import datetime as dt
import io
import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Literal

import discord

from .permissions import ALL, base_permissions, channel_permissions

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000

EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Channel types (https://discord.com/developers/docs/resources/channel#channel-object-channel-types)
TEXT, DM, CATEGORY, NEWS, NEWS_THREAD, PUBLIC_THREAD, PRIVATE_THREAD, FORUM = 0, 1, 4, 5, 10, 11, 12, 15
GROUP_DM = 3
THREAD_TYPES = (NEWS_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
CHANNEL_TYPE_NAMES: dict[str, int] = {
    "text": TEXT,
    "category": CATEGORY,
    "news": NEWS,
    "forum": FORUM,
    "public_thread": PUBLIC_THREAD,
    "private_thread": PRIVATE_THREAD,
}

#: What every member may do unless told otherwise (the ``@everyone`` role): what a new Discord
#: server lets its members do in text channels.
DEFAULT_EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
    change_nickname=True,
).value

#: What the bot's managed role grants: the permissions its invite link asks for (the README's
#: ``311385246784``: Manage Threads is optional and left out).
DEFAULT_BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_application_commands=True,
).value

ALL_PERMISSIONS = ALL


class Snowflakes:
    """Generates strictly increasing Discord snowflakes whose timestamp is *now*."""

    def __init__(self) -> None:
        self._last = 0
        self._lock = threading.Lock()

    def next(self) -> int:
        """Return a new snowflake, greater than every one returned before."""
        with self._lock:
            candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
            self._last = max(candidate, self._last + 1)
            return self._last


def iso(ts: dt.datetime | None) -> str | None:
    """Discord's ISO-8601 timestamp format (or ``None``)."""
    return None if ts is None else ts.isoformat()


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def permissions_value(value: int | discord.Permissions) -> int:
    return value.value if isinstance(value, discord.Permissions) else int(value)


@dataclass(eq=False)
class User:
    """A Discord user known to the stand-in (a human player or the bot)."""

    id: int
    name: str
    bot: bool = False
    global_name: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_json(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name
            if self.global_name is not None
            else (None if self.bot else self.name),
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass(eq=False)
class Role:
    """A guild role; the ``@everyone`` role has the guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def to_json(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


ROLE_OVERWRITE, MEMBER_OVERWRITE = 0, 1


@dataclass(eq=False)
class Overwrite:
    """A channel's permission overwrite for a role (``type`` 0; the ``@everyone`` role has the
    guild's id) or a member (``type`` 1): what it allows and denies there beyond their roles."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def to_json(self) -> JSON:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass(eq=False)
class Member:
    """A user's membership in a guild."""

    user: User
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: dt.datetime = field(default_factory=now)

    def to_json(self, *, with_user: bool = True, permissions: int | None = None) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.to_json()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class Channel:
    """A guild channel, thread or DM channel."""

    id: int
    type: int
    name: str
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    owner_id: int | None = None  # threads
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    rate_limit_per_user: int = 0
    created_at: dt.datetime = field(default_factory=now)
    archived_at: dt.datetime | None = None
    member_ids: list[int] = field(default_factory=list)  # thread members
    recipient: User | None = None  # DM channels
    last_message_id: int | None = None
    message_count: int = 0
    topic: str | None = None
    applied_tags: list[int] = field(default_factory=list)
    overwrites: list[Overwrite] = field(default_factory=list)  # guild channels; threads take their parent's

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_json(self, *, me_id: int | None = None) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "last_message_id": None if self.last_message_id is None else str(self.last_message_id),
            "flags": 0,
        }
        if self.type == DM:
            data["recipients"] = [self.recipient.to_json()] if self.recipient else []
            return data
        if self.type == GROUP_DM:  # people's own group DM: the bot is not in it
            data.update(name=self.name, recipients=[], owner_id=None if self.owner_id is None else str(self.owner_id))
            return data
        data.update(
            {
                "guild_id": None if self.guild_id is None else str(self.guild_id),
                "name": self.name,
                "parent_id": None if self.parent_id is None else str(self.parent_id),
                "rate_limit_per_user": self.rate_limit_per_user,
                "nsfw": False,
            }
        )
        if self.is_thread:
            data.update(
                {
                    "owner_id": None if self.owner_id is None else str(self.owner_id),
                    "message_count": self.message_count,
                    "total_message_sent": self.message_count,
                    "member_count": len(self.member_ids),
                    "applied_tags": [str(t) for t in self.applied_tags],
                    "thread_metadata": {
                        "archived": self.archived,
                        "auto_archive_duration": self.auto_archive_duration,
                        "archive_timestamp": iso(self.archived_at or self.created_at),
                        "locked": self.locked,
                        "invitable": self.invitable,
                        "create_timestamp": iso(self.created_at),
                    },
                }
            )
            if me_id is not None and me_id in self.member_ids:
                data["member"] = {
                    "id": str(self.id),
                    "user_id": str(me_id),
                    "join_timestamp": iso(self.created_at),
                    "flags": 0,
                }
            return data
        data.update(
            {
                "position": self.position,
                "permission_overwrites": [o.to_json() for o in self.overwrites],
                "topic": self.topic,
            }
        )
        if self.type in (TEXT, NEWS, FORUM):
            data["default_auto_archive_duration"] = 1440
            data["default_thread_rate_limit_per_user"] = 0
        if self.type == FORUM:
            data.update(
                {
                    "available_tags": [],
                    "default_reaction_emoji": None,
                    "default_sort_order": None,
                    "default_forum_layout": 0,
                }
            )
        return data


@dataclass(eq=False)
class Guild:
    """A guild with its roles, channels and members."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)  # includes threads
    members: dict[int, Member] = field(default_factory=dict)
    features: list[str] = field(default_factory=list)
    locale: str = "en-US"

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions of a member (before any channel's overwrites; see
        :meth:`permissions_in` for a channel)."""
        return base_permissions(self, user_id)

    def permissions_in(self, channel: Channel, user_id: int) -> int:
        """What a member may do in ``channel`` (or thread) of this guild, as Discord computes it."""
        return channel_permissions(self, channel, user_id)

    def to_json(self, *, members: list[Member], me_id: int) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "features": list(self.features),
            "roles": [r.to_json() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "max_members": 500000,
            "max_video_channel_users": 25,
            "joined_at": iso(self.members[me_id].joined_at) if me_id in self.members else None,
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.to_json() for m in members],
            "channels": [c.to_json() for c in self.channels.values() if not c.is_thread],
            "threads": [
                c.to_json(me_id=me_id) for c in self.channels.values() if c.is_thread and not c.archived
            ],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass(eq=False)
class StoredAttachment:
    """A file held by the stand-in (uploaded by the bot or handed to it by a test)."""

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None
    width: int | None = None
    height: int | None = None

    def to_json(self, *, ephemeral: bool = False) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "description": self.description,
            "flags": 0,
        }
        if self.width is not None:
            data["width"] = self.width
            data["height"] = self.height
        if ephemeral:
            data["ephemeral"] = True
        return data


@dataclass(eq=False)
class StoredMessage:
    """The current, mutable state of one message in a channel."""

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    created_at: dt.datetime = field(default_factory=now)
    edited_at: dt.datetime | None = None
    interaction_id: int | None = None
    interaction_json: JSON | None = None  # deprecated "interaction" field
    interaction_metadata: JSON | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    mentions: list[User] = field(default_factory=list)
    mention_role_ids: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    message_reference: JSON | None = None
    referenced: StoredMessage | None = None
    nonce: str | None = None
    thread: Channel | None = None
    reactions: dict[str, set[int]] = field(default_factory=dict)
    pinned: bool = False
    deleted: bool = False

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def to_json(self, *, member: JSON | None = None, me_id: int | None = None, nested: bool = False) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.to_json(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at),
            "tts": self.tts,
            "mention_everyone": self.mention_everyone,
            "mentions": [u.to_json() for u in self.mentions],
            "mention_roles": [str(r) for r in self.mention_role_ids],
            "attachments": [a.to_json(ephemeral=self.ephemeral) for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": self.pinned,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if member is not None:
            data["member"] = member
        if self.reactions:
            data["reactions"] = [
                {
                    "emoji": _emoji_json(emoji),
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": me_id in users,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for emoji, users in self.reactions.items()
                if users
            ]
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.interaction_json is not None:
            data["interaction"] = self.interaction_json
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
            if not nested:
                data["referenced_message"] = (
                    None
                    if self.referenced is None or self.referenced.deleted
                    else self.referenced.to_json(nested=True)
                )
        if self.thread is not None:
            data["thread"] = self.thread.to_json(me_id=me_id)
        return data


def _emoji_json(emoji: str) -> JSON:
    # "name:id" for custom emojis, else the unicode character itself.
    name, _, eid = emoji.partition(":")
    return {"id": eid or None, "name": name}


@dataclass(frozen=True)
class Button:
    """A button as it appeared on a recorded message."""

    label: str | None
    custom_id: str | None
    style: int
    disabled: bool = False
    url: str | None = None
    emoji: str | None = None


@dataclass(frozen=True)
class SelectMenu:
    """A select menu as it appeared on a recorded message."""

    custom_id: str
    type: int
    options: tuple[tuple[str, str], ...]  # (label, value)
    placeholder: str | None = None
    min_values: int = 1
    max_values: int = 1
    disabled: bool = False


def walk_components(components: list[JSON]) -> list[JSON]:
    """All components of a message, depth first (action rows, containers, sections…)."""
    out: list[JSON] = []
    for comp in components:
        out.append(comp)
        for key in ("components",):
            if isinstance(comp.get(key), list):
                out.extend(walk_components(comp[key]))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                out.extend(walk_components([comp[key]]))
    return out


@dataclass(frozen=True)
class RecordedMessage:
    """A snapshot of a message the bot created (``kind == "create"``) or edited (``"edit"``).

    ``payload`` is the full Discord message JSON as the stand-in returned it to the bot;
    the other fields are convenient views of it.
    """

    seq: int
    kind: Literal["create", "edit"]
    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    content: str
    embeds: list[JSON]
    components: list[JSON]
    flags: int
    attachments: list[tuple[str, bytes]]
    interaction_id: int | None
    payload: JSON

    @property
    def ephemeral(self) -> bool:
        """True if only the invoking user can see this message (flag 64)."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True for the "Bot is thinking…" placeholder of a deferred interaction."""
        return bool(self.flags & LOADING)

    def png_images(self) -> list[Any]:
        """Decode every attachment as a PNG with Pillow.

        Returns loaded ``PIL.Image.Image`` objects in attachment order.  Raises
        ``AssertionError`` if an attachment is not a valid PNG file.
        """
        from PIL import Image

        images = []
        for filename, data in self.attachments:
            assert data[:8] == b"\x89PNG\r\n\x1a\n", f"attachment {filename!r} is not a PNG (bad signature)"
            img = Image.open(io.BytesIO(data))
            img.load()
            assert img.format == "PNG", f"attachment {filename!r} decoded as {img.format}, not PNG"
            images.append(img)
        return images

    def buttons(self) -> list[Button]:
        """Every button on the message (any nesting), in display order."""
        return [
            Button(
                label=c.get("label"),
                custom_id=c.get("custom_id"),
                style=int(c.get("style", 1)),
                disabled=bool(c.get("disabled", False)),
                url=c.get("url"),
                emoji=(c.get("emoji") or {}).get("name"),
            )
            for c in walk_components(self.components)
            if c.get("type") == 2
        ]

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> Button:
        """The single button with this label (or custom id); AssertionError if not exactly one."""
        found = [
            b
            for b in self.buttons()
            if (label is None or b.label == label) and (custom_id is None or b.custom_id == custom_id)
        ]
        assert len(found) == 1, (
            f"expected one button label={label!r} custom_id={custom_id!r}, got {self.buttons()}"
        )
        return found[0]

    def selects(self) -> list[SelectMenu]:
        """Every select menu on the message."""
        return [
            SelectMenu(
                custom_id=c["custom_id"],
                type=int(c["type"]),
                options=tuple((o.get("label", ""), o.get("value", "")) for o in c.get("options", [])),
                placeholder=c.get("placeholder"),
                min_values=int(c.get("min_values", 1)),
                max_values=int(c.get("max_values", 1)),
                disabled=bool(c.get("disabled", False)),
            )
            for c in walk_components(self.components)
            if c.get("type") in (3, 5, 6, 7, 8)
        ]

    def text(self) -> str:
        """Content plus embed titles/descriptions/fields and text displays, newline-joined."""
        parts = [self.content] if self.content else []
        for e in self.embeds:
            for key in ("title", "description"):
                if e.get(key):
                    parts.append(str(e[key]))
            for f in e.get("fields", []):
                parts.append(f"{f.get('name', '')}: {f.get('value', '')}")
            if (e.get("footer") or {}).get("text"):
                parts.append(e["footer"]["text"])
        for c in walk_components(self.components):
            if c.get("type") == 10 and c.get("content"):
                parts.append(c["content"])
        return "\n".join(parts)


_counter = itertools.count(1)


def snapshot(msg: StoredMessage, kind: Literal["create", "edit"], payload: JSON) -> RecordedMessage:
    """Freeze a stored message into a :class:`RecordedMessage`."""
    return RecordedMessage(
        seq=next(_counter),
        kind=kind,
        id=msg.id,
        channel_id=msg.channel_id,
        guild_id=msg.guild_id,
        author_id=msg.author.id,
        content=msg.content,
        embeds=[dict(e) for e in msg.embeds],
        components=list(msg.components),
        flags=msg.flags,
        attachments=[(a.filename, a.data) for a in msg.attachments],
        interaction_id=msg.interaction_id,
        payload=payload,
    )
