"""What a table says about absent players (bot/core/absence.py): the `absent=` modes as typed, the
rule that applies at a table of its size, and who is away, kept in the table record."""

from __future__ import annotations

from bot.core import absence
from bot.core.records import SeatRecord, TableRecord


def table_of(players: int, **meta: object) -> TableRecord:
    return TableRecord(id=1, place="test:t", game="tronimoes", options={}, status="playing", created_by="test:a",
                       created_at=0.0, meta=dict(meta),
                       seats=[SeatRecord(s, f"p{s}", f"test:p{s}") for s in range(players)])


def test_the_absent_modes_are_read_in_any_case_and_with_a_hyphen() -> None:
    assert [absence.read_mode(t) for t in ("standin", "Stand-in", " SKIP ", "remove", "later", "")] == \
        ["standin", "standin", "skip", "remove", None, None]


def test_a_stand_in_is_the_default_at_three_seats_and_two_seats_keep_the_games_rule() -> None:
    assert absence.mode_of(table_of(3)) == absence.STANDIN
    assert absence.mode_of(table_of(6, absent="skip")) == absence.SKIP
    assert absence.mode_of(table_of(2, absent="remove")) is None


def test_who_is_away_survives_the_table_records_json_and_comes_back_once() -> None:
    table = table_of(4, ai_level="hard")
    absence.mark_away(table, 2, absence.STANDIN)
    absence.mark_away(table, 0, absence.SKIP)
    assert table.meta["away"] == {"2": "standin", "0": "skip"}  # JSON keys: strings
    assert absence.away(table) == {2: absence.STANDIN, 0: absence.SKIP}
    assert absence.played_by_ai(table, 2) and not absence.played_by_ai(table, 0)
    assert absence.standin_actor(table) == "standin:hard"
    assert absence.come_back(table, 2) and not absence.come_back(table, 2)
    assert absence.away(table) == {0: absence.SKIP}


def test_a_table_of_absent_players_and_no_one_else_has_no_one_present() -> None:
    table = table_of(3)
    for seat in (0, 1):
        absence.mark_away(table, seat, absence.SKIP)
    assert absence.any_present(table, [0, 1, 2]) and not absence.any_present(table, [0, 1])
    table.seats[1] = SeatRecord(1, "Pip", None, "normal")
    assert absence.any_present(table, [0, 1])  # an AI seat plays on
