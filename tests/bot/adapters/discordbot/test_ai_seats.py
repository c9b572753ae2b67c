"""AI seats through the Discord stand-in with the real discord.py client in a real bot process:
a person's board comes first, then the bot is shown typing, then one message with every AI move
up to the person's next turn, in order, each once. A process SIGKILLed while an AI thinks
leaves the move to the next process, which plays and announces it once (SQLite and PostgreSQL).
AI seats think a tenth of a second (`ai_seconds=0.1`): the suite stays quick."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import time

import pytest

from bot.core.records import AI_TURN, ActionRecord, Timer
from bot.storage.address import store_for
from bot.storage.store import Store
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
            # two messages a round, not four (a run slowed past SPLIT_AFTER by a busy machine may come in two)
            assert 1 <= len(after) <= 2, [m.content for m in after]
            assert all(m.id > mine.id and len(m.attachments) == 1 and m.png_images() for m in after)
            theirs = after[-1]
            # the last pings alice: "It's <@alice>'s turn", or "waiting for <@alice>" when a bot's move ended the round
            assert f"<@{s.alice.id}>" in theirs.content
            assert {int(u["id"]) for u in theirs.payload["mentions"]} == {s.alice.id}
        assert thread.id in s.typing
        names = [seat.name for seat in table.seats]
        assert announced_lines(public(s, thread)) == expected_lines(names, await store.actions(table.id))
    finally:
        await store.close()
        process.kill()
        process.wait(10)
    s.assert_clean()


async def kill_while_an_ai_thinks(s: DiscordStandIn, store: Store, table_id: int, thread: Channel,
                                  bot: subprocess.Popen[bytes]) -> Timer | None:
    """Play alice's moves until the bot holds an AI turn (it is thinking), then SIGKILL it. The AI
    turn it was thinking about; None if the move was committed before the kill landed."""
    for _ in range(600):
        turns = [t for t in await store.timers(table_id) if t.kind == AI_TURN]
        if turns and not await store.claim_ai_turns(time.time(), 0.0, 5):  # none free: the bot holds it
            bot.send_signal(signal.SIGKILL)
            bot.wait(10)
            return turns[0] if len(await store.actions(table_id)) == turns[0].ply else None
        if turns:
            await asyncio.sleep(0.02)
            continue
        choices = await s.autocomplete(s.alice, thread, "move", text="")
        if choices:
            await (await s.slash(s.alice, thread, "move", text=choices[0]["value"])).reply()
        else:
            await asyncio.sleep(0.05)
    raise AssertionError("the AI seat never thought")


async def test_a_process_killed_while_an_ai_thinks_leaves_the_move_to_the_next_one_played_once(standin, database):
    s = standin
    store = store_for(database)
    bots: list[subprocess.Popen[bytes]] = []
    try:
        turn = None
        for attempt in range(4):  # a move with one choice is made at once: the kill may come after it
            bots.append(start_bot(s, database))
            await s.wait_for_connection(after=attempt)
            if attempt == 0:
                thread = await open_ai_table(s, bots=1, options="ai_seconds=2")  # long enough to be killed meanwhile
                await store.open()
                table = await store.table_at(f"discord:{thread.id}")
                assert table is not None
            turn = await kill_while_an_ai_thinks(s, store, table.id, thread, bots[-1])
            if turn is not None:
                break
        assert turn is not None
        assert len(await store.actions(table.id)) == turn.ply  # killed while thinking: nothing played yet
        mark = s.mark()
        bots.append(start_bot(s, database))
        await s.wait_for_connection(after=len(bots) - 1)
        await settled(store, table.id, timeout=60)
        actions = await store.actions(table.id)
        assert actions[turn.ply].seat == turn.seat and actions[turn.ply].actor == "ai:normal"
        ai_messages = [m for m in public(s, thread, mark) if "(bot)" in m.content and m.png_images()]
        names = [seat.name for seat in table.seats]
        announced, after = announced_lines(ai_messages), expected_lines(names, actions[turn.ply:])
        assert announced[len(announced) - len(after):] == after, announced  # played once, announced once, in order
        earlier = expected_lines(names, actions[:turn.ply])  # a killed process's unconfirmed notices, sent again
        assert all(line in earlier for line in announced[:len(announced) - len(after)]), announced
    finally:
        await store.close()
        for bot in bots:
            bot.kill()
            bot.wait(10)
