"""Quiet hours: a daily stretch of the player's own wall-clock time, worked out in their time
zone day by day, so summer time moves it with their clock; bad input is refused saying what to
type."""

from __future__ import annotations

import datetime
import itertools
from zoneinfo import ZoneInfo

import pytest

from bot.community.quiet_hours import (
    BadQuietHours,
    QuietHours,
    is_quiet,
    parse_quiet,
    parse_stored,
    parse_time,
    parse_zone,
    quiet_intervals,
    quiet_seconds,
)

MADRID = ZoneInfo("Europe/Madrid")
NIGHTS = parse_quiet("23:00", "08:00", "Europe/Madrid")


def at(*parts: int, zone: ZoneInfo = MADRID) -> float:
    return datetime.datetime(*parts, tzinfo=zone).timestamp()


def test_a_night_spans_midnight_in_the_players_own_time() -> None:
    found = quiet_intervals(NIGHTS, at(2026, 1, 10, 12), at(2026, 1, 11, 12))
    assert found == [(at(2026, 1, 10, 23), at(2026, 1, 11, 8))]
    assert found[0][1] - found[0][0] == 9 * 3600


def test_stretches_are_cut_to_the_asked_window_and_never_empty() -> None:
    assert quiet_intervals(NIGHTS, at(2026, 1, 11, 2), at(2026, 1, 11, 3)) == [(at(2026, 1, 11, 2), at(2026, 1, 11, 3))]
    assert quiet_intervals(NIGHTS, at(2026, 1, 11, 9), at(2026, 1, 11, 22)) == []
    assert quiet_intervals(NIGHTS, at(2026, 1, 11, 9), at(2026, 1, 11, 9)) == []
    assert quiet_intervals(None, 0, 10**9) == []


def test_several_days_give_one_stretch_a_night_in_order() -> None:
    found = quiet_intervals(NIGHTS, at(2026, 1, 1, 0), at(2026, 1, 8, 0))
    assert len(found) == 8  # the end of the night of Dec 31, seven nights' starts
    assert all(a < b for a, b in found) and all(b1 < a2 for (_, b1), (a2, _) in itertools.pairwise(found))
    assert found[0] == (at(2026, 1, 1, 0), at(2026, 1, 1, 8))


def test_the_night_the_clocks_go_forward_is_an_hour_shorter() -> None:
    # Spain: 29 March 2026, 02:00 CET becomes 03:00 CEST
    found = quiet_intervals(NIGHTS, at(2026, 3, 28, 12), at(2026, 3, 29, 12))
    assert found == [(at(2026, 3, 28, 23), at(2026, 3, 29, 8))]
    assert found[0][1] - found[0][0] == 8 * 3600


def test_the_night_the_clocks_go_back_is_an_hour_longer() -> None:
    # Spain: 25 October 2026, 03:00 CEST becomes 02:00 CET
    found = quiet_intervals(NIGHTS, at(2026, 10, 24, 12), at(2026, 10, 25, 12))
    assert found[0][1] - found[0][0] == 10 * 3600
    assert datetime.datetime.fromtimestamp(found[0][1], MADRID).hour == 8


def test_a_start_the_clock_change_skips_counts_from_the_jump() -> None:
    early = parse_quiet("02:30", "06:00", "Europe/Madrid")
    (begin, end), = quiet_intervals(early, at(2026, 3, 29, 0), at(2026, 3, 29, 12))
    assert datetime.datetime.fromtimestamp(begin, MADRID).strftime("%H:%M") == "03:30"
    assert datetime.datetime.fromtimestamp(end, MADRID).strftime("%H:%M") == "06:00"


def test_a_daytime_stretch_needs_no_midnight() -> None:
    lunch = parse_quiet("13:00", "15:30", "America/Mexico_City")
    city = ZoneInfo("America/Mexico_City")
    assert quiet_seconds(lunch, at(2026, 5, 1, zone=city), at(2026, 5, 3, zone=city)) == 2 * 2.5 * 3600
    assert is_quiet(lunch, at(2026, 5, 1, 14, zone=city))
    assert not is_quiet(lunch, at(2026, 5, 1, 15, 30, zone=city))  # the end is not quiet any more
    assert is_quiet(lunch, at(2026, 5, 1, 13, zone=city))


def test_whether_a_moment_is_quiet() -> None:
    assert is_quiet(NIGHTS, at(2026, 6, 1, 23, 30)) and is_quiet(NIGHTS, at(2026, 6, 2, 7, 59))
    assert not is_quiet(NIGHTS, at(2026, 6, 2, 8)) and not is_quiet(NIGHTS, at(2026, 6, 2, 22, 59))
    assert not is_quiet(None, at(2026, 6, 2, 3))


@pytest.mark.parametrize(("text", "hour", "minute"), [("23:00", 23, 0), ("8:30", 8, 30), ("7", 7, 0),
                                                      ("22h", 22, 0), ("08.15", 8, 15), (" 0:05 ", 0, 5)])
def test_times_are_read_as_players_write_them(text: str, hour: int, minute: int) -> None:
    assert parse_time(text) == datetime.time(hour, minute)


@pytest.mark.parametrize("text", ["24:00", "7pm", "23:60", "", "noon", "12:5"])
def test_a_time_that_is_not_one_is_refused_saying_what_to_write(text: str) -> None:
    with pytest.raises(BadQuietHours, match="24-hour clock, like 23:00"):
        parse_time(text)


def test_zones_are_read_whatever_their_case_and_unknown_ones_refused() -> None:
    assert parse_zone("europe/madrid") == "Europe/Madrid"
    assert parse_zone("America/New York") == "America/New_York"
    assert parse_zone("utc") == "UTC"
    for wrong in ("Madrid", "Mars/Olympus", "../etc/passwd", ""):
        with pytest.raises(BadQuietHours, match="like Europe/Madrid"):
            parse_zone(wrong)


def test_the_same_start_and_end_is_refused() -> None:
    with pytest.raises(BadQuietHours, match="from:23:00 to:08:00"):
        parse_quiet("8:00", "08:00", "UTC")


def test_a_setting_is_stored_as_text_and_read_back() -> None:
    assert str(NIGHTS) == "23:00-08:00 Europe/Madrid"
    assert parse_stored(str(NIGHTS)) == NIGHTS
    assert parse_stored(None) is None and parse_stored("garbage") is None
    assert QuietHours(datetime.time(1), datetime.time(2), "UTC") == parse_stored("01:00-02:00 UTC")
