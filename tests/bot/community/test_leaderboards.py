"""What /games, /leaderboard, /profile and `tileref stats` say, read from a real store: a
player's own tables in order, one server's records only, wins, draws and losses counted apart,
pages, and the provisional mark."""

from __future__ import annotations

import asyncio
import re

from bot.cli.main import main
from bot.community.leaderboards import leaderboard_text, profile_text
from bot.community.my_games import games_text
from bot.core.clock import ManualClock
from bot.core.replies import plain
from tests.bot.referees import ALICE, BOB, CAROL, running_referee
from tests.bot.referees import text as text_of

GUILD, OTHER = "test:guild", "test:other"


async def finished(referee, place: str, loser, guild: str = GUILD, game: str = "tronimoes",
                   options: str | None = None, players=(ALICE, BOB)) -> str:
    """A game of `players` at `place` that ends as `loser` resigns; returns the announcement."""
    await referee.create(place, players[0], game, guild=guild, options=options)
    for player in players[1:]:
        await referee.join(place, player)
    await referee.start(place, players[0])
    ended = await referee.resign(place, loser)
    assert ended.ok
    return text_of(ended)


STALEMATE = "deck_size=4 quiet_limit=2"
"""Tronix options under which two players' God Mode closes no circuit and soon stalls: a draw."""


async def stalemate(referee, place: str, guild: str = GUILD) -> str:
    """A two-player Tronix game played (first legal action each turn) to a God Mode stalemate:
    both piles empty, a draw. Returns the announcement of its end."""
    await referee.create(place, ALICE, "tronix", guild=guild, options=STALEMATE)
    await referee.join(place, BOB)
    await referee.start(place, ALICE)
    while True:
        table, game = await referee.view(place)
        if game.outcome() is not None:
            break
        seat = game.to_move()[0]
        user = ALICE if table.seats[seat].user_id == ALICE.id else BOB
        reply = await referee.act(place, user, game.legal_actions(seat)[0])
        assert reply.ok, text_of(reply)
    outcome = game.outcome()
    assert outcome is not None and set(outcome.winners) == {0, 1} and outcome.scores == (0.0, 0.0)
    return text_of(reply)


async def test_games_lists_turns_waiting_for_you_first_then_others_then_lobbies(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        for number in range(3):
            place = f"test:t{number}"
            await referee.create(place, ALICE, "tromino_go", guild=GUILD, turn_time=f"{number + 1}h")
            await referee.join(place, BOB)
            await referee.start(place, ALICE)
        await referee.create("test:lobby", ALICE, "tetromic", guild=GUILD)
        await referee.create("test:away", ALICE, "tetromic", guild=OTHER)
        await finished(referee, "test:done", BOB)
        text = await games_text(referee.store, GUILD, ALICE.id)
        parts = text.split("\n\n")
        mine = [i for i in range(3) if 0 in (await referee.view(f"test:t{i}"))[1].to_move()]  # type: ignore[index]
        titles = ["⏳ **Waiting for you**"] if mine else []
        titles += ["💤 **Waiting for others**"] if len(mine) < 3 else []
        titles += ["🪑 **Lobbies**"]
        assert [p.split("\n")[0] for p in parts] == titles
        if len(mine) > 1:  # the nearest deadline first
            lines = parts[0].split("\n")[1:]
            assert [int(line.split("<l:test:t")[1][0]) for line in lines] == sorted(mine)
        assert "test:away" not in text and "test:done" not in text and "<l:test:lobby|test:guild>" in parts[-1]
        assert "no unfinished games" in await games_text(referee.store, GUILD, CAROL.id)


async def test_a_profile_shows_one_server_only_and_no_hand(tmp_path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        await finished(referee, "test:here", BOB)
        await finished(referee, "test:there", ALICE, guild=OTHER, game="tromino_go")
        here = plain(await profile_text(referee.store, GUILD, ALICE.id, "alice"))
        assert "Tronimoes" in here and "Tromino Go" not in here and "1 game: 1 won, 0 drawn, 0 lost" in here
        assert "1 of 2" in here and "hand" not in here.lower()
        there = plain(await profile_text(referee.store, OTHER, ALICE.id, "alice"))
        assert "Tromino Go" in there and "Tronimoes" not in there and "2 of 2" in there
        nobody = plain(await profile_text(referee.store, GUILD, CAROL.id, "carol"))
        assert "has not finished a rated game" in nobody


async def test_the_leaderboard_pages_and_the_provisional_mark(tmp_path) -> None:
    clock = ManualClock()
    async with running_referee(tmp_path / "t.sqlite3", clock) as referee:
        for number in range(5):
            await finished(referee, f"test:g{number}", BOB)
            await clock.advance(60)
        board = plain(await leaderboard_text(referee.store, GUILD, "tronimoes", BOB.id))
        lines = board.split("\n")
        assert lines[1].startswith("1. alice") and "5 games: 5 won, 0 drawn, 0 lost" in lines[1]
        assert "provisional" not in lines[1]
        assert lines[2].startswith("2. bob") and lines[3].startswith("You: 2. bob")
        try:
            await leaderboard_text(referee.store, GUILD, "tronimoes", BOB.id, page=2)
        except ValueError as error:
            assert "has 1 page" in str(error)
        else:
            raise AssertionError("page 2 of one page was answered")


async def test_stats_and_rebuild_in_the_terminal(tmp_path, capsys) -> None:
    path = str(tmp_path / "t.sqlite3")
    async with running_referee(path, ManualClock()) as referee:
        await finished(referee, "test:g", BOB)
    assert await asyncio.to_thread(main, ["--db", path, "ratings", "rebuild"]) == 0
    assert "Rated 1 finished game again: 2 ratings." in capsys.readouterr().out
    assert await asyncio.to_thread(main, ["--db", path, "stats"]) == 0
    out = capsys.readouterr().out
    assert "== test:guild ==" in out and "1. alice" in out and "2. bob" in out
    assert await asyncio.to_thread(main, ["--db", path, "stats", "--player", ALICE.id]) == 0
    assert "Tronimoes" in capsys.readouterr().out
    assert await asyncio.to_thread(main, ["--db", path, "stats", "--game", "chess"]) == 2
    assert "no game called 'chess'" in capsys.readouterr().err


async def test_a_win_and_a_draw_are_counted_apart(database, capsys) -> None:
    async with running_referee(database, ManualClock()) as referee:
        await finished(referee, "test:won", BOB, game="tronix")
        assert "Ratings" in await stalemate(referee, "test:drawn")
        board = plain(await leaderboard_text(referee.store, GUILD, "tronix", BOB.id))
        alice = next(line for line in board.split("\n") if line.startswith("1. alice"))
        bob = next(line for line in board.split("\n") if line.startswith("2. bob"))
        assert "2 games: 1 won, 1 drawn, 0 lost" in alice and "2 games: 0 won, 1 drawn, 1 lost" in bob
        profiles = {user.name: plain(await profile_text(referee.store, GUILD, user.id, user.name))
                    for user in (ALICE, BOB)}
        assert "2 games: 1 won, 1 drawn, 0 lost" in profiles["alice"]
        assert "2 games: 0 won, 1 drawn, 1 lost" in profiles["bob"]
    assert await asyncio.to_thread(main, ["--db", database, "stats", "--game", "tronix"]) == 0
    out = capsys.readouterr().out
    assert "2 games: 1 won, 1 drawn, 0 lost" in out and "2 games: 0 won, 1 drawn, 1 lost" in out
    assert await asyncio.to_thread(main, ["--db", database, "stats", "--player", BOB.id]) == 0
    assert "2 games: 0 won, 1 drawn, 1 lost" in capsys.readouterr().out


async def test_a_provisional_mark_appears_and_goes_and_settled_ratings_come_first(database) -> None:
    clock = ManualClock()
    async with running_referee(database, clock) as referee:
        said = []
        for number in range(5):
            said.append(next(line for line in (await finished(referee, f"test:g{number}", BOB)).split("\n")
                             if line.startswith("📈 Ratings:")))
            await clock.advance(60)
        assert said[0] == "📈 Ratings: alice 1105 (+105) provisional · bob 895 (−105) provisional"
        assert all("provisional" in line for line in said[:4]) and "provisional" not in said[4]
        newcomer = await finished(referee, "test:new", BOB, players=(CAROL, BOB))
        assert re.search(r"📈 Ratings: carol \d+ \(\+\d+\) provisional · bob \d+ \(−\d+\)$", newcomer), newcomer
        board = plain(await leaderboard_text(referee.store, GUILD, "tronimoes", CAROL.id)).split("\n")
        ratings = {r.player: r for r in await referee.store.standings.all_ratings()}
        assert ratings[CAROL.id].shown > ratings[BOB.id].shown  # carol is above bob, but not yet settled
        assert board[1].startswith("1. alice") and "provisional" not in board[1]
        assert board[2].startswith("2. bob") and "provisional" not in board[2]
        assert board[3] == "Provisional (fewer than 5 games):"
        assert board[4].startswith(f"3. carol **{ratings[CAROL.id].shown}** (provisional)")
        assert board[5].startswith("You: 3. carol")


async def test_stats_in_the_terminal_shows_no_chat_marks_and_no_empty_link(tmp_path, capsys) -> None:
    """`tileref stats` reads as terminal text: no **bold** marks, and the link of a game played
    where there is none to give (the terminal) leaves no "· now ·" behind."""
    path = str(tmp_path / "t.sqlite3")
    async with running_referee(path, ManualClock()) as referee:
        await finished(referee, "console:g", BOB, guild=None)
    assert await asyncio.to_thread(main, ["--db", path, "ratings", "rebuild"]) == 0
    capsys.readouterr()
    assert await asyncio.to_thread(main, ["--db", path, "stats"]) == 0
    board = capsys.readouterr().out
    assert await asyncio.to_thread(main, ["--db", path, "stats", "--player", ALICE.id]) == 0
    profile = capsys.readouterr().out
    assert "Tronimoes" in board and "Tronimoes" in profile
    for out in (board, profile):
        assert "**" not in out and "`" not in out, out
        assert not any(line.rstrip().endswith("·") for line in out.splitlines()), out
