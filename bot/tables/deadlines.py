"""The deadline and reminder timers a table's waiting seats should have.

A seat's deadline starts when its turn begins and runs until the turn ends: drawing a tile does
not restart the clock, but every new turn (the same seat's next one included, such as the extra
turn a double gives, and each new round) gets a fresh deadline.

A turn has a budget of running seconds (the turn time, or what is left in the seat's bank), and
the seat's clock does not run while its player is unavailable (`bot.core.running_time`): the
deadline is when the budget has run out, counted outside those intervals.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.core.durations import reminder_offsets
from bot.core.records import DEADLINE, REMINDER, Timer
from bot.core.running_time import Interval, deadline_at, runs_out_at

BANK_REMINDER_SHARE = 0.75
"""A bank's first reminder: when this share of what was left when the turn began has run."""
LAST_HOUR = 3600.0
"""A bank's second reminder: this long before it runs out (when the turn had over twice as long)."""


def plan_clock(table_id: int, waiting: Mapping[int, tuple[int, float]], previous: Sequence[Timer],
               budgets: Mapping[int, float], points: Callable[[float], Sequence[float]],
               off: Mapping[int, Sequence[Interval]] | None = None, now: float | None = None) -> list[Timer]:
    """The timers for the seats `waiting` (seat -> (ply, moment its turn began)): each seat's
    deadline when its budget of running seconds (`budgets`) has run, and its reminders when the
    running seconds `points(budget)` have (those already past `now` left out), the clock not
    running during the seat's intervals in `off`. A seat still in the same turn whose deadline
    is unchanged keeps its timers as they are (reminders already fired stay fired)."""
    timers = []
    for seat, (ply, since) in sorted(waiting.items()):
        budget = budgets[seat]
        unavailable = (off or {}).get(seat, ())
        due = deadline_at(since, budget, unavailable, now)
        kept = [t for t in previous if t.seat == seat and t.ply == ply]
        if any(t.kind == DEADLINE and abs(t.due - due) < 1e-6 for t in kept):
            timers += [Timer(table_id, t.seat, t.kind, t.due, t.ply) for t in kept]
            continue
        timers.append(Timer(table_id, seat, DEADLINE, due, ply))
        for point in points(budget):
            when = runs_out_at(since, point, unavailable)
            if now is None or when > now:
                timers.append(Timer(table_id, seat, REMINDER, when, ply))
    return timers


def plan_timers(table_id: int, waiting: dict[int, tuple[int, float]], previous: Sequence[Timer],
                turn_seconds: int | None, reminders: Sequence[str],
                deadline: Callable[[float, int], float] | None = None,
                off: Mapping[int, Sequence[Interval]] | None = None, now: float | None = None) -> list[Timer]:
    """The timers of a table with a fixed time per turn: `plan_clock` with each turn's budget
    the turn time (`deadline` says when a turn that began at a moment ends, default
    `turn_seconds` later) and reminders at the server's `reminders` points before it."""
    if not turn_seconds:
        return []
    ends = deadline or (lambda since, seconds: since + seconds)
    budgets = {seat: ends(since, turn_seconds) - since for seat, (_ply, since) in waiting.items()}
    offsets = reminder_offsets(reminders, turn_seconds)
    return plan_clock(table_id, waiting, previous, budgets,
                      lambda budget: [budget - offset for offset in offsets if budget - offset > 0], off, now)


def bank_points(budget: float, reminders: Sequence[str]) -> list[float]:
    """When a bank's turn is reminded of, in running seconds since it began: once 75% of what
    was left has run, and in its last hour (when the turn has over two hours); none when the
    server turned reminders off."""
    if not reminders:
        return []
    points = {budget * BANK_REMINDER_SHARE}
    if budget > 2 * LAST_HOUR:
        points.add(budget - LAST_HOUR)
    return sorted(p for p in points if 0 < p < budget)
