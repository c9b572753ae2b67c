"""A tournament's standings as the bot shows them: a picture and its description on every
standings message, the table ranked as the tournament crowns its winner, a league's movement
marked, pods ranked by their placings; in English and Spanish. Real referee, real database
(SQLite and PostgreSQL), real PNGs."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.core.i18n import speaking
from bot.core.replies import Attachment
from bot.storage.tournaments import FINISHED, RUNNING, TournamentMessage
from bot.tournaments.presentation import standings_view, tables
from bot.tournaments.records import standing_order
from tests.bot.tournaments.helpers import running_event

HOUR = 3600.0


@pytest.fixture
async def event(database):
    async with running_event(database) as event:
        yield event


async def _finish(event, tid: int, winner=lambda board: 0) -> None:
    while (await event.view(tid)).tournament.status == RUNNING:
        await event.play_out(tid, winner)
        await event.step()


async def test_every_standings_message_carries_the_picture_and_its_description(event):
    pictures: list[tuple[str, Attachment]] = []

    async def post(message: TournamentMessage, attachments: list[Attachment]) -> None:
        pictures.extend((message.key, a) for a in attachments)

    event.runner.post = post
    tid = await event.new("tromino_go", "swiss", 6, rounds=3)
    await event.step(HOUR)
    await _finish(event, tid)
    assert (await event.view(tid)).tournament.status == FINISHED
    keys = [key for key, _ in pictures]
    assert len(keys) >= 3 and "final" in keys
    view = await event.view(tid)
    for _, attachment in pictures:
        image = Image.open(io.BytesIO(attachment.data))
        assert image.format == "PNG" and image.width == 960
        assert attachment.description and len(attachment.description) <= 1024
        assert all(entrant.name in attachment.description for entrant in view.entrants)


async def test_the_table_ranks_players_as_the_tournament_crowns_them(event):
    tid = await event.new("tromino_go", "swiss", 6, rounds=3)
    await event.step(HOUR)
    await _finish(event, tid, winner=lambda board: board.board % 2)
    view = await event.view(tid)
    (table,) = tables(view)
    assert [row.player for row in table.rows] == standing_order(view)
    assert [row.points for row in table.rows] == sorted((row.points for row in table.rows), reverse=True)
    assert sum(row.points for row in table.rows) == 9.0


async def test_a_leagues_tables_mark_who_goes_up_and_who_goes_down(event):
    tid = await event.new("tromino_go", "league", 6, division_size=3)
    await event.step(HOUR)
    await _finish(event, tid)
    view = await event.view(tid)
    top, bottom = tables(view)
    assert (top.division, bottom.division) == (1, 2)
    assert [row.movement for row in top.rows] == [None, None, "down"]
    assert [row.movement for row in bottom.rows] == ["up", None, None]
    shown = standings_view(view, bottom)
    assert shown.movement[0] == "up" and shown.moves["up"] == "promoted"
    assert shown.subtitle.startswith("Division 2")


async def test_pods_rank_by_points_then_placings_then_tablemates(event):
    tid = await event.new("tetromic", "pods", 8, rounds=2, seats=4)
    await event.step(HOUR)
    await _finish(event, tid)
    view = await event.view(tid)
    (table,) = tables(view)
    assert table.order == ("PL", "TM")
    assert [row.player for row in table.rows] == standing_order(view)
    shown = standings_view(view, table)
    assert shown.columns[3:] == ("Places", "Mates")


async def test_a_spanish_table_is_headed_in_spanish(event):
    tid = await event.new("tromino_go", "swiss", 4, rounds=2)
    await event.step(HOUR)
    await _finish(event, tid)
    view = await event.view(tid)
    with speaking("es"):
        shown = standings_view(view, tables(view)[0])
    assert shown.columns[1:3] == ("Jugador", "Ptos")
    assert "Buchholz" in shown.note and "encuentro directo" in shown.spoken
