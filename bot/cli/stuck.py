"""`tileref admin stuck`: the tables whose clocks or announcements are overdue, each with why.

It reads the same backlog as the health check (`bot.durable.health`), table by table, and the same
limits (`TILEREF_HEALTH_OUTBOX_SECONDS`, `TILEREF_HEALTH_TIMER_LAG_SECONDS`,
`TILEREF_HEALTH_AI_SECONDS`): a table is stuck when something of its own has waited past them."""

from __future__ import annotations

from pathlib import Path

from bot.core.clock import Clock, SystemClock
from bot.core.durations import format_duration
from bot.core.records import PLAYING, TableBacklog
from bot.durable.health import HealthLimits
from bot.storage.address import store_for


def reasons(table: TableBacklog, now: float, limits: HealthLimits) -> list[str]:
    """Why `table` is stuck, in words (none: it is not)."""
    said = []
    waits = ((table.backlog.oldest_notice, limits.outbox_seconds,
              "an announcement has waited {waited} to be delivered (limit {limit}): is a bot process serving "
              "this place running, and can it post there?"),
             (table.backlog.oldest_due_timer, limits.timer_lag_seconds,
              "a deadline or reminder fell due {waited} ago and has not fired (limit {limit}): is the bot running?"),
             (table.backlog.oldest_ai_turn, limits.ai_seconds,
              "an AI seat's turn has waited {waited} to be played (limit {limit}): is a bot process with AI "
              "planning running?"))
    for since, limit, words in waits:
        if since is not None and now - since > limit:
            said.append(words.format(waited=format_duration(now - since), limit=format_duration(limit)))
    if said and table.paused:
        said.append("its clock is paused by a moderator (`/mod resume` starts it again)")
    if said and table.status != PLAYING and table.backlog.oldest_due_timer is not None:
        said.append(f"the table is {table.status}, yet it still has clock timers")
    return said


async def stuck(database: str | Path, limits: HealthLimits, clock: Clock | None = None) -> list[str]:
    """One paragraph per stuck table, oldest first."""
    now = (clock or SystemClock()).now()
    store = store_for(database)
    await store.open()
    try:
        tables = await store.backlog_by_table(now)
    finally:
        await store.close()
    paragraphs = []
    for table in tables:
        why = reasons(table, now, limits)
        if why:
            lines = "\n".join(f"  - {reason}" for reason in why)
            paragraphs.append(f"table {table.table_id} ({table.game}, {table.place}):\n{lines}")
    return paragraphs


async def show_stuck(database: str | Path, limits: HealthLimits) -> int:
    """Print the stuck tables; 1 if there are any, else 0 (saying so)."""
    paragraphs = await stuck(database, limits)
    if not paragraphs:
        print("Nothing is stuck: every table's announcements, clocks and AI turns are within their limits.")
        return 0
    print(f"{len(paragraphs)} table{'s are' if len(paragraphs) != 1 else ' is'} stuck:\n" + "\n".join(paragraphs))
    return 1
