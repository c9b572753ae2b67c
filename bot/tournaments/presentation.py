"""A stored tournament's standings as tables (`engine.pairing.standings`) and as what the picture,
the web page and the messages show of them: ranks, names, points and tie-breaks in the language
being spoken, the tie-breaks' order stated. Pure: it reads a `TournamentView`.

Two-player Swiss: points, then Buchholz, Buchholz cut-1, Sonneborn–Berger and direct encounter
(FIDE C.07). Round robins and a league's divisions: points, direct encounter, Sonneborn–Berger;
a league marks who goes up and down. Pods: points by placing, the sum of placings (lower is
better), then the tablemates' points.
"""

from __future__ import annotations

from bot.core.i18n import _
from bot.storage.tournaments import DOUBLE_ROUND_ROBIN, FINISHED, LEAGUE, PODS, ROUND_ROBIN, SWISS, TournamentView
from bot.tournaments.ranking import Table, closed_rounds, order_of, tables
from bot.tournaments.wording import DRAW, adjudication_rule, figure, format_name, tiebreak_names
from engine import GAMES
from engine.pairing.pods import placing_points
from engine.pairing.tiebreaks import BUCHHOLZ, BUCHHOLZ_CUT1, DIRECT_ENCOUNTER, SONNEBORN_BERGER
from renderers.tournament import MAX_ROWS, StandingsView, describe_standings, standings_png


def headings(order: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The columns' short headings and their full names, in the language being spoken."""
    short = {BUCHHOLZ: "BH", BUCHHOLZ_CUT1: "BH-C1", SONNEBORN_BERGER: "SB", DIRECT_ENCOUNTER: _("DE"),
             "PL": _("Places"), "TM": _("Mates")}
    full = tiebreak_names()
    return (("#", _("Player"), _("Pts"), *(short[o] for o in order)),
            (_("rank"), _("player"), _("points"), *(full[o] for o in order)))


def legend(order: tuple[str, ...]) -> str:
    """What the tie-break columns are, in the order they break ties."""
    short, full = headings(order)
    return _("Ties broken by: {list}.").format(list=", ".join(f"{s} {f}" if s != f else f
                                                             for s, f in zip(short[3:], full[3:], strict=True)))


def subtitle(view: TournamentView, division: int | None) -> str:
    """The line under the title: the format, how far it has gone, the division."""
    tournament = view.tournament
    done = closed_rounds(view)
    parts = [format_name(tournament.format), GAMES[tournament.game].title]
    if tournament.status == FINISHED:
        parts.append(_("final standings"))
    elif done:
        parts.append(_("after round {number} of {rounds}").format(number=done, rounds=tournament.rounds))
    else:
        parts.append(_("before round 1"))
    if division is not None:
        parts.insert(0, _("Division {number}").format(number=division))
    return " · ".join(parts)


def standings_view(view: TournamentView, table: Table) -> StandingsView:
    """`table` as the standings picture and its description show it."""
    short, full = headings(table.order)
    rows = []
    for row in table.rows:
        entrant = view.entrant(row.player)
        name = entrant.name if entrant else str(row.player)
        if entrant is not None and entrant.withdrawn_after is not None:
            name += " " + _("(withdrawn)")
        rows.append((str(row.rank), name, figure(row.points), *(figure(v) for v in row.tiebreaks)))
    note = legend(table.order)
    if len(rows) > MAX_ROWS:
        note += " " + _("The whole table ({count} players) is on the tournament's page.").format(count=len(rows))
    return StandingsView(view.tournament.name, subtitle(view, table.division), short, tuple(rows),
                         movement=tuple(row.movement for row in table.rows),
                         moves={"up": _("promoted"), "down": _("relegated")}, note=note, spoken=full)


def standings_pictures(view: TournamentView) -> list[tuple[bytes, str]]:
    """The standings as PNG pictures with their descriptions (one a league division)."""
    return [(standings_png(shown), describe_standings(shown))
            for shown in (standings_view(view, table) for table in tables(view))]


# ---------------------------------------------------------------------------------------------
# The rules, stated up front


def rules(view: TournamentView) -> list[str]:
    """The tournament's rules as sentences, as its page states them before anything else: the
    game and format, how rounds are paired, what results score, how ties are broken, what a
    round's deadline does, the time control."""
    tournament = view.tournament
    format = tournament.format
    game = GAMES[tournament.game].title if tournament.game in GAMES else tournament.game
    said = [_("{game}, played as a {format}.").format(game=game, format=format_name(format))]
    if tournament.rounds:
        said.append(_("{rounds} rounds; each round ends when its games have finished, or {hours} hours after it "
                      "was paired.").format(rounds=tournament.rounds, hours=round(tournament.round_seconds / 3600)))
    if format == SWISS:
        said.append(_("Each round is paired by the FIDE Dutch system (C.04.3): players with the same points meet, "
                      "nobody meets the same opponent twice, and the first seat plays the role of white."))
    elif format in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN, LEAGUE):
        said.append(_("Everyone meets everyone in the order of FIDE's Berger tables (a double round robin twice, "
                      "seats reversed)."))
    if format == LEAGUE:
        said.append(_("Divisions of {size}; at the season's end the top {up} of each division go up and the bottom "
                      "{down} go down.").format(size=tournament.options.get("division_size", 8),
                                               up=tournament.options.get("promote", 1),
                                               down=tournament.options.get("relegate", 1)))
    if format == PODS:
        places = ", ".join(figure(p) for p in placing_points(list(range(1, tournament.seats + 1))))
        said.append(_("Tables of {seats} grouped by points, with as few repeated tablemates as possible and the "
                      "seats rotated. Points by placing: {points}; players tied for a place share its points.")
                    .format(seats=tournament.seats, points=places))
        sitting = figure((tournament.seats - 1) / 2)
        said.append(_("A player who sits a round out scores {points}.").format(points=sitting))
    else:
        said.append(_("A win scores 1 point, a draw ½, a loss 0. A bye the pairing gives scores 1, a half-point bye ½; "
                      "a game not played is lost by whoever did not play it."))
    said.append(legend(order_of(format)))
    if format == SWISS:
        said.append(_("A round a player did not play counts, for their own tie-breaks, as a game against an opponent "
                      "with their own points (FIDE C.07, 2023)."))
    said.append(_("Adjudication: {rule}.").format(rule=adjudication_rule(tournament.options.get("adjudication", DRAW))))
    clock = tournament.options.get("clock")
    said.append(_("Time control: {clock}; vacations {vacation}; {rated}.").format(
        clock=clock or _("the server's usual"),
        vacation=_("stop the clock") if tournament.options.get("vacation", True) else _("do not stop the clock"),
        rated=_("rated") if tournament.options.get("rated", True) else _("not rated")))
    return said
