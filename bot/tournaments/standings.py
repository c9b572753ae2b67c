"""The standings message of a tournament: its text, and where a picture of it is drawn.

`standings_attachments` draws the standings' pictures (`bot.tournaments.presentation`, with the
tournament renderer) off the event loop: one, or one a division of a league."""

from __future__ import annotations

import asyncio

from bot.core.replies import Attachment
from bot.storage.tournaments import TournamentView
from bot.tournaments.presentation import standings_pictures
from bot.tournaments.wording import standings_text

__all__ = ["MOST_PICTURES", "standings_attachments", "standings_text"]

MOST_PICTURES = 10
"""The most pictures one message carries (Discord's limit on a message's attachments)."""


async def standings_attachments(view: TournamentView) -> list[Attachment]:
    """The standings as PNG attachments, each with its description: one picture, or one for each
    of a league's divisions in order (at most `MOST_PICTURES`; the page has them all)."""
    pictures = await asyncio.to_thread(standings_pictures, view)
    if len(pictures) == 1:
        return [Attachment("standings.png", *pictures[0])]
    return [Attachment(f"standings-division-{division}.png", png, description)
            for division, (png, description) in enumerate(pictures[:MOST_PICTURES], 1)]
