"""The sentences players read after a move: what happened, then who the game waits for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import _, said, spoken
from bot.records import TableRecord
from bot.replies import deadline_token, mention, name_token
from engine import Event, Game

MAX_EVENT_LINES = 14
_QUIET = {"between_rounds", "game_end"}
"""Said another way: who is waiting, and the final result, come from `who_is_next`."""
_MARKS = {"kill": "💀 ", "round_end": "🏁 ", "game_end": "🏆 ", "round_start": "🎲 ", "pass": "🐔 ",
          "free_line_dead": "✂️ ", "again": "🔁 ", "resign": "🚪 "}


def what_happened(events: Sequence[Event]) -> str:
    """One line per public event, marked by kind; long chains are cut in the middle."""
    lines = []
    for event in events:
        if event.to is not None or event.kind in _QUIET:
            continue
        mark = _MARKS.get(event.kind, "")
        if event.kind == "pass" and not event.data.get("footed"):
            mark = ""
        lines.append(mark + said(event.template, dict(event.args), event.text))
    if len(lines) > MAX_EVENT_LINES:
        skipped = len(lines) - MAX_EVENT_LINES
        lines = [*lines[:4], _("… {count} more moves …").format(count=skipped), *lines[-(MAX_EVENT_LINES - 4):]]
    return "\n".join(lines)


def who_is_next(table: TableRecord, game: Game, deadline: dict[int, float] | None = None) -> str:
    """`It's @bob's turn (ends <t:…:R>).`, or who the round break waits for, or the final result."""
    outcome = game.outcome()
    if outcome is not None:
        return final_result(table, game)
    waiting = list(game.to_move())
    people = [mention(table.seats[s].user_id or "", table.seats[s].name) if table.seats[s].user_id
              else name_token(table.seats[s].name) for s in waiting]
    ends = sorted({deadline[s] for s in waiting if deadline and s in deadline})
    until = " " + _("(ends {when})").format(when=deadline_token(ends[0])) if len(ends) == 1 else ""
    if waiting and game.between_rounds():
        return _("⏸️ Round over. Type `ready` to start the next round; waiting for {players}{until}.").format(
            players=join(people), until=until)
    if len(waiting) == 1:
        return _("▶️ It's {player}'s turn{until}.").format(player=people[0], until=until)
    return _("▶️ Waiting for {players}{until}.").format(players=join(people), until=until)


def forced_lines(table: TableRecord, forced: Sequence[tuple[int, str]]) -> list[str]:
    """The actions the rules made for the players, a line per player in a row: repeats counted
    (`draw` ×3, then `pass`), so three forced draws read as one line."""
    runs: list[tuple[int, list[list[Any]]]] = []
    for seat, action in forced:
        if not runs or runs[-1][0] != seat:
            runs.append((seat, []))
        actions = runs[-1][1]
        if actions and actions[-1][0] == action:
            actions[-1][1] += 1
        else:
            actions.append([action, 1])
    lines = []
    for seat, actions in runs:
        player = name_token(table.seats[seat].name)
        if len(actions) == 1 and actions[0][1] == 1:
            lines.append(_("🤖 {player} had no choice: `{action}` was played for them.").format(
                player=player, action=actions[0][0]))
            continue
        listed = join([f"`{action}`" + (f" ×{count}" if count > 1 else "") for action, count in actions])
        lines.append(_("🤖 {player} had no choice: {actions} were played for them.").format(
            player=player, actions=listed))
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
