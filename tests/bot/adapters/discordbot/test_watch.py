"""On Discord, the table's first message in its thread and /watch give the web page's link;
/replay gives it too, and `/replay gif:True` posts an animated replay for everyone."""

from __future__ import annotations

import re

from tests.bot.adapters.discordbot.harness import Harness


async def test_lobby_message_and_watch_give_the_tables_web_link(tileref: Harness) -> None:
    s = tileref.s
    tileref.referee.public_url = "https://watch.example"
    thread, lobby = await tileref.open_table(s.alice, s.bob, start=False)
    link = re.search(r"https://watch\.example/t/[\w-]{24}", lobby.content)
    assert link, lobby.content
    watched = await (await s.slash(s.carol, thread, "watch")).reply()
    assert watched.ephemeral and link.group(0) in watched.content
    replayed = await (await s.slash(s.carol, thread, "replay")).reply()
    assert replayed.ephemeral and link.group(0) in replayed.content


async def test_replay_gif_posts_an_animation_in_the_thread(tileref: Harness) -> None:
    s = tileref.s
    thread, _opening = await tileref.open_table(s.alice, s.bob)
    game = await tileref.game(thread)
    table = await tileref.table(thread)
    seat = game.to_move()[0]
    mover = s.alice if table.seats[seat].user_id == f"discord:{s.alice.id}" else s.bob
    moved = await (await s.slash(mover, thread, "move", text=game.legal_actions(seat)[0])).reply()
    assert not moved.ephemeral, moved.content
    posted = await (await s.slash(s.carol, thread, "replay", gif=True)).reply()
    assert not posted.ephemeral
    assert [name for name, _ in posted.attachments] == ["tronimoes-replay.gif"]


async def test_watch_without_a_web_server_says_so(tileref: Harness) -> None:
    s = tileref.s
    thread, _lobby = await tileref.open_table(s.alice, start=False)
    answer = await (await s.slash(s.bob, thread, "watch")).reply()
    assert answer.ephemeral and "web server is off" in answer.content
