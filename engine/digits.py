"""Numbers as people type them: written with the ASCII digits 0–9 only, and never too long to read.

Python reads more than it should: `str.isdigit()` is true for '²' and '①', which `int()` then
refuses; `re`'s `\\d` and `int()` accept any script's digits ('٣', the full-width '３'), so a
number could be taken silently from characters nobody meant as one; `float()` takes `nan`, `inf`
and `1e309`; and `int()` of thousands of digits is slow, or refused past 4,300. Every number read
from a person goes through these functions instead: a number is an optional minus sign and the
digits 0–9, nothing else. Refusing what is not (with a message that says to write 0–9) is for
the caller, which knows what was being asked for.

This module imports nothing from the engine, so every layer can use it (`engine.core` for
options, the games' notation, the bot for turn times, pages and addresses).
"""

from __future__ import annotations

import re
import unicodedata

ASCII_DIGITS = "0123456789"
"""The only characters that write a number's digits."""
LONGEST = 18
"""Digits read at most: a longer number reads as ±10**18, beyond every range a caller checks,
without being computed."""
BEYOND = 10 ** LONGEST

_WHOLE = re.compile(r"(-?)([0-9]+)")
_DECIMAL = re.compile(r"(-?)([0-9]+)(?:\.([0-9]+))?")
_NUMERIC = {"Nd", "Nl", "No"}


def foreign_digit(text: str) -> str | None:
    """The first character of `text` that writes a number but is not one of 0–9 ('²', '①', the
    Arabic '٣', the full-width '３', the Roman 'Ⅳ'), or None when there is none."""
    for char in text:
        if char > "\x7f" and unicodedata.category(char) in _NUMERIC:
            return char
    return None


def whole_number(text: str) -> int | None:
    """`text` as a whole number when it is written as one: an optional `-` and the digits 0–9
    (spaces around are forgiven; no `+`, no `_`, no other script's digits). None otherwise. A
    number longer than `LONGEST` digits reads as ±`BEYOND`, which every range refuses."""
    match = _WHOLE.fullmatch(text.strip())
    if match is None:
        return None
    sign, digits = match.groups()
    digits = digits.lstrip("0") or "0"
    value = BEYOND if len(digits) > LONGEST else int(digits)
    return -value if sign else value


def decimal_number(text: str) -> float | None:
    """`text` as a number when it is written as one: an optional `-`, the digits 0–9 and perhaps
    a `.` and more of them (`2`, `1.5`; no exponent, `nan` or `inf`). None otherwise. A number with
    more than `LONGEST` digits before the point reads as ±`BEYOND`."""
    match = _DECIMAL.fullmatch(text.strip())
    if match is None:
        return None
    sign, whole, fraction = match.groups()
    whole = whole.lstrip("0") or "0"
    value = float(BEYOND) if len(whole) > LONGEST else float(f"{whole}.{(fraction or '0')[:LONGEST]}")
    return -value if sign else value
