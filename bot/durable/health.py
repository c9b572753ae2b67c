"""Whether a tileref process is healthy, in a form that can fail: the database answers within a
second, the Discord gateway is connected, and the durable work (the outbox, the clocks' timers,
the AI seats' turns) is not further behind than the operator allows.

`HealthCheck.report()` gives a `HealthReport` that `GET /healthz` renders as JSON (HTTP 200 or
503) and `tileref health` as plain lines (exit 0 or 1). The limits come from the environment
(`HealthLimits.from_env`)."""

from __future__ import annotations

import asyncio
import math
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from bot.core.clock import Clock, SystemClock
from bot.storage.store import Store
from engine.digits import decimal_number

DATABASE_SECONDS = 1.0
"""How long the database may take to answer the health check's read."""

OUTBOX_SETTING = "TILEREF_HEALTH_OUTBOX_SECONDS"
TIMER_LAG_SETTING = "TILEREF_HEALTH_TIMER_LAG_SECONDS"
AI_SETTING = "TILEREF_HEALTH_AI_SECONDS"


@dataclass(frozen=True)
class HealthLimits:
    """How long, in seconds, each kind of durable work may wait before the process is unhealthy."""

    outbox_seconds: float = 300.0
    """The oldest undelivered announcement (Discord slow or down, or the outbox stuck)."""
    timer_lag_seconds: float = 60.0
    """The timer dispatcher's lag behind the oldest due deadline or reminder."""
    ai_seconds: float = 300.0
    """The oldest AI seat's turn that is due and not yet played (planning takes up to 90 s)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> HealthLimits:
        """The limits from $TILEREF_HEALTH_OUTBOX_SECONDS, $TILEREF_HEALTH_TIMER_LAG_SECONDS and
        $TILEREF_HEALTH_AI_SECONDS (each a positive number of seconds; unset or empty: the default).
        Raises ValueError saying what to write."""
        env = os.environ if env is None else env
        defaults = cls()
        values = {}
        for field, setting in (("outbox_seconds", OUTBOX_SETTING), ("timer_lag_seconds", TIMER_LAG_SETTING),
                               ("ai_seconds", AI_SETTING)):
            text = env.get(setting, "").strip()
            if not text:
                values[field] = getattr(defaults, field)
                continue
            value = decimal_number(text)
            if value is None or value <= 0:
                raise ValueError(f"{setting} must be a number of seconds above 0, like "
                                 f"{getattr(defaults, field):g}; it is {text!r}")
            values[field] = value
        return cls(**values)


@dataclass(frozen=True)
class Check:
    """One thing the health check looked at: its `name`, whether it is `ok`, what was measured
    (`value`, in seconds where it is a time; None when nothing could be measured) against which
    `limit` (None: no limit), and `reason`, a sentence for the operator."""

    name: str
    ok: bool
    value: float | None
    limit: float | None
    reason: str

    def line(self) -> str:
        return f"{'✓' if self.ok else '✗'} {self.name}: {self.reason}"


@dataclass(frozen=True)
class HealthReport:
    """Every check made; healthy when each one is ok."""

    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    @property
    def problems(self) -> list[Check]:
        return [check for check in self.checks if not check.ok]

    def as_json(self) -> dict[str, Any]:
        """What `/healthz` answers: {"ok": bool, "checks": [{name, ok, value, limit, reason}, …]}."""
        return {"ok": self.ok, "checks": [asdict(check) for check in self.checks]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HealthReport:
        """The report a `/healthz` answered (`as_json`'s shape)."""
        return cls(tuple(Check(str(c["name"]), bool(c["ok"]), c.get("value"), c.get("limit"), str(c["reason"]))
                         for c in data["checks"]))

    def lines(self) -> list[str]:
        """The report for a terminal: a first line saying healthy or not and why, then a line
        per check."""
        problems = self.problems
        first = "healthy" if not problems else "unhealthy: " + "; ".join(c.name for c in problems)
        return [first, *(check.line() for check in self.checks)]


@dataclass(frozen=True)
class Gateway:
    """The Discord gateway's state as the bot in this process sees it: whether it is connected,
    its heartbeat latency in seconds (None before the first heartbeat is acknowledged) and, when
    not connected, why."""

    connected: bool
    latency: float | None = None
    detail: str = ""


GatewayProbe = Callable[[], Gateway]


class HealthCheck:
    """Checks the store (and, once `gateway` is set, the Discord connection of this process)
    against `limits`, measuring waits with `clock` (the referee's, so they agree with the times
    it stored)."""

    def __init__(self, store: Store, limits: HealthLimits | None = None, *, clock: Clock | None = None,
                 gateway: GatewayProbe | None = None) -> None:
        self.store = store
        self.limits = limits or HealthLimits()
        self.clock = clock or SystemClock()
        self.gateway = gateway

    async def report(self) -> HealthReport:
        """Every check, made now; never raises for an unhealthy database (that is a failed check)."""
        checks = await database_checks(self.store, self.limits, self.clock.now())
        return HealthReport((*checks, gateway_check(self.gateway)))


async def database_checks(store: Store, limits: HealthLimits, now: float) -> list[Check]:
    """The database check (one read within `DATABASE_SECONDS`) and, when it answered, the
    outbox, timer and AI-turn checks from what it read."""
    started = time.perf_counter()
    try:
        backlog = await asyncio.wait_for(store.backlog(now), DATABASE_SECONDS)
    except TimeoutError:
        return [Check("database", False, None, DATABASE_SECONDS,
                      f"did not answer within {DATABASE_SECONDS:g} s")]
    except Exception as error:  # whatever the driver raises for a database that is gone
        return [database_failed(error)]
    took = time.perf_counter() - started
    waits = (("outbox", backlog.oldest_notice, limits.outbox_seconds, "the oldest undelivered announcement"),
             ("timers", backlog.oldest_due_timer, limits.timer_lag_seconds, "the oldest due deadline or reminder"),
             ("ai_turns", backlog.oldest_ai_turn, limits.ai_seconds, "the oldest due AI turn"))
    return [Check("database", True, round(took, 4), DATABASE_SECONDS, f"answered in {took * 1000:.0f} ms"),
            *(waiting(name, since, now, limit, what) for name, since, limit, what in waits)]


def database_failed(error: BaseException) -> Check:
    """The database check failed with `error` (it could not be opened or read)."""
    said = str(error).replace("\n", " ")
    return Check("database", False, None, DATABASE_SECONDS,
                 f"unreachable ({type(error).__name__}{': ' + said if said else ''})")


def waiting(name: str, since: float | None, now: float, limit: float, what: str) -> Check:
    """A check that `what`, waiting since `since` (None: nothing waits), has waited at most `limit`
    seconds by `now`."""
    if since is None:
        return Check(name, True, 0.0, limit, f"nothing waiting (limit {limit:g} s)")
    age = max(0.0, now - since)
    verdict = "over" if age > limit else "within"
    return Check(name, age <= limit, round(age, 1), limit, f"{what} has waited {age:.0f} s, {verdict} "
                                                            f"the limit of {limit:g} s")


def gateway_check(probe: GatewayProbe | None) -> Check:
    """The Discord gateway's check: ok when connected (its latency is the value); failed when
    not; ok but saying so when this process runs no bot (`probe` None)."""
    if probe is None:
        return Check("gateway", True, None, None, "not checked: no Discord bot runs in this process")
    state = probe()
    if not state.connected:
        return Check("gateway", False, None, None, f"not connected to Discord ({state.detail or 'disconnected'})")
    if state.latency is None or not math.isfinite(state.latency):
        return Check("gateway", True, None, None, "connected, no heartbeat acknowledged yet")
    return Check("gateway", True, round(state.latency, 4), None, f"connected, latency {state.latency * 1000:.0f} ms")
