"""How long a player's clock runs, when it does not run all the time.

A player may be unavailable for stretches of time (a vacation, declared or spent automatically;
quiet hours): their clock does not run then. Everything the clock needs is two questions about a
list of such intervals, answered here for any source of them:

- `running_seconds(since, until, off)`: how much of `[since, until)` the clock ran;
- `runs_out_at(since, budget, off)`: when a clock started at `since` with `budget` seconds has
  run them all.

`off` is a list of `(start, end)` pairs (seconds since the epoch) in any order, possibly
overlapping; an interval with `end <= start` is ignored.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence

from bot.core.records import TableRecord

Interval = tuple[float, float]

Unavailability = Callable[[TableRecord], Awaitable[Mapping[str, Sequence[Interval]]]]
"""A source of the times players are unavailable: for a table, the intervals (by user id) during
which each of its players' clocks must not run there. Vacations are one (`bot.community.vacations`);
quiet hours plug in the same way (`bot.tables.core.Tables.unavailable_when`)."""


def merged(off: Iterable[Interval]) -> list[Interval]:
    """The intervals sorted, overlapping and touching ones joined, empty ones dropped."""
    joined: list[list[float]] = []
    for start, end in sorted((float(a), float(b)) for a, b in off if b > a):
        if joined and start <= joined[-1][1]:
            joined[-1][1] = max(joined[-1][1], end)
        else:
            joined.append([start, end])
    return [(a, b) for a, b in joined]


def running_seconds(since: float, until: float, off: Iterable[Interval]) -> float:
    """The seconds of `[since, until)` outside every interval of `off` (0 if `until <= since`)."""
    if until <= since:
        return 0.0
    paused = sum(max(0.0, min(end, until) - max(start, since)) for start, end in merged(off))
    return (until - since) - paused


def runs_out_at(since: float, budget: float, off: Iterable[Interval]) -> float:
    """The moment a clock started at `since` has run `budget` seconds, not running during `off`."""
    now, left = since, max(0.0, budget)
    for start, end in merged(off):
        if end <= now:
            continue
        start = max(start, now)
        if now + left < start:  # runs out before the pause (one that begins just as it would
            # run out holds it: a vacation day spent when the bank is empty)
            break
        left -= start - now
        now = end
    return now + left


def off_at(when: float, off: Iterable[Interval]) -> Interval | None:
    """The (joined) interval of `off` that `when` falls in, or None."""
    return next(((a, b) for a, b in merged(off) if a <= when < b), None)


def deadline_at(since: float, budget: float, off: Iterable[Interval], now: float | None = None) -> float:
    """When a clock started at `since` with `budget` seconds runs out (`runs_out_at`); but a clock
    that has run out by `now` while its player is unavailable (a vacation day spent as it ran
    out, or spent by another of their games meanwhile) runs out when that interval ends."""
    intervals = merged(off)
    due = runs_out_at(since, budget, intervals)
    if now is not None and due <= now:
        current = off_at(now, intervals)
        if current is not None:
            return current[1]
    return due
