"""`palette=mono`: a table opened with it (or a terminal game resumed with `--palette mono`) gets
every board picture in high contrast, in greys; any other value is refused, saying which there
are, and opens nothing."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.core.clock import ManualClock
from bot.core.meta import PALETTE
from bot.core.replies import Reply
from renderers.palettes import mono, use_palette
from tests.bot.adapters.web.conftest import PLACE, open_table, play_moves, players
from tests.bot.referees import ALICE, running_referee


def in_greys(png: bytes) -> bool:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return all(r == g == b for _, (r, g, b) in image.getcolors(1 << 20) or [])


def board_of(reply: Reply) -> bytes:
    assert reply.ok and reply.public is not None, reply
    [picture] = [a for a in reply.public.attachments if a.filename.endswith(".png")]
    return picture.data


async def a_move(referee, game: str, place: str) -> Reply:
    view = await referee.view(place)
    assert view is not None
    _, state = view
    seat = state.to_move()[0]
    return await referee.act(place, players(game)[seat], state.legal_actions(seat)[0])


async def test_a_table_opened_with_palette_mono_posts_its_boards_in_greys_and_others_in_colour(tmp_path: Path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock(), render=True) as referee:
        for game in ("tronimoes", "triominoes", "tronix", "tromino_go", "tetromic"):
            await open_table(referee, game, place=f"test:mono-{game}", options="palette=mono")
            await open_table(referee, game, place=f"test:colour-{game}")
            assert in_greys(board_of(await a_move(referee, game, f"test:mono-{game}"))), game
            assert not in_greys(board_of(await a_move(referee, game, f"test:colour-{game}"))), game
            table = await referee.store.table_at(f"test:mono-{game}")
            assert table is not None and table.meta[PALETTE] == "mono"
    use_palette(None)


async def test_the_palette_option_takes_normal_or_mono_only(tmp_path: Path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        reply = await referee.create(PLACE, ALICE, "tronimoes", options="palette=rainbow")
        assert not reply.ok
        said = reply.caller.text if reply.caller else ""
        assert "palette=mono" in said and "palette=normal" in said and "rainbow" in said
        assert await referee.store.table_at(PLACE) is None
        assert (await referee.create(PLACE, ALICE, "tronimoes", options="palette=MONO")).ok


async def test_the_host_switches_a_game_in_play_to_mono_and_back(tmp_path: Path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock(), render=True) as referee:
        await open_table(referee, "tronimoes")
        host, other = players("tronimoes")[:2]
        refused = await referee.adjust(PLACE, other, palette="mono")
        assert not refused.ok
        switched = await referee.adjust(PLACE, host, palette="mono")
        assert switched.ok and "high contrast" in (switched.caller.text if switched.caller else "")
        await play_moves(referee, "tronimoes", 1)
        assert in_greys(board_of(await a_move(referee, "tronimoes", PLACE)))
        assert not (await referee.adjust(PLACE, host, palette="grey")).ok
        assert (await referee.adjust(PLACE, host, palette="normal")).ok
        assert not mono()
        assert not in_greys(board_of(await a_move(referee, "tronimoes", PLACE)))
