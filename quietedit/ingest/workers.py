"""The helpers of one run: worker processes that read pages, threads that write the archive.

A run fetches in one process, on one event loop. Two kinds of work would stall that loop:

- **reading pages** (:func:`~quietedit.ingest.pages.read_page`: decoding, extraction, the
  content hash) is CPU-bound, tens of milliseconds per real news page. A large run reads
  pages in a pool of worker processes, so fetching goes on while other cores extract.
- **writing the archive** waits on ``fsync`` (two per file). Writes run in a pool of
  threads: waits on the disk overlap, and the loop keeps fetching. Every write stays in
  the ingesting process, so the archive's crash-safety argument is unchanged.

The pool starts in the background. Until its workers answer, pages are read in the
threads; a small run never starts one (see :func:`planned_workers`). A worker that dies
(a crash in a parser, the out-of-memory killer) breaks the pool: it is replaced and the
pages it held are read again, at most ``MAX_ATTEMPTS`` times each, then the check fails
like any other. Workers ignore Ctrl-C (the run stops them), and exit by themselves if
the ingesting process is killed.

Workers are started the ``forkserver`` way (``spawn`` where there is none): each imports
the ``__main__`` module again, as every non-``fork`` multiprocessing child does, so a script
that calls ``run_ingest`` needs the usual ``if __name__ == "__main__":`` guard. The
command line (``quietedit``, ``python -m quietedit``) needs nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from multiprocessing.connection import wait
from typing import Final, ParamSpec, TypeVar

from quietedit.errors import WorkerCrashedError
from quietedit.ingest.pages import PageReading, read_page

logger = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

POOL_MIN_CHECKS: Final = 64
"""With ``run.workers: 0`` (automatic), runs with fewer checks read pages in the ingest
process: a pool costs about a second of CPU to start, which 64 real pages (~17 ms each to
read) barely repay on two cores."""

WRITER_THREADS: Final = 16
"""Threads for archive writes (and for reading pages without a pool). Writes mostly wait
for ``fsync``, which disks serve concurrently: on a plain ext4 volume 6 writers already
cut the cost per write more than tenfold."""

MAX_ATTEMPTS: Final = 3
"""Readings of one page when workers keep dying under it: a page that kills every worker
it meets fails its check; pages that were only in the same pool succeed on a retry."""

_PRELOAD: Final = ["quietedit.ingest.pages"]  # imported once by the fork server, not per worker


def cpu_count() -> int:
    """The CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def planned_workers(setting: int, *, checks: int, cores: int) -> int:
    """Worker processes for a run of ``checks`` article checks (0: read in-process).

    ``setting`` is ``run.workers``: 1 never starts workers, N > 1 starts N, and 0 starts
    one per core (``cores``) when the run has at least ``POOL_MIN_CHECKS`` checks and more
    than one core to use.
    """
    if setting == 1 or checks == 0:
        return 0
    if setting > 1:
        return setting
    return cores if cores > 1 and checks >= POOL_MIN_CHECKS else 0


class Workers:
    """Writer threads and, once :meth:`start_processes` is called, worker processes.

    Use as a context manager; leaving it waits for writes under way and stops the workers.
    """

    def __init__(self, *, threads: int = WRITER_THREADS) -> None:
        self.processes = 0
        self._threads = ThreadPoolExecutor(threads, thread_name_prefix="quietedit-write")
        self._pool: ProcessPoolExecutor | None = None
        self._up: Future[None] = Future()  # the current pool's workers answer
        self._wait_for_pool = False
        self._lock = threading.Lock()
        self.restarts = 0
        self.read_in_workers = 0
        self.read_in_process = 0

    def start_processes(self, count: int, *, wait: bool = False) -> None:
        """Start ``count`` worker processes (none for 0; once per run). They start in the
        background and pages are read in-process meanwhile, unless ``wait``: then every
        page waits for the workers."""
        if count and not self.processes:
            self.processes = count
            self._wait_for_pool = wait
            self._start_pool()

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self) -> Workers:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self.close()  # blocks the loop briefly: the run is over, nothing else is waiting

    @property
    def ready(self) -> bool:
        """Whether pages now go to worker processes."""
        return self._up.done() and self._up.exception() is None

    def pids(self) -> tuple[int, ...]:
        """The worker processes' ids (for measurements and tests)."""
        with self._lock:
            pool = self._pool
        processes = getattr(pool, "_processes", None) or {}  # the pool keeps no public list
        return tuple(sorted(processes))

    def close(self) -> None:
        """Stop the workers and wait for the writes under way. Work not yet started is
        dropped: a run awaits all of it before closing, so there is some only when the run
        is interrupted, and each unit (a check's writes) is whole or absent."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        self._threads.shutdown(wait=True, cancel_futures=True)

    async def write(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``function`` (an archive write or read) in a writer thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, partial(function, *args, **kwargs))

    async def read_page(self, body: bytes, *, url: str, content_type: str | None) -> PageReading:
        """:func:`~quietedit.ingest.pages.read_page` in a worker, or in a thread until the
        workers are up (or when there are none). Raises what the reading raises, and
        ``WorkerCrashedError`` when workers died under this page ``MAX_ATTEMPTS`` times."""
        job = partial(read_page, body, url=url, content_type=content_type)
        loop = asyncio.get_running_loop()
        for _ in range(MAX_ATTEMPTS):
            with self._lock:
                pool, up = self._pool, self._up
            if pool is None or not (up.done() or self._wait_for_pool):
                self.read_in_process += 1
                return await loop.run_in_executor(self._threads, job)
            try:
                await asyncio.wrap_future(up)
                reading = await loop.run_in_executor(pool, job)
            except BrokenProcessPool:
                self._replace_pool(pool)
                continue
            self.read_in_workers += 1
            return reading
        raise WorkerCrashedError(url, attempts=MAX_ATTEMPTS)

    def _start_pool(self) -> None:
        method = (
            "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        )
        context = multiprocessing.get_context(method)
        if method == "forkserver":
            context.set_forkserver_preload(_PRELOAD)
        try:
            pool = ProcessPoolExecutor(
                self.processes, mp_context=context, initializer=_worker_started
            )
            # one no-op per worker: the pool takes pages once all of them answered
            warmups = [pool.submit(_ready) for _ in range(self.processes)]
        except (OSError, RuntimeError) as exc:  # no semaphores, no processes: read in-process
            logger.warning("no worker processes (%s); pages are read in the ingest process", exc)
            return
        up: Future[None] = Future()
        with self._lock:
            self._pool, self._up = pool, up
        remaining = [len(warmups)]

        def answered(done: Future[None]) -> None:
            failed = done.cancelled() or done.exception() is not None
            with self._lock:
                remaining[0] -= 1
                if up.done() or (remaining[0] and not failed):
                    return
                if failed:  # the pool broke while starting: its readings replace it
                    up.set_exception(BrokenProcessPool("a worker died while starting"))
                else:
                    up.set_result(None)

        for warmup in warmups:
            warmup.add_done_callback(answered)

    def _replace_pool(self, broken: ProcessPoolExecutor) -> None:
        """Swap a broken pool for a new one, once however many readings saw it break."""
        with self._lock:
            if self._pool is not broken:
                return
            self._pool = None
            self.restarts += 1
        logger.warning("a worker process died; starting new workers")
        broken.shutdown(wait=False, cancel_futures=True)
        self._start_pool()


def _ready() -> None:
    """The warm-up job: returns once the worker is up."""


def _worker_started() -> None:
    """In each worker: leave Ctrl-C to the ingesting process, and exit if it dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(
            target=_exit_with, args=(parent.sentinel,), daemon=True, name="parent-watch"
        ).start()


def _exit_with(sentinel: int) -> None:
    with contextlib.suppress(OSError):
        wait([sentinel])
    os._exit(0)  # the ingesting process is gone: nobody will collect our results
