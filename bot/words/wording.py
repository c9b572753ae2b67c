"""The referee's own sentences: the lobby, the server's settings, history notes, and the care
taken with what users typed (their names as tokens, their input never echoed back at length)."""

from __future__ import annotations

import re

from bot.core import absence
from bot.core.durations import format_duration
from bot.core.i18n import _, current_language, ngettext
from bot.core.meta import ABSENT, CLOCK, VACATION
from bot.core.records import LOBBY, PLAYING, ActionRecord, Settings, TableRecord
from bot.core.replies import Reply, name_token, refusal
from bot.core.time_controls import NONE, Bank, describe, parse_time_control
from bot.core.typing_rules import echo
from engine import GAMES, Game
from engine.core import JOIN, RESIGN
from engine.levels import level_name


def chat() -> Reply:
    """The answer to typed chat that is not a move: nothing is said."""
    reply = refusal("")
    reply.unreadable = True
    return reply


def without_echo(message: str, text: str) -> str:
    """A refusal's message with the user's own text shortened wherever it is quoted back."""
    stripped = text.strip()
    if len(stripped) > 100 and stripped in message:
        message = message.replace(stripped, echo(stripped))
    return message if len(message) <= 1500 else message[:1499] + "…"


def named(text: str, table: TableRecord) -> str:
    """`text` with every seated player's name (as written by the engine) made a name token, so
    no transport reads markup in it. Tokens already there are left alone."""
    names = sorted({s.name for s in table.seats if s.name}, key=len, reverse=True)
    if not names:
        return text
    pattern = re.compile(r"<[@nt][^>]*>|(?<!\w)(" + "|".join(re.escape(n) for n in names) + r")(?!\w)")
    return pattern.sub(lambda m: name_token(m.group(1)) if m.group(1) else m.group(0), text)


def pieces_count(game: type[Game], count: int) -> str:
    """`count` of the game's pieces, named as the game names them (`Game.piece_noun`), in the language
    being spoken: "1 card", "5 cartas", "3 piezas"."""
    one, many = game.piece_noun.counted
    return ngettext(one, many, count).format(count=count)


def shuffled_line(game: type[Game]) -> str:
    """What a rollback's chance entry did, in the language being spoken, without its seed: "🎲 the
    unseen tiles were shuffled again", or where the game keeps nothing unseen (Tronix, Tromino Go),
    only that it was rolled back there."""
    if not game.keeps_unseen_pieces():
        return _("⏪ the game was rolled back to here")
    return _("🎲 {pieces} were shuffled again").format(pieces=_(game.piece_noun.unseen))


def level_word(agent: str) -> str:
    """An AI agent's level (`engine.levels.AGENTS`) as the language being spoken calls it."""
    return level_name(agent, current_language())


def absent_rule_text(table: TableRecord) -> str:
    """What the table does when a player's time runs out at three or more seats (its `absent=`
    option), in a few words."""
    mode = str(table.meta.get(ABSENT) or absence.DEFAULT_MODE)
    said = {absence.STANDIN: _("a stand-in plays for them"), absence.SKIP: _("their turns are skipped"),
            absence.REMOVE: _("they leave the game")}.get(mode, mode)
    return _("absent players (3+ seats): {rule} (absent={mode})").format(rule=said, mode=mode)


def lobby_text(table: TableRecord) -> str:
    cls = GAMES[table.game]
    players = ", ".join(name_token(s.name) for s in table.seats) or _("nobody yet")
    teams = cls.teams(len(table.seats)) if len(table.seats) in cls.player_counts() else ()
    if teams:
        players = " · ".join(_("team {letter}: {players}").format(
            letter=_(cls.team_names[n]) if n < len(cls.team_names) else chr(65 + n),
            players=", ".join(name_token(table.seats[s].name) for s in team))
            for n, team in enumerate(teams))
    clock = clock_text(table)
    options = ", ".join(f"{k}={v}" for k, v in table.options.items() if k != CLOCK)
    lines = [f"**{cls.title}** · " + _("players ({count}/{most}): {players}").format(
        count=len(table.seats), most=cls.max_players, players=players),
             f"{clock}{' · ' + options if options else ''} · {absent_rule_text(table)}"]
    away = {s: mode for s, mode in sorted(absence.away(table).items()) if s < len(table.seats)}
    if table.status == PLAYING and away:
        lines.append(", ".join(_("🤖 stand-in for {player}").format(player=name_token(table.seats[s].name))
                               if absence.stood_in(table, s) else
                               _("⏭️ {player} away: turns skipped").format(player=name_token(table.seats[s].name))
                               for s in away))
    if table.status == LOBBY:
        need = cls.min_players - len(table.seats)
        lines.append(ngettext("Join to play; start when everyone is in (at least {count} more player needed).",
                              "Join to play; start when everyone is in (at least {count} more players needed).",
                              need).format(count=need)
                     if need > 0 else _("Join to play; start when everyone is in."))
    return "\n".join(lines)


def clock_text(table: TableRecord) -> str:
    """The table's time control in words (`bank 3d + 1d a move, at most 7d`, `1d per turn`, `no
    turn clock`), and `vacations off` when its players' vacations do not stop its clock."""
    text = describe(table.turn_seconds, Bank.from_data(table.meta.get(CLOCK)))
    if table.turn_seconds and not table.meta.get(VACATION, True):
        text += " · " + _("vacations off")
    return text


def hand_text(game: Game, seat: int, *, brackets: bool = False) -> str:
    """What `seat` holds, in words: the `hand` of its view (a list of pieces, or pieces with
    counts), those it can play now in bold when it is its turn (in [brackets] with `brackets`,
    for a terminal that shows no bold)."""
    held = game.view(seat).get("hand")
    playable = set(map(str, game.view(seat).get("playable", []))) if seat in game.to_move() else set()
    if isinstance(held, dict):
        counted = [(str(name), count) for name, count in held.items() if count]
    elif isinstance(held, list):
        counted = [(str(piece), 1) for piece in held]
    else:
        return _("Nothing is hidden in this game: everything you have is on the board.")
    if not counted:
        return _("Your hand is empty.")
    mark = "[{}]" if brackets else "**{}**"
    listed = ", ".join((mark.format(name) if name in playable else name) + (f" ×{count}" if count != 1 else "")
                       for name, count in counted)
    text = _("Your hand ({count}): {pieces}").format(count=sum(count for _name, count in counted), pieces=listed)
    named = [f"{name}: {' '.join(game.held_as(name))}" for name, _count in counted if game.held_as(name)]
    if named:
        text += "\n" + _("Placed as: {names}").format(names=" · ".join(named))
    if not playable:
        return text
    return text + "\n" + (_("The ones in [brackets] can be played now.") if brackets else
                          _("The ones in bold can be played now."))


def settings_text(settings: Settings) -> str:
    clock = format_duration(settings.turn_seconds) if settings.turn_seconds else _("off")
    if not settings.turn_seconds_set:
        clock = _("each game's own (1d unless the game has another)")
    if settings.clock:
        try:
            control = parse_time_control(settings.clock)
            clock = describe(None, control.bank) if control.bank or control.kind == NONE else settings.clock
        except ValueError:
            clock = settings.clock
    text = _("Server settings: turn time {clock} · reminders {reminders} before the deadline · moderator role "
             "{role} · games: {games} · GIFs and stickers rated {rating} at most · reactions to events {reactions} "
             "· language {language}").format(
        clock=clock, reminders=", ".join(settings.reminders) or _("off"),
        role=settings.moderator_role or _("none (Manage Threads permission)"),
        games=", ".join(settings.allowed_games) if settings.allowed_games else _("all"),
        rating=settings.media_rating, reactions=_("on") if settings.event_reactions else _("off"),
        language=settings.language or _("each table's creator's"))
    return text + " · " + _("vacation days a year {days}").format(days=settings.vacation_days) + " · " + _(
        "absent players at 3+ seats: absent={mode}").format(mode=settings.absent)


def logged_move(record: ActionRecord, table: TableRecord) -> str:
    """One entry of the table's log as people may read it (history, previews, pages): the move
    in the table's notation (`3:5 c4 d4`, Spanish words at a Spanish table), "left the game",
    "joined the game"; for a chance entry only that the unseen pieces were shuffled again."""
    if record.chance:
        return shuffled_line(GAMES[table.game])
    if record.action == RESIGN:
        return _("left the game")
    if record.action.startswith(JOIN + " "):
        return _("joined the game")
    return f"`{GAMES[table.game].spoken(record.action, table.meta.get('lang') or 'en')}`"


def logged_entry(record: ActionRecord, table: TableRecord) -> str:
    """`logged_move` with who made it ("**Ann**: `3:5 c4 d4`"); a chance entry names nobody."""
    if record.chance or not 0 <= record.seat < len(table.seats):
        return logged_move(record, table)
    return f"{name_token(table.seats[record.seat].name)}: {logged_move(record, table)}"


def actor_note(actor: str, table: TableRecord) -> str:
    if actor == "clock":
        return " " + _("(out of time)")
    if actor.startswith("mod:"):
        return " " + _("(by a moderator)")
    if actor == "rules":
        return " " + _("(forced: nothing else was legal)")
    if actor.startswith(absence.STANDIN_ACTOR):
        return " " + _("(by a stand-in: the player was away)")
    if actor == absence.ABSENT_ACTOR:
        return " " + _("(the player was away)")
    return ""
