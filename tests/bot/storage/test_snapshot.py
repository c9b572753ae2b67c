"""A store's snapshot read (what `dump`, and so every backup, reads through) sees the database as
of its first read, while another connection goes on writing: on both databases."""

from __future__ import annotations

from bot.core.clock import ManualClock
from bot.core.records import User
from tests.bot.referees import running_referee

ALICE, BOB = User("a", "Alice"), User("b", "Bob")


async def test_reads_in_a_snapshot_do_not_see_what_is_committed_meanwhile(database):
    async with running_referee(database, ManualClock()) as referee:
        await referee.create("snap", ALICE, "tronimoes", turn_time="1d")
        await referee.join("snap", BOB)
        await referee.start("snap", ALICE)
        store = referee.store
        table = await store.table_at("snap")
        count = "SELECT COUNT(*) AS n FROM actions WHERE table_id = ?"
        async with store._read_snapshot() as snapshot:
            first = (await snapshot.fetch(count, table.id))[0]["n"]
            _shown, game = await referee.view("snap")
            seat = game.to_move()[0]
            mover = ALICE if table.seats[seat].user_id == ALICE.id else BOB
            assert (await referee.act("snap", mover, "draw" if "draw" in game.legal_actions(seat)
                                      else game.legal_actions(seat)[0])).ok
            again = (await snapshot.fetch(count, table.id))[0]["n"]
        assert again == first
        assert await store.log_length(table.id) > first
