"""HTTP routes of the stand-in: the slice of Discord's REST API v10 a discord.py bot uses.

Every route is a thin layer over :class:`~tests.standin.state.Messaging`.  Requests
to routes not listed here are answered ``404`` with a Discord-style JSON error and
recorded in ``state.unhandled``; requests refused the way Discord would refuse them
(bad payload, missing permission, double acknowledgement…) are recorded in
``state.errors``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from aiohttp import web

from .messaging import Messaging
from .model import JSON, Channel, User, iso
from .state import DiscordError, Upload

log = logging.getLogger("tests.standin.rest")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

#: Routes that authenticate with the interaction/webhook token instead of the bot token.
NO_AUTH_PREFIXES = ("/webhooks/", "/interactions/")


def json_response(data: Any, status: int = 200) -> web.Response:
    """A response discord.py parses as JSON (it wants exactly ``application/json``)."""
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )


def no_content() -> web.Response:
    return web.Response(status=204)


async def read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """JSON body, or multipart ``payload_json`` + ``files[n]``; returns (payload, uploads)."""
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        raw = form.get("payload_json")
        if isinstance(raw, web.FileField):
            raw = raw.file.read()
        payload = json.loads(raw or b"{}")
        uploads = []
        for key, value in form.items():
            if key.startswith("files[") and isinstance(value, web.FileField):
                uploads.append(Upload(int(key[6:-1]), value.filename, value.file.read(), value.content_type))
        return payload, sorted(uploads, key=lambda u: u.index)
    if not request.body_exists:
        return {}, []
    text = await request.text()
    return (json.loads(text) if text.strip() else {}), []


class Rest:
    """Builds the aiohttp application for ``/api/v10`` around a :class:`Messaging`."""

    def __init__(self, state: Messaging) -> None:
        self.state = state

    # -------------------------------------------------------------- app & middleware

    def app(self) -> web.Application:
        api = web.Application(middlewares=[self.middleware], client_max_size=64 * 1024 * 1024)
        r = api.router
        s = self
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/gateway", s.get_gateway),
            ("GET", "/gateway/bot", s.get_gateway_bot),
            ("GET", "/users/@me", s.get_me),
            ("GET", "/users/{user_id}", s.get_user),
            ("POST", "/users/@me/channels", s.create_dm),
            ("GET", "/oauth2/applications/@me", s.get_application),
            ("GET", "/applications/@me", s.get_application),
            ("GET", "/applications/{app_id}/commands", s.get_commands),
            ("PUT", "/applications/{app_id}/commands", s.put_commands),
            ("POST", "/applications/{app_id}/commands", s.post_command),
            ("GET", "/applications/{app_id}/commands/{command_id}", s.get_command),
            ("PATCH", "/applications/{app_id}/commands/{command_id}", s.patch_command),
            ("DELETE", "/applications/{app_id}/commands/{command_id}", s.delete_command),
            (
                "GET",
                "/applications/{app_id}/guilds/{guild_id}/commands/permissions",
                s.get_command_permissions,
            ),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", s.get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", s.put_commands),
            ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", s.post_command),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", s.get_command),
            ("PATCH", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", s.patch_command),
            ("DELETE", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", s.delete_command),
            ("POST", "/interactions/{interaction_id}/{token}/callback", s.interaction_callback),
            ("POST", "/webhooks/{app_id}/{token}", s.webhook_execute),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", s.webhook_get),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", s.webhook_edit),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", s.webhook_delete),
            ("GET", "/channels/{channel_id}", s.get_channel),
            ("PATCH", "/channels/{channel_id}", s.patch_channel),
            ("DELETE", "/channels/{channel_id}", s.delete_channel),
            ("GET", "/channels/{channel_id}/messages", s.get_messages),
            ("POST", "/channels/{channel_id}/messages", s.post_message),
            ("POST", "/channels/{channel_id}/messages/bulk-delete", s.bulk_delete),
            ("GET", "/channels/{channel_id}/messages/pins", s.get_pins),
            ("PUT", "/channels/{channel_id}/messages/pins/{message_id}", s.pin),
            ("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", s.unpin),
            ("GET", "/channels/{channel_id}/pins", s.get_pins_legacy),
            ("PUT", "/channels/{channel_id}/pins/{message_id}", s.pin),
            ("DELETE", "/channels/{channel_id}/pins/{message_id}", s.unpin),
            ("GET", "/channels/{channel_id}/messages/{message_id}", s.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", s.patch_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", s.delete_message),
            ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", s.add_reaction),
            (
                "DELETE",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{user_id}",
                s.remove_reaction,
            ),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions", s.clear_reactions),
            ("GET", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}", s.get_reactions),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", s.thread_from_message),
            ("POST", "/channels/{channel_id}/threads", s.thread_create),
            ("GET", "/channels/{channel_id}/threads/archived/public", s.archived_threads),
            ("GET", "/channels/{channel_id}/thread-members", s.thread_members),
            ("GET", "/channels/{channel_id}/thread-members/{user_id}", s.thread_member),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", s.thread_member_add),
            ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", s.thread_member_remove),
            ("POST", "/channels/{channel_id}/typing", s.typing),
            ("GET", "/guilds/{guild_id}", s.get_guild),
            ("GET", "/guilds/{guild_id}/channels", s.guild_channels),
            ("GET", "/guilds/{guild_id}/roles", s.guild_roles),
            ("GET", "/guilds/{guild_id}/members", s.guild_members),
            ("GET", "/guilds/{guild_id}/members/search", s.guild_members_search),
            ("GET", "/guilds/{guild_id}/members/{user_id}", s.guild_member),
            ("GET", "/guilds/{guild_id}/threads/active", s.active_threads),
        ]
        for method, path, handler in routes:
            r.add_route(method, path, handler)
        r.add_route("*", "/{tail:.*}", self.unknown)
        return api

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        path = request.path.removeprefix("/api/v10")
        what = f"{request.method} {path}"
        self.state.requests.append(what)
        if not path.startswith(NO_AUTH_PREFIXES):
            auth = request.headers.get("Authorization", "")
            if not auth.startswith("Bot ") or not self.state.token_ok(auth[4:]):
                self.state.note_error(f"{what}: 401 bad token")
                return json_response({"message": "401: Unauthorized", "code": 0}, 401)
        held = getattr(self.state, "held", None)
        if held is not None:
            await held(request.method, path)
        try:
            response = await handler(request)
            if held is not None:
                await held(request.method, path, after=True)
            return response
        except DiscordError as exc:
            self.state.note_error(f"{what}: {exc.status} {exc.body}")
            return json_response(exc.body, exc.status)
        except Exception as exc:  # a stand-in bug or a request it cannot make sense of: fail loudly, fast
            log.exception("stand-in failed on %s", what)
            self.state.note_unhandled(f"{what}: stand-in error {exc!r}")
            return json_response(
                {"code": 0, "message": f"Discord stand-in could not handle this: {exc!r}"}, 400
            )

    async def unknown(self, request: web.Request) -> web.StreamResponse:
        self.state.note_unhandled(f"{request.method} {request.path.removeprefix('/api/v10')}")
        return json_response(
            {"message": "404: Not Found (route not implemented by the Discord stand-in)", "code": 0}, 404
        )

    # -------------------------------------------------------------- helpers

    def _channel(self, request: web.Request) -> Channel:
        channel = self.state.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return channel

    def _user(self, raw: str) -> User:
        uid = self.state.bot_user.id if raw == "@me" else int(raw)
        user = self.state.users.get(uid)
        if user is None:
            raise DiscordError(404, 10013, "Unknown User")
        return user

    def _guild_id(self, request: web.Request) -> int | None:
        raw = request.match_info.get("guild_id")
        if raw is None:
            return None
        if int(raw) not in self.state.guilds:
            raise DiscordError(404, 10004, "Unknown Guild")
        return int(raw)

    def _check_app(self, request: web.Request) -> None:
        if int(request.match_info["app_id"]) != self.state.application_id:
            raise DiscordError(403, 50001, "Missing Access")

    def _msg_json(self, msg: Any) -> JSON:
        return self.state.message_json(msg)

    def _channel_json(self, channel: Channel) -> JSON:
        return channel.to_json(me_id=self.state.bot_user.id)

    # -------------------------------------------------------------- gateway / users / app

    async def get_gateway(self, request: web.Request) -> web.StreamResponse:
        return json_response({"url": self.state.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.StreamResponse:
        return json_response(
            {
                "url": self.state.gateway_url,
                "shards": self.state.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 14400000,
                    "max_concurrency": 1,
                },
            }
        )

    async def get_me(self, request: web.Request) -> web.StreamResponse:
        return json_response(
            {**self.state.bot_user.to_json(), "verified": True, "mfa_enabled": False, "locale": "en-US"}
        )

    async def get_user(self, request: web.Request) -> web.StreamResponse:
        return json_response(self._user(request.match_info["user_id"]).to_json())

    async def create_dm(self, request: web.Request) -> web.StreamResponse:
        body, _ = await read_body(request)
        user = self._user(str(body["recipient_id"]))
        return json_response(self._channel_json(self.state.dm(user)))

    async def get_application(self, request: web.Request) -> web.StreamResponse:
        st = self.state
        return json_response(
            {
                "id": str(st.application_id),
                "name": st.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": st.bot_user.to_json(),
                "owner": st.owner.to_json(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": st.application_flags(),
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(st.guilds),
                "integration_types_config": {"0": {}, "1": {}},  # installable on servers and by users
            }
        )

    # -------------------------------------------------------------- application commands

    def _commands(self, request: web.Request) -> list[JSON]:
        self._check_app(request)
        gid = self._guild_id(request)
        return self.state.global_commands if gid is None else self.state.guild_commands.setdefault(gid, [])

    async def get_commands(self, request: web.Request) -> web.StreamResponse:
        return json_response(self._commands(request))

    async def put_commands(self, request: web.Request) -> web.StreamResponse:
        self._check_app(request)
        body, _ = await read_body(request)
        if not isinstance(body, list):
            raise DiscordError(400, 50035, "Invalid Form Body")
        return json_response(self.state.store_commands(body, guild_id=self._guild_id(request)))

    async def post_command(self, request: web.Request) -> web.StreamResponse:
        self._check_app(request)
        body, _ = await read_body(request)
        return json_response(self.state.upsert_command(body, guild_id=self._guild_id(request)), 201)

    def _find_command(self, request: web.Request) -> tuple[list[JSON], JSON]:
        cmds = self._commands(request)
        cid = request.match_info["command_id"]
        for c in cmds:
            if c["id"] == cid:
                return cmds, c
        raise DiscordError(404, 10063, "Unknown application command")

    async def get_command(self, request: web.Request) -> web.StreamResponse:
        return json_response(self._find_command(request)[1])

    async def patch_command(self, request: web.Request) -> web.StreamResponse:
        _, cmd = self._find_command(request)
        body, _ = await read_body(request)
        cmd.update(body)
        self.state.notify()
        return json_response(cmd)

    async def delete_command(self, request: web.Request) -> web.StreamResponse:
        cmds, cmd = self._find_command(request)
        cmds.remove(cmd)
        self.state.notify()
        return no_content()

    async def get_command_permissions(self, request: web.Request) -> web.StreamResponse:
        return json_response([])

    # -------------------------------------------------------------- interactions & webhooks

    async def interaction_callback(self, request: web.Request) -> web.StreamResponse:
        body, uploads = await read_body(request)
        rec, msg = await self.state.interaction_callback(
            int(request.match_info["interaction_id"]), request.match_info["token"], body, uploads
        )
        if request.query.get("with_response") not in ("1", "true", "True"):
            return no_content()
        interaction: JSON = {"id": str(rec.id), "type": rec.type}
        resource: JSON = {"type": rec.callback_type}
        if msg is not None:
            interaction.update(
                response_message_id=str(msg.id),
                response_message_loading=rec.callback_type == 5,
                response_message_ephemeral=msg.ephemeral,
            )
            if rec.callback_type in (4, 7):
                resource["message"] = self._msg_json(msg)
        return json_response({"interaction": interaction, "resource": resource})

    async def webhook_execute(self, request: web.Request) -> web.StreamResponse:
        rec = self.state.interaction_by_token(int(request.match_info["app_id"]), request.match_info["token"])
        body, uploads = await read_body(request)
        msg = await self.state.followup(rec, body, uploads)
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(self._msg_json(msg))
        return no_content()

    async def webhook_get(self, request: web.Request) -> web.StreamResponse:
        rec = self.state.interaction_by_token(int(request.match_info["app_id"]), request.match_info["token"])
        return json_response(
            self._msg_json(self.state.interaction_message(rec, request.match_info["message_id"]))
        )

    async def webhook_edit(self, request: web.Request) -> web.StreamResponse:
        rec = self.state.interaction_by_token(int(request.match_info["app_id"]), request.match_info["token"])
        msg = self.state.interaction_message(rec, request.match_info["message_id"])
        body, uploads = await read_body(request)
        await self.state.edit_message(msg, body, uploads, interaction=rec)
        return json_response(self._msg_json(msg))

    async def webhook_delete(self, request: web.Request) -> web.StreamResponse:
        rec = self.state.interaction_by_token(int(request.match_info["app_id"]), request.match_info["token"])
        await self.state.delete_message(self.state.interaction_message(rec, request.match_info["message_id"]))
        return no_content()

    # -------------------------------------------------------------- channels & messages

    async def get_channel(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        self.state.require(self.state.bot_user, channel, 0)
        return json_response(self._channel_json(channel))

    async def patch_channel(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        body, _ = await read_body(request)
        self._require_manage(channel, body)
        return json_response(self._channel_json(await self.state.update_channel(channel, body)))

    def _require_manage(self, channel: Channel, body: JSON) -> None:
        """Editing a thread needs Manage Threads unless the bot made it and changes only its name,
        archiving or auto-archive time; editing a channel needs Manage Channels (both as computed in
        that channel, a thread's from its parent)."""
        if channel.is_thread:
            own_thread = channel.owner_id == self.state.bot_user.id and set(body) <= {
                "name",
                "archived",
                "auto_archive_duration",
            }
            needed = 0 if own_thread else discord.Permissions(manage_threads=True).value
        else:
            needed = discord.Permissions(manage_channels=True).value
        self.state.require(self.state.bot_user, channel, needed)

    async def delete_channel(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        self._require_manage(channel, {"delete": True})
        await self.state.delete_channel(channel)
        return json_response(self._channel_json(channel))

    async def get_messages(self, request: web.Request) -> web.StreamResponse:
        """Without Read Message History Discord answers with no messages at all."""
        channel = self._channel(request)
        has = self.state.require(self.state.bot_user, channel, 0)
        if not has & discord.Permissions(read_message_history=True).value:
            return json_response([])
        limit = min(int(request.query.get("limit", 50)), 100)
        ids = [
            i
            for i in self.state.history.get(channel.id, [])
            if not self.state.stored[i].deleted and not self.state.stored[i].ephemeral
        ]
        if "before" in request.query:
            ids = [i for i in ids if i < int(request.query["before"])]
        if "after" in request.query:
            ids = [i for i in ids if i > int(request.query["after"])][:limit]
        if "around" in request.query:
            around = int(request.query["around"])
            older = [i for i in ids if i <= around][-(limit // 2 + 1) :]
            newer = [i for i in ids if i > around][: limit - len(older)]
            ids = older + newer
        ids = ids[-limit:]
        return json_response([self._msg_json(self.state.stored[i]) for i in reversed(ids)])

    async def post_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        body, uploads = await read_body(request)
        msg = await self.state.create_message(channel, self.state.bot_user, body, uploads)
        return json_response(self._msg_json(msg))

    async def get_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        self.state.require(self.state.bot_user, channel, discord.Permissions(read_message_history=True))
        msg = self.state.live_message(channel.id, int(request.match_info["message_id"]))
        if msg.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message")
        return json_response(self._msg_json(msg))

    async def patch_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        self.state.require(self.state.bot_user, channel, 0)
        msg = self.state.live_message(channel.id, int(request.match_info["message_id"]))
        body, uploads = await read_body(request)
        if msg.author.id != self.state.bot_user.id and set(body) - {"flags"}:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        if msg.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message")
        await self.state.edit_message(msg, body, uploads)
        return json_response(self._msg_json(msg))

    async def delete_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        msg = self.state.live_message(channel.id, int(request.match_info["message_id"]))
        self._check_manage_messages(channel, msg.author.id)
        await self.state.delete_message(msg)
        return no_content()

    def _check_manage_messages(self, channel: Channel, author_id: int) -> None:
        """Deleting someone else's message needs Manage Messages; one's own, only to see the channel."""
        mine = author_id == self.state.bot_user.id
        self.state.require(self.state.bot_user, channel, discord.Permissions(manage_messages=not mine))

    async def bulk_delete(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        body, _ = await read_body(request)
        for mid in body.get("messages", []):
            msg = self.state.live_message(channel.id, int(mid))
            self._check_manage_messages(channel, msg.author.id)
            await self.state.delete_message(msg)
        return no_content()

    async def get_pins(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        pinned = [
            self.state.stored[i]
            for i in self.state.history.get(channel.id, [])
            if self.state.stored[i].pinned
        ]
        return json_response(
            {
                "items": [
                    {"pinned_at": iso(m.created_at), "message": self._msg_json(m)} for m in reversed(pinned)
                ],
                "has_more": False,
            }
        )

    async def get_pins_legacy(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        pinned = [
            self.state.stored[i]
            for i in self.state.history.get(channel.id, [])
            if self.state.stored[i].pinned
        ]
        return json_response([self._msg_json(m) for m in reversed(pinned)])

    async def pin(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        msg = self.state.live_message(channel.id, int(request.match_info["message_id"]))
        msg.pinned = True
        await self.state.dispatch_message_event("MESSAGE_UPDATE", msg)
        return no_content()

    async def unpin(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        msg = self.state.live_message(channel.id, int(request.match_info["message_id"]))
        msg.pinned = False
        await self.state.dispatch_message_event("MESSAGE_UPDATE", msg)
        return no_content()

    async def add_reaction(self, request: web.Request) -> web.StreamResponse:
        """Discord needs Read Message History, and Add Reactions unless someone already reacted
        with that emoji."""
        channel = self._channel(request)
        msg = self.state.live_message(channel.id, int(request.match_info["message_id"]))
        first = not msg.reactions.get(request.match_info["emoji"])
        self.state.require(
            self.state.bot_user, channel, discord.Permissions(read_message_history=True, add_reactions=first)
        )
        msg.reactions.setdefault(request.match_info["emoji"], set()).add(self.state.bot_user.id)
        self.state.notify()
        return no_content()

    async def remove_reaction(self, request: web.Request) -> web.StreamResponse:
        """Taking back one's own reaction needs only to see the channel; someone else's, Manage
        Messages."""
        channel = self._channel(request)
        msg = self.state.live_message(channel.id, int(request.match_info["message_id"]))
        user = self._user(request.match_info["user_id"])
        self._check_manage_messages(channel, user.id)
        msg.reactions.get(request.match_info["emoji"], set()).discard(user.id)
        self.state.notify()
        return no_content()

    async def clear_reactions(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        self.state.require(self.state.bot_user, channel, discord.Permissions(manage_messages=True))
        msg = self.state.live_message(channel.id, int(request.match_info["message_id"]))
        msg.reactions.clear()
        return no_content()

    async def get_reactions(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        msg = self.state.live_message(channel.id, int(request.match_info["message_id"]))
        users = msg.reactions.get(request.match_info["emoji"], set())
        return json_response([self.state.users[u].to_json() for u in sorted(users)])

    async def typing(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        self.state.typing.append(channel.id)
        return no_content()

    # -------------------------------------------------------------- threads

    async def thread_from_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        starter = self.state.live_message(channel.id, int(request.match_info["message_id"]))
        body, _ = await read_body(request)
        thread, _ = await self.state.create_thread(channel, body, starter=starter)
        await self.state.dispatch_message_event("MESSAGE_UPDATE", starter)
        return json_response(self._channel_json(thread), 201)

    async def thread_create(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        body, uploads = await read_body(request)
        thread, first = await self.state.create_thread(channel, body, uploads=uploads)
        data = self._channel_json(thread)
        if first is not None:
            data["message"] = self._msg_json(first)
        return json_response(data, 201)

    async def archived_threads(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        threads = [
            c
            for c in self.state.channels.values()
            if c.parent_id == channel.id and c.is_thread and c.archived
        ]
        return json_response(
            {
                "threads": [self._channel_json(t) for t in threads],
                "members": [],
                "has_more": False,
            }
        )

    def _thread(self, request: web.Request) -> Channel:
        channel = self._channel(request)
        if not channel.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        return channel

    def _thread_member_json(self, thread: Channel, user_id: int) -> JSON:
        return {
            "id": str(thread.id),
            "user_id": str(user_id),
            "join_timestamp": iso(thread.created_at),
            "flags": 0,
        }

    async def thread_members(self, request: web.Request) -> web.StreamResponse:
        thread = self._thread(request)
        return json_response([self._thread_member_json(thread, u) for u in thread.member_ids])

    async def thread_member(self, request: web.Request) -> web.StreamResponse:
        thread = self._thread(request)
        user = self._user(request.match_info["user_id"])
        if user.id not in thread.member_ids:
            raise DiscordError(404, 10033, "Unknown Thread Member")
        return json_response(self._thread_member_json(thread, user.id))

    async def thread_member_add(self, request: web.Request) -> web.StreamResponse:
        """Adding someone else to a thread needs the right to send messages in it; joining, only
        to see it."""
        thread = self._thread(request)
        user = self._user(request.match_info["user_id"])
        joining = user.id == self.state.bot_user.id
        self.state.require(
            self.state.bot_user, thread, discord.Permissions(send_messages_in_threads=not joining)
        )
        if thread.archived:
            raise DiscordError(400, 50083, "Thread is archived")
        if user.id not in thread.member_ids:
            thread.member_ids.append(user.id)
            await self.state.gateway.dispatch(
                "THREAD_MEMBERS_UPDATE",
                {
                    "id": str(thread.id),
                    "guild_id": str(thread.guild_id),
                    "member_count": len(thread.member_ids),
                    "added_members": [self._thread_member_json(thread, user.id)],
                },
                guild_id=thread.guild_id,
            )
        self.state.notify()
        return no_content()

    async def thread_member_remove(self, request: web.Request) -> web.StreamResponse:
        thread = self._thread(request)
        user = self._user(request.match_info["user_id"])
        if user.id in thread.member_ids:
            thread.member_ids.remove(user.id)
            await self.state.gateway.dispatch(
                "THREAD_MEMBERS_UPDATE",
                {
                    "id": str(thread.id),
                    "guild_id": str(thread.guild_id),
                    "member_count": len(thread.member_ids),
                    "removed_member_ids": [str(user.id)],
                },
                guild_id=thread.guild_id,
            )
        self.state.notify()
        return no_content()

    # -------------------------------------------------------------- guilds

    def _guild(self, request: web.Request) -> Any:
        gid = self._guild_id(request)
        assert gid is not None
        return self.state.guilds[gid]

    async def get_guild(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        data = guild.to_json(members=[], me_id=self.state.bot_user.id)
        for key in (
            "members",
            "channels",
            "threads",
            "voice_states",
            "presences",
            "member_count",
            "joined_at",
            "large",
        ):
            data.pop(key, None)
        if request.query.get("with_counts") in ("1", "true"):
            data["approximate_member_count"] = len(guild.members)
            data["approximate_presence_count"] = len(guild.members)
        return json_response(data)

    async def guild_channels(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        return json_response([self._channel_json(c) for c in guild.channels.values() if not c.is_thread])

    async def guild_roles(self, request: web.Request) -> web.StreamResponse:
        return json_response([r.to_json() for r in self._guild(request).roles.values()])

    async def guild_members(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        limit = int(request.query.get("limit", 1))
        after = int(request.query.get("after", 0))
        members = sorted((m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id)
        return json_response([m.to_json() for m in members[:limit]])

    async def guild_members_search(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        query = request.query.get("query", "").lower()
        found = [m for m in guild.members.values() if m.user.name.lower().startswith(query)]
        return json_response([m.to_json() for m in found[: int(request.query.get("limit", 1))]])

    async def guild_member(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        member = guild.members.get(self._user(request.match_info["user_id"]).id)
        if member is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return json_response(member.to_json())

    async def active_threads(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        threads = [c for c in guild.channels.values() if c.is_thread and not c.archived]
        members = [
            self._thread_member_json(t, self.state.bot_user.id)
            for t in threads
            if self.state.bot_user.id in t.member_ids
        ]
        return json_response({"threads": [self._channel_json(t) for t in threads], "members": members})


def attachment_route(state: Messaging) -> Handler:
    """Serves uploaded files at the URLs given in attachment objects."""

    async def handler(request: web.Request) -> web.StreamResponse:
        att = state.files.get(int(request.match_info["attachment_id"]))
        if att is None:
            return web.Response(status=404)
        return web.Response(body=att.data, content_type=att.content_type or "application/octet-stream")

    return handler


__all__ = ["Rest", "attachment_route", "json_response", "read_body"]
