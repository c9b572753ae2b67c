"""What ties an announcement to its row and its moment: the command it answers (`ORIGIN`), the
nonce its message carries (`nonce_of`) and the log it announced (`log_digest`)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from contextvars import ContextVar

from bot.core.records import Notice

ORIGIN: ContextVar[str] = ContextVar("tileref_origin", default="")
"""The command being served, as its transport names it (`interaction:<id>`): the notices it
commits record it (`Notice.origin`). Set by the transport for the command's task."""


def nonce_of(notice: Notice) -> str:
    """The nonce of a notice's message: 21 characters derived from its row (id, place, move), the
    same at every send, distinct between rows and between databases' tables."""
    key = f"{notice.id}:{notice.place}:{notice.ply}:{notice.seat}".encode()
    return "n" + hashlib.blake2b(key, digest_size=10).hexdigest()


def log_digest(entries: Iterable[tuple[int, str]]) -> str:
    """A digest of a log's entries (seat, action) in order. Two logs of a table have the same
    digest only if they hold the same entries: a rollback replaces the entries after its move by
    a chance entry with a fresh seed, so no log it made matches one from before it."""
    digest = hashlib.blake2b(digest_size=12)
    for seat, action in entries:
        digest.update(f"{seat}\x1f{action}\x1e".encode())
    return digest.hexdigest()
