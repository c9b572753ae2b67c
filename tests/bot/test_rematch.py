"""A rematch: a new table with the finished game's game, options, turn time and seats; the asker
and the AI seats sit down, the others are invited; it starts when all of them have joined, or when
the asker starts it with whoever joined, in the old seating order either way."""

from __future__ import annotations

from bot.records import LOBBY, PLAYING
from bot.timers import ManualClock
from tests.bot.referees import ALICE, BOB, CAROL, MOD, PLACE, running_referee, text


async def a_finished_game(referee) -> None:
    assert (await referee.create(PLACE, ALICE, "tronimoes", options="rated=off", turn_time="3h")).ok
    for player in (BOB, CAROL):
        await referee.join(PLACE, player)
    await referee.add_ai(PLACE, ALICE, "greedy")
    await referee.start(PLACE, ALICE)
    for player in (ALICE, CAROL, BOB):
        await referee.resign(PLACE, player)
    assert (await referee.status(PLACE)).status == "finished"  # type: ignore[union-attr]


async def test_a_rematch_invites_everyone_and_starts_when_all_have_joined(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await a_finished_game(referee)
        opened = await referee.rematch(PLACE, "test:again", CAROL)
        assert opened.ok and set(opened.mentions) == {ALICE.id, BOB.id} and "invites" in text(opened)
        table = await referee.status("test:again")
        assert table is not None and table.status == LOBBY and table.turn_seconds == 3 * 3600
        assert [s.user_id or s.agent for s in table.seats] == [CAROL.id, "greedy"]
        assert table.options == {} and table.meta["rated"] is False
        again = await referee.rematch(PLACE, "test:third", ALICE)
        assert not again.ok and "already open" in text(again)
        assert (await referee.join("test:again", BOB)).status == LOBBY
        started = await referee.join("test:again", ALICE)
        assert started.status == PLAYING and "Tronimoes begins: alice, bob, carol" in text(started)
        table = await referee.status("test:again")
        assert [s.name for s in table.seats][:3] == ["alice", "bob", "carol"]  # type: ignore[union-attr]


async def test_before_everyone_joined_only_the_asker_starts_it(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await a_finished_game(referee)
        await referee.rematch(PLACE, "test:again", BOB)
        await referee.join("test:again", CAROL)
        early = await referee.start("test:again", CAROL)
        assert not early.ok and "only bob or a moderator can start this game" in text(early)
        begun = await referee.start("test:again", BOB)
        assert begun.ok and "Tronimoes begins: bob, carol" in text(begun)


async def test_only_players_of_a_finished_game_ask_for_its_rematch(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await referee.create(PLACE, ALICE, "tronimoes")
        await referee.join(PLACE, BOB)
        await referee.start(PLACE, ALICE)
        early = await referee.rematch(PLACE, "test:again", ALICE)
        assert not early.ok and "only a finished game" in text(early)
        await referee.resign(PLACE, BOB)
        stranger = await referee.rematch(PLACE, "test:again", CAROL)
        assert not stranger.ok and "only the players of this game" in text(stranger)
        assert (await referee.rematch(PLACE, "test:again", MOD)).ok  # a moderator may
