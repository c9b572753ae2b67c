"""A rematch: a new table with the same game, options, turn time and seats as a finished one.

Whoever asks sits down at once, the AI seats too; everyone else who was seated is invited, and
the seats they need are held for them: nobody else may take them until they decline (Leave),
their invitation runs out (after the table's turn time, at most a day), or the asker (the
lobby's host) starts without them. The game starts by itself when every invited player has
joined; either way the seats keep the old table's order, and the lobby shows them in it."""

from __future__ import annotations

from typing import Any

from bot.core.i18n import _
from bot.core.records import FINISHED, LOBBY, SeatRecord, TableRecord, User
from bot.core.refusals import Refused
from bot.core.replies import deadline_token, link_token, mention, name_token

INVITED = "invited"
"""The table meta key listing the user ids invited to a rematch."""
SEAT_ORDER = "seat_order"
"""The table meta key listing who sat where at the table a rematch follows (user ids, AI seats
by name): the rematch seats them in that order when it starts."""
REMATCH = "rematch"
"""The table meta key of a finished table holding the place of its rematch."""
INVITED_UNTIL = "invited_until"
"""The table meta key holding when a rematch's invitations run out (a Unix time)."""
INVITATION_SECONDS = 24 * 3600
"""How long the seats of a rematch are held for the invited at most (less if the turn time is)."""
CARRIED = ("lang", "ai_seconds", "rated", "palette", "clock", "vacation", "absent")
"""Meta keys a rematch keeps: the table's language, its AI players' thinking time, `rated=off`,
its pictures' look (`palette=mono`), its bank, whether vacations stop its clock, and what a missed
deadline does at three or more seats (`absent=`; who was away is not kept)."""


def check(old: TableRecord | None, user: User) -> None:
    """Refused (saying why) unless `user` may open a rematch of the table `old`."""
    if old is None or old.status != FINISHED:
        raise Refused(_("only a finished game can be played again"))
    if old.seat_of(user.id) is None and not user.moderator:
        raise Refused(_("only the players of this game can ask for a rematch"))
    if old.meta.get(REMATCH):
        raise Refused(_("a rematch is already open: {link}").format(link=link_token(old.meta[REMATCH], old.guild)))


def new_table(old: TableRecord, place: str, user: User, now: float) -> TableRecord:
    """The rematch's lobby: the asker (if they played) and the AI seats seated, the others invited."""
    seats = [SeatRecord(0, s.name, s.user_id, s.agent) for s in old.seats if s.is_ai or s.user_id == user.id]
    for index, seat in enumerate(seats):
        seat.seat = index
    meta: dict[str, Any] = {key: old.meta[key] for key in CARRIED if key in old.meta}
    meta[INVITED] = [s.user_id for s in old.seats if s.user_id and s.user_id != user.id]
    meta[INVITED_UNTIL] = now + min(INVITATION_SECONDS, old.turn_seconds or INVITATION_SECONDS)
    meta[SEAT_ORDER] = [_who(s) for s in old.seats]
    return TableRecord(id=0, place=place, game=old.game, options=dict(old.options), status=LOBBY, created_by=user.id,
                       created_at=now, guild=old.guild, turn_seconds=old.turn_seconds, meta=meta, seats=seats)


def _who(seat: SeatRecord) -> str:
    return seat.user_id or f"ai:{seat.name}"


def held_for(table: TableRecord, now: float) -> list[str]:
    """The invited players whose seats are still held for them: invited, not seated, not
    declined, while the invitations have not run out."""
    if now >= float(table.meta.get(INVITED_UNTIL, 0.0)):
        return []
    return [user for user in table.meta.get(INVITED, []) if table.seat_of(user) is None]


def check_seat_free(table: TableRecord, user: User, most: int, now: float) -> None:
    """Refused (saying whose they are and until when) if the seat `user` would take at a lobby
    of at most `most` players is held for someone invited to the rematch."""
    held = held_for(table, now)
    if user.id in held or len(table.seats) + len(held) < most:
        return
    raise Refused(_("the seats left are held for the players invited to this rematch until {when}: they can take "
                    "them or decline, or the host can start without them").format(
        when=deadline_token(float(table.meta[INVITED_UNTIL]))))


def decline(table: TableRecord, user: User) -> bool:
    """`user` declines their invitation to this rematch (their held seat is freed); False if they
    were not invited or are seated."""
    invited = table.meta.get(INVITED, [])
    if user.id not in invited or table.seat_of(user.id) is not None:
        return False
    table.meta[INVITED] = [u for u in invited if u != user.id]
    return True


def everyone_joined(table: TableRecord) -> bool:
    """Whether every player invited to this rematch has taken a seat."""
    invited = table.meta.get(INVITED)
    return bool(invited) and all(table.seat_of(user) is not None for user in invited)


def in_old_order(table: TableRecord) -> None:
    """Seat a rematch's players in the order they sat at the game it follows (others after)."""
    order = table.meta.get(SEAT_ORDER)
    if not order:
        return
    table.seats.sort(key=lambda s: order.index(_who(s)) if _who(s) in order else len(order))
    for index, seat in enumerate(table.seats):
        seat.seat = index


def invitation(old: TableRecord, table: TableRecord, user: User, title: str) -> str:
    """The headline of a rematch's lobby, mentioning everyone invited (named as at `old`)."""
    invited = [mention(u, next((s.name for s in old.seats if s.user_id == u), "player")) for u in table.meta[INVITED]]
    if not invited:
        return _("🔁 {player} opened a rematch of {game}.").format(player=name_token(user.name), game=title)
    return _("🔁 {player} opened a rematch of {game} and invites {players}. It starts when everyone has joined, or "
             "when {player} presses Start.").format(player=name_token(user.name), game=title,
                                                    players=", ".join(invited))
