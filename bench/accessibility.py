"""Boards in words, measured through the Discord stand-in with a real bot process (`tileref run`
as the crash tests start it, on an SQLite file): a whole game of each game, played by a person
who chose text-first play (`/accessibility text on`) and reads only what it sends (the board in
words and the legal moves grouped, by direct message or privately in answer to her own command),
against one AI seat. Prints one JSON line per game:

- `pictures`, `described`, `described_share`: the board pictures posted in the game's thread and
  how many carry a description (Discord's attachment description; target: all of them);
- `longest_description`: the longest of them, in characters (Discord's limit: 1,024);
- `describe_ms_median`, `describe_ms_p95`: the time the picture's description takes to write,
  on every position of the game played (the game rebuilt from the bot's log): what it adds to a
  move at most (the bot writes it in a thread while the picture is drawn);
- `text_play_ms_median`: the time the person's private turn in words takes to write (the whole
  board in words with her hand, and her grouped moves), on every position where she was to move;
- `move_ms_median`: from her typed move to the board message in the thread, for context;
- `longest_turn_in_words`: the longest private turn in words she was sent, in characters.

Games are kept small (the options the tests use) and the AI seat thinks a tenth of a second.

    .venv/bin/python bench/accessibility.py [--games tronimoes,tetromic]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.community.accessibility import turn_in_words
from bot.core.records import AI_TURN, PLAYING
from bot.storage.address import store_for
from bot.storage.loader import new_game
from bot.storage.store import Store
from bot.tables.pictures import described_board
from engine import GAMES, Game
from tests.bot.adapters.discordbot.bot_process import spawn, stop
from tests.bot.screen_reader_player import ScreenReaderPlayer, groups_in
from tests.standin import Channel, DiscordStandIn, RecordedMessage, User

LEAN = {"tronimoes": "", "triominoes": "rounds=1", "tromino_go": "", "tronix": "deck_size=12 quiet_limit=5",
        "tetromic": "width=4 height=5 target_level=2"}
"""Each game as small as its options make it (the tests' options)."""
QUICK = "ai_seconds=0.1"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def told_alone(s: DiscordStandIn, user: User, since: int) -> str:
    """What only `user` was told since `since`: direct messages and private answers (she is the
    only person at the table)."""
    dm = s.dm_channel(user)
    return "\n".join(m.content for m in s.messages[since:]
                     if m.kind == "create" and ((dm is not None and m.channel_id == dm.id) or m.ephemeral))


def board_pictures(s: DiscordStandIn, thread: Channel) -> list[dict[str, object]]:
    """Every board picture posted in `thread` (each message once, as it was first posted)."""
    seen: dict[int, RecordedMessage] = {}
    for message in s.messages:
        if message.channel_id == thread.id and message.kind == "create" and not message.ephemeral:
            seen.setdefault(message.id, message)
    return [a for m in seen.values() for a in m.payload.get("attachments", [])
            if str(a.get("filename", "")).endswith(".png") and "hand" not in str(a.get("filename", ""))]


async def open_table(s: DiscordStandIn, game: str) -> Channel:
    options = " ".join(o for o in (LEAN[game], QUICK) if o)
    announced = await (await s.slash(s.alice, s.channel, "tileref new", game=game, options=options)).reply(timeout=60)
    thread = await s.wait_for_thread(lambda t: t.id == announced.id)
    lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
    lobby = await (await s.click(s.alice, lobby, label="Add bot")).reply(timeout=60)
    await (await s.click(s.alice, lobby, label="Start")).replies(2, timeout=60)
    return thread


async def status(store: Store, thread: Channel) -> str:
    table = await store.table_at(f"discord:{thread.id}")
    assert table is not None
    return table.status


async def words_or_end(s: DiscordStandIn, store: Store, thread: Channel, since: int) -> bool:
    """Wait until the AI seat has played, then until alice is told her turn in words since `since`
    (True) or the game ends (False)."""
    table = await store.table_at(f"discord:{thread.id}")
    assert table is not None
    for _ in range(1200):
        if not [t for t in await store.timers(table.id) if t.kind == AI_TURN]:
            break
        await asyncio.sleep(0.05)
    for _ in range(1200):
        if await status(store, thread) != PLAYING:
            return False
        if groups_in(told_alone(s, s.alice, since)) is not None:
            return True
        await asyncio.sleep(0.05)
    raise AssertionError("alice was never told her turn in words, and the game goes on")


def positions(store_game: Game, actions: list[tuple[int, str]]) -> list[Game]:
    """The game at every position of its log, from the start."""
    seen = [store_game.clone()]
    for seat, action in actions:
        store_game.replay([[seat, action]])
        seen.append(store_game.clone())
    return seen


def timed_ms(work, *args) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    work(*args)
    return (time.perf_counter() - start) * 1000


async def game_case(s: DiscordStandIn, store: Store, game: str) -> dict[str, object]:
    player = ScreenReaderPlayer(seed=11)
    read = s.mark()
    thread = await open_table(s, game)
    move_times: list[float] = []
    while await words_or_end(s, store, thread, read):
        text = told_alone(s, s.alice, read)
        read = s.mark()
        move = player.choose(text)
        assert move is not None
        start = time.perf_counter()
        await s.say(s.alice, thread, move)
        await s.wait_for_message(thread, lambda m: m.kind == "create" and "refused" not in m.content, timeout=60,
                                 since=read)
        move_times.append((time.perf_counter() - start) * 1000)
        refused = [m.content for m in s.messages[read:] if "refused" in m.content]
        assert not refused, (move, refused)
    table = await store.table_at(f"discord:{thread.id}")
    assert table is not None and table.status != PLAYING
    await asyncio.sleep(1.5)  # the last announcements (the outbox leaves them to the process a second)
    pictures = board_pictures(s, thread)
    described = [str(a["description"]) for a in pictures if a.get("description")]
    log = [(a.seat, a.action) for a in await store.actions(table.id)]
    every = positions(new_game(table), log)
    alice = table.seat_of(f"discord:{s.alice.id}")
    assert alice is not None
    describe_times = [timed_ms(described_board, g) for g in every]
    text_times = [timed_ms(turn_in_words, g, alice) for g in every if alice in g.to_move() and g.outcome() is None]
    return {"case": "game", "game": game, "moves": len(log), "her_moves": player.moves_made,
            "pictures": len(pictures), "described": len(described),
            "described_share": round(len(described) / len(pictures), 3) if pictures else None,
            "longest_description": max((len(d) for d in described), default=0),
            "describe_ms_median": round(statistics.median(describe_times), 2),
            "describe_ms_p95": round(percentile(describe_times, 0.95), 2),
            "text_play_ms_median": round(statistics.median(text_times), 2) if text_times else None,
            "move_ms_median": round(statistics.median(move_times), 1) if move_times else None,
            "longest_turn_in_words": max((len(t) for t in player.heard), default=0)}


async def run(games: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.sqlite3"
        async with DiscordStandIn(default_timeout=60) as s:
            process = spawn(s.api_base, s.gateway_url, database, s.guild.id, s.token)
            store = store_for(str(database))
            try:
                await s.wait_for_connection(timeout=60)
                await asyncio.sleep(1)
                await store.open()
                on = await (await s.slash(s.alice, s.channel, "accessibility", text="on")).reply(timeout=60)
                assert "Text-first play is on" in on.content, on.content
                for game in games:
                    print(json.dumps(await game_case(s, store, game)), flush=True)
            finally:
                await store.close()
                stop(process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(sorted(GAMES)), help="the games, comma-separated")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    started = time.perf_counter()
    asyncio.run(run([g for g in args.games.split(",") if g]))
    print(json.dumps({"case": "total", "seconds": round(time.perf_counter() - started, 1)}))


if __name__ == "__main__":
    main()
