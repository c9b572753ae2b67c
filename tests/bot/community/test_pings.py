"""A turn pings its player once: by a direct message if they chose one on that server (their
mention in the announcement then does not ping), else by their mention; never twice, however many
steps the turn takes (a double's extra turn, a draw then a lay, a phase everyone plays at once);
and nothing pings a player during their quiet hours, reminders included."""

from __future__ import annotations

import random

import pytest

from bot.community.notifications import plan_pings
from bot.community.quiet_hours import parse_quiet
from bot.core.clock import ManualClock
from bot.core.meta import PINGED
from bot.core.records import User
from bot.core.replies import Reply
from bot.service.referee import Referee
from tests.bot.referees import ALICE, BOB, CAROL, MOD, PLACE, Notices, running_referee

GUILD = "test:guild"
PLAYERS = (ALICE, BOB, CAROL)


def pings(reply: Reply, table_seats: dict[int, str]) -> list[str]:
    """The users a reply pings: those its announcement may mention, and those it sends a turn's
    direct message."""
    pinged = list(reply.mentions)
    pinged += [table_seats[seat] for seat, message in reply.private.items()
               if "Your turn in" in message.text and seat in table_seats]
    return pinged


async def open_table(referee: Referee, game: str, turn_time: str = "1d", options: str | None = None) -> Reply:
    """A table of `game` on the server, started: alice, bob and carol (alice and bob where it is
    full with two)."""
    await referee.create(PLACE, ALICE, game, turn_time=turn_time, guild=GUILD, options=options)
    for user in (BOB, CAROL):
        if not (await referee.join(PLACE, user)).ok:
            assert user is CAROL
    return await referee.start(PLACE, ALICE)


async def play_counting(referee: Referee, opening: Reply, moves: int, seed: int) -> tuple[dict, set]:
    """Play `moves` random legal moves, by whoever the game waits for; returns the pings counted
    per (user, turn) and the (user, turn) pairs whose turn another player's move began."""
    table, game = await referee.view(PLACE)  # type: ignore[misc]
    seats = {s.seat: s.user_id for s in table.seats if s.user_id}
    counted: dict[tuple[str, int], int] = {}
    expected: set[tuple[str, int]] = set()

    def count(reply: Reply, turn: int) -> None:
        for user in pings(reply, seats):
            counted[(user, turn)] = counted.get((user, turn), 0) + 1

    count(opening, game.turn_count())
    expected |= {(seats[s], game.turn_count()) for s in game.to_move()}
    rng = random.Random(seed)
    for _ in range(moves):
        _table, game = await referee.view(PLACE)  # type: ignore[misc]
        if game.outcome() is not None:
            break
        before = game.turn_count()
        seat = rng.choice(game.to_move())
        actor = next(u for u in PLAYERS if u.id == seats[seat])
        reply = await referee.act(PLACE, actor, rng.choice(game.legal_actions(seat)))
        assert reply.ok, reply.caller
        _table, game = await referee.view(PLACE)  # type: ignore[misc]
        count(reply, game.turn_count())
        if game.turn_count() != before:
            expected |= {(seats[s], game.turn_count()) for s in game.to_move() if seats[s] != actor.id}
    return counted, expected


@pytest.mark.parametrize(("game", "seed"), [("tronimoes", 1), ("tronimoes", 2), ("triominoes", 3), ("tetromic", 4),
                                           ("tromino_go", 6)])
async def test_every_turn_pings_its_player_exactly_once(tmp_path, game: str, seed: int) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await referee.store.standings.set_notify(GUILD, ALICE.id, "on")  # alice: a DM a turn
        await referee.store.standings.set_list(CAROL.id, True, None)  # carol: her list, and her mention
        opening = await open_table(referee, game)
        counted, expected = await play_counting(referee, opening, 120, seed)
        assert expected, "no turn began"
        assert all(n == 1 for n in counted.values()), {k: n for k, n in counted.items() if n > 1}
        missing = expected - set(counted)
        assert not missing, sorted(missing)[:5]


async def test_a_draw_then_a_lay_is_one_turn_and_pings_the_next_player_once(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await referee.store.standings.set_notify(GUILD, BOB.id, "on")
        await open_table(referee, "tronimoes")
        for _ in range(200):  # play until the player to move has to draw first
            table, game = await referee.view(PLACE)  # type: ignore[misc]
            seat = game.to_move()[0]
            actions = game.legal_actions(seat)
            mover = next(u for u in PLAYERS if u.id == table.seats[seat].user_id)
            if "draw" in actions and mover is not BOB:
                break
            assert (await referee.act(PLACE, mover, actions[-1] if mover is BOB else actions[0])).ok
        else:
            pytest.skip("nobody had to draw")
        drawn = await referee.act(PLACE, mover, "draw")
        assert drawn.ok and BOB.id not in drawn.mentions
        assert not any("Your turn" in m.text for s, m in drawn.private.items() if s != seat)
        _table, game = await referee.view(PLACE)  # type: ignore[misc]
        turn = game.turn_count()
        told: list[Reply] = [drawn]
        assert game.turn_count() == turn and seat in game.to_move()  # the draw did not end the turn
        while game.turn_count() == turn and game.outcome() is None:
            actions = game.legal_actions(seat)
            reply = await referee.act(PLACE, mover, next((a for a in actions if a != "draw"), actions[0]))
            told.append(reply)
            _table, game = await referee.view(PLACE)  # type: ignore[misc]
        seats = {s.seat: s.user_id for s in table.seats}
        bob = _seat_of(BOB, seats)
        assert sum(pings(r, seats).count(BOB.id) for r in told) == (1 if bob in game.to_move() else 0)


async def test_nothing_pings_a_player_in_their_quiet_hours(database) -> None:
    clock = ManualClock()  # 2027-01-15 08:00 UTC
    notices = Notices()
    async with running_referee(database, clock, notices=notices) as referee:
        for user in PLAYERS:
            await referee.store.standings.set_notify(GUILD, user.id, "on")
            await referee.store.standings.set_quiet(user.id, str(parse_quiet("07:00", "12:00", "UTC")))
        # vacation=off: the clock runs through quiet hours (elsewhere they stop it, reminders too)
        opening = await open_table(referee, "tronimoes", turn_time="8h", options="vacation=off")
        table, game = await referee.view(PLACE)  # type: ignore[misc]
        seats = {s.seat: s.user_id for s in table.seats}
        assert pings(opening, seats) == []
        assert "<@" in opening.public.text  # the announcement still says whose turn it is
        await clock.advance(3 * 3600)  # 11:00: the 50% reminder... none yet; still quiet
        await referee.timers.idle()
        assert all(pings(r, seats) == [] for r in notices)
        await clock.advance(2 * 3600 + 1)  # 13:00: the deadline's reminder comes after the quiet hours
        await referee.timers.idle()
        loud = [r for r in notices if r.public and "⏰" in r.public.text and pings(r, seats)]
        assert loud and set(loud[-1].mentions) <= {seats[game.to_move()[0]]}


async def test_quiet_hours_in_another_zone_let_the_ping_through(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        for user in PLAYERS:  # 08:00 UTC is 17:00 in Tokyo
            await referee.store.standings.set_quiet(user.id, str(parse_quiet("23:00", "08:00", "Asia/Tokyo")))
        opening = await open_table(referee, "tronimoes")
        table, game = await referee.view(PLACE)  # type: ignore[misc]
        assert opening.mentions == [table.seats[s].user_id for s in game.to_move()]


async def test_a_list_keeper_has_their_list_shown_again_when_their_turn_begins_or_ends(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await referee.store.standings.set_notify(GUILD, CAROL.id, "on")
        await referee.store.standings.set_list(CAROL.id, True, "es")
        opening = await open_table(referee, "tronimoes")
        table, game = await referee.view(PLACE)  # type: ignore[misc]
        carol = next(s.seat for s in table.seats if s.user_id == CAROL.id)
        assert set(opening.lists) == ({CAROL.id} if carol in game.to_move() else set())
        assert all(notice in opening.notices for notice in opening.lists.values())
        shown = 0
        for _ in range(12):
            table, game = await referee.view(PLACE)  # type: ignore[misc]
            seat = game.to_move()[0]
            mover = next(u for u in PLAYERS if u.id == table.seats[seat].user_id)
            reply = await referee.act(PLACE, mover, game.legal_actions(seat)[0])
            _table, after = await referee.view(PLACE)  # type: ignore[misc]
            changed = (seat == carol) != (carol in after.to_move()) or (seat == carol and carol in after.to_move())
            assert (CAROL.id in reply.lists) == changed
            assert not any("Your turn" in m.text for m in reply.private.values())  # her list instead of DMs
            shown += CAROL.id in reply.lists
        assert shown >= 2
        rows = await referee.store.pending_notices(table.id)
        assert all(n.kind != "turns" for n in rows)  # delivered with the replies (confirms_delivery off)


async def test_a_turn_that_pinged_once_never_pings_again(tmp_path) -> None:
    clock = ManualClock()
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        await referee.store.standings.set_notify(GUILD, BOB.id, "on")
        await open_table(referee, "tronimoes")
        table, game = await referee.view(PLACE)  # type: ignore[misc]
        bob = next(s.seat for s in table.seats if s.user_id == BOB.id)
        turn = game.turn_count()
        table.meta[PINGED] = {str(bob): [turn, 5]}
        again = await plan_pings(referee.store, table, [bob], [BOB.id], {}, clock.now(), {bob: [turn, 5]}, {})
        assert again.direct == {} and again.silenced == {BOB.id}
        later = await plan_pings(referee.store, table, [bob], [BOB.id], {}, clock.now(), {bob: [turn + 1, 6]}, {})
        assert set(later.direct) == {bob} and table.meta[PINGED][str(bob)] == [turn + 1, 6]
        rolled_back = await plan_pings(referee.store, table, [bob], [BOB.id], {}, clock.now(), {bob: [turn + 1, 9]}, {})
        assert set(rolled_back.direct) == {bob}  # the same turn number, begun again at another move


def _seat_of(user: User, seats: dict[int, str]) -> int:
    return next(s for s, u in seats.items() if u == user.id)


async def test_a_pause_and_a_stop_show_the_waiting_players_lists_again(database) -> None:
    async with running_referee(database, ManualClock()) as referee:
        for user in PLAYERS:
            await referee.store.standings.set_list(user.id, True, None)
        await open_table(referee, "tronimoes")
        table, game = await referee.view(PLACE)  # type: ignore[misc]
        waiting = {table.seats[s].user_id for s in game.to_move()}
        paused = await referee.pause(PLACE, MOD)
        assert paused.ok and set(paused.lists) == waiting
        assert set(paused.lists.values()) <= set(paused.notices)
        resumed = await referee.resume(PLACE, MOD)
        assert set(resumed.lists) == waiting
        stopped = await referee.abort(PLACE, MOD)
        assert stopped.ok and set(stopped.lists) == waiting


async def test_a_rollback_begins_the_turn_again_and_pings_it_again(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        opening = await open_table(referee, "tronimoes")
        table, game = await referee.view(PLACE)  # type: ignore[misc]
        first = table.seats[game.to_move()[0]].user_id
        assert first in opening.mentions
        mover = next(u for u in PLAYERS if u.id == first)
        assert (await referee.act(PLACE, mover, game.legal_actions(game.to_move()[0])[-1])).ok
        rolled = await referee.rollback(PLACE, MOD, 0)
        assert rolled.ok and rolled.mentions == [first]


async def _someone_told_in_quiet_hours(referee: Referee) -> tuple[int, str]:
    """Make the first turn one that another player's move began (not their own doing): the seat
    and user whose turn that is."""
    table, game = await referee.view(PLACE)  # type: ignore[misc]
    seat = game.to_move()[0]
    if table.seats[seat].user_id == ALICE.id:  # her own Start began it: she moves, the next is told
        assert (await referee.act(PLACE, ALICE, game.legal_actions(seat)[0])).ok
        table, game = await referee.view(PLACE)  # type: ignore[misc]
        seat = game.to_move()[0]
    return seat, table.seats[seat].user_id


async def test_a_turn_begun_in_quiet_hours_pings_once_when_they_end(database) -> None:
    clock = ManualClock()  # 2027-01-15 08:00 UTC
    notices = Notices()
    async with running_referee(database, clock, notices=notices) as referee:
        for user in PLAYERS:
            await referee.store.standings.set_quiet(user.id, str(parse_quiet("07:00", "12:00", "UTC")))
        await open_table(referee, "tronimoes", turn_time="8h")
        seat, user = await _someone_told_in_quiet_hours(referee)
        table, _game = await referee.view(PLACE)  # type: ignore[misc]
        assert str(seat) not in (table.meta.get(PINGED) or {})  # not pinged: quiet
        assert [t.due for t in await referee.store.timers(table.id) if t.kind == "ping"] == [clock.now() + 4 * 3600]
        await clock.advance(4 * 3600 - 1)
        await referee.timers.idle()
        assert not [r for r in notices if user in r.mentions]  # never early
        await clock.advance(1)  # 12:00: their quiet hours end
        await referee.timers.idle()
        late = [r for r in notices if user in r.mentions]
        assert len(late) == 1 and "it is your turn" in late[0].public.text
        await clock.advance(8 * 3600)  # the turn's reminders (the clock stopped in quiet hours) and on
        await referee.timers.idle()
        reminders = [r for r in notices if r.public and "⏰" in r.public.text]
        assert reminders and not [r for r in reminders if user in r.mentions]  # pinged once this turn
        assert not [t for t in await referee.store.timers(table.id) if t.kind == "ping"]


async def test_a_late_ping_is_dropped_when_its_player_moved_in_their_quiet_hours(tmp_path) -> None:
    clock = ManualClock()
    notices = Notices()
    async with running_referee(tmp_path / "t.sqlite3", clock, notices=notices) as referee:
        for user in PLAYERS:
            await referee.store.standings.set_notify(GUILD, user.id, "on")
            await referee.store.standings.set_quiet(user.id, str(parse_quiet("07:00", "12:00", "UTC")))
        await open_table(referee, "tronimoes", turn_time="8h")
        seat, user = await _someone_told_in_quiet_hours(referee)
        table, game = await referee.view(PLACE)  # type: ignore[misc]
        mover = next(u for u in PLAYERS if u.id == user)
        await clock.advance(3600)
        assert (await referee.act(PLACE, mover, game.legal_actions(seat)[0])).ok
        table, _game = await referee.view(PLACE)  # type: ignore[misc]
        assert not [t for t in await referee.store.timers(table.id) if t.kind == "ping" and t.seat == seat]
        await clock.advance(3 * 3600)  # 12:00
        await referee.timers.idle()
        assert not [r for r in notices if r.public and "it is your turn" in r.public.text and seat in r.private]


async def test_a_move_reads_each_players_choices_once(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        for user in PLAYERS:
            await referee.store.standings.set_quiet(user.id, str(parse_quiet("23:00", "07:00", "UTC")))
        await referee.store.standings.set_list(CAROL.id, True, None)
        await open_table(referee, "tronimoes")
        standings = referee.store.standings
        reads = []
        real = standings.player_choices

        async def counted(users):
            reads.append(sorted(users))
            return await real(users)

        standings.player_choices = counted  # type: ignore[method-assign]
        table, game = await referee.view(PLACE)  # type: ignore[misc]
        seat = game.to_move()[0]
        mover = next(u for u in PLAYERS if u.id == table.seats[seat].user_id)
        assert (await referee.act(PLACE, mover, game.legal_actions(seat)[0])).ok
        assert reads == [sorted(u.id for u in PLAYERS)]
