"""The standings message of a tournament: its text, and where a picture of it is drawn.

`standings_picture` draws the standings' picture (`bot.tournaments.presentation`, with the
tournament renderer) off the event loop; a league's first division where there are several."""

from __future__ import annotations

import asyncio

from bot.storage.tournaments import TournamentView
from bot.tournaments.presentation import standings_pictures
from bot.tournaments.wording import standings_text

__all__ = ["standings_picture", "standings_text"]


async def standings_picture(view: TournamentView) -> tuple[bytes, str] | None:
    """The standings as a PNG and its description (alt text), or None where none is drawn."""
    pictures = await asyncio.to_thread(standings_pictures, view)
    return pictures[0] if pictures else None
