"""A background loop always stops when told, even one whose wait swallowed a cancellation (as
Python 3.11's `asyncio.wait_for` can when what it waits for finishes at the same moment)."""

from __future__ import annotations

import asyncio

from bot.core.background import Background, woken


async def test_stopping_a_loop_that_swallowed_its_first_cancellation_still_ends_it():
    swallowed = 0

    async def stubborn() -> None:
        nonlocal swallowed
        while True:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                swallowed += 1
                if swallowed > 1:
                    raise

    loop = Background(stubborn, "stubborn")
    loop.start()
    await asyncio.sleep(0)
    await asyncio.wait_for(loop.stop(), 10)
    assert swallowed == 2


async def test_woken_says_whether_the_event_came_before_the_time_ran_out():
    event = asyncio.Event()
    assert await woken(event, 0.01) is False
    event.set()
    assert await woken(event, 10) is True


async def test_cancelling_a_waiter_as_its_event_is_set_cancels_it():
    event = asyncio.Event()
    waiter = asyncio.ensure_future(woken(event, 10))
    await asyncio.sleep(0)
    event.set()
    waiter.cancel()
    await asyncio.wait({waiter})
    assert waiter.cancelled()
