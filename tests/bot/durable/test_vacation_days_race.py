"""A vacation day is spent once, however many processes fire the deadlines that spend it: two
real processes serve the clock of two tables whose banks ran out for the same player at once;
one is killed (SIGKILL) while at it. The player's third game, whose bank has days left, is
planned again with the day (a day later), once. On an SQLite file and on PostgreSQL (`database`)."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.core.clock import ManualClock
from bot.core.records import DEADLINE, REPLAN, User
from bot.service.referee import Referee
from bot.storage.address import store_for
from bot.storage.vacations import AUTOMATIC, DAY, VacationTaken, year_of
from tests.bot.referees import ALICE, BOB, CAROL, running_referee, text
from tests.bot.spawned import SPAWN, at_once, clock_worker

GUILD = "test:guild"
MANAGER = User("test:manager", "manager", moderator=True, manager=True)
PLACES = ("test:first", "test:second")
THIRD = "test:third"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(start=time.time() - 2 * DAY)  # the banks ran out long before the processes start


async def _alice_waiting_at(referee: Referee, place: str, partner: User, bank: str = "1h/1h") -> int:
    """A started table at `place` with an hour's bank (or `bank`), waiting for Alice; its id."""
    assert (await referee.create(place, ALICE, "tronimoes", options=f"clock={bank}", guild=GUILD)).ok
    assert (await referee.join(place, partner)).ok
    assert (await referee.start(place, ALICE)).ok
    table, game = await referee.view(place)
    while table.seats[game.to_move()[0]].user_id != ALICE.id:
        moves = await referee.suggestions(place, partner, "", limit=1000)
        reply = await referee.act(place, partner, ([m for m in moves if m[0].isdigit()] or moves)[0])
        assert reply.ok, text(reply)
        table, game = await referee.view(place)
    return table.id


async def test_a_vacation_day_is_never_spent_twice_by_two_processes_or_a_killed_one(database, clock):
    async with running_referee(database, clock) as referee:
        assert (await referee.update_settings(GUILD, MANAGER, vacation_days="5")).ok
        tables = [await _alice_waiting_at(referee, place, partner) for place, partner in
                  zip(PLACES, (BOB, CAROL), strict=True)]
        third = await _alice_waiting_at(referee, THIRD, BOB, bank="10d/10d")
        seat = (await referee.store.get_table(third)).seat_of(ALICE.id)
        third_due = next(t.due for t in await referee.store.timers(third) if t.kind == DEADLINE and t.seat == seat)
    readies = [SPAWN.Event(), SPAWN.Event()]
    doomed = SPAWN.Process(target=clock_worker, args=(database, 30.0, readies[0]))
    survivor = SPAWN.Process(target=clock_worker, args=(database, 5.0, readies[1]))
    doomed.start()
    survivor.start()
    assert all(ready.wait(30) for ready in readies)
    await asyncio.sleep(1.5)
    doomed.kill()  # SIGKILL, whatever it was doing
    doomed.join(timeout=10)
    survivor.join(timeout=60)
    assert doomed.exitcode == -9 and survivor.exitcode == 0
    async with running_referee(database, ManualClock(start=time.time())) as referee:
        now = time.time()
        assert await referee.store.vacations.days_spent(GUILD, ALICE.id, year_of(now)) == 1
        spent = await referee.store.vacations.of_player(GUILD, ALICE.id, 0)
        assert [(v.kind, v.days) for v in spent] == [(AUTOMATIC, 1)]
        for table_id in tables:
            assert not [a for a in await referee.store.actions(table_id) if a.actor == "clock"]  # nobody timed out
            table = await referee.store.get_table(table_id)
            alice = table.seat_of(ALICE.id)
            due = {t.seat: t.due for t in await referee.store.timers(table_id) if t.kind == DEADLINE}
            assert due[alice] == pytest.approx(spent[0].ends)  # both games: a day more, from the same moment
            notes = [n for n in await referee.store.pending_notices(table_id) if "vacation day" in n.text]
            assert len(notes) <= 1
        timers = await referee.store.timers(third)
        alice = (await referee.store.get_table(third)).seat_of(ALICE.id)
        assert [t.due for t in timers if t.kind == DEADLINE and t.seat == alice] == [third_due + DAY]
        assert not [t for t in timers if t.kind == REPLAN]  # planned again once, by whichever process


ROUNDS = 25
NEW_YEAR = 1_798_761_600.0
"""2027-01-01 00:00 UTC: the rounds' days all fall in one year."""


async def _spend_days(path: str, table_id: int) -> int:
    """Spend Alice's vacation day of each round (round k: day 2k of the year) in commits to one
    table; how many this process spent."""
    store = store_for(path)
    await store.open()
    won = 0
    try:
        for round_ in range(ROUNDS):
            spend = store.vacations.spend_day(GUILD, ALICE.id, NEW_YEAR + round_ * 2 * DAY, 1000)
            try:
                await store.commit(table_id, expected=0, also=spend)
                won += 1
            except VacationTaken:
                pass
    finally:
        await store.close()
    return won


async def test_two_processes_spending_the_same_day_at_once_spend_it_once(database, clock):
    async with running_referee(database, clock) as referee:
        for place in PLACES:
            assert (await referee.create(place, ALICE, "tronimoes", guild=GUILD)).ok
        tables = [(await referee.table_at(place)).id for place in PLACES]
    won = at_once(_spend_days, [(database, table_id) for table_id in tables])
    assert sum(won) == ROUNDS  # each round's day: one process spent it, the other was refused
    async with running_referee(database, clock) as referee:
        assert await referee.store.vacations.days_spent(GUILD, ALICE.id, 2027) == ROUNDS
        assert len(await referee.store.vacations.of_player(GUILD, ALICE.id, 0)) == ROUNDS
