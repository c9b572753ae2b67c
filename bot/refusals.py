"""Refusals: a command that cannot be carried out, and reading what users type for the referee
(options, durations), with messages that say what to type instead."""

from __future__ import annotations

import re

from bot.timers import parse_duration


class Refused(Exception):
    """A command that cannot be carried out; the message is for the caller."""


def parse_options(text: str | dict[str, str] | None) -> dict[str, str]:
    """`"ouroboros=off, foo=1"` -> {"ouroboros": "off", "foo": "1"}."""
    if text is None:
        return {}
    if isinstance(text, dict):
        return {str(k): str(v) for k, v in text.items()}
    options = {}
    for part in re.split(r"[,;\s]+", text.strip()):
        if not part:
            continue
        if "=" not in part:
            raise Refused(f"options are written key=value, like `ouroboros=off`; '{part}' has no '='")
        key, value = part.split("=", 1)
        options[key.strip()] = value.strip()
    return options


def duration(text: str) -> int | None:
    """A turn time typed by a user, in seconds (None: no clock); Refused if it cannot be read."""
    try:
        return parse_duration(text)
    except ValueError as error:
        raise Refused(str(error)) from None
