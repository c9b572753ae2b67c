"""A tournament's durable steps, run by the bot with nobody's hand: the start at the start time,
each round paired, each board's table opened in its own place (a thread) pinging its players,
results recorded as games end, the round closed when every game is done or at its deadline (the
games still on adjudicated by the rule stated up front), the next round paired and opened, and
the winner crowned.

Exactly once, never stuck. Every step is one transaction holding the tournament's lock that
re-reads the tournament first and writes only what is still to be written (`bot.storage.tournaments`):
a round is a row keyed by its number, so it is paired once; closing it and pairing the next are one
transaction; a board keeps the first place and table recorded for it, and a table carries its
board (`TOURNAMENT` in its meta), so a table a crash left unrecorded is found at its place and
linked, never opened twice; results and adjudications are written once. Messages go into the
tournament's own outbox in the step's transaction and are sent by `send_messages` (at least once,
each with a nonce of its row, which Discord deduplicates). Nothing waits on memory: every process
runs `TournamentRunner`, which wakes at the next due time, when a tournament table's game ends, and
every `every` seconds in any case, and brings each tournament as far forward as it can go.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.community.ratings import RATED, placements
from bot.core import logs
from bot.core.background import Background
from bot.core.i18n import _, speak, speaking
from bot.core.meta import CLOCK, LANGUAGE, VACATION
from bot.core.records import ABORTED, FINISHED, LOBBY, PLAYING, SeatRecord, TableRecord, User
from bot.core.replies import Attachment
from bot.service.referee import Referee
from bot.storage.sql import Connection
from bot.storage.tournaments import (
    CANCELLED,
    LEAGUE,
    RUNNING,
    SIGNUP,
    BoardRecord,
    RoundRecord,
    TournamentMessage,
    TournamentRecord,
    TournamentView,
    add_messages,
    board_place,
    board_result,
    board_table,
    claim_place,
    close_round,
    insert_round,
    read_view,
    renumber,
    save_tournament,
    set_division,
)
from bot.storage.tournaments import FINISHED as OVER
from bot.tournaments import wording
from bot.tournaments.page import page_link
from bot.tournaments.pairing import CannotPair, pair_round
from bot.tournaments.rules import field_problem, next_season, rounds_for
from bot.tournaments.standings import standings_attachments
from engine import Game

log = logging.getLogger(__name__)

TOURNAMENT = "tournament"
"""The table meta key of a tournament's table: [tournament id, round, board]."""
SYSTEM = User("tileref:tournaments", "tileref", moderator=True)
"""Who opens, starts and stops tournament tables."""
SWEEP_SECONDS = 30.0
MESSAGE_LEASE = 30.0
PLACE_LEASE = 15.0
"""How long a process that makes a board's thread has before another may make one instead (it died)."""
OVERDUE_PAUSE = 1.0
"""The least the loop sleeps, so a due step that fails is retried every second, not spun on."""

MakePlace = Callable[[TournamentView, BoardRecord], Awaitable[str]]
"""Makes the place a board's table is played at (Discord: a thread in the tournament's channel)
and returns it (`discord:<thread id>`)."""
Post = Callable[[TournamentMessage, list[Attachment]], Awaitable[None]]
"""Posts one of a tournament's messages (raises if it could not)."""


async def numbered_place(view: TournamentView, board: BoardRecord) -> str:
    """A place named after the board (the terminal and tests: nothing to create)."""
    t = view.tournament
    return f"{t.channel}/t{t.id}.{t.options.get('pairing', 0)}.r{board.round}b{board.board}"


class TournamentRunner:
    """Runs every tournament of the store forward (see the module's docstring)."""

    def __init__(self, referee: Referee, *, make_place: MakePlace = numbered_place, post: Post | None = None,
                 every: float = SWEEP_SECONDS, place_lease: float = PLACE_LEASE) -> None:
        self.referee = referee
        self.store = referee.store
        self.clock = referee.clock
        self.make_place = make_place
        self.post = post
        self.every = every
        self.place_lease = place_lease
        self.background = Background(self._run, "tileref-tournaments")
        self._woken: set[int] = set()
        self._wake: Callable[[], None] = lambda: None
        referee.tables.on_ended(self._ended)

    def start(self) -> None:
        self.background.start()

    async def stop(self) -> None:
        await self.background.stop()

    def _ended(self, table: TableRecord) -> None:
        board = table.meta.get(TOURNAMENT)
        if board:
            self._woken.add(int(board[0]))
            self._wake()

    def wake(self) -> None:
        self._wake()

    async def _run(self) -> None:
        event = asyncio.Event()
        self._wake = event.set
        while True:
            event.clear()
            try:
                await self.run_due()
            except Exception:
                log.exception("running the tournaments failed; trying again in %ss", self.every)
            upcoming = await self._next_wake()
            sleeper = asyncio.ensure_future(self.clock.sleep(upcoming))
            waker = asyncio.ensure_future(event.wait())
            try:
                await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (sleeper, waker):
                    task.cancel()

    async def _next_wake(self) -> float:
        due = await self.store.tournaments.next_due()
        wait = self.every if due is None else min(self.every, due - self.clock.now())
        return max(OVERDUE_PAUSE, wait)  # a step that keeps failing is tried again, not spun on

    async def run_due(self) -> None:
        """Bring forward every tournament that is due, running, or whose table just ended; then send
        their messages."""
        now = self.clock.now()
        chosen = set(await self.store.tournaments.due(now)) | set(await self.store.tournaments.running())
        chosen |= self._woken
        self._woken = set()
        for tournament_id in sorted(chosen):
            try:
                await self.advance(tournament_id)
            except Exception:
                log.exception("tournament %s: a step failed; it is tried again", tournament_id)
        await self.send_messages()

    # ---- the steps ----------------------------------------------------------------------------

    async def advance(self, tournament_id: int) -> None:
        """Every step the tournament can take now, in order, until none is left."""
        with logs.scope("tournament", fresh=True):
            for _attempt in range(4):
                if not await self._step(tournament_id):
                    return

    async def _step(self, tournament_id: int) -> bool:
        """One pass over the tournament; whether it moved (a round closed or it started)."""
        view = await self.store.tournaments.view(tournament_id)
        if view is None:
            return False
        tournament = view.tournament
        speak(tournament.options.get("lang"))
        now = self.clock.now()
        if tournament.status == SIGNUP:
            return now >= tournament.starts_at and await self.start_now(tournament_id)
        if tournament.status != RUNNING:
            return False
        current = view.round(tournament.current_round)
        if current is None or current.closed_at is not None:
            return False
        late = now >= current.deadline
        for board in current.boards:
            if board.result is not None:
                continue
            if board.table_id is None and not late:
                await self.open_board(view, board)
            elif board.table_id is not None:
                await self.settle(view, board)
        if late:
            await self.adjudicate(view, current)
        return await self.close_round(tournament_id)

    async def start_now(self, tournament_id: int) -> bool:
        """The start: the field checked (those who had to check in and did not are dropped), the
        pairing numbers given by rating, a league's divisions drawn, round 1 paired; or, if the
        field cannot play the format, the tournament cancelled saying why. Once."""
        now = self.clock.now()
        async with self.store.tournaments.steps(tournament_id) as db:
            view = await read_view(db, tournament_id)
            if view is None or view.tournament.status != SIGNUP:
                return False
            tournament = view.tournament
            if tournament.options.get("checkin"):
                for entrant in view.entrants:
                    if not entrant.checked_in:
                        await db.execute("DELETE FROM entrants WHERE tournament_id = ? AND user_id = ?",
                                         tournament_id, entrant.user_id)
                view = await read_view(db, tournament_id)
                assert view is not None
            problem = field_problem(tournament, len(view.entrants))
            if problem is not None:
                tournament.status, tournament.due = CANCELLED, None
                await save_tournament(db, tournament, [("cancelled", tournament.channel, {
                    "text": _("🏆 **{name}** cannot start: {reason}. It is cancelled.").format(
                        name=tournament.name, reason=problem)})], now)
                return True
            order = sorted(view.entrants, key=lambda e: (e.division, -e.rating, e.joined_at, e.user_id))
            await renumber(db, tournament_id, [e.user_id for e in order])
            if tournament.format == LEAGUE and all(e.division == 1 for e in order):
                size = int(tournament.options.get("division_size", 8))
                for index, entrant in enumerate(order):
                    await set_division(db, tournament_id, entrant.user_id, index // size + 1)
            view = await read_view(db, tournament_id)
            assert view is not None
            if view.tournament.rounds == 0:  # a round robin plays every round its field has
                view.tournament.rounds = rounds_for(view)
            return await self._pair_next(db, view, 1, now, [("start", tournament.channel, {
                "text": _("🏆 **{name}** begins with {count} players.").format(name=tournament.name,
                                                                              count=len(view.entrants))})])

    async def _pair_next(self, db: Connection, view: TournamentView, number: int, now: float,
                         messages: list[tuple[str, str, dict[str, object]]]) -> bool:
        """Pair round `number` inside the step's transaction `db` (or finish the tournament when it
        cannot be paired) and save the tournament with `messages` and the round's."""
        tournament = view.tournament
        try:
            paired = pair_round(view, number, now)
        except CannotPair as reason:
            log.warning("tournament %s: round %d cannot be paired: %s", tournament.id, number, reason)
            messages.append((f"unpaired:{number}", tournament.channel, {
                "text": _("Round {number} cannot be paired ({reason}), so the tournament ends here.").format(
                    number=number, reason=str(reason))}))
            return await self._finish(db, view, now, messages)
        if not await insert_round(db, tournament.id, paired):
            return False
        tournament.status, tournament.current_round, tournament.due = RUNNING, number, paired.deadline
        shown = TournamentView(tournament, view.entrants, [*view.rounds, paired])
        messages.append((f"round:{number}:{tournament.options.get('pairing', 0)}", tournament.channel,
                         {"text": wording.round_pairings(shown, paired)}))
        await save_tournament(db, tournament, messages, now)
        return True

    async def _finish(self, db: Connection, view: TournamentView, now: float,
                      messages: list[tuple[str, str, dict[str, object]]]) -> bool:
        tournament = view.tournament
        tournament.status, tournament.due = OVER, None
        messages.append(("final", tournament.channel, {"text": wording.final(view), "standings": True}))
        await save_tournament(db, tournament, messages, now)
        if tournament.format == LEAGUE:
            await next_season(db, view, now)
        return True

    async def open_board(self, view: TournamentView, board: BoardRecord) -> None:
        """Open the board's table at a place of its own, its players seated in order and pinged,
        with the tournament's clock, vacations and rating; once, whoever races to open it."""
        tournament = view.tournament
        place = board.place
        if place is None:  # one process makes the place (a thread), the others wait for it
            async with self.store.tournaments.steps(tournament.id) as db:
                made = await claim_place(db, tournament.id, board.round, board.board, self.clock.now(),
                                         self.place_lease)
            if made == "":
                return
            place = made or await self.make_place(view, board)
        pinged = [e.user_id for p in board.players if (e := view.entrant(p)) is not None]
        async with self.store.tournaments.steps(tournament.id) as db:
            place = await board_place(db, tournament.id, board.round, board.board, place)
            await add_messages(db, tournament.id, [(f"open:{place}", place, {
                "text": wording.board_opening(view, board), "mentions": pinged})], self.clock.now())
        key = [tournament.id, board.round, board.board]
        found = await self.store.table_at(place)
        if found is not None and found.meta.get(TOURNAMENT) == key and found.status not in (LOBBY,):
            table_id, reply = found.id, None
        else:
            seats = []
            for index, number in enumerate(board.players):
                entrant = view.entrant(number)
                assert entrant is not None
                seats.append(SeatRecord(index, entrant.name, entrant.user_id))
            table_id, reply = await self.referee.lobby.seated_game(
                place, SYSTEM, tournament.game, table_options(tournament), tournament.guild, seats,
                meta={TOURNAMENT: key}, headline="")
        async with self.store.tournaments.steps(tournament.id) as db:
            await board_table(db, tournament.id, board.round, board.board, table_id)
        if reply is not None and reply.ok:
            await self.referee.deliveries.announce(reply)

    async def settle(self, view: TournamentView, board: BoardRecord) -> None:
        """Record the board's result if its game has ended (a game a moderator stopped is
        adjudicated by the tournament's rule, as it stood)."""
        assert board.table_id is not None
        table = await self.store.get_table(board.table_id)
        if table is None or table.status in (LOBBY, PLAYING):
            return
        game = await self.referee.games.get(table)
        if table.status == FINISHED:
            result = result_of(table, game, len(board.players))
            adjudicated = False
        else:
            result = adjudicated_result(game, len(board.players), view.tournament.options.get("adjudication"))
            adjudicated = True
        async with self.store.tournaments.steps(view.tournament.id) as db:
            await board_result(db, view.tournament.id, board.round, board.board, result, self.clock.now(),
                               adjudicated=adjudicated)

    async def adjudicate(self, view: TournamentView, current: RoundRecord) -> None:
        """The round's deadline passed: every game still on is stopped and decided by the rule
        stated up front; a board whose table never opened is a draw."""
        rule = view.tournament.options.get("adjudication")
        for board in current.boards:
            if board.result is not None:
                continue
            if board.table_id is None:
                result = adjudicated_result(None, len(board.players), rule)
            else:
                table = await self.store.get_table(board.table_id)
                if table is not None and table.status == PLAYING:
                    game = await self.referee.games.get(table)
                    result = adjudicated_result(game, len(board.players), rule)
                    reply = await self.referee.moderation.abort(table.place, SYSTEM)
                    if reply.ok:
                        await self.referee.deliveries.announce(reply)
                    table = await self.store.get_table(board.table_id)
                if table is None or table.status != ABORTED:
                    await self.settle(view, board)  # it ended meanwhile: its own result stands
                    continue
            async with self.store.tournaments.steps(view.tournament.id) as db:
                await board_result(db, view.tournament.id, board.round, board.board, result, self.clock.now(),
                                   adjudicated=True)

    async def close_round(self, tournament_id: int) -> bool:
        """Close the current round once every board has its result: the standings posted, then the
        next round paired (or the tournament finished), all in one transaction. Whether it closed."""
        now = self.clock.now()
        async with self.store.tournaments.steps(tournament_id) as db:
            view = await read_view(db, tournament_id)
            if view is None or view.tournament.status != RUNNING:
                return False
            tournament = view.tournament
            current = view.round(tournament.current_round)
            if current is None or current.closed_at is not None or any(b.result is None for b in current.boards):
                return False
            await close_round(db, tournament_id, current.number, now)
            view = await read_view(db, tournament_id)
            assert view is not None
            messages: list[tuple[str, str, dict[str, object]]] = [(f"standings:{current.number}", tournament.channel, {
                "text": wording.round_closed(view, current.number), "standings": True})]
            if current.number >= view.tournament.rounds:
                return await self._finish(db, view, now, messages)
            return await self._pair_next(db, view, current.number + 1, now, messages)

    # ---- messages -----------------------------------------------------------------------------

    async def send_messages(self) -> int:
        """Send the tournaments' messages still to send (a standings message with its picture, where
        one is drawn); how many went out."""
        sent = 0
        if self.post is None:
            return sent
        while True:
            pending = await self.store.tournaments.messages_pending(self.clock.now(), MESSAGE_LEASE)
            for message in pending:
                message = await self._with_page_link(message)
                attachments = []
                if message.data.get("standings"):
                    view = await self.store.tournaments.view(message.tournament_id)
                    if view is not None:
                        attachments += await standings_attachments(view)
                try:
                    await self.post(message, attachments)
                except Exception:
                    log.warning("posting tournament message %s failed; trying again later", message.id, exc_info=True)
                    continue
                await self.store.tournaments.delivered(message.id, self.clock.now())
                sent += 1
            if len(pending) < 20:
                return sent

    async def _with_page_link(self, message: TournamentMessage) -> TournamentMessage:
        """`message` with the tournament page's address added, in the tournament's language, where
        it is the announcement, a standings message or the final one and the bot serves pages."""
        public_url = self.referee.public_url
        if not public_url or not (message.key in ("announce", "final") or message.key.startswith("standings:")):
            return message
        tournament = await self.store.tournaments.get(message.tournament_id)
        link = await page_link(self.store, tournament, public_url) if tournament else None
        if tournament is None or link is None:
            return message
        with speaking(tournament.options.get("lang")):
            line = _("🌐 Standings, rounds and every game: {link}").format(link=link)
        return replace(message, data={**message.data, "text": f"{message.data.get('text', '')}\n{line}"})


def table_options(tournament: TournamentRecord) -> dict[str, str]:
    """The options every table of the tournament is opened with: its clock, vacations, rating and
    language."""
    options = {VACATION: "on" if tournament.options.get("vacation", True) else "off",
               RATED: "on" if tournament.options.get("rated", True) else "off"}
    if tournament.options.get("clock"):
        options[CLOCK] = str(tournament.options["clock"])
    if tournament.options.get("lang"):
        options[LANGUAGE] = str(tournament.options["lang"])
    return options


def result_of(table: TableRecord, game: Game, players: int) -> str:
    """A finished game's result as a board records it (`BoardRecord.result`): at two seats
    "1-0", "0-1" or "½-½"; at more, each seat's placing."""
    placed = placements(replace(table, meta={**table.meta, RATED: True}), game)
    if placed is None:
        ranks = [1] * players
    else:
        by_seat = {p.seat: p.rank for p in placed}
        ranks = [by_seat.get(seat, max(by_seat.values(), default=1)) for seat in range(players)]
    return encoded(ranks)


def adjudicated_result(game: Game | None, players: int, rule: object) -> str:
    """A game decided at the deadline: by the score at that moment (`score`), else a draw."""
    if game is None or rule != wording.SCORE:
        return encoded([1] * players)
    scores = list(game.scores())[:players]
    order = sorted(set(scores), reverse=True)
    return encoded([order.index(s) + 1 for s in scores])


def encoded(ranks: list[int]) -> str:
    if len(ranks) == 2:
        return "1-0" if ranks[0] < ranks[1] else "0-1" if ranks[0] > ranks[1] else "½-½"
    return ",".join(str(r) for r in ranks)

