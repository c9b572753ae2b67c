"""The clock's duties and the outbox's re-sends (bot/durable/clock_duties.py, delivery.py): an
announcement re-sent after a rollback never shows a game that is gone, and a timer of a game another process just
finished is dropped quietly. Both databases (the `database` fixture); a manual clock."""

from __future__ import annotations

import asyncio
import logging

import pytest

import renderers
from bot.core.clock import ManualClock
from bot.core.records import DEADLINE, FINISHED
from bot.storage.loader import new_game, replay
from tests.bot.referees import ALICE, BOB, MOD, PLACE, Notices, running_referee, started, text, waiting_user


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def test_a_resent_announcement_of_a_move_a_rollback_undid_is_dropped_with_a_note(database, clock):
    notices = Notices()
    async with running_referee(database, clock, notices=notices, render=True, confirms_delivery=True) as referee:
        await referee.outbox.stop()  # sweeps are made by hand below
        await referee.delivered(await started(referee, ALICE, BOB))
        table = await referee.table_at(PLACE)
        first = await referee.act(PLACE, await waiting_user(referee), "draw")  # never confirmed: the bot died
        await clock.advance(5)
        mover = await waiting_user(referee)
        second = await referee.act(PLACE, mover, (await referee.suggestions(PLACE, mover, "pass"))[0])  # neither
        await clock.advance(5)
        rollback = await referee.rollback(PLACE, MOD, 1)
        assert rollback.ok
        await referee.delivered(rollback)
        await clock.advance(referee.delivery_lease + 11)
        await referee.outbox.sweep()
        assert await referee.store.pending_notices(table.id) == []
        kept = [n for n in notices if n.ply == first.ply]
        assert len(kept) == 1 and kept[0].public.text == first.public.text  # move 1 stands: sent with its picture
        game = new_game(table)
        replay(game, (await referee.store.actions(table.id))[:1])
        assert kept[0].public.attachments[0].data == renderers.render(game, None)
        dropped = [n for n in notices if n.ply == second.ply]
        assert len(dropped) == 1 and dropped[0].private == {} and not dropped[0].public.attachments
        assert text(dropped[0]) == ("(The announcement of move 2 was not sent: a moderator has rolled the game back "
                                    "to move 1 since.)")


async def test_a_timer_of_a_game_another_process_just_finished_is_dropped_quietly(database, clock, caplog):
    async with running_referee(database, clock) as one, running_referee(database, clock) as two:
        await started(one, ALICE, BOB, turn_time="1h")
        table = await one.table_at(PLACE)
        timer = next(t for t in await one.store.timers(table.id) if t.kind == DEADLINE)
        gate = Gate()
        one.tables._locks[PLACE] = gate  # the timer has read the table (still playing) and waits for its turn
        async with gate:
            firing = asyncio.create_task(one.duties.on_timer(timer))
            await gate.asked.wait()
            assert (await two.resign(PLACE, await waiting_user(two))).ok  # meanwhile another process ends it
        with caplog.at_level(logging.INFO):
            await firing  # neither raises (the dispatcher would log an ERROR and try again) nor logs one
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert (await one.table_at(PLACE)).status == FINISHED and await one.store.timers(table.id) == []


class Gate(asyncio.Lock):
    """A lock that says when a second party asks for it (the first is the test itself)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = asyncio.Event()
        self._calls = 0

    async def acquire(self) -> bool:
        self._calls += 1
        if self._calls > 1:
            self.asked.set()
        return await super().acquire()
