"""A tournament's standings as the bot shows them: a picture and its description on every
standings message, the table ranked as the tournament crowns its winner, a league's movement
marked, pods ranked by their placings; in English and Spanish. Real referee, real database
(SQLite and PostgreSQL), real PNGs."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from PIL import Image

from bot.core.i18n import speaking
from bot.core.replies import Attachment
from bot.storage.tournaments import FINISHED, RUNNING, TournamentMessage
from bot.tournaments.page import WATCH, page_path
from bot.tournaments.pairing import smallest_table
from bot.tournaments.presentation import standings_view, tables
from bot.tournaments.ranking import standing_order
from bot.tournaments.records import pod_rounds
from engine.pairing import pods
from tests.bot.tournaments.helpers import running_event

HOUR = 3600.0


@pytest.fixture
async def event(database):
    async with running_event(database) as event:
        yield event


async def _finish(event, tid: int, winner=lambda board: 0) -> None:
    """Play the tournament to its end, each round's games won by the seat `winner(board)` while
    the others resign (a round that does not finish so fails the test instead of waiting)."""
    for _round in range((await event.view(tid)).tournament.rounds):
        if (await event.view(tid)).tournament.status != RUNNING:
            break
        await event.play_out(tid, winner)
        await event.step()
    assert (await event.view(tid)).tournament.status != RUNNING


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


async def test_a_leagues_standings_message_shows_every_division(event):
    posted: list[tuple[str, list[Attachment]]] = []

    async def post(message: TournamentMessage, attachments: list[Attachment]) -> None:
        posted.append((message.key, attachments))

    event.runner.post = post
    tid = await event.new("tromino_go", "league", 6, division_size=3)
    await event.step(HOUR)
    await _finish(event, tid)
    with_pictures = [attachments for _key, attachments in posted if attachments]
    assert with_pictures
    for attachments in with_pictures:
        assert [a.filename for a in attachments] == ["standings-division-1.png", "standings-division-2.png"]
        assert "Division 1" in attachments[0].description and "Division 2" in attachments[1].description


async def test_the_announcement_standings_and_final_message_link_the_tournaments_page(event):
    texts: dict[str, str] = {}

    async def post(message: TournamentMessage, attachments: list[Attachment]) -> None:
        texts[message.key] = message.data["text"]

    event.runner.post = post
    event.referee.public_url = "https://tileref.example/"
    tid = await event.new("tromino_go", "swiss", 4, rounds=2)
    await event.step(HOUR)
    await _finish(event, tid)
    token = (await event.view(tid)).tournament.options[WATCH]
    link = "https://tileref.example" + page_path(tid, token)
    linked = [key for key, text in texts.items() if link in text]
    assert "announce" in linked and "final" in linked and "standings:1" in linked
    assert not any(key.startswith("round:") for key in linked)


async def test_pods_rank_by_points_then_placings_then_tablemates(event):
    # Tronimoes: when all but one resign the game is over (Tetromic's last player plays on alone)
    tid = await event.new("tronimoes", "pods", 8, rounds=2, seats=4)
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


async def test_pods_at_unequal_tables_are_paired_in_the_order_the_standings_show(event):
    tid = await event.new("tronimoes", "pods", 7, rounds=3, seats=4)
    await event.step(HOUR)
    assert sorted(len(b.players) for b in (await event.view(tid)).round(1).boards) == [3, 4]
    for number in (1, 2):
        await event.play_out(tid, winner=lambda board: len(board.players) - 1)
        await event.step()
        view = await event.view(tid)
        assert view.tournament.current_round == number + 1
        shown = [row.player for row in tables(view)[0].rows]
        assert standing_order(view) == shown
        played = [[t[0] for t in round_] for round_ in pod_rounds(view)[:number]]
        expected = pods.pair_pods(shown, 4, smallest_table("tronimoes", 4), pods.tablemates(played),
                                  seats_taken_before(view, number + 1))
        assert [list(b.players) for b in view.round(number + 1).boards] == expected


def seats_taken_before(view, number: int):
    """How often each player sat in each seat in the rounds before `number`."""
    taken: dict[int, Counter[int]] = {}
    for stored in view.rounds:
        if stored.number < number:
            for board in stored.boards:
                for seat, player in enumerate(board.players):
                    taken.setdefault(player, Counter())[seat] += 1
    return taken


async def test_a_winner_level_on_points_is_told_by_the_tie_break_that_put_them_ahead(event):
    tid = await event.new("tromino_go", "round_robin", 4)
    await event.step(HOUR)
    await _finish(event, tid)  # the first seat wins every game: P1 and P2 end on 2 points, P1 beat P2
    final = event.posted.text("final")
    assert "P1 wins it! Level on points with P2, ahead on direct encounter: 1 to 0." in final
    assert "\n1. P1 — 2\n2. P2 — 2\n" in final


async def test_players_equal_on_points_and_every_tie_break_share_their_place(event):
    tid = await event.new("tromino_go", "round_robin", 3)
    await event.step(HOUR)
    await _finish(event, tid)  # each beats one and loses to the other: a circle
    final = event.posted.text("final")
    assert "P1, P2 and P3 share first place!" in final and "wins it" not in final
    assert final.endswith("1. P1 — 1\n1. P2 — 1\n1. P3 — 1")


async def test_the_final_message_says_how_the_tie_was_broken_in_spanish(event):
    tid = await event.new("tromino_go", "round_robin", 4, language="es")
    await event.step(HOUR)
    await _finish(event, tid)
    assert "Mismos puntos que P2; decide el desempate por encuentro directo: 1 a 0." in event.posted.text("final")
