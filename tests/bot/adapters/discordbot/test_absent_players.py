"""Absent players through Discord: at a table of three, a player whose time runs out gets a
stand-in that the thread names, and `/back` (or `back` typed in the thread) gives them their turns
back; the lobby message is edited in place each time, saying who is away and who stands in."""

from __future__ import annotations

from bot.core import absence
from bot.core.meta import LOBBY_MESSAGE
from bot.core.records import DEADLINE
from tests.bot.adapters.discordbot.harness import Harness


async def _time_runs_out(tileref: Harness, thread) -> None:  # type: ignore[no-untyped-def]
    table = await tileref.table(thread)
    due = min(t.due for t in await tileref.referee.store.timers(table.id) if t.kind == DEADLINE)
    await tileref.clock.advance(due - tileref.clock.now() + 1)
    await tileref.referee.timers.idle()
    await tileref.referee.ai.idle()


async def test_a_stand_in_is_announced_in_the_thread_and_slash_back_ends_it(tileref: Harness) -> None:
    s = tileref.s
    thread, _opening = await tileref.open_table(s.alice, s.bob, s.carol, turn_time="1h")
    game = await tileref.game(thread)
    gone = game.to_move()[0]
    player = (s.alice, s.bob, s.carol)[gone]
    mark = s.mark()
    await _time_runs_out(tileref, thread)
    timeout = await s.wait_for_message(thread, lambda m: "ran out of time" in m.content, since=mark)
    assert (f"⏰ {player.name} ran out of time: 🤖 a stand-in plays for them until they type /back or make a "
            "move.") in timeout.content
    standin = await s.wait_for_message(thread, lambda m: "A stand-in plays for" in m.content, since=mark)
    assert f"🤖 A stand-in plays for {player.name}." in standin.content
    assert absence.away(await tileref.table(thread)) == {gone: absence.STANDIN}
    told = await s.wait_for_message(predicate=lambda m: "Your time ran out here" in m.content, since=mark)
    assert told.guild_id is None and s.channels[told.channel_id].recipient is player  # by DM, to them alone
    assert "a stand-in plays your turns until you type /back or make a move." in told.content
    lobby = int((await tileref.table(thread)).meta[LOBBY_MESSAGE])
    edited = await s.wait_for_message(thread, lambda m: m.id == lobby and m.kind == "edit", since=mark)
    assert f"🤖 stand-in for {player.name}" in edited.content
    mark = s.mark()
    back = await (await s.slash(player, thread, "back")).reply()
    assert f"👋 {player.name} is back: their turns are their own again." in back.content and not back.ephemeral
    edited = await s.wait_for_message(thread, lambda m: m.id == lobby and m.kind == "edit", since=mark)
    assert "🤖 stand-in for" not in edited.content and "▶️ Started by alice." in edited.content
    assert absence.away(await tileref.table(thread)) == {}
    again = await (await s.slash(player, thread, "back")).reply()
    assert again.ephemeral and "you are not away at this table" in again.content.lower()


async def test_back_typed_in_the_thread_brings_an_absent_player_back(tileref: Harness) -> None:
    s = tileref.s
    thread, _opening = await tileref.open_table(s.alice, s.bob, s.carol, turn_time="1h", options="absent=skip")
    gone = (await tileref.game(thread)).to_move()[0]
    player = (s.alice, s.bob, s.carol)[gone]
    mark = s.mark()
    await _time_runs_out(tileref, thread)
    assert absence.away(await tileref.table(thread)) == {gone: absence.SKIP}
    lobby = int((await tileref.table(thread)).meta[LOBBY_MESSAGE])
    edited = await s.wait_for_message(thread, lambda m: m.id == lobby and m.kind == "edit", since=mark)
    assert f"⏭️ {player.name} away: turns skipped" in edited.content
    back = await (await s.say(player, thread, "back")).reply()
    assert f"👋 {player.name} is back" in back.content
    assert absence.away(await tileref.table(thread)) == {}
