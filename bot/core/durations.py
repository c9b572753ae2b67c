"""Turn times and reminder points as people write them (`90s`, `1h30m`, `50%`), read and written."""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.core.i18n import _
from engine.core import quoted
from engine.digits import decimal_number, foreign_digit

_DURATION = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*(d|h|m|s|days?|hours?|hrs?|minutes?|mins?|seconds?|secs?)?$")
_UNIT = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def parse_duration(text: str) -> int | None:
    """`"90s"`, `"10m"`, `"1h30m"`, `"2d"`, `"45"` (minutes) -> seconds; `"off"`/`"none"` -> None.
    Numbers are written with the digits 0–9 (see `engine.digits`). Raises ValueError with a
    message a user can act on."""
    cleaned = text.strip().lower().replace(" ", "")
    if cleaned in ("off", "none", "no", "0", "never", "unlimited"):
        return None
    if foreign_digit(cleaned) is not None:
        raise ValueError(_("write durations with the digits 0 to 9, like 90s, 10m, 1h30m or 2d; not '{value}'")
                         .format(value=quoted(text)))
    total = 0.0
    parts = re.findall(r"[0-9]+(?:\.[0-9]+)?[a-z]*", cleaned)
    if not parts or "".join(parts) != cleaned:
        raise ValueError(not_a_duration(text))
    for part in parts:
        match = _DURATION.match(part)
        if not match:
            raise ValueError(not_a_duration(text))
        unit = (match.group(2) or "m")[0]
        total += (decimal_number(match.group(1)) or 0.0) * _UNIT[unit]
    if total < 10:
        raise ValueError(_("a turn time must be at least 10 seconds"))
    if total > 30 * 86400:
        raise ValueError(_("a turn time can be at most 30 days"))
    return int(total)


def not_a_duration(text: str) -> str:
    return _("'{value}' is not a duration: write it like 90s, 10m, 1h30m or 2d (or off)").format(value=quoted(text))


def format_duration(seconds: float) -> str:
    """3725 -> "1h 2m"; 90 -> "1m 30s"; 172800 -> "2d"."""
    left = round(seconds)
    if left <= 0:
        return "0s"
    parts = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if left >= size:
            parts.append(f"{left // size}{unit}")
            left %= size
    return " ".join(parts[:2])


def reminder_offsets(points: Iterable[str], turn_seconds: int) -> list[float]:
    """Seconds before the deadline at which to remind: `"50%"` is half the turn time, `"10m"`
    ten minutes. Points at or beyond the whole turn time are dropped."""
    offsets = set()
    for point in points:
        point = point.strip()
        if point.endswith("%"):
            share = decimal_number(point[:-1])
            if share is None:
                continue
            offset = turn_seconds * share / 100
        else:
            parsed = parse_duration(point)
            if parsed is None:
                continue
            offset = float(parsed)
        if 0 < offset < turn_seconds:
            offsets.add(offset)
    return sorted(offsets, reverse=True)


def parse_reminders(text: str) -> list[str]:
    """`"1h, 10m"` or `"50%,10%"` -> the points, checked; `"off"` -> []."""
    if text.strip().lower() in ("off", "none", ""):
        return []
    points = [p.strip() for p in re.split(r"[,\s]+", text) if p.strip()]
    for point in points:
        if point.endswith("%"):
            value = decimal_number(point[:-1])
            if value is None:
                raise ValueError(_("'{value}' is not a percentage like 50%").format(value=quoted(point)))
            if not 0 < value < 100:
                raise ValueError(_("reminder percentages are between 0% and 100% of the turn time"))
        else:
            parse_duration(point)
    return points
