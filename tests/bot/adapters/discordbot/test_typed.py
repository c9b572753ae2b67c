"""Moves typed in a table's thread (bot/adapters/discordbot/typed.py) get the same answer as the
same text sent with `/move`: a move written in the game's notation that the rules refuse is
answered (the reason, which may be about the player's hand, by DM; the thread hears only that it
was refused), whether it names a tile the player does not hold or one the set does not have.
Only text that is not written in the notation at all is left alone as conversation."""

from __future__ import annotations

import asyncio

from engine.tronimoes.board import full_set, tile_name
from tests.bot.adapters.discordbot.harness import Harness
from tests.standin import Channel, User

NOTE = "That move was refused; I sent you the reason privately."


async def typed_and_slash_say_the_same(tileref: Harness, thread: Channel, user: User, text: str) -> str:
    """Type `text` in the thread as `user`, then send it with `/move`: the thread gets only the
    short note and a ❌ on the message, `user` gets the reason by DM, and it is the reason
    `/move` gives (privately). Returns that reason; nothing is played."""
    s = tileref.s
    moves = len((await tileref.game(thread)).log)
    mark = s.mark()
    said = await s.say(user, thread, text)
    answer = await said.reply()
    assert answer.content == NOTE, (text, answer.content)
    assert answer.payload["message_reference"]["message_id"] == str(said.message.id)
    dm = await s.wait_for_message(predicate=lambda m: m.guild_id is None and "was refused" in m.content, since=mark)
    assert s.channels[dm.channel_id].recipient is user
    await s.wait_until(lambda: s.live_message(thread.id, said.message.id).reactions == {"❌": {s.bot_user.id}},
                       timeout=5, what="the ❌ on the refused message")
    public = [m for m in s.messages[mark:] if m.kind == "create" and m.guild_id is not None]
    assert public == [answer], [m.content for m in public]
    slashed = await (await s.slash(user, thread, "move", text=text)).reply()
    assert slashed.ephemeral
    assert dm.content.endswith(f"was refused: {slashed.content}"), (dm.content, slashed.content)
    assert len((await tileref.game(thread)).log) == moves
    return slashed.content


async def test_a_typed_tronimoes_tile_not_held_or_not_in_the_set_gets_the_answer_move_gives(
        tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    game = await tileref.game(thread)
    seat = game.to_move()[0]
    user = (s.alice, s.bob)[seat]
    held = set(game.view(seat)["hand"])
    missing = next(tile_name(t) for t in full_set(game.max_pips) if tile_name(t) not in held)
    assert game.max_pips < 9  # two players: pips run 0-7, so there is no 9:9
    assert await typed_and_slash_say_the_same(tileref, thread, user, "9:9 c4 d4") == (
        f"There is no 9:9 in this game: pips run 0–{game.max_pips}.")
    assert await typed_and_slash_say_the_same(tileref, thread, user, f"{missing} c4 d4") == (
        f"You do not have {missing}.")
    said = await typed_and_slash_say_the_same(tileref, thread, user, f"{missing} c4 e4")
    assert said.startswith("c4 and e4 are not next to each other")  # a square is written as typed
    mark = s.mark()
    for chat in ("2", "good game", "👍 5"):  # not a move at all: conversation, left alone
        await s.say(user, thread, chat)
    await asyncio.sleep(0.5)
    assert not [m for m in s.messages[mark:] if m.kind == "create" and m.author_id == s.bot_user.id]


async def test_a_typed_tronix_card_not_held_or_off_the_table_gets_the_answer_move_gives(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob, game="tronix")
    game = await tileref.game(thread)
    seat = game.to_move()[0]
    user = (s.alice, s.bob)[seat]
    assert set(game.view(seat)["hand"]) == {"CX"}  # the default deck deals only CX cards
    assert await typed_and_slash_say_the_same(tileref, thread, user, "play xx 0,0 NE") == "You hold no XX card."
    assert await typed_and_slash_say_the_same(tileref, thread, user, "play 1000,0 NE") == (
        "Coordinates run from -999 to 999.")


async def test_a_typed_triominoes_tile_not_held_gets_the_answer_move_gives(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob, game="triominoes")
    game = await tileref.game(thread)
    seat = game.to_move()[0]
    user = (s.alice, s.bob)[seat]
    held = set(game.view(seat)["hand"])
    missing = next(f"{a}-{b}-{c}" for a, b, c in ((a, b, c) for a in range(6) for b in range(a, 6) for c in range(b, 6))
                   if f"{a}-{b}-{c}" not in held)
    assert await typed_and_slash_say_the_same(tileref, thread, user, f"{missing} r0c0") == f"You do not hold {missing}."
