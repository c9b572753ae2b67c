"""Messages, interactions and threads: what the bot does through REST, recorded.

:class:`Messaging` extends the world model with the operations behind the REST routes:
creating/editing/deleting messages (validated as Discord would, with attachments and
embeds), answering interactions (callbacks, follow-ups, the original response) and
creating/updating threads.  Each bot message is recorded as a snapshot in
``messages`` and, when it answers an interaction, in that interaction's ``answers``.
"""

from __future__ import annotations

import asyncio
import copy
import io
import mimetypes
import re
import time
from typing import Literal

import discord

from . import gateway as gw
from .model import (
    CATEGORY,
    DM,
    EPHEMERAL,
    FORUM,
    JSON,
    LOADING,
    PUBLIC_THREAD,
    Channel,
    RecordedMessage,
    StoredAttachment,
    StoredMessage,
    User,
    now,
    snapshot,
    walk_components,
)
from .state import (
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    DiscordError,
    InteractionRecord,
    StandInState,
    Upload,
    invalid_form,
    unpack_form_error,
)
from .validation import check_choices, check_message, form_error, is_empty_message

USER_FLAGS = (
    EPHEMERAL | (1 << 2) | (1 << 12) | (1 << 13) | (1 << 15)
)  # ephemeral, suppress embeds/notifs, voice, v2
MENTION_USER = re.compile(r"<@!?(\d+)>")
MENTION_ROLE = re.compile(r"<@&(\d+)>")
NONCE_SECONDS = 300.0
"""How long a nonce sent with ``enforce_nonce`` stays unique, as Discord's "past few minutes"."""


class Messaging(StandInState):
    """Message, interaction and thread operations on top of :class:`StandInState`."""

    nonce_seconds: float = NONCE_SECONDS
    """How long this Discord remembers an enforced nonce; a test sets 0 for a Discord that has
    forgotten it (the bot's nonce then keeps nothing from being posted twice)."""

    # ------------------------------------------------------------------ messages

    async def dispatch_message_event(self, event: str, msg: StoredMessage) -> None:
        """MESSAGE_CREATE / MESSAGE_UPDATE to the bot, honouring GUILD_MESSAGES and MESSAGE_CONTENT."""
        session = self.gateway.active
        if session is None or msg.ephemeral:
            return
        data = msg.to_json(me_id=self.bot_user.id)
        guild = self.guilds.get(msg.guild_id or 0)
        if guild is not None:
            member = guild.members.get(msg.author.id)
            if member is not None:
                data["member"] = member.to_json(with_user=False)
        needs_content = guild is not None and msg.author.id != self.bot_user.id
        mentioned = any(u.id == self.bot_user.id for u in msg.mentions)
        if needs_content and not mentioned and not session.intents & gw.MESSAGE_CONTENT:
            data.update(content="", embeds=[], attachments=[], components=[])
            data.pop("poll", None)
        intents = gw.GUILD_MESSAGES if guild is not None else gw.DIRECT_MESSAGES
        await self.gateway.dispatch(event, data, intents=intents, guild_id=msg.guild_id)

    def _record(
        self, msg: StoredMessage, kind: Literal["create", "edit"], interaction: InteractionRecord | None
    ) -> RecordedMessage:
        snap = snapshot(msg, kind, self.message_json(msg))
        if msg.author.id == self.bot_user.id:
            self.messages.append(snap)
        if interaction is None and kind == "edit":
            # An edit of a clicked message after a DEFERRED_UPDATE_MESSAGE answers that click.
            for rec in reversed(list(self.interaction_responses.values())):
                if rec.callback_type == 6 and rec.message_id == msg.id and not rec.answers:
                    interaction = rec
                    break
        if interaction is not None:
            interaction.answers.append(snap)
        self.notify()
        return snap

    def _store_upload(
        self, up: Upload, channel_id: int, *, filename: str | None = None, description: str | None = None
    ) -> StoredAttachment:
        att_id = self.ids.next()
        name = filename or up.filename
        att = StoredAttachment(
            id=att_id,
            filename=name,
            data=up.data,
            url=f"{self.base_url}/attachments/{channel_id}/{att_id}/{name}",
            content_type=up.content_type
            if up.content_type not in (None, "application/octet-stream")
            else mimetypes.guess_type(name)[0],
            description=description,
        )
        if (att.content_type or "").startswith("image/"):
            try:
                from PIL import Image

                with Image.open(io.BytesIO(up.data)) as img:
                    att.width, att.height = img.size
            except Exception:  # not a decodable image: Discord just omits the size
                pass
        self.files[att_id] = att
        return att

    def _apply_attachments(
        self, msg: StoredMessage, payload: JSON, uploads: list[Upload], *, editing: bool
    ) -> None:
        by_index = {u.index: u for u in uploads}
        meta = payload.get("attachments")
        if meta is None:
            result = list(msg.attachments) if editing else []
            result += [self._store_upload(u, msg.channel_id) for u in uploads]
        else:
            existing = {a.id: a for a in msg.attachments}
            result, used = [], set()
            for entry in meta:
                aid = int(entry["id"])
                if aid in existing:
                    result.append(existing[aid])
                elif aid in by_index:
                    used.add(aid)
                    result.append(
                        self._store_upload(
                            by_index[aid],
                            msg.channel_id,
                            filename=entry.get("filename"),
                            description=entry.get("description"),
                        )
                    )
                else:
                    raise invalid_form("attachments", "ATTACHMENT_NOT_FOUND", f"Unknown attachment id {aid}")
            result += [self._store_upload(u, msg.channel_id) for u in uploads if u.index not in used]
        msg.attachments = result

    def _fix_embeds(self, msg: StoredMessage, embeds: list[JSON]) -> list[JSON]:
        files = {a.filename: a for a in msg.attachments}
        out = []
        for e in embeds:
            e = {"type": "rich", **e}
            for key in ("image", "thumbnail"):
                media = e.get(key)
                if isinstance(media, dict) and str(media.get("url", "")).startswith("attachment://"):
                    att = files.get(media["url"][len("attachment://") :])
                    if att is not None:
                        e[key] = {
                            **media,
                            "url": att.url,
                            "proxy_url": att.url,
                            "width": att.width,
                            "height": att.height,
                        }
            out.append(e)
        return out

    def _apply_payload(
        self, msg: StoredMessage, payload: JSON, uploads: list[Upload], *, editing: bool
    ) -> None:
        problems = check_message(payload, [(u.filename, u.data) for u in uploads], editing=editing)
        if problems:
            raise DiscordError(400, **unpack_form_error(form_error(problems)))
        if not editing and is_empty_message(payload, [(u.filename, u.data) for u in uploads]):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "components" in payload:
            msg.components = _number_components(payload["components"] or [])
        if "attachments" in payload or uploads:
            self._apply_attachments(msg, payload, uploads, editing=editing)
        if "embeds" in payload:
            msg.embeds = self._fix_embeds(msg, payload["embeds"] or [])
        if "flags" in payload and payload["flags"] is not None:
            keep = msg.flags & (EPHEMERAL | LOADING) if editing else 0
            msg.flags = keep | (int(payload["flags"]) & USER_FLAGS & ~(EPHEMERAL if editing else 0))
        if not editing:
            msg.tts = bool(payload.get("tts", False))
            if payload.get("nonce") is not None:
                msg.nonce = str(payload["nonce"])
        if editing and not self._is_loading(msg):
            msg.edited_at = now()
        msg.flags &= ~LOADING
        self._parse_mentions(msg, payload)

    @staticmethod
    def _is_loading(msg: StoredMessage) -> bool:
        return bool(msg.flags & LOADING)

    def _parse_mentions(self, msg: StoredMessage, payload: JSON) -> None:
        allowed = payload.get("allowed_mentions")
        parse = None if allowed is None else set(allowed.get("parse", []))
        explicit_users = set() if allowed is None else {int(u) for u in allowed.get("users", [])}
        users = [self.users[int(i)] for i in MENTION_USER.findall(msg.content) if int(i) in self.users]
        if parse is not None:
            users = [u for u in users if "users" in parse or u.id in explicit_users]
        msg.mentions = list(dict.fromkeys(users))
        msg.mention_role_ids = [int(i) for i in MENTION_ROLE.findall(msg.content)]
        msg.mention_everyone = "@everyone" in msg.content and (parse is None or "everyone" in parse)

    def _check_can_post(self, channel: Channel, author: User, payload: JSON, *, files: bool) -> int:
        """Discord's checks on a new message in a guild channel: View Channel (else 50001 Missing
        Access) and Send Messages (Send Messages in Threads in a thread), Attach Files for files,
        Embed Links for embeds, Read Message History for a reply; 403 / 50013 Missing Permissions
        otherwise. Returns the author's permissions there (DMs: the DM set)."""
        need = discord.Permissions()
        if channel.is_thread:
            need.send_messages_in_threads = True
        else:
            need.send_messages = True
        need.attach_files = files
        need.embed_links = bool(payload.get("embeds"))
        need.read_message_history = bool(payload.get("message_reference"))
        perms = self.require(author, channel, need)
        if (
            channel.is_thread
            and channel.locked
            and not perms & discord.Permissions(manage_threads=True).value
        ):
            raise DiscordError(403, 50083, "Thread is locked")
        if channel.type in (CATEGORY, FORUM):
            raise DiscordError(400, 50008, "Cannot send messages in a non-text channel")
        return perms

    async def create_message(
        self,
        channel: Channel,
        author: User,
        payload: JSON,
        uploads: list[Upload] | None = None,
        *,
        interaction: InteractionRecord | None = None,
        flags: int = 0,
        msg_type: int = 0,
        check_permissions: bool = True,
    ) -> StoredMessage:
        """Create a message (validating it as Discord would), record it, and dispatch MESSAGE_CREATE."""
        uploads = uploads or []
        permissions = self.permissions_in(author, channel)
        if check_permissions and interaction is None:
            permissions = self._check_can_post(channel, author, payload, files=bool(uploads))
        nonce = payload.get("nonce")
        if nonce is not None and len(str(nonce)) > 25:
            raise invalid_form("nonce", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        enforced = (author.id, str(nonce)) if nonce is not None and payload.get("enforce_nonce") else None
        if enforced is not None and enforced in self.nonces:
            first_id, when = self.nonces[enforced]
            first = self.stored.get(first_id)
            if first is not None and not first.deleted and time.monotonic() - when < self.nonce_seconds:
                self.nonce_repeats.append(first_id)
                return first  # Discord returns the message created first, and posts nothing
        if (
            channel.type == DM
            and author.id == self.bot_user.id
            and channel.recipient is not None
            and channel.recipient.id in self.dms_closed
        ):
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        msg = StoredMessage(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            type=msg_type,
        )
        ref = payload.get("message_reference")
        if ref and ref.get("message_id"):
            target = self.stored.get(int(ref["message_id"]))
            if target is None or target.deleted:
                if ref.get("fail_if_not_exists", True):
                    raise invalid_form(
                        "message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown msg"
                    )
            else:
                msg.type = 19
                msg.referenced = target
                msg.message_reference = {
                    "type": 0,
                    "message_id": str(target.id),
                    "channel_id": str(target.channel_id),
                    **({"guild_id": str(target.guild_id)} if target.guild_id else {}),
                }
        self._apply_payload(msg, payload, uploads, editing=False)
        if not permissions & discord.Permissions(mention_everyone=True).value:
            msg.mention_everyone = False  # said, but nobody is pinged
        if interaction is None:
            msg.flags &= ~EPHEMERAL
        msg.flags |= flags
        if interaction is not None:
            self._link_interaction(msg, interaction)
        if channel.archived and not channel.locked:
            channel.archived = False
            await self._dispatch_thread("THREAD_UPDATE", channel)
        self.stored[msg.id] = msg
        self.history.setdefault(channel.id, []).append(msg.id)
        if enforced is not None:
            self.nonces[enforced] = (msg.id, time.monotonic())
        if not msg.ephemeral:
            channel.last_message_id = msg.id
            channel.message_count += 1
        self._record(msg, "create", interaction)
        await self.dispatch_message_event("MESSAGE_CREATE", msg)
        return msg

    def _link_interaction(self, msg: StoredMessage, rec: InteractionRecord) -> None:
        user = self.users[rec.user_id]
        msg.webhook_id = self.application_id
        msg.application_id = self.application_id
        msg.interaction_id = rec.id
        metadata: JSON = {
            "id": str(rec.id),
            "type": rec.type,
            "user": user.to_json(),
            "authorizing_integration_owners": rec.payload.get("authorizing_integration_owners", {}),
        }
        if rec.type == APPLICATION_COMMAND:
            metadata["name"] = command_display_name(rec.payload.get("data", {}))
            metadata["command_type"] = rec.payload.get("data", {}).get("type", 1)
            msg.type = 20 if metadata["command_type"] == 1 else 23
            msg.interaction_json = {
                "id": str(rec.id),
                "type": rec.type,
                "name": metadata["name"],
                "user": user.to_json(),
            }
        elif rec.message_id is not None:
            metadata["interacted_message_id"] = str(rec.message_id)
            msg.type = 19 if msg.type == 0 else msg.type
        if rec.original_id is not None and rec.original_id != msg.id:
            metadata["original_response_message_id"] = str(rec.original_id)
        msg.interaction_metadata = metadata

    async def edit_message(
        self,
        msg: StoredMessage,
        payload: JSON,
        uploads: list[Upload] | None = None,
        *,
        interaction: InteractionRecord | None = None,
    ) -> StoredMessage:
        """Apply an edit (content/embeds/components/attachments/flags), record it, dispatch MESSAGE_UPDATE."""
        if msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        self._apply_payload(msg, payload, uploads or [], editing=True)
        if self.is_empty(msg):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        self._record(msg, "edit", interaction)
        await self.dispatch_message_event("MESSAGE_UPDATE", msg)
        return msg

    @staticmethod
    def is_empty(msg: StoredMessage) -> bool:
        return not (msg.content or msg.embeds or msg.attachments or msg.components)

    async def delete_message(self, msg: StoredMessage) -> None:
        """Mark a message deleted and dispatch MESSAGE_DELETE."""
        if msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        msg.deleted = True
        self.deleted_message_ids.append(msg.id)
        self.notify()
        if not msg.ephemeral:
            data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id is not None:
                data["guild_id"] = str(msg.guild_id)
            await self.gateway.dispatch(
                "MESSAGE_DELETE",
                data,
                intents=gw.GUILD_MESSAGES if msg.guild_id else gw.DIRECT_MESSAGES,
                guild_id=msg.guild_id,
            )

    def live_message(self, channel_id: int, message_id: int) -> StoredMessage:
        msg = self.stored.get(message_id)
        if msg is None or msg.deleted or msg.channel_id != channel_id:
            raise DiscordError(404, 10008, "Unknown Message")
        return msg

    # ------------------------------------------------------------------ interactions

    def interaction_by_token(self, application_id: int, token: str) -> InteractionRecord:
        rec = self._by_token.get(token)
        if rec is None or application_id != self.application_id:
            raise DiscordError(404, 10015, "Unknown Webhook")
        return rec

    def register_interaction(self, rec: InteractionRecord) -> None:
        self.interaction_responses[rec.id] = rec
        self._by_token[rec.token] = rec

    async def interaction_callback(
        self, interaction_id: int, token: str, body: JSON, uploads: list[Upload]
    ) -> tuple[InteractionRecord, StoredMessage | None]:
        """Handle ``POST /interactions/{id}/{token}/callback`` (types 1, 4-9)."""
        rec = self.interaction_responses.get(interaction_id)
        if rec is None or rec.token != token:
            raise DiscordError(404, 10062, "Unknown interaction")
        loop = asyncio.get_running_loop()
        late = self.interaction_deadline is not None and loop.time() - rec.created > self.interaction_deadline
        if late:
            raise DiscordError(
                404,
                10062,
                f"Unknown interaction (answered after {loop.time() - rec.created:.2f}s > "
                f"{self.interaction_deadline}s deadline)",
            )
        if rec.responded:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        ctype = int(body.get("type", 0))
        data: JSON = body.get("data") or {}
        if ctype not in ALLOWED_CALLBACKS.get(rec.type, set()) or (
            ctype in (6, 7) and rec.message_id is None
        ):
            why = f"Callback type {ctype} is not valid for interaction type {rec.type}"
            raise invalid_form("type", "INTERACTION_RESPONSE_TYPE_INVALID", why)
        channel = self.channels[rec.channel_id]
        msg: StoredMessage | None = None
        if ctype == 8:
            problems = check_choices(data.get("choices") or [])
            if problems:
                raise DiscordError(400, **unpack_form_error(form_error(problems)))
        elif ctype == 9 and not (data.get("custom_id") and data.get("title") and data.get("components")):
            raise invalid_form("data", "BASE_TYPE_REQUIRED", "custom_id, title and components are required")
        rec.callback_type = ctype
        rec.callback_data = data
        try:
            if ctype == 4:
                msg = await self.create_message(channel, self.bot_user, data, uploads, interaction=rec)
                rec.original_id = msg.id
            elif ctype == 5:
                flags = LOADING | (EPHEMERAL if int(data.get("flags") or 0) & EPHEMERAL else 0)
                msg = StoredMessage(
                    id=self.ids.next(),
                    channel_id=channel.id,
                    guild_id=channel.guild_id,
                    author=self.bot_user,
                    flags=flags,
                )
                self._link_interaction(msg, rec)
                self.stored[msg.id] = msg
                self.history.setdefault(channel.id, []).append(msg.id)
                rec.original_id = msg.id
                self._record(msg, "create", rec)
                await self.dispatch_message_event("MESSAGE_CREATE", msg)
            elif ctype in (6, 7):
                assert rec.message_id is not None
                rec.original_id = rec.message_id
                if ctype == 7:
                    msg = await self.edit_message(self.stored[rec.message_id], data, uploads, interaction=rec)
                else:
                    msg = self.stored[rec.message_id]
        except Exception:
            rec.callback_type = None
            rec.callback_data = None
            raise
        self.notify()
        return rec, msg

    def original_message(self, rec: InteractionRecord) -> StoredMessage:
        if (
            rec.original_id is None
            or rec.original_id not in self.stored
            or self.stored[rec.original_id].deleted
        ):
            raise DiscordError(404, 10008, "Unknown Message")
        return self.stored[rec.original_id]

    async def followup(self, rec: InteractionRecord, payload: JSON, uploads: list[Upload]) -> StoredMessage:
        """``POST /webhooks/{app}/{token}``.

        The first follow-up after a "thinking" defer fills in the placeholder (keeping the
        defer's ephemeral flag), as Discord does; later ones are new messages.
        """
        if not rec.responded:
            raise DiscordError(404, 10015, "Unknown Webhook")
        if rec.callback_type == 5 and rec.original_id is not None:
            original = self.stored[rec.original_id]
            if self._is_loading(original) and not original.deleted:
                payload = {**payload, "flags": (int(payload.get("flags") or 0) & ~EPHEMERAL)}
                msg = await self.edit_message(original, payload, uploads, interaction=rec)
                rec.followup_ids.append(msg.id)
                return msg
        channel = self.channels[rec.channel_id]
        msg = await self.create_message(channel, self.bot_user, payload, uploads, interaction=rec)
        rec.followup_ids.append(msg.id)
        return msg

    def interaction_message(self, rec: InteractionRecord, message_id: str) -> StoredMessage:
        if message_id == "@original":
            return self.original_message(rec)
        mid = int(message_id)
        if mid not in rec.followup_ids and mid != rec.original_id:
            raise DiscordError(404, 10008, "Unknown Message")
        msg = self.stored.get(mid)
        if msg is None or msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return msg

    # ------------------------------------------------------------------ threads

    async def create_thread(
        self,
        parent: Channel,
        payload: JSON,
        *,
        starter: StoredMessage | None = None,
        uploads: list[Upload] | None = None,
    ) -> tuple[Channel, StoredMessage | None]:
        """Create a thread as the bot (from a message, standalone, or a forum post)."""
        guild = self.guild_of(parent)
        if guild is None or parent.is_thread or parent.type == CATEGORY:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        private = int(payload.get("type") or PUBLIC_THREAD) == 12 and starter is None and parent.type != FORUM
        if parent.type == FORUM:  # a forum post: a thread and its first message
            forum_message = payload.get("message") or {}
            need = discord.Permissions(send_messages=True, attach_files=bool(uploads),
                                       embed_links=bool(forum_message.get("embeds")))
        elif private:
            need = discord.Permissions(create_private_threads=True)
        else:
            need = discord.Permissions(create_public_threads=True)
        self.require(self.bot_user, parent, need)
        name = str(payload.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise invalid_form("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        if starter is not None and starter.thread is not None:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        thread = self._new_thread(
            parent, name, owner=self.bot_user, private=private, thread_id=starter.id if starter else None
        )
        thread.auto_archive_duration = int(payload.get("auto_archive_duration") or 1440)
        thread.rate_limit_per_user = int(payload.get("rate_limit_per_user") or 0)
        thread.invitable = bool(payload.get("invitable", True))
        if starter is not None:  # Discord: a thread started from a message shares its id
            starter.thread = thread
        self.threads.append(thread)
        await self._dispatch_thread("THREAD_CREATE", thread, newly_created=True)
        first: StoredMessage | None = None
        if parent.type == FORUM:
            thread.applied_tags = [int(t) for t in payload.get("applied_tags") or []]
            first = await self.create_message(
                thread, self.bot_user, payload.get("message") or {}, uploads, check_permissions=False
            )
        self.notify()
        return thread, first

    async def update_channel(self, channel: Channel, payload: JSON) -> Channel:
        """``PATCH /channels/{id}``: name, topic, slowmode, and thread archived/locked/invitable."""
        for key in ("name", "topic", "rate_limit_per_user", "auto_archive_duration", "invitable", "locked"):
            if key in payload and payload[key] is not None:
                setattr(channel, key, payload[key])
        if "archived" in payload and payload["archived"] is not None:
            channel.archived = bool(payload["archived"])
            channel.archived_at = now()
        if "applied_tags" in payload:
            channel.applied_tags = [int(t) for t in payload["applied_tags"] or []]
        if channel.is_thread:
            await self._dispatch_thread("THREAD_UPDATE", channel)
        else:
            await self.gateway.dispatch(
                "CHANNEL_UPDATE", channel.to_json(), intents=gw.GUILDS, guild_id=channel.guild_id
            )
        self.notify()
        return channel

    async def delete_channel(self, channel: Channel) -> None:
        self.channels.pop(channel.id, None)
        guild = self.guild_of(channel)
        if guild is not None:
            guild.channels.pop(channel.id, None)
        if channel.is_thread:
            await self.gateway.dispatch(
                "THREAD_DELETE",
                {
                    "id": str(channel.id),
                    "guild_id": str(channel.guild_id),
                    "parent_id": str(channel.parent_id),
                    "type": channel.type,
                },
                intents=gw.GUILDS,
                guild_id=channel.guild_id,
            )
        else:
            await self.gateway.dispatch(
                "CHANNEL_DELETE", channel.to_json(), intents=gw.GUILDS, guild_id=channel.guild_id
            )
        self.notify()


def _number_components(components: list[JSON]) -> list[JSON]:
    """Copy components, giving each one a numeric ``id`` as Discord does."""
    out = copy.deepcopy(components)
    used = {c["id"] for c in walk_components(out) if isinstance(c.get("id"), int)}
    n = 0
    for comp in walk_components(out):
        if "id" not in comp:
            n += 1
            while n in used:
                n += 1
            comp["id"] = n
    return out


def command_display_name(data: JSON) -> str:
    parts = [data.get("name", "")]
    opts = data.get("options") or []
    while opts and opts[0].get("type") in (1, 2):
        parts.append(opts[0]["name"])
        opts = opts[0].get("options") or []
    return " ".join(parts)
