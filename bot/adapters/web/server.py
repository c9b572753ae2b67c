"""The web server in the bot's process (aiohttp): a table's page at `/t/<token>`, its board
picture and position at any ply, its changing part for the script, and a stream of server-sent
events that says when the table changed (from the store's change feed, so a move committed by
any process shows).

Every response carries a strict Content-Security-Policy: the pages load only their own script,
style sheet and pictures, from this server. Nothing hidden is ever served: every answer is made
from `bot.media.spectator`, which reads the log and the spectator's view only."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import quote

import aiohttp
from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

import renderers
from bot.adapters.web import pages, tournament_page
from bot.adapters.web.feed import EventSink, LiveFeed, TableStream
from bot.community.ratings import player_key
from bot.core import metrics
from bot.core.i18n import DEFAULT, LANGUAGES, N_, _, language_of, speaking
from bot.core.meta import PALETTE
from bot.core.records import DEADLINE, ActionRecord, TableRecord
from bot.durable.health import Check, HealthCheck, HealthLimits, HealthReport, database_checks
from bot.media.replay_animation import Replays
from bot.media.spectator import KEY_CHARACTERS, Entry, Spectacle, Timeline, Timelines, common_prefix, public_position
from bot.media.watching import WebSettings, new_token
from bot.storage.store import Store
from bot.tournaments.page import opens
from engine import GAMES, Game
from engine.digits import whole_number
from renderers.palettes import drawing_in

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
BOARDS_KEPT = 512
DRAWING_PATIENCE = 2.0
"""Seconds a web process waits for another one sharing its pictures' folder to draw a picture."""
_NAMED = re.compile(rf"[A-Za-z0-9_-]{{10,64}}/[0-9]{{1,9}}-[0-9a-f]{{{KEY_CHARACTERS}}}")
"""A picture's name as its address writes it (a table's token, a ply and a log's digest): what
may be looked for in the pictures' folder before the table is read."""
CSP = ("default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class BadAddress(Exception):
    """The address asks for something that is not there; the message says what to do instead."""

    def __init__(self, message: str, status: int = 400, **values: object) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.values = values


class _BadRequestsQuiet(logging.Filter):
    """Drops aiohttp's tracebacks for requests it could not even read (a line too long, bytes
    that are not HTTP): it answers them 400 by itself, and they are the client's mistake, not
    ours."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, HttpProcessingError)


_QUIET = _BadRequestsQuiet()
logging.getLogger("aiohttp.server").addFilter(_QUIET)


class PagesCannotListen(Exception):
    """The spectator pages could not listen where `TILEREF_WEB` says; the message says what to
    set instead."""


async def start_pages(store: Store, settings: WebSettings, health: HealthCheck | None = None, *,
                      cache: Path | None = None, health_url: str | None = None, reuse_port: bool = False
                      ) -> tuple[WebServer, str] | None:
    """The spectator pages of every table in `store`, listening where `settings` say, and the
    address links to them start with; None when the settings turn them off. `/healthz` answers
    `health`'s report (default: the store's checks only), or forwards the one at `health_url`.
    Pictures are kept in `cache` too; `reuse_port`: other processes may listen on the same port
    (the system spreads connections over them). Raises PagesCannotListen (nothing left open) when the
    address cannot be listened on."""
    if settings.host is None:
        return None
    pages = WebServer(store, host=settings.host, port=settings.port, health=health, health_url=health_url,
                      cache=cache, reuse_port=reuse_port, public_url=settings.public_url if settings.port else None)
    try:
        await pages.start()
    except OSError as error:
        await pages.stop()
        raise PagesCannotListen(_("The web page could not listen on {address} ({reason}); set TILEREF_WEB to "
                                  "another host:port, or off.").format(address=f"{settings.host}:{settings.port}",
                                                                       reason=listen_problem(error))) from error
    return pages, settings.public_url if settings.port else f"http://{settings.host}:{pages.port}"


def listen_problem(error: OSError) -> str:
    """Why an address could not be listened on, in the language being spoken (the system's own
    words, which are English, only for a reason tileref has no words for)."""
    reasons = {errno.EADDRINUSE: N_("another program is using that port"),
               errno.EACCES: N_("this user may not use that port"),
               errno.EADDRNOTAVAIL: N_("this machine has no such address")}
    if error.errno in reasons:
        return _(reasons[error.errno])
    return str(error.strerror or error)


class WebServer:
    """The spectator pages of every table in `store`, served at `host:port` once `start`ed, and
    `/healthz`, the process's health (`health`; or `health_url`, the bot process's own `/healthz`,
    which this one forwards; default: whether the database answers). Pictures are drawn once per
    position and kept in memory and, given `cache`, in files there. `public_url`: where readers
    reach it (for link previews' absolute addresses; default: the address each request was made
    to)."""

    def __init__(self, store: Store, *, host: str = "127.0.0.1", port: int = 8080,
                 health: HealthCheck | None = None, health_url: str | None = None,
                 cache: Path | None = None, reuse_port: bool = False, public_url: str | None = None) -> None:
        self.store = store
        self.reuse_port = reuse_port
        self.health = health
        self.health_url = health_url
        self.public_url = public_url.rstrip("/") if public_url else None
        self.replays = Replays(store)
        self.host = host
        self.port = port
        self.feed = LiveFeed(store, self._compose)
        self.timelines = Timelines()
        self.pictures = PictureCache(cache)
        self._drawing: set[asyncio.Task[bytes]] = set()
        self._game_tokens: dict[int, str] = {}
        """Each tournament game's page token, once known (a table's token never changes)."""
        self._runner: web.AppRunner | None = None
        self.app = self._application()

    def _application(self) -> web.Application:
        app = web.Application(middlewares=[_headers, web.normalize_path_middleware(
            append_slash=False, remove_slash=True, merge_slashes=False)])
        app.router.add_get("/t/{token}", self.page)
        app.router.add_get("/t/{token}/part", self.part)
        app.router.add_get("/t/{token}/board.png", self.board_now)
        app.router.add_get(r"/t/{token}/board/{key:[^/]+}.png", self.board)
        app.router.add_get("/t/{token}/position.json", self.position_now)
        app.router.add_get(r"/t/{token}/position/{key:[^/]+}.json", self.position)
        app.router.add_get("/t/{token}/replay.gif", self.replay)
        app.router.add_get("/t/{token}/record.txt", self.record_text)
        app.router.add_get("/t/{token}/record.json", self.record_json)
        app.router.add_get("/t/{token}/live", self.live)
        app.router.add_get(r"/tournament/{id:[0-9]{1,12}}/{token}", self.tournament)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/favicon.ico", _no_icon)
        app.router.add_get("/healthz", self.healthz)
        return app

    async def start(self) -> None:
        """Listen (port 0: any free port, then `port` says which) and follow the change feed."""
        await self.feed.start()
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=1.0,
                                     handler_cancellation=True, max_line_size=8190, max_field_size=8190)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port, reuse_port=self.reuse_port or None)
        await site.start()
        server = getattr(site, "_server", None)
        if server is not None and server.sockets:
            self.port = server.sockets[0].getsockname()[1]
        log.info("spectator pages at http://%s:%s", self.host, self.port)

    async def stop(self) -> None:
        await self.feed.stop()
        self.replays.close()
        for drawing in list(self._drawing):
            drawing.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ---- handlers ---------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        table = await self._table(request)
        token = request.match_info["token"]
        language = table.meta.get("lang") or DEFAULT
        if table.seed is None:  # not dealt yet: the lobby, or stopped in it
            with speaking(language):
                return _html(pages.lobby_page(table, token, language, self._origin(request)))
        spectacle = await self._spectacle(request, table)
        extras = await self._extras(request, table, spectacle, language)
        with speaking(language):
            return _html(pages.page(spectacle, token, language, extras))

    async def part(self, request: web.Request) -> web.Response:
        table = await self._table(request)
        language = table.meta.get("lang") or DEFAULT
        if table.seed is None:
            with speaking(language):
                return _html(pages.lobby_part(table), headers={"X-Ply": "0", "X-Last": "0", "X-At": ""})
        spectacle = await self._spectacle(request, table)
        extras = await self._extras(request, table, spectacle, language)
        with speaking(language):
            body = pages.main_part(spectacle, request.match_info["token"], extras)
        return _html(body, headers={"X-Ply": str(spectacle.ply), "X-Last": str(spectacle.last),
                                    "X-At": spectacle.last_key})

    async def board_now(self, request: web.Request) -> web.Response:
        """`board.png?ply=N` (default: now): a redirect to the address naming that position."""
        _table, timeline, ply = await self._timeline(request)
        part = request.query.get("part")
        query = f"?part={quote(part)}" if part else ""
        raise web.HTTPFound(f"/t/{request.match_info['token']}/board/{timeline.address_key(ply)}.png{query}",
                            headers={"Cache-Control": "no-cache"})

    async def board(self, request: web.Request) -> web.StreamResponse:
        """The picture of the position the address names (`<ply>-<digest of the log up to it>`):
        the same address is always the same picture, so browsers keep it for good. `?part=S`:
        seat S's board alone (Tetromic, on a phone)."""
        token, key = request.match_info["token"], request.match_info["key"]
        asked = request.query.get("part", "") if request.query_string else ""
        suffix = f".{asked}" if asked else ""
        name = f"{token}/{key}{suffix}"
        if request.headers.get("If-None-Match") == f'"{key}{suffix}"':  # the address names what it shows
            return web.Response(status=304, headers=_picture_headers(key, suffix))
        data = self.pictures.held_now(f"{name}.png")  # the new position's picture, asked for by every watcher
        if data is None:
            named = _NAMED.fullmatch(f"{token}/{key}") and (not asked or (asked.isascii() and asked.isdigit()
                                                                          and len(asked) <= 2))
            data = await self.pictures.find(f"{name}.png") if named else None
        if data is None:  # never drawn: is it a position of this table's log?
            table, timeline, ply = await self._keyed(request)
            if table.game not in renderers.RENDERERS:
                raise BadAddress(N_("This game has no board picture."), 404)
            part = _part(request, renderers.board_parts(timeline.final))
            suffix = "" if part is None else f".{part}"
            language, palette = table.meta.get("lang") or DEFAULT, table.meta.get(PALETTE)
            data = await self.pictures.get(f"{token}/{timeline.address_key(ply)}{suffix}.png",
                                           lambda: _draw(timeline.game_at(ply), language, palette, part))
        return web.Response(body=data, headers=_picture_headers(key, suffix))

    async def position_now(self, request: web.Request) -> web.Response:
        table, timeline, ply = await self._timeline(request)
        return self._position(table, timeline, ply, "no-cache")

    async def position(self, request: web.Request) -> web.Response:
        table, timeline, ply = await self._keyed(request)
        return self._position(table, timeline, ply, "public, max-age=31536000, immutable")

    @staticmethod
    def _position(table: TableRecord, timeline: Timeline, ply: int, caching: str) -> web.Response:
        data = public_position(timeline.game_at(ply))
        data["ply"] = ply
        return web.Response(text=json.dumps(data, ensure_ascii=False, indent=1), content_type="application/json",
                            headers={"Content-Disposition": f'attachment; filename="{table.game}-{ply}.json"',
                                     "Cache-Control": caching})

    async def replay(self, request: web.Request) -> web.Response:
        """The whole game so far as an animated GIF (drawn in a worker process, kept by its log)."""
        table, timeline, _ply_asked = await self._timeline(request)
        if table.game not in renderers.RENDERERS:
            raise BadAddress(N_("This game has no board picture."), 404)
        animation = await self.replays.animation(table, timeline.actions)
        return web.Response(body=animation.data, content_type="image/gif",
                            headers={"Content-Disposition": f'attachment; filename="{animation.filename}"',
                                     "Cache-Control": "no-cache"})

    async def record_text(self, request: web.Request) -> web.Response:
        """The game's log in notation, one numbered move a line, in the table's language."""
        table, timeline, _ply_asked = await self._timeline(request)
        with speaking(table.meta.get("lang") or DEFAULT):
            text = game_record_text(table, timeline)
        return web.Response(text=text, content_type="text/plain", charset="utf-8",
                            headers={"Content-Disposition": f'attachment; filename="{table.game}-moves.txt"',
                                     "Cache-Control": "no-cache"})

    async def record_json(self, request: web.Request) -> web.Response:
        """The game's log in notation and the public position after every move, as JSON."""
        table, timeline, _ply_asked = await self._timeline(request)
        with speaking(table.meta.get("lang") or DEFAULT):
            record = await asyncio.to_thread(game_record, table, timeline.game_at(0), list(timeline.actions),
                                             list(timeline.entries))
        return web.Response(text=json.dumps(record, ensure_ascii=False), content_type="application/json",
                            headers={"Content-Disposition": f'attachment; filename="{table.game}-record.json"',
                                     "Cache-Control": "no-cache"})

    async def live(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: a `change` whenever the table changes, saying only what changed
        (`pages.live_update`: the new moves, the new picture's address, …). A page says which
        position it knows (`?at=`, or the `Last-Event-ID` its browser sends when it reconnects)
        and is first told what came after it."""
        table = await self._table(request)
        known = request.headers.get("Last-Event-ID") or request.query.get("at") or ""
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
                                               "X-Accel-Buffering": "no"})
        await response.prepare(request)
        await response.write(b"retry: 2000\n\n")  # sends the headers: from here on, the connection is written to
        transport = request.transport
        if transport is None or transport.is_closing():
            return response
        chunked = response.headers.get("Transfer-Encoding", "").lower() == "chunked"  # HTTP/1.1; not 1.0
        sink = EventSink(transport, chunked)  # type: ignore[arg-type]  # a socket's transport
        stream = self.feed.subscribe(table.id)
        stream.token = request.match_info["token"]
        seen = stream.seq
        metrics.web_watchers.inc()
        try:
            catch_up = await self._catch_up(table, request.match_info["token"], stream, known)
            if catch_up is not None:
                sink.send(catch_up)
            _last, missed = stream.since(seen)  # published while catching up
            for data in missed:
                sink.send(data)
            if not self.feed.closed:
                stream.sinks.add(sink)  # every update from now on is written to it as it is published
                await sink.ended
        finally:
            stream.sinks.discard(sink)
            metrics.web_watchers.dec()
            self.feed.unsubscribe(table.id)
        return response

    async def _catch_up(self, table: TableRecord, token: str, stream: TableStream, known: str) -> bytes | None:
        """What a page that knows the position `known` ("" : none) missed, as one update (None:
        nothing); also what the stream tells next updates against, if nothing was told yet."""
        if table.seed is None:
            return None
        timeline = self.timelines.get(table, await self.store.actions(table.id))
        if stream.told is None:  # the first watcher: later updates say what changed from here
            stream.told = list(timeline.prefix_keys)
            await self._update(table, token, timeline, timeline.length + 1, stream)
        if not known or known == timeline.address_key(timeline.length):
            return None
        ply_text, _dash, digest = known.partition("-")
        ply = int(ply_text) if ply_text.isascii() and ply_text.isdigit() and len(ply_text) < 10 else -1
        start = ply + 1 if 0 <= ply <= timeline.length and timeline.prefix_keys[ply] == digest else 1
        return await self._update(table, token, timeline, start)

    async def _compose(self, table_id: int, stream: TableStream) -> bytes | None:
        """The live update of a table that changed (for `LiveFeed`): from the first move that
        differs from what was told last."""
        table = await self.store.get_table(table_id)
        if table is None:
            return None
        token = stream.token
        if table.seed is None:
            language = table.meta.get("lang") or DEFAULT
            with speaking(language):
                return _event({"lobby": pages.lobby_part(table), "at": ""})
        timeline = self.timelines.get(table, await self.store.actions(table.id))
        told = stream.told
        stream.told = list(timeline.prefix_keys)
        start = common_prefix(told, timeline.prefix_keys) + 1 if told is not None else 1
        if start <= timeline.length:  # a new position: every watcher asks for its picture next
            self._draw_soon(table, token, timeline, timeline.length)
        return await self._update(table, token, timeline, start, stream)

    def _draw_soon(self, table: TableRecord, token: str, timeline: Timeline, ply: int) -> None:
        """Start drawing the picture of `ply` now, so the watchers' requests for it find it drawn
        or being drawn."""
        if table.game not in renderers.RENDERERS:
            return
        language, palette = table.meta.get("lang") or DEFAULT, table.meta.get(PALETTE)
        game = timeline.game_at(ply)
        drawing = asyncio.get_running_loop().create_task(
            self.pictures.get(f"{token}/{timeline.address_key(ply)}.png", lambda: _draw(game, language, palette)))
        self._drawing.add(drawing)
        drawing.add_done_callback(self._drawn)

    def _drawn(self, drawing: asyncio.Task[bytes]) -> None:
        self._drawing.discard(drawing)
        if not drawing.cancelled() and drawing.exception() is not None:
            log.warning("drawing a board picture failed", exc_info=drawing.exception())

    async def _update(self, table: TableRecord, token: str, timeline: Timeline, start: int,
                      stream: TableStream | None = None) -> bytes | None:
        """The update telling a page that knows the log up to `start - 1` how the table is now;
        None for a `stream` when it would tell no new move and nothing else new either (another
        notice of a commit already told)."""
        deadlines = {t.seat: t.due for t in await self.store.timers(table.id) if t.kind == DEADLINE}
        spectacle = timeline.spectacle(None, deadlines)
        language = table.meta.get("lang") or DEFAULT
        extras = pages.Extras("", await self._ratings(table, language))
        with speaking(language):
            update = pages.live_update(spectacle, token, start, extras)
        if stream is not None:
            state = json.dumps({k: v for k, v in update.items() if k not in ("from", "items")}, sort_keys=True)
            if start > timeline.length and state == stream.state:
                return None
            stream.state = state
        return _event(update, event_id=spectacle.last_key)

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in ("watch.js", "watch.css", "tournament.css"):
            raise web.HTTPNotFound()
        kind = "text/javascript" if name.endswith(".js") else "text/css"
        return web.Response(body=(STATIC / name).read_bytes(), content_type=kind,
                            headers={"Cache-Control": "public, max-age=3600"})

    async def tournament(self, request: web.Request) -> web.Response:
        """A tournament's page (`tournament_page`): its rules, standings and rounds, with a link
        to every game's page and replay (each game's page token made, as /watch makes it, the
        first time it is linked). The address holds the tournament's number and its page token
        (`bot.tournaments.page`), so only those given the link find it."""
        view = await self.store.tournaments.view(int(request.match_info["id"]))
        if view is None or not opens(view.tournament, request.match_info["token"]):
            raise BadAddress(N_("No tournament has this link. Check that it was copied whole, or ask for it again "
                                "with /tournament standings."), 404)
        boards = [(b.round, b.board, b.table_id) for r in view.rounds for b in r.boards if b.table_id is not None]
        missing = sorted({table_id for _r, _b, table_id in boards} - set(self._game_tokens))
        for table_id, token in zip(missing, await asyncio.gather(*(self.store.watch_token(t, new_token())
                                                                   for t in missing)), strict=True):
            self._game_tokens[table_id] = token
        games = {(number, board): self._game_tokens[table_id] for number, board, table_id in boards}
        language = str(view.tournament.options.get("lang") or DEFAULT)
        with speaking(language):
            return _html(tournament_page.page(view, language, games))

    async def healthz(self, _request: web.Request) -> web.Response:
        """The process's health as JSON (`HealthReport.as_json`): 200 when healthy, else 503. With
        `health_url`, the bot process's own answer (it alone knows its gateway)."""
        if self.health_url is not None:
            status, body = await _forward_health(self.health_url)
            return web.Response(body=body, status=status, content_type="application/json",
                                headers={"Cache-Control": "no-store"})
        if self.health is not None:
            report = await self.health.report()
        else:  # pages alone: whether they can read the database (the bot's backlog is the bot's)
            checks = await database_checks(self.store, HealthLimits(), time.time())
            report = HealthReport(tuple(check for check in checks if check.name == "database"))
        return web.Response(text=json.dumps(report.as_json(), ensure_ascii=False), content_type="application/json",
                            status=200 if report.ok else 503, headers={"Cache-Control": "no-store"})

    # ---- reading a table ------------------------------------------------------------------------

    def _origin(self, request: web.Request) -> str:
        """Where readers reach this server: `public_url`, else the address this request was made to."""
        return self.public_url or f"{request.scheme}://{request.host}"

    async def _extras(self, request: web.Request, table: TableRecord, spectacle: Spectacle,
                      language: str) -> pages.Extras:
        """What the page shows besides the spectacle: the link preview's origin, the players'
        ratings on the table's server, how many parts the board is shown in on a phone."""
        parts = renderers.board_parts(spectacle.game) if table.game in renderers.RENDERERS else 1
        return pages.Extras(self._origin(request), await self._ratings(table, language), parts)

    async def _ratings(self, table: TableRecord, language: str) -> dict[int, str]:
        """Each seat's rating on the table's server, as the players table shows it."""
        ratings: dict[int, str] = {}
        if table.guild is not None and table.seats:
            found = await self.store.standings.ratings_of(table.guild, table.game,
                                                          [player_key(seat) for seat in table.seats])
            with speaking(language):
                for seat in table.seats:
                    rating = found.get(player_key(seat))
                    if rating is not None:
                        ratings[seat.seat] = str(rating.shown) + (" " + _("(provisional)") if rating.provisional
                                                                  else "")
        return ratings

    async def _table(self, request: web.Request) -> TableRecord:
        token = request.match_info["token"]
        table = await self.store.table_by_token(token) if 10 <= len(token) <= 64 else None
        if table is None:
            raise BadAddress(N_("No table has this link. Check that it was copied whole, or ask for it again "
                                "with /watch in the game's thread."), 404)
        return table

    async def _timeline(self, request: web.Request, table: TableRecord | None = None
                        ) -> tuple[TableRecord, Timeline, int]:
        """The table's timeline and the ply asked for (BadAddress before its game is dealt)."""
        table = table or await self._table(request)
        if table.seed is None:
            raise BadAddress(N_("The game has not started yet."), 404)
        timeline = self.timelines.get(table, await self.store.actions(table.id))
        return table, timeline, _ply(request, timeline.length)

    async def _keyed(self, request: web.Request) -> tuple[TableRecord, Timeline, int]:
        """The table's timeline and the ply an address's key names (`<ply>-<digest>`), BadAddress
        (404) when the log up to that ply is not the one the key was made from (a rollback
        undid it)."""
        table = await self._table(request)
        if table.seed is None:
            raise BadAddress(N_("The game has not started yet."), 404)
        timeline = self.timelines.get(table, await self.store.actions(table.id))
        ply_text, _dash, digest = request.match_info["key"].partition("-")
        ply = _ply_number(ply_text, timeline.length)
        if timeline.prefix_keys[ply] != digest:
            raise BadAddress(N_("This position was undone by a moderator's rollback; reload the table's page to "
                                "see the game as it is now."), 404)
        return table, timeline, ply

    async def _spectacle(self, request: web.Request, table: TableRecord) -> Spectacle:
        table, timeline, ply = await self._timeline(request, table)
        if "ply" not in request.query:
            deadlines = {t.seat: t.due for t in await self.store.timers(table.id) if t.kind == DEADLINE}
            return timeline.spectacle(None, deadlines)
        return timeline.spectacle(ply)


class PictureCache:
    """Board pictures by name, drawn once: kept in memory (the `kept` newest) and, given a
    folder, in files there (read back after a restart); a picture several requests ask for at
    once is drawn once for all of them."""

    def __init__(self, folder: Path | None, kept: int = BOARDS_KEPT) -> None:
        self.folder = folder
        self.kept = kept
        self._memory: OrderedDict[str, bytes] = OrderedDict()
        self._drawing: dict[str, asyncio.Future[bytes]] = {}
        self.drawn = 0

    async def find(self, name: str) -> bytes | None:
        """The picture called `name` if it was drawn (or is being drawn): from memory, or the
        folder; None if not. `name` must be a well-formed name (`_NAMED`): it is a path."""
        data = await self._held(name)
        if data is not None or self.folder is None:
            return data
        try:
            data = await asyncio.to_thread((self.folder / name).read_bytes)
        except OSError:
            return None
        self._keep(name, data)
        return data

    def held_now(self, name: str) -> bytes | None:
        """The picture called `name` if memory holds it (no waiting, no file read)."""
        data = self._memory.get(name)
        if data is not None:
            self._memory.move_to_end(name)
        return data

    async def _held(self, name: str) -> bytes | None:
        """The picture called `name` from memory, or once the drawing of it under way ends; None
        if it is neither."""
        data = self._memory.get(name)
        if data is not None:
            self._memory.move_to_end(name)
            return data
        pending = self._drawing.get(name)
        return await asyncio.shield(pending) if pending is not None else None

    def _keep(self, name: str, data: bytes) -> None:
        self._memory[name] = data
        while len(self._memory) > self.kept:
            self._memory.popitem(last=False)

    async def get(self, name: str, draw: Callable[[], bytes]) -> bytes:
        """The picture called `name` (a path like `<token>/<key>.png`), drawn by `draw` (in a
        thread) if neither memory nor the folder holds it."""
        data = await self._held(name)
        if data is not None:
            return data
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._drawing[name] = future
        try:
            data = await asyncio.to_thread(self._read_or_draw, name, draw)
        except BaseException as error:
            if isinstance(error, asyncio.CancelledError):
                future.cancel()
            else:
                future.set_exception(error)
                future.exception()  # retrieved: whoever waits on it gets it too
            raise
        finally:
            self._drawing.pop(name, None)
        future.set_result(data)
        self._keep(name, data)
        return data

    def _read_or_draw(self, name: str, draw: Callable[[], bytes]) -> bytes:
        """In a thread: the picture from the folder, or drawn and kept there. Web processes that
        share the folder draw each picture once: the first takes `<name>.drawing`, the others
        wait for its picture (at most `DRAWING_PATIENCE` seconds, then draw it themselves)."""
        path = self.folder / name if self.folder is not None else None
        if path is None:
            self.drawn += 1
            return draw()
        claim = path.with_name(f".{path.name}.drawing")
        deadline = time.monotonic() + DRAWING_PATIENCE
        while True:
            try:
                return path.read_bytes()
            except OSError:
                pass
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                os.close(os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                break  # ours to draw
            except FileExistsError:
                if time.monotonic() > deadline:
                    break  # its drawer is gone: draw it here
                time.sleep(0.01)
            except OSError:
                break
        try:
            data = draw()
            self.drawn += 1
            try:
                partial = path.with_name(f".{path.name}.{os.getpid()}")
                partial.write_bytes(data)
                partial.replace(path)
            except OSError as error:
                log.warning("could not keep a board picture in %s (%s)", self.folder, error.strerror)
        finally:
            with contextlib.suppress(OSError):
                claim.unlink()
        return data


SECURITY = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
            "X-Frame-Options": "DENY"}
"""The headers every answer carries."""
_PICTURE = {"Content-Type": "image/png", "Cache-Control": "public, max-age=31536000, immutable", **SECURITY}


def _picture_headers(key: str, suffix: str) -> dict[str, str]:
    """A keyed picture's headers: kept for good (its address names what it shows), its key as
    its entity tag (a browser asking again whether it changed is told 304 at once)."""
    return {**_PICTURE, "ETag": f'"{key}{suffix}"'}


def _draw(game: Game, language: str, palette: str | None = None, part: int | None = None) -> bytes:
    """A game's public board picture as spectators see it (without the players' instructions),
    its words in `language`, in the table's `palette`; `part`: one seat's board alone (in a
    worker thread)."""
    with speaking(language), drawing_in(palette):
        return renderers.render(game, None, instructions=False, part=part)


def _event(update: dict[str, object], event_id: str = "") -> bytes:
    """A server-sent `change` event carrying `update` as JSON (and `event_id`, which the
    browser sends back as `Last-Event-ID` when it reconnects)."""
    head = f"id: {event_id}\n" if event_id else ""
    return f"{head}event: change\ndata: {json.dumps(update, ensure_ascii=False)}\n\n".encode()


async def _forward_health(url: str) -> tuple[int, bytes]:
    """The bot process's `/healthz` answer at `url`, or a failed report when it does not answer."""
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as session, \
                session.get(url) as response:
            return response.status, await response.read()
    except (aiohttp.ClientError, TimeoutError) as error:
        report = HealthReport((Check("bot", False, None, None, f"the bot process did not answer ({error})"),))
        return 503, json.dumps(report.as_json()).encode()


def _ply(request: web.Request, last: int) -> int:
    """The `?ply=` asked for (default: now), BadAddress unless it is a move number of the game,
    written with the digits 0–9."""
    text = request.query.get("ply")
    if text is None or text == "":
        return last
    return _ply_number(text, last)


def _ply_number(text: str, last: int) -> int:
    """`text` as a ply from 0 to `last`, BadAddress unless it is one, written with 0–9."""
    ply = whole_number(text) if text.isascii() and len(text) <= 20 else None
    if ply is None or not 0 <= ply <= last:
        raise BadAddress(N_("ply is a move number from 0 (the start) to {last} (now), like ?ply={example}; not "
                            "'{value}'."), last=last, example=max(0, last // 2), value=text[:20])
    return ply


def _part(request: web.Request, parts: int) -> int | None:
    """The `?part=` asked for (None: the whole board), BadAddress unless it is one of the
    board's parts, written with the digits 0–9."""
    text = request.query.get("part")
    if text is None or text == "":
        return None
    part = whole_number(text)
    if part is None or not 0 <= part < parts:
        raise BadAddress(N_("part is the number of one board, from 0 to {last}, like ?part=0; not '{value}'."),
                         last=parts - 1, value=text[:20])
    return part


def game_record_text(table: TableRecord, timeline: Timeline) -> str:
    """The log in notation: a title line, the players, then "N. Name: move" a line (a chance
    entry says what happened, never its seed), each followed by what it caused, indented."""
    lines = [f"{GAMES[table.game].title} · tileref",
             _("Players: {players}").format(players=", ".join(seat.name for seat in table.seats)), ""]
    for entry in timeline.entries:
        did = f"{entry.who}: {entry.action}" if entry.action else (entry.events[0] if entry.events else "")
        lines.append(f"{entry.ply}. {did}")
        lines.extend(f"    {said}" for said in (entry.events if entry.action else entry.events[1:]))
    return "\n".join(lines) + "\n"


def game_record(table: TableRecord, game: Game, actions: list[ActionRecord], entries: list[Entry]
                ) -> dict[str, object]:
    """The game's record: its players, every move in notation with what it caused (`entries`),
    and the public position (`public_position`: nothing hidden) as dealt (`game`, which is
    played on) and after each of `actions`."""
    positions = [public_position(game)]
    for record in actions:
        game.replay_one(record.seat, record.action)
        positions.append(public_position(game))
    return {"game": table.game, "title": GAMES[table.game].title,
            "players": [seat.name for seat in table.seats],
            "moves": [{"ply": entry.ply, "seat": entry.seat if entry.action else None, "who": entry.who,
                       "move": entry.action, "events": list(entry.events)} for entry in entries],
            "positions": positions}


@web.middleware
async def _headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Security headers on every answer, and `Server-Timing` (how long the server took, in
    ms, and the process's CPU time meanwhile); a bad address or a failure becomes a page
    saying what to do (never a traceback)."""
    started, cpu = time.perf_counter(), time.process_time()
    try:
        response = await handler(request)
    except BadAddress as bad:
        response = _problem(request, bad.message, bad.status, **bad.values)
    except web.HTTPMethodNotAllowed as http:
        response = _problem(request, N_("This address can only be read (GET or HEAD), not sent a {method}."),
                            405, method=request.method[:20])
        response.headers["Allow"] = ", ".join(sorted(http.allowed_methods))
    except web.HTTPException as http:
        if http.status < 400:
            raise
        response = _problem(request, N_("There is no page here. A table's page address looks like /t/ followed by "
                                        "its link's code; ask for it with /watch."), http.status)
    except Exception:
        log.exception("web request %s failed", _route(request))  # not its path: that holds the table's token
        response = _problem(request, N_("Something went wrong on our side; please reload the page in a moment."),
                            500)
    if not response.prepared:
        headers = response.headers
        if "Content-Security-Policy" not in headers:  # pictures come with theirs
            headers.update(SECURITY)
        headers["Server-Timing"] = (f"app;dur={(time.perf_counter() - started) * 1000:.2f}, "
                                             f"cpu;dur={(time.process_time() - cpu) * 1000:.2f}")
    return response


def _problem(request: web.Request, message: str, status: int, **values: object) -> web.Response:
    """A page in the reader's language (by Accept-Language) saying `message` (marked with N_)."""
    language = _reader_language(request)
    with speaking(language):
        text = _(message).format(**values)
        return web.Response(text=pages.problem(text, language), status=status, content_type="text/html")


def _reader_language(request: web.Request) -> str:
    for part in request.headers.get("Accept-Language", "").split(","):
        code = language_of(part.split(";")[0].strip())
        if code in LANGUAGES:
            return code
    return DEFAULT


async def _no_icon(_request: web.Request) -> web.Response:
    """Browsers ask for an icon: there is none (and no error for it)."""
    return web.Response(status=204, headers={"Cache-Control": "public, max-age=86400"})


def _html(body: str, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(text=body, content_type="text/html", headers={"Cache-Control": "no-cache", **(headers or {})})


def _route(request: web.Request) -> str:
    """The route a request took, as declared ("/t/{token}/part"), never its path."""
    resource = request.match_info.route.resource
    return resource.canonical if resource is not None else "an unknown route"
