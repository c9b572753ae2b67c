"""Pools of worker processes that never outlive the bot's process.

A `ProcessPoolExecutor` worker waits for work on a queue whose other end it holds itself, so
when the bot's process dies without shutting the pool down (SIGKILL, the kernel's out-of-memory
killer, a crash), its workers and their forkserver would wait on for good, holding their memory,
one more set after every restart. Every worker started here watches a pipe whose only writing end
the bot's process holds, and ends itself the moment that end closes, however the process ended.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import Connection

_lifeline: tuple[Connection, Connection] | None = None
"""The pipe every worker of this process watches: (its reading end, its writing end, which only
this process holds and never writes to). Made once, kept open for the process's whole life."""


def _lifeline_end() -> Connection:
    """The reading end of this process's lifeline, made on first use."""
    global _lifeline
    if _lifeline is None:
        _lifeline = multiprocessing.Pipe(duplex=False)
    return _lifeline[0]


def worker_pool(size: int, *, preload: list[str], initializer: Callable[[], None] | None = None) -> ProcessPoolExecutor:
    """`size` worker processes started from a forkserver with the modules `preload` loaded, each
    running `initializer` first (if given), and each ending by itself as soon as this process
    ends."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(preload)
    return ProcessPoolExecutor(size, mp_context=context, initializer=_start_worker,
                               initargs=(_lifeline_end(), initializer))


def _start_worker(lifeline: Connection, initializer: Callable[[], None] | None) -> None:
    """In a worker, as it starts: leave Ctrl-C to the bot's process (the terminal sends it to every
    process of the program: the bot decides when its workers end, and a worker interrupted mid-task
    would print a traceback), watch the bot's process, then run `initializer`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with_the_bot, args=(lifeline,), name="tileref-lifeline", daemon=True).start()
    if initializer is not None:
        initializer()


def _end_with_the_bot(lifeline: Connection) -> None:
    """In a worker: wait until the bot's process has closed the lifeline (nothing is ever sent on
    it, so that is when the process ended), then end this worker at once."""
    with contextlib.suppress(EOFError, OSError):
        lifeline.recv_bytes()
    os._exit(0)


def stop_now(executor: ProcessPoolExecutor) -> None:
    """Shut `executor` down without waiting for the work in hand: its workers are ended, so a
    program that stops (Ctrl-C in the terminal while an AI thinks) exits at once instead of
    waiting for the plan or picture at exit (`ProcessPoolExecutor.terminate_workers` from Python
    3.14; the same by hand before)."""
    terminate = getattr(executor, "terminate_workers", None)
    if terminate is not None:
        terminate()
        return
    workers = list((getattr(executor, "_processes", None) or {}).values())  # shutdown forgets them
    executor.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        with contextlib.suppress(Exception):
            worker.terminate()
