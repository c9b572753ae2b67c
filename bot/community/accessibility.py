"""Text-first play: a player who chose it (`/accessibility text on`, on every server) is sent,
privately with each turn of theirs, the board in words (`renderers.describe`, as they see it:
their hand included) and their legal moves grouped to be read aloud (`renderers.spoken_moves`),
each written so that typing it plays it. The message goes out as the seat's private part of the
announcement, so the outbox delivers it like any other (Discord: a DM, or ephemerally to the
player whose command began the turn)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.core.i18n import _, current_language
from bot.core.records import TableRecord
from bot.core.replies import link_token
from bot.storage.store import Store
from engine import GAMES, Game
from renderers import describe, spoken_moves


async def text_play_messages(store: Store, table: TableRecord, game: Game, seats: Iterable[int]) -> dict[int, str]:
    """For each of `seats` (whose turn it is) whose player chose text-first play: the way to the
    table, the board in words and their grouped legal moves (seat -> text), in the language
    being spoken."""
    people = {seat: user for seat in seats if 0 <= seat < len(table.seats)
              and not table.seats[seat].is_ai and (user := table.seats[seat].user_id)}
    if not people:
        return {}
    wanting = await store.standings.text_play_choices(sorted(set(people.values())))
    heading = _("🔊 Your turn in **{game}**: {link}").format(game=GAMES[table.game].title,
                                                             link=link_token(table.place, table.guild))
    return {seat: f"{heading}\n{turn_in_words(game, seat)}" for seat, user in sorted(people.items())
            if user in wanting}


def turn_in_words(game: Game, seat: int) -> str:
    """The board in words as `seat` sees it, then `seat`'s legal moves, a group a line."""
    groups = spoken_moves(game, seat, current_language())
    moves = _("Your moves:") + "\n" + "\n".join(groups) if groups else _("You have no move now.")
    return f"{describe(game, viewer=seat)}\n{moves}"
