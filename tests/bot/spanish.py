"""Telling English from Spanish in what the bot says: a sentence is English when, with names,
notation and file paths taken out, it still holds common English words."""

from __future__ import annotations

import re

ENGLISH = re.compile(
    r"\b(the|is|are|was|were|your|you|it's|and|of|with|to|turn|plays?|lays?|draws?|passes|wins?|round|game|"
    r"points?|type|left|hand|board|moves?|tiles?|waiting|over|saved|nothing|can|may|must|not|which|what|"
    r"help|rules|hints|quit|player|players|ends|starts?|opened|sits|down|joined|phase|level|piece|pieces|"
    r"cards?|team|green|pink|option|options|default|row|rows|well|bag|line|lines|square|here|there)\b",
    re.IGNORECASE)
_CODE = re.compile(r"`[^`]*`")
_PATH = re.compile(r"\S*(?:/|\\)\S*")
_OPTION = re.compile(r"\b\w+=[\w|.:-]+")
_COMMAND = re.compile(r"tileref( [a-z]+)+( --?[a-z-]+( [a-z,]+)?)*")


def english_in(text: str, names: list[str]) -> list[str]:
    """The lines of `text` that still read as English once the players' `names`, `code` and
    paths are left out (an empty list: all Spanish)."""
    found = []
    for line in text.splitlines():
        if line.lstrip("• ").startswith("En inglés:"):
            continue  # the Spanish help names the English notation on purpose
        bare = _PATH.sub(" ", _OPTION.sub(" ", _COMMAND.sub(" ", _CODE.sub(" ", line))))
        for name in sorted(names, key=len, reverse=True):
            bare = bare.replace(name, " ")
        if ENGLISH.search(bare):
            found.append(line)
    return found
