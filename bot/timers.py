"""Durable turn deadlines and reminders.

Timers are rows in the store, so they survive a restart. One dispatcher task sleeps until the
earliest one falls due and hands it to the referee. The clock is injected: `SystemClock` in
production, `ManualClock` in tests, which never sleep.

A seat's deadline starts when its turn begins and runs until the turn ends: drawing a tile does
not restart the clock, but every new turn (the same seat's next one included, such as the extra
turn a double gives, and each new round) gets a fresh deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Protocol

from bot.i18n import _
from bot.records import DEADLINE, REMINDER, Timer
from engine.core import quoted
from engine.digits import decimal_number, foreign_digit

log = logging.getLogger(__name__)


class Clock(Protocol):
    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """Wall-clock time (seconds since the epoch)."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class ManualClock:
    """A clock that only moves when told: `await clock.advance(3600)` wakes every sleeper whose
    time has come, in order, and lets them run before returning."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._counter = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._counter), future))
        await future

    async def advance(self, seconds: float) -> None:
        target = self._now + seconds
        while self._sleepers and self._sleepers[0][0] <= target:
            wake_at, _, future = heapq.heappop(self._sleepers)
            self._now = max(self._now, wake_at)
            if not future.done():
                future.set_result(None)
            await settle()
        self._now = target
        await settle()


async def settle(rounds: int = 20) -> None:
    """Let ready tasks run (a few event-loop turns)."""
    for _round in range(rounds):
        await asyncio.sleep(0)


# ---- planning -------------------------------------------------------------------------------

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


class Background:
    """One asyncio task running `loop` (a coroutine function that runs until cancelled)."""

    def __init__(self, loop: Callable[[], Awaitable[None]], name: str) -> None:
        self.loop = loop
        self.name = name
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the task unless it is running."""
        if self._task is None:
            self._task = asyncio.ensure_future(self.loop())
            self._task.set_name(self.name)

    async def stop(self) -> None:
        """Cancel the task and wait for it to end."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None


class TimerSource(Protocol):
    async def due_timers(self, now: float) -> list[Timer]:
        """Timers due at or before `now`, earliest first."""
        ...


class TimerDispatcher:
    """One task that fires due timers in order. `wake()` makes it look again at once (call it
    after writing a timer that may be earlier than the one it sleeps for)."""

    RECHECK_SECONDS = 300.0
    RETRY_SECONDS = 60.0

    def __init__(self, store: TimerSource, clock: Clock, fire: Callable[[Timer], Awaitable[None]]) -> None:
        self.store = store
        self.clock = clock
        self.fire = fire
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._failed: dict[int, float] = {}
        self.background = Background(self._run, "tileref-timers")

    def start(self) -> None:
        self.background.start()

    async def stop(self) -> None:
        await self.background.stop()

    def wake(self) -> None:
        self._idle.clear()
        self._wake.set()

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait (in real time) until nothing is due at the clock's current time and the
        dispatcher is asleep: after `ManualClock.advance`, every timer due has fired."""

        async def settled() -> None:
            while True:
                await settle()
                await self._idle.wait()
                if await self._next_wake() > self.clock.now():
                    return
                self.wake()

        await asyncio.wait_for(settled(), timeout)

    async def _next_wake(self) -> float:
        """When there is next something to fire: the earliest due timer, or a failed timer's
        retry time, looking at most RECHECK_SECONDS ahead."""
        now = self.clock.now()
        horizon = now + self.RECHECK_SECONDS
        upcoming = await self.store.due_timers(horizon)
        times = [max(t.due, self._failed.get(t.id or 0, 0.0)) for t in upcoming]
        return min([horizon, *times])

    async def run_due(self) -> int:
        """Fire every timer due now; returns how many fired."""
        now = self.clock.now()
        fired = 0
        due = await self.store.due_timers(now)
        live = {t.id for t in due}
        self._failed = {key: when for key, when in self._failed.items() if key in live}
        for timer in due:
            assert timer.id is not None
            if self._failed.get(timer.id, 0) > now:
                continue
            try:
                await self.fire(timer)
                self._failed.pop(timer.id, None)
                fired += 1
            except Exception:
                log.exception("timer %s failed; retrying in %ss", timer, self.RETRY_SECONDS)
                self._failed[timer.id] = now + self.RETRY_SECONDS
        return fired

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            await self.run_due()
            delay = max(0.0, await self._next_wake() - self.clock.now())
            sleeper = asyncio.ensure_future(self.clock.sleep(delay))
            waker = asyncio.ensure_future(self._wake.wait())
            self._idle.set()
            try:
                await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                self._idle.clear()
                for task in (sleeper, waker):
                    task.cancel()
