"""Moderators' commands on a table (force a pass, remove a player, pause and resume the clock,
stop or roll back a game, preview what a command would undo) and server managers' settings.

Every command goes through the command core (`bot.tables.core.Tables`) like any other: its lock,
its reads, a change committed with its announcements, and `guarded`."""

from __future__ import annotations

import re
from collections.abc import Awaitable
from typing import Any

from bot.core.durations import parse_reminders
from bot.core.i18n import _, current_language, ngettext, refusal_text
from bot.core.meta import WAITING
from bot.core.records import (
    ABORTED,
    DEADLINE,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    PLAYING,
    Settings,
    TableRecord,
    User,
)
from bot.core.refusals import MovedOn, Refused, duration
from bot.core.refusals import language as read_language
from bot.core.replies import Message, Reply, command_token, name_token
from bot.core.time_controls import PER_MOVE
from bot.core.typing_rules import echo
from bot.media.search import RATINGS
from bot.service.lobby import Lobby, absent_mode, time_control
from bot.storage.loader import new_game, replay
from bot.storage.store import PlaceTaken, StaleLog
from bot.tables.change import confirmed
from bot.tables.core import Tables, listing
from bot.tables.move_reply import addressed
from bot.words import narration
from bot.words.wording import logged_entry, named, settings_text
from engine import GAMES, Game, GameError


class Moderation:
    """Moderators' commands and server managers' settings."""

    def __init__(self, tables: Tables, lobby: Lobby) -> None:
        self.tables = tables
        self.lobby = lobby
        self.store = tables.store
        self.clock = tables.clock
        self.games = tables.games

    async def force_pass(self, place: str, user: User, target: str | None = None, *,
                         seen: int | None = None) -> Reply:
        """Apply the game's timeout actions for the seats it waits for (or one player's seat),
        and say which actions they were. `seen`: the log length the moderator was shown (by
        default, the one when the command arrives); refused if the game moved on since, so a
        command sent twice applies once."""
        arrived = await self._arrival(place, seen)
        return await self.tables.guarded(self._as_seen(self._force_pass(place, user, target, arrived), arrived),
                                         name="force_pass")

    async def _arrival(self, place: str, seen: int | None) -> int | None:
        """The log length a moderator's command is based on: `seen`, else the current one."""
        return await self.tables.log_length(place) if seen is None else seen

    async def _as_seen(self, command: Awaitable[Reply], seen: int | None) -> Reply:
        """Run a moderator's command based on `seen`; another process that changed the log
        first (the commit found it longer) makes it moved on, as if it had been seen first."""
        try:
            return await command
        except StaleLog as stale:
            if seen is None:
                raise
            raise _moved_on(stale.actual) from None

    async def _force_pass(self, place: str, user: User, target: str | None, seen: int | None) -> Reply:
        _moderator(user, _("force a pass"))
        async with self.tables.lock(place):
            table, game = await self.tables.playing(place)
            _still_as_seen(seen, len(game.log))
            seats = list(game.to_move())  # AI seats too: their planned move, if any, is then stale
            if target is not None:
                seat = table.seat_of(target)
                if seat is None or seat not in seats:
                    raise Refused(_("the game is not waiting for that player"))
                seats = [seat]
            if not seats:
                raise Refused(_("the game is not waiting for anyone"))
            change = await self.tables.change(table, game)
            done: list[tuple[int, list[str]]] = []
            for seat in seats:
                before = len(change.actions)
                change.time_out(seat, f"mod:{user.id}")
                done.append((seat, [a.action for a in change.actions[before:]]))
            return await self.tables.finish(change, headline="\n".join(
                _forced_line(name_token(user.name), name_token(table.seats[seat].name), actions, type(game))
                for seat, actions in done if actions))

    async def kick(self, place: str, user: User, target: str, *, seen: int | None = None) -> Reply:
        """Remove a player: from the lobby, or by resigning on their behalf. `seen` as for
        `force_pass`."""
        arrived = await self._arrival(place, seen)
        return await self.tables.guarded(self._as_seen(self._kick(place, user, target, arrived), arrived), name="kick")

    async def _kick(self, place: str, user: User, target: str, seen: int | None) -> Reply:
        _moderator(user, _("remove a player"))
        async with self.tables.lock(place):
            table = await self.tables.table(place)
            if table.status != LOBBY:
                _still_as_seen(seen, await self.store.log_length(table.id))
            seat = table.seat_of(target)
            if seat is None:
                raise Refused(_("that player is not seated at this table"))
            name = name_token(table.seats[seat].name)
            if table.status == LOBBY:
                table.unseat(seat)
                await confirmed(self.store.save_table(table))
                return self.lobby.lobby_reply(table, _("🛡️ {moderator} removed {player} from the table.").format(
                    moderator=name_token(user.name), player=name))
            table, game = await self.tables.playing(place)
            change = await self.tables.change(table, game)
            try:
                change.resign(seat, f"mod:{user.id}")
            except GameError as error:
                raise Refused(refusal_text(error)) from None
            return await self.tables.finish(change, headline=_("🛡️ {moderator} removed {player} from the game.").format(
                moderator=name_token(user.name), player=name))

    async def pause(self, place: str, user: User, *, seen: int | None = None) -> Reply:
        """Stop the turn clock. `seen` as for `force_pass`."""
        arrived = await self._arrival(place, seen)
        return await self.tables.guarded(self._as_seen(self._pause(place, user, arrived, paused=True), arrived),
                                         name="pause")

    async def resume(self, place: str, user: User, *, seen: int | None = None) -> Reply:
        """Restart the turn clock where it stopped. `seen` as for `force_pass`."""
        arrived = await self._arrival(place, seen)
        return await self.tables.guarded(self._as_seen(self._pause(place, user, arrived, paused=False), arrived),
                                         name="resume")

    async def _pause(self, place: str, user: User, seen: int | None, *, paused: bool) -> Reply:
        _moderator(user, _("pause or resume the clock"))
        async with self.tables.lock(place):
            table, game = await self.tables.playing(place)
            _still_as_seen(seen, len(game.log))
            if table.paused == paused:
                raise Refused(_("the clock is already paused") if paused else _("the clock is not paused"))
            timers = await self.tables.table_timers(table)
            change = await self.tables.change(table, game, timers)
            now = change.now
            if paused:
                left = {str(t.seat): max(0.0, t.due - now) for t in timers if t.kind == DEADLINE}
                table.meta["clock_left"] = left
                change.hold_clocks()  # a bank: what ran so far is taken from it now
                table.paused = True
                text = _("⏸️ {moderator} paused the clock.").format(moderator=name_token(user.name))
            else:
                left = table.meta.pop("clock_left", {})
                table.paused = False
                change.timers_before = []
                length = len(game.log)
                if change.bank is not None:  # each bank goes on from what it held when paused
                    change.release_clocks()
                else:
                    for seat in list(change.waiting):
                        remaining = left.get(str(seat), table.turn_seconds or 0)
                        change.waiting[seat] = (length, now - ((table.turn_seconds or 0) - remaining))
                text = _("▶️ {moderator} resumed the clock.").format(moderator=name_token(user.name))
            change.plan()
            lists = await self.tables.list_notices(table, game, sorted(change.waiting))
            await self.tables.commit(change, notices=lists)
            turn = narration.who_is_next(table, game, change.deadlines, change.on_vacation())
            reply = Reply(public=Message(named(f"{text}\n{turn}", table)),
                          table_id=table.id, place=place, ply=len(game.log), status=table.status)
            return addressed(listing(reply, lists), table, game)

    async def abort(self, place: str, user: User, *, seen: int | None = None) -> Reply:
        """End the table without a result. `seen` as for `force_pass`."""
        arrived = await self._arrival(place, seen)
        return await self.tables.guarded(self._as_seen(self._abort(place, user, arrived), arrived), name="abort")

    async def _abort(self, place: str, user: User, seen: int | None) -> Reply:
        _moderator(user, _("stop a game"))
        async with self.tables.lock(place):
            table = await self.tables.table(place)
            if table.status not in OPEN_STATUSES:
                raise Refused(_("this table is already closed"))
            length = await self.store.log_length(table.id)
            if table.status != LOBBY:
                _still_as_seen(seen, length)
            waited = [int(s) for s in table.meta.get(WAITING) or []] if table.status == PLAYING else []
            lists = await self.tables.list_notices(table, await self.games.get(table), waited) if waited else []
            table.status = ABORTED
            await confirmed(self.store.commit(table.id, expected=length, table=table, timers=[], notices=lists))
            self.games.forget(table.id)
            return listing(Reply(public=Message(_("⛔ {moderator} stopped the game. Nothing is scored.").format(
                moderator=name_token(user.name))), table_id=table.id, place=place, status=table.status), lists)

    async def preview(self, place: str, user: User, what: str, *, to: int | None = None,
                      target: str | None = None, reopen: bool = False) -> Reply:
        """What a moderator's `what` ("rollback", "abort", "kick", "resign") would undo or end, for
        the caller to confirm; `ply` in the reply is the log length it is based on. Refused, as
        the command itself would be, when it cannot be done."""
        return await self.tables.guarded(self._preview(place, user, what, to, target, reopen))

    async def _preview(self, place: str, user: User, what: str, to: int | None, target: str | None,
                       reopen: bool) -> Reply:
        table = await self.tables.table(place)
        length = await self.store.log_length(table.id) if table.status != LOBBY else 0
        if what == "resign":
            if table.seat_of(user.id) is None or table.status != PLAYING:
                raise Refused(_("you are not playing a game here"))
            text = _("Resign? You leave this game for good; it goes on without you (or ends).")
        elif what == "abort":
            _moderator(user, _("stop a game"))
            if table.status not in OPEN_STATUSES:
                raise Refused(_("this table is already closed"))
            text = _("Stop this {game} game? It ends at move {move} and nothing is scored.").format(
                game=GAMES[table.game].title, move=length)
        elif what == "kick":
            _moderator(user, _("remove a player"))
            seat = table.seat_of(target or "")
            if seat is None:
                raise Refused(_("that player is not seated at this table"))
            name = name_token(table.seats[seat].name)
            text = (_("Remove {player} from the table?") if table.status == LOBBY else
                    _("Remove {player} from the game? They resign and cannot come back.")).format(player=name)
        else:
            _moderator(user, _("roll a game back"))
            actions = await self.store.actions(table.id)
            _check_rollback(table, len(actions), to, reopen)
            assert to is not None
            undone = actions[to:]
            listed = ", ".join(logged_entry(a, table) for a in undone[:8])
            more = _(" and {count} more").format(count=len(undone) - 8) if len(undone) > 8 else ""
            text = ngettext("Roll back to move {move}? This undoes {count} move ({moves}).",
                            "Roll back to move {move}? This undoes {count} moves ({moves}).", len(undone)).format(
                move=to, count=len(undone), moves=listed + more)
            cls = GAMES[table.game]
            if cls.keeps_unseen_pieces():
                text += " " + _("Then {unseen} are shuffled again.").format(unseen=_(cls.piece_noun.unseen))
            if table.status == FINISHED:
                text += " " + _("The game is over: this reopens it.")
        return Reply(caller=Message(text), table_id=table.id, place=place, ply=length, status=table.status)

    async def rollback(self, place: str, user: User, to: int, *, reopen: bool = False,
                       seen: int | None = None) -> Reply:
        """Take the game back to how it was after move `to`, by replaying the log up to there;
        everything no seat has seen is then dealt again. A finished game is reopened only if
        `reopen`. `seen`: the log length the moderator confirmed at."""
        return await self.tables.guarded(self._as_seen(self._rollback(place, user, to, reopen, seen), seen),
                                         name="rollback")

    async def _rollback(self, place: str, user: User, to: int, reopen: bool, seen: int | None) -> Reply:
        _moderator(user, _("roll a game back"))
        async with self.tables.lock(place):
            table = await self.tables.table(place)
            actions = await self.store.actions(table.id)
            _check_rollback(table, len(actions), to, reopen)
            _still_as_seen(seen, len(actions))
            reopened = table.status == FINISHED
            game = new_game(table)
            replay(game, actions[:to])
            del table.seats[game.players:]  # players who joined after move `to` are gone with it
            table.status = PLAYING
            change = await self.tables.change(table, game, beginning=True)
            change.banks_at(to)  # the banks as they were at move `to`
            change.began_by = user.id
            change.reshuffle(self.lobby.seeds(), f"mod:{user.id}")
            self.games.forget(table.id)
            self.games.snapshot_rolled_back(table.id, to)
            headline = _("⏪ {moderator} rolled the game back to move {move}.").format(
                moderator=name_token(user.name), move=to)
            try:
                return await self.tables.finish(change, undo_after=to, expected=len(actions), headline=headline,
                                                 also=self.tables.ratings.taking_back(table.id) if reopened else None)
            except PlaceTaken:  # a new table opened here after this game ended, while the rollback was on its way
                raise Refused(_("this game cannot be reopened: a new table was opened here since it ended, and a "
                                "place holds one open table at a time")) from None

    async def settings(self, guild: str) -> Settings:
        return await self.store.settings(guild)

    async def update_settings(self, guild: str, user: User, *, turn_time: str | None = None,
                              reminders: str | None = None, moderator_role: str | None = None,
                              allowed_games: str | None = None, media_rating: str | None = None,
                              event_reactions: bool | None = None, language: str | None = None,
                              clock: str | None = None, vacation_days: str | None = None,
                              absent: str | None = None) -> Reply:
        """Change a server's defaults (server managers only); anything not given stays as it is.
        `language` "" forgets the server's language (each table then speaks its opener's). `clock`:
        new tables' time control (`clock=` of `/tileref new`; `move` goes back to a fixed time per
        turn); `vacation_days`: each player's vacation days a year; `absent`: what a missed deadline
        does at new tables of three or more seats."""
        return await self.tables.guarded(self._update_settings(
            guild, user, turn_time, reminders, moderator_role, allowed_games, media_rating, event_reactions, language,
            clock, vacation_days, absent))

    async def _update_settings(self, guild: str, user: User, turn_time: str | None, reminders: str | None,
                               moderator_role: str | None, allowed_games: str | None, media_rating: str | None,
                               event_reactions: bool | None, language: str | None, clock: str | None = None,
                               vacation_days: str | None = None, absent: str | None = None) -> Reply:
        if not user.manager:
            raise Refused(_("only people who may manage this server can change its settings"))
        changes: dict[str, Any] = {}
        if clock is not None:
            control = time_control(clock)
            changes["clock"] = None if control.kind == PER_MOVE and control.turn_seconds is None else clock.strip()
            if control.kind == PER_MOVE and control.turn_seconds is not None:  # `clock=12h`: the turn time
                changes["clock"] = None
                changes["turn_seconds"] = control.turn_seconds
                changes["turn_seconds_set"] = True
        if vacation_days is not None:
            days = vacation_days.strip()
            if not days.isascii() or not days.isdigit() or int(days) > 366:
                raise Refused(_("`vacation_days` is each player's vacation days a year here, a whole number from 0 "
                                "to 366, like 21; not '{value}'").format(value=echo(vacation_days)))
            changes["vacation_days"] = int(days)
        if absent is not None:
            changes["absent"] = absent_mode(absent)
        if language is not None:
            changes["language"] = read_language(language) if language else None
        if media_rating is not None:
            rating = media_rating.strip().lower()
            if rating not in RATINGS:
                raise Refused(_("the rating is one of {ratings}, not '{value}'").format(
                    ratings=", ".join(RATINGS), value=echo(media_rating)))
            changes["media_rating"] = rating
        if event_reactions is not None:
            changes["event_reactions"] = event_reactions
        if turn_time is not None:
            changes["turn_seconds"] = duration(turn_time)
            changes["turn_seconds_set"] = True
        if reminders is not None:
            try:
                changes["reminders"] = parse_reminders(reminders)
            except ValueError as error:
                raise Refused(str(error)) from None
        if moderator_role is not None:
            changes["moderator_role"] = moderator_role or None
        if allowed_games is not None:
            names = [g.strip().lower() for g in re.split(r"[,\s]+", allowed_games) if g.strip()]
            if names in ([], ["all"]):
                changes["allowed_games"] = None
            else:
                unknown = [n for n in names if n not in GAMES]
                if unknown:
                    raise Refused(_("unknown game {names}; games: {games}").format(
                        names=echo(", ".join(unknown)), games=", ".join(sorted(GAMES))))
                changes["allowed_games"] = names

        def change(settings: Settings) -> None:
            for key, value in changes.items():
                setattr(settings, key, value)

        settings = await self.store.update_settings(guild, change)
        return Reply(caller=Message(settings_text(settings)))


def _moderator(user: User, what: str) -> None:
    """Refused unless `user` is a moderator here; `what` says what only moderators can do."""
    if not user.moderator:
        raise Refused(_("only moderators can {what}").format(what=what))


def _still_as_seen(seen: int | None, length: int) -> None:
    """Refused if the log is no longer `seen` moves long (someone acted since the moderator
    looked: another moderator, the same command sent twice, the clock, a player)."""
    if seen is not None and seen != length:
        raise _moved_on(length)


def _moved_on(length: int) -> MovedOn:
    return MovedOn(_("the game moved on since you looked (it is now move {move}); look at {board} and send the "
                     "command again if it still stands").format(move=length, board=command_token("board")), length)


def _forced_line(moderator: str, player: str, actions: list[str], game: type[Game]) -> str:
    """What a moderator's forced pass really did for one player: a pass (after any draws), or
    whatever else the game's rules make a missed turn do. The canonical `actions` are written in
    the notation of the language being spoken, as the history writes them."""
    language = current_language()
    listed = narration.join([f"`{game.spoken(a, language)}`" for a in actions])
    if actions and all(a.split()[0] in ("draw", "pass", "skip") for a in actions):
        return _("🛡️ {moderator} forced a pass for {player} ({actions}).").format(
            moderator=moderator, player=player, actions=listed)
    return _("🛡️ {moderator} played {actions} for {player}: that is what a missed turn does in {game}.").format(
        moderator=moderator, player=player, actions=listed, game=game.title)


def _check_rollback(table: TableRecord, length: int, to: int | None, reopen: bool) -> None:
    """Refused unless the table's game, `length` moves long, can go back to move `to` (a finished
    game only if `reopen`)."""
    if table.status in (LOBBY, ABORTED):
        raise Refused(_("only a started game can be rolled back"))
    if table.status == FINISHED and not reopen:
        raise Refused(_("this game is over; roll it back with reopen to play on from there"))
    if to is None or not 0 <= to < length:
        raise Refused(_("choose a move from 0 to {last}; the game is at move {move}").format(
            last=length - 1, move=length))
