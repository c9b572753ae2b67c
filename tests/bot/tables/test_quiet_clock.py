"""Quiet hours stop a player's clock as a vacation does, at tables that allow time off
(`vacation=off` keeps both from stopping it), and the board never calls them a vacation. A real
SQLite file, a manual clock that starts at 08:00 UTC."""

from __future__ import annotations

import datetime

import pytest

from bot.community.quiet_hours import parse_quiet
from bot.core.clock import ManualClock
from tests.bot.referees import ALICE, BOB, PLACE, running_referee, text
from tests.bot.tables.test_bank_clock import deadlines, opened, waiting

HOUR = 3600.0


@pytest.fixture
def clock() -> ManualClock:
    clock = ManualClock()
    assert datetime.datetime.fromtimestamp(clock.now(), datetime.UTC).hour == 8
    return clock


async def quiet_nights(referee) -> None:
    """Both players are quiet from 23:00 to 08:00 UTC."""
    for user in (ALICE, BOB):
        await referee.store.standings.set_quiet(user.id, str(parse_quiet("23:00", "08:00", "UTC")))


async def test_a_bank_does_not_run_in_its_players_quiet_hours(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await quiet_nights(referee)
        table_id = await opened(referee, ALICE, BOB, options="clock=1d+1h/2d")
        seat, _user = await waiting(referee)
        # 15 hours until 23:00, nine quiet, then the other nine of the day's bank: 17:00 tomorrow
        assert (await deadlines(referee, table_id))[seat] == clock.now() + 33 * HOUR


async def test_a_table_with_vacation_off_runs_its_clock_through_quiet_hours(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await quiet_nights(referee)
        table_id = await opened(referee, ALICE, BOB, options="clock=1d+1h/2d vacation=off")
        seat, _user = await waiting(referee)
        assert (await deadlines(referee, table_id))[seat] == clock.now() + 24 * HOUR


async def test_a_player_in_quiet_hours_is_not_said_to_be_on_vacation(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await quiet_nights(referee)
        await opened(referee, ALICE, BOB, options="clock=1d+1h/2d")
        await clock.advance(15.5 * HOUR)  # 23:30
        board = text(await referee.board(PLACE))
        assert "vacation" not in board and "bank runs out" in board
