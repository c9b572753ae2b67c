"""The FIDE Tournament Report File puts every field in its columns."""

from engine.pairing.records import Board, Bye, Result, Round, SatOut
from engine.pairing.trf import Entrant, Event, report

EVENT = Event("Autumn Swiss", "2026/11/01", "2026/11/20", "Individual: Swiss-System (Dutch)", 5)
ENTRANTS = [Entrant(1, "Ana Pérez", 1600), Entrant(2, "Bo", 1500), Entrant(3, "Cy")]


def _player_lines(text):
    return {int(line[4:8]): line for line in text.splitlines() if line.startswith("001")}


def test_the_header_names_the_event_its_rounds_and_the_first_seat_as_white():
    text = report(EVENT, ENTRANTS, [])
    assert "012 Autumn Swiss" in text.splitlines()
    assert "062 3" in text.splitlines()
    assert "XXR 5" in text.splitlines() and "XXC white1" in text.splitlines()


def test_a_player_line_has_each_field_in_its_columns():
    rounds = [Round((Board(1, 2, Result.DRAWN),), (SatOut(3, Bye.ALLOCATED),)),
              Round((Board(3, 1, Result.FIRST_WON),), (SatOut(2, Bye.HALF_POINT),))]
    lines = _player_lines(report(EVENT, ENTRANTS, rounds))
    ana = lines[1]
    assert ana[14:47].rstrip() == "Ana Pérez"
    assert ana[48:52] == "1600"
    assert ana[80:84] == " 0.5"
    assert ana[91:101] == "   2 w =  "
    assert ana[101:109] == "   3 b 0"
    cy = lines[3]
    assert cy[80:84] == " 2.0" and cy[85:89] == "   1"
    assert cy[91:99] == "0000 - U"
    assert lines[2][101:109] == "0000 - H"


def test_only_finished_rounds_are_reported():
    rounds = [Round((Board(1, 2, Result.SECOND_WON),), (SatOut(3),)), Round((Board(2, 3),), (SatOut(1),))]
    lines = _player_lines(report(EVENT, ENTRANTS, rounds))
    assert len(lines[2].rstrip()) <= 99


def test_a_forfeit_is_written_plus_and_minus():
    rounds = [Round((Board(1, 2, Result.FIRST_WON_BY_FORFEIT),), (SatOut(3),))]
    lines = _player_lines(report(EVENT, ENTRANTS, rounds))
    assert lines[1][91:99] == "   2 w +" and lines[2][91:99] == "   1 b -"
