"""The web server in the bot's process (aiohttp): a table's page at `/t/<token>`, its board
picture and position at any ply, its changing part for the script, and a stream of server-sent
events that says when the table changed (from the store's change feed, so a move committed by
any process shows).

Every response carries a strict Content-Security-Policy: the pages load only their own script,
style sheet and pictures, from this server. Nothing hidden is ever served: every answer is made
from `bot.media.spectator`, which reads the log and the spectator's view only."""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path

from aiohttp import web

import renderers
from bot.adapters.web import pages
from bot.adapters.web.feed import LiveFeed
from bot.community.ratings import player_key
from bot.core import metrics
from bot.core.background import woken
from bot.core.i18n import DEFAULT, LANGUAGES, N_, _, language_of, speaking
from bot.core.meta import PALETTE
from bot.core.records import DEADLINE, ActionRecord, TableRecord
from bot.durable.health import HealthCheck
from bot.media.replay_animation import Replays
from bot.media.spectator import Entry, Spectacle, Timeline, Timelines, log_key, public_position
from bot.media.watching import WebSettings
from bot.storage.store import Store
from engine import GAMES, Game
from engine.digits import whole_number
from renderers.palettes import drawing_in

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
HEARTBEAT = 20.0
"""Seconds between comments on an idle event stream (proxies close silent connections)."""
BOARDS_KEPT = 512
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


class PagesCannotListen(Exception):
    """The spectator pages could not listen where `TILEREF_WEB` says; the message says what to
    set instead."""


async def start_pages(store: Store, settings: WebSettings, health: HealthCheck | None = None
                      ) -> tuple[WebServer, str] | None:
    """The spectator pages of every table in `store`, listening where `settings` say, and the
    address links to them start with; None when the settings turn them off. `/healthz` answers
    `health`'s report (default: the store's checks only). Raises PagesCannotListen (nothing left
    open) when the address cannot be listened on."""
    if settings.host is None:
        return None
    pages = WebServer(store, host=settings.host, port=settings.port, health=health,
                      public_url=settings.public_url if settings.port else None)
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
    `/healthz`, the process's health (`health`; default: the store's checks only). `public_url`:
    where readers reach it (for link previews' absolute addresses; default: the address each
    request was made to)."""

    def __init__(self, store: Store, *, host: str = "127.0.0.1", port: int = 8080,
                 health: HealthCheck | None = None, public_url: str | None = None) -> None:
        self.store = store
        self.public_url = public_url.rstrip("/") if public_url else None
        self.replays = Replays(store)
        self.health = health or HealthCheck(store)
        self.host = host
        self.port = port
        self.feed = LiveFeed(store)
        self.timelines = Timelines()
        self._boards: OrderedDict[tuple[int, int, str, int | None], bytes] = OrderedDict()
        self._runner: web.AppRunner | None = None
        self.app = self._application()

    def _application(self) -> web.Application:
        app = web.Application(middlewares=[_headers])
        app.router.add_get("/t/{token}", self.page)
        app.router.add_get("/t/{token}/part", self.part)
        app.router.add_get("/t/{token}/board.png", self.board)
        app.router.add_get("/t/{token}/position.json", self.position)
        app.router.add_get("/t/{token}/replay.gif", self.replay)
        app.router.add_get("/t/{token}/record.txt", self.record_text)
        app.router.add_get("/t/{token}/record.json", self.record_json)
        app.router.add_get("/t/{token}/live", self.live)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/favicon.ico", _no_icon)
        app.router.add_get("/healthz", self.healthz)
        return app

    async def start(self) -> None:
        """Listen (port 0: any free port, then `port` says which) and follow the change feed."""
        await self.feed.start()
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = getattr(site, "_server", None)
        if server is not None and server.sockets:
            self.port = server.sockets[0].getsockname()[1]
        log.info("spectator pages at http://%s:%s", self.host, self.port)

    async def stop(self) -> None:
        await self.feed.stop()
        self.replays.close()
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
                return _html(pages.lobby_part(table), headers={"X-Ply": "0", "X-Last": "0"})
        spectacle = await self._spectacle(request, table)
        extras = await self._extras(request, table, spectacle, language)
        with speaking(language):
            body = pages.main_part(spectacle, request.match_info["token"], extras)
        return _html(body, headers={"X-Ply": str(spectacle.ply), "X-Last": str(spectacle.last)})

    async def board(self, request: web.Request) -> web.Response:
        table, timeline, ply = await self._timeline(request)
        if table.game not in renderers.RENDERERS:
            raise BadAddress(N_("This game has no board picture."), 404)
        part = _part(request, renderers.board_parts(timeline.final))
        key = (table.id, ply, log_key(timeline.actions[:ply]), part)
        data = self._boards.get(key)
        if data is None:
            game = timeline.game_at(ply)
            with speaking(table.meta.get("lang") or DEFAULT), drawing_in(table.meta.get(PALETTE)):
                data = await asyncio.to_thread(partial(renderers.render, game, None, instructions=False, part=part))
            self._boards[key] = data
            while len(self._boards) > BOARDS_KEPT:
                self._boards.popitem(last=False)
        else:
            self._boards.move_to_end(key)
        return web.Response(body=data, content_type="image/png",
                            headers={"Cache-Control": "private, max-age=31536000, immutable"
                                     if ply < timeline.length else "no-cache"})

    async def position(self, request: web.Request) -> web.Response:
        table, timeline, ply = await self._timeline(request)
        data = public_position(timeline.game_at(ply))
        data["ply"] = ply
        return web.Response(text=json.dumps(data, ensure_ascii=False, indent=1), content_type="application/json",
                            headers={"Content-Disposition": f'attachment; filename="{table.game}-{ply}.json"'})

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
        """Server-sent events: `change` with the log length whenever the table changes."""
        table = await self._table(request)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
                                               "X-Accel-Buffering": "no"})
        await response.prepare(request)
        changed = self.feed.watch(table.id)
        metrics.web_watchers.inc()
        try:
            await response.write(b"retry: 1000\n\n")
            while True:
                if not await woken(changed, HEARTBEAT):
                    await response.write(b": still here\n\n")
                    continue
                changed.clear()
                last = await self.store.log_length(table.id)
                await response.write(f"event: change\ndata: {json.dumps({'last': last})}\n\n".encode())
        except ConnectionResetError:
            pass
        finally:
            metrics.web_watchers.dec()
            self.feed.unwatch(table.id, changed)
        return response

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in ("watch.js", "watch.css"):
            raise web.HTTPNotFound()
        kind = "text/javascript" if name.endswith(".js") else "text/css"
        return web.Response(body=(STATIC / name).read_bytes(), content_type=kind,
                            headers={"Cache-Control": "public, max-age=3600"})

    async def healthz(self, _request: web.Request) -> web.Response:
        """The process's health as JSON (`HealthReport.as_json`): 200 when healthy, else 503."""
        report = await self.health.report()
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
        parts = renderers.board_parts(spectacle.game) if table.game in renderers.RENDERERS else 1
        return pages.Extras(self._origin(request), ratings, parts)

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

    async def _spectacle(self, request: web.Request, table: TableRecord) -> Spectacle:
        table, timeline, ply = await self._timeline(request, table)
        if "ply" not in request.query:
            deadlines = {t.seat: t.due for t in await self.store.timers(table.id) if t.kind == DEADLINE}
            return timeline.spectacle(None, deadlines)
        return timeline.spectacle(ply)


def _ply(request: web.Request, last: int) -> int:
    """The `?ply=` asked for (default: now), BadAddress unless it is a move number of the game,
    written with the digits 0–9."""
    text = request.query.get("ply")
    if text is None or text == "":
        return last
    ply = whole_number(text)
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
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Server-Timing"] = (f"app;dur={(time.perf_counter() - started) * 1000:.2f}, "
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
