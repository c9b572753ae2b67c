"""Announcements are committed with the move that caused them and delivered after: a move is
never left unannounced, whatever fails after its commit."""

from __future__ import annotations

import pytest

import renderers
from bot.timers import ManualClock
from tests.bot.referees import ALICE, BOB, PLACE, Notices, running_referee, started, text


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
