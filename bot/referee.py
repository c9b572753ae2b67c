"""The referee: tables, seats, lifecycle, clocks and moderation, for any transport.

Every command names the place its table is bound to (`discord:<thread id>`, `console:<n>`) and
the `User` issuing it, and returns a `Reply`. Commands on one table run one at a time (a lock per
table); a command's changes are committed to the store before its reply is returned. Nothing
here is specific to one game or one transport.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import renderers
from bot import narration
from bot.loader import GameLoader, new_game, replay
from bot.records import (
    ABORTED,
    DEADLINE,
    LOBBY,
    OPEN_STATUSES,
    PLAYING,
    REMINDER,
    SeatRecord,
    Settings,
    TableRecord,
    Timer,
    User,
)
from bot.replies import Attachment, Message, Reply, mention, refusal
from bot.store import StaleLog, Store
from bot.timers import Clock, SystemClock, TimerDispatcher, format_duration, parse_duration, parse_reminders
from bot.turns import Turn
from engine import GAMES, Game, GameError, NotationError
from engine.ai import AGENTS

log = logging.getLogger(__name__)

BOT_NAMES = ["Pip", "Dot", "Bones", "Tilly", "Domi", "Rook", "Nib", "Cubby"]
HISTORY_PAGE = 25


class Refused(Exception):
    """A command that cannot be carried out; the message is for the caller."""


def parse_options(text: str | dict[str, str] | None) -> dict[str, str]:
    """`"ouroboros=off, foo=1"` -> {"ouroboros": "off", "foo": "1"}."""
    if text is None:
        return {}
    if isinstance(text, dict):
        return {str(k): str(v) for k, v in text.items()}
    options = {}
    for part in re.split(r"[,;\s]+", text.strip()):
        if not part:
            continue
        if "=" not in part:
            raise Refused(f"options are written key=value, like `ouroboros=off`; '{part}' has no '='")
        key, value = part.split("=", 1)
        options[key.strip()] = value.strip()
    return options


class Referee:
    """The referee service. `notify` receives the replies nobody asked for: timeouts and
    reminders fired by the clock. `seeds` draws each new game's seed (a secure random number
    unless a test fixes it)."""

    def __init__(self, store: Store, *, clock: Clock | None = None, render: bool = True,
                 notify: Callable[[Reply], Awaitable[None]] | None = None, snapshot_every: int = 50,
                 cache_size: int = 512, seeds: Callable[[], int] | None = None) -> None:
        self.store = store
        self.seeds = seeds or (lambda: secrets.randbits(62))
        self.clock: Clock = clock or SystemClock()
        self.render_images = render
        self.notify = notify
        self.games = GameLoader(store, capacity=cache_size, snapshot_every=snapshot_every)
        self.timers = TimerDispatcher(store, self.clock, self._on_timer)
        self._locks: dict[str, asyncio.Lock] = {}

    async def open(self) -> None:
        """Start firing timers (those saved before a restart included)."""
        self.timers.start()

    async def close(self) -> None:
        await self.timers.stop()

    def _lock(self, place: str) -> asyncio.Lock:
        """One lock per place: commands on a table run one at a time."""
        return self._locks.setdefault(place, asyncio.Lock())

    # =========================================================================================
    # the lobby

    async def create(self, place: str, user: User, game: str, *, options: str | dict[str, str] | None = None,
                     turn_time: str | None = None, guild: str | None = None, seat_creator: bool = True) -> Reply:
        """Open a table in the lobby at `place`, with its creator seated (unless `seat_creator`
        is False: then everyone, the creator included, joins in the order they should sit)."""
        return await self._guarded(self._create(place, user, game, options, turn_time, guild, seat_creator))

    async def check_new(self, game: str, *, options: str | dict[str, str] | None = None,
                        turn_time: str | None = None, guild: str | None = None) -> str | None:
        """Why `create` would refuse a table of this game with these settings (before the place
        exists: a transport asks first so it makes no thread for a table that cannot open)."""
        try:
            await self._vetted(game, options, turn_time, guild)
        except Refused as refused:
            return str(refused)
        return None

    async def _vetted(self, game: str, options: Any, turn_time: str | None,
                      guild: str | None) -> tuple[str, dict[str, str], int | None]:
        """The game's name, its options and the turn time in seconds, checked."""
        name = game.strip().lower()
        if name not in GAMES:
            raise Refused(f"there is no game called '{game}'; choose one of {', '.join(sorted(GAMES))}")
        settings = await self.store.settings(guild) if guild else None
        if settings and settings.allowed_games and name not in settings.allowed_games:
            raise Refused(f"this server allows {', '.join(settings.allowed_games)} only")
        parsed = parse_options(options)
        try:
            GAMES[name].Options.parse(parsed)
        except GameError as error:
            raise Refused(str(error)) from None
        turn_seconds = settings.turn_seconds if settings else None
        if turn_time is not None:
            turn_seconds = _duration(turn_time)
        return name, parsed, turn_seconds

    async def _create(self, place: str, user: User, game: str, options: Any, turn_time: str | None,
                      guild: str | None, seat_creator: bool) -> Reply:
        name, parsed, turn_seconds = await self._vetted(game, options, turn_time, guild)
        existing = await self.store.table_at(place)
        if existing and existing.status in OPEN_STATUSES:
            raise Refused(f"there is already a {GAMES[existing.game].title} table here ({existing.status})")
        table = TableRecord(id=0, place=place, game=name, options=parsed, status=LOBBY, created_by=user.id,
                            created_at=self.clock.now(), guild=guild, turn_seconds=turn_seconds,
                            seats=[SeatRecord(0, user.name, user.id)] if seat_creator else [])
        await self.store.create_table(table)
        return self._lobby_reply(table, f"🎲 {user.name} opened a {GAMES[name].title} table.")

    async def join(self, place: str, user: User) -> Reply:
        return await self._guarded(self._lobby_change(place, user, "join"))

    async def leave(self, place: str, user: User) -> Reply:
        return await self._guarded(self._lobby_change(place, user, "leave"))

    async def add_ai(self, place: str, user: User, kind: str = "greedy") -> Reply:
        """Seat an AI player ("greedy" or "random")."""
        return await self._guarded(self._lobby_change(place, user, "ai", kind))

    async def _lobby_change(self, place: str, user: User, what: str, kind: str = "") -> Reply:
        async with self._lock(place):
            table = await self._table(place)
            if table.status != LOBBY:
                raise Refused("the game has already started" if table.status == PLAYING else "this table is closed")
            cls = GAMES[table.game]
            seat = table.seat_of(user.id)
            if what == "join":
                if seat is not None:
                    raise Refused("you are already seated at this table")
                if len(table.seats) >= cls.max_players:
                    raise Refused(f"the table is full ({cls.max_players} players)")
                table.seats.append(SeatRecord(len(table.seats), user.name, user.id))
                headline = f"👋 {user.name} joined."
            elif what == "leave":
                if seat is None:
                    raise Refused("you are not seated at this table")
                table.unseat(seat)
                if not any(s.user_id for s in table.seats):
                    table.status = ABORTED
                    await self.store.save_table(table)
                    return Reply(public=Message(f"👋 {user.name} left; nobody is left, so the table is closed."),
                                 table_id=table.id, place=place, status=table.status)
                headline = f"👋 {user.name} left."
            else:
                if seat is None and not user.moderator and user.id != table.created_by:
                    raise Refused("only players at this table can add an AI player")
                if kind not in AGENTS and kind not in ("bot", "ai"):
                    raise Refused(f"there is no AI called '{kind}'; choose one of {', '.join(AGENTS)}")
                if len(table.seats) >= cls.max_players:
                    raise Refused(f"the table is full ({cls.max_players} players)")
                agent = "greedy" if kind in ("bot", "ai") else kind
                taken = {s.name for s in table.seats}
                bot_name = next((f"{n} (bot)" for n in BOT_NAMES if f"{n} (bot)" not in taken),
                                f"Bot {len(table.seats) + 1}")
                table.seats.append(SeatRecord(len(table.seats), bot_name, None, agent))
                headline = f"🤖 {bot_name} ({agent} AI) sits down."
            await self.store.save_table(table)
            return self._lobby_reply(table, headline)

    def _lobby_reply(self, table: TableRecord, headline: str) -> Reply:
        return Reply(public=Message(f"{headline}\n{lobby_text(table)}"), table_id=table.id, place=table.place,
                     status=table.status)

    async def start(self, place: str, user: User) -> Reply:
        """Start the game: draw and record the seed, deal, and play any AI seats' first moves."""
        return await self._guarded(self._start(place, user))

    async def _start(self, place: str, user: User) -> Reply:
        async with self._lock(place):
            table = await self._table(place)
            if table.status != LOBBY:
                raise Refused("the game has already started" if table.status == PLAYING else "this table is closed")
            if user.id != table.created_by and not user.moderator and table.seat_of(user.id) is None:
                raise Refused("only the players at this table can start it")
            cls = GAMES[table.game]
            if len(table.seats) < cls.min_players:
                raise Refused(f"{cls.title} needs at least {cls.min_players} players; {len(table.seats)} seated")
            table.seed = self.seeds()
            table.status = PLAYING
            game = new_game(table)
            turn = await self._turn(table, game)
            turn.events += game.opening
            seated = ", ".join(s.name for s in table.seats)
            return await self._finish(turn, headline=f"🎲 {cls.title} begins: {seated}.")

    # =========================================================================================
    # playing

    async def act(self, place: str, user: User, text: str, *, seen: int | None = None) -> Reply:
        """Play any move text for the caller's seat. `seen` is the log length the caller saw; if
        the game has moved on since, the move is refused and the current board shown."""
        return await self._guarded(self._act(place, user, text, seen))

    async def _act(self, place: str, user: User, text: str, seen: int | None) -> Reply:
        async with self._lock(place):
            table, game, seat = await self._playing_seat(place, user)
            if seen is not None and seen != len(game.log):
                board = await self._board_attachments(game)
                return refusal(f"the board changed since you looked (it is now move {len(game.log)}); "
                               f"here is the current board. Send your move again if it still stands.",
                               table_id=table.id, place=place, attachments=board)
            turn = await self._turn(table, game)
            try:
                turn.apply(seat, text, user.id)
            except GameError as error:
                reply = refusal(str(error), table_id=table.id, place=place)
                reply.unreadable = isinstance(error, NotationError)
                return reply
            return await self._finish(turn)

    async def resign(self, place: str, user: User) -> Reply:
        return await self._guarded(self._resign(place, user))

    async def _resign(self, place: str, user: User) -> Reply:
        async with self._lock(place):
            table, game, seat = await self._playing_seat(place, user)
            turn = await self._turn(table, game)
            try:
                turn.resign(seat, user.id)
            except GameError as error:
                return refusal(str(error), table_id=table.id, place=place)
            return await self._finish(turn)

    async def hand(self, place: str, user: User) -> Reply:
        """The caller's hand, as text and a picture, for the caller alone."""
        return await self._guarded(self._hand(place, user))

    async def _hand(self, place: str, user: User) -> Reply:
        async with self._lock(place):
            table = await self._table(place)
            seat = table.seat_of(user.id)
            if seat is None:
                raise Refused("you are not playing at this table, so you have no hand here")
            if table.status == LOBBY:
                raise Refused("the game has not started yet")
            game = await self.games.get(table)
            return Reply(caller=await self._hand_message(game, seat), table_id=table.id, place=place,
                         ply=len(game.log), status=table.status)

    async def board(self, place: str, user: User | None = None) -> Reply:
        """The board as everyone sees it, with whose turn it is."""
        return await self._guarded(self._board(place))

    async def _board(self, place: str) -> Reply:
        async with self._lock(place):
            table = await self._table(place)
            if table.status == LOBBY:
                return Reply(caller=Message(lobby_text(table)), table_id=table.id, place=place, status=table.status)
            game = await self.games.get(table)
            text = narration.who_is_next(table, game, await self._deadlines(table), self.clock.now())
            if table.status == ABORTED:
                text = "⛔ This game was stopped by a moderator."
            return Reply(public=Message(text, await self._board_attachments(game)), table_id=table.id,
                         place=place, mentions=self._waiting_users(table, game), ply=len(game.log),
                         status=table.status)

    async def history(self, place: str, user: User | None = None, *, page: int = 1) -> Reply:
        """The log in notation, with who and when, newest last, 25 moves a page."""
        return await self._guarded(self._history(place, page))

    async def _history(self, place: str, page: int) -> Reply:
        table = await self._table(place)
        actions = await self.store.actions(table.id)
        if not actions:
            return Reply(caller=Message("No moves yet."), table_id=table.id, place=place)
        pages = (len(actions) + HISTORY_PAGE - 1) // HISTORY_PAGE
        page = max(1, min(page, pages))
        end = len(actions) - (page - 1) * HISTORY_PAGE
        shown = actions[max(0, end - HISTORY_PAGE):end]
        now = self.clock.now()
        lines = [f"**Moves {shown[0].ply}–{shown[-1].ply} of {len(actions)}** (page {page} of {pages})"]
        for record in shown:
            who = table.seats[record.seat].name
            by = _actor_note(record.actor, table)
            lines.append(f"`{record.ply:>3}` {who}: `{record.action}`{by} · {format_duration(now - record.at)} ago")
        if page < pages:
            lines.append(f"Older moves: history page {page + 1}.")
        return Reply(caller=Message("\n".join(lines)), table_id=table.id, place=place)

    async def status(self, place: str) -> TableRecord | None:
        """The table at a place, if any (for transports: lobby buttons, who is seated)."""
        return await self.store.table_at(place)

    async def view(self, place: str) -> tuple[TableRecord, Game] | None:
        """The table and its game as last committed (for transports that draw their own board)."""
        table = await self.store.table_at(place)
        if table is None or table.status == LOBBY:
            return None
        return table, await self.games.get(table)

    async def suggestions(self, place: str, user: User, typed: str = "", limit: int = 25) -> list[str]:
        """Legal moves for the caller that start with (or contain) what they typed."""
        table = await self.store.table_at(place)
        if table is None or table.status != PLAYING or table.seat_of(user.id) is None:
            return []
        game = await self.games.get(table)
        seat = table.seat_of(user.id)
        assert seat is not None
        actions = game.legal_actions(seat)
        wanted = " ".join(typed.lower().split())
        starts = [a for a in actions if a.startswith(wanted)]
        contains = [a for a in actions if wanted in a and a not in starts]
        return (starts + contains)[:limit]

    # =========================================================================================
    # moderators

    async def force_pass(self, place: str, user: User, target: str | None = None) -> Reply:
        """Apply the game's timeout actions for the seats it waits for (or one player's seat)."""
        return await self._guarded(self._force_pass(place, user, target))

    async def _force_pass(self, place: str, user: User, target: str | None) -> Reply:
        self._moderator(user, "force a pass")
        async with self._lock(place):
            table, game = await self._playing(place)
            seats = [s for s in game.to_move() if not table.seats[s].is_ai]
            if target is not None:
                seat = table.seat_of(target)
                if seat is None or seat not in seats:
                    raise Refused("the game is not waiting for that player")
                seats = [seat]
            if not seats:
                raise Refused("the game is not waiting for anyone")
            turn = await self._turn(table, game)
            names = [table.seats[s].name for s in seats]
            for seat in seats:
                turn.time_out(seat, f"mod:{user.id}")
            return await self._finish(turn, headline=f"🛡️ {user.name} forced a pass for {', '.join(names)}.")

    async def kick(self, place: str, user: User, target: str) -> Reply:
        """Remove a player: from the lobby, or by resigning on their behalf."""
        return await self._guarded(self._kick(place, user, target))

    async def _kick(self, place: str, user: User, target: str) -> Reply:
        self._moderator(user, "remove a player")
        async with self._lock(place):
            table = await self._table(place)
            seat = table.seat_of(target)
            if seat is None:
                raise Refused("that player is not seated at this table")
            name = table.seats[seat].name
            if table.status == LOBBY:
                table.unseat(seat)
                await self.store.save_table(table)
                return self._lobby_reply(table, f"🛡️ {user.name} removed {name} from the table.")
            table, game = await self._playing(place)
            turn = await self._turn(table, game)
            try:
                turn.resign(seat, f"mod:{user.id}")
            except GameError as error:
                raise Refused(str(error)) from None
            return await self._finish(turn, headline=f"🛡️ {user.name} removed {name} from the game.")

    async def pause(self, place: str, user: User) -> Reply:
        return await self._guarded(self._pause(place, user, paused=True))

    async def resume(self, place: str, user: User) -> Reply:
        return await self._guarded(self._pause(place, user, paused=False))

    async def _pause(self, place: str, user: User, *, paused: bool) -> Reply:
        self._moderator(user, "pause or resume the clock")
        async with self._lock(place):
            table, game = await self._playing(place)
            if table.paused == paused:
                raise Refused("the clock is already paused" if paused else "the clock is not paused")
            now = self.clock.now()
            timers = await self.store.timers(table.id)
            turn = Turn(self.store, table, game, timers, now, await self._reminders(table))
            if paused:
                left = {str(t.seat): max(0.0, t.due - now) for t in timers if t.kind == DEADLINE}
                table.meta["clock_left"] = left
                table.paused = True
                text = f"⏸️ {user.name} paused the clock."
            else:
                left = table.meta.pop("clock_left", {})
                table.paused = False
                turn.timers_before = []
                length = len(game.log)
                for seat in list(turn.waiting):
                    remaining = left.get(str(seat), table.turn_seconds or 0)
                    turn.waiting[seat] = (length, now - ((table.turn_seconds or 0) - remaining))
                text = f"▶️ {user.name} resumed the clock."
            await self._commit(turn)
            return Reply(public=Message(f"{text}\n{narration.who_is_next(table, game, turn.deadlines, now)}"),
                         table_id=table.id, place=place, ply=len(game.log), status=table.status)

    async def abort(self, place: str, user: User) -> Reply:
        """End the table without a result."""
        return await self._guarded(self._abort(place, user))

    async def _abort(self, place: str, user: User) -> Reply:
        self._moderator(user, "stop a game")
        async with self._lock(place):
            table = await self._table(place)
            if table.status not in OPEN_STATUSES:
                raise Refused("this table is already closed")
            table.status = ABORTED
            await self.store.commit(table.id, expected=await self.store.log_length(table.id), table=table,
                                    timers=[])
            self.games.forget(table.id)
            return Reply(public=Message(f"⛔ {user.name} stopped the game. Nothing is scored."),
                         table_id=table.id, place=place, status=table.status)

    async def rollback(self, place: str, user: User, to: int) -> Reply:
        """Take the game back to how it was after move `to`, by replaying the log up to there."""
        return await self._guarded(self._rollback(place, user, to))

    async def _rollback(self, place: str, user: User, to: int) -> Reply:
        self._moderator(user, "roll a game back")
        async with self._lock(place):
            table = await self._table(place)
            if table.status == LOBBY or table.status == ABORTED:
                raise Refused("only a started game can be rolled back")
            actions = await self.store.actions(table.id)
            if not 0 <= to < len(actions):
                raise Refused(f"choose a move from 0 to {len(actions) - 1}; the game is at move {len(actions)}")
            game = new_game(table)
            replay(game, actions[:to])
            table.status = PLAYING
            turn = Turn(self.store, table, game, [], self.clock.now(), await self._reminders(table))
            self.games.forget(table.id)
            self.games.snapshot_rolled_back(table.id, to)
            return await self._finish(turn, undo_after=to, expected=len(actions),
                                      headline=f"⏪ {user.name} rolled the game back to move {to}.")

    async def settings(self, guild: str) -> Settings:
        return await self.store.settings(guild)

    async def update_settings(self, guild: str, user: User, *, turn_time: str | None = None,
                              reminders: str | None = None, moderator_role: str | None = None,
                              allowed_games: str | None = None) -> Reply:
        """Change a server's defaults (moderators only); anything not given stays as it is."""
        return await self._guarded(self._update_settings(guild, user, turn_time, reminders, moderator_role,
                                                         allowed_games))

    async def _update_settings(self, guild: str, user: User, turn_time: str | None, reminders: str | None,
                               moderator_role: str | None, allowed_games: str | None) -> Reply:
        self._moderator(user, "change the server's settings")
        settings = await self.store.settings(guild)
        if turn_time is not None:
            settings.turn_seconds = _duration(turn_time)
        if reminders is not None:
            try:
                settings.reminders = parse_reminders(reminders)
            except ValueError as error:
                raise Refused(str(error)) from None
        if moderator_role is not None:
            settings.moderator_role = moderator_role or None
        if allowed_games is not None:
            names = [g.strip().lower() for g in re.split(r"[,\s]+", allowed_games) if g.strip()]
            if names in ([], ["all"]):
                settings.allowed_games = None
            else:
                unknown = [n for n in names if n not in GAMES]
                if unknown:
                    raise Refused(f"unknown game {', '.join(unknown)}; games: {', '.join(sorted(GAMES))}")
                settings.allowed_games = names
        await self.store.save_settings(settings)
        return Reply(caller=Message(settings_text(settings)))

    # =========================================================================================
    # the clock

    async def _on_timer(self, timer: Timer) -> None:
        assert timer.id is not None
        table = await self.store.get_table(timer.table_id)
        if table is None or table.status != PLAYING or table.paused:
            await self.store.delete_timer(timer.id)
            return
        async with self._lock(table.place):
            table, game = await self._playing(table.place)
            current = await self.store.timers(table.id)
            if timer.id not in {t.id for t in current}:
                return
            if timer.seat not in game.to_move():
                await self.store.delete_timer(timer.id)
                return
            seat = table.seats[timer.seat]
            who = mention(seat.user_id, seat.name) if seat.user_id else seat.name
            if timer.kind == REMINDER:
                await self.store.delete_timer(timer.id)
                deadline = next((t.due for t in current if t.kind == DEADLINE and t.seat == timer.seat), None)
                if deadline is None or deadline <= self.clock.now():
                    return
                left = format_duration(deadline - self.clock.now())
                reply = Reply(public=Message(f"⏰ {who}, {left} left to move."), table_id=table.id,
                              place=table.place, mentions=[seat.user_id] if seat.user_id else [],
                              ply=len(game.log), status=table.status)
            else:
                turn = await self._turn(table, game)
                turn.time_out(timer.seat, "clock")
                reply = await self._finish(turn, headline=f"⏰ {seat.name} ran out of time.")
        await self._notify(reply)

    async def _notify(self, reply: Reply) -> None:
        if self.notify is None:
            log.info("unsent notice for %s: %s", reply.place, reply.public.text if reply.public else "")
            return
        try:
            await self.notify(reply)
        except Exception:
            log.exception("delivering a notice for %s failed", reply.place)

    # =========================================================================================
    # helpers

    async def _guarded(self, command: Awaitable[Reply]) -> Reply:
        """Run a command; a refusal becomes a reply for the caller, and an unexpected error is
        logged and reported without details (nothing was committed)."""
        try:
            return await command
        except Refused as refused:
            return refusal(str(refused))
        except StaleLog:
            return refusal("the game changed while your command was being handled; please try again")
        except Exception:
            log.exception("command failed")
            return refusal("something went wrong on our side and nothing was changed; please try again, and "
                           "tell a moderator if it keeps happening")

    async def _table(self, place: str) -> TableRecord:
        table = await self.store.table_at(place)
        if table is None:
            raise Refused("there is no game here; start one first")
        return table

    async def _playing(self, place: str) -> tuple[TableRecord, Game]:
        table = await self._table(place)
        if table.status == LOBBY:
            raise Refused("the game has not started yet")
        if table.status != PLAYING:
            raise Refused("this game is over" if table.status != ABORTED else "this game was stopped")
        return table, await self.games.get(table)

    async def _playing_seat(self, place: str, user: User) -> tuple[TableRecord, Game, int]:
        table = await self._table(place)
        seat = table.seat_of(user.id)
        if seat is None:
            raise Refused("you are not playing at this table")
        table, game = await self._playing(place)
        return table, game, seat

    @staticmethod
    def _moderator(user: User, what: str) -> None:
        if not user.moderator:
            raise Refused(f"only moderators can {what}")

    async def _reminders(self, table: TableRecord) -> list[str]:
        if table.guild is None:
            return list(Settings("").reminders)
        return (await self.store.settings(table.guild)).reminders

    async def _turn(self, table: TableRecord, game: Game) -> Turn:
        return Turn(self.store, table, game, await self.store.timers(table.id), self.clock.now(),
                    await self._reminders(table))

    async def _commit(self, turn: Turn, *, undo_after: int | None = None, expected: int | None = None) -> None:
        try:
            timers = await turn.commit(undo_after=undo_after, expected=expected)
        except BaseException:
            self.games.forget(turn.table.id)
            raise
        self.games.remember(turn.table.id, turn.game)
        if timers:
            self.timers.wake()
        await self.games.maybe_snapshot(turn.table.id, turn.game)

    async def _deadlines(self, table: TableRecord) -> dict[int, float]:
        return {t.seat: t.due for t in await self.store.timers(table.id) if t.kind == DEADLINE}

    @staticmethod
    def _waiting_users(table: TableRecord, game: Game) -> list[str]:
        return [u for s in game.to_move() if (u := table.seats[s].user_id)]

    async def _finish(self, turn: Turn, *, headline: str = "", undo_after: int | None = None,
                      expected: int | None = None) -> Reply:
        """Let AI seats move, commit everything, and tell the table what happened."""
        turn.play_ai()
        await self._commit(turn, undo_after=undo_after, expected=expected)
        return await self._move_reply(turn, headline=headline)

    async def _move_reply(self, turn: Turn, *, headline: str = "") -> Reply:
        table, game = turn.table, turn.game
        parts = [headline, narration.what_happened(turn.events),
                 narration.who_is_next(table, game, turn.deadlines, self.clock.now())]
        private: dict[int, Message] = {}
        for event in turn.events:
            if event.to is not None and not table.seats[event.to].is_ai:
                message = private.setdefault(event.to, Message())
                message.text = f"{message.text}\n{event.text}".strip()
        return Reply(public=Message("\n".join(p for p in parts if p), await self._board_attachments(game)),
                     private=private, events=list(turn.events), table_id=table.id, place=table.place,
                     mentions=self._waiting_users(table, game), ply=len(game.log), status=table.status)

    async def _board_attachments(self, game: Game) -> list[Attachment]:
        if not self.render_images or game.name not in renderers.RENDERERS:
            return []
        data = renderers.render(game)
        return [Attachment(f"{game.name}-move-{len(game.log)}.png", data, "the board")]

    async def _hand_message(self, game: Game, seat: int) -> Message:
        view = game.view(seat)
        tiles = view.get("hand", [])
        playable = set(view.get("playable", []))
        if tiles:
            listed = ", ".join(f"**{t}**" if t in playable else t for t in tiles)
            text = f"Your hand ({len(tiles)}): {listed}"
            if playable:
                text += "\nBold tiles can be laid now."
        else:
            text = "Your hand is empty."
        attachments = []
        if self.render_images and game.name in renderers.RENDERERS:
            attachments.append(Attachment(f"{game.name}-hand.png", renderers.render_hand(game, seat), "your hand"))
        return Message(text, attachments)


def lobby_text(table: TableRecord) -> str:
    cls = GAMES[table.game]
    players = ", ".join(s.name for s in table.seats) or "nobody yet"
    clock = f"{format_duration(table.turn_seconds)} per turn" if table.turn_seconds else "no turn clock"
    options = ", ".join(f"{k}={v}" for k, v in table.options.items())
    lines = [f"**{cls.title}** · players ({len(table.seats)}/{cls.max_players}): {players}",
             f"{clock}{' · ' + options if options else ''}"]
    if table.status == LOBBY:
        need = cls.min_players - len(table.seats)
        lines.append(f"Join to play; start when everyone is in{f' (at least {need} more needed)' if need > 0 else ''}.")
    return "\n".join(lines)


def settings_text(settings: Settings) -> str:
    clock = format_duration(settings.turn_seconds) if settings.turn_seconds else "off"
    games = ", ".join(settings.allowed_games) if settings.allowed_games else "all"
    return (f"Server settings: turn time {clock} · reminders {', '.join(settings.reminders) or 'off'} before the "
            f"deadline · moderator role {settings.moderator_role or 'none (Manage Threads permission)'} · "
            f"games: {games}")


def _duration(text: str) -> int | None:
    try:
        return parse_duration(text)
    except ValueError as error:
        raise Refused(str(error)) from None


def _actor_note(actor: str, table: TableRecord) -> str:
    if actor == "clock":
        return " (out of time)"
    if actor.startswith("mod:"):
        return " (by a moderator)"
    return ""

