"""What a missed deadline does to a table, and a player coming back (see `bot.core.absence`).

At a table of two seats the game's own timeout move is made (in Tromino Go: losing the game). At
a table of three or more the table's `absent=` option decides: a stand-in plays the player's
turns, or their turns are skipped, or they resign. Either way it is one change, committed with
the table (who is away is part of its record) by whoever fired the deadline."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core import absence
from bot.core.i18n import _
from bot.core.replies import command_token, name_token
from bot.tables.change import Change
from bot.words import narration
from engine import GameError

CLOCK_ACTOR = "clock"
"""The actor of a timeout move made by the clock at a table of two seats."""


def time_ran_out(change: Change, late: Sequence[int]) -> str:
    """Do what a missed deadline does for each of `late` (seats whose time ran out and that the
    game still waits for), and say so: the headline of the change's announcement."""
    table = change.table
    mode = absence.mode_of(table)
    late = [s for s in late if s in change.game.to_move()]
    names = narration.join([name_token(table.seats[s].name) for s in late])
    if mode is None:
        for seat in late:
            change.time_out(seat, CLOCK_ACTOR)
        return _("⏰ {players} ran out of time.").format(players=names)
    for seat in late:
        if seat not in change.game.to_move():  # another's timeout ended the phase meanwhile
            continue
        if mode == absence.REMOVE:
            try:
                change.resign(seat, absence.ABSENT_ACTOR)
            except GameError:  # the game ended meanwhile
                continue
        elif seat in absence.away(table):  # skipped players' turns when nobody present is left
            change.time_out(seat, absence.ABSENT_ACTOR)
        else:
            change.away(seat, mode)
            if mode == absence.SKIP:
                change.time_out(seat, absence.ABSENT_ACTOR)
    back = command_token("back")
    if mode == absence.REMOVE:
        return _("⏰ {players} ran out of time and left the game (this table removes absent players).").format(
            players=names)
    if mode == absence.SKIP:
        return _("⏰ {players} ran out of time: their turns are skipped until they type {back} or make a "
                 "move.").format(players=names, back=back)
    return _("⏰ {players} ran out of time: 🤖 a stand-in plays for them until they type {back} or make a "
             "move.").format(players=names, back=back)


def came_back_line(change: Change) -> str:
    """The line saying who came back with this change ("" if nobody did)."""
    if not change.returned:
        return ""
    names = narration.join([name_token(change.table.seats[s].name) for s in change.returned])
    return _("👋 {players} is back: their turns are their own again.").format(players=names)


def away_notes(change: Change) -> dict[int, str]:
    """What each player this change marked absent is told privately: what now happens to their
    turns, and how to take them back."""
    back = command_token("back")
    notes = {}
    for seat in change.went_away:
        if absence.stood_in(change.table, seat):
            notes[seat] = _("🤖 Your time ran out here: a stand-in plays your turns until you type {back} or make a "
                            "move.").format(back=back)
        elif absence.away(change.table).get(seat) == absence.SKIP:
            notes[seat] = _("⏭️ Your time ran out here: your turns are skipped until you type {back} or make a "
                            "move.").format(back=back)
    return notes
