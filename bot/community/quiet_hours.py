"""Quiet hours: a daily stretch of a player's own local time (`/notify quiet from:23:00 to:08:00
tz:Europe/Madrid`) during which nothing pings them.

`quiet_intervals` is pure: the moments, as Unix seconds, that a setting makes quiet between two
moments, worked out day by day in the player's time zone, so a clock change (DST) moves them with
the player's clock. It is what a player's clock needs to stop running during their quiet hours
(subtract the intervals from the time a turn took), and what decides whether a ping is held back.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.core.i18n import _

DAY = 86_400
_TIME = re.compile(r"^\s*(\d{1,2})(?:\s*[:.h]\s*(\d{2}))?\s*(?:h)?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class QuietHours:
    """Every day from `start` to `end` (local wall times; an `end` at or before `start` is the
    next day's) in the time zone `zone` (an IANA name such as Europe/Madrid)."""

    start: datetime.time
    end: datetime.time
    zone: str

    def __str__(self) -> str:
        """As stored and shown: `23:00-08:00 Europe/Madrid` (`parse_stored` reads it back)."""
        return f"{self.start:%H:%M}-{self.end:%H:%M} {self.zone}"


class BadQuietHours(ValueError):
    """A quiet-hours setting that cannot be read: the message says what to type instead."""


def parse_time(text: str) -> datetime.time:
    """A time of day as players write it: `23:00`, `8:30`, `7`, `22h`, `8.15`. Raises
    BadQuietHours saying what to write."""
    match = _TIME.match(text or "")
    hour, minute = (int(match.group(1)), int(match.group(2) or 0)) if match else (-1, -1)
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise BadQuietHours(_("“{text}” is not a time of day: write it on the 24-hour clock, like 23:00 or "
                              "8:30").format(text=(text or "").strip()[:40]))
    return datetime.time(hour, minute)


@cache
def _zones_by_lower_name() -> dict[str, str]:
    return {name.lower(): name for name in available_timezones()}


def parse_zone(text: str) -> str:
    """An IANA time zone's name (`Europe/Madrid`, `America/New_York`, `UTC`), whatever the case
    it was typed in. Raises BadQuietHours saying what to write."""
    wanted = (text or "").strip().replace(" ", "_")
    name = _zones_by_lower_name().get(wanted.lower())
    if name is not None:
        try:
            ZoneInfo(name)
            return name
        except (ZoneInfoNotFoundError, ValueError):
            pass
    raise BadQuietHours(_("“{text}” is not a time zone I know: write the name of yours as a continent and city, "
                          "like Europe/Madrid, America/Mexico_City or Asia/Tokyo (or UTC)").format(
        text=(text or "").strip()[:40]))


def parse_quiet(start: str, end: str, zone: str) -> QuietHours:
    """Quiet hours from what a player typed. Raises BadQuietHours saying what to type."""
    setting = QuietHours(parse_time(start), parse_time(end), parse_zone(zone))
    if setting.start == setting.end:
        raise BadQuietHours(_("quiet hours that start and end at the same time would be a whole day: choose two "
                              "different times, like from:23:00 to:08:00"))
    return setting


def parse_stored(text: str | None) -> QuietHours | None:
    """A setting as `str(QuietHours)` wrote it (None for none, or for one that no longer reads,
    such as a time zone the system has dropped)."""
    if not text:
        return None
    try:
        span, zone = text.split(" ", 1)
        start, end = span.split("-", 1)
        return QuietHours(parse_time(start), parse_time(end), parse_zone(zone))
    except (ValueError, BadQuietHours):
        return None


def _moment(day: datetime.date, at: datetime.time, zone: ZoneInfo) -> float:
    """The Unix time at which a wall clock in `zone` shows `at` on `day`. A wall time a clock
    change repeats counts the first time; one it skips (spring forward) counts as the moment the
    clock jumps over it, read with the offset in force before the change."""
    return datetime.datetime.combine(day, at, tzinfo=zone).timestamp()


def quiet_intervals(setting: QuietHours | None, since: float, until: float) -> list[tuple[float, float]]:
    """The quiet stretches between the moments `since` and `until` (Unix seconds): sorted,
    disjoint (start, end) pairs, each cut to [since, until] and never empty. Each day's stretch
    begins when the player's clock shows `start` and ends when it next shows `end`, so across a
    change to or from summer time a stretch lasts an hour more or less of real time. None, or
    `until` not after `since`: no stretches."""
    if setting is None or until <= since:
        return []
    zone = ZoneInfo(setting.zone)
    first = datetime.datetime.fromtimestamp(since, zone).date() - datetime.timedelta(days=1)
    last = datetime.datetime.fromtimestamp(until, zone).date()
    found: list[tuple[float, float]] = []
    day = first
    while day <= last:
        ends_on = day if setting.end > setting.start else day + datetime.timedelta(days=1)
        begin, end = _moment(day, setting.start, zone), _moment(ends_on, setting.end, zone)
        begin, end = max(begin, since), min(end, until)
        if end > begin:
            if found and begin <= found[-1][1]:
                found[-1] = (found[-1][0], max(found[-1][1], end))
            else:
                found.append((begin, end))
        day += datetime.timedelta(days=1)
    return found


def is_quiet(setting: QuietHours | None, when: float) -> bool:
    """Whether the moment `when` falls in the player's quiet hours."""
    return any(begin <= when < end for begin, end in quiet_intervals(setting, when - DAY, when + DAY))


def quiet_seconds(setting: QuietHours | None, since: float, until: float) -> float:
    """How many seconds between `since` and `until` are quiet (what a clock that stops during
    quiet hours would not count)."""
    return sum(end - begin for begin, end in quiet_intervals(setting, since, until))
