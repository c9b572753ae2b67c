"""Animated replays of a table's game: every position a spectator saw, about a second each, a
longer hold where a round ends and at the end, as one GIF (at most 8 MB) to post in the thread.

Drawn from the spectator's view only (`renderers.render(game, None)` of each ply), in a drawing
process of its own: a long game takes a minute of Python, which in the bot's process (even in a
thread, sharing its interpreter lock) would slow every table's commands. The last few animations
are kept by the log they show."""

from __future__ import annotations

from collections import OrderedDict

import renderers
from bot.core.i18n import _, speaking
from bot.core.records import ActionRecord, TableRecord
from bot.core.replies import Attachment
from bot.media.spectator import Timeline, log_key
from bot.storage.store import Store
from bot.workers.drawing import DrawingPool
from renderers.animation import animated_gif

REPLAY_KIND = "replay"
"""The outbox kind of the announcement carrying a finished game's animated replay."""
MOVE_MS = 1000
ROUND_END_MS = 3000
LAST_MS = 5000
KEPT = 4


def replay_frames(table: TableRecord, actions: list[ActionRecord]) -> tuple[list[bytes], list[int]]:
    """The board after each ply (0: as dealt) and how long each is shown, in milliseconds; the
    boards' words in the table's language, whoever asks (the outbox's task speaks none)."""
    timeline = Timeline(table, actions)
    frames = []
    durations = []
    with speaking(table.meta.get("lang")):
        for ply in range(timeline.length + 1):
            frames.append(renderers.render(timeline.game_at(ply), None, instructions=False))
            ends_round = ply > 0 and timeline.entries[ply - 1].round_end
            durations.append(LAST_MS if ply == timeline.length else ROUND_END_MS if ends_round else MOVE_MS)
    return frames, durations


def replay_gif(table: TableRecord, actions: list[ActionRecord]) -> bytes:
    """The whole game as an animated GIF (see the module's docstring)."""
    frames, durations = replay_frames(table, actions)
    return animated_gif(frames, durations)


class Replays:
    """Makes animated replays, keeping the last few (a table's replay asked for twice is drawn once)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.drawing = DrawingPool()
        self._kept: OrderedDict[tuple[int, str], bytes] = OrderedDict()

    async def animation(self, table: TableRecord, actions: list[ActionRecord] | None = None) -> Attachment:
        """The table's game so far as an animated GIF attachment."""
        if actions is None:
            actions = await self.store.actions(table.id)
        key = (table.id, log_key(actions))
        data = self._kept.get(key)
        if data is None:
            data = await self.drawing.call(replay_gif, table, actions)
            self._kept[key] = data
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        with speaking(table.meta.get("lang")):
            described = _("an animated replay of the game")
        return Attachment(f"{table.game}-replay.gif", data, described)

    def close(self) -> None:
        """Stop the drawing process."""
        self.drawing.close()
