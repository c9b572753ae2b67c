"""The turn clock through Discord (reminders and timeouts posted by the bot on its own), and a
restart mid-game: a new client on the same SQLite file carries on, old buttons included."""

from __future__ import annotations

from pathlib import Path

from bot.core.clock import ManualClock
from tests.bot.adapters.discordbot.harness import Harness, hand_images, running
from tests.standin import DiscordStandIn


async def test_a_turn_timeout_is_posted_in_the_thread(tileref: Harness) -> None:
    s, clock = tileref.s, tileref.clock
    thread, opening = await tileref.open_table(s.alice, s.bob, turn_time="10m")
    assert {int(u["id"]) for u in opening.payload["mentions"]} == {s.alice.id}  # the turn's one ping
    mark = s.mark()
    await clock.advance(5 * 60)
    await tileref.referee.timers.idle()
    reminder = await s.wait_for_message(thread, since=mark)
    deadline = round(clock.now() + 5 * 60)
    assert reminder.content == f"⏰ <@{s.alice.id}>, your turn ends <t:{deadline}:R>."
    assert reminder.payload["mentions"] == []  # the opening pinged her this turn: the reminder does not
    mark = s.mark()
    await clock.advance(5 * 60)
    await tileref.referee.timers.idle()
    timeout = await s.wait_for_message(thread, lambda m: "ran out of time" in m.content, since=mark)
    assert timeout.content.startswith("⏰ alice ran out of time.") and timeout.png_images()
    assert timeout.button("Show hand") and not timeout.ephemeral
    assert {int(u["id"]) for u in timeout.payload["mentions"]} == {s.bob.id}
    game = await tileref.game(thread)
    assert game.to_move() == (1,)
    history = await (await s.slash(s.alice, thread, "history")).reply()
    assert "(out of time)" in history.content
    # the clock drew a tile for alice before passing: she alone is told which, by DM
    drew = await s.wait_for_message(predicate=lambda m: "You drew" in m.content, since=mark)
    assert drew.guild_id is None and s.channels[drew.channel_id].recipient is s.alice
    assert not [m for m in s.messages if "You drew" in m.content and m.guild_id is not None]
    s.assert_clean()


async def test_the_bot_restarts_mid_game_and_the_game_goes_on(standin: DiscordStandIn, tmp_path: Path) -> None:
    s = standin
    path = tmp_path / "tileref.sqlite3"
    clock = ManualClock()
    async with running(s, path, clock=clock) as first:
        thread, opening = await first.open_table(s.alice, s.bob, turn_time="1h")
        game = await first.game(thread)
        played = await (await s.slash(s.alice, thread, "move", text=game.legal_actions(0)[0])).reply()
        table_id = (await first.table(thread)).id
    assert first.bot.is_closed()  # type: ignore[attr-defined]

    async with running(s, path, clock=clock) as second:
        assert second.bot is not first.bot and second.referee is not first.referee
        # buttons on messages sent before the restart still work
        shown = await (await s.click(s.bob, played, label="Show hand")).reply()
        assert shown.ephemeral and hand_images(shown)
        shown = await (await s.click(s.alice, opening, label="Show hand")).reply()
        assert shown.ephemeral and hand_images(shown)
        game = await second.game(thread)
        seat = game.to_move()[0]
        user = (s.alice, s.bob)[seat]
        moved = await (await s.slash(user, thread, "move", text=game.legal_actions(seat)[0])).reply()
        assert not moved.ephemeral and moved.button("Show hand").custom_id == f"tileref:hand:{table_id}"
        # the clock saved before the restart still runs
        mark = s.mark()
        await clock.advance(3600)
        await second.referee.timers.idle()
        timed_out = await s.wait_for_message(thread, lambda m: "ran out of time" in m.content, since=mark)
        assert timed_out.png_images()
    assert s.gateway.session_count == 2
    s.assert_clean()
