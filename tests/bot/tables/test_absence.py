"""Absent players at tables of three or more (bot/core/absence.py, bot/tables/absence.py): a missed
deadline brings a stand-in (`absent=standin`, the default), skips the player's turns
(`absent=skip`) or removes them (`absent=remove`); they come back with /back, `back` typed, or
any move of theirs; a table of two keeps the game's own rule. Both databases; a manual clock;
AI seats and stand-ins play the greedy agent's move (`ai_seconds` 0)."""

from __future__ import annotations

import pytest

from bot.core import absence
from bot.core.clock import ManualClock
from bot.core.records import DEADLINE, FINISHED, User
from bot.service.referee import Referee
from tests.bot.referees import ALICE, BOB, CAROL, PLACE, Notices, running_referee, text

PLAYERS = (ALICE, BOB, CAROL)
MANAGER = User("test:manager", "manager", moderator=True, manager=True)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def opened(referee: Referee, *players: User, options: str = "", game: str = "tronimoes",
                 guild: str | None = None) -> None:
    """A table of `players` (in that order) with `options`, started, a 1-hour turn clock."""
    first, *rest = players
    reply = await referee.create(PLACE, first, game, options=options, turn_time="1h", guild=guild)
    assert reply.ok, text(reply)
    for player in rest:
        assert (await referee.join(PLACE, player)).ok
    assert (await referee.start(PLACE, first)).ok


async def waiting_seat(referee: Referee) -> int:
    _table, game = await referee.view(PLACE)
    return game.to_move()[0]


async def time_runs_out(referee: Referee, clock: ManualClock) -> None:
    """The waiting player's deadline passes; the clock and the AI worker do what follows."""
    timers = [t for t in await referee.store.timers(1) if t.kind == DEADLINE]
    await clock.advance(min(t.due for t in timers) - clock.now() + 1)
    await referee.timers.idle()
    await referee.ai.idle()


async def test_a_player_whose_time_runs_out_at_three_seats_gets_a_stand_in_of_the_tables_level(database, clock):
    notices = Notices()
    async with running_referee(database, clock, notices=notices) as referee:
        await opened(referee, *PLAYERS, options="ai_level=easy")
        gone = await waiting_seat(referee)
        await time_runs_out(referee, clock)
        table, _game = await referee.view(PLACE)
        assert absence.away(table) == {gone: absence.STANDIN}
        actions = await referee.store.actions(1)
        made = [a for a in actions if a.seat == gone and a.actor.startswith("standin:")]
        assert made and {a.actor for a in made} == {"standin:easy"}  # played, by the table's level
        assert not [a for a in actions if a.actor == "clock"]  # no timeout move: the stand-in plays the turn
        said = "\n".join(notices.texts())
        name = table.seats[gone].name
        assert f"{name} ran out of time: 🤖 a stand-in plays for them until they type back or make a move." in said
        assert f"🤖 A stand-in plays for {name}." in said
        told = [r.private[gone].text for r in notices if gone in r.private]
        assert any("🤖 Your time ran out here: a stand-in plays your turns until you type" in t for t in told)
        timers = await referee.store.timers(1)
        assert gone not in {t.seat for t in timers if t.kind == DEADLINE}  # no clock runs for a stand-in


async def test_the_board_names_the_stand_in_and_no_one_is_pinged_for_its_turn(database, clock):
    notices = Notices()
    async with running_referee(database, clock, notices=notices) as referee:
        await opened(referee, *PLAYERS)
        gone = await waiting_seat(referee)
        table, _game = await referee.view(PLACE)
        await referee.ai.stop()  # the stand-in's turn is recorded, not yet played
        await time_runs_out_without_ai(referee, clock)
        fired = notices[-1]
        assert f"It's 🤖 stand-in for {table.seats[gone].name}'s turn" in text(fired)
        assert table.seats[gone].user_id not in fired.mentions
        board = await referee.board(PLACE, PLAYERS[(gone + 1) % 3])
        assert f"🤖 stand-in for {table.seats[gone].name}" in text(board)


async def test_back_typed_in_the_thread_ends_the_stand_in_and_starts_the_players_clock(database, clock):
    notices = Notices()
    async with running_referee(database, clock, notices=notices) as referee:
        await opened(referee, *PLAYERS)
        gone = await waiting_seat(referee)
        await referee.ai.stop()
        await time_runs_out_without_ai(referee, clock)
        player = PLAYERS[gone]
        reply = await referee.act(PLACE, player, "back", typed=True)
        assert reply.ok, text(reply)
        assert f"👋 {player.name} is back: their turns are their own again." in text(reply)
        table, game = await referee.view(PLACE)
        assert absence.away(table) == {}
        timers = await referee.store.timers(1)
        assert gone in game.to_move()  # still their turn (the stand-in never played it): theirs, on a fresh clock
        assert [t.due for t in timers if t.kind == DEADLINE and t.seat == gone] == [clock.now() + 3600]
        assert not [t for t in timers if t.kind == "ai"]  # the stand-in's pending turn is gone


async def time_runs_out_without_ai(referee: Referee, clock: ManualClock) -> None:
    timers = [t for t in await referee.store.timers(1) if t.kind == DEADLINE]
    await clock.advance(min(t.due for t in timers) - clock.now() + 1)
    await referee.timers.idle()


async def test_any_move_of_their_own_brings_an_absent_player_back(database, clock):
    async with running_referee(database, clock) as referee:
        await opened(referee, *PLAYERS)
        gone = await waiting_seat(referee)
        await referee.ai.stop()
        await time_runs_out_without_ai(referee, clock)
        player = PLAYERS[gone]
        move = (await referee.suggestions(PLACE, player, "", limit=1000))[0]
        reply = await referee.act(PLACE, player, move)
        assert reply.ok, text(reply)
        assert f"👋 {player.name} is back" in text(reply)
        table, _game = await referee.view(PLACE)
        assert absence.away(table) == {}
        assert [a.actor for a in await referee.store.actions(1) if a.seat == gone][-1] == player.id


async def test_back_from_a_player_who_is_not_away_is_refused_saying_so_and_changes_nothing(database, clock):
    async with running_referee(database, clock) as referee:
        await opened(referee, *PLAYERS)
        before = await referee.store.actions(1)
        reply = await referee.back(PLACE, BOB)
        assert not reply.ok and "you are not away at this table" in text(reply)
        assert await referee.store.actions(1) == before
        typed = await referee.act(PLACE, BOB, "back", typed=True)  # typed in the thread: conversation
        assert typed.unreadable or typed.public is None
        stranger = await referee.back(PLACE, User("test:dave", "dave"))
        assert not stranger.ok and "you are not playing at this table" in text(stranger)


async def test_skip_passes_an_absent_players_turns_at_once_until_they_come_back(database, clock):
    async with running_referee(database, clock) as referee:
        await opened(referee, *PLAYERS, options="absent=skip")
        gone = await waiting_seat(referee)
        await time_runs_out(referee, clock)
        table, game = await referee.view(PLACE)
        assert absence.away(table) == {gone: absence.SKIP}
        for _ in range(30):  # the others play on; the absent player's turns pass at once
            if game.outcome() is not None:
                break
            seat = game.to_move()[0]
            assert seat != gone or game.between_rounds()
            user = PLAYERS[seat]
            assert (await referee.act(PLACE, user, (await referee.suggestions(PLACE, user, "", limit=1000))[0])).ok
            table, game = await referee.view(PLACE)
        skipped = [a for a in await referee.store.actions(1) if a.seat == gone and a.actor == absence.ABSENT_ACTOR]
        assert len(skipped) >= 2
        assert gone not in {t.seat for t in await referee.store.timers(1)}


async def test_remove_makes_an_absent_player_resign(database, clock):
    notices = Notices()
    async with running_referee(database, clock, notices=notices) as referee:
        await opened(referee, *PLAYERS, options="absent=remove")
        gone = await waiting_seat(referee)
        await time_runs_out(referee, clock)
        _table, game = await referee.view(PLACE)
        assert game.is_resigned(gone)
        assert [a.action for a in await referee.store.actions(1) if a.actor == absence.ABSENT_ACTOR] == ["resign"]
        assert "ran out of time and left the game (this table removes absent players)" in "\n".join(notices.texts())


async def test_a_table_of_two_keeps_the_games_own_timeout_rule(database, clock):
    async with running_referee(database, clock) as referee:
        await opened(referee, ALICE, BOB, options="absent=remove")
        await time_runs_out(referee, clock)
        table, game = await referee.view(PLACE)
        actions = await referee.store.actions(1)
        assert [a for a in actions if a.actor == "clock"] and absence.away(table) == {}
        assert not any(game.is_resigned(s) for s in range(2))


async def test_a_bad_absent_value_is_refused_saying_what_to_type(database, clock):
    async with running_referee(database, clock) as referee:
        reply = await referee.create(PLACE, ALICE, "tronimoes", options="absent=later")
        assert not reply.ok
        assert "`absent=standin`" in text(reply) and "`absent=skip`" in text(reply) and "'later'" in text(reply)
        assert await referee.table_at(PLACE) is None
        settings = await referee.update_settings("g", MANAGER, absent="sometimes")
        assert not settings.ok and "`absent=remove`" in text(settings)
        assert (await referee.settings("g")).absent == absence.STANDIN


async def test_the_servers_default_applies_to_new_tables_and_the_lobby_shows_it(database, clock):
    async with running_referee(database, clock) as referee:
        assert (await referee.update_settings("g", MANAGER, absent="skip")).ok
        reply = await referee.create(PLACE, ALICE, "tronimoes", guild="g")
        assert "absent players (3+ seats): their turns are skipped (absent=skip)" in text(reply)
        table = await referee.table_at(PLACE)
        assert absence.mode_of(table) is None  # one seat so far: the game's own rule
        assert (await referee.join(PLACE, BOB)).ok and (await referee.join(PLACE, CAROL)).ok
        assert absence.mode_of(await referee.table_at(PLACE)) == absence.SKIP


async def test_a_game_a_stand_in_played_mostly_rates_its_player_as_having_resigned_and_says_why(database, clock):
    notices = Notices()
    async with running_referee(database, clock, notices=notices) as referee:
        await opened(referee, *PLAYERS)
        gone = await waiting_seat(referee)
        said = notices
        for _ in range(400):  # the absent player never comes back; the others play each turn at once
            await time_runs_out(referee, clock) if not absence.away((await referee.view(PLACE))[0]) else None
            table, game = await referee.view(PLACE)
            if table.status == FINISHED:
                break
            await referee.ai.idle()
            table, game = await referee.view(PLACE)
            if table.status == FINISHED:
                break
            seat = game.to_move()[0]
            user = PLAYERS[seat]
            assert seat != gone
            reply = await referee.act(PLACE, user, (await referee.suggestions(PLACE, user, "", limit=1000))[0])
            assert reply.ok
            said.append(reply)
        table, _game = await referee.view(PLACE)
        assert table.status == FINISHED
        results = await referee.store.standings.results_of_table(1)
        last = max(r.rank for r in results)
        mine = next(r for r in results if r.seat == gone)
        assert mine.rank == last and mine.outcome == "loss" and mine.mu < mine.mu_before
        assert all(r.rank < last for r in results if r.seat != gone)
        name = table.seats[gone].name
        assert f"most of {name}'s moves were made for them while they were away: rated as having resigned" in \
            "\n".join(notices.texts())
        await referee.ratings.rebuild()  # derived from the log: rebuilt, the same
        again = await referee.store.standings.results_of_table(1)
        assert [(r.seat, r.rank, r.outcome, round(r.mu, 9)) for r in again] == \
            [(r.seat, r.rank, r.outcome, round(r.mu, 9)) for r in results]


async def test_when_everyone_still_playing_is_skipped_the_clock_runs_for_them_as_usual(database, clock):
    async with running_referee(database, clock) as referee:
        await opened(referee, *PLAYERS, options="absent=skip")
        for _ in range(3):  # each player in turn lets their time run out
            await time_runs_out(referee, clock)
        table, game = await referee.view(PLACE)
        assert set(absence.away(table)) == {0, 1, 2} and game.outcome() is None  # no runaway of passes
        waiting = game.to_move()[0]
        timers = await referee.store.timers(1)
        assert [t.seat for t in timers if t.kind == DEADLINE] == [waiting]  # a clock runs for an absent player
        before = len(await referee.store.actions(1))
        await time_runs_out(referee, clock)  # the deadline fires as usual: their timeout move, once
        after = await referee.store.actions(1)
        assert len(after) > before and {a.actor for a in after[before:]} <= {absence.ABSENT_ACTOR, "rules"}


async def test_a_stand_ins_move_planned_before_its_player_came_back_is_dropped(database, clock):
    async with running_referee(database, clock) as referee:
        await opened(referee, *PLAYERS)
        gone = await waiting_seat(referee)
        await referee.ai.stop()
        await time_runs_out_without_ai(referee, clock)
        turn = next(t for t in await referee.store.timers(1) if t.kind == "ai")
        _table, game = await referee.view(PLACE)
        planned = game.legal_actions(gone)[0]  # what the stand-in would have played
        assert (await referee.back(PLACE, PLAYERS[gone])).ok  # meanwhile, its player comes back
        before = await referee.store.actions(1)
        assert await referee.ai.moves.play(turn, planned) is None  # the stand-in's move is dropped
        assert await referee.store.actions(1) == before
