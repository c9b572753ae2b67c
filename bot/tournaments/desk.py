"""The tournament commands, each answered with a `Reply` (a refusal says what to type instead and
changes nothing): `new`, `sign_up` (the announcement's button), `withdraw`, `check_in`, the
moderators' `pause`, `resume`, `remove`, `repair` and `end`, `standings` and `listed`.

What happens on its own afterwards (the start, every round, the results) is the runner's
(`bot.tournaments.runner`): a command changes the stored tournament and wakes it."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from bot.community.ratings import LOCAL
from bot.core.i18n import LANGUAGES, _, current_language, speak
from bot.core.records import PLAYING, User
from bot.core.refusals import Refused, duration
from bot.core.replies import Message, Reply, clean_name, deadline_token, name_token
from bot.core.typing_rules import echo
from bot.service.lobby import time_control
from bot.service.referee import Referee
from bot.storage.tournaments import (
    CANCELLED,
    FORMATS,
    LEAGUE,
    OPEN,
    PAUSED,
    PODS,
    ROUND_ROBIN,
    RUNNING,
    SIGNUP,
    SWISS,
    AlreadyEntered,
    StaleTournament,
    TournamentRecord,
    TournamentView,
    board_result,
    delete_round,
    insert_round,
    read_view,
    save_tournament,
    set_deadline,
)
from bot.tournaments import wording
from bot.tournaments.pairing import CannotPair, pair_round
from bot.tournaments.rules import most_rounds, seats_problem
from bot.tournaments.runner import SYSTEM, TournamentRunner, table_options
from bot.tournaments.standings import standings_attachments
from engine import GAMES
from engine.pairing import round_robin

DAY = 86400.0
DEFAULT_ROUND_SECONDS = 7 * DAY
MOST_ROUNDS = 30
RETRIES = 5


class TournamentDesk:
    """The tournament commands over a referee; `runner` is woken after each change."""

    def __init__(self, referee: Referee, runner: TournamentRunner) -> None:
        self.referee = referee
        self.store = referee.store
        self.clock = referee.clock
        self.runner = runner

    def _guarded(self, command: Awaitable[Reply]) -> Awaitable[Reply]:
        return self.referee.tables.guarded(command)

    # ---- creating ---------------------------------------------------------------------------

    def new(self, user: User, channel: str, guild: str | None, game: str, format: str, *, rounds: int | None = None,
            clock: str | None = None, start: str = "1d", late: str | None = None, rated: bool = True,
            vacation: bool = True, seats: int | None = None, division_size: int | None = None,
            adjudication: str = wording.DRAW, checkin: bool = False, round_time: str | None = None,
            name: str | None = None, language: str | None = None) -> Awaitable[Reply]:
        """Create a tournament announced in `channel` (a moderator's command): sign-ups open now and
        close at `start` (a duration from now, like `2h` or `3d`); `late` keeps late entries open
        that long after the start (Swiss and pods). Refused, saying what to type, when the game,
        the format, the rounds, the time control or the seats do not fit."""
        return self._guarded(self._new(user, channel, guild, game, format, rounds, clock, start, late, rated,
                                       vacation, seats, division_size, adjudication, checkin, round_time, name,
                                       language))

    async def _new(self, user: User, channel: str, guild: str | None, game: str, format: str, rounds: int | None,
                   clock: str | None, start: str, late: str | None, rated: bool, vacation: bool, seats: int | None,
                   division_size: int | None, adjudication: str, checkin: bool, round_time: str | None,
                   name: str | None, language: str | None) -> Reply:
        if not user.moderator:
            raise Refused(_("only a moderator can create a tournament"))
        game_name = game.strip().lower()
        if game_name not in GAMES:
            raise Refused(_("there is no game called '{game}'; choose one of {games}").format(
                game=echo(game), games=", ".join(sorted(GAMES))))
        chosen = format.strip().lower().replace(" ", "_")
        if chosen not in FORMATS:
            raise Refused(_("there is no tournament format called '{format}'; choose one of {formats}").format(
                format=echo(format), formats=", ".join(FORMATS)))
        table_seats = seats or (4 if chosen == PODS else 2)
        if chosen != PODS and seats not in (None, 2):
            raise Refused(_("only the pods format seats more than two at a table; leave out `seats`"))
        problem = seats_problem(game_name, chosen, table_seats)
        if problem:
            raise Refused(problem)
        if adjudication not in wording.ADJUDICATIONS:
            raise Refused(_("`adjudication` is `draw` or `score`, not '{value}'").format(value=echo(adjudication)))
        size = division_size or 8
        if chosen == LEAGUE and not 3 <= size <= round_robin.MAX_PLAYERS:
            raise Refused(_("a league's divisions hold 3 to {most} players, not {size}").format(
                most=round_robin.MAX_PLAYERS, size=size))
        planned = rounds or 0
        if chosen in (SWISS, PODS) and not planned:
            planned = 5
        most = most_rounds(chosen, size if chosen == LEAGUE else round_robin.MAX_PLAYERS)
        if planned < 0 or planned > MOST_ROUNDS or (most is not None and planned > most):
            raise Refused(_("a {format} can have 1 to {most} rounds, not {rounds}").format(
                format=wording.format_name(chosen), most=most or MOST_ROUNDS, rounds=planned))
        if clock:
            time_control(clock)  # Refused, saying what to write, if it cannot be read
        problem = await self.referee.lobby.check_new(game_name, options={"clock": clock} if clock else None,
                                                     guild=guild)
        if problem:
            raise Refused(problem)
        if language is not None and language not in LANGUAGES:
            language = None
        language = await self.referee.lobby.language_for(None, guild, language or current_language())
        speak(language)  # the announcement and everything after it speak the tournament's language
        now = self.clock.now()
        starts = now + (duration(start) or 0)
        late_seconds = duration(late) if late else 0
        if late_seconds and chosen not in (SWISS, PODS):
            raise Refused(_("late entries are only for Swiss and pods; a {format}'s schedule is fixed at the "
                            "start").format(format=wording.format_name(chosen)))
        round_seconds = float(duration(round_time) or DEFAULT_ROUND_SECONDS) if round_time else DEFAULT_ROUND_SECONDS
        options: dict[str, Any] = {"clock": clock or "", "vacation": vacation, "rated": rated,
                                   "adjudication": adjudication, "checkin": checkin}
        if chosen == LEAGUE:
            options |= {"division_size": size, "promote": 1, "relegate": 1, "season": 1}
        options["lang"] = language
        tournament = TournamentRecord(
            id=0, guild=guild, channel=channel,
            name=clean_name(name) if name else _("{game} {format}").format(game=GAMES[game_name].title,
                                                                           format=wording.format_name(chosen)),
            game=game_name, format=chosen, rounds=planned, seats=table_seats, options=options, starts_at=starts,
            signup_closes=starts + (late_seconds or 0), round_seconds=round_seconds, status=SIGNUP,
            created_by=user.id, created_at=now, due=starts)
        text = wording.announcement(tournament)
        await self.store.tournaments.create(tournament, [("announce", channel, {
            "text": text, "buttons": ["signup", "checkin"] if checkin else ["signup"]})], now)
        self.runner.wake()
        return Reply(caller=Message(_("✅ Tournament #{id} created; its announcement follows.").format(
            id=tournament.id)))

    # ---- players ----------------------------------------------------------------------------

    def sign_up(self, tournament_id: int, user: User) -> Awaitable[Reply]:
        """Put `user` on the list (the announcement's button): before the start, or within the late
        entries' window (the rounds missed are zero-point byes)."""
        return self._guarded(self._sign_up(tournament_id, user))

    async def _sign_up(self, tournament_id: int, user: User) -> Reply:
        view = await self._view(tournament_id)
        tournament = view.tournament
        now = self.clock.now()
        still_open = now < tournament.starts_at if tournament.status == SIGNUP else \
            tournament.status == RUNNING and now < tournament.signup_closes
        if not still_open:
            raise Refused(_("sign-up for {name} closed {when}").format(name=tournament.name,
                                                                      when=deadline_token(tournament.signup_closes)))
        if view.entrant_of(user.id) is not None:
            raise Refused(_("you are already in {name}").format(name=tournament.name))
        if tournament.format in (ROUND_ROBIN, "double_round_robin") and len(view.entrants) >= round_robin.MAX_PLAYERS:
            raise Refused(_("{name} is full ({count} players)").format(name=tournament.name,
                                                                      count=round_robin.MAX_PLAYERS))
        first_round = 1 if tournament.status == SIGNUP else tournament.current_round + 1
        ratings = await self.store.standings.ratings_of(tournament.guild or LOCAL, tournament.game, [user.id])
        rating = float(ratings[user.id].shown) if user.id in ratings else 1000.0
        try:
            entrant = await self.store.tournaments.enter(tournament_id, user.id, clean_name(user.name), rating, now,
                                                         first_round=first_round)
        except AlreadyEntered:
            raise Refused(_("you are already in {name}").format(name=tournament.name)) from None
        late = _(" (a late entry: you are paired from round {number})").format(number=first_round) \
            if first_round > 1 else ""
        return Reply(caller=Message(_("✅ You are in {name}, number {number}{late}. It starts {when}.").format(
            name=tournament.name, number=entrant.number, late=late, when=deadline_token(tournament.starts_at))))

    def withdraw(self, user: User, tournament_id: int | None = None, guild: str | None = None) -> Awaitable[Reply]:
        """Take `user` out (FIDE: the games they no longer play are forfeited; before the start they
        are just off the list). Without an id, the one open tournament of theirs on the server."""
        return self._guarded(self._leave(user, user, tournament_id, guild))

    def remove(self, moderator: User, target: User, tournament_id: int) -> Awaitable[Reply]:
        """A moderator takes `target` out; a two-player game of theirs still on is forfeited."""
        return self._guarded(self._leave(moderator, target, tournament_id, None, removed=True))

    async def _leave(self, user: User, target: User, tournament_id: int | None, guild: str | None, *,
                     removed: bool = False) -> Reply:
        if removed and not user.moderator:
            raise Refused(_("only a moderator can remove a player from a tournament"))
        view = await self._view(tournament_id if tournament_id is not None else await self._only(target, guild))
        tournament = view.tournament
        entrant = view.entrant_of(target.id)
        if tournament.status not in OPEN or entrant is None or entrant.withdrawn_after is not None:
            raise Refused(_("{player} is not playing in {name}").format(player=name_token(target.name),
                                                                        name=tournament.name))
        if not await self.store.tournaments.withdraw(tournament.id, target.id, tournament.current_round):
            raise Refused(_("{player} is not playing in {name}").format(player=name_token(target.name),
                                                                        name=tournament.name))
        if removed:
            await self._forfeit_current(view, entrant.number)
        self.runner.wake()
        who = name_token(target.name)
        text = _("🚪 {player} was removed from {name}.") if removed else _("🚪 {player} withdrew from {name}.")
        return Reply(public=Message(text.format(player=who, name=tournament.name)))

    async def _forfeit_current(self, view: TournamentView, number: int) -> None:
        """The removed player's two-player game of the current round, still on, is stopped and
        forfeited to their opponent."""
        current = view.round(view.tournament.current_round)
        if current is None or current.closed_at is not None:
            return
        for board in current.boards:
            if number not in board.players or board.result is not None or len(board.players) != 2:
                continue
            if board.table_id is not None:
                table = await self.store.get_table(board.table_id)
                if table is not None and table.status == PLAYING:
                    reply = await self.referee.moderation.abort(table.place, SYSTEM)
                    if reply.ok:
                        await self.referee.deliveries.announce(reply)
            result = "-/+" if board.players[0] == number else "+/-"
            async with self.store.tournaments.steps(view.tournament.id) as db:
                await board_result(db, view.tournament.id, board.round, board.board, result, self.clock.now())

    def check_in(self, tournament_id: int, user: User) -> Awaitable[Reply]:
        """Check in before round 1 (the announcement's button, where check-in is asked for)."""
        return self._guarded(self._check_in(tournament_id, user))

    async def _check_in(self, tournament_id: int, user: User) -> Reply:
        view = await self._view(tournament_id)
        if view.tournament.status != SIGNUP:
            raise Refused(_("check-in for {name} is over: it has started").format(name=view.tournament.name))
        if not await self.store.tournaments.check_in(tournament_id, user.id):
            raise Refused(_("sign up for {name} first, then check in").format(name=view.tournament.name))
        return Reply(caller=Message(_("✅ Checked in for {name}.").format(name=view.tournament.name)))

    # ---- moderators -------------------------------------------------------------------------

    def pause(self, user: User, tournament_id: int) -> Awaitable[Reply]:
        """Stop the tournament: no round closes or is paired, and the clocks of the current round's
        games under way stop (each thread is told)."""
        return self._guarded(self._pause(user, tournament_id, True))

    def resume(self, user: User, tournament_id: int) -> Awaitable[Reply]:
        """Carry on: the current round's deadline moves on by as long as the pause lasted, and its
        games' clocks run again from where they stopped."""
        return self._guarded(self._pause(user, tournament_id, False))

    async def _pause(self, user: User, tournament_id: int, pausing: bool) -> Reply:
        _moderating(user)
        now = self.clock.now()
        for _attempt in range(RETRIES):
            async with self.store.tournaments.steps(tournament_id) as db:
                view = await read_view(db, tournament_id)
                if view is None:
                    raise Refused(_("there is no tournament #{id}").format(id=tournament_id))
                tournament = view.tournament
                if pausing:
                    if tournament.status not in (SIGNUP, RUNNING):
                        raise Refused(_("{name} is not running").format(name=tournament.name))
                    tournament.options |= {"paused_at": now, "paused_from": tournament.status}
                    tournament.status, tournament.due = PAUSED, None
                    text = _("⏸️ {name} is paused.")
                else:
                    if tournament.status != PAUSED:
                        raise Refused(_("{name} is not paused").format(name=tournament.name))
                    shift = now - float(tournament.options.pop("paused_at", now))
                    tournament.status = tournament.options.pop("paused_from", RUNNING)
                    current = view.round(tournament.current_round)
                    if tournament.status == RUNNING and current is not None:
                        await set_deadline(db, tournament_id, current.number, current.deadline + shift)
                        tournament.due = current.deadline + shift
                    else:
                        tournament.due = tournament.starts_at
                    text = _("▶️ {name} carries on.")
                try:
                    await save_tournament(db, tournament, [], now)
                except StaleTournament:
                    continue
            self.runner.wake()
            held = await self._hold_clocks(user, tournament_id, pausing)
            said = text.format(name=tournament.name)
            if held:
                said += " " + (_("The clocks of its {count} games under way are stopped.") if pausing else
                               _("The clocks of its {count} games under way run again.")).format(count=held)
            return Reply(public=Message(said))
        raise StaleTournament(tournament_id)

    async def _hold_clocks(self, user: User, tournament_id: int, pausing: bool) -> int:
        """Stop (or start again) the clock of each game of the current round still under way, as a
        moderator's pause of its table does (banks kept), each told in its thread; how many
        changed. A table already so is left as it is, so asking again finishes what a crash cut."""
        view = await self._view(tournament_id)
        current = view.round(view.tournament.current_round)
        if current is None or current.closed_at is not None:
            return 0
        changed = 0
        for board in current.boards:
            if board.result is not None or board.table_id is None:
                continue
            table = await self.store.get_table(board.table_id)
            if table is None or table.status != PLAYING or table.paused == pausing:
                continue
            try:
                reply = await (self.referee.pause if pausing else self.referee.resume)(table.place, user)
            except Refused:
                continue
            if reply.ok:
                await self.referee.deliveries.announce(reply)
                changed += 1
        return changed

    def repair(self, user: User, tournament_id: int) -> Awaitable[Reply]:
        """Pair the current round again (after a removal, say), if none of its games has a result:
        its tables are stopped and new ones opened."""
        return self._guarded(self._repair(user, tournament_id))

    async def _repair(self, user: User, tournament_id: int) -> Reply:
        _moderating(user)
        view = await self._view(tournament_id)
        current = view.round(view.tournament.current_round)
        if view.tournament.status != RUNNING or current is None or current.closed_at is not None:
            raise Refused(_("{name} has no round being played to pair again").format(name=view.tournament.name))
        if any(b.result is not None for b in current.boards):
            raise Refused(_("round {number} has results already; it cannot be paired again").format(
                number=current.number))
        for board in current.boards:
            table = await self.store.get_table(board.table_id) if board.table_id is not None else None
            if table is not None and table.status == PLAYING and len(await self.store.actions(table.id)) > 1:
                raise Refused(_("round {number} has games under way; it cannot be paired again").format(
                    number=current.number))
        for board in current.boards:
            table = await self.store.get_table(board.table_id) if board.table_id is not None else None
            if table is not None and table.status == PLAYING:
                await self.referee.moderation.abort(table.place, SYSTEM)
        now = self.clock.now()
        async with self.store.tournaments.steps(tournament_id) as db:
            fresh = await read_view(db, tournament_id)
            assert fresh is not None
            if fresh.tournament.current_round != current.number or any(b.result for b in (
                    fresh.round(current.number) or current).boards):
                raise Refused(_("the round changed meanwhile; look again"))
            await delete_round(db, tournament_id, current.number)
            # whoever left during the round being re-paired is not paired in it again
            await db.execute("UPDATE entrants SET withdrawn_after = ? WHERE tournament_id = ? AND withdrawn_after = ?",
                             current.number - 1, tournament_id, current.number)
            fresh = await read_view(db, tournament_id)
            assert fresh is not None
            tournament = fresh.tournament
            tournament.options["pairing"] = int(tournament.options.get("pairing", 0)) + 1
            try:
                paired = pair_round(fresh, current.number, now)
            except CannotPair as reason:
                raise Refused(str(reason)) from None
            await insert_round(db, tournament_id, paired)
            tournament.due = paired.deadline
            shown = TournamentView(tournament, fresh.entrants, [*fresh.rounds, paired])
            await save_tournament(db, tournament, [(f"round:{paired.number}:{tournament.options['pairing']}",
                                                    tournament.channel,
                                                    {"text": wording.round_pairings(shown, paired)})], now)
        self.runner.wake()
        return Reply(public=Message(_("🔁 Round {number} of {name} was paired again.").format(
            number=current.number, name=tournament.name)))

    def end(self, user: User, tournament_id: int) -> Awaitable[Reply]:
        """End the tournament now: the games still on are adjudicated by its rule and the standings
        are final (before the start: it is cancelled)."""
        return self._guarded(self._end(user, tournament_id))

    async def _end(self, user: User, tournament_id: int) -> Reply:
        _moderating(user)
        now = self.clock.now()
        async with self.store.tournaments.steps(tournament_id) as db:
            view = await read_view(db, tournament_id)
            if view is None or view.tournament.status not in OPEN:
                raise Refused(_("there is no tournament #{id} being played").format(id=tournament_id))
            tournament = view.tournament
            if tournament.current_round == 0:
                tournament.status, tournament.due = CANCELLED, None
                text = _("⛔ {name} was cancelled before it began.")
            else:
                tournament.rounds = tournament.current_round
                tournament.status = RUNNING
                tournament.due = now
                current = view.round(tournament.current_round)
                if current is not None:
                    await set_deadline(db, tournament_id, current.number, min(current.deadline, now))
                text = _("⛔ {name} ends now: the games still on are adjudicated, and the standings are final.")
            await save_tournament(db, tournament, [], now)
        self.runner.wake()
        return Reply(public=Message(text.format(name=tournament.name)))

    # ---- reading ----------------------------------------------------------------------------

    def standings(self, tournament_id: int) -> Awaitable[Reply]:
        return self._guarded(self._standings(tournament_id))

    async def _standings(self, tournament_id: int) -> Reply:
        view = await self._view(tournament_id)
        round_note = _("after round {number}").format(number=max((r.number for r in view.rounds if r.closed_at),
                                                                 default=0))
        text = _("📋 **{name}** ({status}), {after}:").format(name=view.tournament.name,
                                                            status=status_word(view.tournament.status),
                                                            after=round_note) + "\n" + wording.standings_text(view)
        attachments = await standings_attachments(view)
        return Reply(public=Message(text, attachments))

    def listed(self, guild: str | None) -> Awaitable[Reply]:
        return self._guarded(self._listed(guild))

    async def _listed(self, guild: str | None) -> Reply:
        found = await self.store.tournaments.listed(guild)
        if not found:
            return Reply(caller=Message(_("No tournament is open on this server; a moderator starts one with "
                                          "`/tournament new`.")))
        lines = [_("#{id} **{name}**: {format} of {game}, {status}, starts {when}").format(
            id=t.id, name=t.name, format=wording.format_name(t.format), game=GAMES[t.game].title,
            status=status_word(t.status), when=deadline_token(t.starts_at)) for t in found]
        return Reply(caller=Message("\n".join(lines)))

    async def _view(self, tournament_id: int) -> TournamentView:
        view = await self.store.tournaments.view(tournament_id)
        if view is None:
            raise Refused(_("there is no tournament #{id}; `/tournament list` shows them").format(id=tournament_id))
        return view

    async def _only(self, user: User, guild: str | None) -> int:
        mine = [t for t in await self.store.tournaments.of_player(user.id) if t.guild == guild]
        if len(mine) != 1:
            raise Refused(_("say which tournament: `/tournament withdraw id:` with its number from "
                            "`/tournament list`") if mine else _("you are not in any tournament here"))
        return mine[0].id


def status_word(status: str) -> str:
    return {SIGNUP: _("sign-up open"), RUNNING: _("running"), PAUSED: _("paused"), "finished": _("finished"),
            CANCELLED: _("cancelled")}.get(status, status)


def _moderating(user: User) -> None:
    if not user.moderator:
        raise Refused(_("only a moderator can do this to a tournament"))


__all__ = ["TournamentDesk", "table_options"]
