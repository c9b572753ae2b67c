"""What the player may type, when they ask: `help` (the console's commands this game has, how
moves are written, how ratings work) and `hints` (their moves now)."""

from __future__ import annotations

from bot.adapters.console.screen import Screen
from bot.adapters.console.terminal import ALL
from bot.community.leaderboards import ratings_explained
from bot.core.absence import mode_of
from bot.core.i18n import N_, _, ngettext
from bot.core.meta import FOOT
from bot.core.records import User
from bot.service.referee import Referee
from engine import GAMES

HINTS_SHOWN = 40
"""How many moves `hints <start>` lists at most."""
HINTS_BEST = 8
"""How many of the best moves `hints` lists (`hints all`: every one)."""

HELP_INTRO = N_("Type a move: how moves are written in this game is just below. Other commands:")
HELP_LINES: tuple[tuple[str, str, str], ...] = (
    ("hints", N_("hints [all | start]"),
     N_("your best moves now; with all, every move; with a start, the moves beginning with it")),
    ("hand", N_("hand"), N_("what you hold (the picture is saved too)")),
    ("board", N_("board"), N_("the board again")),
    ("describe", N_("describe"), N_("the whole board in words (for screen readers)")),
    ("history", N_("history [page]"), N_("the moves so far")),
    ("rules", N_("rules"), N_("how to play")),
    ("react", N_("react <words>"), N_("find a GIF or sticker and react with it")),
    ("quest", N_("quest <words>"), N_("your vision quest: pick the picture drawn at the foot of your line")),
    ("resign", N_("resign"), N_("leave this game")),
    ("back", N_("back"), N_("take your turns back after a stand-in played them while you were away")),
    ("quit", N_("quit"), N_("stop here; continue later with `tileref play --resume`")),
)
"""The console's commands as `help` lists them: what each does, how it is typed, and what it does
(in the table's language); those a game has no use for are left out."""


async def help_text(referee: Referee, user: User, place: str, game: str) -> str:
    """`help` at the table at `place`, a game of `game`: the console's commands it has, how its
    moves are written, and how ratings work (as chat text)."""
    return f"{await _commands(referee, user, place)}\n\n{_(GAMES[game].notation_help)}\n\n{ratings_explained()}"


async def _commands(referee: Referee, user: User, place: str) -> str:
    """The console's commands this game has (`HELP_LINES`), lined up."""
    shown = await referee.view(place)
    if shown is None:
        return _(HELP_INTRO)
    table, game = shown
    seat = table.seat_of(user.id)
    has = {"hand": seat is not None and isinstance(game.view(seat).get("hand"), (list, dict)),
           "quest": FOOT in type(game).chosen_pictures, "back": mode_of(table) is not None}
    lines = [(_(usage), _(does)) for name, usage, does in HELP_LINES if has.get(name, True)]
    width = max(len(usage) for usage, _does in lines) + 3
    return "\n".join([_(HELP_INTRO), *(f"  {usage.ljust(width)}{does}" for usage, does in lines)])


async def say_hints(referee: Referee, user: User, screen: Screen, place: str, typed: str) -> None:
    """`hints`: the best few moves; `hints all`: every move; `hints <start>`: the moves that
    begin with it."""
    if typed and typed.lower() not in ALL:
        moves = [shown for shown, _ in await referee.suggestion_choices(place, user, typed, 10_000)]
        screen.say(_moves_line(screen, moves, HINTS_SHOWN))
    elif typed:
        moves = [shown for shown, _ in await referee.suggestion_choices(place, user, "", 10_000)]
        screen.say(_moves_line(screen, moves, None))
    else:
        best, count = await referee.best_moves(place, user, HINTS_BEST)
        if not best:
            screen.say(_moves_line(screen, [], None))
            return
        text = _("Your best moves now: {moves}").format(moves=", ".join(shown for shown, _ in best))
        if count > len(best):
            more = count - len(best)
            text += " " + ngettext("(and {count} more: `hints all` lists every move)",
                                   "(and {count} more: `hints all` lists every move)", more).format(count=more)
        screen.say(screen.text(text))


def _moves_line(screen: Screen, hints: list[str], limit: int | None) -> str:
    """The moves a player may make, in one line (at most `limit` of them, if given)."""
    if not hints:
        return _("You can play: nothing now (it is not your turn)")
    shown = ", ".join(hints[:limit])
    if limit is not None and len(hints) > limit:
        more = len(hints) - limit
        shown += " " + ngettext("… and {count} more (`hints <start>` narrows them)",
                                "… and {count} more (`hints <start>` narrows them)", more).format(count=more)
    return screen.text(_("You can play: {moves}").format(moves=shown))
