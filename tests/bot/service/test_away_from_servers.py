"""/vacation and /back asked away from any game (a DM, a server the bot is not on): a vacation is
taken on every server where the player has unfinished games, each from its own allowance, and
/back brings the player back at every table where they are away, each table told. A real
SQLite file, a manual clock."""

from __future__ import annotations

import pytest

from bot.core import absence
from bot.core.clock import ManualClock
from bot.core.records import DEADLINE
from bot.service.referee import Referee
from bot.storage.vacations import year_of
from tests.bot.referees import ALICE, BOB, CAROL, Notices, running_referee, text

SERVERS = {"test:one": "test:table-one", "test:two": "test:table-two"}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def open_on_each_server(referee: Referee, options: str = "clock=1d+1h/2d") -> None:
    for guild, place in SERVERS.items():
        assert (await referee.create(place, ALICE, "tronimoes", options=options, guild=guild)).ok
        for player in (BOB, CAROL):
            assert (await referee.join(place, player)).ok
        assert (await referee.start(place, ALICE)).ok


async def test_a_vacation_declared_away_from_servers_is_taken_on_each_server_where_the_player_plays(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await open_on_each_server(referee)
        reply = await referee.vacation(None, ALICE, "tomorrow", "tomorrow")
        assert reply.ok, text(reply)
        for guild in SERVERS:
            assert [v.days for v in await referee.store.vacations.of_player(guild, ALICE.id, clock.now())] == [1]
            assert await referee.store.vacations.days_spent(guild, ALICE.id, year_of(clock.now())) == 1
        assert text(reply).count("On the server of") == 2


async def test_a_vacation_away_from_servers_without_games_anywhere_is_refused_saying_where_to_declare_it(
        tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        reply = await referee.vacation(None, ALICE, "tomorrow", "tomorrow")
        assert not reply.ok and "declare one on a server where you play" in text(reply)


async def alice_times_out_at(referee: Referee, clock: ManualClock, place: str) -> None:
    """Bob and Carol play their turns at `place` until Alice's comes; her time then runs out."""
    for _ in range(40):
        table = await referee.table_at(place)
        if table.seat_of(ALICE.id) in absence.away(table):
            return
        _table, game = await referee.view(place)
        seat = game.to_move()[0]
        if table.seats[seat].user_id == ALICE.id:
            due = min(t.due for t in await referee.store.timers(table.id) if t.kind == DEADLINE and t.seat == seat)
            await clock.advance(due - clock.now() + 1)
            await referee.timers.idle()
            await referee.ai.idle()
            continue
        player = next(p for p in (BOB, CAROL) if table.seats[seat].user_id == p.id)
        moves = await referee.suggestions(place, player, "", limit=1000)
        assert (await referee.act(place, player, moves[0])).ok
    pytest.fail(f"Alice's time never ran out at {place}")


async def test_back_away_from_servers_brings_the_player_back_at_every_table_where_they_are_away(tmp_path, clock):
    notices = Notices()
    async with running_referee(tmp_path / "t.sqlite3", clock, notices=notices) as referee:
        await open_on_each_server(referee, options="clock=1h")
        for place in SERVERS.values():
            await alice_times_out_at(referee, clock, place)
        told = len(notices)
        reply = await referee.back_everywhere(ALICE)
        assert reply.ok, text(reply)
        for place in SERVERS.values():
            table = await referee.table_at(place)
            assert table.seat_of(ALICE.id) not in absence.away(table)
        assert len(notices) >= told + 2, "each table's thread hears that Alice is back"
        again = await referee.back_everywhere(ALICE)
        assert not again.ok and "not away at any table" in text(again)
