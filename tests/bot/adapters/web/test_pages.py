"""What the spectator page says, read as HTML: round headings and jumps, the board's text
alternative, the clock outside the live region, the players' ratings and the winner, the link
preview's tags; and the downloads (the replay GIF, the record in notation and its positions)
and Tetromic's boards one at a time, served with the page."""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from html import unescape

import aiohttp
from PIL import Image

import renderers
from bot.adapters.web import pages
from bot.core.i18n import speaking
from bot.media.spectator import Entry, Spectacle
from bot.storage.standings import Rating
from tests.bot.adapters.web.conftest import PLACE, Site, open_table, play_moves, players


async def fetch(site: Site, path: str) -> tuple[int, dict[str, str], bytes]:
    async with aiohttp.ClientSession() as session, session.get(site.base + path) as response:
        return response.status, dict(response.headers), await response.read()


async def spectacle_of(site: Site, path: str, ply: int | None = None) -> Spectacle:
    table = await site.referee.store.table_by_token(path.removeprefix("/t/"))
    assert table is not None
    timeline = site.web.timelines.get(table, await site.referee.store.actions(table.id))
    return timeline.spectacle(ply)


def tag(html: str, name: str) -> str:
    found = re.search(rf'<meta property="{re.escape(name)}" content="([^"]*)">', html)
    return unescape(found.group(1)) if found else ""


async def test_each_round_gets_a_heading_and_a_jump_to_its_first_move(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 5)
    real = await spectacle_of(site, path)
    entries = [Entry(ply, 0, "Player0", f"move{ply}", (), round_end=ply in (2, 4)) for ply in range(1, 6)]
    shown = replace(real, entries=entries, ply=3, last=5)
    with speaking("en"):
        html = pages.main_part(shown, "token")
    assert re.findall(r'<h3 id="round-(\d)">Round \d</h3>', html) == ["1", "2", "3"]
    items = re.findall(r'<li value="(\d)"[^>]*>(<h3[^>]*>[^<]*</h3>)?', html)
    assert [(ply, bool(heading)) for ply, heading in items] == [("1", True), ("2", False), ("3", True),
                                                                 ("4", False), ("5", True)]
    assert re.findall(r'data-ply="(\d)" data-round="(\d)"', html) == [("1", "1"), ("3", "2"), ("5", "3")]
    assert re.search(r'<li value="3"[^>]*aria-current="step"', html)
    with speaking("en"):
        assert pages.move_items(shown, 4).startswith('<li value="4"')
        assert '<h3 id="round-3">' in pages.move_items(shown, 4)


async def test_a_game_without_rounds_lists_its_moves_without_headings(site: Site) -> None:
    path = await open_table(site.referee, "tronix")
    await play_moves(site.referee, "tronix", 3)
    _status, _headers, body = await fetch(site, path)
    assert "<h3" not in body.decode() and 'class="rounds"' not in body.decode()


async def test_the_boards_text_says_whose_turn_the_scores_the_last_move_and_the_board(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 3)
    spectacle = await spectacle_of(site, path)
    with speaking("en"):
        alt = pages.board_alt(spectacle)
    mover = next(p for p in spectacle.players if p["seat"] in spectacle.to_move)
    assert alt.startswith("The board after move 3 of 3.")
    assert f"{mover['name']} (seat {mover['seat'] + 1}) to move." in alt and "Scores: Player0 " in alt
    assert "Last move: " in alt and spectacle.entries[2].action in alt
    assert "Lines: " in alt, "and the board in words"
    _status, _headers, body = await fetch(site, path)
    shown = re.search(r'<img class="whole"[^>]* alt="([^"]*)"', body.decode())
    assert shown and unescape(shown.group(1)) == alt, "the page's picture has that text"


async def test_the_clock_ticks_outside_the_one_polite_live_region(site: Site) -> None:
    path = await open_table(site.referee, "tronix")
    await play_moves(site.referee, "tronix", 2)
    _status, _headers, body = await fetch(site, path)
    html = body.decode()
    assert html.count("aria-live") == 1 and 'id="announce" class="visually-hidden" aria-live="polite"' in html
    assert 'role="status"' not in html
    announcer = html.index('id="announce"')
    assert html.index("</p>", announcer) < html.index('class="clock"'), "the announcer holds no clock"


async def test_a_link_preview_names_the_players_and_shows_the_board_at_an_absolute_address(site: Site) -> None:
    path = await open_table(site.referee, "triominoes")
    await play_moves(site.referee, "triominoes", 2)
    _status, _headers, body = await fetch(site, f"{path}?ply=1")
    html = body.decode()
    assert tag(html, "og:title") == "Triominoes: Player0 · Player1"
    assert re.fullmatch(re.escape(f"{site.base}{path}/board/") + r"1-[0-9a-f]{16}\.png", tag(html, "og:image"))
    assert tag(html, "og:url") == f"{site.base}{path}?ply=1"
    assert "Replay: after move 1 of 2." in tag(html, "og:description")
    assert tag(html, "og:image:alt").startswith("The board after move 1 of 2.")


async def test_a_link_preview_uses_the_public_address_when_there_is_one(site: Site) -> None:
    path = await open_table(site.referee, "tronix")
    site.web.public_url = "https://tiles.example.org"
    _status, _headers, body = await fetch(site, path)
    image = tag(body.decode(), "og:image")
    assert re.fullmatch(re.escape(f"https://tiles.example.org{path}/board/") + r"0-[0-9a-f]{16}\.png", image)


async def test_the_lobby_previews_who_is_seated(site: Site) -> None:
    reply = await site.referee.create(PLACE, players("tronimoes")[0], "tronimoes")
    link = re.search(r"https?://\S+(/t/[\w-]+)", reply.public.text if reply.public else "")
    assert link
    _status, _headers, body = await fetch(site, link.group(1))
    assert tag(body.decode(), "og:title") == "Tronimoes: Player0"
    assert tag(body.decode(), "og:image") == ""


async def test_the_winner_is_marked_and_ratings_shown_when_known(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    await play_moves(site.referee, "tronimoes", 2)
    assert (await site.referee.resign(PLACE, players("tronimoes")[0])).ok
    spectacle = await spectacle_of(site, path)
    with speaking("en"):
        html = pages.main_part(spectacle, "token", pages.Extras(ratings={0: "1480", 1: "1520 (provisional)"}))
    assert re.search(r'<tr class="winner"><th scope="row">Player1</th>.*?🏆 winner', html)
    assert '<th scope="col">Rating</th>' in html and "<td>1520 (provisional)</td>" in html
    with speaking("en"):
        assert "Rating" not in pages.main_part(spectacle, "token")


async def test_the_record_downloads_as_notation_and_as_every_public_position(site: Site) -> None:
    path = await open_table(site.referee, "tronimoes")
    played = await play_moves(site.referee, "tronimoes", 4)
    status, headers, body = await fetch(site, f"{path}/record.txt")
    assert status == 200 and "attachment" in headers["Content-Disposition"]
    lines = body.decode().splitlines()
    assert lines[0] == "Tronimoes · tileref" and lines[1] == "Players: Player0, Player1"
    assert [line.split(".")[0] for line in lines if re.match(r"\d+\. ", line)] == [str(p) for p in
                                                                                   range(1, played + 1)]
    status, headers, body = await fetch(site, f"{path}/record.json")
    record = json.loads(body)
    assert status == 200 and len(record["moves"]) == played and len(record["positions"]) == played + 1
    for position in record["positions"]:
        assert all("hand" not in seat for seat in position["position"]["seats"]), "no hand is shown"
        assert "bag" not in position["position"]


async def test_the_replay_downloads_as_an_animated_gif(site: Site) -> None:
    path = await open_table(site.referee, "tromino_go")
    played = await play_moves(site.referee, "tromino_go", 2)
    status, headers, body = await fetch(site, f"{path}/replay.gif")
    assert status == 200 and headers["Content-Type"] == "image/gif"
    image = Image.open(io.BytesIO(body))
    assert image.format == "GIF" and image.n_frames == played + 1


async def test_tetromic_serves_each_board_alone_and_refuses_a_board_it_has_not(site: Site) -> None:
    path = await open_table(site.referee, "tetromic")
    await play_moves(site.referee, "tetromic", 2)
    _status, _headers, whole = await fetch(site, f"{path}/board.png?ply=1")
    status, _headers, alone = await fetch(site, f"{path}/board.png?ply=1&part=1")
    assert status == 200
    assert Image.open(io.BytesIO(alone)).width < Image.open(io.BytesIO(whole)).width
    for bad in ("2", "-1", "²", "1x"):
        status, _headers, body = await fetch(site, f"{path}/board.png?ply=1&part={bad}")
        assert status == 400 and "part is the number of one board, from 0 to 1" in body.decode()
    _status, _headers, page = await fetch(site, path)
    assert page.decode().count('class="part"') == 2


async def test_a_spectators_board_has_no_players_instructions(site: Site) -> None:
    path = await open_table(site.referee, "triominoes")
    await play_moves(site.referee, "triominoes", 1)
    table = await site.referee.store.table_by_token(path.removeprefix("/t/"))
    assert table is not None
    game = site.web.timelines.get(table, await site.referee.store.actions(table.id)).game_at(1)
    status, _headers, body = await fetch(site, f"{path}/board.png?ply=1")
    assert status == 200
    with speaking("en"):
        assert body == renderers.render(game, None, instructions=False)
        assert body != renderers.render(game, None)  # which tells how to type a move


async def test_the_players_ratings_on_the_tables_server_show_beside_them(site: Site) -> None:
    seated = players("tronix")
    reply = await site.referee.create("test:rated", seated[0], "tronix", guild="guild:1")
    for user in seated[1:]:
        assert (await site.referee.join("test:rated", user)).ok
    assert (await site.referee.start("test:rated", seated[0])).ok
    link = re.search(r"https?://\S+(/t/[\w-]+)", reply.public.text if reply.public else "")
    assert link
    settled = Rating("guild:1", "tronix", seated[0].id, seated[0].name, mu=27.0, sigma=2.0, games=12, wins=8)
    elsewhere = Rating("guild:2", "tronix", seated[1].id, seated[1].name, mu=30.0, sigma=2.0, games=12, wins=9)
    await site.referee.store.standings.replace_all([], [settled, elsewhere])
    _status, _headers, body = await fetch(site, link.group(1))
    html = body.decode()
    assert '<th scope="col">Rating</th>' in html
    rows = re.findall(r'<tr[^>]*><th scope="row">(Player\d)[^<]*(?:<span[^>]*>[^<]*</span>)?</th>'
                      r'<td class="score">[^<]*</td><td>([^<]*)</td>', html)
    assert rows == [("Player0", str(settled.shown)), ("Player1", "")], \
        "this server's rating shows; one on another server does not"
