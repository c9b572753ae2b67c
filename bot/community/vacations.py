"""Vacations as players declare them (`/vacation from: to:`) and as the clock reads them.

A vacation stops a player's clocks in all their games on one server that allow vacations (every
table unless it was opened with `vacation=off`). Each player has an allowance of days per server
and calendar year (UTC), the server's `vacation_days` setting (21 unless changed); a declared
vacation takes its days from the year it starts in, and a bank that runs out takes one day at a
time (`bot.durable.clock_duties`). Dates are whole UTC days, `from` and `to` both included.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping, Sequence

from bot.core.i18n import _
from bot.core.meta import BEGAN, VACATION
from bot.core.records import TableRecord
from bot.core.refusals import Refused
from bot.core.running_time import Interval, Unavailability, off_at
from bot.core.typing_rules import echo
from bot.storage.store import Store
from bot.storage.vacations import DAY

_DATE = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})$")
TODAY = ("today", "hoy")
TOMORROW = ("tomorrow", "mañana", "manana")


def allows_vacations(table: TableRecord) -> bool:
    """Whether players' vacations stop the clocks of this table (`vacation=off` says no)."""
    return bool(table.meta.get(VACATION, True)) and table.guild is not None


def vacation_intervals(store: Store) -> Unavailability:
    """The vacations source of unavailable intervals (`bot.tables.core.Unavailability`): the
    vacations of a table's players on its server, from the earliest moment a turn there began
    (none at a table with `vacation=off`)."""

    async def intervals(table: TableRecord) -> Mapping[str, Sequence[Interval]]:
        if not allows_vacations(table) or table.guild is None:
            return {}
        users = [s.user_id for s in table.seats if s.user_id]
        return await store.vacations.intervals(table.guild, users, earliest_turn(table))

    return intervals


def vacationing(now: float, vacations: Mapping[int, Sequence[Interval]]) -> dict[int, float]:
    """The seats whose players are on vacation at `now` (by their vacation intervals), and until when."""
    found = {}
    for seat, off in vacations.items():
        interval = off_at(now, off)
        if interval is not None:
            found[seat] = interval[1]
    return found


def earliest_turn(table: TableRecord) -> float:
    """When the earliest turn still running at the table began (its creation, before any)."""
    began = table.meta.get(BEGAN) or {}
    if not isinstance(began, dict):
        return table.created_at
    return min((float(v[1]) for v in began.values()), default=table.created_at)


def read_date(text: str, today: datetime.date, field: str) -> datetime.date:
    """A day typed by a player: `2026-12-24`, `today`/`hoy`, `tomorrow`/`mañana`. Refused, saying
    how to write one, if it is not a date."""
    cleaned = text.strip().lower()
    if cleaned in TODAY:
        return today
    if cleaned in TOMORROW:
        return today + datetime.timedelta(days=1)
    match = _DATE.match(cleaned)
    try:
        if match is None:
            raise ValueError(cleaned)
        return datetime.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        raise Refused(_("'{value}' is not a date: write `{field}` as year-month-day, like {example}, or today or "
                        "tomorrow").format(value=echo(text), field=field,
                                           example=(today + datetime.timedelta(days=7)).isoformat())) from None


def midnight(day: datetime.date) -> float:
    """The moment (UTC) a day begins."""
    return datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.UTC).timestamp()


def vacation_span(starts: str, ends: str, now: float) -> tuple[float, float, int, int]:
    """A declared vacation's interval (from now, if it starts today), its length in days and the
    year its days are counted in. Refused when a day is unreadable, in the past, or the vacation
    ends before it starts."""
    today = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
    first = read_date(starts, today, "from")
    last = read_date(ends, today, "to")
    if first < today:
        raise Refused(_("{day} is in the past: a vacation starts today or later, like from:{today}").format(
            day=first.isoformat(), today=today.isoformat()))
    if last < first:
        raise Refused(_("the vacation ends ({last}) before it starts ({first}): `to` is its last day, on or after "
                        "`from`").format(last=last.isoformat(), first=first.isoformat()))
    days = (last - first).days + 1
    return max(now, midnight(first)), midnight(last) + DAY, days, first.year


def on_vacation(off: Sequence[Interval], now: float) -> float | None:
    """Until when a player whose unavailable intervals are `off` is away (None if not now)."""
    found = off_at(now, off)
    return None if found is None else found[1]
