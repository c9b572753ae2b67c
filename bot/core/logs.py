"""Logs with context: which server, table and command a log line concerns, and how long the
command took, as plain lines or (`TILEREF_LOG_FORMAT=json`) one JSON object a line.

A command, clock duty or AI turn opens a `scope`; what learns more on the way (the command core
reading the table) adds it with `note`. Every record logged inside carries the scope's fields
(`ContextFilter`), and `scope` logs one line when it ends: the command, its outcome (ok, refused,
error) and its duration; the same line counts it in `metrics` (by command and outcome, with its
duration), so the logs and `/metrics` agree.

No log line may hold a hand, a bag, a seed or a token. Our own log calls name tables, seats,
timers and notices by number, never actions or texts; `configure` keeps the libraries quiet
below INFO where their debug lines carry request bodies (discord.py: message texts, hands in
private replies, gateway payloads) or SQL parameters (aiosqlite: snapshots, seeds), and
`Redactor` blanks the Discord token, interaction tokens in Discord's URLs and spectator page
tokens in paths, should a line hold one anyway."""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import IO, Any

from bot.core import metrics

FORMAT_VARIABLE = "TILEREF_LOG_FORMAT"
"""The environment variable choosing the format: `json`, or `plain` (the default)."""
PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s%(context)s: %(message)s"
QUIET_BELOW_INFO = ("discord", "aiosqlite", "asyncpg", "PIL")
"""Libraries whose DEBUG lines hold what must not be logged (discord.py: request bodies, gateway
payloads, interaction tokens in URLs; aiosqlite: every statement's parameters), or are noise."""
FIELDS = ("server", "table", "place", "command")

commands_log = logging.getLogger("bot.commands")
"""The logger of the line each command ends with."""


@dataclass(frozen=True)
class LogContext:
    """What the log lines of the work being done concern (None: not known, or none)."""

    server: str | None = None
    table: int | None = None
    place: str | None = None
    command: str | None = None
    open: bool = False
    """Whether a `scope` is open: `note` adds nothing outside one."""


NO_CONTEXT = LogContext()
CONTEXT: ContextVar[LogContext | None] = ContextVar("tileref_log_context", default=None)


def current() -> LogContext:
    """The context of the work being done in this task."""
    return CONTEXT.get() or NO_CONTEXT


def note(*, server: str | None = None, table: int | None = None, place: str | None = None,
         command: str | None = None) -> None:
    """Add what is now known to the open scope (until it ends); outside a scope, nothing."""
    context = current()
    if not context.open:
        return
    known = {"server": server, "table": table, "place": place, "command": command}
    CONTEXT.set(replace(context, **{k: v for k, v in known.items() if v is not None}))


class _Outcome:
    """How the command of a scope ended, so far."""

    def __init__(self) -> None:
        self.value = "ok"


_OUTCOME: ContextVar[_Outcome | None] = ContextVar("tileref_log_outcome", default=None)


@contextmanager
def scope(command: str | None = None, *, server: str | None = None, table: int | None = None,
          place: str | None = None, timed: bool = True, fresh: bool = False) -> Iterator[LogContext]:
    """Work on behalf of one command (or clock duty, or AI turn) in this task: fields already
    known by an enclosing scope are kept (the adapter's command name and server), the given ones
    added; `fresh`: nothing is kept (a clock duty or AI turn, in a task a command may have
    started). If `timed`, one line is logged at the end with the outcome and the duration:
    "error" if an exception escapes, else "ok" unless `outcome` said otherwise meanwhile."""
    outer = NO_CONTEXT if fresh else current()
    given = {"server": server, "table": table, "place": place}
    inner = replace(outer, open=True, command=outer.command or command,
                    **{k: v for k, v in given.items() if v is not None})
    token = CONTEXT.set(inner)
    ending = _Outcome()
    outcome_token = _OUTCOME.set(ending)
    started = time.perf_counter()
    try:
        yield inner
    except BaseException:
        ending.value = "error"
        raise
    finally:
        if timed:
            duration = (time.perf_counter() - started) * 1000
            commands_log.info("ended %s after %.1f ms", ending.value, duration,
                              extra={"duration_ms": round(duration, 1), "outcome": ending.value})
            metrics.command_ended(current().command, ending.value, duration / 1000)
        _OUTCOME.reset(outcome_token)
        CONTEXT.reset(token)


def outcome(value: str) -> None:
    """Say how the command of the open scope ended, when not "ok" ("refused", "error", "stale")."""
    ending = _OUTCOME.get()
    if ending is not None:
        ending.value = value


# ---- records and their formats ----------------------------------------------------------------


class ContextFilter(logging.Filter):
    """Gives each record the fields of its task's context (`server`, `table`, `place`,
    `command`) and `context`, their short plain form (" [table 12 act]")."""

    def filter(self, record: logging.LogRecord) -> bool:
        context = current()
        for field in FIELDS:
            if not hasattr(record, field):
                setattr(record, field, getattr(context, field))
        record.context = plain_context(record)
        return True


def plain_context(record: logging.LogRecord) -> str:
    """" [table 12 act]", " [discord:5 join]", or "" when nothing is known."""
    parts = []
    table = getattr(record, "table", None)
    if table is not None:
        parts.append(f"table {table}")
    elif getattr(record, "place", None):
        parts.append(str(record.place))  # type: ignore[attr-defined]
    elif getattr(record, "server", None):
        parts.append(str(record.server))  # type: ignore[attr-defined]
    if getattr(record, "command", None):
        parts.append(str(record.command))  # type: ignore[attr-defined]
    return f" [{' '.join(parts)}]" if parts else ""


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (ISO 8601, UTC), level, logger, message, the context's
    server, table, place and command (null when unknown), and, when there are, the command's
    duration_ms and outcome and the exception's text."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for field in FIELDS:
            line[field] = getattr(record, field, None)
        for field in ("duration_ms", "outcome"):
            if hasattr(record, field):
                line[field] = getattr(record, field)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class PlainFormatter(logging.Formatter):
    """The plain line, "time LEVEL logger [table 12 act]: message"."""

    def __init__(self) -> None:
        super().__init__(PLAIN_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        if not hasattr(record, "context"):
            record.context = plain_context(record)
        return super().format(record)


# ---- what must never be written ------------------------------------------------------------------

INTERACTION_TOKEN = re.compile(r"(/(?:interactions/\d+|webhooks/\d+))/[A-Za-z0-9_.\-]{20,}")
WATCH_TOKEN = re.compile(r"(/t/)[A-Za-z0-9_\-]{10,64}")


class Redactor(logging.Filter):
    """Blanks secrets in a record's message: the Discord token (`secrets`), interaction tokens in
    Discord's URLs (`/interactions/<id>/<token>`, `/webhooks/<id>/<token>`) and spectator page
    tokens (`/t/<token>`). The message is formatted once here and stored formatted."""

    def __init__(self, secrets: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if len(s) >= 8)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message, self.secrets)
        if cleaned != message or record.args:
            record.msg, record.args = cleaned, None
        return True


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    """`text` with the tokens `Redactor` knows of replaced by "<token>"."""
    for secret in secrets:
        text = text.replace(secret, "<token>")
    if "/" in text:
        text = INTERACTION_TOKEN.sub(r"\1/<token>", text)
        text = WATCH_TOKEN.sub(r"\1<token>", text)
    return text


# ---- setting it up ------------------------------------------------------------------------------


def wanted_format(environ: dict[str, str] | None = None) -> str:
    """"json" or "plain", from `TILEREF_LOG_FORMAT` (anything but json is plain)."""
    value = (os.environ if environ is None else environ).get(FORMAT_VARIABLE, "").strip().lower()
    return "json" if value == "json" else "plain"


def configure(level: int, *, format: str | None = None, stream: IO[str] | None = None) -> logging.Handler:
    """Log to `stream` (stderr) at `level`, in `format` (else as `TILEREF_LOG_FORMAT` says), with
    context and secrets blanked; replaces the root logger's handlers. Returns the handler."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(Redactor((os.environ.get("DISCORD_TOKEN", "").strip(),)))
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter() if (format or wanted_format()) == "json" else PlainFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in QUIET_BELOW_INFO:
        logging.getLogger(name).setLevel(max(level, logging.INFO))
    return handler
