"""Absent players at tables of three or more seats: what a missed deadline does there (the table's
`absent=` option), who is away now, and how the log marks what was done for them.

When a player's time runs out at such a table, the game does not stall:
- `standin` (the default): an AI of the table's level (`ai_level=`) plays their turns until they
  come back (`/back`, or any move of theirs);
- `skip`: their turns are passed (the game's timeout move) at once, every turn, until they come
  back;
- `remove`: they resign.
Tables of two seats keep the game's own rule (the timeout move; in Tromino Go, losing the game).

Who is away is part of the table record (meta `away`: seat → mode), committed with the change
that marks or clears it, so it is replayed identically and survives a crash. The moves made for
an absent player are logged with actors of their own (`STANDIN_ACTOR` + level, `ABSENT_ACTOR`),
which is how the ratings tell them from the player's own (`bot.community.ratings.absentees`).
Nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.core.meta import ABSENT, AI_LEVEL, AWAY
from bot.core.records import TableRecord
from engine.levels import level_of

STANDIN, SKIP, REMOVE = "standin", "skip", "remove"
MODES = (STANDIN, SKIP, REMOVE)
"""The values of the `absent=` option."""
DEFAULT_MODE = STANDIN
SMALLEST_TABLE = 3
"""The fewest seats a table has for `absent=` to apply (below: the game's own rule)."""
STANDIN_ACTOR = "standin:"
"""The actor of a stand-in's move, followed by its level (`standin:normal`)."""
ABSENT_ACTOR = "absent"
"""The actor of what is done for an absent player without a stand-in: a skipped turn's timeout
move (`absent=skip`), or their resignation (`absent=remove`)."""


def read_mode(text: str) -> str | None:
    """The `absent=` mode `text` names (any case, `stand-in` too), or None."""
    word = text.strip().lower().replace("-", "").replace("_", "")
    return word if word in MODES else None


def mode_of(table: TableRecord) -> str | None:
    """What a missed deadline does at this table: `standin`, `skip` or `remove`; None at a table
    of fewer than three seats (the game's own rule)."""
    if len(table.seats) < SMALLEST_TABLE:
        return None
    return str(table.meta.get(ABSENT) or DEFAULT_MODE)


def away(table: TableRecord) -> dict[int, str]:
    """The seats whose players are away now, each with what is done for them (`standin` or `skip`)."""
    marked: dict[str, Any] = table.meta.get(AWAY) or {}
    return {int(seat): str(mode) for seat, mode in marked.items()}


def stood_in(table: TableRecord, seat: int) -> bool:
    """Whether a stand-in plays `seat` now."""
    return away(table).get(seat) == STANDIN


def played_by_ai(table: TableRecord, seat: int) -> bool:
    """Whether an AI plays `seat` now: an AI seat, or a stand-in for an absent player."""
    return table.seats[seat].is_ai or stood_in(table, seat)


def mark_away(table: TableRecord, seat: int, mode: str) -> None:
    """Mark `seat` away, its turns made by `mode` (`standin` or `skip`)."""
    table.meta[AWAY] = {**{str(s): m for s, m in away(table).items()}, str(seat): mode}


def come_back(table: TableRecord, seat: int) -> bool:
    """Mark `seat` present again; False if it was not away."""
    marked = away(table)
    if seat not in marked:
        return False
    del marked[seat]
    table.meta[AWAY] = {str(s): m for s, m in marked.items()}
    return True


def standin_level(table: TableRecord) -> str:
    """The level of the table's stand-ins: its `ai_level=` (normal by default)."""
    return level_of(str(table.meta.get(AI_LEVEL) or "normal")) or "normal"


def standin_actor(table: TableRecord) -> str:
    return STANDIN_ACTOR + standin_level(table)


def made_for_absent(actor: str) -> bool:
    """Whether a log entry's actor says it was made for an absent player (by a stand-in, or a
    skipped turn, or their removal)."""
    return actor.startswith(STANDIN_ACTOR) or actor == ABSENT_ACTOR


def any_present(table: TableRecord, seats: Iterable[int]) -> bool:
    """Whether any of `seats` is played by someone present: an AI seat, or a person not away."""
    marked = away(table)
    return any(table.seats[s].is_ai or s not in marked for s in seats)
