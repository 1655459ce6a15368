"""Worker processes read pages exactly as the ingest process would, and never outlive it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from quietedit.decide.reading import read_page
from quietedit.ingest.workers import POOL_MIN_CHECKS, Workers, planned_workers

PAGES = Path(__file__).resolve().parents[1] / "fixtures" / "pages"
REPO = Path(__file__).resolve().parents[2]
ON_LINUX = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def pages() -> list[tuple[str, bytes]]:
    return [(path.name, path.read_bytes()) for path in sorted(PAGES.glob("*.html"))]


@pytest.mark.parametrize(
    ("setting", "checks", "cores", "expected"),
    [
        (0, POOL_MIN_CHECKS - 1, 8, 0),  # a small run: no start-up cost
        (0, POOL_MIN_CHECKS, 8, 8),  # one per core
        (0, 5_000, 1, 0),  # one core: workers would only compete with fetching
        (1, 5_000, 8, 0),  # 1: always in-process
        (3, 2, 8, 3),  # explicit: whatever the run's size
        (3, 0, 8, 0),  # nothing to read
    ],
)
def test_planned_workers_follow_the_setting_and_the_run_size(
    setting: int, checks: int, cores: int, expected: int
) -> None:
    assert planned_workers(setting, checks=checks, cores=cores) == expected


def test_every_page_is_read_in_a_worker_exactly_as_in_process() -> None:
    async def read_all(workers: Workers) -> list[object]:
        return list(
            await asyncio.gather(
                *(
                    workers.read_page(
                        body, url=f"https://news.example.org/{name}", content_type=None
                    )
                    for name, body in pages()
                )
            )
        )

    with Workers() as workers:
        workers.start_processes(2)
        assert workers.ready  # started and answering: no page is read in-process meanwhile
        pids = workers.pids()
        assert len(pids) == 2 and os.getpid() not in pids
        in_workers = asyncio.run(read_all(workers))
        assert (workers.read_in_workers, workers.read_in_process) == (len(pages()), 0)
    expected = [
        read_page(body, url=f"https://news.example.org/{name}", content_type=None)
        for name, body in pages()
    ]
    assert in_workers == expected
    assert any(reading.article.blocks for reading in expected)  # real articles, not empties


def test_without_workers_pages_are_read_in_process() -> None:
    body = pages()[0][1]

    async def read() -> object:
        return await workers.read_page(body, url="https://news.example.org/a", content_type=None)

    with Workers() as workers:  # no processes: the threads read
        assert not workers.ready
        assert asyncio.run(read()) == read_page(
            body, url="https://news.example.org/a", content_type=None
        )
        assert (workers.read_in_process, workers.read_in_workers) == (1, 0)


@ON_LINUX
def test_a_worker_killed_mid_run_is_replaced_and_its_pages_are_read_again() -> None:
    async def read_many(workers: Workers) -> list[object]:
        jobs = [
            workers.read_page(body, url=f"https://news.example.org/{n}/{name}", content_type=None)
            for n in range(8)
            for name, body in pages()
        ]
        tasks = [asyncio.ensure_future(job) for job in jobs]
        await asyncio.sleep(0)
        os.kill(workers.pids()[0], signal.SIGKILL)  # a crash in a parser, the OOM killer
        return list(await asyncio.gather(*tasks))

    with Workers() as workers:
        workers.start_processes(2)  # as an automatic run (run.workers: 0) does
        assert workers.ready  # start_processes returns once they answer
        readings = asyncio.run(read_many(workers))
        assert workers.restarts == 1
        # every page, those retried after the kill too, was read by a worker: a retry
        # waits for the new pool instead of reading in this process
        assert (workers.read_in_workers, workers.read_in_process) == (len(readings), 0)
    expected = [
        read_page(body, url=f"https://news.example.org/{n}/{name}", content_type=None)
        for n in range(8)
        for name, body in pages()
    ]
    assert readings == expected


# Starts two workers, prints their ids once they answer, then reads pages until stopped.
CHILD = r"""
import asyncio, sys, time
from quietedit.ingest.workers import Workers

async def forever(workers):
    while True:
        await workers.read_page(b"<p>" + b"word " * 400 + b"</p>", url="https://x.example/a",
                                content_type=None)

if __name__ == "__main__":
    with Workers() as workers:
        workers.start_processes(2)
        while not workers.ready:
            time.sleep(0.01)
        print(" ".join(map(str, workers.pids())), flush=True)
        asyncio.run(forever(workers))
"""


@ON_LINUX
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGKILL])
def test_no_worker_outlives_the_ingest_process(tmp_path: Path, stop: signal.Signals) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen(
        [sys.executable, str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,  # Ctrl-C reaches the whole group, as from a terminal
    )
    try:
        assert child.stdout is not None
        pids = [int(pid) for pid in child.stdout.readline().split()]
        assert len(pids) == 2
        time.sleep(0.2)  # reading pages
        if stop == signal.SIGINT:
            os.killpg(child.pid, stop)  # Ctrl-C in a terminal signals the whole group
        else:
            os.kill(child.pid, stop)  # a crash, the OOM killer: the ingest process alone
        child.wait(timeout=30)
        child.stdout.close()
        deadline = time.monotonic() + 10
        # the workers and any helper process (the fork server) all live in the child's session
        while left := _running_in_session(child.pid):
            assert time.monotonic() < deadline, f"{left} left running after {stop.name}"
            time.sleep(0.05)
        assert not set(pids) & set(_running_in_session(child.pid))
    finally:  # a failed check must not leave the child's session running
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)


def _running_in_session(session: int) -> list[int]:
    """Processes of ``session`` that still run (a zombie waiting for its reaper does not)."""
    running = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == session and fields[0] not in {"Z", "X"}:
            running.append(int(stat.parent.name))
    return running
