"""A bank table's clock: each turn may last what is left in the player's bank, a move adds the
increment up to the cap, an empty bank spends a vacation day (24 hours more in all the player's
games on the server) before the deadline fires, and only a player whose bank and vacation are
both spent times out, at the exact moment, once. Declared vacations stop the clock in every game
that allows them; a moderator's pause keeps the bank. A real SQLite file, a manual clock."""

from __future__ import annotations

import pytest

from bot.core.clock import ManualClock
from bot.core.meta import BANKS
from bot.core.records import DEADLINE, User
from bot.service.referee import Referee
from bot.storage.vacations import year_of
from tests.bot.referees import ALICE, BOB, CAROL, MOD, PLACE, Notices, running_referee, text

GUILD = "test:guild"
MANAGER = User("test:manager", "manager", moderator=True, manager=True)
DAY, HOUR = 86400.0, 3600.0
OTHER = "test:other-table"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def opened(referee: Referee, *players: User, options: str, place: str = PLACE,
                 game: str = "tronimoes") -> int:
    """A started table at `place` on the server GUILD; its id."""
    first, *rest = players
    reply = await referee.create(place, first, game, options=options, guild=GUILD)
    assert reply.ok, text(reply)
    for player in rest:
        assert (await referee.join(place, player)).ok
    assert (await referee.start(place, first)).ok
    table = await referee.table_at(place)
    assert table is not None
    return table.id


async def deadlines(referee: Referee, table_id: int) -> dict[int, float]:
    return {t.seat: t.due for t in await referee.store.timers(table_id) if t.kind == DEADLINE}


async def waiting(referee: Referee, place: str = PLACE) -> tuple[int, User]:
    table, game = await referee.view(place)
    seat = game.to_move()[0]
    return seat, next(u for u in (ALICE, BOB, CAROL) if table.seats[seat].user_id == u.id)


async def play_a_turn(referee: Referee, place: str = PLACE) -> None:
    """The waiting player makes moves until their turn ends."""
    _seat, user = await waiting(referee, place)
    _table, game = await referee.view(place)
    turns = game.turn_count()
    while game.turn_count() == turns and game.outcome() is None:
        moves = await referee.suggestions(place, user, "", limit=1000)
        lays = [m for m in moves if m[0].isdigit()]
        reply = await referee.act(place, user, (lays or moves)[0])
        assert reply.ok, text(reply)
        _table, game = await referee.view(place)


async def timeouts(referee: Referee, table_id: int) -> int:
    return len([a for a in await referee.store.actions(table_id) if a.actor == "clock"])


async def test_a_turn_lasts_what_is_left_in_the_bank_and_a_move_adds_the_increment_up_to_the_cap(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        table_id = await opened(referee, ALICE, BOB, options="clock=1d+1h/2d")
        seat, _user = await waiting(referee)
        assert (await deadlines(referee, table_id))[seat] == clock.now() + DAY
        assert "bank runs out" in text(await referee.board(PLACE))
        await clock.advance(2 * HOUR)
        await play_a_turn(referee)
        table = await referee.table_at(PLACE)
        assert table.meta[BANKS][str(seat)] == DAY - 2 * HOUR + HOUR
        other, _user = await waiting(referee)
        assert other != seat and (await deadlines(referee, table_id))[other] == clock.now() + DAY
        await clock.advance(HOUR)
        await play_a_turn(referee)
        again, _user = await waiting(referee)
        if again == seat:  # its next turn runs on what its bank holds
            assert (await deadlines(referee, table_id))[seat] == clock.now() + DAY - HOUR
        assert await timeouts(referee, table_id) == 0


async def test_an_empty_bank_spends_a_vacation_day_and_only_then_times_out_at_the_exact_moment(database, clock):
    notices = Notices()
    async with running_referee(database, clock, notices=notices) as referee:
        assert (await referee.update_settings(GUILD, MANAGER, vacation_days="1")).ok
        table_id = await opened(referee, ALICE, BOB, options="clock=1h/1h")
        seat, user = await waiting(referee)
        start = clock.now()
        await clock.advance(HOUR - 1)
        await referee.timers.idle()
        assert [t for t in notices.texts() if "your turn ends" in t]  # reminded, at 75% of the bank
        assert not [t for t in notices.texts() if "vacation" in t or "ran out" in t]  # never early
        assert await timeouts(referee, table_id) == 0
        await clock.advance(1)
        await referee.timers.idle()
        assert await timeouts(referee, table_id) == 0
        assert await referee.store.vacations.days_spent(GUILD, user.id, year_of(clock.now())) == 1
        assert [t for t in notices.texts() if "vacation day is spent" in t and "0 vacation days left" in t]
        assert (await deadlines(referee, table_id))[seat] == start + HOUR + DAY
        assert "on vacation, back" in text(await referee.board(PLACE))
        await clock.advance(DAY - 1)
        await referee.timers.idle()
        assert await timeouts(referee, table_id) == 0
        await clock.advance(1)
        await referee.timers.idle()
        assert await timeouts(referee, table_id) >= 1  # on the dot: its bank and vacation are both spent
        assert len([t for t in notices.texts() if "ran out of time" in t]) == 1
        assert len([t for t in notices.texts() if "vacation day is spent" in t]) == 1  # never twice
        assert await referee.store.vacations.days_spent(GUILD, user.id, year_of(clock.now())) == 1


async def test_a_vacation_day_adds_a_day_to_all_the_players_games_on_the_server(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        first = await opened(referee, ALICE, BOB, options="clock=1h/1h")
        _seat, user = await waiting(referee)
        partner = CAROL
        second = await opened(referee, user, partner, options="clock=1d/1d", place=OTHER)
        table = await referee.table_at(OTHER)
        mine = table.seat_of(user.id)
        _game_table, game = await referee.view(OTHER)
        if mine not in game.to_move():  # their partner moves first there: let them
            await play_a_turn(referee, OTHER)
        before = (await deadlines(referee, second))[mine]
        await clock.advance(HOUR)
        await referee.timers.idle()
        assert await timeouts(referee, first) == 0
        await clock.advance(DAY - 1)  # past the other game's deadline too: its clock stopped for the day
        await referee.timers.idle()
        assert await timeouts(referee, second) == 0
        assert await referee.store.vacations.days_spent(GUILD, user.id, year_of(clock.now())) == 1
        assert (await deadlines(referee, second))[mine] == pytest.approx(before + DAY)


async def test_a_vacation_day_spent_plans_the_players_other_games_again_at_once_and_once(database, clock):
    async with running_referee(database, clock) as referee:
        first = await opened(referee, ALICE, BOB, options="clock=1h/1h")
        _seat, user = await waiting(referee)
        second = await opened(referee, user, CAROL, options="clock=2d/2d", place=OTHER)
        mine = (await referee.table_at(OTHER)).seat_of(user.id)
        _game_table, game = await referee.view(OTHER)
        if mine not in game.to_move():
            await play_a_turn(referee, OTHER)
        before = {(t.kind, t.due) for t in await referee.store.timers(second) if t.seat == mine}
        await clock.advance(HOUR)  # the first game's bank runs out: a day is spent
        await referee.timers.idle()
        assert await timeouts(referee, first) == 0
        assert await referee.store.vacations.days_spent(GUILD, user.id, year_of(clock.now())) == 1
        after = {(t.kind, t.due) for t in await referee.store.timers(second) if t.seat == mine}
        assert after == {(kind, due + DAY) for kind, due in before}  # deadline and reminders: a day later, now
        assert not [t for t in await referee.store.timers(second) if t.kind == "replan"]  # done, once
        assert "on vacation, back" in text(await referee.board(OTHER))


async def test_a_rollback_gives_each_player_back_the_bank_they_had_at_that_move(database, clock):
    async with running_referee(database, clock) as referee:
        table_id = await opened(referee, ALICE, BOB, options="clock=1d+1h/2d")
        seen: dict[int, dict[str, float]] = {}
        for hours in (3, 5, 7, 2):
            await clock.advance(hours * HOUR)
            await play_a_turn(referee)
            seen[await referee.store.log_length(table_id)] = dict((await referee.table_at(PLACE)).meta[BANKS])
        plies = sorted(seen)
        await clock.advance(9 * HOUR)
        await play_a_turn(referee)
        assert (await referee.table_at(PLACE)).meta[BANKS] != seen[plies[-1]]
        for ply in reversed(plies[:-1]):  # back, and back again further: each time the banks as they were
            assert (await referee.rollback(PLACE, MOD, ply)).ok
            table = await referee.table_at(PLACE)
            assert table.meta[BANKS] == seen[ply]
            seat, _user = await waiting(referee)
            assert (await deadlines(referee, table_id))[seat] == clock.now() + seen[ply][str(seat)]
        assert (await referee.rollback(PLACE, MOD, 0)).ok  # before any move: every bank full
        assert set((await referee.table_at(PLACE)).meta[BANKS].values()) == {DAY}


async def test_a_table_with_vacation_off_times_out_when_the_bank_runs_out(tmp_path, clock):
    notices = Notices()
    async with running_referee(tmp_path / "t.sqlite3", clock, notices=notices) as referee:
        table_id = await opened(referee, ALICE, BOB, options="clock=1h/1h vacation=off")
        _seat, user = await waiting(referee)
        assert "vacations off" in text(await referee.create(OTHER, ALICE, "tronimoes", options="clock=1h vacation=off",
                                                             guild=GUILD))
        await clock.advance(HOUR)
        await referee.timers.idle()
        assert await timeouts(referee, table_id) >= 1
        assert await referee.store.vacations.days_spent(GUILD, user.id, year_of(clock.now())) == 0


async def test_a_declared_vacation_stops_the_clock_in_every_game_of_the_player_that_allows_it(database, clock):
    async with running_referee(database, clock) as referee:
        table_id = await opened(referee, ALICE, BOB, options="clock=1d/1d")
        seat, user = await waiting(referee)
        before = (await deadlines(referee, table_id))[seat]
        reply = await referee.vacation(GUILD, user, "tomorrow", "tomorrow")
        assert reply.ok and "1 day" in text(reply) and "20 vacation days left" in text(reply)
        assert (await deadlines(referee, table_id))[seat] == before + DAY  # planned again at once
        await clock.advance(DAY)  # into the vacation: past the old deadline, the clock stopped
        await referee.timers.idle()
        assert await timeouts(referee, table_id) == 0
        assert "on vacation, back" in text(await referee.board(PLACE))
        listed = await referee.vacation(GUILD, user)
        assert "20 of 21 vacation days left" in text(listed) and "from" in text(listed)
        await clock.advance(DAY)  # the bank runs out the day after: a day of the 20 left is spent for it
        await referee.timers.idle()
        assert await timeouts(referee, table_id) == 0
        assert await referee.store.vacations.days_spent(GUILD, user.id, year_of(clock.now())) == 2


@pytest.mark.parametrize(("starts", "ends", "refused"), [
    ("2020-01-01", "2020-01-02", "is in the past"),
    ("today", "2027-03-30", "vacation days left"),
    ("someday", "tomorrow", "is not a date"),
    ("2027-02-30", "tomorrow", "is not a date"),
    ("tomorrow", "today", "before it starts"),
    ("tomorrow", None, "give both days"),
])
async def test_a_vacation_that_cannot_be_taken_is_refused_saying_what_to_type_and_spends_nothing(
        tmp_path, clock, starts, ends, refused):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        reply = await referee.vacation(GUILD, ALICE, starts, ends)
        assert not reply.ok and refused in text(reply)
        assert await referee.store.vacations.days_spent(GUILD, ALICE.id, year_of(clock.now())) == 0
        assert not (await referee.vacation(None, ALICE, "today", "today")).ok


async def test_a_vacation_overlapping_another_is_refused(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        assert (await referee.vacation(GUILD, ALICE, "tomorrow", "tomorrow")).ok
        reply = await referee.vacation(GUILD, ALICE, "today", "tomorrow")
        assert not reply.ok and "already on vacation" in text(reply)
        assert await referee.store.vacations.days_spent(GUILD, ALICE.id, year_of(clock.now())) == 1


async def test_a_bank_over_its_cap_is_refused_at_the_table_saying_what_to_type(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        reply = await referee.create(PLACE, ALICE, "tronimoes", options="clock=5d+1d/3d", guild=GUILD)
        assert not reply.ok and "clock=5d+1d/5d" in text(reply)
        assert await referee.table_at(PLACE) is None


async def test_the_server_default_clock_applies_to_new_tables_and_clock_none_has_no_deadline(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        saved = await referee.update_settings(GUILD, MANAGER, clock="bank")
        assert saved.ok and "bank 3d + 1d a move, at most 7d" in text(saved)
        reply = await referee.create(PLACE, ALICE, "tronimoes", guild=GUILD)
        assert "bank 3d + 1d a move, at most 7d" in text(reply)
        none = await referee.create(OTHER, ALICE, "tronimoes", options="clock=none", guild=GUILD)
        assert "no turn clock" in text(none)
        assert not (await referee.update_settings(GUILD, MANAGER, clock="3d+1d/1d")).ok


async def test_a_moderators_pause_keeps_each_bank_where_it_stood(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        table_id = await opened(referee, ALICE, BOB, options="clock=1d/1d")
        seat, _user = await waiting(referee)
        await clock.advance(2 * HOUR)
        assert (await referee.pause(PLACE, MOD)).ok
        await clock.advance(10 * DAY)
        await referee.timers.idle()
        assert await timeouts(referee, table_id) == 0
        assert (await referee.resume(PLACE, MOD)).ok
        assert (await deadlines(referee, table_id))[seat] == clock.now() + DAY - 2 * HOUR


async def test_players_moving_at_once_each_run_their_own_bank(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        table_id = await opened(referee, ALICE, BOB, options="clock=1d/2d", game="tetromic")
        start = clock.now()
        assert await deadlines(referee, table_id) == {0: start + DAY, 1: start + DAY}
        await clock.advance(2 * HOUR)
        assert (await referee.act(PLACE, ALICE, "skip")).ok
        _table, game = await referee.view(PLACE)
        assert game.to_move() == (1,)
        assert await deadlines(referee, table_id) == {1: start + DAY}  # the other's clock is untouched
        await clock.advance(3 * HOUR)
        assert (await referee.act(PLACE, BOB, "skip")).ok
        table = await referee.table_at(PLACE)
        assert table.meta[BANKS] == {"0": DAY - 2 * HOUR, "1": DAY - 5 * HOUR}
        _table, game = await referee.view(PLACE)
        if game.outcome() is None:
            assert await deadlines(referee, table_id) == {0: clock.now() + DAY - 2 * HOUR,
                                                          1: clock.now() + DAY - 5 * HOUR}


async def test_a_players_vacations_are_in_their_data_and_forgotten_with_them(tmp_path, clock):
    from bot.community.privacy import forget, forgotten_text, kept_text

    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        assert (await referee.vacation(GUILD, CAROL, "tomorrow", "tomorrow")).ok
        assert [row["days"] for row in (await referee.store.player_data(CAROL.id))["vacations"]] == [1]
        assert "Your vacations, declared or spent when a bank ran out: 1." in await kept_text(referee.store, CAROL.id)
        done = await forget(referee.store, CAROL.id)
        assert "Your vacations (1) deleted too." in forgotten_text(done)
        assert await referee.store.vacations.of_player(GUILD, CAROL.id, 0) == []
        assert await referee.store.vacations.days_spent(GUILD, CAROL.id, year_of(clock.now())) == 0


async def test_any_source_of_unavailable_hours_stops_a_clock_as_a_vacation_does(tmp_path, clock):
    """The step quiet hours plug into: a source giving a player's unavailable intervals."""
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        table_id = await opened(referee, ALICE, BOB, options="clock=10h")
        seat, user = await waiting(referee)
        start = clock.now()
        assert (await deadlines(referee, table_id))[seat] == start + 10 * HOUR

        async def nights(table):
            return {user.id: [(start + 2 * HOUR, start + 9 * HOUR)]}

        referee.tables.unavailable_when(nights)
        await clock.advance(10 * HOUR)  # the old deadline: asked again, the clock says 7 hours later
        await referee.timers.idle()
        assert await timeouts(referee, table_id) == 0
        assert (await deadlines(referee, table_id))[seat] == start + 17 * HOUR
        await clock.advance(7 * HOUR)
        await referee.timers.idle()
        assert await timeouts(referee, table_id) >= 1


async def test_a_restarted_process_plans_the_same_clock_from_what_the_table_committed(database, clock):
    path = database
    async with running_referee(path, clock) as referee:
        table_id = await opened(referee, ALICE, BOB, options="clock=1d+2h/2d")
        for hours in (3, 5, 1):
            await clock.advance(hours * HOUR)
            await play_a_turn(referee)
        await clock.advance(4 * HOUR)
        assert (await referee.vacation(GUILD, ALICE, "tomorrow", "tomorrow")).ok
        stored = {(t.seat, t.kind, t.due) for t in await referee.store.timers(table_id)}
        banks = (await referee.table_at(PLACE)).meta[BANKS]
    async with running_referee(path, clock) as again:
        table, game = await again.tables.playing(PLACE)
        change = await again.tables.change(table, game)
        assert {(t.seat, t.kind, t.due) for t in change.plan()} == stored
        assert table.meta[BANKS] == banks
