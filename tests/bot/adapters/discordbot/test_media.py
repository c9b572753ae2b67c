"""Reactions and the vision quest through Discord: `/react` posts a picked picture in the thread,
`/quest` keeps one as the player's chicken-foot, drawn on the next board; a server can have the
bot react to events. The picture service is the offline pack or a stand-in on 127.0.0.1."""

from __future__ import annotations

import asyncio

import renderers
from bot.adapters.discordbot.reactions import react_to_events
from bot.core.replies import Reply
from bot.media.search import Giphy, Klipy, Media, decoded
from engine import Event
from tests.bot.adapters.discordbot.harness import Harness, running
from tests.bot.media_standin import MediaStandIn
from tests.standin import DiscordStandIn, RecordedMessage


def picks(message: RecordedMessage) -> str:
    """The custom id of the pick menu on a results message."""
    for row in message.payload.get("components", []):
        for component in row.get("components", []):
            if component.get("custom_id", "").startswith("tileref:pick:"):
                return component["custom_id"]
    raise AssertionError(f"no pick menu on {message.content!r}")


async def test_react_shows_results_privately_and_posts_the_pick_in_the_thread(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    results = await (await s.slash(s.bob, thread, "react", query="victory")).reply()
    assert results.ephemeral and "tileref's own pictures" in results.content
    assert 1 <= len(results.payload.get("embeds", [])) <= 9 and results.png_images()
    mark = s.mark()
    await (await s.select(s.bob, results, picks(results), ["0"])).replies(1)
    posted = await s.wait_for_message(thread, lambda m: "reacts" in m.content and not m.ephemeral, since=mark)
    assert posted.content.startswith("**bob** reacts:") and posted.png_images()


async def test_react_outside_a_game_says_where_it_works(tileref: Harness) -> None:
    s = tileref.s
    answer = await (await s.slash(s.alice, s.channel, "react", query="cats")).reply()
    assert answer.ephemeral and "game threads" in answer.content


async def test_the_first_chicken_foot_sends_the_player_on_a_quest_and_the_pick_is_drawn(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    game = await tileref.game(thread)
    seat = game.to_move()[0]
    user = (s.alice, s.bob)[seat]
    await (await s.slash(user, thread, "draw")).replies(2)
    game = await tileref.game(thread)
    passing = next(a for a in game.legal_actions(seat) if a.startswith("pass"))
    foot = passing.split()[1:]
    answers = await (await s.slash(user, thread, "pass", **({"foot": foot[0]} if foot else {}))).replies(2)
    prompt = next(m for m in answers if m.ephemeral)
    assert "vision quest" in prompt.content and "/quest" in prompt.content

    results = await (await s.slash(user, thread, "quest", query="chicken foot")).reply()
    assert results.ephemeral
    chosen = await (await s.select(user, results, picks(results), ["0"])).reply()
    assert "Your chicken-foot is chosen" in chosen.content
    table = await tileref.table(thread)
    stored = await tileref.referee.store.pictures(table.id, "foot")
    assert list(stored) == [seat]

    other = (s.alice, s.bob)[1 - seat]
    game = await tileref.game(thread)
    move = game.legal_actions(1 - seat)[0]
    handle = await s.slash(other, thread, "move", text=move) if move[0].isdigit() else \
        await s.slash(other, thread, "draw")
    board = next(m for m in await handle.replies(1) if not m.ephemeral and m.png_images())
    game = await tileref.game(thread)
    shown = board.attachments[0][1]
    with_foot = renderers.render(game, feet={seat: decoded(stored[seat][0])})
    without = renderers.render(game)
    assert shown == with_foot and shown != without


async def test_quests_are_for_the_players_of_the_game(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    answer = await (await s.slash(s.carol, thread, "quest", query="chicken")).reply()
    assert answer.ephemeral and "Only the players" in answer.content


async def test_a_giphy_search_shows_its_attribution_and_its_pictures(standin: DiscordStandIn, tmp_path) -> None:
    s = standin
    async with MediaStandIn() as pictures, running(s, tmp_path / "t.sqlite3",
                                                   media=Media(Giphy("key", pictures.giphy_url))) as tileref:
        thread, _ = await tileref.open_table(s.alice, s.bob)
        results = await (await s.slash(s.alice, thread, "react", query="dance")).reply()
        assert "Powered by GIPHY" in results.content and len(results.payload["embeds"]) == 9
        assert all(e["image"]["url"].startswith(pictures.base_url) for e in results.payload["embeds"])
        mark = s.mark()
        await (await s.select(s.alice, results, picks(results), ["2"])).replies(1)
        posted = await s.wait_for_message(thread, lambda m: "reacts" in m.content, since=mark)
        assert "Powered by GIPHY" in posted.content and posted.png_images()
        assert pictures.requests["file:sticker-2.gif"] == 1


async def reactions_wanted(tileref: Harness, thread, wanted: bool = True) -> tuple[Reply, object]:
    """Event reactions turned on (or left off) for the test server; a reply announcing a kill,
    and the bot's own message of the opening board (the move the reaction answers)."""
    table = await tileref.table(thread)
    settings = await tileref.referee.settings(table.guild)
    settings.event_reactions = wanted
    await tileref.referee.store.save_settings(settings)
    kill = Reply(events=[Event("kill", "alice boxed in bob's line.", (0, 1), {"reaction": "skull"})],
                 table_id=table.id, place=table.place)
    channel = tileref.bot.get_channel(thread.id)  # type: ignore[attr-defined]
    move = await channel.history(limit=1).__anext__()  # the opening board
    return kill, move


async def test_a_server_that_wants_them_gets_reactions_to_events_as_replies_to_the_move(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    kill, move = await reactions_wanted(tileref, thread, wanted=False)
    mark = s.mark()
    await react_to_events(tileref.bot, tileref.referee, kill, move)  # type: ignore[arg-type]
    await s.settle()
    await asyncio.sleep(0.3)
    assert not [m for m in s.messages[mark:] if m.kind == "create"]  # off by default
    kill, move = await reactions_wanted(tileref, thread)
    await react_to_events(tileref.bot, tileref.referee, kill, move)  # type: ignore[arg-type]
    posted = await s.wait_for_message(thread, lambda m: m.png_images() and "🎞️" in m.content, since=mark)
    assert "tileref's own pictures" in posted.content
    assert posted.payload["message_reference"]["message_id"] == str(move.id)  # in context: a reply to the move


async def test_a_reaction_that_comes_too_late_is_dropped(standin: DiscordStandIn, tmp_path) -> None:
    s = standin
    async with MediaStandIn() as pictures, running(s, tmp_path / "t.sqlite3",
                                                   media=Media(Giphy("key", pictures.giphy_url))) as tileref:
        thread, _ = await tileref.open_table(s.alice, s.bob)
        kill, move = await reactions_wanted(tileref, thread)
        tileref.bot.reaction_deadline = 0.5  # type: ignore[attr-defined]
        pictures.delay = 1.0  # the picture service takes longer than that
        mark = s.mark()
        await react_to_events(tileref.bot, tileref.referee, kill, move)  # type: ignore[arg-type]
        await asyncio.sleep(2.0)
        await s.settle()
        assert pictures.requests["giphy"] == 1  # it was asked…
        assert not [m for m in s.messages[mark:] if m.kind == "create"]  # …and its late answer dropped
        pictures.delay = 0.0
        await react_to_events(tileref.bot, tileref.referee, kill, move)  # type: ignore[arg-type]
        posted = await s.wait_for_message(thread, lambda m: "🎞️" in m.content, since=mark)
        assert "Powered by GIPHY" in posted.content and posted.png_images()


async def test_a_provider_that_is_down_is_said_to_be_down(standin: DiscordStandIn, tmp_path) -> None:
    s = standin
    async with MediaStandIn() as pictures, running(s, tmp_path / "t.sqlite3",
                                                   media=Media(Giphy("key", pictures.giphy_url))) as tileref:
        thread, _ = await tileref.open_table(s.alice, s.bob)
        nothing = await (await s.slash(s.alice, thread, "react", query="broken cats")).reply()
        assert nothing.ephemeral and "not answering" in nothing.content and "tileref's own pictures" in nothing.content
        assert "try other words" in nothing.content
        results = await (await s.slash(s.alice, thread, "react", query="victory")).reply()  # the breaker is open
        assert "not answering" in results.content and "tileref's own pictures" in results.content
        assert results.png_images() and picks(results)


async def test_a_bad_picture_keeps_the_menu_so_another_can_be_picked(standin: DiscordStandIn, tmp_path) -> None:
    s = standin
    async with MediaStandIn() as pictures, running(s, tmp_path / "t.sqlite3",
                                                   media=Media(Klipy("key", pictures.klipy_url))) as tileref:
        thread, _ = await tileref.open_table(s.alice, s.bob)
        results = await (await s.slash(s.alice, thread, "react", query="notimage")).reply()
        refused = await (await s.select(s.alice, results, picks(results), ["0"])).reply()
        assert refused.content.startswith("That is not a picture I can read. Pick another")
        menu = picks(refused)  # still there
        again = await (await s.select(s.alice, refused, menu, ["0"])).reply()
        assert again.content.startswith("That is not a picture I can read.") and picks(again)
        assert pictures.requests["file:notimage.gif"] == 2
