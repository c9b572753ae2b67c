"""Moderators through Discord: /mod forcepass and friends, /settings, the moderator role, and
everyone else being refused ephemerally."""

from __future__ import annotations

import discord
import pytest

from bot.core.records import ABORTED
from tests.bot.adapters.discordbot.harness import Harness, confirmed

MANAGER = discord.Permissions(manage_guild=True, manage_threads=True, send_messages=True)


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
    ("mod abort", {}), ("mod rollback", {"to": 0}),
])
async def test_non_moderators_are_refused_ephemerally(tileref: Harness, command: str, options: dict) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    refused = await (await s.slash(s.alice, thread, command, **options)).reply()
    assert refused.ephemeral and "Only moderators" in refused.content, refused.content
    assert not refused.buttons()
    assert (await tileref.table(thread)).status == "playing"


async def test_server_settings_need_manage_server_not_manage_threads(tileref: Harness) -> None:
    s = tileref.s
    for user in (s.alice, s.mod):  # the moderator role has Manage Threads only
        refused = await (await s.slash(user, s.channel, "settings", moderator_role=s.mod_role)).reply()
        assert refused.ephemeral and "manage this server" in refused.content, refused.content
    assert (await tileref.referee.settings(f"discord:{s.guild.id}")).moderator_role is None
    s.set_permissions(s.carol, MANAGER)
    saved = await (await s.slash(s.carol, s.channel, "settings", turn_time="2h")).reply()
    assert saved.ephemeral and "turn time 2h" in saved.content


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
    move = game.legal_actions(0)[0]
    await (await s.slash(s.alice, thread, "move", text=move)).reply()
    preview, rolled = await confirmed(s, s.mod, thread, "mod rollback", to=0)
    assert f"undoes 1 move (alice: `{move}`)" in preview.content
    assert "rolled the game back to move 0" in rolled.content and rolled.png_images()
    assert [a[1].split()[0] for a in (await tileref.game(thread)).log] == ["chance"]
    preview, kicked = await confirmed(s, s.mod, thread, "mod kick", player=s.bob)
    assert "Remove bob from the game?" in preview.content and "removed bob" in kicked.content
    assert (await tileref.table(thread)).status == "finished"
    refused = await (await s.slash(s.mod, thread, "mod rollback", to=0)).reply()
    assert refused.ephemeral and not refused.buttons()
    preview, reopened = await confirmed(s, s.mod, thread, "mod rollback", to=0, reopen=True)
    assert "this reopens it" in preview.content and "rolled the game back" in reopened.content
    assert (await tileref.table(thread)).status == "playing"
    aborted = await (await s.slash(s.mod, thread, "mod abort")).reply()
    assert aborted.ephemeral and aborted.button("Confirm")


async def test_a_cancelled_confirmation_changes_nothing(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    preview = await (await s.slash(s.mod, thread, "mod abort")).reply()
    cancelled = await (await s.click(s.mod, preview, label="Cancel")).reply()
    assert "nothing was changed" in cancelled.content and not cancelled.buttons()
    assert (await tileref.table(thread)).status == "playing"


async def test_abort_stops_the_game(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    preview, aborted = await confirmed(s, s.mod, thread, "mod abort")
    assert "nothing is scored" in preview.content
    assert not aborted.ephemeral and "stopped the game" in aborted.content and not aborted.buttons()
    assert (await tileref.table(thread)).status == ABORTED
    late = await (await s.slash(s.alice, thread, "draw")).reply()
    assert late.ephemeral and "stopped" in late.content


async def test_settings_turn_time_and_moderator_role(tileref: Harness) -> None:
    s = tileref.s
    shown = await (await s.slash(s.alice, s.channel, "settings")).reply()
    assert shown.ephemeral and "turn time each game's own" in shown.content
    s.set_permissions(s.mod, MANAGER)
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


async def test_a_forcepass_sent_twice_at_once_passes_once(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    before = len((await tileref.game(thread)).log)
    first, second = await s.slash(s.mod, thread, "mod forcepass"), await s.slash(s.mod, thread, "mod forcepass")
    answers = [(await first.reply()), (await second.reply())]
    assert sorted(a.ephemeral for a in answers) == [False, True], [a.content for a in answers]
    forced = next(a for a in answers if not a.ephemeral)
    refused = next(a for a in answers if a.ephemeral)
    assert "mod forced a pass for alice" in forced.content
    assert refused.content.startswith("The game moved on since you looked")
    actions = await tileref.referee.store.actions((await tileref.table(thread)).id)
    assert [a.action.split()[0] for a in actions[before:]] == ["draw", "pass"]
    assert (await tileref.game(thread)).to_move() == (1,)
    # sent again after being told, it stands: it is bob's turn that is passed now
    again = await (await s.slash(s.mod, thread, "mod forcepass")).reply()
    assert not again.ephemeral and "mod forced a pass for bob" in again.content
