"""The standings message of a tournament: its text, and where a picture of it is drawn.

`standings_picture` is the hook the standings' picture plugs into (the tournament renderer draws
it from a `TournamentView`); it returns None until then, and the message goes out as text alone."""

from __future__ import annotations

from bot.storage.tournaments import TournamentView
from bot.tournaments.wording import standings_text

__all__ = ["standings_picture", "standings_text"]


async def standings_picture(view: TournamentView) -> tuple[bytes, str] | None:
    """The standings as a PNG and its description (alt text), or None where none is drawn."""
    del view
    return None
