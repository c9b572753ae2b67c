"""How a game's end reaches the thread through Discord, whoever or whatever ended it: the last
move's announcement with the result and what it did to ratings, then the animated replay of the
whole game, posted once; and the rematch that follows."""

from __future__ import annotations

import asyncio

from bot.tables.core import REPLAY_LEASE
from tests.bot.adapters.discordbot.harness import Harness, confirmed
from tests.standin import Channel, DiscordStandIn, RecordedMessage


async def replays_in(s: DiscordStandIn, thread: Channel, since: int = 0) -> list[RecordedMessage]:
    return [m for m in s.messages[since:] if m.channel_id == thread.id and m.kind == "create"
            and any(name.endswith(".gif") for name, _ in m.attachments)]


async def the_replay(h: Harness, thread: Channel, since: int) -> RecordedMessage:
    """Let the outbox send the end-of-game replay (it waits a moment after the last move's
    message), and return it; fails if it is not posted exactly once."""
    await h.clock.advance(REPLAY_LEASE + 1)
    await h.referee.outbox.sweep()
    for _ in range(100):
        if await replays_in(h.s, thread, since):
            break
        await asyncio.sleep(0.05)
    await h.referee.outbox.sweep()
    posted = await replays_in(h.s, thread, since)
    assert len(posted) == 1, [m.content for m in posted]
    return posted[0]


async def test_a_game_ended_by_a_confirmed_resignation_gets_its_replay(tileref: Harness) -> None:
    """The resignation is a slash command answered by the interaction: the replay, a notice of
    its own, is not that answer and is posted after it."""
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob, game="tromino_go")
    mark = s.mark()
    _preview, ended = await confirmed(s, s.bob, thread, "resign")
    assert "wins" in ended.content, ended.content
    replay = await the_replay(tileref, thread, mark)
    assert replay.content.startswith("🎞️ The whole game, move by move.") and replay.id > ended.id


async def test_a_game_ended_by_a_slash_move_gets_its_replay(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, game="tetromic")
    mark = s.mark()
    for _ in range(200):
        game = await tileref.game(thread)
        if game.outcome() is not None:
            break
        await (await s.slash(s.alice, thread, "move", text=game.legal_actions(0)[0])).reply()
    assert (await tileref.table(thread)).status == "finished"
    await the_replay(tileref, thread, mark)


def rematch_threads(s: DiscordStandIn) -> list[Channel]:
    return [c for c in s.channels.values() if c.is_thread and "rematch" in c.name]


async def test_a_rematch_lobby_links_the_page_and_its_last_player_is_not_said_to_have_started_it(
        tileref: Harness) -> None:
    s = tileref.s
    tileref.referee.public_url = "http://127.0.0.1:8080"
    thread, _ = await tileref.open_table(s.alice, s.bob, game="tromino_go")
    _preview, ended = await confirmed(s, s.bob, thread, "resign")
    await (await s.click(s.alice, ended, label="Rematch")).reply()
    [again] = rematch_threads(s)
    lobby = await s.wait_for_message(again, lambda m: bool(m.buttons()))
    assert "👀 Watch it live and replay it on the web: http://127.0.0.1:8080/t/" in lobby.content
    answers = await (await s.click(s.bob, lobby, label="Join")).replies(2)
    closed = next(m for m in answers if m.id == lobby.id)
    assert "Everyone invited has joined, so the game started." in closed.content
    assert "Started by" not in closed.content


async def test_two_rematch_presses_at_once_open_one_thread(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob, game="tromino_go")
    _preview, ended = await confirmed(s, s.bob, thread, "resign")
    presses = await asyncio.gather(s.click(s.alice, ended, label="Rematch"), s.click(s.bob, ended, label="Rematch"))
    told = [(await press.reply()).content for press in presses]
    assert sum("opened a rematch" in t for t in told) == 1, told
    assert sum("a rematch is already open" in t.lower() for t in told) == 1, told
    assert len(rematch_threads(s)) == 1, [c.name for c in rematch_threads(s)]
