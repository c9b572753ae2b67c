"""Playing in the terminal: a whole game driven by a script through the console session, and the
real `tileref` command (start, quit, resume, and `run` without a token)."""

from __future__ import annotations

import itertools
import json
import os
import pty
import re
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from typing import Any

import pytest
from PIL import Image

from bot.adapters.console import ConsoleSession, local_user
from bot.core.clock import ManualClock
from bot.core.records import FINISHED
from bot.storage.address import store_for
from engine import GAMES
from engine.tetromic import Tetromic
from tests.bot.referees import running_referee


async def test_a_whole_console_game_driven_by_a_script(tmp_path):
    out: list[str] = []
    async with running_referee(tmp_path / "t.sqlite3", ManualClock(), render=True) as referee:
        user = local_user("ada")

        async def ask(prompt: str) -> str | None:
            """Like a player: look at the hints, try a wrong move now and then, play the first hint."""
            asked.append(prompt)
            if len(asked) in (2, 5):
                return "hand" if len(asked) == 2 else "9:9 a1 a2"
            if len(asked) == 3:
                return "board"
            hints = await referee.suggestions(session_place[0], user, "", limit=1000)
            return hints[0] if hints else "quit"

        asked: list[str] = []
        session_place: list[str] = []
        session = ConsoleSession(referee, user, ask=ask, say=out.append, boards=tmp_path / "boards")
        place = await session.new_game("tronimoes", ["bot", "me", "random"])
        assert place is not None
        session_place.append(place)
        await session.play(place)
        table = await referee.table_at(place)
        assert table.status == FINISHED and [s.name for s in table.seats] == ["Pip (bot)", "ada", "Dot (bot)"]
    printed = "\n".join(out)
    assert "Round 1" in printed and "Your hand (" in printed and "Final scores" in printed
    assert "✗ there is no 9:9 in this game: pips run 0–8" in printed
    assert "The game is over." in printed
    assert "   a   b   c" in printed
    assert not [a for a, b in itertools.pairwise(out) if a == b and a.endswith("is thinking…")]
    assert "`" not in printed  # chat's code marks are left out
    pictures = sorted((tmp_path / "boards").rglob("*.png"))
    assert any(p.name == "latest-board.png" for p in pictures) and any("hand" in p.name for p in pictures)
    assert Image.open(pictures[0]).format == "PNG"


async def test_help_in_the_terminal_says_what_the_ratings_mean(tmp_path):
    out: list[str] = []
    typed = iter(["help", "quit"])
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        session = ConsoleSession(referee, local_user("ada"), ask=lambda _prompt: _next(typed), say=out.append,
                                 boards=tmp_path / "boards")
        place = await session.new_game("tromino_go", ["me", "bot"])
        assert place is not None
        await session.play(place)
    printed = "\n".join(out)
    assert "📈 Ratings (one per game and server) start at 1000 and move by whom you finished ahead of" in printed
    assert "**" not in printed


async def _next(typed) -> str | None:
    return next(typed, None)


async def test_console_refuses_a_player_list_without_exactly_one_me(tmp_path):
    out: list[str] = []
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        session = ConsoleSession(referee, local_user("ada"), ask=None, say=out.append, boards=tmp_path)  # type: ignore[arg-type]
        assert await session.new_game("tronimoes", ["bot", "bot"]) is None
        assert await session.new_game("chess", ["me", "bot"]) is None
    assert "Put me exactly once" in out[0] and "no game called 'chess'" in out[1]


async def test_console_seats_bots_by_level_and_refuses_an_unknown_one(tmp_path):
    out: list[str] = []
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        session = ConsoleSession(referee, local_user("ada"), ask=None, say=out.append, boards=tmp_path)  # type: ignore[arg-type]
        assert await session.new_game("tronimoes", ["me", "expert"]) is None
        place = await session.new_game("tronimoes", ["me", "easy", "hard", "bot"])
        assert place is not None
        table = await referee.table_at(place)
        assert [s.agent for s in table.seats] == [None, "easy", "hard", "normal"]
    assert "there is no AI level called 'expert'; choose one of easy, normal, hard" in out[0]


def tileref(tmp_path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["TILEREF_DATABASE"] = str(tmp_path / "cli.sqlite3")
    env["TILEREF_WEB"] = "127.0.0.1:0"
    return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=120)


def test_the_tileref_command_plays_quits_and_resumes(tmp_path):
    first = tileref(tmp_path, "play", "tronimoes", "--players", "me,bot,bot", "--name", "ada", "--ai-seconds", "0",
                    stdin="hints\nbanana\nquit\n")
    assert first.returncode == 0, first.stderr
    assert "Your best moves now:" in first.stdout and "✗ I can't read 'banana'" in first.stdout
    assert "Continue with `tileref play --resume`" in first.stdout
    second = tileref(tmp_path, "play", "--resume", "--ai-seconds", "0", stdin="draw\nquit\n")
    assert second.returncode == 0, second.stderr
    assert "Resuming table 1 (Tronimoes)." in second.stdout
    assert "ada draws a tile" in second.stdout or "it is" in second.stdout
    assert (tmp_path / "boards" / "table-1" / "latest-board.png").exists()


def test_running_without_a_token_explains_how_to_get_one_and_how_to_play_locally(tmp_path):
    result = tileref(tmp_path, "run")
    assert result.returncode == 2
    assert "https://discord.com/developers/applications" in result.stderr
    assert "tileref play tronimoes --players me,bot,bot" in result.stderr


def test_a_token_in_dot_env_is_used_and_an_unreachable_discord_is_one_sentence(tmp_path):
    """The token comes from .env in the folder tileref runs in; Discord's address is pointed at
    a closed port, so connecting fails: one sentence, no traceback."""
    (tmp_path / ".env").write_text("DISCORD_TOKEN=not-a-real-token\n")
    env = {**{k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"},
           "TILEREF_DATABASE": str(tmp_path / "cli.sqlite3")}
    code = ("import discord.http, sys; discord.http.Route.BASE = 'http://127.0.0.1:9/api/v10';"
            "from bot.__main__ import main; sys.exit(main(['run']))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                            timeout=120)
    assert result.returncode in (1, 2)
    assert "Traceback" not in result.stderr
    assert "Could not reach Discord" in result.stderr or "Discord refused the token" in result.stderr


def test_a_bot_whose_web_port_is_taken_says_so_and_runs_without_its_pages(tmp_path):
    """Another program holds the spectator pages' port: the bot says which setting to change and
    goes on to Discord (here unreachable: one sentence about that too), then exits, closing all
    it opened."""
    (tmp_path / ".env").write_text("DISCORD_TOKEN=not-a-real-token\n")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**{k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"},
               "TILEREF_DATABASE": str(tmp_path / "cli.sqlite3"), "TILEREF_WEB": f"127.0.0.1:{port}"}
        code = ("import discord.http, sys; discord.http.Route.BASE = 'http://127.0.0.1:9/api/v10';"
                "from bot.__main__ import main; sys.exit(main(['run']))")
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                                cwd=tmp_path, timeout=120)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"could not listen on 127.0.0.1:{port}" in result.stderr and "TILEREF_WEB" in result.stderr
    assert "Could not reach Discord" in result.stderr
    assert "address already in use" not in result.stderr.split("Could not reach Discord")[1]


async def test_the_console_offers_reactions_and_the_vision_quest_from_the_offline_pack(tmp_path):
    out: list[str] = []
    script = iter(["react victory", "1", "draw", "PASS", "quest chicken foot", "1", "quit"])
    async with running_referee(tmp_path / "t.sqlite3", ManualClock(), render=True) as referee:
        user = local_user("ada")

        async def ask(prompt: str) -> str | None:
            line = next(script)
            if line == "PASS":  # whichever pass is legal (with a foot square if the line has not started)
                return next(a for a in await referee.suggestions(place, user, "pass", limit=100))
            return line

        session = ConsoleSession(referee, user, ask=ask, say=out.append, boards=tmp_path / "boards")
        place = await session.new_game("tronimoes", ["me", "bot"])
        assert place is not None
        await session.play(place)
        table = await referee.table_at(place)
        feet = await referee.store.pictures(table.id, "foot")
    printed = "\n".join(out)
    assert "ada reacts: A trophy (tileref's own pictures)" in printed
    assert "vision quest" in printed and "Your chicken-foot is chosen" in printed
    assert list(feet) == [0] and feet[0][1] == "offline:chicken-foot"
    assert any(p.name == "reaction.png" for p in (tmp_path / "boards").rglob("*.png"))


async def test_numbers_in_other_digits_are_refused_in_the_terminal_saying_to_write_0_to_9(tmp_path):
    """`history ²` and a picture chosen as '²' passed `isdigit()` and then failed `int()` (a
    traceback ended the session); `history ٣` was read as page 3."""
    out: list[str] = []
    script = iter(["history ²", "history ٣", "history " + "9" * 5_000, "history -1", "react victory", "²",
                   "react victory", "١", "٣:٥ c4 d4", "quit"])
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        user = local_user("ada")

        async def ask(prompt: str) -> str | None:
            return next(script)

        session = ConsoleSession(referee, user, ask=ask, say=out.append, boards=tmp_path / "boards")
        place = await session.new_game("tronimoes", ["me", "bot"])
        assert place is not None
        await session.play(place)
        moves = await referee.store.log_length((await referee.table_at(place)).id)
    printed = "\n".join(out)
    assert printed.count("history takes a page number written with the digits 0 to 9, like `history 2`") == 2
    assert "Moves" not in printed and printed.count("Nothing chosen.") == 2 and "reacts" not in printed
    assert "write numbers with the digits 0 to 9, not '٣'" in printed and "Saved." in printed
    assert moves == 0


def test_an_unknown_ai_is_refused_listing_the_names_the_readme_gives(tmp_path):
    result = tileref(tmp_path, "play", "tronimoes", "--players", "me,robot", "--ai-seconds", "0")
    assert result.returncode == 1
    assert "there is no AI level called 'robot'; choose one of easy, normal, hard (or greedy, random)" in result.stdout
    assert "strong" not in result.stdout


def test_bad_ai_seconds_are_refused(tmp_path):
    for bad in ("-1", "nan", "forever", "31", "١", "1e1"):
        result = tileref(tmp_path, "play", "tronimoes", "--ai-seconds", bad)
        assert result.returncode == 2 and "give a number of seconds from 0 to 30" in result.stderr, bad


def test_lang_es_plays_in_spanish_and_resume_prints_the_board_and_the_hand(tmp_path):
    first = tileref(tmp_path, "play", "tronimoes", "--players", "me,bot", "--name", "ada", "--ai-seconds", "0",
                    "--lang", "es", stdin="pistas\nsalir\n")
    assert first.returncode == 0, first.stderr
    assert "Tus mejores jugadas ahora:" in first.stdout and "Escribe ayuda para ver las órdenes" in first.stdout
    second = tileref(tmp_path, "play", "--resume", "--ai-seconds", "0", stdin="salir\n")
    assert "Retomando la mesa 1 (Tronimoes)." in second.stdout
    assert "   a   b   c" in second.stdout  # the text board
    assert "Tu mano (" in second.stdout  # the hand


def test_board_prints_the_text_board_and_the_hand(tmp_path):
    result = tileref(tmp_path, "play", "tronimoes", "--players", "me,bot", "--name", "ada", "--ai-seconds", "0",
                     stdin="board\nquit\n")
    after = result.stdout.split("ada> ", 1)[1]
    assert "   a   b   c" in after and "Open ends:" in after and "Your hand (" in after


def test_tileref_rules_lists_the_notation_words_in_spanish(tmp_path):
    result = tileref(tmp_path, "rules", "tromino_go", "--lang", "es")
    assert "Palabras de la notación en Español (se entienden ambas):" in result.stdout
    assert "play → poner" in result.stdout and "SW → SO" in result.stdout
    assert "rodea los trominós" in result.stdout


async def test_triominoes_hints_show_each_tile_as_in_the_hand_turned_as_the_placement_needs(tmp_path):
    """`hints` names each tile as the hand shows it (`0-0-1`), then the corners it is turned to
    (`0-0-1 → 0-1-0 r0c1`); a hint typed as shown is played."""
    out: list[str] = []
    shown: list[list[str]] = []
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        user = local_user("ada")

        async def ask(prompt: str) -> str | None:
            hints = [line for line in out if line.startswith("You can play: ")]
            if len(shown) >= 12 or len(out) > 400:
                return "quit"
            if not hints or len(hints) == len(shown):
                return "hints all"
            listed = hints[-1].removeprefix("You can play: ").split(" … ")[0].split(", ")
            shown.append(listed)
            return listed[0]

        session = ConsoleSession(referee, user, ask=ask, say=out.append, boards=tmp_path / "boards")
        place = await session.new_game("triominoes", ["me", "random"])
        assert place is not None
        await session.play(place)
    placements = [hint for listed in shown for hint in listed if hint not in ("draw", "pass", "nothing now")]
    turned = [hint for hint in placements if " → " in hint]
    assert placements and turned, shown
    for hint in turned:
        held, placed = hint.split(" → ")
        numbers = placed.split()[0]
        assert sorted(held.split("-")) == sorted(numbers.split("-")) and held != numbers
        assert held == "-".join(sorted(held.split("-"))) or held.split("-")[0] == min(held.split("-"))
    assert not any("✗" in line and "→" in line for line in out), "a hint typed as shown was refused"


def test_tileref_play_prints_the_games_web_page_once_and_serves_it(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(TILEREF_DATABASE=str(tmp_path / "cli.sqlite3"), TILEREF_WEB="127.0.0.1:0", PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-m", "bot", "play", "tronimoes", "--players", "me,random",
                                "--ai-seconds", "0"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               env=env, cwd=tmp_path)
    try:
        assert process.stdout is not None and process.stdin is not None
        link = None
        printed = ""
        for _ in range(400):
            line = process.stdout.readline()
            printed += line
            if not line or line.startswith("Type help for commands"):
                break
            if "Watch it live and replay it on the web:" in line:
                link = line.split(": ", 1)[1].strip()
        assert link and re.fullmatch(r"http://127\.0\.0\.1:\d+/t/[\w-]{24}", link), link
        with urllib.request.urlopen(link, timeout=10) as page:
            html = page.read().decode()
        assert "Tronimoes" in html and re.search(r"/board/\d+-[0-9a-f]{16}\.png", html)
        printed += process.communicate("quit\n", timeout=60)[0]
        assert process.returncode == 0
        assert printed.count(link) == 1, printed  # once
    finally:
        process.kill()
        process.wait()
    resumed = tileref(tmp_path, "play", "--resume", stdin="quit\n")  # no first message: the link once, here
    assert resumed.stdout.count("Watch and replay this game in a browser: http://127.0.0.1:") == 1


def test_tileref_rules_prints_the_out_rule_and_with_positions_the_position_format(tmp_path):
    rules = tileref(tmp_path, "rules", "tetromic")
    assert rules.returncode == 0 and "no piece of any kind fits any more is out" in rules.stdout
    positions = tileref(tmp_path, "rules", "tetromic", "--positions")
    assert positions.returncode == 0 and '"out": true' in positions.stdout and "`result`" in positions.stdout
    example = positions.stdout.split("```json\n")[1].split("\n```")[0]
    assert Tetromic.from_position(json.loads(example)).to_position() == json.loads(example)


async def test_a_finished_game_stays_out_of_the_next_session_and_other_tables_wait_for_their_own(tmp_path):
    """Three terminal sessions one after the other on one data folder, each its own referee (its
    own process): a Tronimoes game left unfinished; a Tromino Go game resigned, whose replay is
    shown at its end and saved apart from the board picture; then a Tronix game at once, while a
    day's clock passes (the outbox's lease, the Tronimoes game's reminder): nothing of the other
    two is printed in it and every move is taken. The Tronimoes reminder waits in the outbox and
    is printed when that game is resumed."""
    clock = ManualClock()
    path, boards = tmp_path / "t.sqlite3", tmp_path / "boards"
    user = local_user("ada")

    async def session(script: list[str], game: str | None, players: list[str]) -> tuple[list[str], Any]:
        out: list[str] = []
        async with running_referee(path, clock, render=True) as referee:
            lines, playing = iter(script), []

            async def ask(prompt: str) -> str | None:
                line = next(lines, "quit")
                if line == "WAIT":  # a day passes at the prompt, with the outbox's sweeps
                    await clock.advance(13 * 3600)
                    await referee.outbox.sweep()
                    line = next(lines)
                if line == "HINT":
                    line = (await referee.suggestions(playing[0], user, "", limit=1))[0]
                return line

            console = ConsoleSession(referee, user, ask=ask, say=out.append, boards=boards)
            place = await console.new_game(game, players) if game else await console.resume()
            assert place is not None
            playing.append(place)
            await console.play(place)
            return out, await referee.store.pending_notices(1)

    await session(["quit"], "tronimoes", ["me", "bot"])
    second, _ = await session(["HINT", "resign", "yes"], "tromino_go", ["me", "bot"])
    third, tronimoes_pending = await session(["WAIT", "HINT", "HINT", "HINT", "resign", "yes"], "tronix",
                                             ["me", "bot"])
    resumed, still_pending = await session(["quit"], None, [])
    printed = "\n".join(third)
    assert "Tronix begins" in printed
    for other in ("TGpoints", "Tromino Go", "tromino_go", "table-2", "Tronimoes", "Open ends"):
        assert other not in printed, other
    assert "✗" not in printed, printed
    assert printed.count("ada places a card") == 3
    said = "\n".join(second)
    assert "🎞️ The whole game, move by move." in said and "(the whole game, animated: " in said
    assert [n.kind for n in tronimoes_pending] == ["reminder"]
    assert "⏰ ada, your turn ends" in "\n".join(resumed) and still_pending == []
    table_of_tromino_go = boards / "table-2"
    assert Image.open(table_of_tromino_go / "latest-board.png").format == "PNG"
    assert Image.open(table_of_tromino_go / "tromino_go-replay.gif").format == "GIF"
    assert Image.open(boards / "table-3" / "latest-board.png").format == "PNG"


class Terminal:
    """The real `tileref` (`python -m bot`) in a terminal of its own (a pseudo-terminal), in a
    process group of its own as a shell runs it: what it prints is read as a person would see it,
    and Ctrl-C reaches every process of the group as the terminal would send it."""

    def __init__(self, tmp_path, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
        env.update(TILEREF_DATABASE=str(tmp_path / "cli.sqlite3"), TILEREF_WEB="127.0.0.1:0")
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen([sys.executable, "-m", "bot", *args], stdin=slave, stdout=slave, stderr=slave,
                                        env=env, cwd=tmp_path, start_new_session=True)
        os.close(slave)
        self.seen = ""

    def wait_for(self, text: str, timeout: float = 120) -> str:
        """Everything printed until `text` has been (AssertionError if it never is)."""
        end = time.monotonic() + timeout
        while text not in self.seen and time.monotonic() < end and (self._read() or self.process.poll() is None):
            pass
        assert text in self.seen, self.seen[-3000:]
        return self.seen

    def interrupt(self) -> None:
        """Ctrl-C: SIGINT to the program's process group."""
        os.killpg(self.process.pid, signal.SIGINT)

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def end(self, timeout: float = 60) -> int:
        """Wait for the program to end (at most `timeout` seconds), reading what it prints
        meanwhile (into `seen`); its exit status."""
        end = time.monotonic() + timeout
        try:
            while self.process.poll() is None and time.monotonic() < end:
                self._read()
            assert self.process.poll() is not None, f"still running after {timeout}s: {self.seen[-2000:]}"
        finally:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        while self._read():
            pass
        os.close(self.master)
        return self.process.returncode

    def _read(self) -> bool:
        ready, _, _ = select.select([self.master], [], [], 0.2)
        try:
            chunk = os.read(self.master, 65536).decode(errors="replace") if ready else ""
        except OSError:  # the program has ended and closed the terminal
            chunk = ""
        self.seen += chunk
        return bool(chunk)


def test_ctrl_c_at_the_prompt_saves_and_exits_without_a_traceback(tmp_path):
    terminal = Terminal(tmp_path, "play", "tronimoes", "--players", "me,bot", "--name", "ada", "--ai-seconds", "0")
    terminal.wait_for("ada> ")
    terminal.interrupt()
    assert terminal.end() == 130
    assert "Traceback" not in terminal.seen and "KeyboardInterrupt" not in terminal.seen
    assert terminal.seen.rstrip().endswith("Saved. Continue with `tileref play --resume`.")
    resumed = tileref(tmp_path, "play", "--resume", stdin="quit\n")
    assert "Resuming table 1 (Tronimoes)." in resumed.stdout


def test_ctrl_c_while_an_ai_thinks_exits_at_once_without_waiting_for_its_plan(tmp_path):
    """A hard AI given 30 seconds plans for 90: the program ends well before, its planning
    processes with it, and none of them prints a traceback."""
    terminal = Terminal(tmp_path, "play", "tetromic", "--players", "hard,me", "--name", "ada", "--ai-seconds", "30")
    terminal.wait_for("is thinking…")
    terminal.interrupt()
    assert terminal.end(timeout=60) == 130
    assert "Traceback" not in terminal.seen and "KeyboardInterrupt" not in terminal.seen
    assert "Saved. Continue with `tileref play --resume`." in terminal.seen


def test_ctrl_d_at_the_prompt_saves_and_exits(tmp_path):
    terminal = Terminal(tmp_path, "play", "tronimoes", "--players", "me,bot", "--name", "ada", "--ai-seconds", "0")
    terminal.wait_for("ada> ")
    terminal.type(b"\x04")
    assert terminal.end() == 0
    assert "Traceback" not in terminal.seen and "Saved. Continue with `tileref play --resume`." in terminal.seen


async def _table_one(tmp_path) -> Any:
    store = store_for(str(tmp_path / "cli.sqlite3"))
    await store.open()
    try:
        return await store.get_table(1)
    finally:
        await store.close()


async def test_resume_keeps_the_games_name_language_and_ai_time_or_takes_new_ones(tmp_path):
    first = tileref(tmp_path, "play", "tronimoes", "--players", "me,bot", "--name", "ada", "--ai-seconds", "0",
                    "--lang", "es", stdin="salir\n")
    assert first.returncode == 0, first.stderr
    table = await _table_one(tmp_path)
    assert (table.meta["lang"], table.meta["ai_seconds"], table.seats[0].name) == ("es", 0.0, "ada")
    again = tileref(tmp_path, "play", "--resume", stdin="salir\n")
    assert "Retomando la mesa 1 (Tronimoes)." in again.stdout and "ada> " in again.stdout
    table = await _table_one(tmp_path)
    assert (table.meta["lang"], table.meta["ai_seconds"], table.seats[0].name) == ("es", 0.0, "ada")
    changed = tileref(tmp_path, "play", "--resume", "--name", "bea", "--lang", "en", "--ai-seconds", "1",
                      stdin="board\nquit\n")
    assert changed.returncode == 0, changed.stderr
    assert "Resuming table 1 (Tronimoes)." in changed.stdout and "bea> " in changed.stdout
    assert "ada is now called bea." in changed.stdout and "AI players now think 1 second a move." in changed.stdout
    assert "It's bea's turn" in changed.stdout or "bea" in changed.stdout.split("bea> ", 1)[1]
    table = await _table_one(tmp_path)
    assert (table.meta["lang"], table.meta["ai_seconds"], table.seats[0].name) == ("en", 1.0, "bea")


@pytest.mark.parametrize("answer", ["", "yes"])
async def test_resigning_a_game_that_goes_on_asks_to_watch_or_leave_and_leaves_by_default(tmp_path, answer):
    """Three seats: after the person resigns the bots play on. Enter (the default) leaves at once,
    the game going on without them (and `--resume` does not bring them back to it); "yes"
    watches the bots to the end."""
    out: list[str] = []
    asked: list[str] = []
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        script = iter(["resign", "yes", answer])

        async def ask(prompt: str) -> str | None:
            asked.append(prompt)
            return next(script, "quit")

        session = ConsoleSession(referee, local_user("ada"), ask=ask, say=out.append, boards=tmp_path)
        place = await session.new_game("tronimoes", ["me", "greedy", "greedy"])
        assert place is not None
        await session.play(place)
        table = await referee.table_at(place)
        again = ConsoleSession(referee, local_user("ada"), ask=ask, say=out.append, boards=tmp_path)
        resumed = await again.resume()
    assert asked[2] == "The game goes on without you. Watch the rest? (yes/no; Enter leaves) "
    printed = "\n".join(out)
    if answer == "":
        assert len(asked) == 3 and table.status == "playing"
        assert "You have left the game; the others play on without you." in printed
        assert resumed is None and "There is no unfinished console game to resume." in printed
    else:
        assert table.status == "finished" and "The game is over." in printed


async def _tables(tmp_path) -> list[Any]:
    store = store_for(str(tmp_path / "cli.sqlite3"))
    await store.open()
    try:
        return await store.find_tables(statuses=("lobby", "playing", "finished", "aborted"))
    finally:
        await store.close()


async def test_a_start_that_cannot_begin_is_refused_with_the_allowed_values_and_leaves_no_table(tmp_path):
    for args, said in [
        (("tromino_go", "--players", "me,bot,bot"),
         "✗ Tromino Go is played by 2 players, and --players names 3: like --players me,bot"),
        (("tronix", "--players", "me,bot,bot"),
         "✗ Tronix is played by 2, 4, 6, 8, 10, 12, 14 or 16 players, and --players names 3"),
        (("tronimoes", "--players", "me,foo"),
         "✗ there is no AI level called 'foo'; choose one of easy, normal, hard (or greedy, random)"),
        (("tronimoes", "--players", "bot,bot"), "✗ Put me exactly once in --players, e.g. --players me,bot,bot"),
        (("tronimoes", "--options", "ouroboros=maybe"), "✗ "),
    ]:
        result = tileref(tmp_path, "play", *args, "--ai-seconds", "0")
        assert result.returncode == 1 and said in result.stdout, (args, result.stdout, result.stderr)
    assert await _tables(tmp_path) == []


async def _console_lines(tmp_path, game: str, players: list[str], script: list[str]) -> str:
    """What a terminal session of `game` prints for the commands of `script` (then quit)."""
    out: list[str] = []
    async with running_referee(tmp_path / f"{game}.sqlite3", ManualClock()) as referee:
        lines = iter(script)

        async def ask(prompt: str) -> str | None:
            return next(lines, "quit")

        session = ConsoleSession(referee, local_user("ada"), ask=ask, say=out.append, boards=tmp_path)
        place = await session.new_game(game, players)
        assert place is not None
        await session.play(place)
    return "\n".join(out)


async def test_help_lists_what_the_game_has_in_terminal_words_and_hints_give_the_best_first(tmp_path):
    tromino_go = await _console_lines(tmp_path, "tromino_go", ["me", "greedy"],
                                      ["help", "hints", "hints all", "rules", "quest chicken"])
    help_text = tromino_go.split("Other commands:")[1].split("• play")[0]
    assert "hints [all | start]" in help_text and "board" in help_text and "react <words>" in help_text
    assert "hand" not in help_text and "quest" not in help_text
    assert "Type a move: how moves are written" in tromino_go and "Discord" not in tromino_go
    best = next(line for line in tromino_go.splitlines() if line.startswith("Your best moves now: "))
    listed = best.removeprefix("Your best moves now: ").split(" (and ")[0].split(", ")
    every = next(line for line in tromino_go.splitlines() if line.startswith("You can play: "))
    assert len(listed) == 8 and "concede" not in best and "`hints all` lists every move" not in best
    assert "hints all lists every move" in best
    assert set(listed) < set(every.removeprefix("You can play: ").split(", ")) and "concede 7" in every
    assert "Tromino Go has no vision quest" in tromino_go
    tronimoes = await _console_lines(tmp_path, "tronimoes", ["me", "greedy"], ["help", "hand"])
    help_text = tronimoes.split("Other commands:")[1].split("• ")[0]
    assert "hand" in help_text and "quest <words>" in help_text
    hand = next(line for line in tronimoes.splitlines() if line.startswith("Your hand ("))
    assert "**" not in tronimoes and ("[" not in hand or "The ones in [brackets] can be played now." in tronimoes)
    for discord in ("/rules", "/board", "/move", "/quest", "**"):
        assert discord not in tromino_go + tronimoes, discord


async def test_jargon_is_explained_where_it_first_appears(tmp_path):
    """Tromino Go's TGpoints and Tronix's CX cards are explained with the first board, before the
    player meets them again."""
    tromino_go = await _console_lines(tmp_path, "tromino_go", ["me", "greedy"], [])
    assert tromino_go.index("TGpoints") < tromino_go.index("TGpoints are the game's points: when a round ends") \
        < tromino_go.index("🎲 Tromino Go begins")  # with the first board, before anything else is said
    tronix = await _console_lines(tmp_path, "tronix", ["me", "greedy"], [])
    assert tronix.index("CX is a card with a curve on one face and a cross on the other") < tronix.index("CX ×")


@pytest.mark.parametrize("game", ["tronimoes", "tetromic"])
async def test_a_game_a_bots_move_ends_says_in_the_terminal_what_it_did_to_ratings(tmp_path, game):
    """Watching the bots play on after resigning: the message of their last moves, which ends the
    game, says the result and the ratings line, as a person's last move would."""
    out: list[str] = []
    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        script = iter(["resign", "yes", "yes"])

        async def ask(prompt: str) -> str | None:
            return next(script, "quit")

        session = ConsoleSession(referee, local_user("ada"), ask=ask, say=out.append, boards=tmp_path)
        place = await session.new_game(game, ["me", "greedy", "greedy"])
        assert place is not None
        await session.play(place)
        assert (await referee.table_at(place)).status == "finished"
    ratings = [line for line in "\n".join(out).splitlines() if line.startswith("📈 Ratings:")]
    assert len(ratings) == 1 and "ada" in ratings[0] and "AI (greedy)" in ratings[0], ratings


LEAN = {"tronimoes": ("", ["me", "bot"]), "triominoes": ("rounds=1", ["me", "bot"]),
        "tromino_go": ("", ["me", "bot"]), "tronix": ("deck_size=12 quiet_limit=5", ["me", "bot"]),
        "tetromic": ("width=4 height=5 target_level=2", ["me", "bot"])}
"""Each game as small as its options make it, against one AI seat: whole games that stay quick."""
BOX_DRAWING = re.compile("[\u2500-\u259f\x1b]")


@pytest.mark.parametrize("game", sorted(LEAN))
async def test_a_screen_reader_user_plays_a_whole_game_in_the_terminal_from_the_words_alone(tmp_path, game):
    from tests.bot.screen_reader_player import ScreenReaderPlayer

    options, players = LEAN[game]
    out: list[str] = []
    player = ScreenReaderPlayer(seed=3)
    read_up_to = [0]

    async def ask(prompt: str) -> str | None:
        """Read what was printed since the last prompt, and type a move it offers."""
        text = "\n".join(out[read_up_to[0]:])
        read_up_to[0] = len(out)
        return player.choose(text) or "board"

    async with running_referee(tmp_path / "t.sqlite3", ManualClock()) as referee:
        session = ConsoleSession(referee, local_user("ada"), ask=ask, say=out.append, boards=tmp_path / "boards",
                                 colour=True, screen_reader=True)
        place = await session.new_game(game, players, options)
        assert place is not None
        await session.play(place)
        table = await referee.table_at(place)
        assert table.status == FINISHED
    printed = "\n".join(out)
    assert "The game is over." in printed and player.moves_made >= 3
    assert not BOX_DRAWING.search(printed), "no box drawing and no colour codes for a screen reader"
    assert "✗" not in printed, "every move the player read was legal"
    assert "(board picture:" not in printed, "the board is said in words, not pointed at"
    title = GAMES[game].title
    described = [text for text in player.heard if title in text and "Your moves:" in text]
    assert len(described) >= player.moves_made - 1, "the board is described before the moves are offered"


async def test_describe_in_the_terminal_says_the_whole_board_in_words_with_only_your_hand(tmp_path):
    said = await _console_lines(tmp_path, "tronimoes", ["me", "greedy"], ["describe", "help"])
    assert "Tronimoes board. " in said and "Lines: " in said and "Your hand: " in said
    assert "Tiles in hand: " in said and "Left out here" not in said and "/board" not in said
    help_text = said.split("Other commands:")[1].split("• ")[0]
    assert "describe" in help_text and "the whole board in words" in help_text
    spanish = await _console_lines(tmp_path / "es", "tronimoes", ["me", "greedy"], ["describir"])
    assert "Tronimoes board. " in spanish  # the table speaks English: the Spanish word works too
