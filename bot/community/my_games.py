"""What /games says: a player's unfinished tables on one server, the ones waiting for them first
(with their deadlines and the way there), then the ones waiting for others, then the lobbies
they sit in. Only what anyone at those tables could see: whose turn it is and until when."""

from __future__ import annotations

from bot.core.i18n import _, ngettext
from bot.core.meta import WAITING
from bot.core.records import LOBBY, TableRecord
from bot.core.replies import deadline_token, link_token, name_token
from bot.storage.store import Store
from bot.words.wording import clock_text
from engine import GAMES

SHOWN = 25
"""Tables listed in each part at most (Discord's messages are short)."""


def _title(table: TableRecord) -> str:
    return GAMES[table.game].title if table.game in GAMES else table.game


def _yours(table: TableRecord, seat: int, deadlines: dict[int, float]) -> str:
    link = f"{clock_text(table)} · {link_token(table.place, table.guild)}"
    due = deadlines.get(seat)
    if table.paused:
        return _("**{game}**: your turn (the clock is paused) · {link}").format(game=_title(table), link=link)
    if due is None:
        return _("**{game}**: your turn · {link}").format(game=_title(table), link=link)
    return _("**{game}**: your turn, ends {when} · {link}").format(game=_title(table), when=deadline_token(due),
                                                                   link=link)


def _theirs(table: TableRecord, waiting: list[int]) -> str:
    names = ", ".join(name_token(table.seats[s].name) for s in waiting if s < len(table.seats)) or _("the AI players")
    return _("**{game}**: waiting for {players} · {link}").format(
        game=_title(table), players=names, link=f"{clock_text(table)} · {link_token(table.place, table.guild)}")


def _lobby(table: TableRecord) -> str:
    return ngettext("**{game}**: lobby, {count} player seated · {link}",
                    "**{game}**: lobby, {count} players seated · {link}", len(table.seats)).format(
        game=_title(table), count=len(table.seats), link=link_token(table.place, table.guild))


def _waiting(table: TableRecord, deadlines: dict[int, float]) -> list[int]:
    stored = table.meta.get(WAITING)
    return sorted(deadlines) if stored is None else [int(s) for s in stored]  # tables from before WAITING


async def turn_list_text(store: Store, user_id: str) -> str:
    """The standing "your turn" list (`/notify list`): every game waiting for the user on every
    server, the nearest deadline first, with the way to each."""
    mine: list[tuple[float, str]] = []
    for table, deadlines in await store.standings.open_tables_of(None, user_id):
        seat = table.seat_of(user_id)
        if seat is not None and table.status != LOBBY and seat in _waiting(table, deadlines):
            mine.append((deadlines.get(seat, float("inf")), _yours(table, seat, deadlines)))
    if not mine:
        return _("✅ **No game is waiting for you.** This message changes as soon as one is: it lists every game "
                 "waiting for you, on every server.")
    lines = [f"• {text}" for _due, text in sorted(mine, key=lambda item: item[0])[:SHOWN]]
    more = len(mine) - SHOWN
    if more > 0:
        lines.append(_("…and {count} more.").format(count=more))
    return _("⏳ **Waiting for you** (this message changes as your games go on)") + "\n" + "\n".join(lines)


async def games_text(store: Store, guild: str | None, user_id: str) -> str:
    """The user's unfinished tables on a server (None: on every server), in three parts, each
    newest first."""
    tables = await store.standings.open_tables_of(guild, user_id)
    mine: list[tuple[float, str]] = []
    others, lobbies = [], []
    for table, deadlines in tables:
        seat = table.seat_of(user_id)
        if seat is None:
            continue
        if table.status == LOBBY:
            lobbies.append(_lobby(table))
            continue
        waiting = _waiting(table, deadlines)
        if seat in waiting:
            mine.append((deadlines.get(seat, float("inf")), _yours(table, seat, deadlines)))
        else:
            others.append(_theirs(table, waiting))
    if not (mine or others or lobbies):
        if guild is None:
            return _("You have no unfinished games on the servers we share. Open one with `/tileref new`.")
        return _("You have no unfinished games on this server. Open one with `/tileref new`.")
    parts = []
    if mine:
        parts.append(_("⏳ **Waiting for you**") + "\n" + "\n".join(
            f"• {text}" for _due, text in sorted(mine, key=lambda item: item[0])[:SHOWN]))
    if others:
        parts.append(_("💤 **Waiting for others**") + "\n" + "\n".join(f"• {t}" for t in others[:SHOWN]))
    if lobbies:
        parts.append(_("🪑 **Lobbies**") + "\n" + "\n".join(f"• {t}" for t in lobbies[:SHOWN]))
    return "\n\n".join(parts)
