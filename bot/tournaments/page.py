"""Where a tournament's web page is: `/tournament/<id>/<token>`, the token unguessable (like a
table's, so a private server's tournament is seen only by those given its link) and kept in the
tournament's options (`watch`), made the first time a link is asked for."""

from __future__ import annotations

import hmac

from bot.media.watching import new_token
from bot.storage.store import Store
from bot.storage.tournaments import StaleTournament, TournamentRecord

WATCH = "watch"
"""The tournament option holding its page's token."""


def page_path(tournament_id: int, token: str) -> str:
    """The page's address on the web server."""
    return f"/tournament/{tournament_id}/{token}"


def opens(tournament: TournamentRecord, token: str) -> bool:
    """Whether `token` is the tournament's page token (compared in constant time)."""
    known = str(tournament.options.get(WATCH) or "")
    return bool(known) and hmac.compare_digest(known.encode(), token.encode())


async def page_token(store: Store, tournament_id: int, *, attempts: int = 5) -> str | None:
    """The tournament's page token, made and saved if it has none yet (None: no such tournament).
    Saved with the tournament's version check, read again if someone saved it meanwhile."""
    for _ in range(attempts):
        tournament = await store.tournaments.get(tournament_id)
        if tournament is None:
            return None
        token = tournament.options.get(WATCH)
        if token:
            return str(token)
        tournament.options = {**tournament.options, WATCH: new_token()}
        try:
            await store.tournaments.save(tournament)
        except StaleTournament:
            continue
        return str(tournament.options[WATCH])
    return None


async def page_link(store: Store, tournament: TournamentRecord, public_url: str) -> str | None:
    """The page's whole address under `public_url`, from the token `tournament` (as read) holds,
    made first if it has none (None: the tournament is gone)."""
    token = tournament.options.get(WATCH) or await page_token(store, tournament.id)
    return f"{public_url.rstrip('/')}{page_path(tournament.id, str(token))}" if token else None
