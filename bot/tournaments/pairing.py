"""The next round of a stored tournament, paired by its format's rules (`engine.pairing`): pure,
so the same view always gives the same round (two processes racing to pair it agree, and the
store keeps the first anyway).

- Swiss: the FIDE Dutch system (`engine.pairing.dutch.pair_dutch`) over the players still in;
- round robin (single or double): FIDE's Berger tables by pairing number; a withdrawn player's
  games are forfeited to their opponents, and a rest round is a zero-point bye;
- pods: tables of the chosen size grouped by score (`engine.pairing.pods`);
- league: a round robin in each division.

Late entries are not paired before their first round: those rounds are zero-point byes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.storage.tournaments import (
    DOUBLE_ROUND_ROBIN,
    LEAGUE,
    PODS,
    ROUND_ROBIN,
    SWISS,
    BoardRecord,
    EntrantRecord,
    RoundRecord,
    TournamentView,
)
from bot.tournaments.ranking import standing_order
from bot.tournaments.records import pod_rounds, two_player_rounds
from engine import GAMES
from engine.pairing import pods, round_robin
from engine.pairing.dutch import pair_dutch
from engine.pairing.records import Bye


class CannotPair(Exception):
    """No pairing exists for this round (the reason is the message)."""


def pair_round(view: TournamentView, number: int, now: float) -> RoundRecord:
    """Round `number` of the tournament, paired at `now` (its deadline `round_seconds` later).
    CannotPair when the players left cannot be paired."""
    tournament = view.tournament
    deadline = now + tournament.round_seconds
    late = tuple((e.number, Bye.ZERO_POINT.value) for e in view.entrants if e.first_round > number
                 and (e.withdrawn_after is None))
    try:
        if tournament.format == SWISS:
            boards, sat = _swiss(view, number)
        elif tournament.format in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN):
            boards, sat = _round_robin(view.entrants, number, tournament.format == DOUBLE_ROUND_ROBIN, 1)
        elif tournament.format == LEAGUE:
            boards, sat = [], []
            for division in sorted({e.division for e in view.entrants}):
                members = [e for e in view.entrants if e.division == division]
                more, rest = _round_robin(members, number, False, division)
                boards += more
                sat += rest
        elif tournament.format == PODS:
            boards, sat = _pods(view, number)
        else:
            raise CannotPair(f"unknown format {tournament.format}")
    except ValueError as error:
        raise CannotPair(str(error)) from None
    numbered = tuple(BoardRecord(number, index, b.players, b.division, result=b.result,
                                 finished_at=now if b.result else None)
                     for index, b in enumerate(boards, 1))
    return RoundRecord(number, now, deadline, None, tuple(sat) + late, numbered)


def _swiss(view: TournamentView, number: int) -> tuple[list[BoardRecord], list[tuple[int, str]]]:
    field = [e.number for e in view.entrants if e.plays_in(number)]
    paired = pair_dutch(field, two_player_rounds(view), total_rounds=view.tournament.rounds,
                        bye_points=float(view.tournament.options.get("bye_points", 1.0)))
    boards = [BoardRecord(number, 0, (b.first, b.second)) for b in paired.boards]
    return boards, [(s.player, s.bye.value) for s in paired.sat_out]


def _round_robin(entrants: Sequence[EntrantRecord], number: int, double: bool,
                 division: int) -> tuple[list[BoardRecord], list[tuple[int, str]]]:
    """Round `number` of the Berger schedule of `entrants` (in pairing-number order: the first is
    1 in the table); a withdrawn player's game is a forfeit win for the other."""
    members = sorted(entrants, key=lambda e: e.number)
    schedule = round_robin.schedule(len(members), double=double)
    if number > len(schedule):
        return [], []
    by_index = {index: e for index, e in enumerate(members, 1)}
    stored = schedule[number - 1]
    boards = []
    for board in stored.boards:
        first, second = by_index[board.first], by_index[board.second]
        result = _forfeit(first.plays_in(number), second.plays_in(number))
        boards.append(BoardRecord(number, 0, (first.number, second.number), division, result=result))
    sat = [(by_index[s.player].number, Bye.ZERO_POINT.value) for s in stored.sat_out]
    return boards, sat


def _forfeit(first_plays: bool, second_plays: bool) -> str | None:
    """The result of a board one or both of whose players withdrew (None: both play)."""
    if first_plays and second_plays:
        return None
    if first_plays:
        return "+/-"
    return "-/+" if second_plays else "-/-"


def _pods(view: TournamentView, number: int) -> tuple[list[BoardRecord], list[tuple[int, str]]]:
    size = view.tournament.seats
    field = [p for p in standing_order(view) if (e := view.entrant(p)) is not None and e.plays_in(number)]
    tables = pods.pair_pods(field, size, smallest_table(view.tournament.game, size), pods.tablemates(
        [[t[0] for t in tables] for tables in pod_rounds(view)]), seats_taken(view))
    return [BoardRecord(number, 0, tuple(table)) for table in tables], []


def smallest_table(game: str, size: int) -> int:
    """The fewest players a pod table of a `size`-seat event may have: one fewer where the game
    is played by that many (so odd fields can be seated), else `size`."""
    return size - 1 if size - 1 >= 3 and size - 1 in GAMES[game].player_counts() else size


def seats_taken(view: TournamentView) -> dict[int, Counter[int]]:
    """How often each player sat in each seat so far (pods rotate them)."""
    taken: dict[int, Counter[int]] = {}
    for stored in view.rounds:
        for board in stored.boards:
            for seat, player in enumerate(board.players):
                taken.setdefault(player, Counter())[seat] += 1
    return taken


def rounds_possible(format: str, players: int, seats: int = 2) -> int:
    """The most rounds `players` can play in this format (before pairing gets impossible or repeats)."""
    if format in (ROUND_ROBIN, LEAGUE):
        return players - 1 + players % 2
    if format == DOUBLE_ROUND_ROBIN:
        return 2 * (players - 1 + players % 2)
    if format == SWISS:
        return max(players - 1, 0)
    return max(players - 1, 1) if format == PODS and seats else 0
