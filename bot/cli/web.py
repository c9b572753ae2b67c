"""`tileref web`: the spectator pages in a process of their own, reading the database and its
change feed, so watchers never slow the players (several can serve one bot); and starting it as
a child process of `tileref run` or `tileref play`.

The child says on its standard output, in one line, either `ready <public url>` or `failed
<reason>`, and then writes nothing more there; it ends when its standard input closes (its parent
ended, however it ended)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import IO

from bot.adapters.web.server import PagesCannotListen, WebServer, start_pages
from bot.core.i18n import _, current_language
from bot.media.watching import WebSettings
from bot.storage.address import DEFAULT_DATABASE, is_postgres, store_for
from engine.digits import whole_number

log = logging.getLogger(__name__)

READY, FAILED = "ready", "failed"
RESTART_SECONDS = 1.0
"""How long after a web process ended it is started again (doubling while it fails to start)."""
CHILD_NICENESS = 5
"""How much lower a child web process's CPU priority is than its parent's: on a busy machine the
players' commands come first, the watchers' pages after."""
START_SECONDS = 30.0
"""How long a parent waits for its web process to listen."""


PROCESSES_VARIABLE = "TILEREF_WEB_PROCESSES"
MOST_PROCESSES = 16


def default_processes() -> int:
    """How many web processes `tileref run` starts unless told: one a core this process may use
    (at most 16) where the system spreads one port's connections over its listeners (Linux),
    else one.

    Why more than one: with thousands of watchers of a table, every move makes each of them
    read the update and then ask for the new picture, a request each; aiohttp's own handling of
    a request (reading it, answering it), before any of tileref's code, costs about 0.1–0.2 ms
    of CPU, so 2,000 watchers need 200–400 ms of one core per move, and the last of them waits
    for all that time, on a machine where the players' commands also run. Processes sharing
    the port share that work between the cores (docs/benchmarks.md, `bench/web.py`)."""
    if not sys.platform.startswith("linux"):
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(MOST_PROCESSES, cores))


def processes_setting(text: str | None) -> int:
    """How many web processes `tileref run` starts ($TILEREF_WEB_PROCESSES; default:
    `default_processes`, one a core); ValueError, saying what to write, for anything but a whole
    number from 1 to 16."""
    if not text or not text.strip():
        return default_processes()
    count = whole_number(text)
    if count is None or not 1 <= count <= MOST_PROCESSES:
        raise ValueError(f"{PROCESSES_VARIABLE} must be a whole number of processes from 1 to {MOST_PROCESSES}, "
                         f"like 2; it is {text!r}")
    return count


def cache_folder(database: str) -> Path:
    """Where the board pictures are kept by default: beside the SQLite file, else in tileref-data."""
    folder = DEFAULT_DATABASE.parent if is_postgres(database) else Path(database).parent
    return folder / "web-cache"


async def serve_pages(database: str, settings: WebSettings, *, cache: Path | None, health_url: str | None = None,
                      child: bool = False, reuse_port: bool = False) -> int:
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
            started = await start_pages(store, settings, cache=cache, health_url=health_url, reuse_port=reuse_port)
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
    """`tileref web` child processes serving one address (`public_url`); `restart` starts one
    more like them."""

    def __init__(self, processes: list[asyncio.subprocess.Process], public_url: str,
                 restart: Callable[[], Awaitable[tuple[asyncio.subprocess.Process, str]]] | None = None) -> None:
        self.processes = processes
        self.public_url = public_url
        self.restart = restart

    async def supervise(self) -> None:
        """Until cancelled: start again any of the processes that ends, so that the pages stay
        up when one crashes (waiting longer after each start that fails, up to a minute)."""
        if self.restart is None:
            return
        delay = RESTART_SECONDS
        while True:
            waiting = {asyncio.ensure_future(process.wait()): index for index, process in enumerate(self.processes)}
            try:
                done, _pending = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in waiting:
                    task.cancel()
            for ended in done:
                index = waiting[ended]
                log.warning("the web pages' process %s ended (status %s); starting it again in %gs",
                            self.processes[index].pid, self.processes[index].returncode, delay)
                await asyncio.sleep(delay)
                try:
                    self.processes[index], _url = await self.restart()
                except PagesCannotListen as error:
                    log.warning("the web pages' process could not start again: %s", error)
                    delay = min(delay * 2, 60.0)
                else:
                    delay = RESTART_SECONDS

    @property
    def process(self) -> asyncio.subprocess.Process:
        return self.processes[0]

    async def stop(self) -> None:
        """End them: close their input (they stop by themselves), and terminate any that lingers."""
        await asyncio.gather(*(_end(process) for process in self.processes))


async def _end(process: asyncio.subprocess.Process) -> None:
    if process.returncode is not None:
        return
    if process.stdin is not None:
        process.stdin.close()
    try:
        await asyncio.wait_for(process.wait(), 5)
    except TimeoutError:
        process.terminate()
        await process.wait()


async def start_web_process(database: str, settings: WebSettings, *, health_url: str | None = None,
                            log_to: IO[bytes] | int | None = None, processes: int = 1) -> WebProcess:
    """Start `tileref web` for `database` as a child (or `processes` children sharing the port,
    which the system spreads the watchers' connections over), listening where `settings` say,
    and wait until they listen; their logs go to `log_to` (default: this process's stderr).
    Raises PagesCannotListen, saying why, when one cannot (none is left running)."""
    started: list[asyncio.subprocess.Process] = []
    public_url = ""
    try:
        for _number in range(processes):
            process, url = await _start_one(database, settings, health_url, log_to, shared=processes > 1)
            started.append(process)
            if not public_url:
                public_url = url
                if settings.port == 0 and settings.host:  # the others listen where the first did
                    port = int(url.rsplit(":", 1)[1])
                    settings = WebSettings(settings.host, port, settings.public_url or url)
    except BaseException:
        await WebProcess(started, "").stop()
        raise
    return WebProcess(started, public_url, functools.partial(_start_one, database, settings, health_url, log_to,
                                                            shared=processes > 1))


async def _start_one(database: str, settings: WebSettings, health_url: str | None, log_to: IO[bytes] | int | None,
                     *, shared: bool) -> tuple[asyncio.subprocess.Process, str]:
    arguments = [sys.executable, "-m", "bot", "--db", database, "web", "--child", "--lang", current_language()]
    if health_url is not None:
        arguments += ["--health-from", health_url]
    if shared:
        arguments.append("--reuse-port")
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
    return process, text
