"""The stand-in's world and everything the bot did in it.

:class:`StandInState` owns the guilds, users, channels and messages, records every
message the bot creates or edits (:attr:`StandInState.messages`), every interaction
and how it was answered (:attr:`StandInState.interaction_responses`), the synced
application commands, and the problems seen (:attr:`unhandled` routes,
:attr:`errors` = requests refused the way Discord would refuse them).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord

from . import gateway as gw
from .model import (
    CHANNEL_TYPE_NAMES,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    DM,
    EPHEMERAL,
    GROUP_DM,
    JSON,
    MEMBER_OVERWRITE,
    PUBLIC_THREAD,
    ROLE_OVERWRITE,
    TEXT,
    Channel,
    Guild,
    Member,
    Overwrite,
    RecordedMessage,
    Role,
    Snowflakes,
    StoredAttachment,
    StoredMessage,
    User,
    permissions_value,
    snapshot,
)
from .permissions import VIEW_CHANNEL, value_of
from .validation import check_commands, form_error

log = logging.getLogger("tests.standin")

#: What anyone may do in a DM (no roles, no overwrites).
DM_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_application_commands=True,
).value

T = TypeVar("T")

# Interaction types and callback types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CALLBACK_NAMES = {
    1: "PONG",
    4: "CHANNEL_MESSAGE_WITH_SOURCE",
    5: "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    6: "DEFERRED_UPDATE_MESSAGE",
    7: "UPDATE_MESSAGE",
    8: "APPLICATION_COMMAND_AUTOCOMPLETE_RESULT",
    9: "MODAL",
}
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {4, 5, 9},
    MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    AUTOCOMPLETE: {8},
    MODAL_SUBMIT: {4, 5, 6, 7},
    PING: {1},
}
USER_FLAGS = (
    EPHEMERAL | (1 << 2) | (1 << 12) | (1 << 15) | (1 << 13)
)  # ephemeral, suppress embeds/notifs, v2, voice


class StandInTimeout(AssertionError):
    """Raised when something a test waits for does not happen in time."""


def invalid_form(path: str, code: str, message: str) -> DiscordError:
    """Discord's 400 / 50035 Invalid Form Body error for one field."""
    return DiscordError(400, 50035, "Invalid Form Body", form_error([(path, code, message)])["errors"])


class DiscordError(Exception):
    """A request the stand-in refuses the way Discord would (status + Discord JSON error)."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body: JSON = {"code": code, "message": message}
        if errors is not None:
            self.body["errors"] = errors


@dataclass
class Upload:
    """A file received in a multipart request (``files[n]``)."""

    index: int
    filename: str
    data: bytes
    content_type: str | None = None


@dataclass(eq=False)
class InteractionRecord:
    """One interaction the stand-in dispatched and what the bot did with it."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    payload: JSON
    created: float
    message_id: int | None = None  # the message whose component was used
    callback_type: int | None = None
    callback_data: JSON | None = None
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    answers: list[RecordedMessage] = field(default_factory=list)

    @property
    def responded(self) -> bool:
        """True once the bot has called the interaction callback endpoint."""
        return self.callback_type is not None

    @property
    def callback_name(self) -> str | None:
        return (
            None
            if self.callback_type is None
            else CALLBACK_NAMES.get(self.callback_type, str(self.callback_type))
        )

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete choices ``[{"name": ..., "value": ...}]`` (type 8 callbacks)."""
        return list((self.callback_data or {}).get("choices", []))

    @property
    def modal(self) -> JSON | None:
        """The modal the bot opened (type 9 callbacks): ``{"custom_id", "title", "components"}``."""
        return self.callback_data if self.callback_type == 9 else None

    @property
    def followups(self) -> list[RecordedMessage]:
        """Latest snapshots of the follow-up messages, in the order they were sent."""
        latest = {m.id: m for m in self.answers}
        return [latest[i] for i in self.followup_ids if i in latest]


class StandInState:
    """World model + records.  See :class:`tests.standin.DiscordStandIn` for the public face."""

    def __init__(
        self,
        *,
        token: str = "standin-token",
        bot_name: str = "tileref",
        players: Iterable[str] = ("alice", "bob", "carol", "mod"),
        guild_name: str = "Tile Club",
        channel_name: str = "general",
        heartbeat_interval_ms: int = 5000,
        interaction_deadline: float | None = 3.0,
        privileged_intents: Iterable[str] = ("members", "presences", "message_content"),
        default_timeout: float = 5.0,
    ) -> None:
        self.ids = Snowflakes()
        self.base_url = ""
        self.token = token
        self.default_timeout = default_timeout
        self.interaction_deadline = interaction_deadline
        self.allowed_privileged_intents = sum(gw.PRIVILEGED_INTENTS[p] for p in privileged_intents)
        self.gateway = gw.Gateway(self, heartbeat_interval_ms=heartbeat_interval_ms)

        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.stored: dict[int, StoredMessage] = {}
        self.history: dict[int, list[int]] = {}
        self.files: dict[int, StoredAttachment] = {}

        #: Every message the bot created or edited, as snapshots, in order.
        self.messages: list[RecordedMessage] = []
        #: Ids of messages the bot deleted (its own or others'), in order.
        self.deleted_message_ids: list[int] = []
        #: Every interaction dispatched, by id, with the bot's answers.
        self.interaction_responses: dict[int, InteractionRecord] = {}
        #: Threads the bot created, in order.
        self.threads: list[Channel] = []
        #: Globally synced application commands (Discord JSON, with ids).
        self.global_commands: list[JSON] = []
        #: Guild-synced application commands by guild id.
        self.guild_commands: dict[int, list[JSON]] = {}
        #: How many times the bot bulk-synced commands (global + guild).
        self.sync_count = 0
        #: Requests the stand-in does not implement ("METHOD /path"); tests should assert it is empty.
        self.unhandled: list[str] = []
        #: Requests refused with a Discord error (bad payload, double ack, late ack, missing permission…).
        self.errors: list[str] = []
        #: Every REST request as "METHOD /path", in order.
        self.requests: list[str] = []
        #: The shard count ``GET /gateway/bot`` recommends.
        self.shard_count = 1
        #: Typing indicators sent, as channel ids.
        self.typing: list[int] = []
        #: Messages created with ``enforce_nonce``, by (author id, nonce): (message id, when), so the
        #: same nonce again within ``NONCE_SECONDS`` returns that message instead of a new one.
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}
        #: Messages the bot asked to create again with an enforced nonce, and was given the first.
        self.nonce_repeats: list[int] = []
        #: Users who do not accept DMs from the bot (see :meth:`close_dms`).
        self.dms_closed: set[int] = set()

        self._waiters: set[asyncio.Future[None]] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._action_mark = 0
        self._by_token: dict[str, InteractionRecord] = {}

        self.bot_user = self._new_user(bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner = self._new_user("owner")
        self.guild = self.add_guild(guild_name, owner=self.owner)
        self.channel = self.add_channel(channel_name)
        self.players: dict[str, User] = {name: self.add_user(name) for name in players}
        if "mod" in self.players:
            self.mod_role = self.add_role(
                "Moderator", permissions=discord.Permissions(manage_threads=True, manage_messages=True)
            )
            self.give_role(self.players["mod"], self.mod_role)

    # ------------------------------------------------------------------ world setup

    def _new_user(self, name: str, *, bot: bool = False) -> User:
        user = User(id=self.ids.next(), name=name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, *, owner: User | None = None) -> Guild:
        """Create a guild containing the bot (with its managed role) and ``owner``."""
        owner = owner or self.owner
        guild = Guild(id=self.ids.next(), name=name, owner_id=owner.id)
        guild.roles[guild.id] = Role(id=guild.id, name="@everyone", permissions=DEFAULT_EVERYONE_PERMISSIONS)
        bot_role = Role(
            id=self.ids.next(),
            name=self.bot_user.name,
            permissions=DEFAULT_BOT_PERMISSIONS,
            position=1,
            managed=True,
            bot_id=self.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = Member(self.bot_user, role_ids=[bot_role.id])
        guild.members[owner.id] = Member(owner)
        self.guilds[guild.id] = guild
        return guild

    def add_user(self, name: str, *, guild: Guild | None = None, bot: bool = False) -> User:
        """Create a user and make them a member of ``guild`` (default guild)."""
        user = self._new_user(name, bot=bot)
        guild = guild or self.guild
        guild.members[user.id] = Member(user)
        self._later(
            self.gateway.dispatch(
                "GUILD_MEMBER_ADD",
                {**guild.members[user.id].to_json(), "guild_id": str(guild.id)},
                intents=gw.GUILD_MEMBERS,
                guild_id=guild.id,
            )
        )
        return user

    def add_channel(
        self,
        name: str,
        *,
        type: str | int = "text",
        guild: Guild | None = None,
        parent: Channel | None = None,
    ) -> Channel:
        """Create a guild channel (``type``: text, category, news, forum)."""
        guild = guild or self.guild
        ctype = CHANNEL_TYPE_NAMES[type] if isinstance(type, str) else type
        channel = Channel(
            id=self.ids.next(),
            type=ctype,
            name=name,
            guild_id=guild.id,
            parent_id=parent.id if parent else None,
            position=len(guild.channels),
        )
        self._register_channel(guild, channel)
        self._later(
            self.gateway.dispatch("CHANNEL_CREATE", channel.to_json(), intents=gw.GUILDS, guild_id=guild.id)
        )
        return channel

    def add_thread(
        self, parent: Channel, name: str, *, owner: User, private: bool = False, members: Iterable[User] = ()
    ) -> Channel:
        """Create a thread as a *user* would (THREAD_CREATE is dispatched to the bot)."""
        thread = self._new_thread(parent, name, owner=owner, private=private)
        thread.member_ids.extend(u.id for u in members if u.id not in thread.member_ids)
        self._later(self._dispatch_thread("THREAD_CREATE", thread, newly_created=True))
        return thread

    def add_role(
        self, name: str, *, permissions: int | discord.Permissions = 0, guild: Guild | None = None
    ) -> Role:
        """Create a role in ``guild`` (GUILD_ROLE_CREATE is dispatched if a bot is connected)."""
        guild = guild or self.guild
        role = Role(
            id=self.ids.next(),
            name=name,
            permissions=permissions_value(permissions),
            position=len(guild.roles),
        )
        guild.roles[role.id] = role
        self._later(
            self.gateway.dispatch(
                "GUILD_ROLE_CREATE",
                {"guild_id": str(guild.id), "role": role.to_json()},
                intents=gw.GUILDS,
                guild_id=guild.id,
            )
        )
        return role

    def give_role(self, user: User | str, role: Role, *, guild: Guild | None = None) -> None:
        """Add ``role`` to a member (GUILD_MEMBER_UPDATE is dispatched if a bot is connected)."""
        guild = guild or self.guild
        member = guild.members[self.user(user).id]
        if role.id not in member.role_ids:
            member.role_ids.append(role.id)
        self._member_updated(guild, member)

    def set_role_permissions(
        self,
        role: Role,
        permissions: int | discord.Permissions | Iterable[str],
        *,
        guild: Guild | None = None,
        tell_bot: bool = True,
    ) -> None:
        """Make ``role`` (``guild.everyone`` too) grant exactly ``permissions``. The bot hears of it
        (GUILD_ROLE_UPDATE) unless ``tell_bot`` is False: then only the server knows, as in the
        moment before Discord's event reaches the bot (:meth:`send_update` sends it later)."""
        guild = guild or self.guild
        role.permissions = value_of(permissions)
        if tell_bot:
            self.send_update(role, guild=guild)

    def set_overwrite(
        self,
        channel: Channel,
        target: Role | User | str,
        *,
        allow: int | discord.Permissions | Iterable[str] = 0,
        deny: int | discord.Permissions | Iterable[str] = 0,
        tell_bot: bool = True,
    ) -> None:
        """Make ``channel``'s permission overwrite for ``target`` (a role, ``guild.everyone``, or a
        member) allow and deny exactly these (``deny=["attach_files"]``…), as a server admin does in
        the channel's settings; nothing allowed or denied removes the overwrite. Its threads follow
        it (they have no overwrites of their own: give the parent channel). The bot hears of it
        (CHANNEL_UPDATE) unless ``tell_bot`` is False (:meth:`send_update` sends it later)."""
        if channel.is_thread or channel.guild_id is None:
            raise ValueError(f"{channel.name!r} has no overwrites of its own: set them on a guild channel")
        kind, target_id = (
            (ROLE_OVERWRITE, target.id) if isinstance(target, Role) else (MEMBER_OVERWRITE, self.user(target).id)
        )
        kept = [o for o in channel.overwrites if (o.type, o.id) != (kind, target_id)]
        allowed, denied = value_of(allow), value_of(deny)
        if allowed or denied:
            kept.append(Overwrite(id=target_id, type=kind, allow=allowed, deny=denied & ~allowed))
        channel.overwrites = kept
        if tell_bot:
            self.send_update(channel)

    def overwrite_for(self, channel: Channel, target: Role | User | str) -> Overwrite | None:
        """``channel``'s overwrite for ``target`` (role or member), if it has one."""
        kind, target_id = (
            (ROLE_OVERWRITE, target.id) if isinstance(target, Role) else (MEMBER_OVERWRITE, self.user(target).id)
        )
        return next((o for o in channel.overwrites if (o.type, o.id) == (kind, target_id)), None)

    def withhold_from_bot(
        self, *names: str, channel: Channel | None = None, tell_bot: bool = True
    ) -> None:
        """Deny the bot the permissions ``names`` (``"attach_files"``…) in ``channel`` (default: the
        default channel, and so the game threads in it) with an overwrite on the bot's role, as a
        server admin takes a permission from a bot. (Taking it off the bot's role would change
        nothing where ``@everyone`` grants it, as on a normal server.) With ``tell_bot`` False the
        bot does not hear of it: what it knows of its permissions is behind the server's."""
        channel = channel or self.channel
        role = self.bot_role_in(self.guild_of(channel) or self.guild)
        current = self.overwrite_for(channel, role) or Overwrite(id=role.id, type=ROLE_OVERWRITE)
        denied = value_of(names)
        self.set_overwrite(
            channel, role, allow=current.allow & ~denied, deny=current.deny | denied, tell_bot=tell_bot
        )

    def send_update(self, target: Role | Channel, *, guild: Guild | None = None) -> None:
        """Send the bot the gateway event Discord sends when ``target`` changed: GUILD_ROLE_UPDATE for
        a role, CHANNEL_UPDATE (THREAD_UPDATE for a thread) for a channel, with what it is now."""
        if isinstance(target, Role):
            guild = guild or next((g for g in self.guilds.values() if target.id in g.roles), self.guild)
            data = {"guild_id": str(guild.id), "role": target.to_json()}
            self._later(self.gateway.dispatch("GUILD_ROLE_UPDATE", data, intents=gw.GUILDS, guild_id=guild.id))
        elif target.is_thread:
            self._later(self._dispatch_thread("THREAD_UPDATE", target))
        else:
            self._later(
                self.gateway.dispatch(
                    "CHANNEL_UPDATE", target.to_json(), intents=gw.GUILDS, guild_id=target.guild_id
                )
            )

    @property
    def bot_role(self) -> Role:
        """The bot's managed role in the default guild (what its invite granted)."""
        return self.bot_role_in(self.guild)

    def bot_role_in(self, guild: Guild) -> Role:
        """The bot's managed role in ``guild``."""
        return next(r for r in guild.roles.values() if r.bot_id == self.bot_user.id)

    def take_role(self, user: User | str, role: Role, *, guild: Guild | None = None) -> None:
        """Remove ``role`` from a member."""
        guild = guild or self.guild
        member = guild.members[self.user(user).id]
        if role.id in member.role_ids:
            member.role_ids.remove(role.id)
        self._member_updated(guild, member)

    def set_permissions(
        self, user: User | str, permissions: int | discord.Permissions, *, guild: Guild | None = None
    ) -> None:
        """Make ``user``'s permissions exactly ``permissions`` (plus what ``@everyone`` grants).

        Implemented as a personal role; any other roles of the member are removed.
        For the bot user this sets the permissions of its managed role.
        """
        guild = guild or self.guild
        u = self.user(user)
        member = guild.members[u.id]
        value = permissions_value(permissions)
        if u.id == self.bot_user.id:
            self.set_role_permissions(self.bot_role_in(guild), value, guild=guild)
            return
        name = f"perms:{u.name}"
        role = next((r for r in guild.roles.values() if r.name == name), None)
        if role is None:
            role = self.add_role(name, permissions=value, guild=guild)
        else:
            self.set_role_permissions(role, value, guild=guild)
        member.role_ids[:] = [role.id]
        self._member_updated(guild, member)

    def _member_updated(self, guild: Guild, member: Member) -> None:
        """GUILD_MEMBER_UPDATE: needs the GUILD_MEMBERS intent, except for the bot's own member
        (Discord sends that one whatever the intents: its roles are its permissions)."""
        self._later(
            self.gateway.dispatch(
                "GUILD_MEMBER_UPDATE",
                {**member.to_json(), "guild_id": str(guild.id)},
                intents=0 if member.user.id == self.bot_user.id else gw.GUILD_MEMBERS,
                guild_id=guild.id,
            )
        )

    def _register_channel(self, guild: Guild | None, channel: Channel) -> None:
        self.channels[channel.id] = channel
        self.history.setdefault(channel.id, [])
        if guild is not None:
            guild.channels[channel.id] = channel

    def _new_thread(
        self, parent: Channel, name: str, *, owner: User, private: bool = False, thread_id: int | None = None
    ) -> Channel:
        thread = Channel(
            id=thread_id or self.ids.next(),
            type=12 if private else PUBLIC_THREAD,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner.id,
            member_ids=[owner.id],
            auto_archive_duration=1440,
        )
        self._register_channel(self.guilds.get(parent.guild_id or 0), thread)
        return thread

    # ------------------------------------------------------------------ lookups

    def user(self, user: User | str | int) -> User:
        """Resolve a user given as object, name or id."""
        if isinstance(user, User):
            return user
        if isinstance(user, int):
            return self.users[user]
        for u in self.users.values():
            if u.name == user:
                return u
        raise KeyError(f"no user named {user!r}")

    def channel_of(self, channel: Channel | str | int) -> Channel:
        """Resolve a channel (or thread) given as object, name or id."""
        if isinstance(channel, Channel):
            return channel
        if isinstance(channel, int):
            return self.channels[channel]
        for c in self.channels.values():
            if c.name == channel:
                return c
        raise KeyError(f"no channel named {channel!r}")

    def guild_of(self, channel: Channel) -> Guild | None:
        return None if channel.guild_id is None else self.guilds[channel.guild_id]

    def permissions_in(self, user: User, channel: Channel) -> int:
        """Permissions of ``user`` in ``channel``: computed from the guild's roles and the channel's
        overwrites as Discord does (tests/standin/permissions.py); DMs get the usual DM set."""
        guild = self.guild_of(channel)
        if guild is None:
            return DM_PERMISSIONS
        return guild.permissions_in(channel, user.id)

    def require(self, user: User, channel: Channel, needed: int | discord.Permissions | Iterable[str]) -> int:
        """Refuse as Discord does unless ``user`` has every permission of ``needed`` in ``channel``:
        403 / 50001 Missing Access without View Channel, 403 / 50013 Missing Permissions otherwise.
        Returns the user's permissions there. DMs are not bound by channel permissions."""
        has = self.permissions_in(user, channel)
        if channel.guild_id is None:
            return has
        if not has & VIEW_CHANNEL:
            raise DiscordError(403, 50001, "Missing Access")
        wanted = value_of(needed)
        if has & wanted != wanted:
            raise DiscordError(403, 50013, "Missing Permissions")
        return has

    def message_json(self, msg: StoredMessage) -> JSON:
        """A message as Discord's REST API returns it (``reactions[].me`` from the bot's view)."""
        return msg.to_json(me_id=self.bot_user.id)

    def message(self, message_id: int) -> RecordedMessage:
        """The latest snapshot of a message (any author)."""
        msg = self.stored[message_id]
        return snapshot(msg, "create", self.message_json(msg))

    def dm_channel(self, user: User | str) -> Channel | None:
        """The DM channel between the bot and ``user``, if one was opened."""
        u = self.user(user)
        return next((c for c in self.channels.values() if c.type == DM and c.recipient is u), None)

    def group_dm(self, *users: User | str) -> Channel:
        """A group DM among ``users`` (a "private channel" the bot is not in): only commands of an
        app the caller installed for themselves work there (Discord's user-installable apps)."""
        members = [self.user(u) for u in users]
        channel = Channel(id=self.ids.next(), type=GROUP_DM, name="-".join(u.name for u in members),
                          owner_id=members[0].id, member_ids=[u.id for u in members])
        self._register_channel(None, channel)
        return channel

    def dm(self, user: User | str) -> Channel:
        """The DM channel between the bot and ``user``, opened if needed (to ``say``/``slash`` in DMs)."""
        existing = self.dm_channel(user)
        if existing is not None:
            return existing
        u = self.user(user)
        channel = Channel(id=self.ids.next(), type=DM, name=f"dm-{u.name}", recipient=u)
        self._register_channel(None, channel)
        return channel

    def close_dms(self, user: User | str, closed: bool = True) -> None:
        """Make ``user`` refuse DMs from the bot, as Discord does when a member turned off
        "Direct Messages" for the server: the bot's DM then fails with 403 / 50007."""
        u = self.user(user)
        if closed:
            self.dms_closed.add(u.id)
        else:
            self.dms_closed.discard(u.id)

    def token_ok(self, token: str) -> bool:
        return token == self.token

    # ------------------------------------------------------------------ waiting

    def notify(self) -> None:
        """Wake every waiter so it re-checks its condition."""
        for fut in list(self._waiters):
            if not fut.done():
                fut.set_result(None)

    async def wait_until(self, condition: Callable[[], T | None], *, timeout: float | None, what: str) -> T:
        """Wait until ``condition()`` returns something truthy and return it.

        Raises :class:`StandInTimeout` (an AssertionError) naming ``what`` and
        listing recent bot messages, unhandled routes and refused requests.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.default_timeout if timeout is None else timeout)
        while True:
            result = condition()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise StandInTimeout(self._timeout_report(what))
            fut: asyncio.Future[None] = loop.create_future()
            self._waiters.add(fut)
            try:
                await asyncio.wait_for(fut, remaining)
            except TimeoutError:
                pass
            finally:
                self._waiters.discard(fut)

    def _timeout_report(self, what: str) -> str:
        lines = [f"timed out waiting for {what}"]
        recent = self.messages[-5:]
        lines.append(f"last bot messages: {[(m.kind, m.channel_id, m.content[:60]) for m in recent]}")
        if self.unhandled:
            lines.append(f"unhandled requests: {self.unhandled}")
        if self.errors:
            lines.append(f"refused requests: {self.errors[-5:]}")
        lines.append(f"bot connected: {self.gateway.active is not None}")
        return "\n".join(lines)

    def note_unhandled(self, what: str) -> None:
        log.warning("stand-in does not handle %s", what)
        self.unhandled.append(what)
        self.notify()

    def note_error(self, what: str) -> None:
        log.warning("stand-in refused %s", what)
        self.errors.append(what)
        self.notify()

    def _later(self, coro: Any) -> None:
        """Run a gateway dispatch in the background if a loop runs, else drop it (setup before start)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            coro.close()
            return
        if self.gateway.active is None:
            coro.close()
            return
        task = loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ gateway payloads

    def application_flags(self) -> int:
        """Application flags announcing which privileged intents the "developer portal" allows."""
        flags = 0
        if self.allowed_privileged_intents & gw.GUILD_PRESENCES:
            flags |= 1 << 12
        if self.allowed_privileged_intents & gw.GUILD_MEMBERS:
            flags |= 1 << 14
        if self.allowed_privileged_intents & gw.MESSAGE_CONTENT:
            flags |= 1 << 18
        return flags

    def ready_payload(self, session: gw.Session) -> JSON:
        guilds = [g for g in self.guilds.values() if session.wants_guild(g.id)]
        flags = self.application_flags()
        data: JSON = {
            "v": 10,
            "user": {**self.bot_user.to_json(), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "user_settings": {},
            "_trace": ['["standin",{"micros":0}]'],
        }
        if session.shard is not None:
            data["shard"] = list(session.shard)
        return data

    def guild_create_payloads(self, session: gw.Session) -> list[JSON]:
        out = []
        for guild in self.guilds.values():
            if not session.wants_guild(guild.id):
                continue
            if session.intents & gw.GUILD_MEMBERS:
                members = list(guild.members.values())
            else:
                members = [guild.members[self.bot_user.id]]
            out.append(guild.to_json(members=members, me_id=self.bot_user.id))
        return out

    def members_chunk(
        self, guild_id: int, *, query: str | None, limit: int, user_ids: list[int]
    ) -> list[JSON]:
        guild = self.guilds.get(guild_id)
        if guild is None:
            return []
        members = list(guild.members.values())
        if user_ids:
            members = [m for m in members if m.user.id in user_ids]
        elif query:
            members = [m for m in members if m.user.name.lower().startswith(query.lower())]
        if limit:
            members = members[:limit]
        return [m.to_json() for m in members]

    @property
    def gateway_url(self) -> str:
        return self.base_url.replace("http://", "ws://", 1) + "/gateway"

    async def _dispatch_thread(self, event: str, thread: Channel, *, newly_created: bool = False) -> None:
        data = thread.to_json(me_id=self.bot_user.id)
        if newly_created:
            data["newly_created"] = True
        await self.gateway.dispatch(event, data, intents=gw.GUILDS, guild_id=thread.guild_id)

    # ------------------------------------------------------------------ commands

    def store_commands(self, payload: list[JSON], *, guild_id: int | None) -> list[JSON]:
        """Bulk-overwrite commands (global or for one guild), keeping ids of unchanged names."""
        problems = check_commands(payload)
        if problems:
            raise DiscordError(400, **unpack_form_error(form_error(problems)))
        old = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, [])
        old_ids = {(c["name"], c.get("type", 1)): c["id"] for c in old}
        stored = [
            self._command_json(cmd, guild_id, old_ids.get((cmd["name"], cmd.get("type", 1))))
            for cmd in payload
        ]
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.sync_count += 1
        self.notify()
        return stored

    def upsert_command(self, cmd: JSON, *, guild_id: int | None) -> JSON:
        current = self.global_commands if guild_id is None else self.guild_commands.setdefault(guild_id, [])
        existing = next(
            (c for c in current if c["name"] == cmd["name"] and c.get("type", 1) == cmd.get("type", 1)), None
        )
        stored = self._command_json(cmd, guild_id, existing["id"] if existing else None)
        if existing:
            current[current.index(existing)] = stored
        else:
            current.append(stored)
        self.notify()
        return stored

    def _command_json(self, cmd: JSON, guild_id: int | None, cid: str | None) -> JSON:
        out = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            **cmd,
            "id": cid or str(self.ids.next()),
            "application_id": str(self.application_id),
            "version": str(self.ids.next()),
        }
        if guild_id is not None:
            out["guild_id"] = str(guild_id)
        if out["default_member_permissions"] is not None:
            out["default_member_permissions"] = str(out["default_member_permissions"])
        return out

    def commands_for(self, guild_id: int | None) -> list[JSON]:
        """Commands a user in ``guild_id`` sees: guild commands first, then global ones."""
        guild_cmds = self.guild_commands.get(guild_id, []) if guild_id is not None else []
        return guild_cmds + self.global_commands


def unpack_form_error(body: JSON) -> JSON:
    """``DiscordError`` keyword arguments from :func:`validation.form_error` output."""
    return {"code": body["code"], "message": body["message"], "errors": body.get("errors")}


__all__ = [
    "APPLICATION_COMMAND",
    "AUTOCOMPLETE",
    "DM",
    "MESSAGE_COMPONENT",
    "MODAL_SUBMIT",
    "TEXT",
    "DiscordError",
    "InteractionRecord",
    "StandInState",
    "StandInTimeout",
    "Upload",
]
