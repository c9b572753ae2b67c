"""How far a move travels through bot/: the modules a typed move and an AI seat's move pass
through, from the Discord adapter to the message the thread receives, and how often control
enters the referee and the command core.

    python bench/call_paths.py

The real bot runs in this process against the Discord stand-in, on an SQLite file: Alice and Bob
open a Tromino Go table and Alice types a legal move in its thread (the typed move: from the
stand-in's message to the bot's answer); then Alice plays Tromino Go against an easy AI seat and
types a move (the AI move: everything that runs inside the AI worker's turn, from claiming it to
posting its message). Every Python call into a `bot.` module is recorded (`sys.setprofile`).
Prints one JSON line per path: the modules visited, and the distinct ways control entered the
referee's module(s) (`bot.service.*`, or `bot.referee` in the layout before issue 36) and the
command core (`bot.tables.core`) from another module (a caller's function and the function it
entered; a coroutine resumed counts once, however often it resumes), and the calls that go back
up: from a lower layer of bot/ into a higher one (in the flat layout, from any module into the
referee's). It reads bot/ by module name only, so it measures the
flat layout of earlier commits too.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from engine import GAMES  # noqa: E402
from tests.bot.adapters.discordbot.harness import running  # noqa: E402
from tests.standin import DiscordStandIn  # noqa: E402

REFEREE = ("bot.referee", "bot.service.")
CORE = ("bot.tables.core",)
LAYERS = ["cli", "adapters", "service", "durable", "tables", "community", "media", "storage", "words", "workers",
          "core"]
"""bot/'s packages from the top down (pyproject.toml's import contract; community and media, and
storage, words and workers, are side by side)."""
SIDE_BY_SIDE = {"media": "community", "words": "storage", "workers": "storage"}
PLUMBING = {"__get__", "__init__", "<genexpr>", "<lambda>", "<listcomp>", "<dictcomp>", "<setcomp>"}
"""Calls that are not control entering a module: attribute plumbing, constructors, comprehensions."""


def layer(module: str) -> int:
    """How high `module` sits in bot/ (0 the top). In the flat layout before issue 36 the referee
    sits where the service is now and every other module but the adapters below it."""
    part = module.split(".")[1] if module.count(".") else ""
    if module == "bot.referee":
        part = "service"
    elif part not in LAYERS and part not in ("adapters", "__main__"):
        part = "durable"
    part = SIDE_BY_SIDE.get(part, part)
    return LAYERS.index(part) if part in LAYERS else 0


class Recorder:
    """The bot modules entered by calls, in a window, among frames that `wanted` accepts."""

    def __init__(self, wanted: Callable[[FrameType], bool]) -> None:
        self.wanted = wanted
        self.modules: set[str] = set()
        self.ways_in: dict[str, set[str]] = {"referee": set(), "core": set()}
        self.calls_up: set[str] = set()

    def __call__(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if not module.startswith("bot.") or not self.wanted(frame):
            return
        self.modules.add(module)
        if frame.f_code.co_name in PLUMBING:
            return
        back = frame.f_back
        while back is not None and back.f_code.co_name in PLUMBING:
            back = back.f_back
        caller = back.f_globals.get("__name__", "") if back is not None else ""
        if caller.startswith("bot.") and layer(module) < layer(caller):
            self.calls_up.add(f"{caller}.{back.f_code.co_name if back else '?'} -> {module}.{frame.f_code.co_name}")
        for kind, names in (("referee", REFEREE), ("core", CORE)):
            if module.startswith(names) and not caller.startswith(names):
                self.ways_in[kind].add(f"{caller}.{back.f_code.co_name if back else '?'} -> "
                                       f"{module}.{frame.f_code.co_name}")

    def report(self, path: str) -> dict[str, Any]:
        return {"path": path, "modules": len(self.modules), "ways_into_referee": len(self.ways_in["referee"]),
                "ways_into_core": len(self.ways_in["core"]), "calls_up": sorted(self.calls_up),
                "visited": sorted(self.modules),
                "ways_in": {kind: sorted(ways) for kind, ways in self.ways_in.items()}}


def in_ai_turn(frame: FrameType) -> bool:
    """Whether the frame runs inside an AI worker's turn (`AiTurns._play`)."""
    while frame is not None:
        if frame.f_code.co_name == "_play" and frame.f_globals.get("__name__", "").endswith("ai_turns"):
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


async def first_move(harness: Any, thread: Any, user: Any) -> str:
    game = await harness.game(thread)
    seat = game.to_move()[0]
    return sorted(game.legal_actions(seat))[0] if seat is not None else ""


async def typed_move(s: DiscordStandIn, folder: Path) -> dict[str, Any]:
    async with running(s, folder / "typed.sqlite3") as harness:
        thread, _opening = await harness.open_table(s.alice, s.bob, game="tromino_go")
        game = await harness.game(thread)
        table = await harness.table(thread)
        mover = s.alice if table.seats[game.to_move()[0]].user_id == str(s.alice.id) else s.bob
        action = sorted(game.legal_actions(game.to_move()[0]))[0]
        mark = s.mark()
        recorder = Recorder(lambda frame: True)
        sys.setprofile(recorder)
        try:
            await s.say(mover, thread, action)
            await s.wait_for_message(thread, lambda m: (not m.ephemeral and "lays" in m.content.lower())
                                     or bool(m.attachments), since=mark)
        finally:
            sys.setprofile(None)
        return recorder.report("typed move")


async def ai_move(s: DiscordStandIn, folder: Path) -> dict[str, Any]:
    async with running(s, folder / "ai.sqlite3") as harness:
        announced = await (await s.slash(s.alice, s.channel, "tileref new", game="tromino_go",
                                         options="ai_seconds=0 ai_level=easy")).reply()
        thread = await s.wait_for_thread(lambda t: t.id == announced.id)
        lobby = await s.wait_for_message(thread, lambda m: bool(m.buttons()))
        lobby = await (await s.click(s.alice, lobby, label="Add bot")).reply()
        recorder = Recorder(in_ai_turn)
        sys.setprofile(recorder)
        try:
            await (await s.click(s.alice, lobby, label="Start")).replies(2)
            await harness.referee.ai.idle()
            for _ in range(3):
                game = await harness.game(thread)
                if game.outcome() is not None or not game.to_move():
                    break
                seat = game.to_move()[0]
                table = await harness.table(thread)
                if table.seats[seat].user_id != str(s.alice.id):
                    await harness.referee.ai.idle()
                    continue
                mark = s.mark()
                await s.say(s.alice, thread, sorted(game.legal_actions(seat))[0])
                await harness.referee.ai.idle()
                await s.wait_for_message(thread, lambda m: not m.ephemeral and bool(m.attachments), since=mark)
        finally:
            sys.setprofile(None)
        return recorder.report("AI move")


async def main() -> None:
    assert "tromino_go" in GAMES
    with tempfile.TemporaryDirectory() as folder:
        for measure in (typed_move, ai_move):
            async with DiscordStandIn(default_timeout=30) as s:
                print(json.dumps(await measure(s, Path(folder))))


if __name__ == "__main__":
    asyncio.run(main())
