"""The manual clock tests and simulations drive: sleepers wake in order, and it says when the next one does."""

from __future__ import annotations

import asyncio

from bot.core.clock import ManualClock


async def test_next_wake_is_the_earliest_sleeper_still_waiting():
    clock = ManualClock(1000.0)
    assert clock.next_wake() is None
    late = asyncio.ensure_future(clock.sleep(60))
    early = asyncio.ensure_future(clock.sleep(30))
    await asyncio.sleep(0)
    assert clock.next_wake() == 1030.0
    early.cancel()
    await asyncio.sleep(0)
    assert clock.next_wake() == 1060.0
    await clock.advance(60)
    assert late.done() and clock.next_wake() is None
