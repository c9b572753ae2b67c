"""What a tournament's format can hold, checked before it starts (and said in a sentence when it
cannot), and a league's next season: the top of each division promoted, the bottom relegated."""

from __future__ import annotations

from dataclasses import replace

from bot.core.i18n import _, ngettext
from bot.storage.sql import Connection
from bot.storage.tournaments import (
    DOUBLE_ROUND_ROBIN,
    LEAGUE,
    PODS,
    ROUND_ROBIN,
    SIGNUP,
    SWISS,
    EntrantRecord,
    TournamentRecord,
    TournamentView,
    insert_tournament,
)
from bot.tournaments.pairing import smallest_table
from bot.tournaments.ranking import standing_order
from engine import GAMES
from engine.pairing import pods, round_robin

SEASON_GAP = 86400.0
"""How long after a league season ends the next one starts."""


def most_rounds(format: str, players: int) -> int | None:
    """The most rounds `players` can play in a round robin format (None: any number, Swiss and pods)."""
    cycle = players - 1 + players % 2
    if format in (ROUND_ROBIN, LEAGUE):
        return cycle
    if format == DOUBLE_ROUND_ROBIN:
        return 2 * cycle
    return None


def rounds_for(view: TournamentView) -> int:
    """The rounds a round robin or league plays when none were asked for: all its field has."""
    players = len(view.entrants)
    if view.tournament.format == LEAGUE:
        players = max((sum(1 for e in view.entrants if e.division == d) for d in {e.division for e in view.entrants}),
                      default=0)
    return most_rounds(view.tournament.format, players) or view.tournament.rounds


def field_problem(tournament: TournamentRecord, players: int) -> str | None:
    """Why `players` cannot play this tournament as set up (None: they can)."""
    if players < 2:
        return ngettext("only {count} player signed up", "only {count} players signed up", players).format(
            count=players)
    if tournament.format in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN) and players > round_robin.MAX_PLAYERS:
        return _("a round robin takes at most {most} players, and {count} signed up").format(
            most=round_robin.MAX_PLAYERS, count=players)
    if tournament.format == SWISS and tournament.rounds >= players:
        return _("a Swiss of {rounds} rounds needs more than {rounds} players, and {count} signed up").format(
            rounds=tournament.rounds, count=players)
    most = most_rounds(tournament.format, players)
    if tournament.format == LEAGUE:
        size = int(tournament.options.get("division_size", 8))
        most = most_rounds(LEAGUE, min(size, players))
    if most is not None and tournament.rounds > most:
        return _("{count} players play {most} rounds in a {format}, not {rounds}").format(
            count=players, most=most, format=format_word(tournament.format), rounds=tournament.rounds)
    if tournament.format == PODS:
        try:
            pods.table_sizes(players, tournament.seats, smallest_table(tournament.game, tournament.seats))
        except ValueError:
            return _("{count} players cannot be seated at tables of {seats}").format(count=players,
                                                                                   seats=tournament.seats)
        if players < tournament.seats:
            return _("tables of {seats} need at least {seats} players, and {count} signed up").format(
                seats=tournament.seats, count=players)
    return None


def format_word(name: str) -> str:
    from bot.tournaments.wording import format_name

    return format_name(name)


def seats_problem(game: str, format: str, seats: int) -> str | None:
    """Why the game cannot be played in this format at tables of `seats` (None: it can)."""
    counts = GAMES[game].player_counts()
    if format != PODS:
        if 2 not in counts:
            return _("{game} is not played by two, so it has no {format}; choose the pods format").format(
                game=GAMES[game].title, format=format_word(format))
        return None
    if seats < 3 or seats not in counts:
        return _("{game} pods can be tables of {counts} players, not {seats}").format(
            game=GAMES[game].title, counts=", ".join(str(c) for c in counts if c >= 3) or "-", seats=seats)
    return None


async def next_season(db: Connection, view: TournamentView, now: float) -> int | None:
    """A league's next season, once (the season after this one is keyed by it): the same league,
    its players in their new divisions (the top `promote` of each division up, the bottom
    `relegate` down; withdrawn players left out), starting a day after."""
    tournament = view.tournament
    up, down = int(tournament.options.get("promote", 1)), int(tournament.options.get("relegate", 1))
    divisions = sorted({e.division for e in view.entrants})
    moved: dict[str, int] = {}
    for division in divisions:
        order = [view.entrant(p) for p in standing_order(view, division)]
        staying = [e for e in order if e is not None and e.withdrawn_after is None]
        for index, entrant in enumerate(staying):
            target = division
            if division > divisions[0] and index < up:
                target = division - 1
            elif division < divisions[-1] and index >= len(staying) - down:
                target = division + 1
            moved[entrant.user_id] = target
    season = int(tournament.options.get("season", 1)) + 1
    starts = now + SEASON_GAP
    name = tournament.name.split(" · ")[0] + " · " + _("season {number}").format(number=season)
    nxt = replace(tournament, id=0, name=name, options={**tournament.options, "season": season}, starts_at=starts,
                  signup_closes=starts, status=SIGNUP, current_round=0, due=starts, created_at=now,
                  previous_id=tournament.id, version=0)
    entrants = [EntrantRecord(index, e.user_id, e.name, e.rating, now, True, 1, None, moved[e.user_id])
                for index, e in enumerate(sorted((e for e in view.entrants if e.user_id in moved),
                                                 key=lambda e: (moved[e.user_id], e.number)), 1)]
    return await insert_tournament(db, nxt, entrants)
