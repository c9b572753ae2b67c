"""Whole games where features meet, through the Discord stand-in with the real bot in a process of
its own (SQLite and PostgreSQL): a moderator's rollback while an AI seat thinks, then a SIGKILL,
then the end of the game and a rematch; and a game an AI's move ends, checked in the thread, in
each player's messages and on the spectator page. Each asserts on what people actually received:
texts, pictures, pings, and that nothing hidden (a rollback's reshuffle seed) ever showed."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import time

import aiohttp
import pytest

from bot.adapters.web.server import WebServer
from bot.core.records import AI_TURN, FINISHED
from bot.storage.address import store_for
from bot.storage.store import Store
from tests.bot.adapters.discordbot.bot_process import stop
from tests.bot.adapters.discordbot.harness import confirmed
from tests.bot.adapters.discordbot.test_ai_seats import announced_lines, expected_lines, public, settled
from tests.bot.adapters.discordbot.test_crash import start_bot
from tests.standin import Channel, DiscordStandIn, RecordedMessage


@pytest.fixture
async def standin():
    async with DiscordStandIn(default_timeout=30) as s:
        yield s


async def ai_table(s: DiscordStandIn, game: str, bots: int, options: str) -> Channel:
    """Alice's table of `game` with `bots` AI seats, started."""
    announced = await (await s.slash(s.alice, s.channel, "tileref new", game=game, options=options)).reply()
    thread = await s.wait_for_thread(lambda t: t.id == announced.id)
    lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
    for _ in range(bots):
        lobby = await (await s.click(s.alice, lobby, label="Add bot")).reply()
    await (await s.click(s.alice, lobby, label="Start")).replies(2)
    return thread


async def alice_moves(s: DiscordStandIn, thread: Channel) -> RecordedMessage | None:
    """Alice's first suggested move by /move; None if she has none now."""
    choices = await s.autocomplete(s.alice, thread, "move", text="")
    if not choices:
        return None
    return await (await s.slash(s.alice, thread, "move", text=choices[0]["value"])).reply()


async def until_an_ai_thinks(s: DiscordStandIn, store: Store, table_id: int, thread: Channel) -> None:
    """Alice moves until the bot has claimed an AI turn that her move began (the AI seat is
    thinking about its answer to her)."""
    for _ in range(600):
        turns = [t for t in await store.timers(table_id) if t.kind == AI_TURN]
        actions = await store.actions(table_id)
        answering = bool(actions) and actions[-1].actor == f"discord:{s.alice.id}"
        if turns and answering and not await store.claim_ai_turns(time.time(), 0.0, 5):  # the bot holds it
            return
        if not turns and await alice_moves(s, thread) is None:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.02)
    raise AssertionError("the AI seat never thought about an answer to alice")


def everything_said(s: DiscordStandIn) -> list[str]:
    """Every text the bot sent anyone, anywhere (threads, private answers, DMs), every version."""
    return [m.content for m in s.messages]


def gifs(s: DiscordStandIn, thread: Channel) -> list[RecordedMessage]:
    return [m for m in public(s, thread) if any(name.endswith(".gif") for name, _ in m.attachments)]


def pinged(message: RecordedMessage) -> set[int]:
    return {int(u["id"]) for u in message.payload.get("mentions", [])}


async def test_a_rollback_while_an_ai_thinks_then_a_kill_then_a_rematch(standin, database):
    s = standin
    store = store_for(database)
    bots: list[subprocess.Popen[bytes]] = [start_bot(s, database)]
    try:
        await s.wait_for_connection()
        thread = await ai_table(s, "tronimoes", bots=1, options="ai_seconds=1.5")
        await store.open()
        table = await store.table_at(f"discord:{thread.id}")
        assert table is not None

        # a moderator rolls back alice's move while the AI seat thinks about its answer
        await until_an_ai_thinks(s, store, table.id, thread)
        length = await store.log_length(table.id)
        undone = (await store.actions(table.id))[-1]
        preview, rolled = await confirmed(s, s.mod, thread, "mod rollback", to=length - 1)
        assert preview.ephemeral and f"undoes 1 move (alice: `{undone.action}`)" in preview.content, preview.content
        assert f"rolled the game back to move {length - 1}" in rolled.content and pinged(rolled) == {s.alice.id}
        await settled(store, table.id)
        actions = await store.actions(table.id)
        assert actions[-1].seat == -1  # the reshuffle, and nothing the stale plan would have played
        assert not any(a.actor.startswith("ai:") for a in actions[length - 1:])

        # alice moves again; the process is killed while the AI thinks; the next one plays it once
        await until_an_ai_thinks(s, store, table.id, thread)
        bots[-1].send_signal(signal.SIGKILL)
        bots[-1].wait(10)
        bots.append(start_bot(s, database))
        await s.wait_for_connection(after=1)
        await settled(store, table.id, timeout=60)

        # alice resigns: the bot wins; the last message says so, the replay follows once
        mark = s.mark()
        _preview, ended = await confirmed(s, s.alice, thread, "resign")
        assert "wins" in ended.content and "📈 Ratings:" in ended.content, ended.content
        await settled(store, table.id, timeout=30)
        for _ in range(200):
            if gifs(s, thread):
                break
            await asyncio.sleep(0.05)
        [replay] = gifs(s, thread)
        assert replay.id > ended.id and replay.content.startswith("🎞️ The whole game")

        # what everyone received: each AI move announced once, in order; no seed anywhere
        actions = await store.actions(table.id)
        names = [seat.name for seat in table.seats]
        assert announced_lines(public(s, thread)) == expected_lines(names, actions)
        seeds = [a.action.split()[1] for a in actions if a.seat == -1]
        assert seeds and not any(seed in said for seed in seeds for said in everything_said(s))
        assert not any("chance " in said for said in everything_said(s))
        history = await (await s.slash(s.alice, thread, "history")).reply()
        assert "🎲 the unseen tiles were shuffled again" in history.content

        # the rematch: one thread, the bot seated, alice starts it
        await (await s.click(s.alice, ended, label="Rematch")).reply()
        again = await s.wait_for_thread(lambda t: t.id != thread.id and "rematch" in t.name)
        lobby = await s.wait_for_message(again, lambda m: bool(m.buttons()), since=mark)
        assert "alice" in lobby.content and "(bot)" in lobby.content
        opening = [m for m in await (await s.click(s.alice, lobby, label="Start")).replies(2) if m.id != lobby.id]
        assert opening and "Tronimoes begins" in opening[0].content and opening[0].png_images()
        assert len([c for c in s.channels.values() if c.is_thread and "rematch" in c.name]) == 1
    finally:
        await store.close()
        for bot in bots:
            bot.kill()
            bot.wait(10)


async def test_a_game_an_ai_move_ends_says_so_with_ratings_then_its_replay_and_the_page_agrees(standin, database):
    s = standin
    store = store_for(database)
    bot = start_bot(s, database)
    pages = WebServer(store, port=0)
    try:
        await s.wait_for_connection()
        thread = await ai_table(s, "tronimoes", bots=2, options="ai_seconds=0")
        await store.open()
        await pages.start()
        table = await store.table_at(f"discord:{thread.id}")
        assert table is not None
        await settled(store, table.id)
        for _ in range(3):  # a few moves of alice's, each followed by the bots'
            await alice_moves(s, thread)
            await settled(store, table.id)
        mark = s.mark()
        _preview, resigned = await confirmed(s, s.alice, thread, "resign")
        assert "alice" in resigned.content
        await settled(store, table.id, timeout=120)
        assert (await store.get_table(table.id)).status == FINISHED

        def result(m: RecordedMessage) -> bool:  # a win, a shared win or no winner: the deals are random
            return m.id != resigned.id and not m.loading and "Final scores:" in m.content

        try:
            await s.wait_for_message(thread, result, since=mark, timeout=60)
        except AssertionError as timeout:  # say every message since the resignation, whole, and the outbox
            rows = [(r["id"], r["ply"], r["delivered_at"] is not None, r.get("merged_into"), str(r["data"])[-200:])
                    for r in (await store.dump())["outbox"] if r["table_id"] == table.id and r["seat"] is None]
            shown = [(m.id, m.kind, m.loading, m.content[-300:]) for m in s.messages[mark:]
                     if m.channel_id == thread.id]
            raise AssertionError(f"{timeout}\nmessages: {shown}\noutbox: {rows}") from None
        for _ in range(200):
            if gifs(s, thread):
                break
            await asyncio.sleep(0.05)

        said = [m for m in public(s, thread, mark) if m.id != resigned.id]
        ending = [m for m in said if "Final scores:" in m.content]
        assert len(ending) == 1 and "(bot)" in ending[0].content, [m.content[-200:] for m in said]
        assert "📈 Ratings:" in ending[0].content and "alice" in ending[0].content.split("📈 Ratings:")[1]
        assert ending[0].png_images() and not pinged(ending[0])  # nobody is waited for any more
        [replay] = gifs(s, thread)
        assert replay.id > ending[0].id

        # the spectator page shows the same result, and the whole log
        token = (await store.get_table(table.id)).meta["watch"]
        async with aiohttp.ClientSession() as session, \
                session.get(f"http://127.0.0.1:{pages.port}/t/{token}") as response:
            html = await response.text()
        assert response.status == 200
        result = re.search(r"🏆 ([^<]+?) (?:wins|share the win)!|🏁 Game over", html)
        assert result is not None and (result.group(1) or "🏁 Game over") in ending[0].content
        assert html.count("<li ") == await store.log_length(table.id)
    finally:
        await pages.stop()
        await store.close()
        stop(bot)

