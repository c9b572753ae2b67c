"""Animated replays: a frame per position about a second each, longer where a round ends and at
the end, at most 8 MB; posted by the outbox when a game ends unless the table said replay=off,
and made on request by `/replay gif`."""

from __future__ import annotations

import asyncio
import dataclasses
import io
from pathlib import Path

from PIL import Image

from bot.core.clock import ManualClock
from bot.core.i18n import speaking
from bot.core.replies import Attachment, Reply
from bot.media.replay_animation import LAST_MS, MOVE_MS, REPLAY_KIND, replay_gif
from renderers.animation import GIF_LIMIT, animated_gif
from tests.bot.adapters.web.conftest import PLACE, open_table, play_moves, players
from tests.bot.referees import ALICE, running_referee


def frames_of(data: bytes) -> list[int]:
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "GIF"
    durations = []
    for index in range(picture.n_frames):
        picture.seek(index)
        durations.append(picture.info["duration"])
    return durations


async def test_replay_gif_shows_every_position_a_second_each_and_holds_the_end(tmp_path: Path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock(), render=True) as referee:
        await open_table(referee, "tronimoes")
        played = await play_moves(referee, "tronimoes", 6)
        table = await referee.store.table_at(PLACE)
        assert table is not None
        data = replay_gif(table, await referee.store.actions(table.id))
    durations = frames_of(data)
    assert len(durations) == played + 1
    assert durations[1:-1] == [MOVE_MS] * (played - 1) or max(durations[1:-1]) > MOVE_MS
    assert durations[-1] == LAST_MS
    assert len(data) <= GIF_LIMIT


def test_an_animation_too_large_is_drawn_smaller_until_it_fits() -> None:
    noise = Image.effect_noise((400, 300), 80).convert("RGB")
    out = io.BytesIO()
    noise.save(out, format="PNG")
    full = animated_gif([out.getvalue()] * 3, [1000] * 3, limit=10**9)
    fitted = animated_gif([out.getvalue()] * 3, [1000] * 3, limit=len(full) // 2)
    assert len(fitted) <= len(full) // 2
    assert Image.open(io.BytesIO(fitted)).width < 400


async def posted_gifs(sent: list[Reply], place: str, expected: int) -> list[Attachment]:
    """The GIFs posted at `place`, waiting up to 20 s for `expected` of them."""
    for _ in range(200):
        gifs = [a for r in sent if r.place == place and r.public for a in r.public.attachments
                if a.filename.endswith(".gif")]
        if len(gifs) >= expected:
            await asyncio.sleep(0.2)  # and no more
            return [a for r in sent if r.place == place and r.public for a in r.public.attachments
                    if a.filename.endswith(".gif")]
        await asyncio.sleep(0.1)
    return []


async def test_game_end_posts_the_animated_replay_unless_the_table_said_off(tmp_path: Path) -> None:
    sent: list[Reply] = []

    async def notify(reply: Reply) -> None:
        sent.append(reply)

    clock = ManualClock()
    async with running_referee(tmp_path / "t.sqlite3", clock, render=True) as referee:
        referee.notify = notify
        for place, options, expected in (("test:on", "", 1), ("test:off", "replay=off", 0)):
            await open_table(referee, "tronimoes", place=place, options=options)
            await play_moves(referee, "tronimoes", 2, place=place)
            assert (await referee.resign(place, players("tronimoes")[0])).ok
            await clock.advance(10)  # the outbox sweeps, and draws the replay in a worker thread
            gifs = await posted_gifs(sent, place, expected)
            assert len(gifs) == expected, place
            if expected:
                assert len(frames_of(gifs[0].data)) == 4  # the deal, two moves and the resignation
        notices = await referee.store.pending_notices((await referee.store.table_at("test:on")).id)
        assert not [n for n in notices if n.kind == REPLAY_KIND], "sent once"


async def test_replay_gif_command_posts_the_animation_for_everyone(tmp_path: Path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock(), render=True) as referee:
        await open_table(referee, "triominoes")
        await play_moves(referee, "triominoes", 3)
        reply = await referee.replay(PLACE, ALICE, gif=True)
        assert reply.ok and reply.public is not None
        assert reply.public.attachments[0].filename == "triominoes-replay.gif"
        assert len(frames_of(reply.public.attachments[0].data)) == 4


async def test_replay_option_takes_on_or_off_only(tmp_path: Path) -> None:
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        reply = await referee.create(PLACE, ALICE, "tronimoes", options="replay=maybe")
        assert not reply.ok and "replay=on" in (reply.caller.text if reply.caller else "")
        assert await referee.store.table_at(PLACE) is None


async def test_the_replay_posted_at_a_spanish_tables_end_is_drawn_and_described_in_spanish(tmp_path: Path) -> None:
    """The outbox draws the end-of-game replay in a task of its own: the boards' words (Tetromic's
    `nivel`, not `level`) and the file's description are the table's, not that task's."""
    sent: list[Reply] = []

    async def notify(reply: Reply) -> None:
        sent.append(reply)

    clock = ManualClock()
    async with running_referee(tmp_path / "t.sqlite3", clock, render=True) as referee:
        referee.notify = notify
        await open_table(referee, "tetromic", options="lang=es")
        await play_moves(referee, "tetromic", 2)
        for player in players("tetromic"):  # the game goes on for the last one, until they leave too
            assert (await referee.resign(PLACE, player)).ok
        await clock.advance(10)
        gifs = await posted_gifs(sent, PLACE, 1)
        table = await referee.store.table_at(PLACE)
        assert table is not None
        actions = await referee.store.actions(table.id)
    english = dataclasses.replace(table, meta={**table.meta, "lang": "en"})
    with speaking("en"):
        in_english = replay_gif(english, actions)
    with speaking("es"):
        in_spanish = replay_gif(table, actions)
    assert in_spanish != in_english, "the boards say words of their own"
    assert len(gifs) == 1 and gifs[0].data == in_spanish
    assert gifs[0].description == "una repetición animada de la partida"
