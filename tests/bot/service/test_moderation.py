"""Moderators' commands (bot/service/moderation.py): a forced pass says what it really played, and every
moderator command is based on the log length the moderator saw, so one sent twice applies once.
Both databases (the `database` fixture); a manual clock."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.clock import ManualClock
from bot.core.records import User
from bot.service.referee import Referee
from bot.words.wording import shuffled_line
from engine import GAMES
from tests.bot.referees import ALICE, BOB, CAROL, MOD, PLACE, losing, running_referee, started, text, waiting_user


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def opened(referee: Referee, game: str, *players: User) -> int:
    """A started table of `game` at PLACE with `players` seated in order; its id."""
    first, *rest = players
    assert (await referee.create(PLACE, first, game)).ok
    for player in rest:
        assert (await referee.join(PLACE, player)).ok
    assert (await referee.start(PLACE, first)).ok
    table = await referee.table_at(PLACE)
    assert table is not None
    return table.id


async def test_a_forced_pass_that_lays_a_tile_says_so_and_not_that_it_passed(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        table_id = await opened(referee, "triominoes", ALICE, BOB)
        reply = await referee.force_pass(PLACE, MOD)
        played = (await referee.store.actions(table_id))[-1]
        assert reply.ok and played.actor == f"mod:{MOD.id}" and played.action not in ("draw", "pass")
        assert "forced a pass" not in text(reply)
        assert f"mod played `{played.action}` for" in text(reply)
        assert "that is what a missed turn does in Triominoes" in text(reply)


async def test_a_forced_pass_in_tromino_go_says_the_player_forfeits(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        table_id = await opened(referee, "tromino_go", ALICE, BOB)
        mover = await waiting_user(referee)
        reply = await referee.force_pass(PLACE, MOD)
        assert reply.ok and f"mod played `forfeit` for {mover.name}" in text(reply)
        assert "forced a pass" not in text(reply)
        assert [a.action for a in await referee.store.actions(table_id)] == ["forfeit"]


async def test_a_forced_pass_after_a_draw_lists_both(tmp_path, clock):
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await started(referee, ALICE, BOB)
        mover = await waiting_user(referee)
        reply = await referee.force_pass(PLACE, MOD)
        assert reply.ok and f"mod forced a pass for {mover.name} (`draw` and `pass" in text(reply)


async def test_a_force_pass_sent_twice_at_once_by_two_processes_applies_once(database, clock):
    async with running_referee(database, clock) as one, running_referee(database, clock) as two:
        await started(one, ALICE, BOB)
        table = await one.table_at(PLACE)
        seen = await one.store.log_length(table.id)
        replies = await asyncio.gather(one.force_pass(PLACE, MOD, seen=seen), two.force_pass(PLACE, MOD, seen=seen))
        assert sorted(r.ok for r in replies) == [False, True], [text(r) for r in replies]
        refused = next(r for r in replies if not r.ok)
        assert refused.stale and text(refused).startswith("the game moved on since you looked (it is now move 2)")
        assert [a.action.split()[0] for a in await one.store.actions(table.id)] == ["draw", "pass"]


@pytest.mark.parametrize("command", ["force_pass", "pause", "resume", "abort", "kick"])
async def test_a_moderator_command_based_on_an_old_board_is_refused_and_changes_nothing(database, clock, command):
    async with running_referee(database, clock) as referee:
        await started(referee, ALICE, BOB, CAROL, turn_time="1h")
        if command == "resume":
            assert (await referee.pause(PLACE, MOD)).ok
        assert (await referee.act(PLACE, await waiting_user(referee), "draw")).ok
        table = await referee.table_at(PLACE)
        before = (table.status, table.paused, await referee.store.actions(table.id))
        arguments = (CAROL.id,) if command == "kick" else ()
        reply = await getattr(referee, command)(PLACE, MOD, *arguments, seen=0)
        assert not reply.ok and "moved on since you looked (it is now move 1)" in text(reply)
        table = await referee.table_at(PLACE)
        assert (table.status, table.paused, await referee.store.actions(table.id)) == before
        assert (await getattr(referee, command)(PLACE, MOD, *arguments, seen=1)).ok


async def test_an_abort_whose_commit_was_not_confirmed_does_not_claim_nothing_changed(database, clock):
    async with running_referee(database, clock) as referee:
        await started(referee, ALICE, BOB)
        losing(referee.store, "commit")
        reply = await referee.abort(PLACE, MOD)
        assert "may or may not have been carried out: `board` shows which" in text(reply)  # `/board` on Discord
        assert "nothing was changed" not in text(reply) and (await referee.table_at(PLACE)).status == "aborted"


@pytest.mark.parametrize("game", ["tronimoes", "triominoes", "tronix", "tetromic"])
async def test_no_preview_or_history_shows_a_rollbacks_reshuffle_seed(tmp_path, clock, game):
    """After a rollback the log holds a chance entry whose seed, with the public pile count,
    would tell every later deal: a later rollback's preview and the history say only that the
    unseen pieces were shuffled."""
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        table_id = await opened(referee, game, ALICE, BOB)
        await referee.force_pass(PLACE, MOD)
        assert (await referee.rollback(PLACE, MOD, 0)).ok
        await referee.force_pass(PLACE, MOD)
        chance = next(a for a in await referee.store.actions(table_id) if a.seat == -1)
        seed = chance.action.split()[1]
        preview = await referee.preview(PLACE, MOD, "rollback", to=0)
        history = await referee.history(PLACE, MOD)
        for reply in (preview, history):
            assert reply.ok and seed not in text(reply) and "chance" not in text(reply), text(reply)
        said = shuffled_line(GAMES[game])
        assert said in text(preview) and said in text(history)
        assert said.startswith("🎲") == (game != "tronix")  # Tronix deals every card: nothing unseen
