"""The turn clock is per turn: every new turn gets a fresh deadline (the same seat's next turn
and each new round included), a timeout applies to the turn it was set for and fires once, and
a move sent as the deadline fires is refused rather than applied to the next turn."""

from __future__ import annotations

import logging

import pytest

from bot.core.clock import ManualClock
from bot.core.records import DEADLINE
from bot.service.referee import Referee
from tests.bot.referees import ALICE, BOB, PLACE, Notices, running_referee, started, text


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def deadline(referee: Referee, seat: int | None = None) -> float:
    timers = [t for t in await referee.store.timers(1) if t.kind == DEADLINE and seat in (None, t.seat)]
    assert timers, "no deadline is set"
    return min(t.due for t in timers)


async def first_move(referee: Referee, user=ALICE) -> str:
    moves = await referee.suggestions(PLACE, user, "", limit=1000)
    lays = [m for m in moves if m[0].isdigit()]
    return (lays or moves)[0]


async def test_a_solo_player_moving_every_ten_minutes_is_never_timed_out(tmp_path, clock):
    notices = Notices()
    async with running_referee(tmp_path / "t.sqlite3", clock, notices=notices) as referee:
        await started(referee, ALICE, turn_time="15m")
        for _ in range(8):
            await clock.advance(600)
            await referee.timers.idle()
            _, game = await referee.view(PLACE)
            if game.outcome() is not None:
                break
            turns = game.turn_count()
            while game.turn_count() == turns and game.outcome() is None:  # a draw, then a lay or a pass
                reply = await referee.act(PLACE, ALICE, await first_move(referee))
                assert reply.ok, text(reply)
                _, game = await referee.view(PLACE)
            if 0 in game.to_move():
                assert await deadline(referee) == clock.now() + 900
        assert not [t for t in notices.texts() if "ran out of time" in t]
        assert all(a.actor != "clock" for a in await referee.store.actions(1))


async def test_a_timeout_fires_once_for_its_turn_and_the_next_turn_has_its_own_deadline(tmp_path, clock):
    notices = Notices()
    async with running_referee(tmp_path / "t.sqlite3", clock, notices=notices) as referee:
        await started(referee, ALICE, turn_time="10m")
        await clock.advance(10 * 60 + 1)
        await referee.timers.idle()
        await clock.advance(30)
        await referee.timers.idle()
        by_clock = [a for a in await referee.store.actions(1) if a.actor == "clock"]
        assert 1 <= len(by_clock) <= 2  # a draw and a pass: one timeout
        assert len([t for t in notices.texts() if "ran out of time" in t]) == 1
        _, game = await referee.view(PLACE)
        if game.outcome() is None:
            assert await deadline(referee) == pytest.approx(clock.now() - 30 + 600, abs=1)


async def test_the_last_player_to_type_ready_gets_a_whole_turn(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB, turn_time="1h")
        for _ in range(2000):
            _, game = await referee.view(PLACE)
            waiting = game.to_move()
            if game.legal_actions(waiting[0]) == ["ready"]:
                break
            user = (ALICE, BOB)[waiting[0]]
            await referee.act(PLACE, user, (await referee.suggestions(PLACE, user, "", limit=1000))[0])
        else:
            pytest.fail("no round ended")
        await clock.advance(50 * 60)
        await referee.act(PLACE, BOB, "ready")
        await referee.act(PLACE, ALICE, "ready")
        _, game = await referee.view(PLACE)
        if game.outcome() is None:
            assert await deadline(referee) == clock.now() + 3600


async def test_a_move_sent_as_the_deadline_fires_is_refused_not_applied_to_the_next_turn(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, turn_time="10m")
        _, game = await referee.view(PLACE)
        seen = len(game.log)
        move = await first_move(referee)
        await clock.advance(10 * 60 + 1)
        await referee.timers.idle()
        reply = await referee.act(PLACE, ALICE, move, seen=seen)
        assert not reply.ok and reply.stale and "your turn ran out" in text(reply)


async def test_a_timer_another_process_fired_first_is_dropped_quietly(tmp_path, clock, caplog):
    path = tmp_path / "t.sqlite3"
    notices = Notices()
    async with running_referee(path, clock, notices=notices) as first, \
            running_referee(path, clock, notices=notices) as second:
        await started(first, ALICE, BOB, turn_time="10m")
        await second.view(PLACE)
        with caplog.at_level(logging.WARNING):
            await clock.advance(10 * 60 + 1)
            await first.timers.idle()
            await second.timers.idle()
        assert len([t for t in notices.texts() if "ran out of time" in t]) == 1
        assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]


async def test_a_phase_timeout_after_a_restart_skips_the_late_once_and_opens_the_next_phase(tmp_path, clock):
    path = tmp_path / "t.sqlite3"
    async with running_referee(path, clock) as referee:
        assert (await referee.create(PLACE, ALICE, "tetromic", turn_time="2h")).ok
        await referee.join(PLACE, BOB)
        await referee.start(PLACE, ALICE)
        await referee.act(PLACE, ALICE, "draw")
        await clock.advance(600)
    later = ManualClock(clock.now())
    await later.advance(3 * 3600)
    notices = Notices()
    async with running_referee(path, later, notices=notices) as referee:
        await referee.timers.idle()
        assert next(t for t in notices.texts() if "ran out of time" in t).startswith("⏰ bob ran out of time.")
        _, game = await referee.view(PLACE)
        assert game.turn_count() == 2 and game.to_move() == (0, 1)
        assert [a.action for a in await referee.store.actions(1) if a.actor == "clock"] == ["skip"]
        assert await deadline(referee) == later.now() + 7200
    async with running_referee(path, later, notices=notices) as referee:
        await referee.timers.idle()
        assert len([t for t in notices.texts() if "ran out of time" in t]) == 1


async def test_a_calendar_game_ends_its_phases_at_fixed_windows_and_nomic_lasts_two_days(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        assert (await referee.create(PLACE, ALICE, "tetromic", options="preset=nomic")).ok
        assert (await referee.table_at(PLACE)).turn_seconds == 48 * 3600
        await referee.start(PLACE, ALICE)
        due = await deadline(referee)
        assert due % (48 * 3600) == 0 and clock.now() < due <= clock.now() + 48 * 3600
