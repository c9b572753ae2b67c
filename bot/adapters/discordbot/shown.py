"""What each thread's players last saw: the log length of every board the bot posted there, by
the message's snowflake. A command's own snowflake then tells which board its sender had seen,
and the referee refuses it if the sender's seat was acted on since (the clock, a moderator, a
double click). Discord stamps both ids with its own clock, so no clock of ours can skew this.

Kept in memory: a thread's commands reach the process that serves its shard, and after a
restart the referee falls back to the log length when the command arrives."""

from __future__ import annotations

from collections import OrderedDict, deque
from typing import Any

import discord


class ShownBoards:
    def __init__(self, places: int = 10_000, per_place: int = 32) -> None:
        self.places = places
        self.per_place = per_place
        self._shown: OrderedDict[str, deque[tuple[int, int]]] = OrderedDict()

    def record(self, place: str | None, message: Any, ply: int | None) -> None:
        """The bot posted `message` at `place` showing the game at log length `ply`."""
        if place is None or ply is None or not isinstance(getattr(message, "id", None), int):
            return
        shown = self._shown.setdefault(place, deque(maxlen=self.per_place))
        shown.append((message.id, ply))
        self._shown.move_to_end(place)
        while len(self._shown) > self.places:
            self._shown.popitem(last=False)

    def seen(self, place: str, command_id: int) -> int | None:
        """The log length of the newest board posted at `place` before the command `command_id`
        was made, or None if none is known."""
        before = [ply for message_id, ply in self._shown.get(place, ()) if message_id < command_id]
        return before[-1] if before else None


def shown_boards(client: discord.Client) -> ShownBoards:
    """The client's record of boards shown (made on first use)."""
    boards: ShownBoards | None = getattr(client, "shown_boards", None)
    if boards is None:
        boards = ShownBoards()
        client.shown_boards = boards  # type: ignore[attr-defined]
    return boards
