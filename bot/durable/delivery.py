"""Delivering what nobody asked for: announcing a timeout, a reminder or a run of AI moves as it
happens, and sending again what the outbox still holds after a crash, pictures included; an
announcement of moves a rollback has undone since is withheld, with a note in its place."""

from __future__ import annotations

import logging

import renderers
from bot.community.notifications import TURN_LIST, quiet_users
from bot.core.i18n import N_, _, speak
from bot.core.meta import LANGUAGE, PALETTE
from bot.core.records import Notice, TableRecord
from bot.core.replies import Attachment, Message, Reply
from bot.durable.ai_runs import RUN
from bot.durable.outbox import SWEEP_SECONDS, OutboxSender
from bot.media.replay_animation import REPLAY_KIND
from bot.storage.loader import new_game, replay
from bot.tables.core import Tables
from bot.tables.notices import log_digest, nonce_of
from renderers.palettes import use_palette

log = logging.getLogger(__name__)

WITHHELD = N_("(The announcement of move {move} was not sent: a moderator has rolled the game back to move {to} "
              "since.)")
"""What stands in a thread for the announcement of moves a rollback undid before it was sent."""


class Deliveries:
    """Announces unprompted replies through the transport (`Tables.notify`) and runs the outbox
    (`outbox`) that sends again whatever was committed and not confirmed delivered."""

    def __init__(self, tables: Tables, *, outbox_every: float = SWEEP_SECONDS) -> None:
        self.tables = tables
        self.store = tables.store
        self.clock = tables.clock
        self.outbox = OutboxSender(tables.store, tables.clock, self.send_notices, lease=tables.delivery_lease,
                                   every=outbox_every, places=lambda: tables.places)

    async def announce(self, reply: Reply) -> None:
        """Deliver an unprompted reply now; if that fails, or this process does not serve its
        place (another console session's table), the outbox sends it later."""
        if not self.tables.serves(reply.place):
            log.info("the announcement for %s is left to the process serving that place", reply.place)
            return
        if self.tables.notify is None:
            await self.tables.delivered(reply)
            return
        try:
            await self.tables.notify(reply)
        except Exception:
            log.warning("delivering a notice for %s failed; the outbox will send it again", reply.place,
                        exc_info=True)
            return
        await self.tables.delivered(reply)

    async def send_notices(self, notices: list[Notice]) -> None:
        """Send a batch of notices the outbox still holds (raises if the transport fails). The
        announcement of moves a rollback has undone since is not sent: a note says so in its
        place (with its nonce, so a transport that already posted the announcement posts
        nothing), and the undone moves' private notes are dropped."""
        if self.tables.notify is None:
            log.info("no transport for %d notices at %s; dropped", len(notices), notices[0].place)
            return
        first = notices[0]
        table = await self.store.get_table(first.table_id)
        speak(table.meta.get(LANGUAGE) if table is not None else None)  # its notes and late pictures too
        use_palette(table.meta.get(PALETTE) if table is not None else None)
        reply = Reply(table_id=first.table_id, place=first.place, ply=first.ply,
                      status=table.status if table else None, notices=[n.id for n in notices if n.id is not None])
        undone_to = await self._rolled_back_since(table, first) if table is not None else None
        if undone_to is not None:
            log.info("notices %s describe moves a rollback to move %d undid; not sent", reply.notices, undone_to)
            if await self._told_again_one_by_one(notices, undone_to):
                return
        for notice in notices:
            if notice.kind == TURN_LIST:  # drawn from the store as it now is: never out of date
                if notice.mentions:
                    reply.lists[notice.mentions[0]] = notice.id
                continue
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
        if reply.public is None and not reply.private and not reply.lists:
            return
        if table is not None:
            await self.tables.addressed(reply, table)
            reply.quiet = quiet_users(await self.tables.choices(table), reply.recipients.values(), self.clock.now())
        await self.tables.notify(reply)

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
        check = self.tables.already_out
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
        if not wanted or not self.tables.pictures.render or table.game not in renderers.RENDERERS:
            return []
        try:
            actions = await self.store.actions(table.id)
            if notice.ply > len(actions):
                return []
            if notice.kind == REPLAY_KIND:
                return [await self.tables.replays.animation(table, actions[:notice.ply])]
            game = new_game(table)
            replay(game, actions[:notice.ply])
            if notice.board:
                return await self.tables.pictures.board(game, table.id)
            assert notice.seat is not None
            return [Attachment(f"{game.name}-hand.png", renderers.render_hand(game, notice.seat), _("your hand"))]
        except Exception:
            log.exception("drawing the pictures of notice %s failed; sending it without", notice.id)
            return []
