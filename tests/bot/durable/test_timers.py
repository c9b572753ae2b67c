"""Turn clocks: durations typed by people, reminder points, which deadline a seat keeps, the
manual clock, and the dispatcher firing due timers in order."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.clock import ManualClock
from bot.core.durations import format_duration, parse_duration, parse_reminders, reminder_offsets
from bot.core.records import DEADLINE, REMINDER, Timer
from bot.durable.timers import TimerDispatcher
from bot.tables.deadlines import plan_timers


@pytest.mark.parametrize(("typed", "seconds"), [("90s", 90), ("10m", 600), ("1h30m", 5400), ("2d", 172800),
                                                 ("45", 2700), ("1.5h", 5400), ("2 hours", 7200), ("off", None)])
def test_durations_are_read_the_way_people_write_them(typed, seconds):
    assert parse_duration(typed) == seconds


@pytest.mark.parametrize(("typed", "message"), [("soon", "not a duration"), ("5s", "at least 10 seconds"),
                                                 ("40d", "at most 30 days")])
def test_a_bad_duration_says_how_to_write_one(typed, message):
    with pytest.raises(ValueError, match=message):
        parse_duration(typed)


@pytest.mark.parametrize("typed", ["١٠m", "１０m", "²h", "1h³⁰m", "𝟙𝟘m", "٣٠"])
def test_a_duration_in_other_digits_is_refused_saying_to_write_0_to_9(typed):
    """`re`'s \\d and `float()` took the Arabic-Indic '١٠' and the full-width '１０' as 10."""
    with pytest.raises(ValueError, match="write durations with the digits 0 to 9"):
        parse_duration(typed)


@pytest.mark.parametrize("typed", ["9" * 5_000 + "m", "1" + "0" * 400 + "s", "1e9s", "nan", "inf", "-5m", "+5m"])
def test_a_huge_or_oddly_written_duration_is_refused_with_a_message(typed):
    with pytest.raises(ValueError, match=r"not a duration|at most 30 days"):
        parse_duration(typed)


def test_durations_are_shown_in_two_units_at_most():
    assert [format_duration(s) for s in (3725, 90, 172800, 0.4)] == ["1h 2m", "1m 30s", "2d", "0s"]


def test_reminder_points_are_fractions_or_durations_within_the_turn():
    assert reminder_offsets(["50%", "10%"], 3600) == [1800, 360]
    assert reminder_offsets(["1h", "10m"], 1800) == [600]
    assert parse_reminders("1h, 10m") == ["1h", "10m"] and parse_reminders("off") == []
    with pytest.raises(ValueError, match="between 0% and 100%"):
        parse_reminders("150%")
    for odd in ("٥٠%", "nan%", "inf%", "1e1%", "1_0%", "５%"):  # float() read each of these as a number
        with pytest.raises(ValueError, match="is not a percentage like 50%"):
            parse_reminders(odd)
    assert reminder_offsets(["٥٠%", "nan%", "50%"], 3600) == [1800]  # points stored before are skipped
    with pytest.raises(ValueError, match="write durations with the digits 0 to 9"):
        parse_reminders("1h, ١٠m")


def test_a_seat_that_keeps_waiting_keeps_its_deadline_and_a_new_wait_gets_a_new_one():
    kept = [Timer(1, 0, DEADLINE, 5000.0, 3, 1), Timer(1, 0, REMINDER, 4000.0, 3, 2)]
    timers = plan_timers(1, {0: (3, 1400.0), 1: (4, 2000.0)}, kept, 3600, ["50%"])
    assert {(t.seat, t.kind, t.due) for t in timers} == {
        (0, DEADLINE, 5000.0), (0, REMINDER, 4000.0), (1, DEADLINE, 5600.0), (1, REMINDER, 3800.0)}
    assert plan_timers(1, {0: (3, 1400.0)}, kept, None, ["50%"]) == []


async def test_the_manual_clock_wakes_sleepers_in_order_and_only_when_advanced():
    clock = ManualClock(0)
    woke = []

    async def sleeper(name, seconds):
        await clock.sleep(seconds)
        woke.append((name, clock.now()))

    tasks = [asyncio.create_task(sleeper("late", 20)), asyncio.create_task(sleeper("early", 10))]
    await asyncio.sleep(0)
    await clock.advance(5)
    assert woke == []
    await clock.advance(30)
    assert woke == [("early", 10), ("late", 20)] and clock.now() == 35
    await asyncio.gather(*tasks)


class ListSource:
    def __init__(self, timers):
        self.timers = list(timers)

    async def due_timers(self, now):
        return sorted((t for t in self.timers if t.due <= now), key=lambda t: t.due)


async def test_the_dispatcher_fires_due_timers_in_order_and_retries_a_failure_later():
    clock = ManualClock(0)
    source = ListSource([Timer(1, 0, DEADLINE, 30, 0, 1), Timer(1, 1, REMINDER, 10, 0, 2),
                         Timer(1, 2, DEADLINE, 20, 0, 3)])
    fired = []

    async def fire(timer):
        fired.append(timer.id)
        if timer.id == 3 and fired.count(3) == 1:
            raise RuntimeError("boom")
        source.timers.remove(timer)

    dispatcher = TimerDispatcher(source, clock, fire)
    dispatcher.start()
    await clock.advance(25)
    await asyncio.sleep(0.05)
    assert fired == [2, 3]
    await clock.advance(10)
    await asyncio.sleep(0.05)
    assert fired == [2, 3, 1]
    await clock.advance(dispatcher.RETRY_SECONDS)
    await asyncio.sleep(0.05)
    assert fired == [2, 3, 1, 3] and source.timers == []
    await dispatcher.stop()


async def test_the_dispatcher_forgets_failures_of_timers_that_are_gone():
    clock = ManualClock(0)
    source = ListSource([Timer(1, 0, DEADLINE, 5, 0, n) for n in range(1, 201)])

    async def fire(timer):
        raise RuntimeError("the table is broken")

    dispatcher = TimerDispatcher(source, clock, fire)
    await clock.advance(10)
    await dispatcher.run_due()
    assert len(dispatcher._failed) == 200
    source.timers.clear()  # the timers were replaced (the game moved on)
    await dispatcher.run_due()
    assert dispatcher._failed == {}
