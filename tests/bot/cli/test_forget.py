"""`tileref admin forget USER`: says what is kept and asks for --yes, refuses while the player
sits at an unfinished table, then forgets them, the ratings rebuilding the same for the others."""

from __future__ import annotations

import asyncio

from bot.cli.forget import player_id
from bot.cli.main import main
from bot.core.clock import ManualClock
from tests.bot.referees import ALICE, BOB, running_referee, started


async def test_an_operator_forgets_a_player(tmp_path, capsys) -> None:
    path = str(tmp_path / "t.sqlite3")
    async with running_referee(path, ManualClock()) as referee:
        await started(referee, ALICE, BOB, place="test:done")
        await referee.resign("test:done", BOB)
        await started(referee, ALICE, BOB, place="test:open")
    forget = ["--db", path, "admin", "forget", ALICE.id]
    assert await asyncio.to_thread(main, forget) == 2
    assert "2 seats" in capsys.readouterr().out
    assert await asyncio.to_thread(main, [*forget, "--yes"]) == 1
    assert "still sits at unfinished tables" in capsys.readouterr().err
    async with running_referee(path, ManualClock()) as referee:
        await referee.resign("test:open", ALICE)
        before = [r for r in await referee.store.standings.all_ratings() if r.player == BOB.id]
    assert await asyncio.to_thread(main, [*forget, "--yes"]) == 0
    assert "Forgot test:alice: 2 tables, 2 seats" in capsys.readouterr().out
    assert await asyncio.to_thread(main, ["--db", path, "ratings", "rebuild"]) == 0
    async with running_referee(path, ManualClock()) as referee:
        after = await referee.store.standings.all_ratings()
        assert [r for r in after if r.player == BOB.id] == before
        assert not [r for r in after if r.player == ALICE.id]
    assert await asyncio.to_thread(main, [*forget, "--yes"]) == 0
    assert "Nothing is kept about test:alice" in capsys.readouterr().out


def test_a_bare_number_is_a_discord_id() -> None:
    assert player_id("123") == "discord:123" and player_id("console:me") == "console:me"
    assert player_id("①②") == "①②"  # not an id written with the digits 0 to 9: taken as given
