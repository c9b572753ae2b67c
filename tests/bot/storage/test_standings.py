"""Every query behind /leaderboard, /profile, /games, /notify, /accessibility and the ratings is answered from an
index: SQLite's own query plans, for each statement the commands really run, show no table scan.
Ratings stored by an older tileref read as today's after the migration."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

import bot.storage.postgres as store_postgres
import bot.storage.sqlite as store_module
from bot.community.leaderboards import leaderboard_text, profile_text
from bot.community.my_games import games_text, turn_list_text
from bot.core.clock import ManualClock
from bot.core.records import FINISHED, TableRecord
from bot.core.replies import plain
from bot.storage.address import store_for
from bot.storage.standings import DRAW, LOSS, WIN, Sql, Standings, shown
from tests.bot.referees import ALICE, BOB, running_referee


class Recording:
    """`Sql` on the store's reading connection that keeps every statement it runs."""

    def __init__(self, db: Any, seen: list[tuple[str, tuple[Any, ...]]]) -> None:
        self.db, self.seen = db, seen

    async def fetch(self, sql: str, *args: Any) -> list[Mapping[str, Any]]:
        self.seen.append((sql, args))
        return list(await self.db.execute_fetchall(sql, args))

    async def execute(self, sql: str, *args: Any) -> None:
        raise AssertionError("a read wrote")

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise AssertionError("a read wrote")

    async def lock(self, name: str) -> None:
        return None


async def test_the_commands_queries_use_indexes(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        store = referee.store
        for place in ("test:a", "test:b"):
            await referee.create(place, ALICE, "tronimoes", guild="test:guild")
            await referee.join(place, BOB)
            await referee.start(place, ALICE)
        await referee.resign("test:a", BOB)
        seen: list[tuple[str, tuple[Any, ...]]] = []

        @asynccontextmanager
        async def read() -> AsyncIterator[Sql]:
            yield Recording(store.reader, seen)  # type: ignore[attr-defined]

        store.standings = Standings(read, store._sql_transaction)  # type: ignore[attr-defined]
        await leaderboard_text(store, "test:guild", "tronimoes", ALICE.id)
        await profile_text(store, "test:guild", ALICE.id, "alice")
        await games_text(store, "test:guild", BOB.id)
        await games_text(store, None, BOB.id)
        await turn_list_text(store, ALICE.id)
        await store.standings.rated_guilds(ALICE.id)
        await store.standings.player_choices([ALICE.id, BOB.id])
        await store.standings.notify_choices("test:guild", [ALICE.id, BOB.id])
        await store.standings.text_play_choices([ALICE.id, BOB.id])
        await store.standings.ratings_of("test:guild", "tronimoes", [ALICE.id])
        assert len(seen) >= 10
        for sql, args in seen:
            plan = [row[3] for row in await store.reader.execute_fetchall(  # type: ignore[attr-defined]
                f"EXPLAIN QUERY PLAN {sql}", args)]
            scans = [step for step in plan if step.startswith("SCAN") and "USING" not in step
                     and step != "SCAN CONSTANT ROW"]  # a SELECT of subqueries reads no table itself
            assert not scans, (sql, plan)


async def test_ratings_stored_before_draws_were_counted_apart_are_migrated(database, monkeypatch) -> None:
    """A database of schema 6 counted a shared first place as a win and ranked by mean − 3σ; its
    results and ratings read, after the migration, as today's would (wins, draws and losses
    apart, the shown figure, the best win by it)."""
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:6])
    monkeypatch.setattr(store_postgres, "PG_MIGRATIONS", store_postgres.PG_MIGRATIONS[:6])
    old = store_for(database)
    await old.open()
    ids = [await old.create_table(TableRecord(id=0, place=f"test:{n}", game="tronix", options={}, status=FINISHED,
                                              created_by=ALICE.id, created_at=float(n), guild="test:guild"))
           for n in range(2)]
    rows = [  # alice beat bob, who was rated above her; then they drew (both "won", rank 1)
        (ids[0], 0, ALICE.id, "alice", 1, 0, 1, 25.0, 8.0, 27.6, 7.9, "bob", 30.0 - 3 * 7.0),
        (ids[0], 1, BOB.id, "bob", 2, 1, 0, 30.0, 7.0, 28.0, 6.9, None, None),
        (ids[1], 0, ALICE.id, "alice", 1, 0, 1, 27.6, 7.9, 27.8, 7.8, None, None),
        (ids[1], 1, BOB.id, "bob", 1, 1, 1, 28.0, 6.9, 27.9, 6.8, None, None)]
    async with old.standings._transaction("test") as db:  # type: ignore[attr-defined]
        await db.executemany(
            "INSERT INTO results (table_id, seat, guild, game, place, player, name, rank, team, entrants, won,"
            " finished_at, mu_before, sigma_before, mu, sigma, beaten_name, beaten_score) VALUES"
            " (?, ?, 'test:guild', 'tronix', 'test:p', ?, ?, ?, ?, 2, ?, 0.0, ?, ?, ?, ?, ?, ?)", rows)
        await db.executemany(
            "INSERT INTO ratings (guild, game, player, name, mu, sigma, score, games, wins) VALUES"
            " ('test:guild', 'tronix', ?, ?, ?, ?, ?, 2, ?)",
            [(ALICE.id, "alice", 27.8, 7.8, 27.8 - 3 * 7.8, 2), (BOB.id, "bob", 27.9, 6.8, 27.9 - 3 * 6.8, 1)])
    await old.close()
    monkeypatch.undo()
    store = store_for(database)
    await store.open()
    try:
        board = plain(await leaderboard_text(store, "test:guild", "tronix", None))
        assert f"1. bob **{shown(27.9)}** (provisional) · 2 games: 0 won, 1 drawn, 1 lost" in board
        assert f"2. alice **{shown(27.8)}** (provisional) · 2 games: 1 won, 1 drawn, 0 lost" in board
        profile = plain(await profile_text(store, "test:guild", ALICE.id, "alice"))
        assert f"Best win: ahead of bob (rated {shown(30.0)})" in profile
        assert [r.outcome for r in await store.standings.results_of_table(ids[1])] == [DRAW, DRAW]
        assert [r.outcome for r in await store.standings.results_of_table(ids[0])] == [WIN, LOSS]
    finally:
        await store.close()
