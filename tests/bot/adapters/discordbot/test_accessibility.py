"""Text-first play through the real client and the Discord stand-in: `/accessibility text on`
sends a player, privately with each turn of theirs, the board in words and their legal moves
grouped; a player who reads only those direct messages (never a picture, never the engine)
plays a whole game of each game by typing in the thread what they offer."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.records import AI_TURN, FINISHED
from engine import GAMES
from tests.bot.adapters.discordbot.harness import Harness
from tests.bot.screen_reader_player import ScreenReaderPlayer, groups_in
from tests.standin import Channel, DiscordStandIn, RecordedMessage, User

LEAN = {"tronimoes": "", "triominoes": "rounds=1", "tromino_go": "", "tronix": "deck_size=12 quiet_limit=5",
        "tetromic": "width=4 height=5 target_level=2"}
"""Each game as small as its options make it, against one AI seat: whole games that stay quick."""


def dms(s: DiscordStandIn, user: User, since: int = 0) -> list[RecordedMessage]:
    channel = s.dm_channel(user)
    return [] if channel is None else [m for m in s.messages[since:] if m.channel_id == channel.id
                                       and m.kind == "create"]


def told_alone(s: DiscordStandIn, user: User, since: int) -> str:
    """What only `user` was told since `since`, in order: their direct messages, and the private
    answers to their own commands (the only person at these tables: every private answer is theirs)."""
    dm = s.dm_channel(user)
    return "\n".join(m.content for m in s.messages[since:]
                     if m.kind == "create" and ((dm is not None and m.channel_id == dm.id) or m.ephemeral))


async def table_against_a_bot(s: DiscordStandIn, game: str, options: str) -> Channel:
    """Alice's table of `game` with one AI seat, started."""
    extra = {"options": options} if options else {}
    announced = await (await s.slash(s.alice, s.channel, "tileref new", game=game, **extra)).reply()
    thread = await s.wait_for_thread(lambda t: t.id == announced.id)
    lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
    lobby = await (await s.click(s.alice, lobby, label="Add bot")).reply()
    await (await s.click(s.alice, lobby, label="Start")).replies(2)
    return thread


async def test_accessibility_text_on_and_off_answer_privately(tileref: Harness) -> None:
    s = tileref.s
    on = await (await s.slash(s.alice, s.channel, "accessibility", text="on")).reply()
    assert on.ephemeral and "board in words" in on.content and "/accessibility text off" in on.content
    assert await tileref.referee.store.standings.text_play_choices(["discord:" + str(s.alice.id)])
    off = await (await s.slash(s.alice, s.channel, "accessibility", text="off")).reply()
    assert off.ephemeral and "Text-first play is off" in off.content
    assert not await tileref.referee.store.standings.text_play_choices(["discord:" + str(s.alice.id)])


async def test_a_player_without_the_setting_gets_no_turns_in_words(tileref: Harness) -> None:
    s = tileref.s
    thread = await table_against_a_bot(s, "tromino_go", "")
    game = await tileref.game(thread)
    seat = (await tileref.table(thread)).seat_of("discord:" + str(s.alice.id))
    await (await s.say(s.alice, thread, game.legal_actions(seat)[0] if seat in game.to_move() else "hello")).reply()
    assert not [m for m in dms(s, s.alice) if "Your moves:" in m.content]


async def ai_done(tileref: Harness, thread: Channel) -> None:
    """Until the AI seat has no turn left to play: what alice is told next is not overtaken."""
    store, table_id = tileref.referee.store, (await tileref.table(thread)).id
    for _ in range(400):
        if not [t for t in await store.timers(table_id) if t.kind == AI_TURN]:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the AI seat never finished its turn")


async def turn_in_words_or_the_end(tileref: Harness, thread: Channel, since: int, timeout: float = 10) -> bool:
    """Wait until alice is told her moves in words since `since` (True) or the game is over (False)."""
    s = tileref.s
    await ai_done(tileref, thread)
    for _ in range(int(timeout / 0.05)):
        if (await tileref.table(thread)).status == FINISHED:
            return False
        if groups_in(told_alone(s, s.alice, since)) is not None:
            return True
        await asyncio.sleep(0.05)
    raise AssertionError("alice was never told her turn in words, and the game goes on")


@pytest.mark.parametrize("game", sorted(LEAN))
async def test_a_screen_reader_user_plays_a_whole_game_from_the_direct_messages_alone(tileref: Harness, game):
    s = tileref.s
    await (await s.slash(s.alice, s.channel, "accessibility", text="on")).reply()
    player = ScreenReaderPlayer(seed=5)
    read = s.mark()
    thread = await table_against_a_bot(s, game, LEAN[game])
    for _ in range(600):
        if not await turn_in_words_or_the_end(tileref, thread, read):
            break
        text = told_alone(s, s.alice, read)
        read = s.mark()
        move = player.choose(text)
        assert move is not None
        await s.say(s.alice, thread, move)
        await s.wait_until(lambda r=read: any(m.channel_id == thread.id for m in s.messages[r:]) or None,
                           timeout=10, what="the move's answer in the thread")
        refused = [m for m in s.messages[read:] if "refused" in m.content]
        assert not refused, (move, [m.content for m in refused])
    assert (await tileref.table(thread)).status == FINISHED
    assert player.moves_made >= 3
    title = GAMES[game].title
    assert all(title in text for text in player.heard), "every turn in words begins with the board described"
    jump = f"https://discord.com/channels/{s.guild.id}/{thread.id}"
    assert all(f"🔊 Your turn in **{title}**: {jump}" in text for text in player.heard), "with the way to the table"
