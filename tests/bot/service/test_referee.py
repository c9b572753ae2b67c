"""The referee service: lifecycle, who may do what, clocks across restarts, stale and concurrent
commands, AI seats. Real SQLite files in temporary folders; a manual clock, so nothing sleeps."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import uuid

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.core.clock import ManualClock
from bot.core.records import ABORTED, FINISHED, LOBBY, PLAYING, ActionRecord, User
from bot.service.referee import Referee
from engine import GAMES
from engine.digits import foreign_digit
from engine.tronimoes import Tronimoes
from tests.bot.referees import (
    ALICE,
    BOB,
    CAROL,
    MOD,
    PLACE,
    Notices,
    losing,
    running_referee,
    started,
    text,
    waiting_user,
)
from tests.engine.test_contract import ODD_NUMBERS, oddly_numbered


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def a_move(referee: Referee, user: User, place: str = PLACE) -> str:
    return (await referee.suggestions(place, user, "", limit=1000))[0]


# ---- lifecycle ----------------------------------------------------------------------------


async def test_a_table_goes_from_lobby_to_playing_to_finished(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        created = await referee.create(PLACE, ALICE, "tronimoes", options="ouroboros=off", turn_time="2h")
        assert created.ok and "Tronimoes" in text(created) and "2h per turn" in text(created)
        assert (await referee.join(PLACE, BOB)).ok
        assert (await referee.add_ai(PLACE, ALICE, "random")).ok
        table = await referee.table_at(PLACE)
        assert table.status == LOBBY and [s.name for s in table.seats] == ["alice", "bob", "Pip (bot)"]
        reply = await referee.start(PLACE, ALICE)
        assert reply.ok and "Round 1" in text(reply)
        table = await referee.table_at(PLACE)
        assert table.status == PLAYING and table.seed is not None and table.options == {"ouroboros": "off"}
        for _ in range(5000):
            await referee.ai.idle()
            if (await referee.table_at(PLACE)).status != PLAYING:
                break
            user = await waiting_user(referee)
            reply = await referee.act(PLACE, user, await a_move(referee, user))
            assert reply.ok, text(reply)
        assert (await referee.table_at(PLACE)).status == FINISHED
        assert "Final scores" in text(await referee.board(PLACE))
        history = await referee.history(PLACE)
        assert "alice:" in text(history) or "bob:" in text(history)


async def test_leaving_the_lobby_frees_the_seat_and_the_last_person_out_closes_it(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await referee.create(PLACE, ALICE, "tronimoes")
        await referee.join(PLACE, BOB)
        assert (await referee.leave(PLACE, ALICE)).ok
        assert [s.name for s in (await referee.table_at(PLACE)).seats] == ["bob"]
        reply = await referee.leave(PLACE, BOB)
        assert "closed" in text(reply) and (await referee.table_at(PLACE)).status == ABORTED


async def test_a_move_reply_has_the_board_picture_and_mentions_the_next_player(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock, render=True) as referee:
        reply = await started(referee, ALICE, BOB)
        image = Image.open(io.BytesIO(reply.public.attachments[0].data))
        assert image.format == "PNG" and image.width <= 1600
        user = await waiting_user(referee)
        assert reply.mentions == [user.id] and f"<@{user.id}|{user.name}>" in reply.public.text


async def test_a_drawn_tile_is_told_only_to_its_player(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB)
        user = await waiting_user(referee)
        reply = await referee.act(PLACE, user, "draw")
        table, game = await referee.view(PLACE)
        seat = table.seat_of(user.id)
        drawn = game.view(seat)["hand"][-1]
        assert f"You drew {drawn}." in reply.private[seat].text
        assert "You drew" not in reply.public.text and list(reply.private) == [seat]


async def test_the_hand_goes_to_its_owner_alone(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock, render=True) as referee:
        await started(referee, ALICE, BOB)
        reply = await referee.hand(PLACE, BOB)
        assert reply.public is None and reply.caller.text.startswith("Your hand")
        assert Image.open(io.BytesIO(reply.caller.attachments[0].data)).format == "PNG"
        outsider = await referee.hand(PLACE, CAROL)
        assert not outsider.ok and "not playing" in text(outsider)


async def test_history_lists_moves_with_who_and_when(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB)
        user = await waiting_user(referee)
        await referee.act(PLACE, user, "draw")
        await clock.advance(600)
        history = text(await referee.history(PLACE))
        assert f"{user.name}: `draw` · 10m ago" in history


async def test_history_pages_are_even_and_the_oldest_is_never_a_stub(tmp_path, clock):
    """76 moves are four pages of 19 (not three of 25 and a last one of move 1 alone); every move
    is on exactly one page, page 1 holding the latest."""
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB)
        table = await referee.table_at(PLACE)
        made = await referee.store.log_length(table.id)
        moves = [ActionRecord(made + i + 1, i % 2, "draw", ALICE.id, clock.now()) for i in range(76 - made)]
        await referee.store.commit(table.id, expected=made, actions=moves)
        headers = []
        for page in (1, 2, 3, 4):
            lines = text(await referee.history(PLACE, page=page)).splitlines()
            headers.append(lines[0])
            assert len([line for line in lines if "· " in line and "ago" in line]) == 19
        assert headers == [f"**Moves {first}–{last} of 76** (page {page} of 4)"
                           for page, (first, last) in enumerate([(58, 76), (39, 57), (20, 38), (1, 19)], start=1)]
        assert not (await referee.history(PLACE, page=5)).ok


async def test_resigning_ends_a_two_player_game(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB)
        reply = await referee.resign(PLACE, BOB)
        assert reply.ok and "alice wins" in text(reply)
        assert (await referee.table_at(PLACE)).status == FINISHED


# ---- who may do what ----------------------------------------------------------------------


async def test_someone_not_seated_cannot_act(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB)
        reply = await referee.act(PLACE, CAROL, "draw")
        assert not reply.ok and text(reply) == "you are not playing at this table"
        assert reply.public is None


async def test_a_player_cannot_move_for_the_seat_whose_turn_it_is(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB)
        mover = await waiting_user(referee)
        other = BOB if mover == ALICE else ALICE
        before = await referee.store.log_length(1)
        reply = await referee.act(PLACE, other, "draw")
        assert not reply.ok and text(reply) == f"it is {mover.name}'s turn"
        assert await referee.store.log_length(1) == before


@pytest.mark.parametrize("command", ["force_pass", "pause", "abort", "rollback", "kick"])
async def test_moderator_commands_are_refused_to_players(tmp_path, clock, command):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB, turn_time="1h")
        arguments = {"rollback": (0,), "kick": (BOB.id,)}.get(command, ())
        reply = await getattr(referee, command)(PLACE, ALICE, *arguments)
        assert not reply.ok and text(reply).startswith("only moderators can")
        assert (await referee.table_at(PLACE)).status == PLAYING


async def test_only_players_start_a_table_and_only_within_the_player_count(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await referee.create(PLACE, ALICE, "tronimoes")
        assert text(await referee.start(PLACE, CAROL)) == "only alice or a moderator can start this game"
        for _ in range(5):
            await referee.add_ai(PLACE, ALICE)
        assert "table is full" in text(await referee.join(PLACE, CAROL))


async def test_only_the_creator_or_a_moderator_starts_and_adds_bots_then_whoever_sat_longest(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await referee.create(PLACE, ALICE, "tronimoes")
        await referee.join(PLACE, BOB)
        await referee.join(PLACE, CAROL)
        assert text(await referee.add_ai(PLACE, BOB)) == "only alice or a moderator can add an AI player"
        assert text(await referee.start(PLACE, CAROL)) == "only alice or a moderator can start this game"
        assert (await referee.add_ai(PLACE, ALICE)).ok and (await referee.add_ai(PLACE, MOD)).ok
        assert (await referee.leave(PLACE, ALICE)).ok  # the creator left: bob has sat longest
        assert text(await referee.add_ai(PLACE, ALICE)) == "only bob or a moderator can add an AI player"
        assert text(await referee.start(PLACE, ALICE)) == "only bob or a moderator can start this game"
        assert text(await referee.start(PLACE, CAROL)) == "only bob or a moderator can start this game"
        assert (await referee.table_at(PLACE)).status == LOBBY and len((await referee.table_at(PLACE)).seats) == 4
        assert (await referee.add_ai(PLACE, BOB)).ok and (await referee.start(PLACE, BOB)).ok


async def test_bad_commands_get_specific_reasons(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        assert "there is no game called 'chess'" in text(await referee.create(PLACE, ALICE, "chess"))
        assert "unknown option 'colour'" in text(await referee.create(PLACE, ALICE, "tronimoes", options="colour=red"))
        assert "not a duration" in text(await referee.create(PLACE, ALICE, "tronimoes", turn_time="soon"))
        assert "there is no game here" in text(await referee.act(PLACE, ALICE, "draw"))
        await started(referee, ALICE, BOB)
        assert "there is already a Tronimoes table here" in text(await referee.create(PLACE, BOB, "tronimoes"))
        mover = await waiting_user(referee)
        assert "`3:5 c4 d4`" in text(await referee.act(PLACE, mover, "banana"))


# ---- moderators ----------------------------------------------------------------------------


async def test_a_moderator_forces_a_pass_with_the_games_timeout_actions(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB)
        mover = await waiting_user(referee)
        reply = await referee.force_pass(PLACE, MOD)
        assert reply.ok and f"mod forced a pass for {mover.name}" in text(reply)
        actions = await referee.store.actions(1)
        assert [a.action.split()[0] for a in actions] == ["draw", "pass"]
        assert {a.actor for a in actions} == {f"mod:{MOD.id}"}
        assert await waiting_user(referee) != mover


async def test_a_moderator_kicks_a_player_by_resigning_for_them(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB, CAROL)
        reply = await referee.kick(PLACE, MOD, CAROL.id)
        assert reply.ok and "removed carol" in text(reply)
        table, game = await referee.view(PLACE)
        assert game.is_resigned(2) and table.status == PLAYING


async def test_a_moderator_rolls_the_game_back_by_replay_and_the_unseen_tiles_are_shuffled_again(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB)
        positions = []
        for _ in range(6):
            positions.append((await referee.view(PLACE))[1].to_position())
            user = await waiting_user(referee)
            await referee.act(PLACE, user, await a_move(referee, user))
        reply = await referee.rollback(PLACE, MOD, 2)
        assert reply.ok and "rolled the game back to move 2" in text(reply)
        _, game = await referee.view(PLACE)
        now, before = game.to_position(), positions[2]
        assert {k: v for k, v in now.items() if k != "bag"} == {k: v for k, v in before.items() if k != "bag"}
        assert sorted(now["bag"]) == sorted(before["bag"]) and now["bag"] != before["bag"]
        assert [a.ply for a in await referee.store.actions(1)] == [1, 2, 3]
        assert (await referee.store.actions(1))[-1].action.startswith("chance ")
        user = await waiting_user(referee)
        assert (await referee.act(PLACE, user, await a_move(referee, user))).ok
        assert [a.ply for a in await referee.store.actions(1)] == [1, 2, 3, 4]


async def test_a_moderator_aborts_a_game(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB, turn_time="1h")
        assert (await referee.abort(PLACE, MOD)).ok
        assert (await referee.table_at(PLACE)).status == ABORTED
        assert await referee.store.timers(1) == []
        assert "this game was stopped" in text(await referee.act(PLACE, ALICE, "draw"))


async def test_pausing_stops_the_clock_and_resuming_keeps_the_time_left(tmp_path, clock):
    notices = Notices()
    async with running_referee(tmp_path / "t.sqlite3", clock, notices=notices) as referee:
        await started(referee, ALICE, BOB, turn_time="1h")
        await clock.advance(1000)
        assert (await referee.pause(PLACE, MOD)).ok
        assert await referee.store.timers(1) == []
        await clock.advance(10 * 3600)
        await referee.timers.idle()
        assert not any("ran out of time" in t for t in notices.texts())
        reply = await referee.resume(PLACE, MOD)
        assert "(ends in 43m 20s)" in text(reply, clock.now())
        deadline = next(t for t in await referee.store.timers(1) if t.kind == "deadline")
        assert deadline.due == clock.now() + 2600


# ---- the clock ------------------------------------------------------------------------------


async def test_reminders_come_before_the_deadline(tmp_path, clock):
    notices = Notices()
    async with running_referee(tmp_path / "t.sqlite3", clock, notices=notices) as referee:
        await started(referee, ALICE, BOB, turn_time="1h")
        mover = await waiting_user(referee)
        await clock.advance(1800)
        await referee.timers.idle()
        assert notices.texts(clock.now()) == [f"⏰ {mover.name}, your turn ends in 30m."]
        await clock.advance(1440)
        await referee.timers.idle()
        assert notices.texts(clock.now())[1:] == [f"⏰ {mover.name}, your turn ends in 6m."]
        assert notices[0].mentions == notices[1].mentions == []  # the Start's announcement pinged them this turn


async def test_a_timeout_after_a_restart_fires_exactly_once(tmp_path, clock):
    path = tmp_path / "t.sqlite3"
    async with running_referee(path, clock) as referee:
        await started(referee, ALICE, BOB, turn_time="1h")
        mover = await waiting_user(referee)
        await referee.act(PLACE, mover, "draw")
        await clock.advance(1200)
    clock_later = ManualClock(clock.now())
    await clock_later.advance(3 * 3600)
    notices = Notices()
    async with running_referee(path, clock_later, notices=notices) as referee:
        await referee.timers.idle()
        assert [t for t in notices.texts() if "ran out of time" in t] == [f"⏰ {mover.name} ran out of time.\n"
                                                                         + notices.texts()[-1].split("\n", 1)[1]]
        actions = await referee.store.actions(1)
        assert [a.action.split()[0] for a in actions] == ["draw", "pass"]
        assert actions[-1].actor == "clock"
        other = await waiting_user(referee)
        assert other != mover
        deadline = next(t for t in await referee.store.timers(1) if t.kind == "deadline")
        assert deadline.due == clock_later.now() + 3600
    async with running_referee(path, clock_later, notices=notices) as referee:
        await referee.timers.idle()
        assert len([t for t in notices.texts() if "ran out of time" in t]) == 1
        assert len(await referee.store.actions(1)) == 2


async def test_a_new_turn_gets_a_new_deadline_but_drawing_does_not_restart_it(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB, turn_time="1h")
        first = next(t for t in await referee.store.timers(1) if t.kind == "deadline")
        await clock.advance(600)
        mover = await waiting_user(referee)
        await referee.act(PLACE, mover, "draw")
        assert next(t for t in await referee.store.timers(1) if t.kind == "deadline").due == first.due
        passing = (await referee.suggestions(PLACE, mover, "pass"))[0]
        await referee.act(PLACE, mover, passing)
        second = next(t for t in await referee.store.timers(1) if t.kind == "deadline")
        assert second.due == clock.now() + 3600 and second.seat != first.seat


# ---- stale and concurrent commands ------------------------------------------------------


async def test_a_command_based_on_an_old_board_is_refused_with_the_current_board(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock, render=True) as referee:
        await started(referee, ALICE, BOB)
        mover = await waiting_user(referee)
        assert (await referee.force_pass(PLACE, MOD)).ok
        other = await waiting_user(referee)
        reply = await referee.act(PLACE, mover, "draw", seen=0)
        assert not reply.ok and text(reply).startswith("the board changed since you looked (a moderator acted for "
                                                       "you; it is now move 2)"), text(reply)
        assert Image.open(io.BytesIO(reply.caller.attachments[0].data)).format == "PNG"
        assert await referee.store.log_length(1) == 2 and other != mover


async def test_a_command_based_on_a_board_only_the_callers_own_move_changed_is_not_stale(tmp_path, clock):
    """The caller drew, and their next command reached the bot before any board showing the draw
    (the announcement of an AI's or another's move can arrive after their own): it is played."""
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB)
        mover = await waiting_user(referee)
        assert (await referee.act(PLACE, mover, "draw", seen=0)).ok
        lay = next(m for m in await referee.suggestions(PLACE, mover, "", limit=1000) if m != "pass")
        reply = await referee.act(PLACE, mover, lay, seen=0)
        assert reply.ok, text(reply)
        assert [a.action for a in await referee.store.actions(1)] == ["draw", lay]


async def test_of_many_simultaneous_commands_each_is_judged_on_the_game_as_it_is(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB)
        mover = await waiting_user(referee)
        moves = await referee.suggestions(PLACE, mover, "", limit=1000)
        replies = await asyncio.gather(*(referee.act(PLACE, mover, m, seen=0) for m in moves * 3))
        actions = await referee.store.actions(1)
        assert [a.ply for a in actions] == list(range(1, len(actions) + 1))
        assert sum(r.ok for r in replies) == len(actions) >= 1
        assert len({a.action for a in actions if a.action != "draw"}) == len([a for a in actions if a.action != "draw"])


async def test_two_referees_on_one_file_never_both_commit_the_same_move(tmp_path, clock):
    path = tmp_path / "t.sqlite3"
    async with running_referee(path, clock) as first, running_referee(path, clock) as second:
        await started(first, ALICE, BOB)
        mover = await waiting_user(first)
        await second.board(PLACE)
        moves = (await first.suggestions(PLACE, mover, "", limit=1000))[:6]
        replies = await asyncio.gather(*(referee.act(PLACE, mover, move)
                                         for move in moves for referee in (first, second)))
        winners = [r for r in replies if r.ok]
        assert len(winners) == 1
        assert not any("something went wrong" in text(r) for r in replies)
        actions = await first.store.actions(1)
        assert [a.ply for a in actions] == [1]
        table, game = await second.view(PLACE)
        replayed = Tronimoes.new(2, seed=table.seed, names=["alice", "bob"])
        replayed.replay([[a.seat, a.action] for a in actions])
        assert replayed.to_position() == game.to_position()


# ---- AI seats and loading -----------------------------------------------------------------


async def test_ai_seats_play_whole_games_to_the_end(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        for number, kinds in enumerate([["greedy", "random"], ["random"] * 3, ["greedy"] * 6]):
            place = f"test:ai-{number}"
            await referee.create(place, MOD, "tronimoes", seat_creator=False)
            for kind in kinds:
                assert (await referee.add_ai(place, MOD, kind)).ok
            assert (await referee.start(place, MOD)).ok
            await referee.ai.idle()
            table = await referee.table_at(place)
            assert table.status == FINISHED
            actions = await referee.store.actions(table.id)
            assert all(a.actor.startswith("ai:") for a in actions)


async def test_a_bot_seat_is_a_level_and_the_old_names_still_work(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await referee.create(PLACE, MOD, "tronimoes", seat_creator=False)
        for kind in ("easy", "hard", "bot", "strong", "Normal", "greedy"):
            assert (await referee.add_ai(PLACE, MOD, kind)).ok
        table = await referee.table_at(PLACE)
        assert [s.agent for s in table.seats] == ["easy", "hard", "normal", "normal", "normal", "greedy"]
        assert (await referee.start(PLACE, MOD)).ok
        await referee.ai.idle()
        assert (await referee.table_at(PLACE)).status == FINISHED
        actors = {a.actor for a in await referee.store.actions(table.id)}
        assert {"ai:easy", "ai:hard", "ai:normal", "ai:greedy"} <= actors


async def test_an_unknown_level_is_refused_naming_the_levels(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await referee.create(PLACE, ALICE, "tronimoes")
        refused = await referee.add_ai(PLACE, ALICE, "expert")
        assert text(refused) == ("there is no AI level called 'expert'; choose one of easy, normal, hard "
                                 "(or greedy, random)")
        assert len((await referee.table_at(PLACE)).seats) == 1
        bad = await referee.create("test:bad", ALICE, "tronimoes", options="ai_level=expert")
        assert "no AI level called 'expert'" in text(bad) and await referee.table_at("test:bad") is None


async def test_the_ai_level_option_is_the_level_of_a_bot_added_without_one(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await referee.create(PLACE, ALICE, "tronimoes", options="ai_level=easy")
        added = await referee.add_ai(PLACE, ALICE)
        assert "(easy AI) sits down" in text(added)
        assert (await referee.add_ai(PLACE, ALICE, "hard")).ok
        assert [s.agent for s in (await referee.table_at(PLACE)).seats[1:]] == ["easy", "hard"]


async def test_a_person_plays_against_ai_seats_which_move_after_each_of_their_moves(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await referee.create(PLACE, ALICE, "tronimoes")
        await referee.add_ai(PLACE, ALICE)
        await referee.add_ai(PLACE, ALICE, "random")
        await referee.start(PLACE, ALICE)
        for _ in range(300):
            await referee.ai.idle()
            _, game = await referee.view(PLACE)
            if game.outcome() is not None:
                break
            assert game.to_move() == (0,)
            await referee.act(PLACE, ALICE, await a_move(referee, ALICE))


async def test_a_long_game_reloads_from_its_snapshot_identically(tmp_path, clock):
    path = tmp_path / "t.sqlite3"
    async with running_referee(path, clock, snapshot_every=10) as referee:
        await started(referee, ALICE, BOB)
        for _ in range(40):
            user = await waiting_user(referee)
            await referee.act(PLACE, user, await a_move(referee, user))
        table, game = await referee.view(PLACE)
        expected = game.to_json()
        saved = await referee.store.snapshot(table.id)
        assert saved is not None and saved[0] >= 30
    async with running_referee(path, clock) as referee:
        table, game = await referee.view(PLACE)
        assert game.to_json() == expected


async def test_between_rounds_the_last_player_not_ready_is_asked_for_ready_not_a_move(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await referee.create(PLACE, ALICE, "tronimoes")
        await referee.add_ai(PLACE, ALICE)
        await referee.start(PLACE, ALICE)
        for _ in range(500):
            await referee.ai.idle()
            _, game = await referee.view(PLACE)
            if game.legal_actions(0) == ["ready"]:
                break
            assert (await referee.act(PLACE, ALICE, await a_move(referee, ALICE))).ok
        board = await referee.board(PLACE)
        assert "Round over. Type `ready`" in text(board) and "It's alice's turn" not in text(board)


async def test_the_referee_forgets_locks_and_snapshot_marks_of_tables_it_no_longer_holds(tmp_path, clock):
    import gc

    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        referee.games.capacity = 3
        for n in range(20):
            await referee.create(f"{PLACE}:{n}", ALICE, "tronimoes")
            await referee.join(f"{PLACE}:{n}", BOB)
            await referee.start(f"{PLACE}:{n}", ALICE)
            referee.games._snapshot_ply[n + 1] = 1
            await referee.board(f"{PLACE}:{n}")
        gc.collect()
        assert len(referee.tables._locks) <= 1
        assert len(referee.games._games) <= 3 and len(referee.games._snapshot_ply) <= 3 + 1


def test_forced_actions_in_a_row_read_as_one_line_with_their_count():
    from bot.core.records import LOBBY, SeatRecord, TableRecord
    from bot.words.narration import forced_lines

    table = TableRecord(id=1, place="test:1", game="triominoes", options={}, status=LOBBY, created_by="test:alice",
                        created_at=0.0, seats=[SeatRecord(0, "alice", "test:alice"), SeatRecord(1, "bob", "test:bob")])
    game = GAMES["triominoes"].new(2, seed=1)
    lines = [line for line, _at in forced_lines(table, game, [(0, "draw", 0), (0, "draw", 1), (0, "draw", 2),
                                                              (0, "pass", 3), (1, "draw", 4), (1, "2-1-2 r1c0", 5)])]
    assert len(lines) == 2
    assert "`draw` ×3 and `pass` were played for them" in lines[0]
    assert "`draw` and `2-1-2 r1c0` were played for them" in lines[1]
    assert forced_lines(table, game, [(1, "pass", 0)])[0][0].endswith("`pass` was played for them.")


def test_a_forced_action_is_told_before_the_moves_that_followed_it():
    from bot.words.narration import what_happened
    from engine.core import Event

    events = [Event("pass", "bob passes: nothing is legal."), Event("play", "alice plays A at 0,0 SW.")]
    told = what_happened(events, [("🤖 bob had no choice: `pass` was played for them.", 0)]).splitlines()
    assert told == ["🤖 bob had no choice: `pass` was played for them.", "bob passes: nothing is legal.",
                    "alice plays A at 0,0 SW."]


def test_a_long_chain_of_moves_never_leaves_out_a_round_end():
    from bot.words.narration import what_happened
    from engine.core import Event

    events = [Event("lay", f"move {n}.") for n in range(30)]
    events[10:10] = [Event("round_end", "Round 1 is over: ana went out.")]
    told = what_happened(events)
    assert "Round 1 is over: ana went out." in told and "more moves" in told
    assert told.index("move 3.") < told.index("Round 1 is over") < told.index("move 29.")


# ---- a commit whose confirmation is lost ---------------------------------------------------------


async def test_a_move_whose_commit_acknowledgement_is_lost_is_reported_as_stored(database, clock):
    notices = Notices()
    async with running_referee(database, clock, notices=notices) as referee:
        await started(referee, ALICE, BOB)
        mover = await waiting_user(referee)
        losing(referee.store, "commit")
        reply = await referee.act(PLACE, mover, "draw")
        assert reply.ok and text(reply).startswith("✅ Your move was stored")
        assert "nothing was changed" not in text(reply)
        assert [a.action for a in await referee.store.actions(1)] == ["draw"]
        await clock.advance(60)
        await referee.outbox.sweep()
        assert any(f"{mover.name} draws a tile" in t for t in notices.texts())


async def test_a_move_whose_commit_may_not_have_been_stored_says_board_shows_which(database, clock):
    async with running_referee(database, clock) as referee:
        await started(referee, ALICE, BOB)
        mover = await waiting_user(referee)
        losing(referee.store, "commit")
        losing(referee.store, "actions", after=False)
        reply = await referee.act(PLACE, mover, "draw")
        assert "may or may not have been carried out: `board` shows which" in text(reply)  # `/board` on Discord
        assert "nothing was changed" not in text(reply)


async def test_a_move_the_database_failed_to_write_is_reported_as_not_made(database, clock):
    async with running_referee(database, clock) as referee:
        await started(referee, ALICE, BOB)
        mover = await waiting_user(referee)
        losing(referee.store, "commit", after=False)
        reply = await referee.act(PLACE, mover, "draw")
        assert not reply.ok and "nothing was changed" in text(reply)
        assert await referee.store.actions(1) == []


async def test_a_move_whose_delivery_cannot_be_confirmed_in_the_terminal_is_still_reported_made(database, clock):
    async with running_referee(database, clock, confirms_delivery=False) as referee:
        await started(referee, ALICE, BOB)
        mover = await waiting_user(referee)
        losing(referee.store, "notices_delivered", after=False)
        reply = await referee.act(PLACE, mover, "draw")
        assert reply.ok and f"{mover.name} draws a tile" in text(reply) and "went wrong" not in text(reply)
        assert [a.action for a in await referee.store.actions(1)] == ["draw"]


async def test_the_referee_lays_no_triominoes_tile_for_a_player_only_forced_draws_and_passes(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        for number in range(3):
            place = f"{PLACE}:{number}"
            await referee.create(place, ALICE, "triominoes")
            await referee.join(place, BOB)
            reply = await referee.start(place, ALICE)
            for _ in range(2000):
                if (await referee.table_at(place)).status != PLAYING:
                    break
                user = await waiting_user(referee, place)
                reply = await referee.act(place, user, (await referee.suggestions(place, user, "", limit=1))[0])
                assert reply.ok, text(reply)
            actions = await referee.store.actions((await referee.table_at(place)).id)
            forced = [a.action for a in actions if a.actor == "rules"]
            assert forced and set(forced) <= {"draw", "pass"}
            assert all(a.actor in (ALICE.id, BOB.id) for a in actions if a.action not in ("draw", "pass"))


@pytest.mark.parametrize("failing", ["timers", "ai"])
async def test_a_failure_after_the_commit_is_never_reported_as_nothing_changed(tmp_path, clock, failing):
    """Waking the timer dispatcher or the AI worker fails after a move is committed: the move
    stands and is announced as usual (the dispatcher and the worker look on their own)."""
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        assert (await referee.create(PLACE, ALICE, "tronimoes", turn_time="1h")).ok
        await referee.add_ai(PLACE, ALICE, "greedy")
        assert (await referee.start(PLACE, ALICE)).ok
        await referee.ai.idle()

        def broken() -> None:
            raise RuntimeError("the dispatcher is gone")

        getattr(referee, failing).wake = broken
        move = (await referee.suggestions(PLACE, ALICE, "", limit=1))[0]
        reply = await referee.act(PLACE, ALICE, move)
        assert reply.ok and "nothing was changed" not in text(reply), text(reply)
        assert (await referee.store.actions(1))[-1].actor == ALICE.id


async def test_with_voluntary_draws_a_players_draw_is_theirs_and_says_nothing_of_their_hand(tmp_path, clock):
    """Triominoes with `allow_voluntary_draw=on`: a draw is a choice even with a tile that fits, so
    the referee never makes one for a player (a draw made for them, "had no choice", would tell
    the table that none of their tiles fits). With nothing that fits, the game waits for them, and
    their draw is announced as any draw is."""
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await referee.create(PLACE, ALICE, "triominoes", options="allow_voluntary_draw=on")
        await referee.join(PLACE, BOB)
        told = [text(await referee.start(PLACE, ALICE))]
        stuck = 0
        for _ in range(400):
            if (await referee.table_at(PLACE)).status != PLAYING:
                break
            user = await waiting_user(referee)
            table, game = await referee.view(PLACE)
            legal = game.legal_actions(table.seat_of(user.id))
            if legal == ["draw"]:
                stuck += 1
                reply = await referee.act(PLACE, user, "draw")
                assert f"{user.name} draws a tile" in text(reply)
            else:
                reply = await referee.act(PLACE, user, legal[0])  # a placement while one fits
            assert reply.ok, text(reply)
            told.append(text(reply))
        assert not any("had no choice: `draw`" in t or "`draw` ×" in t for t in told)
        assert stuck >= 3
        actions = await referee.store.actions((await referee.table_at(PLACE)).id)
        assert all(a.action == "pass" for a in actions if a.actor == "rules")


async def test_how_to_type_a_move_is_said_only_when_a_person_is_to_type_one(tmp_path, clock):
    """"✏️ Type a move like…" ends a move's announcement when the game next waits for a person,
    never when it waits only for an AI seat."""
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await referee.create(PLACE, ALICE, "tromino_go")
        assert (await referee.add_ai(PLACE, ALICE, "random")).ok
        told = [text(await referee.start(PLACE, ALICE))]
        for _ in range(6):
            await referee.ai.idle()
            reply = await referee.act(PLACE, ALICE, await a_move(referee, ALICE))
            assert reply.ok, text(reply)
            told.append(text(reply))
        for said in told:
            waits_for_the_bot = "It's Pip (bot)'s turn" in said
            assert ("✏️ Type a move like" in said) != waits_for_the_bot, said
        assert any("It's Pip (bot)'s turn" in said for said in told)


# ---- numbers as people type them --------------------------------------------------------------


SOMETHING_WENT_WRONG = "something went wrong on our side"
MANAGER = User("test:manager", "manager", moderator=True, manager=True)


@settings(max_examples=12, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())  # not shrunk: each example plays five tables, and the labelled draws say what failed
async def test_numbers_people_type_are_read_in_0_to_9_or_refused_clearly_and_change_nothing(tmp_path, data):
    """Moves (typed and by command), autocomplete, options, turn times, reminders, AI thinking
    time, history pages and rollbacks, at a table of every game, given numbers in other scripts'
    digits ('²', '٣', '３'), signed, padded or thousands of digits long: each is played as a legal
    move or refused with a message (never "something went wrong"), a number not written with
    0–9 is never taken, and a refusal changes nothing."""
    async with running_referee(tmp_path / f"{uuid.uuid4().hex}.sqlite3", ManualClock()) as referee:
        for name, cls in sorted(GAMES.items()):
            place = f"{PLACE}:{name}"
            assert (await referee.create(place, ALICE, name)).ok
            assert (await referee.join(place, BOB)).ok
            assert (await referee.start(place, ALICE)).ok, name
            for _ in range(6):
                table, game = await referee.view(place)
                if table.status != PLAYING:
                    break
                user = await waiting_user(referee, place)
                seat = table.seat_of(user.id)
                said = data.draw(oddly_numbered([*game.legal_actions(seat)[:30], *cls.example_moves]), label=name)
                odd = foreign_digit(said) is not None
                for typed in (True, False):
                    before = await referee.store.log_length(table.id)
                    reply = await referee.act(place, user, said, typed=typed)
                    assert SOMETHING_WENT_WRONG not in text(reply), (name, said)
                    if reply.ok:
                        assert not odd, f"{said!r} was played in {name}"
                        break
                    assert await referee.store.log_length(table.id) == before
                assert isinstance(await referee.suggestion_choices(place, user, said), list)
            numeric = [f.name for f in dataclasses.fields(cls.Options) if f.type in ("int", int)]
            for option in [*numeric[:2], "ai_seconds"]:
                value = data.draw(ODD_NUMBERS, label=f"{name} {option}")
                problem = await referee.check_new(name, options={option: value})
                assert problem is None or (problem and SOMETHING_WENT_WRONG not in problem)
                assert problem is not None or foreign_digit(value) is None, (option, value)
        turn_time, reminders = data.draw(ODD_NUMBERS, label="turn time"), data.draw(ODD_NUMBERS, label="reminders")
        problem = await referee.check_new("tronimoes", turn_time=turn_time + "m")
        assert problem is not None or foreign_digit(turn_time) is None, turn_time
        for change in ({"turn_time": turn_time}, {"reminders": reminders}, {"reminders": reminders + "%"}):
            reply = await referee.update_settings("test:guild", MANAGER, **change)
            assert SOMETHING_WENT_WRONG not in text(reply)
            assert not reply.ok or foreign_digit(*change.values()) is None, change
        place = f"{PLACE}:tronimoes"
        moves = await referee.store.log_length((await referee.table_at(place)).id)
        for number in (10**400, -(10**400), -1, 0, 2**63):
            page = await referee.history(place, ALICE, page=number)
            assert SOMETHING_WENT_WRONG not in text(page) and (not page.ok or not moves)
            rolled = await referee.rollback(place, MOD, number if number else 10**400)
            assert not rolled.ok and SOMETHING_WENT_WRONG not in text(rolled)
