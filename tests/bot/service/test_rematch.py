"""A rematch: a new table with the finished game's game, options, turn time and seats; the asker
and the AI seats sit down, the others are invited; it starts when all of them have joined, or when
the asker starts it with whoever joined, in the old seating order either way."""

from __future__ import annotations

from bot.core.clock import ManualClock
from bot.core.records import LOBBY, PLAYING, User
from bot.words.wording import lobby_text
from tests.bot.referees import ALICE, BOB, CAROL, MOD, PLACE, running_referee, text


async def a_finished_game(referee) -> None:
    assert (await referee.create(PLACE, ALICE, "tronimoes", options="rated=off, palette=mono", turn_time="3h")).ok
    for player in (BOB, CAROL):
        await referee.join(PLACE, player)
    await referee.add_ai(PLACE, ALICE, "greedy")
    await referee.start(PLACE, ALICE)
    for player in (ALICE, CAROL, BOB):
        await referee.resign(PLACE, player)
    assert (await referee.table_at(PLACE)).status == "finished"  # type: ignore[union-attr]


async def test_a_rematch_invites_everyone_and_starts_when_all_have_joined(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await a_finished_game(referee)
        opened = await referee.rematch(PLACE, "test:again", CAROL)
        assert opened.ok and set(opened.mentions) == {ALICE.id, BOB.id} and "invites" in text(opened)
        table = await referee.table_at("test:again")
        assert table is not None and table.status == LOBBY and table.turn_seconds == 3 * 3600
        assert [s.user_id or s.agent for s in table.seats] == [CAROL.id, "greedy"]
        assert table.options == {} and table.meta["rated"] is False and table.meta["palette"] == "mono"
        again = await referee.rematch(PLACE, "test:third", ALICE)
        assert not again.ok and "already open" in text(again)
        assert (await referee.join("test:again", BOB)).status == LOBBY
        started = await referee.join("test:again", ALICE)
        assert started.status == PLAYING and "Tronimoes begins: alice, bob, carol" in text(started)
        table = await referee.table_at("test:again")
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


async def a_finished_two_player_game(referee, game: str = "tromino_go") -> None:
    assert (await referee.create(PLACE, ALICE, game)).ok
    assert (await referee.join(PLACE, BOB)).ok
    assert (await referee.start(PLACE, ALICE)).ok
    assert (await referee.resign(PLACE, BOB)).ok


async def test_an_invited_players_seat_is_held_for_them(tmp_path) -> None:
    """At a two-seat rematch, someone who did not play may not take the seat held for the
    invited opponent; once the opponent declines, they may."""
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await a_finished_two_player_game(referee)
        assert (await referee.rematch(PLACE, "test:again", ALICE)).ok
        outsider = await referee.join("test:again", CAROL)
        assert not outsider.ok and "held for the players invited to this rematch" in text(outsider), text(outsider)
        assert not (await referee.add_ai("test:again", ALICE, "greedy")).ok
        table = await referee.table_at("test:again")
        assert [s.user_id for s in table.seats] == [ALICE.id]
        declined = await referee.leave("test:again", BOB)
        assert declined.ok and "bob declined the rematch" in text(declined)
        joined = await referee.join("test:again", CAROL)
        assert joined.ok and joined.status == LOBBY, text(joined)


async def test_an_invitation_runs_out_after_the_turn_time(tmp_path) -> None:
    clock = ManualClock()
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        assert (await referee.create(PLACE, ALICE, "tromino_go", turn_time="2h")).ok
        assert (await referee.join(PLACE, BOB)).ok
        assert (await referee.start(PLACE, ALICE)).ok
        assert (await referee.resign(PLACE, BOB)).ok
        assert (await referee.rematch(PLACE, "test:again", ALICE)).ok
        assert not (await referee.join("test:again", CAROL)).ok
        await clock.advance(2 * 3600)
        assert (await referee.join("test:again", CAROL)).ok


async def test_the_invited_player_joining_starts_the_rematch_against_the_asker(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await a_finished_two_player_game(referee)
        assert (await referee.rematch(PLACE, "test:again", BOB)).ok
        started = await referee.join("test:again", ALICE)
        assert started.ok and started.status == PLAYING
        table = await referee.table_at("test:again")
        assert [s.user_id for s in table.seats] == [ALICE.id, BOB.id]


async def test_a_moderators_rematch_lobby_shows_the_teams_in_the_old_order(tmp_path) -> None:
    """Nobody of the old table is seated at a moderator's rematch until they join, in any order:
    the lobby shows them, and their teams, in the seats they will take."""
    dave = User("test:dave", "dave")
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        assert (await referee.create(PLACE, ALICE, "tronix")).ok
        for player in (BOB, CAROL, dave):
            assert (await referee.join(PLACE, player)).ok
        assert (await referee.start(PLACE, ALICE)).ok
        old = await referee.table_at(PLACE)
        for player in (ALICE, BOB):
            await referee.resign(PLACE, player)
        assert (await referee.table_at(PLACE)).status == "finished"
        assert (await referee.rematch(PLACE, "test:again", MOD)).ok
        for player in (dave, CAROL, BOB):
            await referee.join("test:again", player)
        table = await referee.table_at("test:again")
        assert [s.name for s in table.seats] == ["bob", "carol", "dave"]
        await referee.join("test:again", ALICE)  # the last: it starts
        table = await referee.table_at("test:again")
        assert [s.name for s in table.seats] == [s.name for s in old.seats]
        assert lobby_text(table).splitlines()[0] == lobby_text(old).splitlines()[0]


async def test_a_rematch_lobby_has_the_watch_link(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        referee.public_url = "http://127.0.0.1:8080"
        await a_finished_two_player_game(referee)
        opened = await referee.rematch(PLACE, "test:again", ALICE)
        table = await referee.table_at("test:again")
        link = f"http://127.0.0.1:8080/t/{table.meta['watch']}"
        assert opened.ok and link in text(opened)
        assert await referee.store.table_by_token(table.meta["watch"]) is not None
