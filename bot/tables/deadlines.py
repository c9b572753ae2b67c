"""The deadline and reminder timers a table's waiting seats should have.

A seat's deadline starts when its turn begins and runs until the turn ends: drawing a tile does
not restart the clock, but every new turn (the same seat's next one included, such as the extra
turn a double gives, and each new round) gets a fresh deadline.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.core.durations import reminder_offsets
from bot.core.records import DEADLINE, REMINDER, Timer


def plan_timers(table_id: int, waiting: dict[int, tuple[int, float]], previous: Sequence[Timer],
                turn_seconds: int | None, reminders: Sequence[str],
                deadline: Callable[[float, int], float] | None = None) -> list[Timer]:
    """The timers a table should have. `waiting` maps each clocked seat to (ply, time) its turn
    began; a seat still in the same turn keeps its deadline and unfired reminders. `deadline`
    says when a turn that began at a moment ends (default: `turn_seconds` later)."""
    if not turn_seconds:
        return []
    ends = deadline or (lambda since, seconds: since + seconds)
    timers = []
    for seat, (ply, since) in sorted(waiting.items()):
        kept = [t for t in previous if t.seat == seat and t.ply == ply]
        if any(t.kind == DEADLINE and abs(t.due - ends(since, turn_seconds)) < 1e-6 for t in kept):
            timers += [Timer(table_id, t.seat, t.kind, t.due, t.ply) for t in kept]
            continue
        due = ends(since, turn_seconds)
        timers.append(Timer(table_id, seat, DEADLINE, due, ply))
        timers += [Timer(table_id, seat, REMINDER, due - offset, ply)
                   for offset in reminder_offsets(reminders, turn_seconds)]
    return timers


# ---- dispatch -------------------------------------------------------------------------------
