"""`tileref admin forget USER`: an operator removes a player's name and ids from every table,
rating and setting (what `/privacy forget` does for the player), their games kept replayable."""

from __future__ import annotations

import sys

from bot.community.privacy import forget, open_seats
from bot.core.refusals import Refused
from bot.storage.address import store_for

KINDS = (("seats", "seats"), ("tables_opened", "tables opened"), ("moves", "log entries"),
         ("results", "rated results"), ("ratings", "ratings"), ("notifications", "notification choices"),
         ("pictures", "chosen pictures"))
"""What `Store.player_data` holds, as the command line names each kind."""


def player_id(given: str) -> str:
    """A player's id as stored: `discord:<id>` for a bare Discord id, else as given."""
    given = given.strip()
    return f"discord:{given}" if given.isascii() and given.isdigit() else given


async def forget_player(address: str, given: str, *, confirmed: bool) -> int:
    """Forget the player `given` (`player_id`) in the database at `address` if `confirmed`, else
    say what would be forgotten. Exit status: 0 done (or nothing to do), 1 refused, 2 unconfirmed."""
    user = player_id(given)
    store = store_for(address)
    await store.open()
    try:
        kept = await store.player_data(user)
        counts = ", ".join(f"{len(kept[kind])} {label}" for kind, label in KINDS)
        if not any(kept.values()):
            print(f"Nothing is kept about {user}: nothing to forget.")
            return 0
        if not confirmed:
            print(f"Kept about {user}: {counts}.\nRun again with --yes to forget them: their name and ids go from "
                  "every table, rating and setting, their games staying replayable as a former player's. "
                  "This cannot be undone.")
            return 2
        if await open_seats(store, user):
            print(f"{user} still sits at unfinished tables: they leave or resign first, or a moderator aborts "
                  "those tables; then run this again.", file=sys.stderr)
            return 1
        try:
            done = await forget(store, user)
        except Refused as refusal:
            print(refusal, file=sys.stderr)
            return 1
    finally:
        await store.close()
    print(f"Forgot {user}: {done.tables} tables, {done.seats} seats, {done.actions} log entries, {done.results} "
          f"results, {done.ratings} ratings and {done.announcements} announcements now name a former player; "
          f"{done.notify} notification choices and {done.pictures} pictures deleted. `tileref ratings rebuild` "
          "gives everyone else the same ratings as before.")
    return 0
