"""A stored tournament read as the pairing rules' records (`engine.pairing`): the rounds of a
two-player event as `Round`s, a pod event's tables with their placings, each player's points (the
standing order is `bot.tournaments.ranking`'s). Pure: it reads a `TournamentView` and nothing else."""

from __future__ import annotations

from bot.storage.tournaments import LEAGUE, BoardRecord, TournamentView
from engine.pairing.records import Board, Bye, Result, Round, SatOut

PodTable = tuple[tuple[int, ...], tuple[int, ...] | None]
"""A pod table: its players in seat order, and their placings once it ended (1 = first; ties equal)."""


def placings_of(board: BoardRecord) -> tuple[int, ...] | None:
    """A pod board's placings, or None while it is on."""
    if board.result is None:
        return None
    return tuple(int(p) for p in board.result.split(","))


def two_player_rounds(view: TournamentView, division: int | None = None) -> list[Round]:
    """Every round so far as `Round`s (boards still on have no result). A late entry's rounds
    before they joined are zero-point byes; a withdrawn player's later rounds are left out (an
    unplayed round for the tie-breaks)."""
    rounds = []
    for stored in view.rounds:
        boards = tuple(Board(b.players[0], b.players[1], Result(b.result) if b.result else None)
                       for b in stored.boards if len(b.players) == 2 and division in (None, b.division))
        members = {e.number for e in view.entrants if division in (None, e.division)}
        sat = [SatOut(p, Bye(code)) for p, code in stored.sat_out if p in members]
        seen = {p for b in boards for p in (b.first, b.second)} | {s.player for s in sat}
        sat += [SatOut(e.number, Bye.ZERO_POINT) for e in view.entrants
                if e.number in members and e.number not in seen and e.first_round > stored.number]
        rounds.append(Round(boards, tuple(sat)))
    return rounds


def pod_rounds(view: TournamentView) -> list[list[PodTable]]:
    """Every round's pod tables so far."""
    return [[(b.players, placings_of(b)) for b in stored.boards] for stored in view.rounds]


def divisions(view: TournamentView) -> list[int]:
    """A league's divisions, top first (one division, 1, for every other format)."""
    if view.tournament.format != LEAGUE:
        return [1]
    return sorted({e.division for e in view.entrants})
