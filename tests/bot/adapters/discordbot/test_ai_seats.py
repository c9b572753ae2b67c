"""AI seats through the Discord stand-in with the real discord.py client in a real bot process:
a person's board comes first, then the bot is shown typing, then one message with every AI move
up to the person's next turn, in order, each once. A process SIGKILLed while an AI thinks
leaves the move to the next process, which plays and announces it once (SQLite and PostgreSQL).
AI seats think a tenth of a second (`ai_seconds=0.1`): the suite stays quick."""

from __future__ import annotations

import asyncio
import re
import signal
import time

import pytest

from bot.database import store_for
from bot.records import AI_TURN, ActionRecord
from bot.store import Store
from tests.bot.adapters.discordbot.test_crash import start_bot
from tests.standin import Channel, DiscordStandIn, RecordedMessage

QUICK = "ai_seconds=0.1"
AI_LINE = re.compile(r"^(.+ \(bot\)) (?:lays (\S+) at (\S+)–(\S+)|(draws) a tile)")


@pytest.fixture
async def standin():
    async with DiscordStandIn(default_timeout=30) as s:
        yield s


async def open_ai_table(s: DiscordStandIn, bots: int, options: str = QUICK) -> Channel:
    """Alice's Tronimoes table with `bots` AI seats, started."""
    announced = await (await s.slash(s.alice, s.channel, "tileref new", game="tronimoes", options=options)).reply()
    thread = await s.wait_for_thread(lambda t: t.id == announced.id)
    lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
    for _ in range(bots):
        lobby = await (await s.click(s.alice, lobby, label="Add bot")).reply()
    await (await s.click(s.alice, lobby, label="Start")).replies(2)
    return thread


async def settled(store: Store, table_id: int, timeout: float = 30) -> None:
    """Wait until no AI turn is left and every announcement has been delivered."""
    for _ in range(int(timeout / 0.05)):
        turns = [t for t in await store.timers(table_id) if t.kind == AI_TURN]
        if not turns and not await store.pending_notices(table_id):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the AI seats never finished")


def public(s: DiscordStandIn, thread: Channel, since: int = 0) -> list[RecordedMessage]:
    """The bot's public messages in the thread (each once, as first posted), in order."""
    seen: dict[int, RecordedMessage] = {}
    for message in s.messages[since:]:
        if message.channel_id == thread.id and not message.ephemeral and not message.loading:
            seen.setdefault(message.id, message)
    return sorted(seen.values(), key=lambda m: m.id)


def expected_lines(table_names: list[str], actions: list[ActionRecord]) -> list[tuple[str, ...]]:
    """The AI seats' lays and draws as announced: (name, tile, from, to) or (name, "draws")."""
    lines: list[tuple[str, ...]] = []
    for action in actions:
        if not action.actor.startswith("ai:"):
            continue
        name = table_names[action.seat]
        if action.action == "draw":
            lines.append((name, "draws"))
        elif re.fullmatch(r"\d+:\d+ \w+ \w+", action.action):
            tile, start, end = action.action.split()
            lines.append((name, tile, start, end))
    return lines


def announced_lines(messages: list[RecordedMessage]) -> list[tuple[str, ...]]:
    lines: list[tuple[str, ...]] = []
    for message in messages:
        for line in message.content.split("\n"):
            match = AI_LINE.match(line)
            if match:
                name, tile, start, end, draws = match.groups()
                lines.append((name, "draws") if draws else (name, tile, start, end))
    return lines


async def test_the_persons_board_comes_first_then_one_message_with_every_ai_move_in_order(standin, tmp_path):
    s = standin
    database = tmp_path / "tileref.sqlite3"
    process = start_bot(s, database)
    store = store_for(str(database))
    try:
        await s.wait_for_connection()
        thread = await open_ai_table(s, bots=3)
        await store.open()
        table = await store.table_at(f"discord:{thread.id}")
        assert table is not None
        rounds = 0
        while rounds < 3:
            await settled(store, table.id)
            mark = s.mark()
            choices = await s.autocomplete(s.alice, thread, "move", text="")
            mine = await (await s.slash(s.alice, thread, "move", text=choices[0]["value"])).reply()
            assert not mine.ephemeral and mine.png_images()
            if not any(t.kind == AI_TURN for t in await store.timers(table.id)):
                continue  # a draw: still alice's turn
            rounds += 1
            await settled(store, table.id)
            after = [m for m in public(s, thread, mark) if m.id != mine.id]
            assert len(after) == 1, [m.content for m in after]  # two messages a round, not four
            [theirs] = after
            assert theirs.id > mine.id and theirs.png_images() and len(theirs.attachments) == 1
            assert "It's <@" in theirs.content and {int(u["id"]) for u in theirs.payload["mentions"]} == {s.alice.id}
        assert thread.id in s.typing
        names = [seat.name for seat in table.seats]
        assert announced_lines(public(s, thread)) == expected_lines(names, await store.actions(table.id))
    finally:
        await store.close()
        process.kill()
        process.wait(10)
    s.assert_clean()


async def test_a_process_killed_while_an_ai_thinks_leaves_the_move_to_the_next_one_played_once(standin, database,
                                                                                                tmp_path):
    s = standin
    first = start_bot(s, database)
    store = store_for(database)
    try:
        await s.wait_for_connection()
        thread = await open_ai_table(s, bots=1, options="ai_seconds=2")  # long enough to be killed meanwhile
        await store.open()
        table = await store.table_at(f"discord:{thread.id}")
        assert table is not None
        for _ in range(600):
            turns = [t for t in await store.timers(table.id) if t.kind == AI_TURN]
            if turns:
                if not await store.claim_ai_turns(time.time(), 0.0, 5):
                    break  # the bot holds the AI turn: it is thinking
                await asyncio.sleep(0.02)
                continue
            choices = await s.autocomplete(s.alice, thread, "move", text="")
            if choices:
                await (await s.slash(s.alice, thread, "move", text=choices[0]["value"])).reply()
            else:
                await asyncio.sleep(0.05)
        [turn] = [t for t in await store.timers(table.id) if t.kind == AI_TURN]
        planned_at = len(await store.actions(table.id))
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    finally:
        first.kill()
    assert len(await store.actions(table.id)) == planned_at  # killed while thinking: nothing played yet
    mark = s.mark()
    second = start_bot(s, database)
    try:
        await s.wait_for_connection(after=1)
        await settled(store, table.id, timeout=60)
        actions = await store.actions(table.id)
        assert actions[planned_at].seat == turn.seat and actions[planned_at].actor == "ai:strong"
        ai_messages = [m for m in public(s, thread, mark) if "(bot)" in m.content and m.png_images()]
        names = [seat.name for seat in table.seats]
        announced = announced_lines(ai_messages)
        assert announced == expected_lines(names, actions[planned_at:])  # played once, announced once
    finally:
        await store.close()
        second.kill()
        second.wait(10)
