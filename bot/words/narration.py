"""The sentences players read after a move: what happened, then who the game waits for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.absence import played_by_ai, stood_in
from bot.core.i18n import _, current_language, ngettext, said, spoken
from bot.core.meta import CLOCK
from bot.core.records import TableRecord
from bot.core.replies import deadline_token, mention, name_token
from engine import Event, Game

MAX_EVENT_LINES = 14
_QUIET = {"between_rounds", "game_end"}
"""Said another way: who is waiting, and the final result, come from `who_is_next`."""
_MARKS = {"kill": "💀 ", "round_end": "🏁 ", "game_end": "🏆 ", "round_start": "🎲 ", "pass": "🐔 ",
          "free_line_dead": "✂️ ", "again": "🔁 ", "resign": "🚪 "}


_KEPT = {"round_end", "round_start", "game_end", "kill", "free_line_dead", "resign", "tronix", "god", "stalemate",
         "singularity", "locked", "level_up", "moving", "circuit"}
"""Events never shortened away from a long chain: what ends or begins a round or the game, and
what scores."""


def what_happened(events: Sequence[Event], forced: Sequence[tuple[str, int]] = ()) -> str:
    """One line per public event, marked by kind, in the order they happened; `forced` are lines
    about actions the rules made (`forced_lines`), each placed before the event it precedes. A
    long chain is cut in the middle, but only ordinary moves are left out: a line that ends or
    begins a round or the game, or scores, is always said."""
    lines: list[tuple[bool, str]] = []
    pending = sorted(forced, key=lambda item: item[1])
    for index, event in enumerate(events):
        while pending and pending[0][1] <= index:
            lines.append((True, pending.pop(0)[0]))
        if event.to is not None or event.kind in _QUIET:
            continue
        mark = _MARKS.get(event.kind, "")
        if event.kind == "pass" and not event.data.get("footed"):
            mark = ""
        lines.append((event.kind in _KEPT, mark + said(event.template, dict(event.args), event.text)))
    lines += [(True, line) for line, _at in pending]
    if len(lines) <= MAX_EVENT_LINES:
        return "\n".join(line for _kept, line in lines)
    last = len(lines) - (MAX_EVENT_LINES - 4)
    shown: list[str] = []
    skipped = 0
    for index, (kept, line) in enumerate(lines):
        if kept or index < 4 or index >= last:
            if skipped:
                shown.append(_skipped(skipped))
                skipped = 0
            shown.append(line)
        else:
            skipped += 1
    if skipped:
        shown.append(_skipped(skipped))
    return "\n".join(shown)


def _skipped(count: int) -> str:
    return ngettext("… {count} more move …", "… {count} more moves …", count).format(count=count)


def who_is_next(table: TableRecord, game: Game, deadline: dict[int, float] | None = None,
                away: dict[int, float] | None = None) -> str:
    """`It's @bob's turn (ends <t:…:R>).`, or who the round break waits for, or the final result.
    At a bank table the deadline is when the bank runs out; `away`: the waiting seats whose
    players are on vacation, and until when."""
    outcome = game.outcome()
    if outcome is not None:
        return final_result(table, game)
    waiting = list(game.to_move())
    people = [_("🤖 stand-in for {player}").format(player=name_token(table.seats[s].name)) if stood_in(table, s)
              else mention(table.seats[s].user_id or "", table.seats[s].name) if table.seats[s].user_id
              else name_token(table.seats[s].name) for s in waiting]
    for index, seat in enumerate(waiting):
        if away and seat in away:
            people[index] += " " + _("(on vacation, back {when})").format(when=deadline_token(away[seat]))
    ends = sorted({deadline[s] for s in waiting if deadline and s in deadline})
    banked = bool(table.meta.get(CLOCK))
    until = " " + (_("(bank runs out {when})") if banked else _("(ends {when})")).format(
        when=deadline_token(ends[0])) if len(ends) == 1 else ""
    if waiting and game.between_rounds():
        return _("⏸️ Round over. Type `ready` to start the next round; waiting for {players}{until}.").format(
            players=join(people), until=until)
    if len(waiting) == 1:
        return _("▶️ It's {player}'s turn{until}.").format(player=people[0], until=until)
    return _("▶️ Waiting for {players}{until}.").format(players=join(people), until=until)


def how_to_move(table: TableRecord, game: Game) -> str:
    """One short line on how to type a move in this game, in the table's notation; "" when the
    game is over or waits for no person (only for AI seats: nobody is to type anything)."""
    example = game.example_move()
    if game.outcome() is not None or not example:
        return ""
    if all(played_by_ai(table, s) for s in game.to_move()):
        return ""
    return _("✏️ Type a move like `{example}`, or use /move.").format(
        example=type(game).spoken(example, current_language()))


def forced_lines(table: TableRecord, game: Game, forced: Sequence[tuple[int, str, int]]) -> list[tuple[str, int]]:
    """The actions the rules made for the players, a line per player in a row (with the number
    of events told before it): repeats counted (`draw` ×3, then `pass`), so three forced draws
    read as one line. Actions are written in the table's notation."""
    runs: list[tuple[int, int, list[list[Any]]]] = []
    for seat, action, before in forced:
        if not runs or runs[-1][0] != seat:
            runs.append((seat, before, []))
        actions = runs[-1][2]
        if actions and actions[-1][0] == action:
            actions[-1][1] += 1
        else:
            actions.append([action, 1])
    lines = []
    language = current_language()
    for seat, before, actions in runs:
        player = name_token(table.seats[seat].name)
        if len(actions) == 1 and actions[0][1] == 1:
            lines.append((_("🤖 {player} had no choice: `{action}` was played for them.").format(
                player=player, action=type(game).spoken(actions[0][0], language)), before))
            continue
        listed = join([f"`{type(game).spoken(action, language)}`" + (f" ×{count}" if count > 1 else "")
                       for action, count in actions])
        lines.append((_("🤖 {player} had no choice: {actions} were played for them.").format(
            player=player, actions=listed), before))
    return lines


def final_result(table: TableRecord, game: Game) -> str:
    outcome = game.outcome()
    assert outcome is not None
    if outcome.teams and type(game).team_names:
        return _team_result(table, game)
    ranking = sorted(range(game.players), key=lambda s: -outcome.scores[s])
    scores = ", ".join(f"{name_token(table.seats[s].name)} {_number(outcome.scores[s])}" for s in ranking)
    winners = [name_token(table.seats[w].name) for w in outcome.winners]
    if not winners:
        return _("🏁 Game over ({reason}). Final scores: {scores}.").format(reason=spoken(outcome.reason),
                                                                           scores=scores)
    if len(winners) == 1:
        return _("🏆 {player} wins! Final scores: {scores}.").format(player=winners[0], scores=scores)
    return _("🏆 {players} share the win! Final scores: {scores}.").format(players=join(winners), scores=scores)


def _team_result(table: TableRecord, game: Game) -> str:
    """A team game's end: the winning team by name with its players, or a draw; each team's score."""
    outcome = game.outcome()
    assert outcome is not None
    names = type(game).team_names
    scores = ", ".join(f"{_(names[n])} {_number(outcome.scores[team[0]])}" for n, team in enumerate(outcome.teams)
                       if team)
    winning = [n for n, team in enumerate(outcome.teams) if team and set(team) <= set(outcome.winners)]
    if len(winning) != 1:
        return _("🤝 A draw ({reason}). Final scores: {scores}.").format(reason=spoken(outcome.reason), scores=scores)
    team = outcome.teams[winning[0]]
    players = join([name_token(table.seats[s].name) for s in team])
    return _("🏆 {team} wins ({players})! Final scores: {scores}.").format(team=_(names[winning[0]]).capitalize(),
                                                                          players=players, scores=scores)


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def join(items: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " " + _("and") + " " + items[-1]
