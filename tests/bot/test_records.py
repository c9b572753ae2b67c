"""What /games, /leaderboard, /profile and `tileref stats` say, read from a real store: a
player's own tables in order, one server's records only, pages, and the provisional mark."""

from __future__ import annotations

import asyncio

from bot.__main__ import main
from bot.leaderboards import leaderboard_text, profile_text
from bot.my_games import games_text
from bot.replies import plain
from bot.timers import ManualClock
from tests.bot.referees import ALICE, BOB, CAROL, running_referee

GUILD, OTHER = "test:guild", "test:other"


async def finished(referee, place: str, loser, guild: str = GUILD, game: str = "tronimoes") -> None:
    await referee.create(place, ALICE, game, guild=guild)
    await referee.join(place, BOB)
    await referee.start(place, ALICE)
    assert (await referee.resign(place, loser)).ok


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
        assert "Tronimoes" in here and "Tromino Go" not in here and "1 game, 1 won" in here
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
        assert lines[1].startswith("1. alice") and "5 games, 5 won" in lines[1] and "provisional" not in lines[1]
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
