"""A player's data as the players read it: /privacy counts what is kept and says for how long,
the export holds their own rows only (never another player's or a seed), forgetting is refused
while they still sit at an unfinished table, and a forgotten player is named "a former player"
on the leaderboard, in the language being spoken."""

from __future__ import annotations

import json

import pytest

from bot.community.leaderboards import leaderboard_text
from bot.community.privacy import EXPORT_FILE, export, forget, forgotten_text, kept_text
from bot.core.clock import ManualClock
from bot.core.i18n import speaking
from bot.core.refusals import Refused
from bot.core.replies import plain
from bot.storage.players import FORMER
from tests.bot.referees import ALICE, BOB, running_referee, started


async def test_what_is_kept_its_export_and_forgetting(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock(), seed=123456) as referee:
        store = referee.store
        await started(referee, ALICE, BOB, place="test:done")
        await referee.resign("test:done", BOB)
        await started(referee, ALICE, BOB, place="test:open")
        said = plain(await kept_text(store, ALICE.id))
        assert "(seats: 2; tables: 2, of them opened by you: 2)" in said and "Your results in rated games (1)" in said
        assert "kept until you ask to forget it" in said and "/privacy forget" in said

        file = await export(store, ALICE.id, referee.clock.now())
        data = json.loads(file.data)
        assert file.filename == EXPORT_FILE and data["user"] == ALICE.id
        assert {row["table_id"] for row in data["seats"]} == {1, 2}
        assert all(BOB.id not in json.dumps(data[kind]) for kind in data)
        assert "123456" not in file.data.decode() and "seed" not in file.data.decode()

        with pytest.raises(Refused, match="unfinished tables"):
            await forget(store, ALICE.id)
        await referee.resign("test:open", ALICE)
        done = await forget(store, ALICE.id)
        assert done.seats == 2 and "your name and ids are gone (tables: 2; seats: 2;" in forgotten_text(done)
        assert "there was nothing to forget" in forgotten_text(await forget(store, ALICE.id))
        assert all(rows == [] for rows in (await store.player_data(ALICE.id)).values())
        board = plain(await leaderboard_text(store, "local", "tronimoes", BOB.id, 1))
        assert "a former player" in board and "alice" not in board
        with speaking("es"):
            assert "un exjugador" in plain(await leaderboard_text(store, "local", "tronimoes", BOB.id, 1))
        seats = (await store.table_at("test:done")).seats
        assert seats[0].user_id.startswith(FORMER) and seats[0].name == "a former player"
