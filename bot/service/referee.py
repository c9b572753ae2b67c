"""The referee: the one object a transport holds, for any game and any transport.

Every command names the place its table is bound to (`discord:<thread id>`, `console:<n>`) and
the `User` issuing it, and returns a `Reply`. Each command is carried out by the part it belongs
to (the lobby, play, reading, moderation), and each part goes through the command core
(`bot.tables.core.Tables`): commands on one table run one at a time, and a command's changes are
committed to the store, with their announcements, before its reply is returned. The work that
outlives a command (deadlines, AI seats' moves, announcements a crash left unsent) is done by the
durable workers the referee starts and stops. Nothing here is specific to one game or transport.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from bot.community.ratings import Ratings
from bot.core.clock import Clock, SystemClock
from bot.core.records import DELIVERY_LEASE
from bot.core.replies import Reply
from bot.durable.ai_turns import DEFAULT_AI_LEASE, AiTurns
from bot.durable.clock_duties import ClockDuties
from bot.durable.delivery import Deliveries
from bot.durable.outbox import SWEEP_SECONDS, OutboxSender
from bot.durable.timers import TimerDispatcher
from bot.media.watching import WebLinks
from bot.service.lobby import Lobby
from bot.service.moderation import Moderation
from bot.service.play import Play
from bot.service.reading import Reading
from bot.service.vacations import VacationDesk
from bot.storage.loader import DEFAULT_GAME_CACHE, GameLoader
from bot.storage.store import Store
from bot.tables.core import Tables
from bot.workers.planning import PlanningPool


class _CarriedOutBy:
    """A referee command carried out by one of its parts: `create = _CarriedOutBy("lobby")`
    makes `referee.create` the lobby's `create`."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, referee: Referee | None, owner: type | None = None) -> Any:
        if referee is None:
            return self
        return getattr(getattr(referee, self.part), self.name)


class Referee:
    """The referee service.

    `notify` delivers what nobody asked for: timeouts, reminders, and announcements left
    undelivered by a crash (the outbox). `seeds` draws each new game's seed (a secure random number
    unless a test fixes it). `confirms_delivery`: the transport calls `delivered(reply)` once it
    has delivered a command's reply (Discord); when False, a reply counts as delivered when it is
    returned (the console, tests). `delivery_lease`: how long a reply is left to its transport
    before the outbox sends it instead. `ai_seconds`: how long an AI seat plans a move, unless
    the table says otherwise (the `ai_seconds=` option). AI seats' moves are planned in
    `planner` (a pool of processes; by default one of its own of `ai_processes` processes, or as
    `TILEREF_AI_PROCESSES` says, closed with the referee) and played by `ai`
    (`bot.durable.ai_turns`) after the command that led to them; `ai_lease`: how long an AI turn
    stays with the process planning it before another may take it over. `public_url`: where the
    web server's spectator pages are, for the links the referee gives (None: no web server, no
    links)."""

    def __init__(self, store: Store, *, clock: Clock | None = None, render: bool = True,
                 notify: Callable[[Reply], Awaitable[None]] | None = None, snapshot_every: int = 50,
                 cache_size: int = DEFAULT_GAME_CACHE, seeds: Callable[[], int] | None = None,
                 confirms_delivery: bool = True,
                 delivery_lease: float = DELIVERY_LEASE, outbox_every: float = SWEEP_SECONDS,
                 ai_seconds: float = 2.0, move_help: bool = True, planner: PlanningPool | None = None,
                 ai_processes: int | None = None, ai_lease: float = DEFAULT_AI_LEASE,
                 public_url: str | None = None) -> None:
        self.tables = Tables(store, clock or SystemClock(), render=render, confirms_delivery=confirms_delivery,
                             delivery_lease=delivery_lease, move_help=move_help, cache_size=cache_size,
                             snapshot_every=snapshot_every)
        self.tables.notify = notify
        self.store = store
        self.clock = self.tables.clock
        self.links = WebLinks(store, public_url)
        self.lobby = Lobby(self.tables, self.links, seeds or (lambda: secrets.randbits(62)))
        self.play = Play(self.tables)
        self.reading = Reading(self.tables, self.links)
        self.moderation = Moderation(self.tables, self.lobby)
        self.vacations = VacationDesk(self.tables)
        self.deliveries = Deliveries(self.tables, outbox_every=outbox_every)
        self.duties = ClockDuties(self.tables, self.deliveries.announce)
        self._own_planner = planner is None
        self.planner = planner or PlanningPool(ai_processes)
        self.ai = AiTurns(self.tables, self.planner, self.deliveries.announce, ai_seconds=ai_seconds,
                          lease=ai_lease)

    async def open(self, *, outbox: bool = True) -> None:
        """Start firing timers (those saved before a restart included), playing AI seats and,
        unless `outbox` is False (the transport starts it when it can deliver: `outbox.start()`),
        sending what the outbox still holds."""
        self.timers.start()
        self.ai.start()
        if outbox:
            self.outbox.start()

    async def close(self) -> None:
        await self.ai.stop()
        await self.outbox.stop()
        await self.timers.stop()
        if self._own_planner:
            self.planner.close()
        self.tables.close()

    def serve(self, *places: str) -> None:
        """Serve these places alone from now on (see `Tables.places`): places (`console:3`), or
        every place of a transport, by its prefix (`discord:`)."""
        self.tables.serve(*places)
        self.ai.wake()

    # ---- the parts' workers and settings, as transports and tests reach them ----------------

    @property
    def timers(self) -> TimerDispatcher:
        return self.duties.timers

    @property
    def outbox(self) -> OutboxSender:
        return self.deliveries.outbox

    @property
    def games(self) -> GameLoader:
        return self.tables.games

    @property
    def ratings(self) -> Ratings:
        return self.tables.ratings

    @property
    def delivery_lease(self) -> float:
        return self.tables.delivery_lease

    @property
    def notify(self) -> Callable[[Reply], Awaitable[None]] | None:
        """How the transport delivers what nobody asked for (see `Tables.notify`)."""
        return self.tables.notify

    @notify.setter
    def notify(self, deliver: Callable[[Reply], Awaitable[None]] | None) -> None:
        self.tables.notify = deliver

    @property
    def already_out(self) -> Callable[[Reply], Awaitable[bool]] | None:
        """How the transport tells whether an announcement sent again is out already."""
        return self.tables.already_out

    @already_out.setter
    def already_out(self, check: Callable[[Reply], Awaitable[bool]] | None) -> None:
        self.tables.already_out = check

    @property
    def move_help(self) -> bool:
        """Whether each turn's message ends with how to type a move (`/move` is Discord's)."""
        return self.tables.move_help

    @move_help.setter
    def move_help(self, on: bool) -> None:
        self.tables.move_help = on

    @property
    def public_url(self) -> str | None:
        """Where the web server's pages are (`TILEREF_PUBLIC_URL`); None when it is off."""
        return self.links.public_url

    @public_url.setter
    def public_url(self, url: str | None) -> None:
        self.links.public_url = url

    # ---- the commands, by the part that carries each out -------------------------------------

    delivered = _CarriedOutBy("tables")
    table_at = _CarriedOutBy("tables")
    log_length = _CarriedOutBy("tables")
    serves = _CarriedOutBy("tables")

    create = _CarriedOutBy("lobby")
    check_new = _CarriedOutBy("lobby")
    language_for = _CarriedOutBy("lobby")
    join = _CarriedOutBy("lobby")
    leave = _CarriedOutBy("lobby")
    add_ai = _CarriedOutBy("lobby")
    start = _CarriedOutBy("lobby")
    rematch = _CarriedOutBy("lobby")
    rematch_problem = _CarriedOutBy("lobby")
    lobby_reply = _CarriedOutBy("lobby")
    note_message = _CarriedOutBy("lobby")

    act = _CarriedOutBy("play")
    common_move = _CarriedOutBy("play")
    resign = _CarriedOutBy("play")
    back = _CarriedOutBy("play")
    back_everywhere = _CarriedOutBy("play")
    hand = _CarriedOutBy("play")
    adjust = _CarriedOutBy("play")
    choose_picture = _CarriedOutBy("play")

    board = _CarriedOutBy("reading")
    describe = _CarriedOutBy("reading")
    history = _CarriedOutBy("reading")
    watch = _CarriedOutBy("reading")
    replay = _CarriedOutBy("reading")
    page_link = _CarriedOutBy("reading")
    view = _CarriedOutBy("reading")
    suggestions = _CarriedOutBy("reading")
    suggestion_choices = _CarriedOutBy("reading")
    best_moves = _CarriedOutBy("reading")

    force_pass = _CarriedOutBy("moderation")
    kick = _CarriedOutBy("moderation")
    pause = _CarriedOutBy("moderation")
    resume = _CarriedOutBy("moderation")
    abort = _CarriedOutBy("moderation")
    preview = _CarriedOutBy("moderation")
    rollback = _CarriedOutBy("moderation")
    settings = _CarriedOutBy("moderation")
    update_settings = _CarriedOutBy("moderation")

    vacation = _CarriedOutBy("vacations")
