"""A table's time control, as people write it (`clock=3d+1d/7d`), read and described.

Three kinds:
- per move: every turn gets the same fixed time (the table's turn time; today's clock);
- bank: each player starts with a bank of time, their clock eats into it while it is their turn,
  and every move they make adds an increment, up to a cap (Little Golem's rule);
- none: no clock at all.

The clock's arithmetic (what runs while a player is away) is `bot.core.running_time`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.durations import format_duration, parse_duration
from bot.core.i18n import _
from engine.core import quoted

PER_MOVE, BANK, NONE = "move", "bank", "none"
DAY = 86400

PRESETS: dict[str, str] = {
    "bank": "3d+1d/7d",
    "fast": "12h+2h/1d",
    "slow": "10d+36h/10d",
}
"""Named banks `clock=` accepts: `bank` is 3 days, 1 day more a move, 7 days at most; `slow` is
Little Golem's 240 h + 36 h a move; `fast` suits players who move several times a day."""


@dataclass(frozen=True)
class Bank:
    """A bank time control: `start` seconds at the start, `increment` added after each move,
    never more than `cap`."""

    start: int
    increment: int
    cap: int

    def data(self) -> dict[str, int]:
        """As kept in a table's meta (`bot.core.meta.CLOCK`)."""
        return {"start": self.start, "increment": self.increment, "cap": self.cap}

    @classmethod
    def from_data(cls, data: Any) -> Bank | None:
        """The bank a table's meta keeps (None for a table without one)."""
        if not isinstance(data, dict) or "start" not in data:
            return None
        start = int(data["start"])
        return cls(start, int(data.get("increment") or 0), int(data.get("cap") or start))

    def after_move(self, left: float) -> float:
        """The bank after a move made with `left` seconds still in it (never below zero): the
        increment added, up to the cap."""
        return float(min(self.cap, max(0.0, left) + self.increment))

    def describe(self) -> str:
        """`3d + 1d a move, at most 7d`."""
        return _("bank {start} + {increment} a move, at most {cap}").format(
            start=format_duration(self.start), increment=format_duration(self.increment) if self.increment else "0",
            cap=format_duration(self.cap))


@dataclass(frozen=True)
class TimeControl:
    """What `clock=` chose: its `kind` (PER_MOVE, BANK or NONE); for PER_MOVE the turn time in
    seconds (None: the table's usual turn time), for BANK the bank."""

    kind: str
    turn_seconds: int | None = None
    bank: Bank | None = None


def parse_time_control(text: str) -> TimeControl:
    """`none`/`off`, `move`, a turn time (`12h`: per move), a preset (`bank`, `fast`, `slow`) or a
    bank written `START+INCREMENT/CAP` (`3d+1d/7d`; without `/CAP` the cap is the start). Raises
    ValueError with a message saying what to write."""
    cleaned = text.strip().lower().replace(" ", "")
    if cleaned in ("none", "off", "no", "ninguno", "sin"):
        return TimeControl(NONE)
    if cleaned in ("move", "permove", "per_move", "turn", "jugada", "turno"):
        return TimeControl(PER_MOVE)
    cleaned = PRESETS.get(cleaned, cleaned)
    if "+" not in cleaned and "/" not in cleaned:
        try:
            seconds = parse_duration(cleaned)
        except ValueError:
            raise ValueError(_bad_clock(text)) from None
        return TimeControl(NONE) if seconds is None else TimeControl(PER_MOVE, seconds)
    start_text, plus, rest = cleaned.partition("+")
    increment_text, _slash, cap_text = rest.partition("/")
    if not plus:  # `3d/7d`: no increment
        start_text, _slash, cap_text = cleaned.partition("/")
        increment_text = "0"
    if not start_text or not increment_text or (_slash and not cap_text):
        raise ValueError(_bad_clock(text))
    try:
        start = parse_duration(start_text)
        increment = 0 if increment_text == "0" else parse_duration(increment_text)
        cap = parse_duration(cap_text) if cap_text else start
    except ValueError:
        raise ValueError(_bad_clock(text)) from None
    if start is None or cap is None or increment is None:
        raise ValueError(_bad_clock(text))
    if start > cap:
        raise ValueError(_("the starting bank ({start}) is over its cap ({cap}): write a cap at least as long as "
                           "the start, like `clock={example}`").format(
            start=format_duration(start), cap=format_duration(cap),
            example=f"{start_text}+{increment_text or '0'}/{start_text}"))
    if increment > cap:
        raise ValueError(_("the increment ({increment}) is over the bank's cap ({cap}): like `clock=3d+1d/7d`")
                         .format(increment=format_duration(increment), cap=format_duration(cap)))
    return TimeControl(BANK, bank=Bank(start, increment, cap))


def _bad_clock(text: str) -> str:
    return _("'{value}' is not a time control: write `clock=none`, `clock=move` (a fixed time each turn), a turn "
             "time like `clock=12h`, a bank like `clock=3d+1d/7d` (3 days, 1 day more a move, 7 days at most) "
             "or one of {presets}").format(value=quoted(text), presets=", ".join(f"`clock={p}`" for p in PRESETS))


def describe(turn_seconds: int | None, bank: Bank | None) -> str:
    """A table's clock in words: `bank 3d + 1d a move, at most 7d`, `1d per turn` or `no turn clock`."""
    if bank is not None:
        return bank.describe()
    if turn_seconds:
        return _("{time} per turn").format(time=format_duration(turn_seconds))
    return _("no turn clock")
