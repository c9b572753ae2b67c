"""Every query behind /leaderboard, /profile, /games, /notify and the ratings is answered from an
index: SQLite's own query plans, for each statement the commands really run, show no table scan."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bot.leaderboards import leaderboard_text, profile_text
from bot.my_games import games_text
from bot.standings import Sql, Standings
from bot.timers import ManualClock
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
        await store.standings.notify_choices("test:guild", [ALICE.id, BOB.id])
        await store.standings.ratings_of("test:guild", "tronimoes", [ALICE.id])
        assert len(seen) >= 10
        for sql, args in seen:
            plan = [row[3] for row in await store.reader.execute_fetchall(  # type: ignore[attr-defined]
                f"EXPLAIN QUERY PLAN {sql}", args)]
            scans = [step for step in plan if step.startswith("SCAN") and "USING" not in step
                     and step != "SCAN CONSTANT ROW"]  # a SELECT of subqueries reads no table itself
            assert not scans, (sql, plan)
