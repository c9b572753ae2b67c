"""Worker processes never outlive the bot: killed with SIGKILL, the process that started a pool
leaves no worker, nor their forkserver, behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
STARTS_A_POOL = """
import os, time
from bot.workers.pools import worker_pool
pool = worker_pool(2, preload=["bot.workers.pools"])
workers = {pool.submit(os.getpid).result() for _ in range(8)}
print(" ".join(map(str, sorted(workers))), flush=True)
time.sleep(120)
"""


def running(pid: int) -> bool:
    """Whether process `pid` exists and has not ended (a zombie waiting to be reaped has)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_workers_and_their_forkserver_end_when_the_process_that_started_them_is_killed() -> None:
    process = subprocess.Popen([sys.executable, "-c", STARTS_A_POOL], stdout=subprocess.PIPE, cwd=ROOT,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert process.stdout is not None
        workers = [int(pid) for pid in process.stdout.readline().split()]
        assert workers and all(running(pid) for pid in workers)
        forkserver = parent_of(workers[0])
        assert forkserver != process.pid and running(forkserver)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        left = [*workers, forkserver]
        deadline = time.monotonic() + 10
        while any(running(pid) for pid in left) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in left if running(pid)], "a worker outlived the process that started it"
    finally:
        process.kill()
