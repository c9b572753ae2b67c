"""A tournament exports its results as a FIDE Tournament Report File: what `/tournament export`
attaches and `tileref tournament export` writes reads back to the rounds the bot played, on a
real referee and database (SQLite and PostgreSQL); formats TRF cannot hold are refused, saying
what to use instead."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from bot.core.refusals import Refused
from bot.tournaments.export import export_trf
from bot.tournaments.ranking import tables
from bot.tournaments.records import two_player_rounds
from engine.pairing.trf import DUTCH, parse
from tests.bot.tournaments.helpers import running_event

HOUR = 3600.0


@pytest.fixture
async def event(database):
    async with running_event(database) as event:
        yield event


async def _play_rounds(event, tid: int, rounds: int) -> None:
    for _ in range(rounds):
        await event.play_out(tid, winner=lambda board: board.board % 2)
        await event.step()


async def test_a_swiss_exports_every_finished_round_and_reads_back_to_them(event):
    tid = await event.new("tromino_go", "swiss", 7, rounds=3)
    await event.step(HOUR)
    await _play_rounds(event, tid, 3)
    view = await event.view(tid)
    name, data = await export_trf(event.referee.store, tid)
    assert name.endswith(f"-{tid}.trf")
    back = parse(data.decode("utf-8"))
    assert back.event.system == DUTCH and back.event.rounds_planned == 3 and len(back.event.round_dates) == 3
    assert [e.name for e in back.entrants] == [e.name for e in view.entrants]
    played = two_player_rounds(view)
    assert [set(r.boards) for r in back.rounds] == [set(r.boards) for r in played]
    assert [set(r.sat_out) for r in back.rounds] == [set(r.sat_out) for r in played]
    assert back.points == {row.player: row.points for row in tables(view)[0].rows}


async def test_a_running_swiss_exports_its_finished_rounds_and_who_will_not_be_paired_next(event):
    tid = await event.new("tromino_go", "swiss", 6, rounds=3)
    await event.step(HOUR)
    await _play_rounds(event, tid, 1)
    await event.play_out(tid)
    view = await event.view(tid)
    assert view.tournament.current_round == 2
    _, data = await export_trf(event.referee.store, tid)
    back = parse(data.decode("utf-8"))
    assert len(back.rounds) == 1 and back.absent == frozenset()


async def test_pods_have_no_fide_report_and_say_where_the_standings_are(event):
    tid = await event.new("tetromic", "pods", 8, rounds=2, seats=4)
    with pytest.raises(Refused, match="two-player Swiss or round robin"):
        await export_trf(event.referee.store, tid)


async def test_an_unknown_tournament_is_refused_saying_how_to_find_one(event):
    with pytest.raises(Refused, match="/tournament list"):
        await export_trf(event.referee.store, 999)


async def _tileref(*args: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", *args, stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.PIPE)
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_tileref_tournament_export_writes_the_same_file(event, database, tmp_path: Path):
    tid = await event.new("tromino_go", "round_robin", 4)
    await event.step(HOUR)
    await _play_rounds(event, tid, 3)
    name, data = await export_trf(event.referee.store, tid)
    code, _, err = await _tileref("--db", database, "tournament", "export", str(tid), "--out", str(tmp_path))
    assert code == 0, err
    assert (tmp_path / name).read_bytes() == data
    code, _, err = await _tileref("--db", database, "tournament", "export", "999")
    assert code == 2 and "no tournament #999" in err
