"""Tournaments run from the first sign-up to the final standings by the bot alone, on a real
referee and database (SQLite and PostgreSQL), with a manual clock."""

from __future__ import annotations

import pytest

from bot.core.records import DEADLINE
from bot.storage.tournaments import CANCELLED, FINISHED, RUNNING, SIGNUP
from bot.tournaments.ranking import standing_order
from bot.tournaments.records import two_player_rounds
from bot.tournaments.runner import TOURNAMENT
from engine.pairing.records import Bye, SatOut
from tests.bot.tournaments.helpers import MOD, player, running_event

HOUR = 3600.0


@pytest.fixture
async def event(database):
    async with running_event(database) as event:
        yield event


async def test_a_round_robin_runs_from_sign_up_to_its_winner(event):
    tid = await event.new("tromino_go", "round_robin", 4)
    await event.step()
    assert (await event.view(tid)).tournament.status == SIGNUP
    await event.step(HOUR)
    for number in (1, 2, 3):
        view = await event.view(tid)
        assert view.tournament.current_round == number
        current = view.round(number)
        assert len(current.boards) == 2 and all(b.table_id is not None for b in current.boards)
        tables = [await event.referee.store.get_table(b.table_id) for b in current.boards]
        assert all(t.status == "playing" for t in tables)
        await event.play_out(tid)
        await event.step()
    view = await event.view(tid)
    assert view.tournament.status == FINISHED
    assert all(r.closed_at is not None for r in view.rounds) and len(view.rounds) == 3
    assert all(b.result == "1-0" for r in view.rounds for b in r.boards)
    assert event.posted.keys()[:3] == ["announce", "start", "round:1:0"]
    assert event.posted.keys()[-1] == "final"
    assert "wins it" in event.posted.text("final")


async def test_a_round_is_paired_once_however_often_the_runner_looks(event):
    tid = await event.new("tromino_go", "round_robin", 4)
    await event.step(HOUR)
    first = await event.view(tid)
    for _ in range(3):
        await event.step()
        await event.runner.advance(tid)
    again = await event.view(tid)
    assert again.rounds == first.rounds
    assert len(await event.referee.store.find_tables(place_prefix="test:lobby/")) == 2


async def test_a_game_still_on_at_the_deadline_is_adjudicated_and_the_next_round_opens(event):
    tid = await event.new("tromino_go", "round_robin", 4, round_time="2d")
    await event.step(HOUR)
    view = await event.view(tid)
    await event.step(2 * 86400 + 1)
    view = await event.view(tid)
    assert view.tournament.current_round == 2
    first = view.round(1)
    assert all(b.adjudicated and b.result == "½-½" for b in first.boards)
    tables = [await event.referee.store.get_table(b.table_id) for b in first.boards]
    assert all(t.status == "aborted" for t in tables)
    assert "scored as a draw" in event.posted.text("announce")


async def test_sign_up_after_the_start_is_refused(event):
    tid = await event.new("tromino_go", "round_robin", 4)
    await event.step(HOUR)
    reply = await event.desk.sign_up(tid, player(9))
    assert not reply.ok and "closed" in reply.caller.text


async def test_a_player_already_in_is_refused(event):
    tid = await event.new("tromino_go", "round_robin", 2)
    reply = await event.desk.sign_up(tid, player(1))
    assert not reply.ok and "already in" in reply.caller.text


async def test_a_round_count_a_round_robin_cannot_hold_is_refused_at_the_start(event):
    tid = await event.new("tromino_go", "round_robin", 5, rounds=7)
    await event.step(HOUR)
    assert (await event.view(tid)).tournament.status == CANCELLED
    assert "5 players play 5 rounds" in event.posted.text("cancelled")


async def test_a_swiss_with_as_many_rounds_as_players_is_cancelled(event):
    tid = await event.new("tromino_go", "swiss", 3, rounds=3)
    await event.step(HOUR)
    assert (await event.view(tid)).tournament.status == CANCELLED
    assert "needs more than 3 players" in event.posted.text("cancelled")


async def test_a_field_pods_cannot_seat_is_cancelled(event):
    tid = await event.new("triominoes", "pods", 5, seats=4, rounds=2)
    await event.step(HOUR)
    assert (await event.view(tid)).tournament.status == CANCELLED
    assert "cannot be seated at tables of 4" in event.posted.text("cancelled")


async def test_a_game_not_played_by_two_has_no_round_robin(event):
    reply = await event.desk.new(player(1), "test:lobby", "g1", "tromino_go", "round_robin")
    assert not reply.ok and "moderator" in reply.caller.text


async def test_a_withdrawn_players_games_are_forfeited_to_their_opponents(event):
    tid = await event.new("tromino_go", "round_robin", 4)
    await event.step(HOUR)
    withdrawn = await event.desk.withdraw(player(4), tid)
    assert withdrawn.ok
    await event.play_out(tid)
    await event.step()
    view = await event.view(tid)
    quitter = view.entrant_of("test:p4").number
    assert view.tournament.current_round == 2
    board = next(b for b in view.round(2).boards if quitter in b.players)
    assert board.result == ("-/+" if board.players[0] == quitter else "+/-") and board.table_id is None


async def test_pods_seat_players_by_score_and_score_them_by_placing(event):
    tid = await event.new("triominoes", "pods", 6, seats=3, rounds=2)
    await event.step(HOUR)
    view = await event.view(tid)
    assert [len(b.players) for b in view.round(1).boards] == [3, 3]
    await event.play_out(tid)
    await event.step()
    view = await event.view(tid)
    assert view.round(1).closed_at is not None
    assert all(b.result.split(",")[0] == "1" for b in view.round(1).boards)
    assert view.tournament.current_round == 2 and view.tournament.status == RUNNING


async def test_a_swiss_is_paired_by_the_dutch_system_and_never_repeats_a_pairing(event):
    tid = await event.new("tromino_go", "swiss", 6, rounds=3)
    await event.step(HOUR)
    for number in (1, 2, 3):
        view = await event.view(tid)
        assert view.tournament.current_round == number and len(view.round(number).boards) == 3
        await event.play_out(tid)
        await event.step()
    view = await event.view(tid)
    assert view.tournament.status == FINISHED
    pairs = [frozenset(b.players) for r in view.rounds for b in r.boards]
    assert len(pairs) == len(set(pairs)) == 9


async def test_a_late_entry_gets_zero_point_byes_for_the_rounds_missed(event):
    reply = await event.desk.new(MOD, "test:lobby", "g1", "tromino_go", "swiss", rounds=3, start="1h", late="3d")
    assert reply.ok
    tid = (await event.referee.store.tournaments.listed("g1"))[0].id
    for index in range(1, 5):
        await event.desk.sign_up(tid, player(index))
    await event.step(HOUR)
    late = await event.desk.sign_up(tid, player(5))
    assert late.ok and "round 2" in late.caller.text
    await event.play_out(tid)
    await event.step()
    view = await event.view(tid)
    number = view.entrant_of("test:p5").number
    assert SatOut(number, Bye.ZERO_POINT) in two_player_rounds(view)[0].sat_out
    assert number in {p for b in view.round(2).boards for p in b.players} | {p for p, _ in view.round(2).sat_out}


async def test_a_league_plays_its_divisions_and_promotes_into_the_next_season(event):
    tid = await event.new("tromino_go", "league", 6, division_size=3)
    await event.step(HOUR)
    view = await event.view(tid)
    assert sorted({e.division for e in view.entrants}) == [1, 2]
    while (await event.view(tid)).tournament.status == RUNNING:
        await event.play_out(tid)
        await event.step()
    view = await event.view(tid)
    assert view.tournament.status == FINISHED and len(view.rounds) == 3
    following = [t for t in await event.referee.store.tournaments.listed("g1") if t.previous_id == tid]
    assert len(following) == 1
    nxt = await event.view(following[0].id)
    assert len(nxt.entrants) == 6
    moved = {e.user_id: e.division for e in nxt.entrants}
    winner_of_two = view.entrant(standing_order(view, 2)[0]).user_id
    last_of_one = view.entrant(standing_order(view, 1)[-1]).user_id
    assert (moved[winner_of_two], moved[last_of_one]) == (1, 2)


async def test_only_the_players_who_checked_in_are_paired_when_check_in_is_asked(event):
    reply = await event.desk.new(MOD, "test:lobby", "g1", "tromino_go", "round_robin", start="1h", checkin=True)
    assert reply.ok
    tid = (await event.referee.store.tournaments.listed("g1"))[0].id
    for index in range(1, 6):
        await event.desk.sign_up(tid, player(index))
    for index in range(1, 5):
        assert (await event.desk.check_in(tid, player(index))).ok
    stranger = await event.desk.check_in(tid, player(9))
    assert not stranger.ok and "sign up" in stranger.caller.text
    await event.step(HOUR)
    view = await event.view(tid)
    assert sorted(e.user_id for e in view.entrants) == [f"test:p{i}" for i in range(1, 5)]
    assert len(view.round(1).boards) == 2
    late = await event.desk.check_in(tid, player(1))
    assert not late.ok and "started" in late.caller.text


async def test_a_paused_tournament_waits_and_its_round_deadline_moves_on_by_the_pause(event):
    tid = await event.new("tromino_go", "round_robin", 4, round_time="1d")
    await event.step(HOUR)
    deadline = (await event.view(tid)).round(1).deadline
    assert not (await event.desk.pause(player(1), tid)).ok
    assert (await event.desk.pause(MOD, tid)).ok
    await event.step(2 * 86400)
    view = await event.view(tid)
    assert view.tournament.current_round == 1 and all(b.result is None for b in view.round(1).boards)
    assert (await event.desk.resume(MOD, tid)).ok
    view = await event.view(tid)
    assert view.round(1).deadline == deadline + 2 * 86400 and view.tournament.due == deadline + 2 * 86400
    await event.step(HOUR)
    assert (await event.view(tid)).tournament.current_round == 1


async def test_a_paused_tournament_stops_its_games_clocks_until_it_carries_on(event):
    tid = await event.new("tromino_go", "round_robin", 4, clock="1d", round_time="7d")
    await event.step(HOUR)
    boards = (await event.view(tid)).round(1).boards
    paused = await event.desk.pause(MOD, tid)
    assert paused.ok and "2 games" in paused.public.text
    assert all([(await event.referee.store.get_table(b.table_id)).paused for b in boards])
    assert not any([await _deadlines(event, b.table_id) for b in boards])
    await event.step(3 * 86400)  # three turn times
    await event.referee.timers.idle()
    assert all([(await event.referee.store.get_table(b.table_id)).status == "playing" for b in boards])
    resumed = await event.desk.resume(MOD, tid)
    assert resumed.ok and "2 games" in resumed.public.text
    assert not any([(await event.referee.store.get_table(b.table_id)).paused for b in boards])
    for board in boards:  # each turn goes on with the day it had left, not two days overdue
        (due,) = (await _deadlines(event, board.table_id)).values()
        assert due == pytest.approx(event.clock.now() + 86400, abs=60)
    await event.clock.advance(86400 + 60)  # now a turn runs out, and in Tromino Go that loses the game
    await event.referee.timers.idle()
    assert all([(await event.referee.store.get_table(b.table_id)).status == "finished" for b in boards])


async def _deadlines(event, table_id: int) -> dict[int, float]:
    return {t.seat: t.due for t in await event.referee.store.timers(table_id) if t.kind == DEADLINE}


async def test_a_removed_players_game_is_stopped_and_forfeited(event):
    tid = await event.new("tromino_go", "round_robin", 4)
    await event.step(HOUR)
    removed = await event.desk.remove(MOD, player(2), tid)
    assert removed.ok and "removed" in removed.public.text
    view = await event.view(tid)
    number = view.entrant_of("test:p2").number
    board = next(b for b in view.round(1).boards if number in b.players)
    assert board.result == ("-/+" if board.players[0] == number else "+/-")
    assert (await event.referee.store.get_table(board.table_id)).status == "aborted"
    again = await event.desk.remove(MOD, player(2), tid)
    assert not again.ok


async def test_a_round_not_under_way_is_paired_again_with_new_tables(event):
    tid = await event.new("tromino_go", "swiss", 6, rounds=3)
    await event.step(HOUR)
    before = await event.view(tid)
    old_tables = [b.table_id for b in before.round(1).boards]
    assert (await event.desk.withdraw(player(6), tid)).ok
    repaired = await event.desk.repair(MOD, tid)
    assert repaired.ok, repaired.caller
    await event.step()
    view = await event.view(tid)
    gone = view.entrant_of("test:p6").number
    assert gone not in {p for b in view.round(1).boards for p in b.players}
    assert all(b.table_id not in old_tables and b.table_id is not None for b in view.round(1).boards)
    assert [(await event.referee.store.get_table(t)).status for t in old_tables] == ["aborted"] * 3
    assert "round:1:1" in event.posted.keys()  # noqa: SIM118 (Posted.keys lists the keys posted)


async def test_ending_a_tournament_adjudicates_its_games_and_crowns_a_winner(event):
    tid = await event.new("tromino_go", "round_robin", 4, adjudication="score")
    await event.step(HOUR)
    assert not (await event.desk.end(player(1), tid)).ok
    assert (await event.desk.end(MOD, tid)).ok
    await event.step()
    view = await event.view(tid)
    assert view.tournament.status == FINISHED and len(view.rounds) == 1
    assert all(b.adjudicated for b in view.round(1).boards)
    assert "is over" in event.posted.text("final")


async def test_a_tournament_games_rematch_is_a_friendly_game_the_tournament_never_counts(event):
    tid = await event.new("tromino_go", "round_robin", 4, rated=False)
    await event.step(HOUR)
    board = (await event.view(tid)).round(1).boards[0]
    await event.play_out(tid)
    first = player(board.players[0])
    reply = await event.referee.rematch(board.place, "test:friendly", first)
    assert reply.ok, reply.caller
    friendly = await event.referee.store.table_at("test:friendly")
    assert friendly is not None and TOURNAMENT not in friendly.meta and friendly.meta["rated"] is False
    await event.referee.join("test:friendly", player(board.players[1]))
    await event.step()
    view = await event.view(tid)
    assert view.tournament.current_round == 2
    assert len(view.round(2).boards) == 2 and all(b.place != "test:friendly" for r in view.rounds for b in r.boards)
    assert (await event.referee.store.table_at("test:friendly")).status == "playing"


async def test_an_unrated_tournament_opens_unrated_tables_with_its_clock(event):
    tid = await event.new("tromino_go", "round_robin", 2, rated=False, vacation=False, clock="3d+1d")
    await event.step(HOUR)
    board = (await event.view(tid)).round(1).boards[0]
    table = await event.referee.store.get_table(board.table_id)
    assert table.meta["rated"] is False and table.meta["vacation"] is False and "clock" in table.meta


async def test_a_tournament_in_spanish_speaks_spanish_everywhere(event):
    reply = await event.desk.new(MOD, "test:lobby", "g1", "tromino_go", "round_robin", start="1h", language="es")
    assert reply.ok and "creado" in reply.caller.text
    tid = (await event.referee.store.tournaments.listed("g1"))[0].id
    for index in range(1, 3):
        await event.desk.sign_up(tid, player(index))
    await event.step(HOUR)
    assert "todos contra todos de Tromino Go" in event.posted.text("announce")
    assert "ronda 1" in event.posted.text("round:1:0")
    board = (await event.view(tid)).round(1).boards[0]
    assert (await event.referee.store.get_table(board.table_id)).meta["lang"] == "es"
    assert "ronda 1, mesa 1" in event.posted.text(f"open:{board.place}")
