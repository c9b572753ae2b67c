"""Time controls read the way people write them (`clock=3d+1d/7d`), a bank over its cap is refused
saying what to type, and the clock's arithmetic never lets time run while a player is away."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.running_time import deadline_at, merged, off_at, running_seconds, runs_out_at
from bot.core.time_controls import BANK, NONE, PER_MOVE, Bank, describe, parse_time_control

DAY, HOUR = 86400, 3600


@pytest.mark.parametrize(("typed", "kind", "seconds", "bank"), [
    ("none", NONE, None, None),
    ("off", NONE, None, None),
    ("move", PER_MOVE, None, None),
    ("12h", PER_MOVE, 12 * HOUR, None),
    ("3d+1d/7d", BANK, None, Bank(3 * DAY, DAY, 7 * DAY)),
    (" 3d + 1d / 7d ", BANK, None, Bank(3 * DAY, DAY, 7 * DAY)),
    ("bank", BANK, None, Bank(3 * DAY, DAY, 7 * DAY)),
    ("slow", BANK, None, Bank(10 * DAY, 36 * HOUR, 10 * DAY)),
    ("2d+12h", BANK, None, Bank(2 * DAY, 12 * HOUR, 2 * DAY)),
    ("2d/5d", BANK, None, Bank(2 * DAY, 0, 5 * DAY)),
])
def test_time_controls_are_read_the_way_people_write_them(typed, kind, seconds, bank):
    control = parse_time_control(typed)
    assert (control.kind, control.turn_seconds, control.bank) == (kind, seconds, bank)


def test_a_bank_over_its_cap_is_refused_saying_what_to_type():
    with pytest.raises(ValueError, match=r"over its cap.*clock=5d\+1d/5d"):
        parse_time_control("5d+1d/3d")
    with pytest.raises(ValueError, match="increment"):
        parse_time_control("1d+3d/2d")


@pytest.mark.parametrize("typed", ["fortnight", "3d+/7d", "3x+1d/7d", "1d+1d/99d", "+", "3d+1d/"])
def test_an_unreadable_time_control_says_how_to_write_one(typed):
    with pytest.raises(ValueError, match="clock="):
        parse_time_control(typed)


def test_a_bank_gains_its_increment_after_a_move_up_to_its_cap_and_never_goes_below_zero():
    bank = Bank(3 * DAY, DAY, 7 * DAY)
    assert bank.after_move(2 * DAY) == 3 * DAY
    assert bank.after_move(6.5 * DAY) == 7 * DAY
    assert bank.after_move(-5 * DAY) == DAY
    assert describe(None, bank) == "bank 3d + 1d a move, at most 7d"
    assert describe(HOUR, None) == "1h per turn"
    assert describe(None, None) == "no turn clock"


def test_a_clock_does_not_run_while_its_player_is_away():
    off = [(100.0, 200.0), (150.0, 300.0), (500.0, 500.0)]
    assert merged(off) == [(100.0, 300.0)]
    assert running_seconds(0.0, 400.0, off) == 200.0
    assert runs_out_at(0.0, 150.0, off) == 350.0
    assert runs_out_at(0.0, 50.0, off) == 50.0
    assert runs_out_at(120.0, 10.0, off) == 310.0  # started while away: runs from its end
    assert off_at(250.0, off) == (100.0, 300.0) and off_at(300.0, off) is None


def test_a_vacation_that_begins_as_a_clock_runs_out_holds_it_until_the_vacation_ends():
    assert runs_out_at(0.0, 100.0, [(100.0, 100.0 + DAY)]) == 100.0 + DAY
    assert deadline_at(0.0, 100.0, [(130.0, 130.0 + DAY)], now=130.0) == 130.0 + DAY  # fired late, still held
    assert deadline_at(0.0, 100.0, [], now=130.0) == 100.0


@given(since=st.floats(0, 1e6), budget=st.floats(0, 1e6),
       off=st.lists(st.tuples(st.floats(0, 2e6), st.floats(0, 1e6)).map(lambda p: (p[0], p[0] + p[1])), max_size=6))
def test_a_clock_runs_out_exactly_when_it_has_run_its_budget(since, budget, off):
    ends = runs_out_at(since, budget, off)
    assert ends >= since + budget - 1e-6
    assert running_seconds(since, ends, off) == pytest.approx(budget, abs=1e-3)
