"""Refusals: a command that cannot be carried out, and reading what users type for the referee
(options, durations), with messages that say what to type instead."""

from __future__ import annotations

import re

from bot.core.durations import parse_duration
from bot.core.i18n import LANGUAGES, _
from bot.core.typing_rules import echo


class Refused(Exception):
    """A command that cannot be carried out; the message is for the caller."""


class MovedOn(Refused):
    """A command based on a log length the game has since left (`length`: the one it has now)."""

    def __init__(self, message: str, length: int) -> None:
        super().__init__(message)
        self.length = length


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
            raise Refused(_("options are written key=value, like `ouroboros=off`; '{part}' has no '='").format(
                part=echo(part)))
        key, value = part.split("=", 1)
        options[key.strip()] = value.strip()
    return options


def language(text: str) -> str:
    """A language typed by a user (`es`), as tileref names it; Refused if tileref does not speak it."""
    code = text.strip().lower()
    if code not in LANGUAGES:
        raise Refused(_("`lang` is the table's language: {languages}; not '{value}'").format(
            languages=", ".join(f"{k} ({v})" for k, v in LANGUAGES.items()), value=echo(text)))
    return code


def duration(text: str) -> int | None:
    """A turn time typed by a user, in seconds (None: no clock); Refused if it cannot be read."""
    try:
        return parse_duration(text)
    except ValueError as error:
        raise Refused(str(error)) from None
