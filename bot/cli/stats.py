"""`tileref stats`: the leaderboards and profiles of /leaderboard and /profile, in the terminal."""

from __future__ import annotations

import os
import sys

from bot.community.leaderboards import leaderboard_text, profile_text, ratings_explained
from bot.core.i18n import _
from bot.core.replies import terminal_text
from bot.storage.store import Store
from engine import GAMES


async def show_stats(store: Store, server: str | None, game: str | None, player: str | None, page: int = 1) -> int:
    """Print leaderboards (every game, or `game`) of every server with ratings (or `server`), or
    `player`'s profile there, then what the ratings mean. Returns the exit status: 2 when asked
    for something that is not there."""
    if game is not None and game not in GAMES:
        print(_("there is no game called '{game}'; choose one of {games}").format(game=game,
                                                                               games=", ".join(sorted(GAMES))),
              file=sys.stderr)
        return 2
    colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    await store.open()
    try:
        rated = await store.standings.all_ratings()
        servers = [server] if server else sorted({r.guild for r in rated})
        if not servers:
            print(_("No ratings yet: they come from finished games (`tileref ratings rebuild` computes them)."))
            return 0
        for name in servers:
            print(f"== {name} ==")
            if player is not None:
                known = next((r.name for r in rated if r.player == player and r.guild == name), player)
                print(terminal_text(await profile_text(store, name, player, known), colour))
                print()
                continue
            games = [game] if game else sorted({r.game for r in rated if r.guild == name})
            for one in games:
                try:
                    print(terminal_text(await leaderboard_text(store, name, one, None, page, explained=False),
                                        colour))
                except ValueError as error:
                    print(error, file=sys.stderr)
                    return 2
                print()
        print(terminal_text(ratings_explained(), colour))
    finally:
        await store.close()
    return 0
