"""Sharing a batch among forked copies of the process: order, rounds, and dead copies."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from quietedit.cli.forked import WorkerDied, map_forked

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a POSIX fork")


def pid_and_square(number: int) -> tuple[int, int]:
    return os.getpid(), number * number


TEST_PROCESS = os.getpid()


def in_a_copy() -> bool:
    return os.getpid() != TEST_PROCESS


def wait_for(condition: Callable[[], bool]) -> None:
    """Wait (in the test process) until ``condition`` holds; fail after 30 s."""
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting for a copy"
        time.sleep(0.005)


@pytest.mark.parametrize(
    ("count", "processes", "per_round"),
    [(0, 2, 4), (1, 2, 4), (7, 3, 2), (50, 2, 256), (41, 4, 3), (3001, 2, 2000)],
)
def test_results_come_back_in_input_order_over_any_number_of_rounds(
    count: int, processes: int, per_round: int
) -> None:
    results = list(
        map_forked(pid_and_square, list(range(count)), processes=processes, per_round=per_round)
    )
    assert [square for _, square in results] == [n * n for n in range(count)]


def test_every_round_forks_new_copies_that_take_items_while_this_process_works(
    tmp_path: Path,
) -> None:
    def mark_or_wait(number: int) -> int:
        this_round = number // 6
        if in_a_copy():
            (tmp_path / f"{this_round}-{number}").touch()
        else:  # leaves items to the copy until it has done one of this round
            wait_for(lambda: any(tmp_path.glob(f"{this_round}-*")))
        return os.getpid()

    pids = list(map_forked(mark_or_wait, list(range(12)), processes=2, per_round=3))
    first, second = pids[:6], pids[6:]  # two rounds of six
    for share in (first, second):
        assert os.getpid() in share
        assert len(set(share)) == 2  # this process and one copy
    assert set(first) & set(second) == {os.getpid()}  # a new copy each round


def test_a_process_held_up_by_a_slow_item_takes_fewer_items(tmp_path: Path) -> None:
    def slow_first(number: int) -> int:
        if number == 0:  # slow: the other process does all the rest meanwhile
            wait_for(lambda: len(list(tmp_path.iterdir())) == 9)
        else:
            (tmp_path / str(number)).touch()
        return os.getpid()

    pids = list(map_forked(slow_first, list(range(10)), processes=2))
    assert pids.count(pids[0]) == 1
    assert len(set(pids[1:])) == 1 and pids[1] != pids[0]


def test_a_killed_copy_is_reported_with_the_first_item_left_undone(tmp_path: Path) -> None:
    died = tmp_path / "died"

    def die_in_the_second_round(number: int) -> int:
        if number >= 8:  # the second round of eight
            if in_a_copy():
                died.touch()
                os.kill(os.getpid(), signal.SIGKILL)
            wait_for(died.exists)  # leaves an item to the copy
        return number

    results = map_forked(die_in_the_second_round, list(range(20)), processes=2, per_round=4)
    assert [next(results) for _ in range(8)] == list(range(8))  # the first round is whole
    with pytest.raises(WorkerDied, match="killed by signal 9") as caught:
        next(results)
    assert caught.value.first in (8, 9)  # the copy died on the first item it took


def test_work_that_raises_in_a_copy_is_a_dead_copy_not_a_hang(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    failed = tmp_path / "failed"

    def fail_in_a_copy(number: int) -> int:
        if in_a_copy():
            failed.touch()
            raise ValueError("three")
        wait_for(failed.exists)
        return number

    with pytest.raises(WorkerDied, match="exit status 70"):
        list(map_forked(fail_in_a_copy, list(range(10)), processes=2, per_round=8))
    assert "ValueError: three" in capfd.readouterr().err


def test_no_copy_outlives_the_batch(tmp_path: Path) -> None:
    def mark_and_wait(number: int) -> int:
        this_round = number // 12
        if in_a_copy():
            (tmp_path / f"{this_round}-{os.getpid()}-{number}").touch()
        # every process waits until both copies of this round have taken an item
        wait_for(
            lambda: len({mark.name.split("-")[1] for mark in tmp_path.glob(f"{this_round}-*")}) == 2
        )
        return os.getpid()

    pids = map_forked(mark_and_wait, list(range(30)), processes=3, per_round=4)
    copies = set(pids) - {os.getpid()}
    assert len(copies) == 6  # two copies in each of three rounds
    for pid in copies:
        with pytest.raises(ChildProcessError):  # reaped already: no such child any more
            os.waitpid(pid, os.WNOHANG)


@pytest.mark.parametrize("frozen_before", [False, True])
def test_a_round_leaves_the_collector_frozen_only_if_it_was(frozen_before: bool) -> None:
    gc.unfreeze()
    try:
        if frozen_before:
            gc.freeze()
        assert list(map_forked(pid_and_square, list(range(6)), processes=2)) != []
        if frozen_before:
            # Still frozen (a frozen object freed meanwhile leaves the count, so no more).
            assert gc.get_freeze_count() > 0
        else:
            assert gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()


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
