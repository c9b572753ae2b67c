"""The pictures a table's messages carry: the public board (with the pictures players chose and the
earliest deadline) and a player's own hand, drawn off the event loop."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

import renderers
from bot.core.i18n import N_, _
from bot.core.meta import FOOT
from bot.core.records import DEADLINE, TableRecord
from bot.core.replies import Attachment, Message, Reply, command_token
from bot.media.search import decoded
from bot.storage.loader import GameLoader, new_game, replay
from bot.storage.store import Store
from bot.words.wording import hand_text
from bot.workers.drawing import DrawingPool
from engine import Game

log = logging.getLogger(__name__)

NO_PICTURE = N_("(The board picture could not be drawn this time; `{board}` shows it.)")


def described_board(game: Game) -> str:
    """What a posted board picture carries as its description (Discord's attachment description,
    read by screen readers): the public board in words, within Discord's 1,024 characters, saying
    what it leaves out (`/board describe` gives it whole). Never a hand: the picture is public."""
    return renderers.describe_within(game, DESCRIPTION_LIMIT)


DESCRIPTION_LIMIT = 1024
"""The most characters Discord takes as an attachment's description."""


class BoardPictures:
    """Draws boards and hands. `render`: False draws nothing (tests, benchmarks).

    A command's own picture is drawn in `thread`, one thread drawing one picture at a time (fonts
    are not shared across threads), so a picture's tens of milliseconds never hold up other
    tables' commands; announcements nobody waits on are drawn in `process`, a process of their
    own, which holds up nothing at all."""

    def __init__(self, store: Store, games: GameLoader, *, render: bool = True) -> None:
        self.store = store
        self.games = games
        self.render = render
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="tileref-drawing")
        self.process = DrawingPool()

    def close(self) -> None:
        self.thread.shutdown(wait=False)
        self.process.close()

    async def board(self, game: Game, table_id: int, viewer: int | None = None, *,
                    deadlines: Mapping[int, float] | None = None, elsewhere: bool = False) -> list[Attachment]:
        """The public board picture, with the pictures players chose (their chicken-feet) and the
        earliest deadline; `viewer` is emphasised (nothing hidden is ever drawn). `game` must not
        change while it is drawn (a command's own game, under its lock, or a copy). `elsewhere`:
        drawn in the drawing process (for announcements nobody is waiting on). The picture carries
        the board in words as its description (`described_board`)."""
        if not self.render or game.name not in renderers.RENDERERS:
            return []
        feet = {seat: decoded(data) for seat, (data, _source) in (await self.store.pictures(table_id, FOOT)).items()
                if seat < game.players}
        if deadlines is None:
            deadlines = {t.seat: t.due for t in await self.store.timers(table_id) if t.kind == DEADLINE}
        deadline = min(deadlines.values(), default=None)
        loop = asyncio.get_running_loop()
        # in this command's context, so the picture and its words speak the table's language
        described = loop.run_in_executor(self.thread, contextvars.copy_context().run, described_board, game)
        if elsewhere:
            data = await self.process.render(game, viewer, feet=feet or None, deadline=deadline)
        else:
            draw = functools.partial(renderers.render, game, viewer, feet=feet or None, deadline=deadline)
            data = await loop.run_in_executor(self.thread, contextvars.copy_context().run, draw)
        return [Attachment(f"{game.name}-move-{len(game.log)}.png", data, await described)]

    async def attach_board(self, reply: Reply, game: Game, table_id: int, *,
                           deadlines: Mapping[int, float] | None = None) -> None:
        """The board on the reply's public message; a note instead if it cannot be drawn (the move
        stands either way)."""
        try:
            attachments = await self.board(game, table_id, deadlines=deadlines)
        except Exception:
            attachments = self._no_picture(reply, table_id)
        assert reply.public is not None
        reply.public.attachments = attachments

    async def attach_board_at(self, reply: Reply, table: TableRecord, ply: int | None) -> None:
        """The board as of move `ply` on the reply's public message, drawn in the drawing process
        (nobody is waiting on it); a note instead if it cannot be drawn."""
        try:
            attachments = await self.board(await self.game_at(table, ply), table.id, elsewhere=True)
        except Exception:
            attachments = self._no_picture(reply, table.id)
        assert reply.public is not None
        reply.public.attachments = attachments

    @staticmethod
    def _no_picture(reply: Reply, table_id: int) -> list[Attachment]:
        log.exception("drawing the board of table %s failed; announcing without it", table_id)
        assert reply.public is not None
        reply.public.text += "\n" + _(NO_PICTURE).format(board=command_token("board"))
        return []

    async def game_at(self, table: TableRecord, ply: int | None) -> Game:
        """The table's game as of move `ply` (as it is, if it is there, copied: no lock is held, so
        a command may move the table's game on meanwhile; else replayed from the log)."""
        game = await self.games.get(table)
        if ply is not None and len(game.log) != ply:
            game = new_game(table)
            replay(game, (await self.store.actions(table.id))[:ply])
            return game
        return game.clone()

    def hand(self, game: Game, seat: int) -> Message:
        """A player's hand, as text and a picture, for them alone."""
        attachments = []
        if self.render and game.name in renderers.RENDERERS:
            attachments.append(Attachment(f"{game.name}-hand.png", renderers.render_hand(game, seat), _("your hand")))
        return Message(hand_text(game, seat), attachments)
