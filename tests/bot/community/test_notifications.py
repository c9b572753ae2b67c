"""Turn notifications: a private message (a DM on Discord) to a player whose turn begins, as they
chose per server (on, off, or only turns of an hour or more), with the way to the table and its
deadline; reminders follow the same choice, but only for a turn nothing has pinged yet (a player
is pinged once a turn); never one for the player's own move."""

from __future__ import annotations

import pytest

from bot.community.notifications import reminder_messages
from bot.core.clock import ManualClock
from bot.core.records import User
from bot.core.replies import Reply
from bot.service.referee import Referee
from tests.bot.referees import ALICE, BOB, PLACE, Notices, running_referee

GUILD = "test:guild"


async def opened(referee: Referee, turn_time: str) -> tuple[Reply, int]:
    """A Tromino Go table of alice and bob on the server, started; (the opening, the seat to move)."""
    await referee.create(PLACE, ALICE, "tromino_go", turn_time=turn_time, guild=GUILD)
    await referee.join(PLACE, BOB)
    opening = await referee.start(PLACE, ALICE)
    game = (await referee.view(PLACE))[1]  # type: ignore[index]
    return opening, game.to_move()[0]


def users(first: int) -> tuple[User, User]:
    return (ALICE, BOB) if first == 0 else (BOB, ALICE)


@pytest.mark.parametrize(("mode", "turn_time", "told"), [
    ("on", "30m", True), ("long", "30m", False), ("long", "2h", True), ("long", "off", True), ("off", "2h", False)])
async def test_a_turn_brings_one_private_message_as_chosen(tmp_path, mode: str, turn_time: str, told: bool) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        for user in (ALICE, BOB):
            await referee.store.standings.set_notify(GUILD, user.id, mode)
        opening, first = await opened(referee, turn_time)
        # alice's Start began the first turn: bob is told of his, alice never of one she began herself
        assert set(opening.private) == ({first} if told and first == 1 else set())
        mover, _waiter = users(first)
        game = (await referee.view(PLACE))[1]  # type: ignore[index]
        reply = await referee.act(PLACE, mover, game.legal_actions(first)[0])
        assert set(reply.private) == ({1 - first} if told else set())  # never for the mover's own turn
        if told:
            note = reply.private[1 - first].text
            assert "Your turn in **Tromino Go**" in note and f"<l:{PLACE}|{GUILD}>" in note
            assert ("<t:" in note) == (turn_time != "off")


async def test_a_choice_on_another_server_does_not_count(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await referee.store.standings.set_notify("test:elsewhere", ALICE.id, "on")
        await referee.store.standings.set_notify("test:elsewhere", BOB.id, "on")
        opening, _first = await opened(referee, "1h")
        assert opening.private == {}


async def test_a_reminder_pings_nobody_whose_turn_pinged_them_already(tmp_path) -> None:
    clock, notices = ManualClock(), Notices()
    async with running_referee(tmp_path / "t.sqlite3", clock, notices=notices) as referee:
        _opening, first = await opened(referee, "2h")
        mover, waiter = users(first)
        await referee.store.standings.set_notify(GUILD, waiter.id, "on")
        game = (await referee.view(PLACE))[1]  # type: ignore[index]
        began = await referee.act(PLACE, mover, game.legal_actions(first)[0])
        assert "Your turn in **Tromino Go**" in began.private[1 - first].text  # the turn's one ping
        await clock.advance(3600 + 1)  # the 50% reminder of the waiter's turn
        await referee.timers.idle()
        reminders = [r for r in notices if r.public and "⏰" in r.public.text]
        assert len(reminders) == 1 and reminders[0].private == {} and reminders[0].mentions == []


async def test_a_reminder_of_a_turn_that_has_not_pinged_follows_the_same_choice_and_pings_once(tmp_path) -> None:
    clock = ManualClock()
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        _opening, first = await opened(referee, "2h")
        mover, waiter = users(first)
        await referee.store.standings.set_notify(GUILD, mover.id, "on")
        await referee.store.standings.set_notify(GUILD, waiter.id, "off")
        table, game = await referee.view(PLACE)  # type: ignore[misc]
        turn = [game.turn_count() + 7, 0]  # a turn nothing has pinged (one the player began themselves)
        direct, ping = await reminder_messages(referee.store, table, first, clock.now() + 3600, clock.now(), turn)
        assert "Your turn in **Tromino Go** ends" in direct[first] and not ping  # the DM is the ping
        assert await reminder_messages(referee.store, table, first, clock.now() + 3600, clock.now(), turn) == ({},
                                                                                                               False)
        other = 1 - first
        direct, ping = await reminder_messages(referee.store, table, other, clock.now() + 3600, clock.now(), turn)
        assert direct == {} and ping  # DMs off: their mention pings them, once
        assert not (await reminder_messages(referee.store, table, other, clock.now(), clock.now(), turn))[1]
