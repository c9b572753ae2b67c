"""The clock's duties and the outbox's deliveries: firing deadlines and reminders, announcing
what nobody asked for, and sending again what a crash left unsent, pictures included.

`ClockDuties` belongs to the `Referee`, which owns one and hands its timers and outbox to it. It
sees the referee through the `ClockDesk` protocol and never imports it."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Protocol

import renderers
from bot.community.notifications import reminder_messages
from bot.core.clock import Clock
from bot.core.i18n import N_, _, speak
from bot.core.records import DEADLINE, PLAYING, REMINDER, Notice, TableRecord, Timer
from bot.core.refusals import Refused
from bot.core.replies import Attachment, Message, Reply, deadline_token, mention, name_token
from bot.durable.ai_turns import RUN
from bot.durable.outbox import log_digest, nonce_of
from bot.media.replay_animation import REPLAY_KIND, Replays
from bot.storage.loader import new_game, replay
from bot.storage.store import StaleLog, StaleTable, Store
from bot.tables.turns import Turn
from bot.words import narration
from engine import Game

log = logging.getLogger("bot.service.referee")

WITHHELD = N_("(The announcement of move {move} was not sent: a moderator has rolled the game back to move {to} "
              "since.)")
"""What stands in a thread for the announcement of moves a rollback undid before it was sent."""


class ClockDesk(Protocol):
    """What the clock's duties and the outbox use of the referee: its store and clock, the
    transport's `notify` and the places it serves, a table's lock and state, committing a turn,
    announcements and board pictures (the `Referee` provides it)."""

    store: Store
    clock: Clock
    notify: Callable[[Reply], Awaitable[None]] | None
    already_out: Callable[[Reply], Awaitable[bool]] | None
    render_images: bool
    replays: Replays

    def lock(self, place: str) -> AbstractAsyncContextManager[None]: ...
    def serves(self, place: str | None) -> bool: ...
    async def playing(self, place: str, table: TableRecord | None = None) -> tuple[TableRecord, Game]: ...
    async def turn(self, table: TableRecord, game: Game, timers: list[Timer] | None = None) -> Turn: ...
    async def table_timers(self, table: TableRecord) -> list[Timer]: ...
    async def finish(self, turn: Turn, *, headline: str = "", undo_after: int | None = None,
                     expected: int | None = None) -> Reply: ...
    def notice(self, table: TableRecord, game: Game, text: str, *, seat: int | None = None,
               mentions: list[str] | None = None, board: bool = False, kind: str = "move",
               now: float | None = None) -> Notice: ...
    async def board_attachments(self, game: Game, table_id: int, viewer: int | None = None, *,
                                deadlines: Mapping[int, float] | None = None) -> list[Attachment]: ...
    async def delivered(self, reply: Reply) -> None: ...


class ClockDuties:
    """Fires the timers the referee's dispatcher hands it and sends what its outbox holds."""

    def __init__(self, referee: ClockDesk) -> None:
        self.referee = referee
        self.store = referee.store
        self.clock = referee.clock

    async def on_timer(self, timer: Timer) -> None:
        """Fire a due deadline or reminder and announce what it did (nothing if another process
        or a move handled it first)."""
        assert timer.id is not None
        table = await self.store.get_table(timer.table_id)
        if table is None or table.status != PLAYING or table.paused:
            await self.store.delete_timer(timer.id)
            return
        try:
            reply = await self._fire(table.place, timer)
        except (StaleLog, StaleTable):
            log.info("timer %s was handled elsewhere first", timer.id)
            return
        except Refused:  # the game ended or stopped meanwhile (another process): its timers go with it
            log.info("timer %s belongs to a game that is no longer played; dropped", timer.id)
            await self.store.delete_timer(timer.id)
            return
        if reply is not None:
            await self.announce(reply)

    async def _fire(self, place: str, timer: Timer) -> Reply | None:
        assert timer.id is not None
        async with self.referee.lock(place):
            table, game = await self.referee.playing(place)
            current = await self.referee.table_timers(table)
            if timer.id not in {t.id for t in current}:
                return None
            if timer.seat not in game.to_move():
                await self.store.delete_timer(timer.id)
                return None
            seat = table.seats[timer.seat]
            if timer.kind == REMINDER:
                deadline = next((t.due for t in current if t.kind == DEADLINE and t.seat == timer.seat), None)
                if deadline is None or deadline <= self.clock.now():
                    await self.store.delete_timer(timer.id)
                    return None
                who = mention(seat.user_id, seat.name) if seat.user_id else name_token(seat.name)
                text = _("⏰ {player}, your turn ends {when}.").format(player=who, when=deadline_token(deadline))
                now = self.clock.now()
                notice = self.referee.notice(table, game, text, kind="reminder",
                                             mentions=[seat.user_id] if seat.user_id else [], now=now)
                direct = await reminder_messages(self.store, table, timer.seat, deadline)
                notices = [notice, *(self.referee.notice(table, game, note, seat=s, kind="private", now=now)
                                     for s, note in direct.items())]
                await self.store.commit(table.id, expected=len(game.log), delete_timer=timer.id, notices=notices)
                nonces = {n.seat: nonce_of(n) for n in notices}
                return Reply(public=Message(text, nonce=nonces[None]),
                             private={s: Message(note, nonce=nonces[s]) for s, note in direct.items()},
                             table_id=table.id, place=table.place, notices=[n.id for n in notices if n.id],
                             mentions=list(notice.mentions), ply=len(game.log), status=table.status)
            now = self.clock.now()
            late = sorted({t.seat for t in current if t.kind == DEADLINE and t.due <= now and t.seat in game.to_move()}
                          | {timer.seat})
            turn = await self.referee.turn(table, game, current)
            for late_seat in late:  # every seat whose time ran out: one announcement (a phase that ends)
                if late_seat in turn.game.to_move():
                    turn.time_out(late_seat, "clock")
            names = narration.join([name_token(table.seats[s].name) for s in late])
            return await self.referee.finish(turn, headline=_("⏰ {players} ran out of time.").format(players=names))

    async def announce(self, reply: Reply) -> None:
        """Deliver an unprompted reply now; if that fails, or this process does not serve its
        place (another console session's table), the outbox sends it later."""
        if not self.referee.serves(reply.place):
            log.info("the announcement for %s is left to the process serving that place", reply.place)
            return
        if self.referee.notify is None:
            await self.referee.delivered(reply)
            return
        try:
            await self.referee.notify(reply)
        except Exception:
            log.warning("delivering a notice for %s failed; the outbox will send it again", reply.place,
                        exc_info=True)
            return
        await self.referee.delivered(reply)

    async def send_notices(self, notices: list[Notice]) -> None:
        """Send a batch of notices the outbox still holds (raises if the transport fails). The
        announcement of moves a rollback has undone since is not sent: a note says so in its
        place (with its nonce, so a transport that already posted the announcement posts
        nothing), and the undone moves' private notes are dropped."""
        if self.referee.notify is None:
            log.info("no transport for %d notices at %s; dropped", len(notices), notices[0].place)
            return
        first = notices[0]
        table = await self.store.get_table(first.table_id)
        speak(table.meta.get("lang") if table is not None else None)  # its notes and late pictures too
        reply = Reply(table_id=first.table_id, place=first.place, ply=first.ply,
                      status=table.status if table else None, notices=[n.id for n in notices if n.id is not None])
        undone_to = await self._rolled_back_since(table, first) if table is not None else None
        if undone_to is not None:
            log.info("notices %s describe moves a rollback to move %d undid; not sent", reply.notices, undone_to)
            if await self._told_again_one_by_one(notices, undone_to):
                return
        for notice in notices:
            if undone_to is not None:
                if notice.seat is None and notice.board:
                    reply.public = Message(_(WITHHELD).format(move=notice.ply, to=undone_to), nonce=nonce_of(notice))
                    reply.withdrawn = notice.text
                    reply.origin = notice.origin
                    reply.committed_at = notice.created_at
                continue
            attachments = await self._late_pictures(table, notice) if table is not None else []
            message = Message(notice.text, attachments, nonce=nonce_of(notice))
            if notice.seat is None:
                reply.public = message
                reply.mentions = list(notice.mentions)
                reply.origin = notice.origin
                reply.committed_at = notice.created_at
            else:
                reply.private[notice.seat] = message
        if reply.public is None and not reply.private:
            return
        await self.referee.notify(reply)

    async def _told_again_one_by_one(self, notices: list[Notice], undone_to: int) -> bool:
        """For a run of AI moves told as one message (`RUN`) that a rollback undid in part or in
        whole: unless that message is out already, its moves are put back in the outbox to be
        told one by one, each as it now stands (told, or withheld with a note); True if this was
        such a run (nothing more is sent for it)."""
        run = next((n for n in notices if n.seat is None and n.kind == RUN), None)
        if run is None or run.id is None:
            return False
        told = Reply(public=Message(_(WITHHELD).format(move=run.ply, to=undone_to), nonce=nonce_of(run)),
                     place=run.place, ply=run.ply, origin=run.origin, committed_at=run.created_at,
                     withdrawn=run.text)
        check = self.referee.already_out
        if check is not None and await check(told):
            return True
        reopened = await self.store.reopen_merged(run.id, self.clock.now())
        log.info("the run of AI moves of notice %s was never out; its %d notices go one by one", run.id, reopened)
        return True

    async def _rolled_back_since(self, table: TableRecord, notice: Notice) -> int | None:
        """The move a rollback took the game back to, if one made after `notice` was committed
        undid any of the moves it tells (its text and picture would show a game that is gone);
        else None. Told by the log alone, never by clocks: the live log up to the notice's move
        is either the one it was committed on or not."""
        if not notice.log:
            return None  # committed before notices recorded their log: taken as current
        actions = await self.store.actions(table.id)
        if len(actions) >= notice.ply and log_digest((a.seat, a.action) for a in actions[:notice.ply]) == notice.log:
            return None
        reshuffles = [a.ply for a in actions[:notice.ply] if a.chance]
        return reshuffles[-1] - 1 if reshuffles else min(len(actions), notice.ply)

    async def _late_pictures(self, table: TableRecord, notice: Notice) -> list[Attachment]:
        """The pictures a notice asked for, drawn as of its move; [] (with a log line) if that
        move is gone or drawing fails."""
        wanted = notice.board or notice.hand or notice.kind == REPLAY_KIND
        if not wanted or not self.referee.render_images or table.game not in renderers.RENDERERS:
            return []
        try:
            actions = await self.store.actions(table.id)
            if notice.ply > len(actions):
                return []
            if notice.kind == REPLAY_KIND:
                return [await self.referee.replays.animation(table, actions[:notice.ply])]
            game = new_game(table)
            replay(game, actions[:notice.ply])
            if notice.board:
                return await self.referee.board_attachments(game, table.id)
            assert notice.seat is not None
            return [Attachment(f"{game.name}-hand.png", renderers.render_hand(game, notice.seat), _("your hand"))]
        except Exception:
            log.exception("drawing the pictures of notice %s failed; sending it without", notice.id)
            return []
