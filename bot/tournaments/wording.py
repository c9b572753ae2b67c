"""What a tournament says: its announcement (the rules stated up front), a round's pairings, the
standings in text, and the final message. Every word through `_()`."""

from __future__ import annotations

from bot.core.i18n import _
from bot.core.replies import deadline_token, mention, name_token
from bot.storage.tournaments import (
    DOUBLE_ROUND_ROBIN,
    LEAGUE,
    PODS,
    ROUND_ROBIN,
    SWISS,
    BoardRecord,
    RoundRecord,
    TournamentRecord,
    TournamentView,
)
from bot.tournaments.ranking import Table, tables
from engine import GAMES
from engine.pairing.pods import placing_points
from engine.pairing.standings import Row
from engine.pairing.tiebreaks import BUCHHOLZ, BUCHHOLZ_CUT1, DIRECT_ENCOUNTER, SONNEBORN_BERGER

DRAW, SCORE = "draw", "score"
ADJUDICATIONS = (DRAW, SCORE)
STANDINGS_LINES = 20
"""The most players a standings message lists (per division in a league); the tournament's page
lists them all."""


def figure(value: float | None) -> str:
    """A point total or tie-break as shown: "3", "2.5", "4.67"; "" where it was passed over."""
    if value is None:
        return ""
    return f"{round(value, 2):g}"


def tiebreak_names() -> dict[str, str]:
    """Each tie-break's full name (`engine.pairing.standings`' keys), in the language being spoken."""
    return {BUCHHOLZ: _("Buchholz"), BUCHHOLZ_CUT1: _("Buchholz cut-1"), SONNEBORN_BERGER: _("Sonneborn–Berger"),
            DIRECT_ENCOUNTER: _("direct encounter"), "PL": _("sum of placings (lower is better)"),
            "TM": _("tablemates' points")}


def joined(names: list[str]) -> str:
    """Names as a list in words: "Ana", "Ana and Bo", "Ana, Bo and Cy"."""
    if len(names) < 2:
        return "".join(names)
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


def format_name(name: str) -> str:
    """A format's name in the language being spoken."""
    return {SWISS: _("Swiss"), ROUND_ROBIN: _("round robin"), DOUBLE_ROUND_ROBIN: _("double round robin"),
            PODS: _("Swiss of multi-player tables"), LEAGUE: _("league")}.get(name, name)


def adjudication_rule(rule: str) -> str:
    """The adjudication rule in a sentence, as the announcement states it."""
    if rule == SCORE:
        return _("a game still on at the round's deadline is stopped and decided by the score at that moment "
                 "(the higher score wins; equal scores share the place)")
    return _("a game still on at the round's deadline is stopped and scored as a draw among the players still in it")


def announcement(tournament: TournamentRecord) -> str:
    """The tournament's announcement: what, when, how, and every rule decided up front."""
    game = GAMES[tournament.game].title
    lines = [_("🏆 **{name}**: a {format} of {game}.").format(name=tournament.name,
                                                            format=format_name(tournament.format), game=game)]
    lines.append(_("Starts {when}; sign up with the button below until then.").format(
        when=deadline_token(tournament.starts_at)))
    if tournament.signup_closes > tournament.starts_at:
        lines.append(_("Late entries are taken until {when}; the rounds they missed count as zero-point byes.").format(
            when=deadline_token(tournament.signup_closes)))
    if tournament.options.get("checkin"):
        lines.append(_("Check in with the button before the start: whoever has not checked in is not paired."))
    if tournament.rounds:
        lines.append(_("Rounds: {rounds}, each with a deadline of {hours} hours.").format(
            rounds=tournament.rounds, hours=round(tournament.round_seconds / 3600)))
    if tournament.format == PODS:
        size = tournament.seats
        shown = ", ".join(f"{p:g}" for p in placing_points(list(range(1, size + 1))))
        lines.append(_("Tables of {seats}; points by placing: {points} (ties share them).").format(
            seats=size, points=shown))
    if tournament.format == LEAGUE:
        lines.append(_("Divisions of {size}, each a round robin; the top {up} go up and the bottom {down} go down "
                       "for the next season.").format(size=tournament.options.get("division_size", 8),
                                                        up=tournament.options.get("promote", 1),
                                                        down=tournament.options.get("relegate", 1)))
    clock = tournament.options.get("clock")
    lines.append(_("Time control: {clock}; vacations {vacation}; {rated}.").format(
        clock=clock or _("the server's usual"),
        vacation=_("stop the clock") if tournament.options.get("vacation", True) else _("do not stop the clock"),
        rated=_("rated") if tournament.options.get("rated", True) else _("not rated")))
    lines.append(_("Adjudication: {rule}.").format(rule=adjudication_rule(tournament.options.get("adjudication",
                                                                                                  DRAW))))
    lines.append(_("Withdrawn players forfeit the games they do not play; `/tournament withdraw` to leave."))
    return "\n".join(lines)


def _player(view: TournamentView, number: int, *, ping: bool = False) -> str:
    entrant = view.entrant(number)
    if entrant is None:
        return str(number)
    return mention(entrant.user_id, entrant.name) if ping else name_token(entrant.name)


def board_line(view: TournamentView, board: BoardRecord, *, ping: bool = False) -> str:
    """A board: its number and players (first seat first), and its result once it has one."""
    players = " – ".join(_player(view, p, ping=ping) for p in board.players)
    result = f" **{board.result.replace(',', ' · ')}**" if board.result else ""
    return _("Board {board}: {players}").format(board=board.board, players=players) + result


def round_pairings(view: TournamentView, round_: RoundRecord) -> str:
    """A round's pairings and who sits it out, with its deadline."""
    lines = [_("⚔️ **{name}**, round {number}: each game opens in its own thread; deadline {when}.").format(
        name=view.tournament.name, number=round_.number, when=deadline_token(round_.deadline))]
    lines += [board_line(view, b) for b in round_.boards]
    for player, code in round_.sat_out:
        lines.append(_("{player} sits this round out ({bye}).").format(player=_player(view, player),
                                                                         bye=bye_name(code)))
    return "\n".join(lines)


def bye_name(code: str) -> str:
    return {"U": _("a bye worth a point"), "H": _("a half-point bye"), "F": _("a full-point bye"),
            "Z": _("no points")}.get(code, code)


def board_opening(view: TournamentView, board: BoardRecord) -> str:
    """The first line of a board's thread: which tournament and round, pinging its players."""
    return _("🏆 {name}, round {number}, board {board}: {players}. Good luck!").format(
        name=view.tournament.name, number=board.round, board=board.board,
        players=", ".join(_player(view, p, ping=True) for p in board.players))


def standings_text(view: TournamentView) -> str:
    """The standings as text lines: place (shared where every tie-break is equal, as in the
    picture), player, points (the division's, in a league)."""
    return _standings_lines(view, tables(view))


def _standings_lines(view: TournamentView, shown: list[Table]) -> str:
    lines = []
    for table in shown:
        if view.tournament.format == LEAGUE:
            lines.append(_("Division {number}").format(number=table.division))
        for row in table.rows[:STANDINGS_LINES]:
            entrant = view.entrant(row.player)
            gone = " " + _("(withdrawn)") if entrant and entrant.withdrawn_after is not None else ""
            lines.append(f"{row.rank}. {_player(view, row.player)} — {row.points:g}{gone}")
    return "\n".join(lines)


def round_closed(view: TournamentView, number: int) -> str:
    return _("📋 **{name}**: standings after round {number}").format(name=view.tournament.name, number=number) \
        + "\n" + standings_text(view)


def final(view: TournamentView) -> str:
    """The final message: the winner (or winners of each division) crowned, how a tie on points
    was broken, and the standings."""
    shown = tables(view)
    if view.tournament.format == LEAGUE:
        heads = [_player(view, t.rows[0].player) for t in shown if t.rows]
        crowned = _("🏆 **{name}** is over. Division winners: {winners}.").format(
            name=view.tournament.name, winners=", ".join(heads))
    else:
        crowned = _crowned(view, shown[0])
    return crowned + "\n" + _standings_lines(view, shown)


def _crowned(view: TournamentView, table: Table) -> str:
    """Who won, or who share first place; where the winner is level on points with the second,
    the first tie-break that tells them apart and both figures."""
    rows = table.rows
    if not rows:
        return _("🏆 **{name}** is over.").format(name=view.tournament.name)
    first = [row for row in rows if row.rank == rows[0].rank]
    if len(first) > 1:
        return _("🏆 **{name}** is over. {players} share first place!").format(
            name=view.tournament.name, players=joined([_player(view, row.player, ping=True) for row in first]))
    crowned = _("🏆 **{name}** is over. {winner} wins it!").format(
        name=view.tournament.name, winner=_player(view, rows[0].player, ping=True))
    if len(rows) > 1 and rows[1].points == rows[0].points:
        crowned += " " + _tie_broken(view, table, rows[0], rows[1])
    return crowned


def _tie_broken(view: TournamentView, table: Table, winner: Row, second: Row) -> str:
    """How the winner came ahead of the second on the same points: the first tie-break whose
    figures differ ("" where none does)."""
    names = tiebreak_names()
    for key, mine, theirs in zip(table.order, winner.tiebreaks, second.tiebreaks, strict=True):
        if mine != theirs:
            return _("Level on points with {second}, ahead on {tiebreak}: {mine} to {theirs}.").format(
                second=_player(view, second.player), tiebreak=names[key], mine=figure(mine) or "–",
                theirs=figure(theirs) or "–")
    return ""
