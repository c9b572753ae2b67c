"""Live updates: the store's change feed (PostgreSQL LISTEN/NOTIFY, or SQLite's change counter,
polled) turned into one update per table change, written once and copied to every open event
stream of that table's page.

A table's update is composed once (by the `Compose` the server gives: the new moves as list
items, the address of the new picture, …), however many pages watch it, and framed once; it is
then written straight to each stream's connection in one pass (`EventSink`), with no task woken
and nothing encoded per watcher. Changes that come while an update is being composed are folded
into one more update after it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable

from bot.storage.store import ANY_TABLE, Store

log = logging.getLogger(__name__)

KEPT_UPDATES = 32
"""Updates a table's stream remembers for a watcher that opened its stream while one was being
sent (it is sent what it missed); one further behind is told to load the page again (`RESET`)."""
RESET = b'event: change\ndata: {"reload": true}\n\n'
HEARTBEAT = 20.0
"""Seconds between comments on every open event stream (proxies close silent connections)."""
STILL_HERE = b": still here\n\n"
MOST_BUFFERED = 1 << 20
"""Bytes a stream's connection may hold unsent before its watcher is dropped as too slow (its
browser connects again, names the last position it knows, and is told what it missed)."""


def chunk(data: bytes) -> bytes:
    """`data` as one chunk of HTTP/1.1's chunked transfer coding."""
    return b"%x\r\n%b\r\n" % (len(data), data)


class EventSink:
    """One open event stream's connection (`transport`, an asyncio transport whose response
    headers are already sent; `chunked`: the response uses chunked transfer coding), written to
    directly. `ended` is done once nothing more will be written: the connection closed or fell
    too far behind, or the feed stopped."""

    __slots__ = ("chunked", "ended", "transport")

    def __init__(self, transport: asyncio.Transport, chunked: bool) -> None:
        self.transport = transport
        self.chunked = chunked
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def send(self, data: bytes, framed: bytes | None = None) -> None:
        """Write the event(s) `data` (`framed`: the same already as a chunk); a connection that
        is closing or holds more than `MOST_BUFFERED` unsent bytes is ended instead."""
        transport = self.transport
        if transport.is_closing():
            self.end()
        elif transport.get_write_buffer_size() > MOST_BUFFERED:
            transport.abort()
            self.end()
        else:
            transport.write((framed or chunk(data)) if self.chunked else data)

    def end(self) -> None:
        if not self.ended.done():
            self.ended.set_result(None)


class TableStream:
    """The updates of one watched table, numbered, and the open streams they are written to.
    `told` is what the server last told about the table (its log's prefix keys), for the next
    update to say from which move the list changes."""

    def __init__(self) -> None:
        self.seq = 0
        self.updates: deque[tuple[int, bytes]] = deque(maxlen=KEPT_UPDATES)
        self.sinks: set[EventSink] = set()
        self.watchers = 0
        self.told: list[str] | None = None
        self.token = ""
        """The table's link token (its pages' addresses start with it)."""
        self.last_sent: bytes = b""
        self.state = ""
        """What the last update told besides the moves (the picture, status, players…), as the
        server writes it: an update that would tell nothing more is not sent."""
        self.composing: asyncio.Task[None] | None = None
        self.again = False

    def publish(self, data: bytes) -> None:
        """Send `data` to every open stream (unless it says the same as the last update)."""
        if data == self.last_sent:
            return
        self.last_sent = data
        self.seq += 1
        self.updates.append((self.seq, data))
        self.fan_out(data)

    def fan_out(self, data: bytes) -> None:
        """Write `data` to every open stream, framed once for all of them."""
        framed = chunk(data)
        for sink in self.sinks:
            sink.send(data, framed)

    def since(self, seen: int) -> tuple[int, list[bytes]]:
        """The updates after number `seen`, and the number of the last; `RESET` alone when some
        of them are no longer kept."""
        if seen >= self.seq:
            return seen, []
        if not self.updates or self.updates[0][0] > seen + 1:
            return self.seq, [RESET]
        return self.seq, [data for number, data in self.updates if number > seen]


Compose = Callable[[int, TableStream], Awaitable[bytes | None]]
"""`compose(table_id, stream)`: the update to send about the table now (None: nothing to say),
setting `stream.told` to what it tells."""


class LiveFeed:
    """The watched tables' streams, an update composed for each change of one of them, and a
    comment on every open stream every `HEARTBEAT` seconds."""

    def __init__(self, store: Store, compose: Compose, heartbeat: float = HEARTBEAT) -> None:
        self.store = store
        self.compose = compose
        self.heartbeat = heartbeat
        self._tables: dict[int, TableStream] = {}
        self._beating: asyncio.Task[None] | None = None
        self.closed = False

    async def start(self) -> None:
        await self.store.listen(self.changed)
        self._beating = asyncio.get_running_loop().create_task(self._beat())

    async def stop(self) -> None:
        self.closed = True
        await self.store.unlisten(self.changed)
        if self._beating is not None:
            self._beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beating
        for stream in self._tables.values():
            if stream.composing is not None:
                stream.composing.cancel()
            for sink in stream.sinks:
                sink.end()

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            for stream in list(self._tables.values()):
                stream.fan_out(STILL_HERE)

    def changed(self, table_id: int) -> None:
        """A commit touched `table_id` (or any table: ANY_TABLE): compose its update, once."""
        ids = list(self._tables) if table_id == ANY_TABLE else [table_id] if table_id in self._tables else []
        for changed in ids:
            stream = self._tables[changed]
            if stream.composing is not None and not stream.composing.done():
                stream.again = True
            else:
                stream.composing = asyncio.get_running_loop().create_task(self._update(changed, stream))

    async def _update(self, table_id: int, stream: TableStream) -> None:
        while True:
            stream.again = False
            try:
                data = await self.compose(table_id, stream)
            except Exception:
                log.exception("composing a live update failed")  # never the table's token
            else:
                if data is not None:
                    stream.publish(data)
            if not stream.again or self.closed:
                return

    def subscribe(self, table_id: int) -> TableStream:
        """The table's stream, one more watcher on it (`unsubscribe` when it leaves)."""
        stream = self._tables.get(table_id)
        if stream is None:
            stream = self._tables[table_id] = TableStream()
        stream.watchers += 1
        return stream

    def unsubscribe(self, table_id: int) -> None:
        stream = self._tables.get(table_id)
        if stream is not None:
            stream.watchers -= 1
            if stream.watchers <= 0:
                del self._tables[table_id]
                if stream.composing is not None:
                    stream.composing.cancel()

    @property
    def streams(self) -> int:
        return sum(s.watchers for s in self._tables.values())
