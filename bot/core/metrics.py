"""What tileref counts for Prometheus: every metric object, in a registry of its own (`REGISTRY`,
not prometheus_client's global one, so nothing else lands on `/metrics` and tests read only ours).

The code that does the work updates these in-process (a counter added to, a gauge moved, a
histogram observed); the few values only known elsewhere (the gateway's latency, the database
pool's use) are read at scrape time through a callback a running process registers
(`watch_gateway`, `watch_pool`), which must return at once. Labels are bounded: command kinds,
game names, Discord route templates (`/channels/{channel_id}/messages`, never an id or a token)
and HTTP status codes."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

VARIABLE = "TILEREF_METRICS"
"""The environment variable with the `host:port` `/metrics` is served on (unset: not served)."""
CONTENT_TYPE = CONTENT_TYPE_LATEST

REGISTRY = CollectorRegistry(auto_describe=True)

FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
SLOW = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)

commands = Counter("tileref_commands", "Commands (and clock duties, AI turns) handled, by kind and outcome "
                   "(ok, refused, stale, unconfirmed, error).", ["kind", "outcome"], registry=REGISTRY)
command_seconds = Histogram("tileref_command_seconds", "How long a command took, by kind.", ["kind"],
                            buckets=FAST, registry=REGISTRY)
moves = Counter("tileref_moves", "Moves committed, by game.", ["game"], registry=REGISTRY)
outbox_pending = Gauge("tileref_outbox_pending", "Announcements this process committed and has not yet seen "
                       "delivered (since it started).", registry=REGISTRY)
delivery_seconds = Histogram("tileref_delivery_seconds", "From an announcement's commit to its confirmed "
                             "delivery.", buckets=SLOW, registry=REGISTRY)
discord_requests = Counter("tileref_discord_requests", "Discord API responses, by route template and HTTP "
                           "status (each try, 429s included).", ["route", "status"], registry=REGISTRY)
discord_rate_limited = Counter("tileref_discord_rate_limited", "Discord API answers 429 (rate limited), by "
                               "route template.", ["route"], registry=REGISTRY)
gateway_latency = Gauge("tileref_gateway_latency_seconds", "The Discord gateway's heartbeat latency (NaN when "
                        "not connected).", registry=REGISTRY)
timer_lag = Histogram("tileref_timer_lag_seconds", "How late a timer (deadline, reminder, AI turn) fired "
                      "after it was due.", buckets=SLOW, registry=REGISTRY)
ai_planning_seconds = Histogram("tileref_ai_planning_seconds", "How long an AI took to plan a move.",
                                buckets=SLOW, registry=REGISTRY)
ai_queue = Gauge("tileref_ai_queue", "AI turns this process has claimed and not yet finished.", registry=REGISTRY)
web_watchers = Gauge("tileref_web_watchers", "Spectator pages following a table live (open event streams).",
                     registry=REGISTRY)
db_pool_in_use = Gauge("tileref_db_pool_in_use", "PostgreSQL connections in use (0 on SQLite).",
                       registry=REGISTRY)
db_pool_size = Gauge("tileref_db_pool_size", "PostgreSQL connections open in the pool (0 on SQLite).",
                     registry=REGISTRY)

PENDING_KEPT = 10_000
_pending: dict[int, float] = {}
"""The announcements committed here and not yet seen delivered: their ids and commit times."""
_gateway: Callable[[], float] | None = None
_pool: Callable[[], tuple[int, int]] | None = None


def command_ended(kind: str | None, outcome: str, seconds: float) -> None:
    """Count one command of `kind` that ended with `outcome` after `seconds`."""
    label = kind or "unknown"
    commands.labels(label, outcome).inc()
    command_seconds.labels(label).observe(seconds)


def moves_committed(game: str, count: int) -> None:
    """Count `count` moves committed in a game of `game`."""
    if count > 0:
        moves.labels(game).inc(count)


def notices_committed(notices: list[tuple[int | None, float]]) -> None:
    """Announcements (id, commit time) were committed: pending until delivered. At most
    `PENDING_KEPT` are remembered (the oldest forgotten first: another process delivered them)."""
    for key, created in notices:
        if key is not None:
            _pending[key] = created
    while len(_pending) > PENDING_KEPT:
        del _pending[next(iter(_pending))]


def notices_delivered(ids: list[int], now: float, committed: dict[int, float] | None = None) -> None:
    """Announcements `ids` were confirmed delivered at `now`; their delivery time is counted
    from their commit (as this process remembers it, else as `committed` says)."""
    for key in ids:
        created = _pending.pop(key, None)
        if created is None and committed is not None:
            created = committed.get(key)
        if created is not None:
            delivery_seconds.observe(max(0.0, now - created))


def watch_gateway(latency: Callable[[], float] | None) -> None:
    """Read the gateway's latency (seconds) with `latency` at each scrape (None: stop)."""
    global _gateway
    _gateway = latency


def watch_pool(use: Callable[[], tuple[int, int]] | None) -> None:
    """Read the database pool's (in use, size) with `use` at each scrape (None: stop)."""
    global _pool
    _pool = use


def forget_pool(use: Callable[[], tuple[int, int]]) -> None:
    """Stop reading the pool with `use` (if that is what is read: another store may be since)."""
    global _pool
    if _pool == use:
        _pool = None


def _read_callbacks() -> None:
    outbox_pending.set(len(_pending))
    try:
        gateway_latency.set(_gateway() if _gateway is not None else float("nan"))
    except Exception:
        gateway_latency.set(float("nan"))
    try:
        in_use, size = _pool() if _pool is not None else (0, 0)
    except Exception:
        in_use, size = 0, 0
    db_pool_in_use.set(in_use)
    db_pool_size.set(size)


def exposition() -> bytes:
    """Every metric in Prometheus' text format, as `/metrics` serves it."""
    _read_callbacks()
    return generate_latest(REGISTRY)


def parse_address(value: str | None) -> tuple[str, int] | None:
    """The (host, port) of a `TILEREF_METRICS` value ("host:port", or ":port" for every
    interface; port 0: any free one); None when unset or empty. Raises ValueError when it is not an address."""
    if value is None or not value.strip():
        return None
    host, sep, port_text = value.strip().rpartition(":")
    port = int(port_text) if sep and port_text.isascii() and port_text.isdigit() else None
    if port is None or not 0 <= port < 65536:
        raise ValueError(f"{VARIABLE} must be host:port (e.g. 127.0.0.1:9108), not {value!r}")
    return host.strip("[]") or "0.0.0.0", port
