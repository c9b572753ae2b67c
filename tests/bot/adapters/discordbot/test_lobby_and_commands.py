"""Opening tables, the lobby buttons, /board, /rules, the deferred path for slow commands, and
failures that must not leak to Discord."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cli.serve import serve
from bot.core.records import LOBBY
from engine import GAMES
from tests.bot.adapters.discordbot.harness import Harness, confirmed, hand_images, running
from tests.standin import DiscordStandIn
from tests.standin.gateway import MESSAGE_CONTENT


async def test_the_lobby_buttons(tileref: Harness) -> None:
    s = tileref.s
    thread, lobby = await tileref.open_table(s.alice, s.bob, start=False)
    await s.wait_until(lambda: {s.alice.id, s.bob.id} <= set(thread.member_ids), timeout=5,
                       what="the players to be added to the thread")
    assert [b.label for b in lobby.buttons()] == ["Join", "Leave", "Add bot", "Add bot: easy", "Add bot: hard", "Start"]
    table = await tileref.table(thread)
    assert lobby.button("Join").custom_id == f"tileref:join:{table.id}"
    again = await (await s.click(s.bob, lobby, label="Join")).reply()
    assert again.ephemeral and "already seated" in again.content
    early = await (await s.click(s.carol, lobby, label="Start")).reply()
    assert early.ephemeral and early.content == "Only alice or a moderator can start this game."
    left = await (await s.click(s.bob, lobby, label="Leave")).reply()
    assert left.id == lobby.id and "bob left" in left.content and left.buttons()
    robot = await (await s.click(s.alice, lobby, label="Add bot")).reply()
    assert "(bot)" in robot.content and "(normal AI)" in robot.content and "players (2/6)" in robot.content
    for label, level in (("Add bot: easy", "easy"), ("Add bot: hard", "hard")):
        robot = await (await s.click(s.alice, lobby, label=label)).reply()
        assert f"({level} AI) sits down" in robot.content
    assert [seat.agent for seat in (await tileref.table(thread)).seats[1:]] == ["normal", "easy", "hard"]
    handle = await s.click(s.alice, lobby, label="Start")
    closed, opening = await handle.replies(2)
    assert closed.id == lobby.id and closed.buttons() == [] and "Started by alice" in closed.content
    assert "Tronimoes begins" in opening.content and opening.png_images() and opening.button("Show hand")
    assert (await tileref.table(thread)).status == "playing"


async def test_new_table_checks_and_a_table_inside_a_thread(tileref: Harness) -> None:
    s = tileref.s
    threads = len(s.threads)
    bad = await (await s.slash(s.alice, s.channel, "tileref new", game="tronimoes", options="ouroboros=maybe")).reply()
    assert bad.ephemeral and "ouroboros" in bad.content
    slow = await (await s.slash(s.alice, s.channel, "tileref new", game="tronimoes", turn_time="soonish")).reply()
    assert slow.ephemeral and "is not a duration" in slow.content
    assert len(s.threads) == threads  # nothing was opened for a refused table
    side = s.add_thread(s.channel, "side room", owner=s.carol)
    lobby = await (await s.slash(s.carol, side, "tileref new", game="tronimoes", turn_time="30m")).reply()
    assert not lobby.ephemeral and lobby.channel_id == side.id and lobby.button("Join")
    assert (await tileref.referee.table_at(f"discord:{side.id}")).status == LOBBY  # type: ignore[union-attr]
    twice = await (await s.slash(s.carol, side, "tileref new", game="tronimoes")).reply()
    assert twice.ephemeral and "already a Tronimoes table here" in twice.content
    board = await (await s.slash(s.bob, side, "board")).reply()
    assert board.ephemeral and "players (1/6): carol" in board.content


async def test_board_and_rules(tileref: Harness) -> None:
    s = tileref.s
    thread, _ = await tileref.open_table(s.alice, s.bob)
    board = await (await s.slash(s.carol, thread, "board")).reply()
    assert board.ephemeral and len(board.png_images()) == 1 and not hand_images(board)
    assert f"<@{s.alice.id}>'s turn" in board.content and not board.payload.get("mentions")
    rules = await (await s.slash(s.carol, thread, "rules")).replies(1)
    text = "\n".join(m.content for m in rules)
    assert all(m.ephemeral and len(m.content) <= 2000 for m in rules)
    assert "Tronimoes" in text and "3:5 c4 d4" in text and "ouroboros" in text and "palette=mono" in text
    elsewhere = await (await s.slash(s.carol, s.channel, "rules", game="tronimoes")).reply()
    assert elsewhere.ephemeral and GAMES["tronimoes"].title in elsewhere.content


async def test_an_old_tables_buttons_are_refused(tileref: Harness) -> None:
    s = tileref.s
    side = s.add_thread(s.channel, "side room", owner=s.alice)
    lobby = await (await s.slash(s.alice, side, "tileref new", game="tronimoes")).reply()
    await confirmed(s, s.mod, side, "mod abort")
    await (await s.slash(s.alice, side, "tileref new", game="tronimoes")).reply()
    stale = await (await s.click(s.bob, lobby, label="Join")).reply()
    assert stale.ephemeral and "no longer open" in stale.content


async def test_slow_commands_are_deferred_and_answered_later(standin: DiscordStandIn, tmp_path: Path) -> None:
    s = standin
    async with running(s, tmp_path / "t.sqlite3", grace=0.0) as tileref:
        thread, opening = await tileref.open_table(s.alice, s.bob)
        game = await tileref.game(thread)
        handle = await s.slash(s.alice, thread, "move", text=game.legal_actions(0)[0])
        moved = await handle.reply()
        assert handle.record.callback_type == 5 and not moved.ephemeral and moved.png_images()
        handle = await s.slash(s.alice, thread, "move", text="draw")
        refused = await handle.reply()
        assert handle.record.callback_type == 5 and refused.ephemeral and "turn" in refused.content
        assert handle.record.original_id in s.deleted_message_ids  # the public "thinking…" went away
        handle = await s.slash(s.bob, thread, "hand")
        hand = await handle.reply()
        assert handle.record.callback_type == 5 and hand.ephemeral and hand_images(hand)
        handle = await s.click(s.alice, opening, label="Show hand")
        shown = await handle.reply()
        assert handle.record.callback_type == 6 and shown.ephemeral and hand_images(shown)
    s.assert_clean()


async def test_a_failure_is_apologised_for_without_details(tileref: Harness, monkeypatch: pytest.MonkeyPatch,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    s = tileref.s
    thread, opening = await tileref.open_table(s.alice, s.bob)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(tileref.referee.play, "act", broken)  # the part that carries moves out
    monkeypatch.setattr(tileref.referee.play, "hand", broken)
    for handle in (await s.slash(s.alice, thread, "draw"), await s.click(s.alice, opening, label="Show hand")):
        sorry = await handle.reply()
        assert sorry.ephemeral and "Something went wrong" in sorry.content
        assert "secret" not in sorry.content and "Traceback" not in sorry.content
    assert "secret internals" in caplog.text


async def test_serve_connects_without_the_content_intent_when_discord_refuses_it(tmp_path: Path) -> None:
    async with DiscordStandIn(privileged_intents=()) as s:
        with s.patch_discord():
            task = asyncio.create_task(serve(s.token, tmp_path / "served.sqlite3"))
            try:
                await s.wait_until(lambda: s.gateway.ready_count > 0 or task.done(), timeout=10,
                                   what="serve() to connect")
                assert not task.done()
                assert s.gateway.active is not None and not s.gateway.active.intents & MESSAGE_CONTENT
                lobby = await (await s.slash(s.alice, s.channel, "tileref new", game="tronimoes")).reply()
                assert "Tronimoes" in lobby.content
            finally:
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
        assert s.unhandled == []
