"""Acting as Discord users: slash commands, autocomplete, buttons, selects, modals, messages.

Every action dispatches the payload Discord would send to the bot and returns a handle
whose coroutines wait (default timeout: ``standin.default_timeout``, 5 s) for the bot's
answer.  Actions raise ``PermissionError`` / ``ValueError`` where the Discord client
would not let a user do the thing at all (hidden command, missing required option,
disabled button, someone else's ephemeral message…).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .messaging import Messaging, command_display_name
from .model import (
    EPHEMERAL,
    GROUP_DM,
    JSON,
    Channel,
    RecordedMessage,
    Role,
    StoredAttachment,
    StoredMessage,
    User,
    snapshot,
    walk_components,
)
from .permissions import ADMINISTRATOR
from .state import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionRecord,
    Upload,
)
from .validation import MAX_FILE_SIZE

UserLike = User | str
ChannelLike = Channel | str | int
MessageLike = RecordedMessage | StoredMessage | int

# Application command option types
(
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    STRING,
    INTEGER,
    BOOLEAN,
    USER,
    CHANNEL,
    ROLE,
    MENTIONABLE,
    NUMBER,
    ATTACHMENT,
) = range(1, 12)


class InteractionHandle:
    """What a test gets back from :meth:`Players.slash`, :meth:`Players.click` etc."""

    def __init__(self, state: Messaging, record: InteractionRecord) -> None:
        self._state = state
        #: The live record (callback type/data, answers, follow-ups) of this interaction.
        self.record = record

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def payload(self) -> JSON:
        """The INTERACTION_CREATE payload that was dispatched."""
        return self.record.payload

    async def response(self, timeout: float | None = None) -> InteractionRecord:
        """Wait until the bot called the callback endpoint; return the record."""
        return await self._state.wait_until(
            lambda: self.record if self.record.responded else None,
            timeout=timeout,
            what=f"the bot to acknowledge interaction {self.record.id} ({_describe(self.record)})",
        )

    async def reply(self, timeout: float | None = None) -> RecordedMessage:
        """Wait for the bot's first message answering this interaction and return it.

        - CHANNEL_MESSAGE_WITH_SOURCE / UPDATE_MESSAGE: the created / updated message;
        - DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: the placeholder once filled by a follow-up
          or an edit of the original response;
        - DEFERRED_UPDATE_MESSAGE: the first edit of the clicked message (by any route) or
          the first follow-up.
        Raises AssertionError if the bot answered with autocomplete choices or a modal.
        """
        return (await self.replies(1, timeout=timeout))[0]

    async def replies(self, count: int = 1, timeout: float | None = None) -> list[RecordedMessage]:
        """Wait until at least ``count`` answers exist; return all answers so far (latest snapshots
        of each message, in first-seen order, skipping unfilled "thinking" placeholders)."""
        rec = await self.response(timeout)
        if rec.callback_type in (8, 9, 1):
            raise AssertionError(
                f"the bot answered interaction {rec.id} with {rec.callback_name}, not a message"
            )

        def answers() -> list[RecordedMessage] | None:
            latest: dict[int, RecordedMessage] = {}
            for snap in rec.answers:
                if not snap.loading:
                    latest[snap.id] = snap
            return list(latest.values()) if len(latest) >= count else None

        return await self._state.wait_until(
            answers, timeout=timeout, what=f"{count} answer(s) to interaction {rec.id} ({_describe(rec)})"
        )

    async def choices(self, timeout: float | None = None) -> list[JSON]:
        """Wait for an autocomplete result and return its choices (``[{"name", "value"}]``)."""
        rec = await self.response(timeout)
        assert rec.callback_type == 8, f"expected autocomplete choices, bot answered {rec.callback_name}"
        return rec.choices

    async def modal(self, timeout: float | None = None) -> JSON:
        """Wait for the bot to open a modal and return it (``custom_id``, ``title``, ``components``)."""
        rec = await self.response(timeout)
        assert rec.modal is not None, f"expected a modal, bot answered {rec.callback_name}"
        return rec.modal

    def __repr__(self) -> str:
        return f"<InteractionHandle {_describe(self.record)} callback={self.record.callback_name}>"


@dataclass
class Said:
    """A message a test user posted; wait for the bot's reaction to it with :meth:`reply`."""

    state: Messaging
    message: RecordedMessage
    mark: int

    async def reply(
        self, timeout: float | None = None, predicate: Callable[[RecordedMessage], bool] | None = None
    ) -> RecordedMessage:
        """The first bot message created in this channel (or a thread under it) after this one."""
        return (await self.replies(1, timeout=timeout, predicate=predicate))[0]

    async def replies(
        self,
        count: int = 1,
        timeout: float | None = None,
        predicate: Callable[[RecordedMessage], bool] | None = None,
    ) -> list[RecordedMessage]:
        """All bot messages created in this channel since this one, once there are ``count``."""
        channel_id = self.message.channel_id
        st = self.state

        def found() -> list[RecordedMessage] | None:
            hits = [
                m
                for m in st.messages[self.mark :]
                if m.kind == "create"
                and not m.loading
                and (
                    m.channel_id == channel_id
                    or st.channels.get(m.channel_id, _NO_CHANNEL).parent_id == channel_id
                )
                and (predicate is None or predicate(m))
            ]
            return hits if len(hits) >= count else None

        return await st.wait_until(
            found, timeout=timeout, what=f"{count} bot message(s) after {self.message.content!r}"
        )


_NO_CHANNEL = Channel(id=0, type=0, name="")


class Players(Messaging):
    """Mixin of test-side actions; :class:`tests.standin.DiscordStandIn` inherits it."""

    # ------------------------------------------------------------- conveniences

    @property
    def alice(self) -> User:
        return self.players["alice"]

    @property
    def bob(self) -> User:
        return self.players["bob"]

    @property
    def carol(self) -> User:
        return self.players["carol"]

    @property
    def mod(self) -> User:
        return self.players["mod"]

    def mark(self) -> int:
        """Current position in :attr:`messages`; pass as ``since=`` to wait only for later messages."""
        return len(self.messages)

    async def settle(self) -> None:
        """Wait until gateway events queued by setup calls (roles, members, channels) were sent."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def wait_for_message(
        self,
        channel_id: ChannelLike | None = None,
        predicate: Callable[[RecordedMessage], bool] | None = None,
        timeout: float | None = None,
        *,
        since: int | None = None,
        kinds: tuple[str, ...] = ("create", "edit"),
    ) -> RecordedMessage:
        """The first bot message (snapshot) recorded since ``since`` that matches.

        ``since`` defaults to the position when the latest player action (say/slash/click/…)
        was dispatched, so "the bot's next message after what I just did".  Unfilled
        "thinking" placeholders are skipped.
        """
        return (await self.wait_for_messages(1, channel_id, predicate, timeout, since=since, kinds=kinds))[0]

    async def wait_for_messages(
        self,
        count: int,
        channel_id: ChannelLike | None = None,
        predicate: Callable[[RecordedMessage], bool] | None = None,
        timeout: float | None = None,
        *,
        since: int | None = None,
        kinds: tuple[str, ...] = ("create", "edit"),
    ) -> list[RecordedMessage]:
        """Like :meth:`wait_for_message` but waits for ``count`` matches and returns them all."""
        start = self._action_mark if since is None else since
        cid = None if channel_id is None else self.channel_of(channel_id).id

        def found() -> list[RecordedMessage] | None:
            hits = [
                m
                for m in self.messages[start:]
                if m.kind in kinds
                and not m.loading
                and (cid is None or m.channel_id == cid)
                and (predicate is None or predicate(m))
            ]
            return hits if len(hits) >= count else None

        where = "any channel" if cid is None else f"channel {self.channels[cid].name!r}"
        return await self.wait_until(found, timeout=timeout, what=f"{count} bot message(s) in {where}")

    async def wait_for_thread(
        self, predicate: Callable[[Channel], bool] | None = None, timeout: float | None = None
    ) -> Channel:
        """The first thread the bot created that matches ``predicate`` (any time so far)."""
        return await self.wait_until(
            lambda: next((t for t in self.threads if predicate is None or predicate(t)), None),
            timeout=timeout,
            what="the bot to create a thread",
        )

    # ------------------------------------------------------------- payload building

    def _member_json(self, user: User, channel: Channel) -> JSON | None:
        guild = self.guild_of(channel)
        if guild is None:
            return None
        member = guild.members.get(user.id)
        if member is None:
            raise PermissionError(f"{user.name} is not a member of {guild.name}")
        return member.to_json(permissions=self.permissions_in(user, channel))

    def _interaction(
        self,
        itype: int,
        user: User,
        channel: Channel,
        data: JSON,
        *,
        message: StoredMessage | None = None,
        locale: str = "en-US",
    ) -> InteractionRecord:
        iid = self.ids.next()
        token = f"standin.{iid}.{secrets.token_urlsafe(24)}"
        guild = self.guild_of(channel)
        perms = self.permissions_in(user, channel)
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "locale": locale,
            "entitlements": [],
            "attachment_size_limit": MAX_FILE_SIZE,
            "channel": {**channel.to_json(), "permissions": str(perms)},
            "channel_id": str(channel.id),
            "app_permissions": str(self.permissions_in(self.bot_user, channel)),
            "authorizing_integration_owners": {"0": str(guild.id)} if guild else {"1": str(user.id)},
            "context": 0 if guild else 2 if channel.type == GROUP_DM else 1,
        }
        if guild is not None:
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": list(guild.features)},
                guild_locale=guild.locale,
                member=self._member_json(user, channel),
            )
        else:
            payload["user"] = user.to_json()
        if message is not None:
            payload["message"] = self.message_json(message)
        loop = asyncio.get_running_loop()
        rec = InteractionRecord(
            id=iid,
            token=token,
            type=itype,
            user_id=user.id,
            channel_id=channel.id,
            guild_id=guild.id if guild else None,
            payload=payload,
            created=loop.time(),
            message_id=message.id if message is not None else None,
        )
        self.register_interaction(rec)
        return rec

    async def _send_interaction(self, rec: InteractionRecord) -> InteractionHandle:
        await self.settle()
        if self.gateway.active is None:
            raise RuntimeError("no bot is connected to the stand-in (start one with run_bot())")
        self._action_mark = len(self.messages)
        rec.created = asyncio.get_running_loop().time()
        if not await self.gateway.dispatch("INTERACTION_CREATE", rec.payload, guild_id=rec.guild_id):
            raise RuntimeError(f"no connected shard handles guild {rec.guild_id}")
        return InteractionHandle(self, rec)

    async def _find_command(self, name: str, guild_id: int | None, ctype: int, timeout: float | None) -> JSON:
        def lookup() -> JSON | None:
            return next(
                (
                    c
                    for c in self.commands_for(guild_id)
                    if c["name"] == name and int(c.get("type", 1)) == ctype
                ),
                None,
            )

        try:
            return await self.wait_until(lookup, timeout=timeout, what=f"command {name!r} to be synced")
        except AssertionError:
            known = [c["name"] for c in self.commands_for(guild_id)]
            raise LookupError(
                f"command {name!r} (type {ctype}) is not synced; synced commands: {known}"
            ) from None

    def _check_command_permission(self, cmd: JSON, user: User, channel: Channel) -> None:
        needed = cmd.get("default_member_permissions")
        guild = self.guild_of(channel)
        if guild is None:
            contexts = cmd.get("contexts")
            if channel.type == GROUP_DM:  # a private channel: the caller's own install of the app only
                if 1 not in (cmd.get("integration_types") or [0]) or 2 not in (contexts or [0, 1]):
                    raise PermissionError(f"/{cmd['name']} is not available in private channels (user installs)")
                return
            if cmd.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
                raise PermissionError(f"/{cmd['name']} is not available in DMs")
            return
        contexts = cmd.get("contexts")
        if contexts is not None and 0 not in contexts:
            raise PermissionError(f"/{cmd['name']} is not available in guilds")
        if needed is None:
            return
        perms = self.permissions_in(user, channel)
        if perms & ADMINISTRATOR:
            return
        if int(needed) == 0 or perms & int(needed) != int(needed):
            raise PermissionError(
                f"{user.name} cannot see /{cmd['name']} (needs permissions {needed}, has {perms})"
            )

    def _encode_option(
        self, opt: JSON, value: Any, resolved: JSON, channel: Channel, user: User, *, partial: bool = False
    ) -> Any:
        otype = int(opt["type"])
        name = opt["name"]
        if partial:
            return value if isinstance(value, (str, int, float, bool)) else getattr(value, "id", value)
        if otype == STRING:
            if not isinstance(value, str):
                raise TypeError(f"option {name!r} wants a str, got {value!r}")
            if "min_length" in opt and len(value) < int(opt["min_length"]):
                raise ValueError(f"option {name!r} is shorter than {opt['min_length']}")
            if "max_length" in opt and len(value) > int(opt["max_length"]):
                raise ValueError(f"option {name!r} is longer than {opt['max_length']}")
        elif otype in (INTEGER, NUMBER):
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or (otype == INTEGER and not isinstance(value, int))
            ):
                raise TypeError(f"option {name!r} wants a number, got {value!r}")
            if "min_value" in opt and value < opt["min_value"]:
                raise ValueError(f"option {name!r}={value} is below {opt['min_value']}")
            if "max_value" in opt and value > opt["max_value"]:
                raise ValueError(f"option {name!r}={value} is above {opt['max_value']}")
        elif otype == BOOLEAN:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} wants a bool, got {value!r}")
        elif otype in (USER, MENTIONABLE) and isinstance(value, (User, str)):
            user = self.user(value)
            resolved.setdefault("users", {})[str(user.id)] = user.to_json()
            guild = self.guild_of(channel)
            if guild is not None and user.id in guild.members:
                member = guild.members[user.id].to_json(
                    with_user=False, permissions=self.permissions_in(user, channel)
                )
                resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        elif otype in (ROLE, MENTIONABLE) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.to_json()
            return str(value.id)
        elif otype == CHANNEL:
            target = self.channel_of(value)
            allowed = opt.get("channel_types")
            if allowed and target.type not in allowed:
                raise ValueError(f"option {name!r} does not accept channel type {target.type}")
            data = target.to_json()
            data["permissions"] = str(self.permissions_in(user, target))
            resolved.setdefault("channels", {})[str(target.id)] = data
            return str(target.id)
        elif otype == ATTACHMENT:
            filename, blob = value
            att = StoredAttachment(id=self.ids.next(), filename=filename, data=blob, url="")
            att.url = f"{self.base_url}/attachments/{channel.id}/{att.id}/{filename}"
            self.files[att.id] = att
            resolved.setdefault("attachments", {})[str(att.id)] = att.to_json(ephemeral=True)
            return str(att.id)
        else:
            raise TypeError(f"cannot encode {value!r} for option {name!r} of type {otype}")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(
                f"{value!r} is not one of the choices of {name!r}: {[c['value'] for c in choices]}"
            )
        return value

    def _build_options(
        self,
        cmd: JSON,
        path: list[str],
        options: Mapping[str, Any],
        channel: Channel,
        user: User,
        *,
        focused: str | None = None,
    ) -> tuple[list[JSON], JSON]:
        """Encode ``options`` (and the subcommand ``path``) against the synced definition ``cmd``."""
        resolved: JSON = {}
        defs: list[JSON] = cmd.get("options") or []
        chain: list[JSON] = []
        for word in path:
            sub = next(
                (o for o in defs if o["name"] == word and int(o["type"]) in (SUB_COMMAND, SUB_COMMAND_GROUP)),
                None,
            )
            if sub is None:
                subs = [o["name"] for o in defs if int(o["type"]) in (SUB_COMMAND, SUB_COMMAND_GROUP)]
                raise LookupError(f"/{cmd['name']} has no subcommand {word!r} here (has {subs})")
            chain.append({"type": int(sub["type"]), "name": sub["name"], "options": []})
            defs = sub.get("options") or []
        if any(int(o["type"]) in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in defs):
            subs = [o["name"] for o in defs]
            raise LookupError(f"/{' '.join([cmd['name'], *path])} needs a subcommand: one of {subs}")
        by_name = {o["name"]: o for o in defs}
        leaf: list[JSON] = []
        for key, value in options.items():
            opt = by_name.get(key) or by_name.get(key.replace("_", "-"))
            if opt is None:
                raise LookupError(
                    f"/{' '.join([cmd['name'], *path])} has no option {key!r} (has {list(by_name)})"
                )
            is_focused = opt["name"] == focused
            encoded = self._encode_option(opt, value, resolved, channel, user, partial=focused is not None)
            entry: JSON = {"name": opt["name"], "type": int(opt["type"]), "value": encoded}
            if is_focused:
                entry["focused"] = True
            leaf.append(entry)
        if focused is None:
            given = {e["name"] for e in leaf}
            missing = [o["name"] for o in defs if o.get("required") and o["name"] not in given]
            if missing:
                raise ValueError(f"/{' '.join([cmd['name'], *path])} is missing required option(s) {missing}")
        elif focused not in by_name:
            raise LookupError(f"no option {focused!r} to autocomplete (has {list(by_name)})")
        if not chain:
            return leaf, resolved
        chain[-1]["options"] = leaf
        for outer, inner in zip(reversed(chain[:-1]), reversed(chain[1:]), strict=True):
            outer["options"] = [inner]
        return [chain[0]], resolved

    # ------------------------------------------------------------- actions

    async def slash(
        self,
        user: UserLike,
        channel: ChannelLike,
        command: str,
        /,
        *,
        timeout: float | None = None,
        locale: str = "en-US",
        **options: Any,
    ) -> InteractionHandle:
        """Run ``/command`` (e.g. ``"tileref new"`` or ``"mod forcepass"``) as ``user`` in ``channel``,
        from a Discord client set to ``locale``.

        Options are encoded from the *synced* command definition (waits up to ``timeout``
        for it to be synced): str/int/float/bool values, ``User`` (or user name) for user
        options, ``Channel`` for channel options, ``Role`` for role options and a
        ``(filename, bytes)`` tuple for attachment options.  ``turn_time=`` also matches an
        option named ``turn-time``.  Raises PermissionError if the user could not see the
        command (``default_member_permissions``/``contexts``) and ValueError for a missing
        required option or a value outside the choices/limits.
        """
        u, ch = self.user(user), self.channel_of(channel)
        name, *path = command.lstrip("/").split()
        cmd = await self._find_command(name, ch.guild_id, 1, timeout)
        self._check_command_permission(cmd, u, ch)
        opts, resolved = self._build_options(cmd, path, options, ch, u)
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        return await self._send_interaction(self._interaction(APPLICATION_COMMAND, u, ch, data, locale=locale))

    async def autocomplete(
        self,
        user: UserLike,
        channel: ChannelLike,
        command: str,
        /,
        *,
        text: str = "",
        option: str | None = None,
        timeout: float | None = None,
        **options: Any,
    ) -> list[JSON]:
        """Type ``text`` into an autocomplete option of ``/command``; return the bot's choices.

        ``option`` names the focused option; by default the only autocomplete option of
        the (sub)command.  Other already-filled options may be passed as keywords.
        """
        u, ch = self.user(user), self.channel_of(channel)
        name, *path = command.lstrip("/").split()
        cmd = await self._find_command(name, ch.guild_id, 1, timeout)
        self._check_command_permission(cmd, u, ch)
        defs = cmd.get("options") or []
        for word in path:
            defs = next((o.get("options") or [] for o in defs if o["name"] == word), [])
        if option is None:
            auto = [o["name"] for o in defs if o.get("autocomplete")]
            if len(auto) != 1:
                raise LookupError(f"pass option=: autocomplete options of /{command} are {auto}")
            option = auto[0]
        opts, _ = self._build_options(cmd, path, {**options, option: text}, ch, u, focused=option)
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": opts}
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        handle = await self._send_interaction(self._interaction(AUTOCOMPLETE, u, ch, data))
        return await handle.choices(timeout)

    async def context_menu(
        self,
        user: UserLike,
        channel: ChannelLike,
        name: str,
        target: UserLike | MessageLike,
        /,
        *,
        timeout: float | None = None,
    ) -> InteractionHandle:
        """Use a user (target = user) or message (target = message) context-menu command."""
        u, ch = self.user(user), self.channel_of(channel)
        is_user = isinstance(target, (User, str))
        cmd = await self._find_command(name, ch.guild_id, 2 if is_user else 3, timeout)
        self._check_command_permission(cmd, u, ch)
        resolved: JSON = {}
        if is_user:
            target_id = self._encode_option({"type": USER, "name": "target"}, target, resolved, ch, u)
        else:
            msg = self._stored(target)  # type: ignore[arg-type]
            target_id = str(msg.id)
            resolved["messages"] = {target_id: self.message_json(msg)}
        data: JSON = {
            "id": cmd["id"],
            "name": cmd["name"],
            "type": int(cmd["type"]),
            "target_id": target_id,
            "resolved": resolved,
        }
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        return await self._send_interaction(self._interaction(APPLICATION_COMMAND, u, ch, data))

    def _stored(self, message: MessageLike) -> StoredMessage:
        mid = message if isinstance(message, int) else message.id
        msg = self.stored.get(mid)
        if msg is None or msg.deleted:
            raise LookupError(f"message {mid} does not exist (deleted?)")
        return msg

    def _component(self, msg: StoredMessage, custom_id: str | None, label: str | None) -> JSON:
        comps = [c for c in walk_components(msg.components) if c.get("custom_id") is not None]
        for c in comps:
            if (custom_id is None or c["custom_id"] == custom_id) and (
                label is None or c.get("label") == label
            ):
                return c
        raise LookupError(
            f"no component custom_id={custom_id!r} label={label!r} on message {msg.id}; "
            f"has {[(c.get('label'), c['custom_id']) for c in comps]}"
        )

    async def click(
        self,
        user: UserLike,
        message: MessageLike,
        custom_id: str | None = None,
        /,
        *,
        label: str | None = None,
        values: list[str] | None = None,
    ) -> InteractionHandle:
        """Press a button (by ``custom_id`` or ``label``) — or pick ``values`` in a select menu —
        on the *current* version of a message.  Raises PermissionError for a disabled component
        or someone else's ephemeral message."""
        u = self.user(user)
        msg = self._stored(message)
        if msg.flags & EPHEMERAL:
            origin = self.interaction_responses.get(msg.interaction_id or 0)
            if origin is not None and origin.user_id != u.id:
                raise PermissionError(f"{u.name} cannot see an ephemeral message shown to someone else")
        comp = self._component(msg, custom_id, label)
        if comp.get("disabled"):
            raise PermissionError(f"component {comp['custom_id']!r} is disabled")
        channel = self.channels[msg.channel_id]
        data: JSON = {"custom_id": comp["custom_id"], "component_type": int(comp["type"])}
        if comp.get("id") is not None:
            data["id"] = comp["id"]
        if int(comp["type"]) != 2:
            data["values"] = list(values or [])
            if int(comp["type"]) == 3:
                allowed = [o["value"] for o in comp.get("options", [])]
                bad = [v for v in data["values"] if v not in allowed]
                if bad:
                    raise ValueError(f"{bad} are not options of select {comp['custom_id']!r} ({allowed})")
            lo, hi = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
            if not lo <= len(data["values"]) <= hi:
                raise ValueError(f"select {comp['custom_id']!r} takes {lo}..{hi} values")
        return await self._send_interaction(
            self._interaction(MESSAGE_COMPONENT, u, channel, data, message=msg)
        )

    async def select(
        self, user: UserLike, message: MessageLike, custom_id: str, values: list[str]
    ) -> InteractionHandle:
        """Pick ``values`` in the select menu ``custom_id`` (see :meth:`click`)."""
        return await self.click(user, message, custom_id, values=values)

    async def submit_modal(
        self,
        user: UserLike,
        opened_by: InteractionHandle | InteractionRecord,
        values: Mapping[str, str | list[str]],
    ) -> InteractionHandle:
        """Fill in and submit the modal the bot opened in answer to ``opened_by``.

        ``values`` maps text-input (or select) custom ids to what the user typed (or picked).
        Raises ValueError if a required text input is left empty.
        """
        origin = opened_by.record if isinstance(opened_by, InteractionHandle) else opened_by
        modal = origin.modal
        if modal is None:
            raise LookupError(f"interaction {origin.id} was not answered with a modal")
        u = self.user(user)

        def fill(comp: JSON) -> JSON | None:
            ctype = int(comp.get("type", 0))
            if ctype == 1:
                inner = [f for f in (fill(c) for c in comp.get("components", [])) if f is not None]
                return {"type": 1, "id": comp.get("id", 0), "components": inner}
            if ctype == 18:
                inner_comp = fill(comp["component"])
                return {"type": 18, "id": comp.get("id", 0), "component": inner_comp}
            cid = comp.get("custom_id")
            if cid is None:
                return None
            if ctype == 4:
                value = str(values.get(cid, ""))
                if comp.get("required", True) and not value:
                    raise ValueError(f"text input {cid!r} is required")
                return {"type": 4, "id": comp.get("id", 0), "custom_id": cid, "value": value}
            picked = values.get(cid, [])
            return {
                "type": ctype,
                "id": comp.get("id", 0),
                "custom_id": cid,
                "values": [picked] if isinstance(picked, str) else list(picked),
            }

        components = [f for f in (fill(c) for c in modal["components"]) if f is not None]
        data: JSON = {"custom_id": modal["custom_id"], "components": components}
        channel = self.channels[origin.channel_id]
        message = self.stored.get(origin.message_id) if origin.message_id else None
        return await self._send_interaction(
            self._interaction(MODAL_SUBMIT, u, channel, data, message=message)
        )

    async def say(
        self,
        user: UserLike,
        channel: ChannelLike,
        content: str,
        /,
        *,
        reply_to: MessageLike | None = None,
        files: list[tuple[str, bytes]] | None = None,
    ) -> Said:
        """Post ``content`` as ``user`` (dispatches MESSAGE_CREATE, subject to the bot's intents).

        Returns a :class:`Said` whose ``reply()`` waits for the bot's next message in the
        channel.  Mentions written as ``<@id>`` (e.g. ``s.bot_user.mention``) are resolved.
        """
        await self.settle()
        u, ch = self.user(user), self.channel_of(channel)
        if self.gateway.active is None:
            raise RuntimeError("no bot is connected to the stand-in (start one with run_bot())")
        payload: JSON = {"content": content}
        if reply_to is not None:
            target = self._stored(reply_to)
            payload["message_reference"] = {
                "message_id": str(target.id),
                "channel_id": str(target.channel_id),
            }
        uploads = [Upload(i, name, blob) for i, (name, blob) in enumerate(files or [])]
        mark = len(self.messages)
        self._action_mark = mark
        msg = await self.create_message(ch, u, payload, uploads)
        return Said(self, snapshot(msg, "create", self.message_json(msg)), mark)

    async def reconnect_bot(self, *, resume: bool = True) -> None:
        """Make the connected bot reconnect: RESUME (op 7) or a fresh IDENTIFY (op 9).

        Note: discord.py waits 5 s before a non-initial IDENTIFY, so ``resume=False`` is slow.
        """
        await self.gateway.reconnect_active(resume=resume)


def _describe(rec: InteractionRecord) -> str:
    data = rec.payload.get("data", {})
    if rec.type == APPLICATION_COMMAND:
        return f"/{command_display_name(data)}"
    if rec.type == MESSAGE_COMPONENT:
        return f"component {data.get('custom_id')!r}"
    if rec.type == AUTOCOMPLETE:
        return f"autocomplete /{data.get('name')}"
    if rec.type == MODAL_SUBMIT:
        return f"modal {data.get('custom_id')!r}"
    return f"interaction type {rec.type}"
