"""The outbox: announcements committed with the change that caused them, delivered after.

Every move's public message and private notes ("You drew 3:5") are written to the store in the
same transaction as the move (`Notice` rows). The transport that asked for the move delivers
them and confirms (`Tables.delivered`); whatever is left unconfirmed when its lease runs out (the
process died, Discord failed) is sent again by `OutboxSender`, which every process runs: once at
start and then periodically. Leases are taken in the store, so two processes never send the same
notice at once. Delivery is at least once: a crash after sending and before confirming sends the
notice again, which beats never sending it; each notice's message carries a nonce derived from
its row (`nonce_of`), so a transport that deduplicates by nonce (Discord, with `enforce_nonce`)
returns the first message instead of posting a second.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection

from bot.core import metrics
from bot.core.background import Background
from bot.core.clock import Clock
from bot.core.records import DELIVERY_LEASE, Notice
from bot.storage.store import Store, served

log = logging.getLogger(__name__)

SWEEP_SECONDS = 10.0
GIVE_UP_AFTER = 20
"""Attempts after which a notice that keeps failing is dropped (and logged)."""


def batches(notices: list[Notice]) -> list[list[Notice]]:
    """Notices grouped as they were committed: the same table, ply and moment."""
    groups: dict[tuple[int, int, float], list[Notice]] = {}
    for notice in notices:
        groups.setdefault((notice.table_id, notice.ply, notice.created_at), []).append(notice)
    return list(groups.values())


class OutboxSender:
    """Sends what is left in the outbox. `send(batch)` delivers one batch of notices (a public
    message and private notes committed together) and raises if it could not. `places()` says
    which places' notices this process delivers (None: every place's); the others are left for
    the process that delivers theirs."""

    def __init__(self, store: Store, clock: Clock, send: Callable[[list[Notice]], Awaitable[None]], *,
                 lease: float = DELIVERY_LEASE, every: float = SWEEP_SECONDS,
                 places: Callable[[], Collection[str] | None] = lambda: None) -> None:
        self.store = store
        self.clock = clock
        self.send = send
        self.lease = lease
        self.every = every
        self.places = places
        self.background = Background(self._run, "tileref-outbox")
        self._sending = asyncio.Lock()
        """Held while this process sends: a sweep and `send_pending` never send the same notice twice."""

    def start(self) -> None:
        """Sweep now and then every `every` seconds (until `stop`)."""
        self.background.start()

    async def stop(self) -> None:
        await self.background.stop()

    async def sweep(self) -> int:
        """Send every notice whose lease has run out; returns how many were confirmed."""
        sent = 0
        async with self._sending:
            while True:
                claimed = await self.store.claim_notices(self.clock.now(), self.lease, places=self.places())
                if not claimed:
                    return sent
                for batch in batches(claimed):
                    sent += await self._send(batch)
                if len(claimed) < 50:
                    return sent

    async def send_pending(self, table_id: int) -> int:
        """Send a table's undelivered notices now, leased or not: for a transport that alone
        delivers to its place (a console session, whose table's last announcements would
        otherwise wait for their lease after the game ended). Returns how many were confirmed."""
        sent = 0
        async with self._sending:
            places = self.places()
            pending = [n for n in await self.store.pending_notices(table_id) if served(places, n.place)]
            for batch in batches(pending):
                sent += await self._send(batch)
        return sent

    async def _send(self, batch: list[Notice]) -> int:
        """Send one batch and mark it delivered; returns how many notices it had (0 if sending
        failed: it is tried again later, or given up after `GIVE_UP_AFTER` attempts)."""
        ids = [n.id for n in batch if n.id is not None]
        try:
            await self.send(batch)
        except Exception:
            if max(n.attempts for n in batch) + 1 >= GIVE_UP_AFTER:
                log.error("giving up on notices %s after %d attempts", ids, GIVE_UP_AFTER, exc_info=True)
                await self.store.notices_delivered(ids, self.clock.now())
            else:
                log.warning("sending notices %s failed; trying again later", ids, exc_info=True)
            return 0
        now = self.clock.now()
        await self.store.notices_delivered(ids, now)
        metrics.notices_delivered(ids, now, {n.id: n.created_at for n in batch if n.id is not None})
        return len(ids)

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:
                log.warning("the outbox sweep failed; trying again in %ss", self.every, exc_info=True)
            await self.clock.sleep(self.every)
