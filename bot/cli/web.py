"""`tileref web`: the spectator pages in a process of their own, reading the database and its
change feed, so watchers never slow the players (several can serve one bot); and starting it as
a child process of `tileref run` or `tileref play`.

The child says on its standard output, in one line, either `ready <public url>` or `failed
<reason>`, and then writes nothing more there; it ends when its standard input closes (its parent
ended, however it ended)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from pathlib import Path
from typing import IO

from bot.adapters.web.server import PagesCannotListen, WebServer, start_pages
from bot.core.i18n import _, current_language
from bot.media.watching import WebSettings
from bot.storage.address import DEFAULT_DATABASE, is_postgres, store_for

log = logging.getLogger(__name__)

READY, FAILED = "ready", "failed"
CHILD_NICENESS = 5
"""How much lower a child web process's CPU priority is than its parent's: on a busy machine the
players' commands come first, the watchers' pages after."""
START_SECONDS = 30.0
"""How long a parent waits for its web process to listen."""


def cache_folder(database: str) -> Path:
    """Where the board pictures are kept by default: beside the SQLite file, else in tileref-data."""
    folder = DEFAULT_DATABASE.parent if is_postgres(database) else Path(database).parent
    return folder / "web-cache"


async def serve_pages(database: str, settings: WebSettings, *, cache: Path | None, health_url: str | None = None,
                      child: bool = False) -> int:
    """Serve the pages until interrupted (SIGINT, SIGTERM) or, for a `child`, until standard
    input closes. Says where on standard output (`ready <url>` for a child); 1 when it cannot
    listen (saying why), 0 when it stopped."""
    if child:
        with contextlib.suppress(OSError):
            os.nice(CHILD_NICENESS)
    store = store_for(database)
    try:
        await store.open()
    except OSError as error:
        _say(child, FAILED, _("Could not open the database ({error}).").format(error=error))
        return 1
    started: tuple[WebServer, str] | None = None
    try:
        try:
            started = await start_pages(store, settings, cache=cache, health_url=health_url)
        except PagesCannotListen as error:
            _say(child, FAILED, str(error))
            return 1
        if started is None:
            _say(child, FAILED, _("TILEREF_WEB is off."))
            return 1
        _say(child, READY, started[1])
        await _until_stopped(child)
        return 0
    finally:
        if started is not None:
            await started[0].stop()
        await store.close()


def _say(child: bool, word: str, text: str) -> None:
    if child:
        print(f"{word} {text}", flush=True)
    elif word == READY:
        print(_("Spectator pages at {link} (Ctrl-C stops them).").format(link=text), flush=True)
    else:
        print(text, file=sys.stderr, flush=True)


async def _until_stopped(child: bool) -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for number in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(number, stop.set)
    if child:
        loop.run_in_executor(None, _wait_for_end_of_input, loop, stop)
    await stop.wait()


def _wait_for_end_of_input(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    """In a thread: read standard input to its end (the parent closed it, or ended), then stop."""
    with contextlib.suppress(OSError, ValueError):
        while sys.stdin.buffer.read(4096):
            pass
    loop.call_soon_threadsafe(stop.set)


def settings_environment(settings: WebSettings) -> dict[str, str]:
    """This process's environment with `settings` as TILEREF_WEB and TILEREF_PUBLIC_URL."""
    host = f"[{settings.host}]" if settings.host and ":" in settings.host else settings.host
    return {**os.environ, "TILEREF_WEB": f"{host}:{settings.port}" if settings.host else "off",
            "TILEREF_PUBLIC_URL": settings.public_url}


class WebProcess:
    """A `tileref web` child process, its output going to `log` (None: this process's stderr)."""

    def __init__(self, process: asyncio.subprocess.Process, public_url: str) -> None:
        self.process = process
        self.public_url = public_url

    async def stop(self) -> None:
        """End it: close its input (it stops by itself), and terminate it if it lingers."""
        if self.process.returncode is not None:
            return
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 5)
        except TimeoutError:
            self.process.terminate()
            await self.process.wait()


async def start_web_process(database: str, settings: WebSettings, *, health_url: str | None = None,
                            log_to: IO[bytes] | int | None = None) -> WebProcess:
    """Start `tileref web` for `database` as a child, listening where `settings` say, and wait
    until it listens; its logs go to `log_to` (default: this process's stderr). Raises
    PagesCannotListen, saying why, when it cannot."""
    arguments = [sys.executable, "-m", "bot", "--db", database, "web", "--child", "--lang", current_language()]
    if health_url is not None:
        arguments += ["--health-from", health_url]
    process = await asyncio.create_subprocess_exec(*arguments, stdin=asyncio.subprocess.PIPE,
                                                   stdout=asyncio.subprocess.PIPE, stderr=log_to,
                                                   env=settings_environment(settings))
    assert process.stdout is not None
    try:
        line = (await asyncio.wait_for(process.stdout.readline(), START_SECONDS)).decode(errors="replace").strip()
    except TimeoutError:
        line = f"{FAILED} " + _("the web process did not start within {seconds:g} s").format(seconds=START_SECONDS)
    word, _space, text = line.partition(" ")
    if word != READY:
        if process.returncode is None:
            process.kill()
        await process.wait()
        raise PagesCannotListen(text or _("The web process ended before it listened."))
    return WebProcess(process, text)
