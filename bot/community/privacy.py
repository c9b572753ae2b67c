"""A player's data: what tileref keeps about them (`kept_text`, for /privacy), all of it as a
file (`export`, for /privacy export), and its removal (`forget`, for /privacy forget and
`tileref admin forget`).

Everything is kept until the player or the operator asks to forget it: the games are the record
of play (ratings are derived from them), so nothing expires by itself. Forgetting keeps the games
replayable, the player's seats taken by "a former player" (see `bot.storage.players`)."""

from __future__ import annotations

import json
import secrets
from datetime import UTC, datetime
from typing import Any

from bot.core.i18n import _, in_language
from bot.core.records import OPEN_STATUSES
from bot.core.refusals import Refused
from bot.core.replies import Attachment
from bot.storage.players import FORMER, FORMER_PLAYER, Forgotten
from bot.storage.store import Store

EXPORT_FILE = "tileref-my-data.json"


def anonymous_id() -> str:
    """A new anonymous id for one forgotten player: `former:` and 16 random hex digits."""
    return FORMER + secrets.token_hex(8)


def former_player(language: str | None) -> str:
    """How a forgotten player is named at a table speaking `language` (None: English)."""
    return in_language(FORMER_PLAYER, language or "en")


async def kept_text(store: Store, user_id: str) -> str:
    """What tileref keeps about `user_id`, counted, for how long, and how to have it or have it
    forgotten."""
    data = await store.player_data(user_id)
    tables = {row["table_id"] for row in data["seats"]} | {row["table_id"] for row in data["tables_opened"]}
    lines = [
        _("🔒 **What tileref keeps about you**"),
        _("• Your user id, and the name you had at each table you sat at (seats: {seats}; tables: {tables}, of "
          "them opened by you: {opened}).").format(seats=len(data["seats"]), tables=len(tables),
                                               opened=len(data["tables_opened"])),
        _("• Your moves, in each game's log (a game is kept whole so it can be replayed): {moves}.").format(
            moves=len(data["moves"])),
        _("• Your results in rated games ({results}) and your ratings ({ratings}).").format(
            results=len(data["results"]), ratings=len(data["ratings"])),
        _("• Your choices of turn notifications (servers: {servers}).").format(servers=len(data["notifications"])),
        *([_("• Your choice of text-first play (`/accessibility text on`).")] if data.get("accessibility") else []),
        _("• Pictures you chose for a game: {pictures}.").format(pictures=len(data["pictures"])),
        _("• Your vacations, declared or spent when a bank ran out: {vacations}.").format(
            vacations=len(data.get("vacations", []))),
        _("It is kept until you ask to forget it, or the bot's operator does: the games are the record of play, so "
          "nothing expires by itself. `/privacy export` sends you all of it as a file; `/privacy forget` removes "
          "your name and ids everywhere, your games staying replayable with your seat taken by “a former "
          "player”."),
    ]
    return "\n".join(lines)


async def export(store: Store, user_id: str, now: float) -> Attachment:
    """Everything kept about `user_id`, as a JSON file: their own seats, moves, results, ratings,
    notification choices and chosen pictures; never another player's hand or a game's seed."""
    data: dict[str, Any] = {"user": user_id, "exported_at": datetime.fromtimestamp(now, UTC).isoformat(),
                            "kept": "until the player or the operator asks to forget it"}
    data |= await store.player_data(user_id)
    body = json.dumps(data, ensure_ascii=False, indent=2, default=str).encode()
    return Attachment(EXPORT_FILE, body, _("what tileref keeps about you"))


async def open_seats(store: Store, user_id: str) -> list[dict[str, Any]]:
    """The seats `user_id` holds at unfinished tables (lobbies and games under way)."""
    data = await store.player_data(user_id)
    return [row for row in data["seats"] if row["status"] in OPEN_STATUSES]


async def forget(store: Store, user_id: str) -> Forgotten:
    """Remove `user_id`'s name and ids from every table, rating and setting, in one commit
    (`Store.forget_player`). Refused while they sit at an unfinished table (they leave or resign
    first, or a moderator ends it): a game under way would wait for nobody."""
    if seats := await open_seats(store, user_id):
        raise Refused(_("you still sit at unfinished tables ({count}): leave or resign there first (or ask a "
                        "moderator to end them), then ask again").format(count=len(seats)))
    return await store.forget_player(user_id, anonymous_id(), former_player)


def forgotten_text(done: Forgotten) -> str:
    """What a forget did, said to whoever asked."""
    if not done.anything:
        return _("🧹 tileref kept nothing about you: there was nothing to forget.")
    return _("🧹 Forgotten: your name and ids are gone (tables: {tables}; seats: {seats}; log entries: {moves}; "
             "results: {results}; ratings: {ratings}; announcements: {announcements}), and your notification "
             "choices ({notify}) and pictures ({pictures}) deleted. Your games stay replayable, your seat taken by "
             "“a former player”.").format(tables=done.tables, seats=done.seats, moves=done.actions,
                                           results=done.results, ratings=done.ratings,
                                           announcements=done.announcements, notify=done.notify,
                                           pictures=done.pictures) + (
        " " + _("Your vacations ({vacations}) deleted too.").format(vacations=done.vacations) if done.vacations else "")

