"""`/vacation cancel`: a vacation still to come is dropped and all its days go back to the year's
allowance; one under way ends now ("back from vacation") and the days it has not begun go back;
either way the player's clocks are planned again at once in every game of theirs on the server.
What cannot be cancelled is refused, saying what to type, and nothing changes. On an SQLite file
and on PostgreSQL (`database`), with a manual clock (it starts 2027-01-15 08:00 UTC)."""

from __future__ import annotations

import pytest

from bot.core.clock import ManualClock
from bot.core.records import DEADLINE, User
from bot.service.referee import Referee
from bot.storage.vacations import year_of
from tests.bot.referees import ALICE, BOB, CAROL, PLACE, running_referee, text
from tests.bot.tables.test_bank_clock import GUILD, MANAGER, OTHER, opened, play_a_turn, waiting

DAY, HOUR = 86400.0, 3600.0


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def deadline_of(referee: Referee, place: str, user: User) -> float:
    table = await referee.table_at(place)
    seat = table.seat_of(user.id)
    return next(t.due for t in await referee.store.timers(table.id) if t.kind == DEADLINE and t.seat == seat)


async def alice_waiting(referee: Referee, place: str, partner: User) -> None:
    """A bank table (a day, no increment) at `place`, waiting for Alice."""
    await opened(referee, ALICE, partner, options="clock=1d/1d", place=place)
    _seat, user = await waiting(referee, place)
    if user != ALICE:
        await play_a_turn(referee, place)


async def spent(referee: Referee, clock: ManualClock) -> int:
    return await referee.store.vacations.days_spent(GUILD, ALICE.id, year_of(clock.now()))


async def test_a_vacation_to_come_is_cancelled_with_all_its_days_back_and_every_clock_planned_again(database, clock):
    async with running_referee(database, clock) as referee:
        await alice_waiting(referee, PLACE, BOB)
        await alice_waiting(referee, OTHER, CAROL)
        before = {place: await deadline_of(referee, place, ALICE) for place in (PLACE, OTHER)}
        assert (await referee.vacation(GUILD, ALICE, "tomorrow", "2027-01-18")).ok  # 3 days
        assert {p: await deadline_of(referee, p, ALICE) for p in before} == {p: d + 3 * DAY for p, d in before.items()}
        assert await spent(referee, clock) == 3
        reply = await referee.vacation(GUILD, ALICE, cancel="next")
        assert reply.ok and "is cancelled: its 3 days are back. 21 vacation days left" in text(reply)
        assert {p: await deadline_of(referee, p, ALICE) for p in before} == before  # both games, at once
        assert await spent(referee, clock) == 0
        assert await referee.store.vacations.of_player(GUILD, ALICE.id, 0) == []


async def test_back_from_a_vacation_under_way_ends_it_now_and_gives_back_the_days_not_begun(database, clock):
    async with running_referee(database, clock) as referee:
        await alice_waiting(referee, PLACE, BOB)
        start = clock.now()
        before = await deadline_of(referee, PLACE, ALICE)
        assert (await referee.vacation(GUILD, ALICE, "today", "2027-01-17")).ok  # 3 days, from now
        await clock.advance(DAY + 10 * HOUR)  # day two, 18:00
        await referee.timers.idle()
        reply = await referee.vacation(GUILD, ALICE, cancel="2027-01-15")
        assert reply.ok and "Welcome back" in text(reply) and "1 day you had not begun is back" in text(reply)
        assert await spent(referee, clock) == 2
        assert await deadline_of(referee, PLACE, ALICE) == pytest.approx(before + (clock.now() - start))
        [vacation] = await referee.store.vacations.of_player(GUILD, ALICE.id, 0)
        assert vacation.ends == clock.now() and vacation.days == 2
        assert "on vacation" not in text(await referee.board(PLACE))
        assert not (await referee.vacation(GUILD, ALICE, cancel="next")).ok  # over: nothing left to cancel


async def test_cancelling_in_a_dm_cancels_on_every_server_where_the_player_has_games(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await alice_waiting(referee, PLACE, BOB)
        assert (await referee.vacation(None, ALICE, "tomorrow", "tomorrow")).ok
        reply = await referee.vacation(None, ALICE, cancel="next")
        assert reply.ok and "is cancelled" in text(reply)
        assert await spent(referee, clock) == 0


@pytest.mark.parametrize(("declared", "cancel", "starts", "refused"), [
    (None, "next", None, "you have no vacation under way or to come here"),
    (("tomorrow", "tomorrow"), "2027-02-01", None, "you have no vacation starting on 2027-02-01: type "
                                                   "`/vacation cancel:next`, or the first day of one of yours "
                                                   "(2027-01-16)"),
    (("tomorrow", "tomorrow"), "someday", None, "'someday' is not a date"),
    (("tomorrow", "tomorrow"), "next", "tomorrow", "not both at once"),
])
async def test_a_cancel_that_cannot_be_done_is_refused_saying_what_to_type_and_changes_nothing(
        tmp_path, clock, declared, cancel, starts, refused):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        if declared:
            assert (await referee.vacation(GUILD, ALICE, *declared)).ok
        days = await spent(referee, clock)
        reply = await referee.vacation(GUILD, ALICE, starts, None, cancel)
        assert not reply.ok and refused in text(reply)
        assert await spent(referee, clock) == days


async def test_a_vacation_day_spent_on_an_empty_bank_cannot_be_cancelled(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        assert (await referee.update_settings(GUILD, MANAGER, vacation_days="3")).ok
        await opened(referee, ALICE, BOB, options="clock=1h/1h")
        _seat, user = await waiting(referee)
        await clock.advance(HOUR)
        await referee.timers.idle()
        assert await referee.store.vacations.days_spent(GUILD, user.id, year_of(clock.now())) == 1
        reply = await referee.vacation(GUILD, user, cancel="next")
        assert not reply.ok and "cannot be cancelled" in text(reply)
        assert await referee.store.vacations.days_spent(GUILD, user.id, year_of(clock.now())) == 1
