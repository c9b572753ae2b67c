"""Announcements are committed with the move that caused them and delivered after: a move is
never left unannounced, whatever fails after its commit."""

from __future__ import annotations

import re

import pytest

import renderers
from bot.core.clock import ManualClock
from bot.core.replies import Message
from tests.bot.referees import ALICE, BOB, MOD, PLACE, Notices, running_referee, started, text

AI_MOVE = re.compile(r"\(bot\)> (?:lays|draws|passes)")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def test_a_move_and_its_announcements_are_committed_together(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock, confirms_delivery=True) as referee:
        await started(referee, ALICE, BOB)
        _, game = await referee.view(PLACE)
        user, before = (ALICE, BOB)[game.to_move()[0]], len(game.log)
        reply = await referee.act(PLACE, user, "draw")
        pending = await referee.store.pending_notices(1)
        public = [n for n in pending if n.seat is None and n.ply == before + 1]
        private = [n for n in pending if n.seat is not None]
        assert public and public[0].text == reply.public.text and public[0].board
        assert private and "You drew" in private[0].text and "You drew" not in public[0].text
        await referee.delivered(reply)
        assert not [n for n in await referee.store.pending_notices(1) if n.id in reply.notices]


async def test_announcements_nobody_confirmed_are_sent_again_with_their_picture(tmp_path, clock):
    notices = Notices()
    async with running_referee(tmp_path / "t.sqlite3", clock, notices=notices, render=True,
                               confirms_delivery=True) as referee:
        await referee.outbox.stop()  # sweeps are made by hand below
        start = await started(referee, ALICE, BOB)
        await referee.delivered(start)
        _, game = await referee.view(PLACE)
        user = (ALICE, BOB)[game.to_move()[0]]
        reply = await referee.act(PLACE, user, "draw")  # the transport never confirms it (it died)
        await clock.advance(referee.delivery_lease + 11)
        await referee.outbox.sweep()
        again = [n for n in notices if n.ply == reply.ply]
        assert len(again) == 1 and again[0].public.text == reply.public.text
        assert again[0].public.attachments[0].data[:4] == b"\x89PNG"
        seat = game.to_move()[0]
        assert "You drew" in again[0].private[seat].text
        assert await referee.store.pending_notices(1) == []
        await clock.advance(referee.delivery_lease + 11)
        await referee.outbox.sweep()
        assert len([n for n in notices if n.ply == reply.ply]) == 1  # sent once


async def test_a_picture_that_cannot_be_drawn_leaves_the_move_standing_and_announced(tmp_path, clock, monkeypatch):
    async with running_referee(tmp_path / "t.sqlite3", clock, render=True) as referee:
        await started(referee, ALICE, BOB)

        def broken(*args, **kwargs):
            raise OSError("disk full")

        monkeypatch.setattr(renderers, "render", broken)
        _, game = await referee.view(PLACE)
        user = (ALICE, BOB)[game.to_move()[0]]
        reply = await referee.act(PLACE, user, "draw")
        assert reply.ok and "could not be drawn this time; `board` shows it" in text(reply)
        assert "nothing was changed" not in text(reply)
        assert [a.action for a in await referee.store.actions(1)][-1] == "draw"


async def test_a_failed_snapshot_does_not_undo_or_hide_the_move(tmp_path, clock, monkeypatch):
    async with running_referee(tmp_path / "t.sqlite3", clock, snapshot_every=1) as referee:
        await started(referee, ALICE, BOB)

        async def broken(*args, **kwargs):
            raise OSError("disk full")

        monkeypatch.setattr(referee.store, "save_snapshot", broken)
        _, game = await referee.view(PLACE)
        user = (ALICE, BOB)[game.to_move()[0]]
        reply = await referee.act(PLACE, user, "draw")
        assert reply.ok and "draws a tile" in text(reply)


async def test_an_announcement_a_rollback_at_the_same_clock_instant_undid_is_withheld(tmp_path, clock):
    """A move and a moderator's rollback of it land at the same moment of the clock: whether the
    move's unsent announcement still stands is told by the log, so it is withheld (a note says
    so), never sent late with the new timeline's picture."""
    notices = Notices()
    async with running_referee(tmp_path / "t.sqlite3", clock, notices=notices, render=True,
                               confirms_delivery=True) as referee:
        await referee.outbox.stop()  # sweeps are made by hand below
        await referee.delivered(await started(referee, ALICE, BOB))
        _, game = await referee.view(PLACE)
        user = (ALICE, BOB)[game.to_move()[0]]
        moved = await referee.act(PLACE, user, "draw")  # the transport never confirms it (it died)
        rolled = await referee.rollback(PLACE, MOD, 0)
        assert rolled.ok
        await referee.delivered(rolled)
        await clock.advance(referee.delivery_lease + 11)
        await referee.outbox.sweep()
        assert [n.public.text for n in notices if n.public] == [
            "(The announcement of move 1 was not sent: a moderator has rolled the game back to move 0 since.)"]
        assert all(not n.private for n in notices), "the undone draw's tile is not told late"
        assert moved.public.text not in [n.public.text for n in notices if n.public]


async def test_an_announcement_still_standing_after_a_later_rollback_is_sent(tmp_path, clock):
    """The rollback went back to after the move: its announcement is sent as it was."""
    notices = Notices()
    async with running_referee(tmp_path / "t.sqlite3", clock, notices=notices,
                               confirms_delivery=True) as referee:
        await referee.outbox.stop()
        await referee.delivered(await started(referee, ALICE, BOB))
        _, game = await referee.view(PLACE)
        user = (ALICE, BOB)[game.to_move()[0]]
        moved = await referee.act(PLACE, user, "draw")  # never confirmed
        other = await referee.act(PLACE, user, "pass")
        await referee.delivered(other)
        rolled = await referee.rollback(PLACE, MOD, 1)
        await referee.delivered(rolled)
        await clock.advance(referee.delivery_lease + 11)
        await referee.outbox.sweep()
        assert [n.public.text for n in notices if n.public] == [moved.public.text]


async def test_a_run_of_ai_moves_posted_before_a_crash_is_sent_again_as_the_same_one_message(tmp_path, clock):
    """The process posted the one message telling a run of AI moves, then died before confirming
    it: what the outbox sends again is that message, with its nonce (so Discord returns the
    first instead of posting it twice), not the moves one by one."""
    runs: list[Message] = []

    async def post_then_die(reply) -> None:
        """Deliver; the first message telling two AI moves or more is posted, then the process dies."""
        if reply.public is not None and len(AI_MOVE.findall(reply.public.text)) >= 2:
            runs.append(reply.public)
            if len(runs) == 1:
                raise ConnectionError("killed before confirming")

    async with running_referee(tmp_path / "t.sqlite3", clock, notices=post_then_die,
                               confirms_delivery=True) as referee:
        await referee.outbox.stop()
        assert (await referee.create(PLACE, ALICE, "tronimoes")).ok
        for _ in range(2):
            await referee.add_ai(PLACE, ALICE, "greedy")
        await referee.delivered(await referee.start(PLACE, ALICE))
        await referee.ai.idle()
        while not runs:
            move = (await referee.suggestions(PLACE, ALICE, "", limit=1))[0]
            await referee.delivered(await referee.act(PLACE, ALICE, move))
            await referee.ai.idle()
        await clock.advance(300)
        await referee.outbox.sweep()
        first, *again = runs
        assert len(again) == 1 and again[0].nonce == first.nonce and again[0].text == first.text, again
