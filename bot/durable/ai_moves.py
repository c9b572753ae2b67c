"""What an AI seat's move does to its table: the job its planning needs, the move played and
committed under the table's lock, and a run of such moves announced as one message."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.community.notifications import TURN_LIST
from bot.core import absence
from bot.core.i18n import DEFAULT as DEFAULT_LANGUAGE
from bot.core.i18n import _, speak
from bot.core.meta import AI_SECONDS, LANGUAGE, PALETTE
from bot.core.records import PLAYING, Timer
from bot.core.refusals import Refused
from bot.core.replies import Reply, name_token
from bot.durable.ai_runs import AiJob, AiMove, merged
from bot.storage.store import StaleLog, StaleTable
from bot.tables.core import Tables
from bot.tables.notices import nonce_of
from bot.workers.planning import handover
from engine import GameError
from engine.levels import level_of, planning_seconds
from renderers.palettes import use_palette

log = logging.getLogger(__name__)


class AiMoves:
    """AI seats' moves on the tables of `tables`. `announce` delivers a run of them; `ai_seconds`:
    how long an AI seat plans a move unless its table says otherwise (`ai_seconds=`);
    `split_after`: how long a run may go on before it is announced in parts."""

    def __init__(self, tables: Tables, announce: Callable[[Reply], Awaitable[None]], *, ai_seconds: float,
                 split_after: float) -> None:
        self.tables = tables
        self.store = tables.store
        self.announce_reply = announce
        self.ai_seconds = ai_seconds
        self.split_after = split_after

    async def job(self, turn: Timer) -> AiJob | None:
        """What planning a current AI turn needs (the seat's view handed over now, before the
        game can change), or None if the turn is no longer current."""
        table = await self.store.get_table(turn.table_id)
        if table is None or table.status != PLAYING or table.paused or turn.seat >= len(table.seats):
            return None
        seat = table.seats[turn.seat]
        if not absence.played_by_ai(table, turn.seat):
            return None
        game = await self.tables.games.get(table)
        if len(game.log) != turn.ply or turn.seat not in game.to_move():
            return None
        budget = float(table.meta.get(AI_SECONDS, self.ai_seconds))
        agent = seat.agent or absence.standin_level(table)  # a stand-in plays at the table's level
        return AiJob(table.place, turn.seat, seat.name, agent, budget, handover(game, turn.seat),
                     table.meta.get(LANGUAGE) or DEFAULT_LANGUAGE)

    async def play(self, turn: Timer, action: str) -> AiMove | None:
        """Play an AI seat's planned `action` and the forced moves after it, in one commit that
        spends the AI turn; None, with nothing done, if that AI turn is no longer current (the
        game changed, was paused or stopped, or another process played it)."""
        table = await self.store.get_table(turn.table_id)
        if table is None:
            return None
        async with self.tables.lock(table.place):
            try:
                table, game = await self.tables.playing(table.place)
            except Refused:
                return None
            current = await self.tables.table_timers(table)
            if turn.id not in {t.id for t in current} or table.paused or len(game.log) != turn.ply:
                return None
            if not absence.played_by_ai(table, turn.seat):  # the absent player came back meanwhile
                return None
            change = await self.tables.change(table, game, current)
            standin = absence.stood_in(table, turn.seat)
            if standin:
                agent = absence.standin_level(table)
                actor = absence.standin_actor(table)
                headline = "" if await self._went_on(table.id, turn) else _("🤖 A stand-in plays for {player}.").format(
                    player=name_token(table.seats[turn.seat].name))
            else:
                agent = level_of(table.seats[turn.seat].agent or "normal") or "normal"
                actor, headline = f"ai:{agent}", ""
            try:
                change.apply(turn.seat, action, actor)
            except GameError as error:  # a bug in the agent must not stall the table
                # neither the move nor the error's text is logged: they may name a piece of the AI's hand
                log.error("table %s: the AI's move was refused (%s); it makes its first legal move", table.id,
                          type(error).__name__)
                change.apply(turn.seat, game.legal_actions(turn.seat)[0], actor)
            change.play_forced()
            budget = float(table.meta.get(AI_SECONDS, self.ai_seconds))
            try:
                lease = self.tables.delivery_lease + self.split_after + planning_seconds(agent, budget) + 5
                reply, notices = await self.tables.commit_announced(change, headline=headline, spent=turn.id,
                                                                    lease=lease, answered=False)
            except (StaleLog, StaleTable):
                return None
            return AiMove(reply, notices, change.ai_seat() is not None)

    async def _went_on(self, table_id: int, turn: Timer) -> bool:
        """Whether the log's last entry is the same stand-in's move for the same seat (a draw
        before a lay): the stand-in is then already named."""
        if turn.ply == 0:
            return False
        last = await self.store.actions(table_id, after=turn.ply - 1)
        return bool(last) and last[0].seat == turn.seat and last[0].actor.startswith(absence.STANDIN_ACTOR)

    async def announce(self, moves: list[AiMove]) -> None:
        """Announce a run of one table's AI moves as one message, with the board as of the last.
        A run of several moves is first made one outbox row (and one per seat's notes) in place
        of the moves' own, so that a crash after posting it sends that one message again, with
        its nonce, not the moves one by one; if the outbox took any of them meanwhile, they are
        left to it."""
        clock = self.tables.clock
        if len(moves) == 1:
            reply, rows = moves[0].reply, moves[0].notices
        else:
            reply, rows = merged(moves, clock.now(), self.tables.delivery_lease)
            old = [n.id for m in moves for n in m.notices if n.id is not None]
            if rows and not await self.store.merge_notices(old, rows, clock.now()):
                log.info("table %s: the outbox took the AI moves' announcements meanwhile; it sends them",
                         reply.table_id)
                return
            reply.notices = [n.id for n in rows if n.id is not None]
            reply.lists = {n.mentions[0]: n.id for n in rows if n.kind == TURN_LIST}
            for row in rows:
                if row.kind == TURN_LIST:
                    continue
                message = reply.public if row.seat is None else reply.private.get(row.seat)
                if message is not None:
                    message.nonce = nonce_of(row)
        table = await self.store.get_table(reply.table_id) if reply.table_id is not None else None
        if table is not None and reply.public is not None:
            speak(table.meta.get(LANGUAGE))
            use_palette(table.meta.get(PALETTE))
            await self.tables.pictures.attach_board_at(reply, table, reply.ply)
        await self.announce_reply(reply)
