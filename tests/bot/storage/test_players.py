"""A player's own rows on both databases: what the store keeps about one person, and forgetting
them in one transaction, their games replaying the same under an anonymous seat and everyone
else's ratings rebuilding the same."""

from __future__ import annotations

import json

from bot.core.clock import ManualClock
from bot.core.records import User
from bot.storage.players import FORMER, without_player
from bot.storage.standings import NOTIFY_ON
from tests.bot.referees import ALICE, BOB, CAROL, running_referee, started

MOD = User("test:mod", "mod", moderator=True)


def named(language: str | None) -> str:
    return "gone (es)" if language == "es" else "gone"


async def _ratings(referee) -> list[tuple]:
    return [(r.guild, r.game, r.player, round(r.mu, 9), round(r.sigma, 9), r.games, r.wins, r.draws)
            for r in await referee.store.standings.all_ratings()]


async def test_forgetting_a_player_keeps_their_games_and_everyone_elses_ratings(database) -> None:
    clock = ManualClock()
    async with running_referee(database, clock) as referee:
        store = referee.store
        for number in range(2):
            await started(referee, ALICE, BOB, CAROL, place=f"test:game{number}")
            await referee.resign(f"test:game{number}", ALICE if number else BOB)
            await referee.resign(f"test:game{number}", CAROL)
            await clock.advance(60)
        await started(referee, BOB, CAROL, place="test:theirs")  # a game Alice never sat at: untouched
        await referee.pause("test:theirs", MOD)
        first = await store.table_at("test:game0")
        await store.save_snapshot(first.id, 3, "v", b"pickled names")
        await store.save_picture(first.id, 0, "foot", b"png", "giphy:1", clock.now())
        await store.standings.set_notify("discord:1", ALICE.id, NOTIFY_ON)
        await store.standings.set_quiet(ALICE.id, "23:00-08:00 Europe/Madrid")
        await store.standings.set_list(ALICE.id, True, "es")
        await referee.rematch("test:game0", "test:rematch", BOB)  # Alice invited by id in its meta
        kept = await store.player_data(ALICE.id)
        assert len(kept["seats"]) == 2 and len(kept["results"]) == 2 and len(kept["notifications"]) == 1
        assert kept["notifications_everywhere"][0]["quiet"] == "23:00-08:00 Europe/Madrid"
        assert kept["pictures"][0]["source"] == "giphy:1" and len(kept["tables_opened"]) == 2
        assert kept["moves"] and all(m["actor"] == ALICE.id for m in kept["moves"])
        before = {r[2]: r for r in await _ratings(referee)}
        histories = [(await referee.history(f"test:game{n}", BOB)).caller.text for n in range(2)]

        assert "<n:alice>" in histories[1]
        done = await store.forget_player(ALICE.id, FORMER + "x1", named)

        assert (done.tables, done.seats, done.results, done.ratings, done.notify, done.pictures, done.snapshots) == (
            3, 2, 2, 1, 2, 1, 1)
        assert done.announcements > 0 and done.actions > 0
        assert await store.player_data(ALICE.id) == {kind: [] for kind in kept}
        dumped = json.dumps(await store.dump(), default=str)
        assert ALICE.id not in dumped and "<n:alice>" not in dumped
        table = await store.table_at("test:game0")
        assert (table.seats[0].user_id, table.seats[0].name) == (FORMER + "x1", "gone")
        assert table.created_by == FORMER + "x1" and await store.snapshot(table.id) is None
        rematch = await store.table_at("test:rematch")
        assert FORMER + "x1" in rematch.meta["invited"]
        after = {r[2]: r for r in await _ratings(referee)}
        assert set(after) == {BOB.id, CAROL.id, FORMER + "x1"}
        assert after[BOB.id] == before[BOB.id] and after[CAROL.id] == before[CAROL.id]
        assert after[FORMER + "x1"][3:] == before[ALICE.id][3:]
        assert await referee.ratings.rebuild() == (2, 3)
        assert await _ratings(referee) == sorted(after.values())
        for number, history in enumerate(histories):  # the games replay, the seat told as the former player
            again = (await referee.history(f"test:game{number}", BOB)).caller.text
            assert again == history.replace("alice", "gone")


def test_an_announcement_loses_the_players_mention_and_name() -> None:
    data = {"text": "<@test:alice|alice> beat <n:bob>; <n:alice> and <n:Al> played", "mentions": ["test:alice", "x"],
            "kind": "move", "log": "abc"}
    assert without_player(data, "test:alice", ["alice", "Al"], "gone") == {
        "text": "<n:gone> beat <n:bob>; <n:gone> and <n:gone> played", "mentions": ["x"], "kind": "move",
        "log": "abc"}


async def test_a_player_who_joined_a_game_under_way_is_renamed_in_their_join(database) -> None:
    async with running_referee(database, ManualClock()) as referee:
        assert (await referee.create("test:t", ALICE, "tetromic")).ok
        await referee.join("test:t", BOB)
        await referee.start("test:t", ALICE)
        assert (await referee.join("test:t", CAROL)).ok  # a running Tetromic game lets players join
        table, game = await referee.view("test:t")
        assert game.names[2] == "carol" and game.log[-1] == (2, "join carol")
        position = json.dumps(game.to_position())

        await referee.store.forget_player(CAROL.id, FORMER + "c", named)

        table, again = await referee.view("test:t")
        assert again.names == ["alice", "bob", "gone"] and again.log[-1] == (2, "join gone")
        assert again.to_move() == game.to_move() and again.players == 3
        assert json.dumps(again.to_position()) == position.replace('"carol"', '"gone"')
        assert table.seats[2].user_id == FORMER + "c"


async def test_text_first_play_is_one_choice_a_player_exports_and_forgets(database) -> None:
    async with running_referee(database, ManualClock()) as referee:
        standings = referee.store.standings
        await standings.set_text_play(ALICE.id, True)
        await standings.set_text_play(ALICE.id, True)  # said twice: still one choice
        await standings.set_text_play(BOB.id, True)
        await standings.set_text_play(BOB.id, False)
        assert await standings.text_play_choices([ALICE.id, BOB.id, CAROL.id]) == {ALICE.id}
        assert await standings.text_play_choices([]) == set()
        assert (await referee.store.player_data(ALICE.id))["accessibility"] == [{"text_play": 1}]
        done = await referee.store.forget_player(ALICE.id, FORMER + "a", named)
        assert done.notify == 1
        assert await standings.text_play_choices([ALICE.id]) == set()
