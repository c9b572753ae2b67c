"""``DiscordStandIn``: a local Discord (REST v10 + gateway) for end-to-end bot tests.

Usage::

    async with DiscordStandIn() as s:
        async with s.run_bot(make_bot()):
            answer = await (await s.slash(s.alice, s.channel, "tileref new", game="tronimoes")).reply()
            assert answer.ephemeral
        assert s.unhandled == []

The real, unmodified discord.py client talks to it over 127.0.0.1.  The only things
patched in discord.py are its two hard-coded addresses — ``discord.http.Route.BASE``
(REST) and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (a non-sharded
``Client`` never asks ``GET /gateway/bot``; it connects to that constant directly) —
and only inside :meth:`DiscordStandIn.patch_discord`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
from collections.abc import AsyncIterator, Iterator
from types import TracebackType
from typing import Any, Self, TypeVar

import discord
import yarl
from aiohttp import web
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .players import Players
from .rest import Rest, attachment_route, json_response

log = logging.getLogger("tests.standin")

ClientT = TypeVar("ClientT", bound=discord.Client)


@dataclasses.dataclass
class Hold:
    """A request held by :meth:`DiscordStandIn.hold`: ``reached`` is set when it arrives."""

    method: str
    path: re.Pattern[str]
    after: bool = False
    reached: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    released: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)

    def release(self) -> None:
        self.released.set()


class DiscordStandIn(Players):
    """A Discord API stand-in on 127.0.0.1 (aiohttp), with a default world:

    - ``s.guild`` ("Tile Club") with text channel ``s.channel`` ("general"); its ``@everyone``
      role lets members do what a new Discord server lets them do (see, talk, attach, embed,
      react, read the history, open public threads and talk in them);
    - the bot user ``s.bot_user`` with its managed role ``s.bot_role``, which grants what the
      bot's invite link asks for; ``s.application_id == s.bot_user.id``;
    - players ``s.alice``, ``s.bob``, ``s.carol`` and ``s.mod`` (``mod`` has a
      "Moderator" role with Manage Threads + Manage Messages); the guild owner ``s.owner``.

    Permissions are computed as Discord computes them, from the roles and the channels'
    overwrites (tests/standin/permissions.py), for the routes (403 Missing Permissions / Missing
    Access) and for the permissions interactions carry; the bot is sent the roles and overwrites
    in GUILD_CREATE and their changes as GUILD_ROLE_UPDATE / CHANNEL_UPDATE, so its own
    ``permissions_for`` agrees. ``set_role_permissions``, ``set_overwrite`` and
    ``withhold_from_bot`` change them (``tell_bot=False``: without the event, so the bot's cache
    is behind; ``send_update`` sends it later).

    Keyword arguments: ``token`` (the bot token the stand-in accepts), ``bot_name``,
    ``players`` (names), ``guild_name``, ``channel_name``, ``heartbeat_interval_ms``,
    ``interaction_deadline`` (seconds the bot has to acknowledge an interaction, like
    Discord's 3 s; ``None`` disables), ``privileged_intents`` (which of "members",
    "presences", "message_content" the "developer portal" allows; others → close 4014),
    ``default_timeout`` for every wait (5 s).
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._runner: web.AppRunner | None = None
        self.holds: list[Hold] = []

    def hold(self, method: str, path: str, *, after: bool = False) -> Hold:
        """Hold the next request whose method is ``method`` and whose API path matches the regular
        expression ``path`` (without ``/api/v10``): it is not answered until ``release()``, so a
        test can kill the bot while it waits (the way a crash meets a slow Discord). With
        ``after``, the request is carried out first (the message is created) and only its answer
        is held: a kill then falls between Discord doing it and the bot learning that it did."""
        hold = Hold(method, re.compile(path), after)
        self.holds.append(hold)
        return hold

    async def held(self, method: str, path: str, *, after: bool = False) -> None:
        """Called for every REST request, before it is carried out and after (``after``): waits
        while a hold applies to it."""
        for hold in list(self.holds):
            if hold.method == method and hold.after == after and hold.path.fullmatch(path):
                self.holds.remove(hold)
                hold.reached.set()
                await hold.released.wait()
                return

    # ------------------------------------------------------------- lifecycle

    async def start(self) -> Self:
        """Listen on a free port of 127.0.0.1; sets :attr:`base_url`."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", attachment_route(self))
        app.add_subapp("/api/v10", Rest(self).app())
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.base_url = f"http://{host}:{port}"
        log.debug("Discord stand-in listening on %s", self.base_url)
        return self

    async def stop(self) -> None:
        """Close gateway connections (code 1001) and the HTTP server.  Close bots first."""
        if self._runner is None:
            return
        await self.settle()
        await self.gateway.close_all()
        await self._runner.cleanup()
        self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    async def _unknown(self, request: web.Request) -> web.StreamResponse:
        self.note_unhandled(f"{request.method} {request.path}")
        return json_response(
            {"message": "404: Not Found (not served by the Discord stand-in)", "code": 0}, 404
        )

    # ------------------------------------------------------------- pointing discord.py here

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be: ``{base_url}/api/v10``."""
        return f"{self.base_url}/api/v10"

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py at this stand-in for the duration of the ``with`` block.

        Sets ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` and restores
        both on exit.  Nothing else in discord.py is touched.
        """
        if not self.base_url:
            raise RuntimeError("start() the stand-in before patching discord.py")
        old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
        Route.BASE = self.api_base
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway

    async def wait_for_connection(self, *, after: int = 0, timeout: float | None = None) -> None:
        """Wait until more than ``after`` sessions have been sent READY + GUILD_CREATE."""
        await self.wait_until(
            lambda: self.gateway.ready_count > after, timeout=timeout, what="a bot to identify on the gateway"
        )

    @contextlib.asynccontextmanager
    async def run_bot(
        self,
        bot: ClientT,
        *,
        token: str | None = None,
        timeout: float | None = None,
        wait_ready: bool = False,
    ) -> AsyncIterator[ClientT]:
        """Start ``bot`` (``bot.start(token)``) against the stand-in; close it on exit.

        Returns once the stand-in has sent READY and every GUILD_CREATE (setup_hook — and so
        a ``tree.sync()`` in it — has run by then).  With ``wait_ready=True`` also waits
        for ``bot.wait_until_ready()`` (discord.py delays it by the bot's
        ``guild_ready_timeout``, 2 s by default — pass ``guild_ready_timeout=0.1`` to the
        bot to make that quick).  On exit the bot is closed and its task awaited, so no
        sessions or tasks are left behind.  A bot may be run again later as a new instance
        ("restart") against the same stand-in and state.
        """
        limit = self.default_timeout if timeout is None else timeout
        with self.patch_discord():
            before = self.gateway.ready_count
            task = asyncio.create_task(bot.start(token or self.token), name="standin-bot")
            task.add_done_callback(lambda _: self.notify())
            try:
                await self.wait_until(
                    lambda: self.gateway.ready_count > before or task.done(),
                    timeout=limit,
                    what=f"{bot!r} to connect",
                )
                if task.done():
                    task.result()  # re-raise LoginFailure, PrivilegedIntentsRequired, …
                    raise RuntimeError("the bot stopped before connecting")
                if wait_ready:
                    await asyncio.wait_for(bot.wait_until_ready(), limit)
                yield bot
            finally:
                await bot.close()
                try:
                    await asyncio.wait_for(task, limit)
                except (asyncio.CancelledError, TimeoutError):
                    task.cancel()
                except Exception:  # already reported by the test body or discord.py's logger
                    log.debug("bot task ended with an error", exc_info=True)
                await _cancel_ready_task(bot)
                await self.settle()

    def assert_clean(self) -> None:
        """Assert the bot used no unimplemented route and made no request Discord would refuse."""
        assert self.unhandled == [], f"routes the stand-in does not implement were used: {self.unhandled}"
        assert self.errors == [], f"requests Discord would refuse: {self.errors}"


async def _cancel_ready_task(bot: discord.Client) -> None:
    """discord.py's Client.close() leaves the "wait guild_ready_timeout, then dispatch on_ready"
    task running when the bot is closed before it became ready; cancel it so no task outlives
    the bot (the task itself treats cancellation as "never mind")."""
    task: asyncio.Task[None] | None = getattr(bot._connection, "_ready_task", None)
    if task is not None and not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
