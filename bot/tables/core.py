"""The command core: how every command, clock duty and AI turn reads a table, changes it under its
lock, and commits the change with its announcements.

Whoever must act on a commit subscribes to it (`on_commit`: the timer dispatcher and the AI
worker wake for what it recorded; `before_finish`: AI moves made earlier are announced first);
the core calls nobody back."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from functools import partial

from bot.community.notifications import TURN_LIST, list_keepers, quiet_users
from bot.community.quiet_clock import quiet_hours_intervals
from bot.community.ratings import Ratings
from bot.community.vacations import vacation_intervals, vacationing
from bot.core import logs, metrics
from bot.core.clock import Clock
from bot.core.i18n import N_, _, speak
from bot.core.meta import LANGUAGE, PALETTE, REPLAY
from bot.core.records import (
    ABORTED,
    DEADLINE,
    DELIVERY_LEASE,
    FINISHED,
    LOBBY,
    PLAYING,
    Notice,
    Settings,
    TableRecord,
    Timer,
    User,
)
from bot.core.refusals import MovedOn, Refused
from bot.core.replies import Message, Reply, command_token, refusal
from bot.core.running_time import Interval, Unavailability
from bot.media.replay_animation import REPLAY_KIND, Replays
from bot.storage.loader import DEFAULT_GAME_CACHE, GameLoader
from bot.storage.standings import Sql, Write
from bot.storage.store import StaleLog, StaleTable, Store, served
from bot.tables import move_reply
from bot.tables.change import COMMITTED, Change, Unconfirmed
from bot.tables.notices import ORIGIN, log_digest, nonce_of
from bot.tables.pictures import BoardPictures
from bot.words.wording import named
from engine import Game
from renderers.palettes import use_palette

log = logging.getLogger(__name__)

REPLAY_LEASE = 5.0
"""Seconds the end-of-game replay waits in the outbox, so the last move's message comes first."""
DONE_BUT = N_("✅ Your command was carried out, but something went wrong on our side afterwards: its announcement "
              "follows shortly, and `{board}` shows the game as it now is.")
STORED = N_("✅ Your move was stored, but the database was slow to confirm it: its announcement follows shortly.")
MAYBE_STORED = N_("The database did not confirm your command, so it may or may not have been carried out: `{board}` "
                  "shows which. Send it again only if it is not there.")

CommitListener = Callable[[list[Timer] | None], object]
"""Told after each commit which timers it left the table (None: a commit that may or may not have
been stored, whose timers are unknown); may return an awaitable."""


class Tables:
    """The command core over one store.

    `notify` delivers what nobody asked for (timeouts, reminders, announcements a crash left
    undelivered); `already_out` tells whether one the outbox sends again is out already (Discord:
    the thread's history; None where that cannot be told). `confirms_delivery`: the transport
    calls `delivered(reply)` once it has delivered a command's reply (Discord); when False, a reply
    counts as delivered when it is returned (the console, tests). `delivery_lease`: how long a
    reply is left to its transport before the outbox sends it instead. `move_help`: each turn's
    message ends with how to type a move."""

    def __init__(self, store: Store, clock: Clock, *, render: bool = True, confirms_delivery: bool = True,
                 delivery_lease: float = DELIVERY_LEASE, move_help: bool = True,
                 cache_size: int = DEFAULT_GAME_CACHE, snapshot_every: int = 50) -> None:
        self.store = store
        self.clock = clock
        self.confirms_delivery = confirms_delivery
        self.delivery_lease = delivery_lease
        self.move_help = move_help
        self.notify: Callable[[Reply], Awaitable[None]] | None = None
        self.already_out: Callable[[Reply], Awaitable[bool]] | None = None
        self.games = GameLoader(store, capacity=cache_size, snapshot_every=snapshot_every)
        self.ratings = Ratings(store)
        self.replays = Replays(store)
        self.pictures = BoardPictures(store, self.games, render=render)
        self.places: frozenset[str] | None = None
        """The places this process serves: it delivers their announcements and plays their AI
        seats. None (the Discord bot): every place. A console session serves its own table's place
        alone (`serve`): what other tables announce waits in the outbox for the session that
        serves them, and their AI seats for it to play them."""
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._first_tables: dict[str, TableRecord | None] = {}
        self._first_timers: dict[str, tuple[int, list[Timer]]] = {}
        """What the store's command lock read with the lock, by place, until the command takes it
        (see `lock`)."""
        self._commit_listeners: list[CommitListener] = []
        self._before_finish: list[Callable[[int], Awaitable[None]]] = []
        self._ended_listeners: list[Callable[[TableRecord], object]] = []
        self._vacations = vacation_intervals(store)
        self._unavailability: list[Unavailability] = [self._vacations, quiet_hours_intervals(store, clock)]

    def close(self) -> None:
        self.pictures.close()
        self.replays.close()

    # ---- who is told ------------------------------------------------------------------------

    def on_commit(self, listener: CommitListener) -> None:
        """Call `listener` after every commit (see `CommitListener`); a listener that fails is
        logged and never makes the command look failed."""
        self._commit_listeners.append(listener)

    def on_ended(self, listener: Callable[[TableRecord], object]) -> None:
        """Call `listener(table)` after a commit that ends the table's game (finished or stopped);
        a listener that fails is logged. A hint for whoever waits for results (a tournament's
        round): they must also look for themselves, as a crash can fall between the two."""
        self._ended_listeners.append(listener)

    def before_finish(self, step: Callable[[int], Awaitable[None]]) -> None:
        """Await `step(table_id)` before a command's change to a table is finished."""
        self._before_finish.append(step)

    def serve(self, *places: str) -> None:
        """Serve these places alone from now on (see `places`): places (`console:3`), or every
        place of a transport, by its prefix (`discord:`)."""
        self.places = frozenset(places)

    def serves(self, place: str | None) -> bool:
        """Whether this process delivers the announcements of `place` (see `places`)."""
        return served(self.places, place)

    async def delivered(self, reply: Reply) -> None:
        """The transport delivered `reply`: its announcements are not to be sent again."""
        if reply.notices:
            now = self.clock.now()
            await self.store.notices_delivered(reply.notices, now)
            metrics.notices_delivered(reply.notices, now)

    # ---- reading a table --------------------------------------------------------------------

    @asynccontextmanager
    async def lock(self, place: str) -> AsyncIterator[None]:
        """Commands on a table run one at a time: one lock per place in this process (a lock
        nobody holds or waits for is forgotten), and the store's lock across processes.

        Where the store reads the table and its timers as it takes the lock (PostgreSQL, in the
        same round trip), the command's first `table` and first `table_timers` are those; anything
        read again, or after the command has committed, comes from the store."""
        logs.note(place=place)
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

    async def table(self, place: str) -> TableRecord:
        """The table at `place` (Refused if there is none); from here on the referee speaks the
        table's language."""
        table = self._first_tables.pop(place) if place in self._first_tables else await self.store.table_at(place)
        if table is None:
            raise Refused(_("there is no game here; start one first"))
        logs.note(table=table.id, server=table.guild)
        speak(table.meta.get(LANGUAGE))
        use_palette(table.meta.get(PALETTE))
        return table

    async def table_at(self, place: str) -> TableRecord | None:
        """The table at a place, if any, read without the lock (lobby buttons, who is seated);
        the referee then speaks its language."""
        table = await self.store.table_at(place)
        if table is not None:
            speak(table.meta.get(LANGUAGE))
            use_palette(table.meta.get(PALETTE))
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

    async def playing_seat(self, place: str, user: User,
                           table: TableRecord | None = None) -> tuple[TableRecord, Game, int]:
        """As `playing`, with the caller's seat (Refused if they have none)."""
        table = table or await self.table(place)
        seat = table.seat_of(user.id)
        if seat is None:
            raise Refused(_("you are not playing at this table"))
        table, game = await self.playing(place, table)
        return table, game, seat

    async def log_length(self, place: str) -> int | None:
        """The length of the log of the game being played at `place` (None if none is)."""
        table = await self.store.table_at(place)
        if table is None or table.status != PLAYING:
            return None
        return await self.store.log_length(table.id)

    async def table_timers(self, table: TableRecord) -> list[Timer]:
        """The table's timers: as the command lock read them, the first time a command asks
        before it commits, else from the store."""
        first = self._first_timers.pop(table.place, None)
        if first is not None and first[0] == table.id:
            return first[1]
        return await self.store.timers(table.id)

    async def deadlines(self, table: TableRecord) -> dict[int, float]:
        """When each clocked seat's turn runs out."""
        return {t.seat: t.due for t in await self.table_timers(table) if t.kind == DEADLINE}

    def unavailable_when(self, source: Unavailability) -> None:
        """Stop players' clocks during the intervals `source` gives too (see `Unavailability`)."""
        self._unavailability.append(source)

    async def unavailable(self, table: TableRecord) -> dict[int, list[Interval]]:
        """Each seat's intervals when its player's clock does not run at this table, from every
        source (none for a table without a clock)."""
        return (await self._unavailable(table))[0]

    async def on_vacation(self, table: TableRecord) -> dict[int, float]:
        """The seats whose players are on vacation now, and until when (quiet hours stop clocks
        too, but a board does not say someone is asleep)."""
        return vacationing(self.clock.now(), (await self._unavailable(table))[1])

    async def _unavailable(self, table: TableRecord) -> tuple[dict[int, list[Interval]], dict[int, list[Interval]]]:
        """Each seat's unavailable intervals from every source, and from vacations alone."""
        if not table.turn_seconds:
            return {}, {}
        seats = {s.user_id: s.seat for s in table.seats if s.user_id}
        every: dict[int, list[Interval]] = {}
        vacations: dict[int, list[Interval]] = {}
        for source in self._unavailability:
            for user_id, intervals in (await source(table)).items():
                if user_id in seats:
                    every.setdefault(seats[user_id], []).extend(intervals)
                    if source is self._vacations:
                        vacations.setdefault(seats[user_id], []).extend(intervals)
        return every, vacations

    async def reminders(self, table: TableRecord) -> list[str]:
        """When the table's players are reminded before their deadline (the server's setting)."""
        if table.guild is None:
            return list(Settings("").reminders)
        return (await self.store.settings(table.guild)).reminders

    # ---- changing and committing ------------------------------------------------------------

    async def change(self, table: TableRecord, game: Game, timers: list[Timer] | None = None, *,
                     beginning: bool = False) -> Change:
        """A change to the table's game, with its timers (`timers`, if just read); `beginning`:
        the change that deals the game."""
        timers = [] if beginning else await self.table_timers(table) if timers is None else timers
        off, vacations = await self._unavailable(table)
        return Change(self.store, table, game, timers, self.clock.now(), await self.reminders(table),
                      beginning=beginning, off=off, vacations=vacations)

    async def guarded(self, command: Awaitable[Reply], *, name: str | None = None) -> Reply:
        """Run a command; a refusal becomes a reply for the caller, and an unexpected error is
        logged and reported without details: as "nothing was changed" only if the command
        committed nothing (a failure after its commit says the command was carried out).

        Its log lines name the command (`name`, else its coroutine's: `_act` is "act") and the
        table, and one line at its end says how it went and how long it took."""
        committed = COMMITTED.set(False)
        try:
            with logs.scope(name or _command_name(command)):
                return await self._guarded(command)
        finally:
            COMMITTED.reset(committed)

    async def _guarded(self, command: Awaitable[Reply]) -> Reply:
        try:
            return await command
        except Refused as refused:
            logs.outcome("refused")
            reply = refusal(str(refused))
            if isinstance(refused, MovedOn):
                reply.stale, reply.ply = True, refused.length
            return reply
        except (StaleLog, StaleTable):
            logs.outcome("stale")
            return refusal(_("the game changed while your command was being handled; please try again"))
        except Unconfirmed as unconfirmed:
            logs.outcome("unconfirmed")
            log.warning("a commit was not confirmed (in the log: %s)", unconfirmed.stored, exc_info=True)
            await self._signal(None)  # any deadline or AI turn it stored is due to be watched
            return Reply(caller=Message(_(STORED) if unconfirmed.stored else
                                        _(MAYBE_STORED).format(board=command_token("board"))))
        except Exception:
            logs.outcome("error")
            if COMMITTED.get():
                log.exception("command failed after its commit")
                return Reply(caller=Message(_(DONE_BUT).format(board=command_token("board"))))
            log.exception("command failed")
            return refusal(_("something went wrong on our side and nothing was changed; please try again, and "
                             "tell a moderator if it keeps happening"))

    async def commit(self, change: Change, *, undo_after: int | None = None, expected: int | None = None,
                     notices: list[Notice] | None = None, also: Write | None = None,
                     spent: int | None = None) -> None:
        """Commit the change (see `Change.commit`), then tell whoever subscribed."""
        self._first_timers.pop(change.table.place, None)  # a commit rewrites them
        try:
            timers = await change.commit(undo_after=undo_after, expected=expected, notices=notices or [], also=also,
                                       spent=spent)
        except BaseException:
            self.games.forget(change.table.id)
            raise
        metrics.moves_committed(change.table.game, len(change.actions))
        metrics.notices_committed([(n.id, n.created_at) for n in notices or []])
        await self._after_commit(change, timers)

    async def _after_commit(self, change: Change, timers: list[Timer]) -> None:
        """Everything that follows a commit: the game kept in memory, the subscribers told, a
        snapshot. None of it can undo the commit or make the command look failed: a step that
        fails is logged (the dispatcher and the AI worker also look on their own, every few
        seconds; the log has every move)."""
        try:
            self.games.remember(change.table, change.game)
        except Exception:
            log.exception("table %s: remembering the game after a commit failed", change.table.id)
        await self._signal(timers)
        if change.table.status in (FINISHED, ABORTED):
            for listener in self._ended_listeners:
                try:
                    listener(change.table)
                except Exception:
                    log.exception("a listener for ended games failed for table %s", change.table.id)
        try:
            await self.games.maybe_snapshot(change.table.id, change.game)
        except Exception:
            log.exception("table %s: saving a snapshot after a commit failed", change.table.id)

    async def _signal(self, timers: list[Timer] | None) -> None:
        for listener in self._commit_listeners:
            try:
                done = listener(timers)
                if asyncio.iscoroutine(done):
                    await done
            except Exception:
                log.exception("a commit's listener %r failed", listener)

    async def addressed(self, reply: Reply, table: TableRecord) -> Reply:
        """`reply` with its buttons and recipients (`move_reply.addressed`), from the table and, while
        it is played, its game as last committed."""
        game = await self.games.get(table) if table.status == PLAYING else None
        return move_reply.addressed(reply, table, game)

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

    async def finish(self, change: Change, *, headline: str = "", undo_after: int | None = None,
                     expected: int | None = None, also: Write | None = None) -> Reply:
        """Make the forced moves, then commit them with their announcements (and, if the game
        now waits for an AI seat, its AI turn), and tell the table what happened. Nothing after
        the commit can undo or hide the move: a picture that cannot be drawn is left out, with a
        note."""
        for step in self._before_finish:
            await step(change.table.id)
        change.play_forced()
        reply, _notices = await self.commit_announced(change, headline=headline, undo_after=undo_after,
                                                      expected=expected, also=also)
        if reply.public is not None:
            await self.pictures.attach_board(reply, change.game, change.table.id, deadlines=change.deadlines)
        if not self.confirms_delivery:
            try:
                await self.delivered(reply)
            except Exception:  # the move stands; at worst the outbox announces it a second time
                log.warning("confirming the delivery of table %s's move failed", change.table.id, exc_info=True)
        return reply

    async def commit_announced(self, change: Change, *, headline: str = "", undo_after: int | None = None,
                               expected: int | None = None, also: Write | None = None, spent: int | None = None,
                               lease: float | None = None, answered: bool = True) -> tuple[Reply, list[Notice]]:
        """Commit the change with its announcements in the outbox (`lease`: how long they are
        left to this process; `answered`: the public one is delivered as the answer to the
        command being served, if there is one) and, if it finishes the game, its ratings; the
        reply announcing it, without pictures, and the outbox rows committed for it (but the
        end-of-game replay's)."""
        playing = change.table.status == PLAYING
        change.plan()
        reply = move_reply.move_reply(change, headline=headline, move_help=self.move_help)
        table = change.table
        rating = await move_reply.rate(self.ratings, change, reply) if playing and table.status == FINISHED else None
        told = reply.announcement
        assert reply.public is not None and told is not None
        told.story, told.ending = [named(p, table) for p in told.story], [named(p, table) for p in told.ending]
        reply.public.text = told.text
        await move_reply.tell_turns(self.store, change, reply)
        await move_reply.tell_turns_in_words(self.store, change, reply)
        lists = await move_reply.lists_to_show(self.store, change)
        notices = []
        now = self.clock.now()
        notices.append(self.notice(table, change.game, reply.public.text, mentions=reply.mentions, board=True,
                                   now=now, lease=lease, origin=ORIGIN.get() if answered else ""))
        move_reply.ask_for_pictures(change, reply)
        notices += [self.notice(table, change.game, m.text, seat=seat, kind="private", now=now, lease=lease)
                    for seat, m in reply.private.items()]
        listed = move_reply.list_notices(partial(self.notice, table, change.game, "", now=now, lease=lease), lists)
        notices += listed
        replay = self._end_replay(change, now, after=lease)
        if replay is not None:
            notices.append(replay)
        await self.commit(change, undo_after=undo_after, expected=expected, notices=notices,
                          also=_both(also, rating), spent=spent)
        move_reply.addressed(reply, table, change.game)
        reply.quiet = await quiet_users(self.store, reply.recipients.values(), now)
        told_here = [n for n in notices if n is not replay]
        reply.notices = [n.id for n in told_here if n.id is not None]
        listing(reply, listed)
        for notice in told_here:
            if notice.kind == TURN_LIST:
                continue
            message = reply.public if notice.seat is None else reply.private.get(notice.seat)
            if message is not None:
                message.nonce = nonce_of(notice)
        return reply, told_here

    async def list_notices(self, table: TableRecord, game: Game, seats: list[int]) -> list[Notice]:
        """For a command that changes how the game waits for `seats` without a move (a pause, a
        stop): the outbox notes that their players' standing lists of turns are to be shown again,
        to commit with it (then `listing`)."""
        lists = await list_keepers(self.store, table, seats)
        return move_reply.list_notices(partial(self.notice, table, game, ""), lists)

    def _end_replay(self, change: Change, now: float, *, after: float | None = None) -> Notice | None:
        """The animated replay the table gets when this change ends its game (unless it said
        `replay=off`): an announcement of its own, sent by the outbox a moment after the last
        move's (so it is durable, drawn off the command's path, and re-sent after a crash);
        `after`: how long the last move's announcement is left to its process (an AI move's
        longer), so the replay comes after it."""
        table = change.table
        if table.status != FINISHED or not change.changed or not table.meta.get(REPLAY, True):
            return None
        text = _("🎞️ The whole game, move by move.")
        notice = self.notice(table, change.game, text, kind=REPLAY_KIND, now=now + REPLAY_LEASE / 1000)
        notice.lease_until = now + (after or 0.0) + REPLAY_LEASE
        return notice


def listing(reply: Reply, notices: list[Notice]) -> Reply:
    """`reply`, asking its transport to show the standing lists that `notices` (committed outbox
    notes, `list_notices`) ask for, and to confirm them once shown."""
    reply.lists.update({n.mentions[0]: n.id for n in notices if n.mentions})
    reply.notices += [n.id for n in notices if n.id is not None and n.id not in reply.notices]
    return reply


def _command_name(command: Awaitable[Reply]) -> str:
    """A command's name for the logs, from its coroutine's: `_act` is "act"."""
    return str(getattr(command, "__name__", "command")).strip("_")


def _both(first: Write | None, then: Write | None) -> Write | None:
    """Two sets of writes made one after the other in one transaction (either may be None)."""
    if first is None or then is None:
        return first or then
    assert first is not None and then is not None

    async def write(db: Sql) -> None:
        await first(db)
        await then(db)

    return write
