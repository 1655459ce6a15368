"""Sharing a batch among forked copies of the process: order, rounds, and dead copies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from quietedit.cli.forked import WorkerDied, map_forked

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a POSIX fork")


def pid_and_square(number: int) -> tuple[int, int]:
    return os.getpid(), number * number


@pytest.mark.parametrize(
    ("count", "processes", "per_round"), [(0, 2, 4), (1, 2, 4), (7, 3, 2), (50, 2, 256), (41, 4, 3)]
)
def test_results_come_back_in_input_order_over_any_number_of_rounds(
    count: int, processes: int, per_round: int
) -> None:
    results = list(
        map_forked(pid_and_square, list(range(count)), processes=processes, per_round=per_round)
    )
    assert [square for _, square in results] == [n * n for n in range(count)]
    workers = {pid for pid, _ in results}
    if count >= 2:
        # This process takes a share, and every copy is a process of its own.
        assert os.getpid() in workers
        assert len(workers) > 1


def test_every_round_forks_new_copies_that_share_the_items_evenly() -> None:
    results = list(map_forked(pid_and_square, list(range(12)), processes=2, per_round=3))
    pids = [pid for pid, _ in results]
    mine = [index for index, pid in enumerate(pids) if pid == os.getpid()]
    assert mine == [0, 2, 4, 6, 8, 10]  # every other item, round after round
    copies = [pid for pid in pids if pid != os.getpid()]
    assert len(set(copies)) == 2  # one copy per round of six


TEST_PROCESS = os.getpid()


def die_on_thirteen(number: int) -> int:
    if number == 13 and os.getpid() != TEST_PROCESS:  # never the test process itself
        os.kill(os.getpid(), signal.SIGKILL)
    return number


def test_a_killed_copy_is_reported_with_the_first_item_it_held() -> None:
    results = map_forked(die_on_thirteen, list(range(20)), processes=2, per_round=4)
    assert [next(results) for _ in range(8)] == list(range(8))  # the first round is whole
    with pytest.raises(WorkerDied, match="killed by signal 9") as caught:
        next(results)
    assert caught.value.first == 9  # the copy's share of the second round: 9, 11, 13, 15


def fail_on_three(number: int) -> int:
    if number == 3:
        raise ValueError("three")
    return number


def test_work_that_raises_in_a_copy_is_a_dead_copy_not_a_hang(
    capfd: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(WorkerDied, match="exit status 70"):
        list(map_forked(fail_on_three, list(range(10)), processes=2, per_round=8))
    assert "ValueError: three" in capfd.readouterr().err


def test_no_copy_outlives_the_batch() -> None:
    results = map_forked(pid_and_square, list(range(30)), processes=3, per_round=4)
    copies = {pid for pid, _ in results} - {os.getpid()}
    assert len(copies) == 6  # two copies in each of three rounds
    for pid in copies:
        with pytest.raises(ChildProcessError):  # reaped already: no such child any more
            os.waitpid(pid, os.WNOHANG)


def test_a_process_with_a_second_thread_does_not_fork() -> None:
    # In a fresh interpreter: this test process may have threads of other tests running.
    probe = (
        "import threading\n"
        "from quietedit.cli.forked import can_fork\n"
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
    assert done.stdout.split() == ["True", "False"]


ORPHAN = """
import os, sys, time
from pathlib import Path
from quietedit.cli.forked import map_forked

marks = Path(sys.argv[1])

def slow(number):
    if os.getpid() != PARENT:
        (marks / str(os.getpid())).touch()
    time.sleep(0.2)
    return number

PARENT = os.getpid()
list(map_forked(slow, list(range(200)), processes=2))
"""


def gone(pid: int) -> bool:
    """Whether ``pid`` has exited (a zombie nobody reaped counts as exited)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_copy_stops_soon_after_its_parent_is_killed(tmp_path: Path) -> None:
    parent = subprocess.Popen([sys.executable, "-c", ORPHAN, str(tmp_path)])
    deadline = time.monotonic() + 30
    while not list(tmp_path.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    (mark,) = tmp_path.iterdir()
    copy = int(mark.name)
    parent.kill()
    parent.wait(timeout=30)
    # 100 items of 0.2 s were left: 20 s if it went on, one item if it stops.
    deadline = time.monotonic() + 5
    while not gone(copy) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gone(copy)
