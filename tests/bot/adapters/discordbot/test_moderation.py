"""Moderators through Discord: /mod forcepass and friends, /settings, the moderator role, and
everyone else being refused ephemerally."""

from __future__ import annotations

import discord
import pytest

from bot.records import ABORTED
from tests.bot.adapters.discordbot.harness import Harness


async def test_a_moderator_forces_a_pass(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    before = len((await tileref.game(thread)).log)
    forced = await (await s.slash(s.mod, thread, "mod forcepass")).reply()
    assert not forced.ephemeral and "mod forced a pass for alice" in forced.content
    assert forced.png_images() and forced.button("Show hand")
    assert {int(u["id"]) for u in forced.payload["mentions"]} == {s.bob.id}
    game = await tileref.game(thread)
    assert len(game.log) > before and game.to_move() == (1,)
    history = await (await s.slash(s.alice, thread, "history")).reply()
    assert history.ephemeral and "(by a moderator)" in history.content
    # aimed at a player the game is not waiting for
    refused = await (await s.slash(s.mod, thread, "mod forcepass", player=s.alice)).reply()
    assert refused.ephemeral and "not waiting for that player" in refused.content


@pytest.mark.parametrize(("command", "options"), [
    ("mod forcepass", {}), ("mod kick", {"player": "bob"}), ("mod pause", {}), ("mod resume", {}),
    ("mod abort", {}), ("mod rollback", {"to": 0}), ("settings", {"turn_time": "1h"}),
])
async def test_non_moderators_are_refused_ephemerally(tileref: Harness, command: str, options: dict) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    refused = await (await s.slash(s.alice, thread, command, **options)).reply()
    assert refused.ephemeral and "Only moderators" in refused.content, refused.content
    assert (await tileref.table(thread)).status == "playing"


@pytest.mark.parametrize(("command", "options"), [
    ("move", {"text": "draw"}), ("draw", {}), ("pass", {}), ("pass", {"foot": "e5"}), ("hand", {}),
    ("resign", {}),
])
async def test_non_players_are_refused_ephemerally(tileref: Harness, command: str, options: dict) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    refused = await (await s.slash(s.carol, thread, command, **options)).reply()
    assert refused.ephemeral and "not playing" in refused.content and not refused.attachments


async def test_commands_outside_a_game_thread_say_how_to_start(tileref: Harness) -> None:
    s = tileref.s
    for command, options in [("move", {"text": "draw"}), ("board", {}), ("hand", {}), ("history", {}),
                             ("mod pause", {}), ("resign", {})]:
        user = s.mod if command.startswith("mod") else s.alice
        answer = await (await s.slash(user, s.channel, command, **options)).reply()
        assert answer.ephemeral and "start one with `/tileref new`" in answer.content, (command, answer.content)


async def test_kick_pause_resume_rollback_abort(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob, turn_time="1h")
    paused = await (await s.slash(s.mod, thread, "mod pause")).reply()
    assert not paused.ephemeral and "paused the clock" in paused.content
    resumed = await (await s.slash(s.mod, thread, "mod resume")).reply()
    assert "resumed the clock" in resumed.content
    game = await tileref.game(thread)
    await (await s.slash(s.alice, thread, "move", text=game.legal_actions(0)[0])).reply()
    rolled = await (await s.slash(s.mod, thread, "mod rollback", to=0)).reply()
    assert "rolled the game back to move 0" in rolled.content and rolled.png_images()
    assert len((await tileref.game(thread)).log) == 0
    kicked = await (await s.slash(s.mod, thread, "mod kick", player=s.bob)).reply()
    assert "removed bob" in kicked.content
    assert (await tileref.table(thread)).status == "finished"
    aborted = await (await s.slash(s.mod, thread, "mod abort")).reply()
    assert aborted.ephemeral and "already closed" in aborted.content


async def test_abort_stops_the_game(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    aborted = await (await s.slash(s.mod, thread, "mod abort")).reply()
    assert not aborted.ephemeral and "stopped the game" in aborted.content and not aborted.buttons()
    assert (await tileref.table(thread)).status == ABORTED
    late = await (await s.slash(s.alice, thread, "draw")).reply()
    assert late.ephemeral and "stopped" in late.content


async def test_settings_turn_time_and_moderator_role(tileref: Harness) -> None:
    s = tileref.s
    shown = await (await s.slash(s.alice, s.channel, "settings")).reply()
    assert shown.ephemeral and "turn time 1d" in shown.content
    referees = s.add_role("Referees")
    saved = await (await s.slash(s.mod, s.channel, "settings", turn_time="2h", reminders="30m",
                                 moderator_role=referees, allowed_games="tronimoes")).reply()
    assert saved.ephemeral and "turn time 2h" in saved.content and "reminders 30m" in saved.content
    assert referees.mention in saved.content and "games: tronimoes" in saved.content
    bad = await (await s.slash(s.mod, s.channel, "settings", turn_time="soon")).reply()
    assert bad.ephemeral and "is not a duration" in bad.content
    thread, _ = await tileref.open_table(s.alice, s.bob)
    assert (await tileref.table(thread)).turn_seconds == 7200  # the server's default
    s.give_role(s.carol, referees)
    paused = await (await s.slash(s.carol, thread, "mod pause")).reply()
    assert not paused.ephemeral and "carol paused the clock" in paused.content
    cleared = await (await s.slash(s.mod, s.channel, "settings", no_moderator_role=True)).reply()
    assert "moderator role none" in cleared.content
    refused = await (await s.slash(s.carol, thread, "mod resume")).reply()
    assert refused.ephemeral and "Only moderators" in refused.content


async def test_manage_threads_makes_a_moderator(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    s.set_permissions(s.carol, discord.Permissions(manage_threads=True, send_messages=True))
    paused = await (await s.slash(s.carol, thread, "mod pause")).reply()
    assert "carol paused the clock" in paused.content
