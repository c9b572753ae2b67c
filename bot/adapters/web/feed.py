"""Live updates: the store's change feed (PostgreSQL LISTEN/NOTIFY, or SQLite's in-process
signal) fanned out to the open event streams of each table's page."""

from __future__ import annotations

import asyncio
from collections import defaultdict

from bot.storage.store import ANY_TABLE, Store


class LiveFeed:
    """Who watches which table, and a wake-up for each when its table changes."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._watchers: defaultdict[int, set[asyncio.Event]] = defaultdict(set)

    async def start(self) -> None:
        await self.store.listen(self.changed)

    async def stop(self) -> None:
        await self.store.unlisten(self.changed)
        for waiting in self._watchers.values():
            for event in waiting:
                event.set()

    def changed(self, table_id: int) -> None:
        """A commit touched `table_id` (or any table: ANY_TABLE): wake everyone watching it."""
        watching = [w for ws in self._watchers.values() for w in ws] if table_id == ANY_TABLE \
            else self._watchers.get(table_id, ())
        for event in watching:
            event.set()

    def watch(self, table_id: int) -> asyncio.Event:
        """An event set whenever the table changes (clear it after each wake-up); `unwatch` it."""
        event = asyncio.Event()
        self._watchers[table_id].add(event)
        return event

    def unwatch(self, table_id: int, event: asyncio.Event) -> None:
        watchers = self._watchers.get(table_id)
        if watchers is not None:
            watchers.discard(event)
            if not watchers:
                del self._watchers[table_id]

    @property
    def streams(self) -> int:
        return sum(len(w) for w in self._watchers.values())
