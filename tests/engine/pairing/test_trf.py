"""The FIDE Tournament Report File puts every field in its columns, and reads back to the same
tournament."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from engine.pairing.records import Board, Bye, Result, Round, SatOut
from engine.pairing.trf import DUTCH, Entrant, Event, TrfError, parse, report

EVENT = Event("Autumn Swiss", "2026/11/01", "2026/11/20", "Individual: Swiss-System (Dutch)", 5,
              time_control="3 days a move", arbiter="tileref", round_dates=("26/11/01", "26/11/04"), system=DUTCH)
ENTRANTS = [Entrant(1, "Ana Pérez", 1600), Entrant(2, "Bo", 1500), Entrant(3, "Cy")]
W, L, D = Result.FIRST_WON, Result.SECOND_WON, Result.DRAWN


def _player_lines(text):
    return {int(line[4:8]): line for line in text.splitlines() if line.startswith("001")}


def test_the_header_names_the_event_its_rounds_and_the_first_seat_as_white():
    lines = report(EVENT, ENTRANTS, []).splitlines()
    assert "012 Autumn Swiss" in lines and "062 3" in lines and "072 2" in lines
    assert "122 3 days a move" in lines and "102 tileref" in lines
    assert "142 5" in lines and "152 W" in lines and f"192 {DUTCH}" in lines
    assert "XXR 5" in lines and "XXC white1" in lines


def test_each_rounds_date_starts_at_column_92():
    line = next(line for line in report(EVENT, ENTRANTS, []).splitlines() if line.startswith("132"))
    assert line[91:99] == "26/11/01" and line[101:109] == "26/11/04"


def test_a_round_robin_names_no_swiss_system_for_the_engines():
    robin = Event("Club", "2026/11/01", "2026/11/20", "Individual: round robin", 2)
    assert not any(line.startswith("192") for line in report(robin, ENTRANTS, []).splitlines())


def test_a_player_line_has_each_field_in_its_columns():
    rounds = [Round((Board(1, 2, D),), (SatOut(3, Bye.ALLOCATED),)),
              Round((Board(3, 1, W),), (SatOut(2, Bye.HALF_POINT),))]
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
    rounds = [Round((Board(1, 2, L),), (SatOut(3),)), Round((Board(2, 3),), (SatOut(1),))]
    lines = _player_lines(report(EVENT, ENTRANTS, rounds))
    assert len(lines[2].rstrip()) <= 99


def test_a_forfeit_is_written_plus_and_minus():
    rounds = [Round((Board(1, 2, Result.FIRST_WON_BY_FORFEIT),), (SatOut(3),))]
    lines = _player_lines(report(EVENT, ENTRANTS, rounds))
    assert lines[1][91:99] == "   2 w +" and lines[2][91:99] == "   1 b -"


def test_a_player_in_no_board_of_a_round_is_written_as_a_zero_point_bye():
    lines = _player_lines(report(EVENT, ENTRANTS, [Round((Board(1, 2, W),))]))
    assert lines[3][91:99] == "0000 - Z"


def test_players_absent_from_the_next_round_get_its_zero_point_bye():
    text = report(EVENT, ENTRANTS, [Round((Board(1, 2, W),), (SatOut(3),))], absent={2})
    assert _player_lines(text)[2][101:109] == "0000 - Z"
    back = parse(text)
    assert back.absent == {2} and len(back.rounds) == 1


def test_a_name_on_several_lines_or_too_long_keeps_the_columns():
    long = [Entrant(1, "Maximiliana\nWolfeschlegelsteinhausen-Bergerdorff", 1234), Entrant(2, "大卫 🐉")]
    lines = _player_lines(report(EVENT, long, [Round((Board(1, 2, W),))]))
    assert lines[1][14:47] == "Maximiliana Wolfeschlegelsteinhau" and lines[1][48:52] == "1234"
    assert lines[2][14:47].rstrip() == "大卫 🐉" and lines[2][80:84] == " 0.0"


FULL = [Entrant(n, name, rating) for n, name, rating in
        [(1, "Ana Pérez", 1710), (2, "Bo", 1650), (3, "大卫", 0), (4, "Dee", 1500), (5, "Ёлка", 1480),
         (6, "Fay", 0), (7, "Gus", 1200)]]
ROUNDS = [
    Round((Board(1, 5, W), Board(6, 2, D), Board(3, 7, Result.FIRST_WON_BY_FORFEIT)), (SatOut(4, Bye.ALLOCATED),)),
    Round((Board(4, 1, L), Board(2, 3, W), Board(5, 6, Result.SECOND_WON_BY_FORFEIT)), (SatOut(7, Bye.HALF_POINT),)),
    Round((Board(1, 2, D), Board(7, 4, Result.BOTH_FORFEITED), Board(3, 5, L)), (SatOut(6, Bye.ZERO_POINT),)),
]


def test_a_report_reads_back_to_the_same_tournament():
    text = report(EVENT, FULL, ROUNDS)
    back = parse(text)
    assert back.event == EVENT
    assert back.entrants == tuple(FULL)
    assert [sorted(r.boards, key=lambda b: b.first) for r in back.rounds] == \
        [sorted(r.boards, key=lambda b: b.first) for r in ROUNDS]
    assert [set(r.sat_out) for r in back.rounds] == [set(r.sat_out) for r in ROUNDS]
    assert back.points == {1: 2.5, 2: 2.0, 3: 1.0, 4: 1.0, 5: 1.0, 6: 1.5, 7: 0.5}
    assert report(back.event, back.entrants, back.rounds) == text


def test_a_file_whose_players_disagree_about_a_game_is_refused_saying_which():
    text = report(EVENT, FULL, ROUNDS).replace("   5 w 1", "   4 w 1", 1)
    with pytest.raises(TrfError, match="round 1"):
        parse(text)


def test_a_garbled_player_line_is_refused_naming_its_line():
    with pytest.raises(TrfError, match="line 2"):
        parse("012 x\n001    1      Short\n")


def _bbp() -> str | None:
    return os.environ.get("TILEREF_BBPPAIRINGS") or shutil.which("bbpPairings.exe") or shutil.which("bbpPairings")


@pytest.mark.skipif(_bbp() is None, reason="bbpPairings is not installed (TILEREF_BBPPAIRINGS names it)")
def test_bbppairings_checks_every_pairing_of_a_dutch_swiss_as_we_write_it_back(tmp_path: Path):
    """bbpPairings (built from its public source; TILEREF_BBPPAIRINGS names the binary) plays a
    23-player, 7-round Dutch Swiss with forfeits and byes; we read its file and write our own,
    and its checker re-pairs every round from ours and finds the same pairings."""
    binary = _bbp()
    assert binary
    model = tmp_path / "model.trf"
    config = tmp_path / "config.txt"
    config.write_text("PlayersNumber=23\nRoundsNumber=7\n")
    generated = tmp_path / "generated.trf"
    subprocess.run([binary, "--dutch", "-g", str(config), "-o", str(generated), "-s", "38"], check=True,
                   capture_output=True)
    back = parse(generated.read_text())
    model.write_text(report(back.event, back.entrants, back.rounds))
    checked = subprocess.run([binary, "--dutch", str(model), "-c"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Round #7" in checked.stdout and "Checker pairings" not in checked.stdout, checked.stdout
    # The check can fail: the same file claiming the other colour for the top player in round 1 does.
    flip = {"152 W": "152 B", "152 B": "152 W", "XXC white1": "XXC black1", "XXC black1": "XXC white1"}
    model.write_text("\n".join(flip.get(line, line) for line in model.read_text().splitlines()) + "\n")
    flipped = subprocess.run([binary, "--dutch", str(model), "-c"], capture_output=True, text=True)
    assert "Checker pairings" in flipped.stdout
