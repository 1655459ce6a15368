"""Pages that kill, hang or outlast workers, and workers that cannot start: the run goes on.

Real worker processes throughout. A page that kills every worker it meets is played by
this test process killing each worker as soon as it starts working on the page — what the
out-of-memory killer does to a worker that swells on a hostile page — so the production
code needs no test hook.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from quietedit.decide.reading import PageReading, read_page
from quietedit.errors import PageReadTimeoutError, WorkerCrashedError
from quietedit.ingest.workers import MAX_ATTEMPTS, Workers

PAGES = Path(__file__).resolve().parents[1] / "fixtures" / "pages"
REPO = Path(__file__).resolve().parents[2]
ON_LINUX = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
URL = "https://news.example.org/live/harbour-works"


def live_blog(updates: int) -> bytes:
    """A live blog with ``updates`` entries: an honest page that takes long to read
    (about 35 µs per entry on a slow core)."""
    entries = "".join(
        f"<p>Update {n}: the harbour works continue on berth {n % 4 + 1}, the port "
        "authority says, and the skippers' association is due to meet the council.</p>"
        for n in range(updates)
    )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Harbour works: "
        f"live | Lakeside Herald</title></head><body><main><article><h1>Harbour works: live"
        f"</h1>{entries}</article></main></body></html>"
    ).encode()


LONG_PAGE = live_blog(20_000)  # ~0.5 s to read: long enough to be caught reading
ENDLESS_PAGE = live_blog(100_000)  # ~3 s to read: outlasts the limits set below


def fixture_page() -> bytes:
    return sorted(PAGES.glob("*.html"))[0].read_bytes()


def cpu_ticks(pid: int) -> int | None:
    """CPU time (user + system, in clock ticks) of process ``pid``; ``None`` once gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return None if fields[0] in {"Z", "X"} else int(fields[11]) + int(fields[12])


def running(pids: tuple[int, ...]) -> list[int]:
    return [pid for pid in pids if cpu_ticks(pid) is not None]


class OomKiller(threading.Thread):
    """Kills every worker of a ready pool that starts using CPU: the only work given to
    the workers while it runs is the page under test, so that worker is reading it."""

    def __init__(self, workers: Workers) -> None:
        super().__init__(daemon=True, name="oom-killer")
        self.workers = workers
        self.killed: list[int] = []
        self.done = threading.Event()

    def run(self) -> None:
        first: dict[int, int] = {}
        while not self.done.is_set():
            for pid in self.workers.pids() if self.workers.ready else ():
                ticks = cpu_ticks(pid)
                if ticks is None or pid in self.killed:
                    continue
                if ticks - first.setdefault(pid, ticks) >= 3:  # 30 ms of work: reading
                    os.kill(pid, signal.SIGKILL)
                    self.killed.append(pid)
            time.sleep(0.01)


def read(workers: Workers, body: bytes) -> PageReading:
    async def go() -> PageReading:
        return await workers.read_page(body, url=URL, content_type="text/html; charset=utf-8")

    return asyncio.run(go())


@ON_LINUX
def test_a_page_that_kills_every_worker_fails_its_check_and_is_never_read_in_process() -> None:
    with Workers() as workers:
        workers.start_processes(2)  # as an automatic run (run.workers: 0) does
        assert workers.ready  # start_processes returns once they answer
        killer = OomKiller(workers)
        killer.start()
        try:
            with pytest.raises(WorkerCrashedError) as failed:
                read(workers, LONG_PAGE)
        finally:
            killer.done.set()
            killer.join()
        assert failed.value.url == URL and failed.value.attempts == MAX_ATTEMPTS
        assert len(killer.killed) >= MAX_ATTEMPTS
        assert workers.restarts >= MAX_ATTEMPTS
        # the page would have killed the ingest process as it did every worker
        assert workers.read_in_process == 0
        # the run goes on: the next page is read by the new workers, exactly as here
        body = fixture_page()
        reading = read(workers, body)
        assert (workers.read_in_workers, workers.read_in_process) == (1, 0)
    assert reading == read_page(body, url=URL, content_type="text/html; charset=utf-8")


@ON_LINUX
def test_a_page_that_outlasts_the_read_timeout_fails_and_its_worker_is_replaced() -> None:
    with Workers(read_timeout=1.0) as workers:
        workers.start_processes(2)
        assert workers.ready  # start_processes returns once they answer
        first = workers.pids()
        with pytest.raises(PageReadTimeoutError, match=r"more than 1 s") as failed:
            read(workers, ENDLESS_PAGE)  # ~3 s to read: without the limit, a reading
        assert failed.value.url == URL
        assert workers.restarts == 1
        deadline = time.monotonic() + 10
        while running(first):  # killed, not left reading
            assert time.monotonic() < deadline, f"{running(first)} still running"
            time.sleep(0.05)
        body = fixture_page()
        assert read(workers, body) == read_page(
            body, url=URL, content_type="text/html; charset=utf-8"
        )
        assert set(workers.pids()).isdisjoint(first)


def test_pages_waiting_behind_a_page_that_outlasts_the_limit_are_read_by_the_new_workers() -> None:
    """Two pages wait for the one worker while a third outlasts the read timeout: they go
    to the pool that replaces it, not to the one shut down under them."""
    body = fixture_page()

    async def three() -> list[object]:
        async def one(page: bytes) -> object:
            try:
                return await workers.read_page(page, url=URL, content_type=None)
            except PageReadTimeoutError as exc:
                return exc

        return list(await asyncio.gather(one(ENDLESS_PAGE), one(body), one(body)))

    with Workers(read_timeout=1.0) as workers:
        workers.start_processes(1)
        slow, *small = asyncio.run(three())
        assert isinstance(slow, PageReadTimeoutError)
        assert small == [read_page(body, url=URL, content_type=None)] * 2
        assert workers.restarts == 1 and workers.read_in_process == 0


@ON_LINUX
def test_closing_kills_a_worker_still_reading_a_page_the_run_gave_up_on() -> None:
    workers = Workers()
    try:
        workers.start_processes(2)
        assert workers.ready  # start_processes returns once they answer

        async def give_up() -> None:  # what the run's deadline does: cancel the check
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    workers.read_page(ENDLESS_PAGE, url=URL, content_type=None), 0.3
                )

        asyncio.run(give_up())
        pids = workers.pids()
        before = {pid: cpu_ticks(pid) for pid in pids}
        time.sleep(0.1)
        assert any((cpu_ticks(pid) or 0) > (before[pid] or 0) for pid in pids)  # still reading
    finally:
        workers.close()
    deadline = time.monotonic() + 10
    while running(pids):
        assert time.monotonic() < deadline, f"{running(pids)} still running after close"
        time.sleep(0.05)


# A script whose workers cannot start: each worker imports the main module again, and this
# one cannot be imported twice (as a script missing its `if __name__ == "__main__":` guard
# or depending on something only the parent has). Reads pages with run.workers: 2.
CHILD = r"""
import asyncio, json, logging, sys
if __name__ != "__main__":
    raise SystemExit("this module only runs as a script")
from quietedit.decide.reading import read_page
from quietedit.ingest.workers import Workers

async def read_all(workers, bodies):
    return await asyncio.gather(*(
        workers.read_page(body, url=f"https://news.example.org/{n}", content_type=None)
        for n, body in enumerate(bodies)))

logging.basicConfig(level=logging.WARNING)
bodies = [open(path, "rb").read() for path in sys.argv[1:]]
with Workers() as workers:
    workers.start_processes(2)
    readings = asyncio.run(read_all(workers, bodies))
    expected = [read_page(body, url=f"https://news.example.org/{n}", content_type=None)
                for n, body in enumerate(bodies)]
    print(json.dumps({
        "equal": readings == expected,
        "in_process": workers.read_in_process,
        "in_workers": workers.read_in_workers,
        "restarts": workers.restarts,
    }))
"""


def test_workers_that_cannot_start_leave_the_pages_to_the_ingest_process(tmp_path: Path) -> None:
    script = tmp_path / "no_guard.py"
    script.write_text(CHILD, encoding="utf-8")
    bodies = [str(path) for path in sorted(PAGES.glob("*.html"))[:6]]
    done = subprocess.run(
        [sys.executable, str(script), *bodies],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result == {
        "equal": True,
        "in_process": len(bodies),  # every page, none failed
        "in_workers": 0,
        "restarts": 0,  # no page ever broke a pool
    }
    said = [line for line in done.stderr.splitlines() if line.startswith("ERROR:")]
    assert len(said) == 1 and "worker processes cannot start" in said[0]
    assert "__main__" in said[0]  # the way out
