"""The worker pool: results in order, dead workers named, no worker outliving its work.

Real worker processes throughout; a job that would take an hour plays a page that never
finishes, so a test sees it killed rather than done.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Literal

import pytest

from quietedit.errors import WorkerDiedError
from quietedit.pool import WorkerPool, can_fork

REPO = Path(__file__).resolve().parents[1]
ON_LINUX = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
METHODS: list[Literal["fork", "forkserver"]] = ["forkserver"]
if hasattr(os, "fork"):
    METHODS.append("fork")


def square(number: int) -> int:
    return number * number


def die_at(number: int) -> int:
    """Kills its worker at item 5, as the out-of-memory killer would."""
    if number == 5:
        os.kill(os.getpid(), signal.SIGKILL)
    return number


def nap(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def running(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting for its reaper does not)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] not in {"Z", "X"}


def wait_gone(pids: list[int], *, limit: float = 30.0) -> None:
    deadline = time.monotonic() + limit
    while left := [pid for pid in pids if running(pid)]:
        assert time.monotonic() < deadline, f"{left} still running"
        time.sleep(0.05)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("chunksize", [1, 3])
def test_map_yields_results_in_input_order(
    method: Literal["fork", "forkserver"], chunksize: int
) -> None:
    with WorkerPool(2, method=method) as pool:
        assert list(pool.map(square, range(41), chunksize=chunksize)) == [n * n for n in range(41)]


@ON_LINUX
def test_a_dead_worker_fails_the_map_naming_the_first_item_without_a_result() -> None:
    with WorkerPool(2) as pool:
        results = pool.map(die_at, range(20))
        got: list[int] = []
        with pytest.raises(WorkerDiedError, match=r"item [0-5] of the batch") as died:
            got.extend(results)
    assert died.value.index == len(got) <= 5
    assert got == list(range(len(got)))


@ON_LINUX
def test_close_kills_a_worker_busy_with_work_nobody_waits_for() -> None:
    pool = WorkerPool(1)
    pool.submit(nap, 3600)  # an hour: done only if killed
    deadline = time.monotonic() + 60
    while not pool.pids():
        assert time.monotonic() < deadline, "the worker never started"
        time.sleep(0.02)
    pids = list(pool.pids())
    pool.close(grace=0.1)
    wait_gone(pids)


@ON_LINUX
def test_kill_breaks_the_pool_so_what_it_held_fails() -> None:
    with WorkerPool(1) as pool:
        held = pool.submit(nap, 3600)
        while not pool.pids():
            time.sleep(0.02)
        pids = list(pool.pids())
        pool.kill()
        with pytest.raises(Exception, match="terminated abruptly"):
            held.result(timeout=60)
    wait_gone(pids)


def test_a_process_with_a_second_thread_may_not_fork() -> None:
    # In a fresh interpreter: this test process may have threads of other tests running.
    probe = (
        "import threading\n"
        "from quietedit.pool import can_fork\n"
        "alone = can_fork()\n"
        "release = threading.Event()\n"
        "thread = threading.Thread(target=release.wait)\n"
        "thread.start()\n"
        "print(alone, can_fork())\n"
        "release.set()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    expected = "True" if hasattr(os, "fork") and sys.platform != "darwin" else "False"
    assert done.stdout.split() == [expected, "False"]
    assert isinstance(can_fork(), bool)


# Starts a worker busy for an hour, prints its id once the worker runs the job (so its
# Ctrl-C handling is set up), then waits to be stopped. It waits in short naps: the kernel
# may hand a signal to one of the pool's threads, and Python runs the handler only when
# the main thread next runs, which one hour-long sleep would put off for the hour.
CHILD = r"""
import sys, time
from pathlib import Path
from quietedit.pool import WorkerPool

def nap(started):
    Path(started).touch()
    time.sleep(3600)

if __name__ == "__main__":
    started = Path(sys.argv[1])
    with WorkerPool(1) as pool:
        pool.submit(nap, str(started))
        while not started.exists():
            time.sleep(0.01)
        print(*pool.pids(), flush=True)
        while True:
            time.sleep(0.05)
"""


@ON_LINUX
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGKILL])
def test_no_worker_outlives_the_process_that_started_it(
    tmp_path: Path, stop: signal.Signals
) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD, encoding="utf-8")
    child = subprocess.Popen(
        [sys.executable, str(script), str(tmp_path / "started")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        start_new_session=True,  # Ctrl-C reaches the whole group, as from a terminal
    )
    try:
        assert child.stdout is not None
        (worker,) = (int(pid) for pid in child.stdout.readline().split())
        if stop == signal.SIGINT:
            os.killpg(child.pid, stop)  # the worker ignores it; the parent ends
        else:
            os.kill(child.pid, stop)  # the parent alone, as the out-of-memory killer would
        child.wait(timeout=60)
        child.stdout.close()
        wait_gone([worker])  # its hour-long job left undone: it went with its parent
    finally:  # a failed check must not leave the child's session running
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
