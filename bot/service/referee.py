"""The referee: tables, seats, lifecycle, clocks and moderation, for any transport.

Every command names the place its table is bound to (`discord:<thread id>`, `console:<n>`) and
the `User` issuing it, and returns a `Reply`. Commands on one table run one at a time (a lock per
table); a command's changes are committed to the store before its reply is returned. Nothing
here is specific to one game or one transport.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import secrets
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

import renderers
from bot.community.notifications import turn_messages
from bot.community.ratings import RATED, Ratings
from bot.core.clock import Clock, SystemClock
from bot.core.durations import format_duration
from bot.core.i18n import DEFAULT as DEFAULT_LANGUAGE
from bot.core.i18n import LANGUAGES, N_, _, ngettext, refusal_text, said, speak
from bot.core.records import (
    ABORTED,
    AI_TURN,
    DEADLINE,
    FINISHED,
    LOBBY,
    PLAYING,
    Notice,
    SeatRecord,
    Settings,
    TableRecord,
    Timer,
    User,
)
from bot.core.refusals import MovedOn, Refused, duration, language, parse_options
from bot.core.replies import Announcement, Attachment, Message, Reply, clean_name, command_token, name_token, refusal
from bot.core.typing_rules import echo, is_move_text, strip_markdown
from bot.durable.ai_turns import DEFAULT_AI_LEASE, AiJob, AiMove, AiTurns, merged
from bot.durable.clock_duties import ClockDuties
from bot.durable.outbox import DEFAULT_LEASE, ORIGIN, SWEEP_SECONDS, OutboxSender, log_digest, nonce_of
from bot.durable.timers import TimerDispatcher
from bot.media.replay_animation import REPLAY_KIND, Replays
from bot.media.search import decoded
from bot.media.watching import WATCH, new_token, page_link
from bot.service import rematch
from bot.service.moderation import Moderation
from bot.storage.loader import DEFAULT_GAME_CACHE, STARTING_SEATS, GameLoader, new_game, replay
from bot.storage.standings import Sql, Write
from bot.storage.store import PlaceTaken, StaleLog, StaleTable, Store, served
from bot.tables.turns import COMMITTED, Turn, Unconfirmed, confirmed
from bot.words import narration
from bot.words.wording import actor_note, chat, hand_text, level_word, lobby_text, logged_entry, named, without_echo
from bot.workers.drawing import DrawingPool
from bot.workers.planning import PlanningPool, handover
from engine import GAMES, Game, GameError, NotationError, NotYourTurn
from engine.ai import GreedyAgent
from engine.digits import decimal_number
from engine.levels import AGENTS, LEVELS, level_of, planning_seconds

log = logging.getLogger(__name__)

BOT_NAMES = ["Pip", "Dot", "Bones", "Tilly", "Domi", "Rook", "Nib", "Cubby"]
HISTORY_PAGE = 25
RETRIES = 5
"""How often a lobby change is redone when another process changed the table meanwhile."""
LONGEST_MOVE = 500
LANGUAGE = "lang"
"""A table option (and meta key): the language spoken at the table."""
AI_SECONDS = "ai_seconds"
"""A table option (and meta key): how long its AI seats plan a move, in seconds."""
REPLAY = "replay"
"""A table option (and meta key): whether an animated replay is posted when the game ends (on by
default)."""
REPLAY_LEASE = 5.0
"""Seconds the end-of-game replay waits in the outbox, so the last move's message comes first."""
AI_LEVEL = "ai_level"
"""A table option (and meta key): the level (`engine.levels.LEVELS`) of a bot added without naming one."""
DONE_BUT = N_("✅ Your command was carried out, but something went wrong on our side afterwards: its announcement "
              "follows shortly, and `{board}` shows the game as it now is.")
NO_PICTURE = N_("(The board picture could not be drawn this time; `{board}` shows it.)")
STORED = N_("✅ Your move was stored, but the database was slow to confirm it: its announcement follows shortly.")
MAYBE_STORED = N_("The database did not confirm your command, so it may or may not have been carried out: `{board}` "
                  "shows which. Send it again only if it is not there.")
FOOT = "foot"
QUESTS = "quests"
"""The table meta key listing the seats already sent on their vision quest."""
VISION_QUEST = N_("🐔 You are chicken-footed! Go on a vision quest: search for a picture of how that feels with "
                  "`{quest}` and a few words, and pick one. It is drawn at the end of your line from then on. The "
                  "game does not wait for you to choose.")


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
    `TILEREF_AI_PROCESSES` says, closed with the referee) and
    played by `ai` (`bot.ai_turns`) after the command that led to them; `ai_lease`: how long an
    AI turn stays with the process planning it before another may take it over. `public_url`: where the web server's
    spectator pages are, for the links the referee gives (None: no web server, no links)."""

    def __init__(self, store: Store, *, clock: Clock | None = None, render: bool = True,
                 notify: Callable[[Reply], Awaitable[None]] | None = None, snapshot_every: int = 50,
                 cache_size: int = DEFAULT_GAME_CACHE, seeds: Callable[[], int] | None = None,
                 confirms_delivery: bool = True,
                 delivery_lease: float = DEFAULT_LEASE, outbox_every: float = SWEEP_SECONDS,
                 ai_seconds: float = 2.0, move_help: bool = True, planner: PlanningPool | None = None,
                 ai_processes: int | None = None, ai_lease: float = DEFAULT_AI_LEASE,
                 public_url: str | None = None) -> None:
        self.store = store
        self.move_help = move_help
        """Whether each turn's message ends with how to type a move (`/move` is Discord's)."""
        self.seeds = seeds or (lambda: secrets.randbits(62))
        self.clock: Clock = clock or SystemClock()
        self.render_images = render
        self.notify = notify
        self.already_out: Callable[[Reply], Awaitable[bool]] | None = None
        """How the transport tells whether an announcement the outbox sends again is out already
        (Discord: the thread's history); None where that cannot be told."""
        self.confirms_delivery = confirms_delivery
        self.ai_seconds = ai_seconds
        self.public_url = public_url
        """Where the web server's pages are (`TILEREF_PUBLIC_URL`); None when it is off."""
        self.delivery_lease = delivery_lease
        self.games = GameLoader(store, capacity=cache_size, snapshot_every=snapshot_every)
        self.ratings = Ratings(store)
        self.moderation = Moderation(self)
        self.replays = Replays(store)
        self.duties = ClockDuties(self)
        self.timers = TimerDispatcher(store, self.clock, self.duties.on_timer)
        self.places: frozenset[str] | None = None
        """The places this process serves: it delivers their announcements and plays their AI
        seats. None (the Discord bot): every place. A console session serves its own table's place
        alone (`serve`): what other tables announce waits in the outbox for the session that
        serves them, and their AI seats for it to play them."""
        self.outbox = OutboxSender(store, self.clock, self.duties.send_notices, lease=delivery_lease,
                                   every=outbox_every, places=lambda: self.places)
        self._drawing = ThreadPoolExecutor(1, thread_name_prefix="tileref-drawing")
        self.drawing = DrawingPool()
        """The AI seats' announcements' pictures are drawn in a process of their own."""
        """One thread drawing board pictures, one at a time (fonts are not shared across threads)."""
        self._own_planner = planner is None
        self.planner = planner or PlanningPool(ai_processes)
        self.ai = AiTurns(store, self.clock, self, self.planner, lease=ai_lease)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._first_tables: dict[str, TableRecord | None] = {}
        self._first_timers: dict[str, tuple[int, list[Timer]]] = {}
        """What the store's command lock read with the lock, by place, until the command takes it
        (see `lock`)."""

    async def open(self, *, outbox: bool = True) -> None:
        """Start firing timers (those saved before a restart included) and, unless `outbox` is
        False (the transport starts it when it can deliver: `outbox.start()`), sending what the
        outbox still holds."""
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
        self._drawing.shutdown(wait=False)
        self.drawing.close()
        self.replays.close()

    @asynccontextmanager
    async def lock(self, place: str) -> AsyncIterator[None]:
        """Commands on a table run one at a time: one lock per place in this process (a lock
        nobody holds or waits for is forgotten), and the store's lock across processes.

        Where the store reads the table and its timers as it takes the lock (PostgreSQL, in the
        same round trip), the command's first `table` and first `table_timers` are those; anything
        read again, or after the command has committed, comes from the store."""
        lock = self._locks.get(place)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[place] = lock
        async with lock, self.store.command_lock(place) as first:
            if first is not None:
                self._first_tables[place] = first.table
                if first.table is not None:
                    self._first_timers[place] = (first.table.id, first.timers)
            try:
                yield
            finally:
                self._first_tables.pop(place, None)
                self._first_timers.pop(place, None)

    def serve(self, *places: str) -> None:
        """Serve these places alone from now on (see `places`): places (`console:3`), or every
        place of a transport, by its prefix (`discord:`)."""
        self.places = frozenset(places)
        self.ai.wake()

    def serves(self, place: str | None) -> bool:
        """Whether this process delivers the announcements of `place` (see `places`)."""
        return served(self.places, place)

    async def delivered(self, reply: Reply) -> None:
        """The transport delivered `reply`: its announcements are not to be sent again."""
        if reply.notices:
            await self.store.notices_delivered(reply.notices, self.clock.now())

    # =========================================================================================
    # the lobby

    async def create(self, place: str, user: User, game: str, *, options: str | dict[str, str] | None = None,
                     turn_time: str | None = None, guild: str | None = None, seat_creator: bool = True,
                     language: str | None = None) -> Reply:
        """Open a table in the lobby at `place`, with its creator seated (unless `seat_creator`
        is False: then everyone, the creator included, joins in the order they should sit).
        The table speaks the `lang=` option's language, else the server's, else `language` (the
        creator's, where the transport knows it), else English."""
        return await self.guarded(self._create(place, user, game, options, turn_time, guild, seat_creator,
                                                language))

    async def check_new(self, game: str, *, options: str | dict[str, str] | None = None,
                        turn_time: str | None = None, guild: str | None = None,
                        levels: Sequence[str] = ()) -> str | None:
        """Why `create` would refuse a table of this game with these settings, or `add_ai` one
        of the AI `levels` (before the place exists: a transport asks first so it makes no
        thread, and the terminal no table, for a game that cannot begin)."""
        try:
            await self._vetted(game, options, turn_time, guild)
            for level in levels:
                self._level(level)
        except Refused as refused:
            return str(refused)
        return None

    async def _vetted(self, game: str, options: Any, turn_time: str | None,
                      guild: str | None) -> tuple[str, dict[str, str], int | None]:
        """The game's name, its options and the turn time in seconds, checked. The turn time is
        the one asked for, else the server's default, else the game's own, else a day."""
        name = game.strip().lower()
        if name not in GAMES:
            raise Refused(_("there is no game called '{game}'; choose one of {games}").format(
                game=echo(game), games=", ".join(sorted(GAMES))))
        settings = await self.store.settings(guild) if guild else None
        if settings and settings.allowed_games and name not in settings.allowed_games:
            raise Refused(_("this server allows {games} only").format(games=", ".join(settings.allowed_games)))
        parsed = parse_options(options)
        chosen_language = parsed.pop(LANGUAGE, None)
        if chosen_language is not None:
            parsed[LANGUAGE] = language(chosen_language)
        ai_seconds = parsed.pop(AI_SECONDS, None)
        if ai_seconds is not None:
            seconds = decimal_number(ai_seconds)
            if seconds is None or not 0 <= seconds <= 30:
                raise Refused(_("ai_seconds is how long AI players think, 0 to 30 seconds: like ai_seconds=2, "
                                "not '{value}'").format(value=echo(ai_seconds)))
            parsed[AI_SECONDS] = ai_seconds
        replay = parsed.pop(REPLAY, None)
        if replay is not None:
            if replay.strip().lower() not in ("on", "off"):
                raise Refused(_("`replay` says whether an animated replay is posted when the game ends: "
                                "`replay=on` or `replay=off`, not '{value}'").format(value=echo(replay)))
            parsed[REPLAY] = replay.strip().lower()
        ai_level = parsed.pop(AI_LEVEL, None)
        if ai_level is not None:
            parsed[AI_LEVEL] = self._level(ai_level)
        rated = parsed.pop(RATED, None)
        if rated is not None:
            parsed[RATED] = "off" if _switch(rated, RATED) is False else "on"
        try:
            chosen = GAMES[name].Options.parse({k: v for k, v in parsed.items()
                                                if k not in (AI_SECONDS, AI_LEVEL, LANGUAGE, RATED, REPLAY)})
        except GameError as error:
            raise Refused(refusal_text(error)) from None
        turn_seconds = GAMES[name].default_turn_seconds_for(chosen) or Settings("").turn_seconds
        if settings is not None and settings.turn_seconds_set:
            turn_seconds = settings.turn_seconds
        if turn_time is not None:
            turn_seconds = duration(turn_time)
        return name, parsed, turn_seconds

    async def language_for(self, options: Any, guild: str | None, language: str | None) -> str:
        """The language a table opened with `options` on `guild` by someone speaking `language`
        will speak (its `lang=` option, else the server's setting, else the opener's)."""
        try:
            chosen = parse_options(options).get(LANGUAGE)
        except Refused:
            chosen = None
        if chosen is not None and chosen.strip().lower() in LANGUAGES:
            return chosen.strip().lower()
        server = (await self.store.settings(guild)).language if guild else None
        return server or language or DEFAULT_LANGUAGE

    async def _create(self, place: str, user: User, game: str, options: Any, turn_time: str | None,
                      guild: str | None, seat_creator: bool, language: str | None) -> Reply:
        name, parsed, turn_seconds = await self._vetted(game, options, turn_time, guild)
        meta: dict[str, Any] = {AI_SECONDS: float(parsed.pop(AI_SECONDS))} if AI_SECONDS in parsed else {}
        meta[REPLAY] = parsed.pop(REPLAY, "on") == "on"
        if AI_LEVEL in parsed:
            meta[AI_LEVEL] = parsed.pop(AI_LEVEL)
        if parsed.pop(RATED, "on") == "off":
            meta[RATED] = False
        server = (await self.store.settings(guild)).language if guild else None
        meta[LANGUAGE] = parsed.pop(LANGUAGE, None) or server or language or DEFAULT_LANGUAGE
        speak(meta[LANGUAGE])
        table = TableRecord(id=0, place=place, game=name, options=parsed, status=LOBBY, created_by=user.id,
                            created_at=self.clock.now(), guild=guild, turn_seconds=turn_seconds, meta=meta,
                            seats=[SeatRecord(0, clean_name(user.name), user.id)] if seat_creator else [])
        try:
            await self._open(table)
        except PlaceTaken:
            existing = await self.store.table_at(place)
            raise Refused(_("there is already a {game} table here").format(
                game=GAMES[existing.game].title if existing else "")) from None
        return self.lobby_reply(table, _("🎲 {player} opened a {game} table.").format(
            player=name_token(user.name), game=GAMES[name].title))

    async def _open(self, table: TableRecord, *, claim: TableRecord | None = None) -> None:
        """Create `table` (and save `claim` with it, see `Store.create_table`) with the token of
        its spectator pages."""
        table.meta[WATCH] = new_token()
        await self.store.create_table(table, claim=claim)
        await self.store.watch_token(table.id, table.meta[WATCH])

    async def join(self, place: str, user: User) -> Reply:
        """Take a seat: in the lobby, or in a running game that lets new players join."""
        table = await self.store.table_at(place)
        if table is not None and table.status == PLAYING:
            return await self.guarded(self._join_running(place, user))
        return await self.guarded(self._lobby_change(place, user, "join"))

    async def _join_running(self, place: str, user: User) -> Reply:
        async with self.lock(place):
            table, game = await self.playing(place)
            if table.seat_of(user.id) is not None:
                raise Refused(_("you are already playing at this table"))
            turn = await self.turn(table, game)
            try:
                turn.join(clean_name(user.name), user.id)
            except GameError as error:
                raise Refused(refusal_text(error)) from None
            return await self.finish(turn, headline=_("👋 {player} joined the game.").format(
                player=name_token(user.name)))

    async def leave(self, place: str, user: User) -> Reply:
        return await self.guarded(self._lobby_change(place, user, "leave"))

    async def add_ai(self, place: str, user: User, kind: str | None = None) -> Reply:
        """Seat an AI player: a level ("easy", "normal", "hard"; by default the table's
        `ai_level=` option, else "normal"), "greedy" or "random", or an old name of a level
        ("bot", "strong")."""
        return await self.guarded(self._lobby_change(place, user, "ai", kind))

    @staticmethod
    def _level(kind: str) -> str:
        """The agent `kind` names (`engine.levels.level_of`), or Refused saying what to type."""
        level = level_of(kind)
        if level is None:
            raise Refused(_("there is no AI level called '{name}'; choose one of {levels} (or {others})").format(
                name=echo(kind), levels=", ".join(map(level_word, LEVELS)),
                others=", ".join(level_word(a) for a in AGENTS if a not in LEVELS)))
        return level

    async def _lobby_change(self, place: str, user: User, what: str, kind: str | None = None) -> Reply:
        async with self.lock(place):
            for _attempt in range(RETRIES):
                table = await self.table(place)
                headline = self._change_lobby(table, user, what, kind)
                try:
                    await confirmed(self.store.save_table(table))
                except StaleTable:
                    continue
                if table.status == ABORTED:
                    return Reply(public=Message(headline + " " + _("Nobody is left, so the table is closed.")),
                                 table_id=table.id, place=place, status=table.status)
                if what in ("join", "leave") and rematch.everyone_joined(table):
                    try:
                        begun = await self._begin(place, user, everyone_in=True)
                    except Refused:  # the seats do not suit the game: the lobby stays open
                        return self.lobby_reply(table, headline)
                    if begun.public is not None:
                        begun.public.text = f"{headline}\n{begun.public.text}"
                    return begun
                return self.lobby_reply(table, headline)
            raise StaleTable(0, 0)

    def _change_lobby(self, table: TableRecord, user: User, what: str, kind: str | None) -> str:
        """Seat or unseat someone in `table` (in memory); returns the headline."""
        if table.status != LOBBY:
            raise Refused(_("the game has already started") if table.status == PLAYING else _("this table is closed"))
        cls = GAMES[table.game]
        seat = table.seat_of(user.id)
        who = name_token(user.name)
        if what == "join":
            if seat is not None:
                raise Refused(_("you are already seated at this table"))
            if len(table.seats) >= cls.max_players:
                raise Refused(_("the table is full ({count} players)").format(count=cls.max_players))
            rematch.check_seat_free(table, user, cls.max_players, self.clock.now())
            table.seats.append(SeatRecord(len(table.seats), clean_name(user.name), user.id))
            rematch.in_old_order(table)
            return _("👋 {player} joined.").format(player=who)
        if what == "leave":
            if seat is None and rematch.decline(table, user):
                return _("👋 {player} declined the rematch; their seat is free.").format(player=who)
            if seat is None:
                raise Refused(_("you are not seated at this table"))
            table.unseat(seat)
            if not any(s.user_id for s in table.seats):
                table.status = ABORTED
            return _("👋 {player} left.").format(player=who)
        self._hosting(table, user, _("only {player} or a moderator can add an AI player"))
        agent = self._level(kind if kind is not None else str(table.meta.get(AI_LEVEL, "normal")))
        if len(table.seats) >= cls.max_players:
            raise Refused(_("the table is full ({count} players)").format(count=cls.max_players))
        rematch.check_seat_free(table, user, cls.max_players, self.clock.now())
        taken = {s.name for s in table.seats}
        bot_name = next((f"{n} (bot)" for n in BOT_NAMES if f"{n} (bot)" not in taken), f"Bot {len(table.seats) + 1}")
        table.seats.append(SeatRecord(len(table.seats), bot_name, None, agent))
        rematch.in_old_order(table)
        return _("🤖 {player} ({agent} AI) sits down.").format(player=name_token(bot_name), agent=level_word(agent))

    async def rematch_problem(self, place: str, user: User) -> str | None:
        """Why `user` may not open a rematch of the game at `place` (None: they may)."""
        try:
            rematch.check(await self.status(place), user)
        except Refused as refused:
            return str(refused)
        return None

    async def rematch(self, place: str, new_place: str, user: User) -> Reply:
        """Open a rematch of the finished game at `place` at `new_place` (see `bot.rematch`); the
        reply's public message is its lobby, mentioning the invited players."""
        return await self.guarded(self._rematch(place, new_place, user))

    async def _rematch(self, place: str, new_place: str, user: User) -> Reply:
        """One rematch per finished game, whichever process asks first: the new table is created
        in the same transaction that notes it on the old one, which fails if another rematch
        was noted since (then this one is refused, naming it)."""
        async with self.lock(place):
            for _attempt in range(RETRIES):
                old = await self.table(place)
                rematch.check(old, user)
                table = rematch.new_table(old, new_place, user, self.clock.now())
                old.meta[rematch.REMATCH] = new_place
                try:
                    await self._open(table, claim=old)
                except StaleTable:
                    continue
                except PlaceTaken:
                    raise Refused(_("there is already a table there")) from None
                break
            else:
                raise StaleTable(0, 0)
        reply = self.lobby_reply(table, rematch.invitation(old, table, user, GAMES[table.game].title))
        reply.mentions = list(table.meta[rematch.INVITED])
        return reply

    @staticmethod
    def _hosting(table: TableRecord, user: User, refused: str) -> None:
        """Refused (`refused`, naming the host) unless `user` is a moderator or hosts the lobby:
        its creator, or once the creator has left, the person seated longest."""
        host = host_of(table)
        if user.moderator or user.id == host:
            return
        seat = table.seat_of(host)
        raise Refused(refused.format(player=name_token(table.seats[seat].name) if seat is not None else
                                     _("whoever opened this table")))

    def lobby_reply(self, table: TableRecord, headline: str) -> Reply:
        """The lobby message, with the table's web link while there is one."""
        return Reply(public=Message(f"{headline}\n{lobby_text(table)}{self._watch_line(table)}"), table_id=table.id,
                     place=table.place, status=table.status)

    def _watch_line(self, table: TableRecord) -> str:
        """"\n👀 Watch it live…: <link>" for a table whose token is in its meta, when there is a
        web server; else ""."""
        if self.public_url is None or not table.meta.get(WATCH):
            return ""
        link = f"{self.public_url.rstrip('/')}/t/{table.meta[WATCH]}"
        return "\n" + _("👀 Watch it live and replay it on the web: {link}").format(link=link)

    async def note_message(self, place: str, key: str, value: Any) -> None:
        """Remember something a transport needs later about the table at `place` (Discord: the
        lobby message's id, to edit it when a moderator removes someone)."""
        async with self.lock(place):
            for _attempt in range(RETRIES):
                table = await self.store.table_at(place)
                if table is None:
                    return
                table.meta[key] = value
                try:
                    await self.store.save_table(table)
                    return
                except StaleTable:
                    continue

    async def start(self, place: str, user: User) -> Reply:
        """Start the game: draw and record the seed and deal; AI seats to move first play after it
        (`bot.ai_turns`)."""
        return await self.guarded(self._start(place, user))

    async def _start(self, place: str, user: User) -> Reply:
        async with self.lock(place):
            return await self._begin(place, user)

    async def _begin(self, place: str, user: User, *, everyone_in: bool = False) -> Reply:
        """Start the game at `place` for `user` (the place's lock is held). `everyone_in`: every
        player invited to a rematch has joined, which starts it whoever joined last (else only
        the host or a moderator may)."""
        table = await self.table(place)
        if table.status != LOBBY:
            raise Refused(_("the game has already started") if table.status == PLAYING
                          else _("this table is closed"))
        if not everyone_in:
            self._hosting(table, user, _("only {player} or a moderator can start this game"))
        cls = GAMES[table.game]
        seated = ngettext("{count} is seated", "{count} are seated", len(table.seats)).format(count=len(table.seats))
        if len(table.seats) < cls.min_players:
            raise Refused(ngettext("{game} needs at least {needed} player; {seated}",
                                   "{game} needs at least {needed} players; {seated}", cls.min_players).format(
                game=cls.title, needed=cls.min_players, seated=seated))
        if len(table.seats) not in cls.player_counts():
            raise Refused(_("{game} is played by {counts} players; {seated}").format(
                game=cls.title, counts=", ".join(map(str, cls.player_counts())), seated=seated))
        rematch.in_old_order(table)
        table.seed = self.seeds()
        table.status = PLAYING
        table.meta[STARTING_SEATS] = len(table.seats)
        game = new_game(table)
        turn = Turn(self.store, table, game, [], self.clock.now(), await self.reminders(table), beginning=True)
        turn.began_by = user.id
        turn.events += game.opening
        seated = ", ".join(name_token(s.name) for s in table.seats)
        try:
            return await self.finish(turn, headline=_("🎲 {game} begins: {players}.").format(
                game=cls.title, players=seated) + self._watch_line(table))
        except StaleTable:
            raise Refused(_("the game has already started")) from None

    # =========================================================================================
    # playing

    async def common_move(self, place: str, user: User, command: str, argument: str = "", *,
                          seen: int | None = None) -> Reply:
        """A common command (`draw`, `pass`, `skip`: Discord's /draw, /pass, /skip): the game's own
        move for it, played like any move; or, in a game that has none, a refusal saying the game's
        own way of doing that, or that it has none."""
        table = await self.store.table_at(place)
        cls = GAMES[table.game] if table is not None else None
        if table is None or cls is None or table.status != PLAYING or command in cls.command_moves:
            move = cls.command_moves.get(command, command) if cls is not None else command
            return await self.act(place, user, f"{move} {argument}".strip(), seen=seen)
        speak(table.meta.get(LANGUAGE))
        told = cls.command_help.get(command)
        text = _(told) if told else _("{game} has no `{command}`.").format(game=cls.title, command=command)
        return refusal(text, table_id=table.id, place=place)

    async def act(self, place: str, user: User, text: str, *, seen: int | None = None,
                  typed: bool = False) -> Reply:
        """Play any move text for the caller's seat.

        `seen` is the log length the caller saw: if the clock or a moderator acted for the caller's
        seat since then, or the game was rolled back, the move is refused and the current board
        shown. `typed`: the text is chat typed in the table's place, taken as a move only if it is
        written in the game's notation (see `typing_rules`); anything else is answered with an
        `unreadable` refusal that transports leave unanswered."""
        arrived = await self.log_length(place) if seen is None else seen
        return await self.guarded(self._act(place, user, text, arrived, typed))

    async def _act(self, place: str, user: User, text: str, seen: int | None, typed: bool) -> Reply:
        if typed:
            text = strip_markdown(text)
        if len(text) > LONGEST_MOVE:
            reply = refusal(_("that is far too long to be a move; see {rules} for how to write moves").format(
                rules=command_token("rules")))
            reply.unreadable = typed
            return reply
        async with self.lock(place):
            table = await self.table(place)
            seat = table.seat_of(user.id)
            if typed and (seat is None or table.status != PLAYING):
                return chat()
            table, game, seat = await self._playing_seat(place, user, table)
            if typed and not is_move_text(game, seat, text):
                return chat()
            stale = await self._stale(table, game, seat, user, seen)
            if stale:
                board = await self.board_attachments(game, table.id)
                reply = refusal(stale, table_id=table.id, place=place, attachments=board)
                reply.stale, reply.ply = True, len(game.log)
                return reply
            turn = await self.turn(table, game)
            actions = _split(text, type(game).action_separator)
            for number, action in enumerate(actions):
                try:
                    turn.apply(seat, action, user.id)
                except GameError as error:
                    reason = without_echo(refusal_text(error), action)
                    if number == 0:
                        reply = refusal(reason, table_id=table.id, place=place)
                        reply.unreadable = isinstance(error, NotationError)
                        reply.early = isinstance(error, NotYourTurn)
                        return reply
                    done = await self.finish(turn)
                    note = _("Done: {done}. Not done: `{refused}`{rest}, because {reason}").format(
                        done=", ".join(f"`{a}`" for a in actions[:number]), refused=echo(action),
                        rest=_(" and what followed") if number + 1 < len(actions) else "", reason=reason)
                    done.caller = Message(note)
                    return done
            return await self.finish(turn)

    async def _stale(self, table: TableRecord, game: Game, seat: int, user: User, seen: int | None) -> str | None:
        """Why a command based on the log length `seen` no longer stands, or None: the game was
        rolled back, or someone else acted for the caller's seat since (the clock, a moderator).
        Other seats' moves do not matter, nor the caller's own (a message that showed an older
        board may reach them after their own move): the rules check the command against the
        game as it is."""
        if seen is None or seen == len(game.log):
            return None
        why = None
        if seen > len(game.log):
            why = _("a moderator rolled the game back")
        else:
            for record in await self.store.actions(table.id, after=seen):
                if record.seat == -1:
                    why = _("a moderator rolled the game back")
                elif record.seat == seat and record.actor != user.id:
                    why = (_("your turn ran out") if record.actor == "clock" else
                           _("a moderator acted for you") if record.actor.startswith("mod:") else None)
                if why is not None:
                    break
        if why is None:
            return None
        return _("the board changed since you looked ({why}; it is now move {move}). Here is the current board: "
                 "send your move again if it still stands.").format(why=why, move=len(game.log))

    async def log_length(self, place: str) -> int | None:
        """The length of the log of the game being played at `place` (None if none is)."""
        table = await self.store.table_at(place)
        if table is None or table.status != PLAYING:
            return None
        return await self.store.log_length(table.id)

    async def resign(self, place: str, user: User) -> Reply:
        return await self.guarded(self._resign(place, user))

    async def _resign(self, place: str, user: User) -> Reply:
        async with self.lock(place):
            table, game, seat = await self._playing_seat(place, user)
            turn = await self.turn(table, game)
            try:
                turn.resign(seat, user.id)
            except GameError as error:
                return refusal(refusal_text(error), table_id=table.id, place=place)
            return await self.finish(turn)

    async def hand(self, place: str, user: User) -> Reply:
        """The caller's hand, as text and a picture, for the caller alone."""
        return await self.guarded(self._hand(place, user))

    async def _hand(self, place: str, user: User) -> Reply:
        async with self.lock(place):
            table = await self.table(place)
            seat = table.seat_of(user.id)
            if seat is None:
                raise Refused(_("you are not playing at this table, so you have no hand here"))
            if table.status == LOBBY:
                raise Refused(_("the game has not started yet"))
            game = await self.games.get(table)
            return Reply(caller=await self._hand_message(game, seat), table_id=table.id, place=place,
                         ply=len(game.log), status=table.status)

    async def board(self, place: str, user: User | None = None, *, player: str | None = None) -> Reply:
        """The board as everyone sees it, with whose turn it is, for the caller alone (nobody is
        pinged); `player` (a user id) puts that player's part of it first where a game draws one
        per player."""
        return await self.guarded(self._board(place, player))

    async def _board(self, place: str, player: str | None = None) -> Reply:
        async with self.lock(place):
            table = await self.table(place)
            if table.status == LOBBY:
                return Reply(caller=Message(lobby_text(table)), table_id=table.id, place=place, status=table.status)
            game = await self.games.get(table)
            viewer = table.seat_of(player) if player else None
            if player and viewer is None:
                raise Refused(_("that player is not seated at this table"))
            text = narration.who_is_next(table, game, await self._deadlines(table))
            if table.status == ABORTED:
                text = _("⛔ This game was stopped by a moderator.")
            return Reply(caller=Message(named(text, table), await self.board_attachments(game, table.id, viewer)),
                         table_id=table.id, place=place, ply=len(game.log), status=table.status)

    async def history(self, place: str, user: User | None = None, *, page: int = 1) -> Reply:
        """The log in notation, with who and when, newest last: page 1 the latest moves, at most
        25 a page, the pages as even as can be (76 moves are four pages of 19, never a last
        page of one move)."""
        return await self.guarded(self._history(place, page))

    async def _history(self, place: str, page: int) -> Reply:
        table = await self.table(place)
        actions = await self.store.actions(table.id)
        if not actions:
            return Reply(caller=Message(_("No moves yet.")), table_id=table.id, place=place)
        pages = (len(actions) + HISTORY_PAGE - 1) // HISTORY_PAGE
        if not 1 <= page <= pages:
            raise Refused(_("there is only 1 page of history; page 1 is the latest moves") if pages == 1 else
                           _("there are {pages} pages of history; page 1 is the latest moves").format(pages=pages))
        size, longer = divmod(len(actions), pages)  # the `longer` newest pages hold one move more
        end = len(actions) - (page - 1) * size - min(page - 1, longer)
        shown = actions[end - size - (1 if page <= longer else 0):end]
        now = self.clock.now()
        lines = [_("**Moves {first}–{last} of {count}** (page {page} of {pages})").format(
            first=shown[0].ply, last=shown[-1].ply, count=len(actions), page=page, pages=pages)]
        for record in shown:
            when = _("{when} ago").format(when=format_duration(now - record.at))
            by = "" if record.chance else actor_note(record.actor, table)
            lines.append(f"`{record.ply:>3}` {logged_entry(record, table)}{by} · {when}")
        if page < pages:
            lines.append(_("Older moves: history page {page}.").format(page=page + 1))
        return Reply(caller=Message("\n".join(lines)), table_id=table.id, place=place)

    async def page_link(self, table: TableRecord) -> str | None:
        """The address of the table's spectator page, or None when there is no web server."""
        if self.public_url is None:
            return None
        if table.meta.get(WATCH):
            return f"{self.public_url.rstrip('/')}/t/{table.meta[WATCH]}"
        return await page_link(self.store, table.id, self.public_url)

    async def watch(self, place: str, user: User | None = None) -> Reply:
        """The link to this table's live spectator page."""
        return await self.guarded(self._watch(place, replay=False))

    async def replay(self, place: str, user: User | None = None, *, gif: bool = False) -> Reply:
        """The link to this table's replay page; with `gif`, an animated replay of the whole
        game so far, posted for everyone in the place."""
        if gif:
            return await self.guarded(self._replay_gif(place))
        return await self.guarded(self._watch(place, replay=True))

    async def _watch(self, place: str, *, replay: bool) -> Reply:
        table = await self.table(place)
        link = await self.page_link(table)
        if link is None:
            raise Refused(_("this bot has no web pages (its web server is off), so there is no link to give"))
        if replay:
            text = _("⏪ Step through this game move by move (arrow keys, or click a move): {link}").format(link=link)
        else:
            text = _("👀 Watch this game live (no hands shown, ever): {link}").format(link=link)
        return Reply(caller=Message(text), table_id=table.id, place=place, status=table.status)

    async def _replay_gif(self, place: str) -> Reply:
        table = await self.table(place)
        if table.status == LOBBY:
            raise Refused(_("the game has not started yet, so there is nothing to replay"))
        actions = await self.store.actions(table.id)
        if not actions:
            raise Refused(_("no moves yet, so there is nothing to replay"))
        made = await self.replays.animation(table, actions)
        link = await self.page_link(table)
        text = ngettext("🎞️ {game}, move by move ({count} move).", "🎞️ {game}, move by move ({count} moves).",
                        len(actions)).format(game=GAMES[table.game].title, count=len(actions))
        if link:
            text += " " + _("Step through it: {link}").format(link=link)
        return Reply(public=Message(text, [made]), table_id=table.id, place=place, status=table.status)

    async def view(self, place: str) -> tuple[TableRecord, Game] | None:
        """The table and its game as last committed (for transports that draw their own board)."""
        table = await self.store.table_at(place)
        if table is None or table.status == LOBBY:
            return None
        return table, await self.games.get(table)

    async def suggestions(self, place: str, user: User, typed: str = "", limit: int = 25) -> list[str]:
        """Legal moves for the caller that match what they typed (`Game.suggestion_match`): those
        that start with it first, in the game's order of preference."""
        return [action for _, action in await self.suggestion_choices(place, user, typed, limit)]

    async def suggestion_choices(self, place: str, user: User, typed: str = "",
                                 limit: int = 25) -> list[tuple[str, str]]:
        """`suggestions` as (what to show, the action): the game's own way of showing each move
        (`Game.describe_action`: Triominoes shows the tile as it is in the hand, then turned),
        both in the table's notation (Spanish words at a Spanish table); typed Spanish words
        match too."""
        table = await self.store.table_at(place)
        if table is None or table.status != PLAYING or table.seat_of(user.id) is None:
            return []
        game = await self.games.get(table)
        seat = table.seat_of(user.id)
        assert seat is not None
        language = table.meta.get(LANGUAGE) or DEFAULT_LANGUAGE
        actions = game.rank_suggestions(seat, game.legal_actions(seat))
        canonical = type(game).canonical(typed, language)
        matched = [(rank, index, a) for index, a in enumerate(actions)
                   if (rank := game.suggestion_match(a, canonical)) is not None]
        spoken = type(game).spoken
        return [(spoken(game.describe_action(seat, a), language), spoken(a, language))
                for _, _, a in sorted(matched)][:limit]

    async def best_moves(self, place: str, user: User, count: int) -> tuple[list[tuple[str, str]], int]:
        """The caller's `count` best moves now, as the greedy AI judges them (what each gains at
        once, tried on what the caller can see: nothing hidden is used), shown as
        `suggestion_choices` shows moves; and how many legal moves the caller has in all."""
        table = await self.store.table_at(place)
        seat = table.seat_of(user.id) if table is not None else None
        if table is None or table.status != PLAYING or seat is None:
            return [], 0
        game = (await self.games.get(table)).clone()  # ranked off the event loop, while commands go on
        ranked = await asyncio.to_thread(GreedyAgent().ranked, game, seat)
        language = table.meta.get(LANGUAGE) or DEFAULT_LANGUAGE
        spoken = type(game).spoken
        return ([(spoken(game.describe_action(seat, a), language), spoken(a, language)) for a in ranked[:count]],
                len(game.legal_actions(seat)))

    # =========================================================================================
    # moderators and server settings (carried out by `bot.moderation.Moderation`)

    async def force_pass(self, place: str, user: User, target: str | None = None, *,
                         seen: int | None = None) -> Reply:
        """Apply the game's timeout actions for the seats it waits for (or one player's seat);
        `seen`: the log length the moderator saw (see `Moderation.force_pass`)."""
        return await self.moderation.force_pass(place, user, target, seen=seen)

    async def kick(self, place: str, user: User, target: str, *, seen: int | None = None) -> Reply:
        """Remove a player: from the lobby, or by resigning on their behalf."""
        return await self.moderation.kick(place, user, target, seen=seen)

    async def pause(self, place: str, user: User, *, seen: int | None = None) -> Reply:
        return await self.moderation.pause(place, user, seen=seen)

    async def resume(self, place: str, user: User, *, seen: int | None = None) -> Reply:
        return await self.moderation.resume(place, user, seen=seen)

    async def abort(self, place: str, user: User, *, seen: int | None = None) -> Reply:
        """End the table without a result."""
        return await self.moderation.abort(place, user, seen=seen)

    async def preview(self, place: str, user: User, what: str, *, to: int | None = None,
                      target: str | None = None, reopen: bool = False) -> Reply:
        """What a moderator's `what` would undo or end, for the caller to confirm (see
        `Moderation.preview`)."""
        return await self.moderation.preview(place, user, what, to=to, target=target, reopen=reopen)

    async def rollback(self, place: str, user: User, to: int, *, reopen: bool = False,
                       seen: int | None = None) -> Reply:
        """Take the game back to how it was after move `to` (see `Moderation.rollback`)."""
        return await self.moderation.rollback(place, user, to, reopen=reopen, seen=seen)

    async def settings(self, guild: str) -> Settings:
        return await self.moderation.settings(guild)

    async def update_settings(self, guild: str, user: User, **changes: Any) -> Reply:
        """Change a server's defaults (server managers only); see `Moderation.update_settings`
        for what may be changed."""
        return await self.moderation.update_settings(guild, user, **changes)

    # =========================================================================================
    # AI seats (played by `self.ai`, a `bot.ai_turns.AiTurns`, after the command that led to them)

    async def ai_job(self, turn: Timer) -> AiJob | None:
        """What planning a current AI turn needs (the seat's view handed over now, before the
        game can change), or None if the turn is no longer current."""
        table = await self.store.get_table(turn.table_id)
        if table is None or table.status != PLAYING or table.paused or turn.seat >= len(table.seats):
            return None
        seat = table.seats[turn.seat]
        if not seat.is_ai:
            return None
        game = await self.games.get(table)
        if len(game.log) != turn.ply or turn.seat not in game.to_move():
            return None
        budget = float(table.meta.get(AI_SECONDS, self.ai_seconds))
        return AiJob(table.place, turn.seat, seat.name, seat.agent or "normal", budget, handover(game, turn.seat),
                     table.meta.get(LANGUAGE) or DEFAULT_LANGUAGE)

    async def play_ai(self, turn: Timer, action: str) -> AiMove | None:
        """Play an AI seat's planned `action` and the forced moves after it, in one commit that
        spends the AI turn; None, with nothing done, if that AI turn is no longer current (the
        game changed, was paused or stopped, or another process played it)."""
        table = await self.store.get_table(turn.table_id)
        if table is None:
            return None
        async with self.lock(table.place):
            try:
                table, game = await self.playing(table.place)
            except Refused:
                return None
            current = await self.table_timers(table)
            if turn.id not in {t.id for t in current} or table.paused or len(game.log) != turn.ply:
                return None
            work = await self.turn(table, game, current)
            agent = level_of(table.seats[turn.seat].agent or "normal") or "normal"
            try:
                work.apply(turn.seat, action, f"ai:{agent}")
            except GameError:  # a bug in the agent must not stall the table
                log.exception("table %s: the AI's move %r was refused; it makes its first legal move", table.id,
                              action)
                work.apply(turn.seat, game.legal_actions(turn.seat)[0], f"ai:{agent}")
            work.play_forced()
            budget = float(table.meta.get(AI_SECONDS, self.ai_seconds))
            try:
                lease = self.delivery_lease + self.ai.split_after + planning_seconds(agent, budget) + 5
                reply, notices = await self._committed(work, spent=turn.id, lease=lease, answered=False)
            except (StaleLog, StaleTable):
                return None
            return AiMove(reply, notices, work.ai_seat() is not None)

    async def announce_ai(self, moves: list[AiMove]) -> None:
        """Announce a run of one table's AI moves as one message, with the board as of the last.
        A run of several moves is first made one outbox row (and one per seat's notes) in place
        of the moves' own, so that a crash after posting it sends that one message again, with
        its nonce, not the moves one by one; if the outbox took any of them meanwhile, they are
        left to it."""
        if len(moves) == 1:
            reply, rows = moves[0].reply, moves[0].notices
        else:
            reply, rows = merged(moves, self.clock.now(), self.delivery_lease)
            old = [n.id for m in moves for n in m.notices if n.id is not None]
            if rows and not await self.store.merge_notices(old, rows, self.clock.now()):
                log.info("table %s: the outbox took the AI moves' announcements meanwhile; it sends them",
                         reply.table_id)
                return
            reply.notices = [n.id for n in rows if n.id is not None]
            for row in rows:
                message = reply.public if row.seat is None else reply.private.get(row.seat)
                if message is not None:
                    message.nonce = nonce_of(row)
        table = await self.store.get_table(reply.table_id) if reply.table_id is not None else None
        if table is not None and reply.public is not None:
            speak(table.meta.get(LANGUAGE))
            try:
                reply.public.attachments = await self._pictures_at(table, reply.ply)
            except Exception:
                log.exception("drawing the board of table %s failed; announcing without it", table.id)
                reply.public.text += "\n" + _(NO_PICTURE).format(board=command_token("board"))
        await self.duties.announce(reply)

    async def _pictures_at(self, table: TableRecord, ply: int | None) -> list[Attachment]:
        """The public board as of move `ply` (the game as it is, if it is there; else replayed)."""
        game = await self.games.get(table)
        if ply is not None and len(game.log) != ply:
            game = new_game(table)
            replay(game, (await self.store.actions(table.id))[:ply])
        else:
            game = game.clone()  # no lock is held: a command may move the table's game on meanwhile
        return await self.board_attachments(game, table.id, elsewhere=True)

    # =========================================================================================
    # helpers

    async def guarded(self, command: Awaitable[Reply]) -> Reply:
        """Run a command; a refusal becomes a reply for the caller, and an unexpected error is
        logged and reported without details: as "nothing was changed" only if the command
        committed nothing (a failure after its commit says the command was carried out)."""
        committed = COMMITTED.set(False)
        try:
            return await command
        except Refused as refused:
            reply = refusal(str(refused))
            if isinstance(refused, MovedOn):
                reply.stale, reply.ply = True, refused.length
            return reply
        except (StaleLog, StaleTable):
            return refusal(_("the game changed while your command was being handled; please try again"))
        except Unconfirmed as unconfirmed:
            log.warning("a commit was not confirmed (in the log: %s)", unconfirmed.stored, exc_info=True)
            with contextlib.suppress(Exception):
                self.timers.wake()  # any deadline it stored is due to be watched
            return Reply(caller=Message(_(STORED) if unconfirmed.stored else
                                        _(MAYBE_STORED).format(board=command_token("board"))))
        except Exception:
            if COMMITTED.get():
                log.exception("command failed after its commit")
                return Reply(caller=Message(_(DONE_BUT).format(board=command_token("board"))))
            log.exception("command failed")
            return refusal(_("something went wrong on our side and nothing was changed; please try again, and "
                             "tell a moderator if it keeps happening"))
        finally:
            COMMITTED.reset(committed)

    async def table(self, place: str) -> TableRecord:
        """The table at `place` (Refused if there is none); from here on the referee speaks the
        table's language."""
        table = self._first_tables.pop(place) if place in self._first_tables else await self.store.table_at(place)
        if table is None:
            raise Refused(_("there is no game here; start one first"))
        speak(table.meta.get(LANGUAGE))
        return table

    async def status(self, place: str) -> TableRecord | None:
        """The table at a place, if any (for transports: lobby buttons, who is seated); the
        referee then speaks its language."""
        table = await self.store.table_at(place)
        if table is not None:
            speak(table.meta.get(LANGUAGE))
        return table

    async def playing(self, place: str, table: TableRecord | None = None) -> tuple[TableRecord, Game]:
        """The table at `place` (or `table`, already read) and its game, Refused unless it is
        being played."""
        table = table or await self.table(place)
        if table.status == LOBBY:
            raise Refused(_("the game has not started yet"))
        if table.status != PLAYING:
            raise Refused(_("this game is over") if table.status != ABORTED else _("this game was stopped"))
        return table, await self.games.get(table)

    async def _playing_seat(self, place: str, user: User,
                            table: TableRecord | None = None) -> tuple[TableRecord, Game, int]:
        """As `_playing`, with the caller's seat (Refused if they have none)."""
        table = table or await self.table(place)
        seat = table.seat_of(user.id)
        if seat is None:
            raise Refused(_("you are not playing at this table"))
        table, game = await self.playing(place, table)
        return table, game, seat

    async def reminders(self, table: TableRecord) -> list[str]:
        if table.guild is None:
            return list(Settings("").reminders)
        return (await self.store.settings(table.guild)).reminders

    async def turn(self, table: TableRecord, game: Game, timers: list[Timer] | None = None) -> Turn:
        """A turn on the table's game, with its timers (`timers`, if just read)."""
        timers = await self.table_timers(table) if timers is None else timers
        return Turn(self.store, table, game, timers, self.clock.now(), await self.reminders(table))

    async def table_timers(self, table: TableRecord) -> list[Timer]:
        """The table's timers: as the command lock read them, the first time a command asks
        before it commits, else from the store."""
        first = self._first_timers.pop(table.place, None)
        if first is not None and first[0] == table.id:
            return first[1]
        return await self.store.timers(table.id)

    async def commit(self, turn: Turn, *, undo_after: int | None = None, expected: int | None = None,
                     notices: list[Notice] | None = None, also: Write | None = None,
                     spent: int | None = None) -> None:
        self._first_timers.pop(turn.table.place, None)  # a commit rewrites them
        try:
            timers = await turn.commit(undo_after=undo_after, expected=expected, notices=notices or [], also=also,
                                       spent=spent)
        except BaseException:
            self.games.forget(turn.table.id)
            raise
        await self._after_commit(turn, timers)

    async def _after_commit(self, turn: Turn, timers: list[Timer]) -> None:
        """Everything that follows a commit: the game kept in memory, the timer dispatcher and the
        AI worker woken for what it recorded, a snapshot. None of it can undo the commit or make
        the command look failed: a step that fails is logged (the dispatcher and the worker also
        look on their own, every few seconds; the log has every move)."""
        steps: list[tuple[str, Callable[[], Any]]] = [("remembering the game", lambda: self.games.remember(
            turn.table, turn.game))]
        if timers:
            steps.append(("waking the timers", self.timers.wake))
        if any(t.kind == AI_TURN for t in timers):
            steps.append(("waking the AI worker", self.ai.wake))
        steps.append(("saving a snapshot", lambda: self.games.maybe_snapshot(turn.table.id, turn.game)))
        for what, step in steps:
            try:
                done = step()
                if asyncio.iscoroutine(done):
                    await done
            except Exception:
                log.exception("table %s: %s after a commit failed", turn.table.id, what)

    async def _deadlines(self, table: TableRecord) -> dict[int, float]:
        return {t.seat: t.due for t in await self.table_timers(table) if t.kind == DEADLINE}

    def notice(self, table: TableRecord, game: Game, text: str, *, seat: int | None = None,
               mentions: list[str] | None = None, board: bool = False, kind: str = "move",
               now: float | None = None, lease: float | None = None, origin: str = "") -> Notice:
        """An announcement of the game as it now is, to commit; those of one commit share its
        moment `now`, which is how the outbox knows to send them together. It is left to this
        process for `lease` seconds (default: the delivery lease) before the outbox sends it.
        `origin`: the command whose answer delivers it (only a command's own public message)."""
        now = self.clock.now() if now is None else now
        return Notice(table_id=table.id, place=table.place, ply=len(game.log), text=text, seat=seat,
                      mentions=list(mentions or []), board=board, kind=kind, origin=origin, created_at=now,
                      lease_until=now + (self.delivery_lease if lease is None else lease), log=log_digest(game.log))

    async def finish(self, turn: Turn, *, headline: str = "", undo_after: int | None = None,
                     expected: int | None = None, also: Write | None = None) -> Reply:
        """Make the forced moves, then commit them with their announcements (and, if the game
        now waits for an AI seat, its AI turn: see `bot.ai_turns`), and tell the table what
        happened. Nothing after the commit can undo or hide the move: a picture that cannot be
        drawn is left out, with a note."""
        await self.ai.flush(turn.table.id)  # AI moves made before this command are announced before it
        turn.play_forced()
        reply, _notices = await self._committed(turn, headline=headline, undo_after=undo_after, expected=expected,
                                                also=also)
        if reply.public is not None:
            await self._attach_board(turn, reply)
        if not self.confirms_delivery:
            try:
                await self.delivered(reply)
            except Exception:  # the move stands; at worst the outbox announces it a second time
                log.warning("confirming the delivery of table %s's move failed", turn.table.id, exc_info=True)
        return reply

    async def _committed(self, turn: Turn, *, headline: str = "", undo_after: int | None = None,
                         expected: int | None = None, also: Write | None = None, spent: int | None = None,
                         lease: float | None = None, answered: bool = True) -> tuple[Reply, list[Notice]]:
        """Commit the turn with its announcements in the outbox (`lease`: how long they are left
        to this process; `answered`: the public one is delivered as the answer to the command
        being served, if there is one) and, if it finishes the game, its ratings; the reply
        announcing it, without pictures, and the outbox rows committed for it (the end-of-game
        replay's aside)."""
        playing = turn.table.status == PLAYING
        turn.plan()
        reply = self._move_reply(turn, headline=headline)
        table = turn.table
        rating = await self._rating(turn, reply) if playing and table.status == FINISHED else None
        told = reply.announcement
        assert reply.public is not None and told is not None
        told.story, told.ending = [named(p, table) for p in told.story], [named(p, table) for p in told.ending]
        reply.public.text = told.text
        await self._tell_turns(turn, reply)
        notices = []
        now = self.clock.now()
        if reply.public is not None:
            notices.append(self.notice(table, turn.game, reply.public.text, mentions=reply.mentions, board=True,
                                       now=now, lease=lease, origin=ORIGIN.get() if answered else ""))
        self._ask_for_pictures(turn, reply)
        notices += [self.notice(table, turn.game, m.text, seat=seat, kind="private", now=now, lease=lease)
                    for seat, m in reply.private.items()]
        replay = self._end_replay(turn, now, after=lease)
        if replay is not None:
            notices.append(replay)
        await self.commit(turn, undo_after=undo_after, expected=expected, notices=notices,
                          also=_both(also, rating), spent=spent)
        told_here = [n for n in notices if n is not replay]
        reply.notices = [n.id for n in told_here if n.id is not None]
        for notice in told_here:
            message = reply.public if notice.seat is None else reply.private.get(notice.seat)
            if message is not None:
                message.nonce = nonce_of(notice)
        return reply, told_here

    def _end_replay(self, turn: Turn, now: float, *, after: float | None = None) -> Notice | None:
        """The animated replay the table gets when this command ends its game (unless it said
        `replay=off`): an announcement of its own, sent by the outbox a moment after the last
        move's (so it is durable, drawn off the command's path, and re-sent after a crash);
        `after`: how long the last move's announcement is left to its process (an AI move's
        longer), so the replay comes after it."""
        table = turn.table
        if table.status != FINISHED or not turn.changed or not table.meta.get(REPLAY, True):
            return None
        text = _("🎞️ The whole game, move by move.")
        notice = self.notice(table, turn.game, text, kind=REPLAY_KIND, now=now + REPLAY_LEASE / 1000)
        notice.lease_until = now + (after or 0.0) + REPLAY_LEASE
        return notice

    async def _attach_board(self, turn: Turn, reply: Reply) -> None:
        """The board picture as of the turn, on the reply's public message (a note instead if it
        cannot be drawn)."""
        table = turn.table
        assert reply.public is not None
        try:
            reply.public.attachments = await self.board_attachments(turn.game, table.id, deadlines=turn.deadlines)
        except Exception:
            log.exception("drawing the board of table %s failed; announcing without it", table.id)
            reply.public.text += "\n" + _(NO_PICTURE).format(board=command_token("board"))

    @staticmethod
    def _ask_for_pictures(turn: Turn, reply: Reply) -> None:
        """The first time the rules let a player choose a picture (the first chicken-foot of the
        game), ask them privately; the game never waits for their answer."""
        asked = turn.table.meta.setdefault(QUESTS, [])
        for event in turn.events:
            if event.data.get("picture") != FOOT or not event.seats:
                continue
            seat = event.seats[0]
            if seat in asked or turn.table.seats[seat].is_ai:
                continue
            asked.append(seat)
            message = reply.private.setdefault(seat, Message())
            message.text = (f"{message.text}\n{_(VISION_QUEST).format(quest=command_token('quest'))}").strip()

    def _move_reply(self, turn: Turn, *, headline: str = "") -> Reply:
        """The announcement of the turn (its public text composed once everything is in it:
        `_committed` adds the ratings line to its ending), private notes, whom to ping."""
        table, game = turn.table, turn.game
        told = Announcement(
            story=[headline, narration.what_happened(turn.events, narration.forced_lines(table, game, turn.forced))],
            ending=[narration.who_is_next(table, game, turn.deadlines),
                    narration.how_to_move(table, game) if self.move_help else ""])
        private: dict[int, Message] = {}
        for event in turn.events:
            if event.to is not None and not table.seats[event.to].is_ai:
                message = private.setdefault(event.to, Message())
                message.text = f"{message.text}\n{said(event.template, dict(event.args), event.text)}".strip()
        pinged = [u for s in self._pinged_seats(turn) if (u := table.seats[s].user_id)]
        return Reply(public=Message(), private=private, events=list(turn.events), table_id=table.id,
                     place=table.place, mentions=pinged, ply=len(game.log), status=table.status, announcement=told)

    async def _tell_turns(self, turn: Turn, reply: Reply) -> None:
        """Add to each seat's private part of `reply` the message telling its player that their
        turn began, for those who asked for one (`/notify`). Every commit that can begin a turn
        comes through here (`finish`), so a turn brings one message; a turn the player began
        themselves brings none."""
        table = turn.table
        told = [s for s in self._pinged_seats(turn) if table.seats[s].user_id != turn.began_by]
        for seat, text in (await turn_messages(self.store, table, told, turn.deadlines)).items():
            message = reply.private.setdefault(seat, Message())
            message.text = f"{message.text}\n{text}".strip()

    async def _rating(self, turn: Turn, reply: Reply) -> Write | None:
        """For a game this command finished: its rating changes added to the announcement, and
        the writes that record them with the commit. A rating that cannot be worked out never
        keeps the game from ending: it is logged, and `tileref ratings rebuild` rates the game."""
        try:
            changes = await self.ratings.preview(turn.table, turn.game, turn.now)
            write = self.ratings.recording(turn.table, turn.game, turn.now)
        except Exception:
            log.exception("rating table %s failed; it ends unrated", turn.table.id)
            return None
        if changes and reply.announcement is not None:
            reply.announcement.ending.insert(1, changes)  # after the result, before anything else
        return write

    @staticmethod
    def _pinged_seats(turn: Turn) -> list[int]:
        """The seats whose turn began in this command, but for those that began it themselves."""
        table = turn.table
        acted = {a.seat for a in turn.actions if a.seat >= 0 and a.actor == table.seats[a.seat].user_id}
        return sorted(turn.fresh - acted)

    async def board_attachments(self, game: Game, table_id: int, viewer: int | None = None, *,
                                 deadlines: Mapping[int, float] | None = None,
                                 elsewhere: bool = False) -> list[Attachment]:
        """The public board picture, with the pictures players chose (their chicken-feet) and the
        earliest deadline; `viewer` is emphasised (nothing hidden is ever drawn). It is drawn in
        the referee's drawing thread, off the event loop (a picture takes tens of milliseconds
        that other tables' commands would otherwise wait): `game` must not change meanwhile (a
        command's own game, under its lock, or a copy). `elsewhere`: drawn in the drawing process
        instead, which holds up nothing at all (for announcements nobody is waiting on)."""
        if not self.render_images or game.name not in renderers.RENDERERS:
            return []
        feet = {seat: decoded(data) for seat, (data, _source) in (await self.store.pictures(table_id, FOOT)).items()
                if seat < game.players}
        if deadlines is None:
            deadlines = {t.seat: t.due for t in await self.store.timers(table_id) if t.kind == DEADLINE}
        deadline = min(deadlines.values(), default=None)
        if elsewhere:
            data = await self.drawing.render(game, viewer, feet=feet or None, deadline=deadline)
        else:
            draw = functools.partial(renderers.render, game, viewer, feet=feet or None, deadline=deadline)
            # in this command's context, so the picture speaks the table's language
            data = await asyncio.get_running_loop().run_in_executor(self._drawing, contextvars.copy_context().run, draw)
        return [Attachment(f"{game.name}-move-{len(game.log)}.png", data, _("the board"))]

    async def adjust(self, place: str, user: User, *, name: str | None = None, language_code: str | None = None,
                     ai_seconds: float | None = None) -> Reply:
        """Change, in the game being played at `place`, the caller's name at the table, and (for
        its host or a moderator) the table's language or how long its AI seats plan a move: a
        terminal game resumed with a new `--name`, `--lang` or `--ai-seconds`. The answer says
        what changed, in the table's language."""
        return await self.guarded(self._adjust(place, user, name, language_code, ai_seconds))

    async def _adjust(self, place: str, user: User, name: str | None, language_code: str | None,
                      ai_seconds: float | None) -> Reply:
        async with self.lock(place):
            table, game, seat = await self._playing_seat(place, user)
            if language_code is not None or ai_seconds is not None:
                self._hosting(table, user, _("only {player} or a moderator can change this table"))
            said = []
            if language_code is not None:
                table.meta[LANGUAGE] = language(language_code)
                speak(table.meta[LANGUAGE])
                said.append(_("This table now speaks {language}.").format(language=LANGUAGES[table.meta[LANGUAGE]]))
            if ai_seconds is not None:
                if not 0 <= ai_seconds <= 30:
                    raise Refused(_("ai_seconds is how long AI players think, 0 to 30 seconds: like ai_seconds=2, "
                                    "not '{value}'").format(value=ai_seconds))
                table.meta[AI_SECONDS] = float(ai_seconds)
                said.append(ngettext("AI players now think {seconds} second a move.",
                                     "AI players now think {seconds} seconds a move.",
                                     1 if ai_seconds == 1 else 2).format(seconds=f"{ai_seconds:g}"))
            if name is not None and clean_name(name) != table.seats[seat].name:
                old = table.seats[seat].name
                table.seats[seat].name = game.names[seat] = clean_name(name)
                said.append(_("{old} is now called {new}.").format(old=name_token(old), new=name_token(name)))
            await confirmed(self.store.save_table(table))
            self.games.remember(table, game)
            return Reply(caller=Message("\n".join(said)), table_id=table.id, place=place, ply=len(game.log),
                         status=table.status)

    async def choose_picture(self, place: str, user: User, kind: str, png: bytes, source: str) -> Reply:
        """Keep the picture a player chose for this game (`kind` "foot": the chicken-foot drawn at
        the end of their line while they are footed). `png` is a checked picture (see
        `bot.media.checked_png`)."""
        return await self.guarded(self._choose_picture(place, user, kind, png, source))

    async def _choose_picture(self, place: str, user: User, kind: str, png: bytes, source: str) -> Reply:
        async with self.lock(place):
            table, game, seat = await self._playing_seat(place, user)
            await self.store.save_picture(table.id, seat, kind, png, source, self.clock.now())
            text = (_("🐔 Your chicken-foot is chosen: it is drawn at the end of your line on every board from now "
                      "on, while you are chicken-footed.") if kind == FOOT else _("Your picture is chosen."))
            return Reply(caller=Message(text), table_id=table.id, place=place, ply=len(game.log),
                         status=table.status)

    async def _hand_message(self, game: Game, seat: int) -> Message:
        text = hand_text(game, seat)
        attachments = []
        if self.render_images and game.name in renderers.RENDERERS:
            attachments.append(Attachment(f"{game.name}-hand.png", renderers.render_hand(game, seat), _("your hand")))
        return Message(text, attachments)


def _both(first: Write | None, then: Write | None) -> Write | None:
    """Two sets of writes made one after the other in one transaction (either may be None)."""
    if first is None or then is None:
        return first or then
    assert first is not None and then is not None

    async def write(db: Sql) -> None:
        await first(db)
        await then(db)

    return write


def _switch(value: str, option: str) -> bool:
    """An on/off option's value (Refused, saying what to write, if it is neither)."""
    cleaned = value.strip().lower()
    if cleaned in ("on", "yes", "true", "1"):
        return True
    if cleaned in ("off", "no", "false", "0"):
        return False
    raise Refused(_("`{option}` is on or off, like `{option}=off`, not '{value}'").format(option=option,
                                                                                     value=echo(value)))


def _split(text: str, separator: str | None) -> list[str]:
    """The actions in `text`: one, or several joined by the game's separator."""
    if separator is None or separator not in text:
        return [text]
    return [part.strip() for part in text.split(separator) if part.strip()] or [text]


def host_of(table: TableRecord) -> str:
    """Who runs a lobby (adds AI players, starts the game): its creator while seated, else the
    person seated longest; the creator again when no person is seated."""
    if table.seat_of(table.created_by) is not None:
        return table.created_by
    return next((s.user_id for s in table.seats if s.user_id), table.created_by)
