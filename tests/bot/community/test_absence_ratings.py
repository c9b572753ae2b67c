"""The ratings' rule for absent players (bot/community/ratings.py `absentees`): at three or more
seats, a player more of whose moves were made for them while away than by themselves, or who was
removed for being away, is rated as having resigned (last, whatever the stand-in won); the others
are placed by the game's result among themselves; a table of two keeps the game's result."""

from __future__ import annotations

import random

from bot.community.ratings import AWAY, REMOVED, absence_note, absentees, placements
from bot.core.records import FINISHED, SeatRecord, TableRecord
from engine import GAMES
from engine.core import RESIGN

SEATS = ("test:ana", "test:bo", "test:cy")


def table_of(players: int) -> TableRecord:
    return TableRecord(id=1, place="test:t", game="tronimoes", options={}, status=FINISHED, created_by=SEATS[0],
                       created_at=0.0, guild="g",
                       seats=[SeatRecord(s, SEATS[s].removeprefix("test:"), SEATS[s]) for s in range(players)])


def test_a_player_whose_moves_a_stand_in_mostly_made_is_rated_as_having_resigned() -> None:
    log = [(0, "draw", SEATS[0]), (1, "draw", "standin:normal"), (1, "pass", "standin:normal"),
           (1, "3:5 c4 d4", SEATS[1]), (2, "draw", "rules"), (2, "pass", SEATS[2])]
    assert absentees(table_of(3), log) == {1: AWAY}


def test_a_player_who_made_as_many_moves_as_were_made_for_them_is_rated_by_the_result() -> None:
    log = [(1, "draw", "standin:easy"), (1, "pass", "absent"), (1, "draw", SEATS[1]), (1, "pass", SEATS[1])]
    assert absentees(table_of(3), log) == {}


def test_skipped_turns_count_as_moves_made_for_the_absent_player() -> None:
    log = [(2, "draw", "absent"), (2, "pass", "absent"), (2, "ready", SEATS[2])]
    assert absentees(table_of(3), log) == {2: AWAY}


def test_a_player_removed_for_being_away_is_named_as_removed() -> None:
    table = table_of(3)
    absent = absentees(table, [(0, "draw", SEATS[0]), (0, RESIGN, "absent")])
    assert absent == {0: REMOVED}
    assert absence_note(table, absent) == " (<n:ana> was removed for being away: rated as having resigned)"


def test_a_table_of_two_keeps_the_games_own_result() -> None:
    assert absentees(table_of(2), [(1, "draw", "standin:normal"), (1, RESIGN, "absent")]) == {}


def test_ai_seats_are_never_absent() -> None:
    table = table_of(3)
    table.seats[2] = SeatRecord(2, "Pip", None, "normal")
    assert absentees(table, [(2, "draw", "standin:normal")]) == {}


def test_an_absent_winner_is_placed_last_and_the_others_by_the_result_among_themselves() -> None:
    rng = random.Random(5)
    for seed in range(6):
        game = GAMES["tronimoes"].new(3, seed=seed)
        while game.outcome() is None:
            mover = game.to_move()[0]
            game.apply(mover, rng.choice(game.legal_actions(mover)))
        table = table_of(3)
        fair = placements(table, game)
        assert fair is not None
        winner = min(fair, key=lambda p: (p.rank, p.seat)).seat
        placed = placements(table, game, {winner})
        assert placed is not None
        mine = next(p for p in placed if p.seat == winner)
        others = [p for p in placed if p.seat != winner]
        assert mine.rank > max(p.rank for p in others) and mine.outcome == "loss"
        before = {p.seat: p.rank for p in fair if p.seat != winner}
        assert sorted(others, key=lambda p: p.rank) == sorted(others, key=lambda p: before[p.seat])
        assert min(p.rank for p in others) == 1
