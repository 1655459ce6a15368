"""The helpers of one run: worker processes that read pages, threads that write the archive.

A run fetches in one process, on one event loop. Two kinds of work would stall that loop:

- **reading pages** (:func:`~quietedit.decide.reading.read_page`: decoding, extraction, the
  content hash) is CPU-bound, tens of milliseconds per real news page. A large run reads
  pages in a pool of worker processes, so fetching goes on while other cores extract.
- **writing the archive** waits on ``fsync`` (two per file). Writes run in a pool of
  threads: waits on the disk overlap, and the loop keeps fetching. Every write stays in
  the ingesting process, so the archive's crash-safety argument is unchanged.

The pool starts in the background. Until its workers answer, pages are read in the
threads; a small run never starts one (see :func:`planned_workers`). A worker that dies
(a crash in a parser, the out-of-memory killer) breaks the pool: it is replaced and the
pages it held are read again in the new one, at most ``MAX_ATTEMPTS`` times each, then the
check fails with ``WorkerCrashedError``. A page that broke a pool is never read in the
ingest process, where the same crash would end the run; once a pool broke, every page
waits for workers. A page still being read after ``READ_TIMEOUT`` seconds fails its check
with ``PageReadTimeoutError`` and its pool is killed and replaced. When workers cannot
start at all (they die before answering ``START_ATTEMPTS`` times in a row, or no process
can be created), the run says so in an error-level log line and reads the rest of its
pages in the ingest process. Workers ignore Ctrl-C (the run stops them), exit by
themselves if the ingesting process is killed, and are killed when the run closes with
one of them still reading, so a pathological page never keeps a run from ending. A page
read in the ingest process (no pool, or before it is up) has no time limit: a thread
cannot be stopped.

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
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from multiprocessing.connection import wait
from typing import Final, ParamSpec, TypeVar

from quietedit.decide.reading import PageReading, read_page
from quietedit.errors import PageReadTimeoutError, WorkerCrashedError

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

READ_TIMEOUT: Final = 60.0
"""Seconds a worker may spend on one page. A real news page takes tens of milliseconds,
the largest a few hundred; a page still being read after a minute is pathological, and
its worker is killed rather than left to hold the run past its deadline."""

START_ATTEMPTS: Final = 2
"""Pools in a row whose workers die before answering, after which the run gives up on
workers: a host where they cannot start would otherwise restart them for every page."""

CLOSE_GRACE: Final = 1.0
"""Seconds :meth:`Workers.close` gives workers to exit by themselves (idle ones take
milliseconds) before killing the ones still reading a page nobody waits for; killing an
idle one that was merely slow to exit loses nothing."""

_PRELOAD: Final = ["quietedit.decide.reading"]  # imported once by the fork server, not per worker


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

    Use as a context manager; leaving it waits for writes under way and stops the workers
    (see :meth:`close`). ``read_timeout`` is the time limit of one page's reading in a
    worker (``READ_TIMEOUT``).
    """

    def __init__(
        self, *, threads: int = WRITER_THREADS, read_timeout: float = READ_TIMEOUT
    ) -> None:
        self.processes = 0
        self._threads = ThreadPoolExecutor(threads, thread_name_prefix="quietedit-write")
        self._read_timeout = read_timeout
        self._pool: ProcessPoolExecutor | None = None
        self._up: Future[None] = Future()  # the current pool's workers answer
        self._wait_for_pool = False
        self._failed_starts = 0  # pools in a row whose workers died before answering
        self._lock = threading.Lock()
        self._slots: asyncio.Semaphore | None = None  # one per worker, on the loop using it
        self._slots_loop: asyncio.AbstractEventLoop | None = None
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
        return self._pool is not None and self._up.done() and self._up.exception() is None

    def pids(self) -> tuple[int, ...]:
        """The worker processes' ids (for measurements and tests)."""
        with self._lock:
            pool = self._pool
        return tuple(sorted(_processes(pool))) if pool is not None else ()

    def close(self) -> None:
        """Stop the workers and wait for the writes under way. Work not yet started is
        dropped: a run awaits all of it before closing, so there is some only when the run
        is interrupted, and each unit (a check's writes) is whole or absent. A worker still
        reading a page (one the run gave up on at its deadline) is killed after
        ``CLOSE_GRACE`` seconds, so closing never waits on a page."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            _stop(pool, grace=CLOSE_GRACE, cancel=True)
        self._threads.shutdown(wait=True, cancel_futures=True)

    async def write(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``function`` (an archive write or read) in a writer thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, partial(function, *args, **kwargs))

    async def read_page(self, body: bytes, *, url: str, content_type: str | None) -> PageReading:
        """:func:`~quietedit.decide.reading.read_page` in a worker, or in a thread until the
        workers are up (or when there are none, or they cannot start). Raises what the
        reading raises; ``WorkerCrashedError`` when workers died under this page
        ``MAX_ATTEMPTS`` times, or died under it once and no workers are left (it is never
        read in this process then); ``PageReadTimeoutError`` when a worker spent more than
        the read timeout on it."""
        job = partial(read_page, body, url=url, content_type=content_type)
        crashes = 0
        while crashes < MAX_ATTEMPTS:
            with self._lock:
                pool, up = self._pool, self._up
            if pool is None:
                if crashes:  # the crash it caused there would end the run here
                    break
                return await self._read_in_process(job)
            if not (up.done() or self._wait_for_pool):
                return await self._read_in_process(job)
            try:  # shielded: a cancelled check must not cancel the pool's start for all
                await asyncio.shield(asyncio.wrap_future(up))
            except BrokenProcessPool:  # the workers died before answering: not this page's doing
                self._start_failed(pool)
                continue
            async with self._slots_here():  # so the time limit counts reading, not queueing
                try:
                    reading = await self._read_in(pool, job)
                except BrokenProcessPool:
                    crashes += 1
                    self._replace_pool(pool)
                    continue
                except TimeoutError:
                    self._replace_pool(pool, hung=True)
                    raise PageReadTimeoutError(url, seconds=self._read_timeout) from None
                except _PoolShutDown:  # replaced meanwhile (retry there), or closing
                    if pool is self._pool:
                        raise RuntimeError("the workers were stopped") from None
                    continue
            self.read_in_workers += 1
            return reading
        raise WorkerCrashedError(url, attempts=crashes)

    async def _read_in(
        self, pool: ProcessPoolExecutor, job: Callable[[], PageReading]
    ) -> PageReading:
        """``job``'s result from ``pool``; ``TimeoutError`` after the read timeout.
        (Not ``asyncio.wait_for``: on Python 3.11 it can swallow a cancellation that
        arrives as the result does, and a cancelled run would go on reading.)"""
        try:
            submitted = pool.submit(job)
        except BrokenProcessPool:
            raise
        except RuntimeError as exc:  # "cannot schedule new futures after shutdown"
            raise _PoolShutDown from exc
        reading = asyncio.wrap_future(submitted)
        try:
            done, _ = await asyncio.wait({reading}, timeout=self._read_timeout)
        except asyncio.CancelledError:
            reading.cancel()  # the result is dropped; the worker may still be reading
            raise
        if not done:
            reading.cancel()
            raise TimeoutError
        return reading.result()

    async def _read_in_process(self, job: Callable[[], PageReading]) -> PageReading:
        self.read_in_process += 1
        return await asyncio.get_running_loop().run_in_executor(self._threads, job)

    def _slots_here(self) -> asyncio.Semaphore:
        """A slot per worker: a page is handed to the pool only when a worker is free."""
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots_loop is not loop:
            self._slots, self._slots_loop = asyncio.Semaphore(self.processes), loop
        return self._slots

    def _start_pool(self) -> None:
        """Start a pool and make it the current one; without one when no process can be
        created (the run reads in-process)."""
        started = _new_pool(self.processes)
        if started is None:
            return
        pool, warmups = started
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
                if failed:  # the pool broke while starting (see _start_failed)
                    up.set_exception(BrokenProcessPool("a worker died while starting"))
                else:
                    self._failed_starts = 0
                    up.set_result(None)

        for warmup in warmups:
            warmup.add_done_callback(answered)

    def _replace_pool(self, broken: ProcessPoolExecutor, *, hung: bool = False) -> None:
        """Swap a broken pool (or one with a worker stuck on a page: ``hung``) for a new
        one, once however many readings saw it break. Pages wait for workers from now on."""
        with self._lock:
            if self._pool is not broken:
                return
            self._pool = None
            self._wait_for_pool = True
            self.restarts += 1
        if hung:
            logger.warning(
                "a worker spent more than %g s on one page; starting new workers",
                self._read_timeout,
            )
        else:
            logger.warning("a worker process died; starting new workers")
        _stop(broken, grace=0, cancel=False)  # the pages it held fail over to the new pool
        self._start_pool()

    def _start_failed(self, pool: ProcessPoolExecutor) -> None:
        """The workers of ``pool`` died before answering: start another pool, or, after
        ``START_ATTEMPTS`` in a row, give up on workers for the run."""
        with self._lock:
            if self._pool is not pool:
                return
            self._pool = None
            self._failed_starts += 1
            give_up = self._failed_starts >= START_ATTEMPTS
        _stop(pool, grace=0, cancel=True)
        if give_up:
            logger.error(
                "worker processes died as they started, %d times in a row; the rest of "
                "this run reads pages in the ingest process (a script calling run_ingest "
                'needs an `if __name__ == "__main__":` guard)',
                START_ATTEMPTS,
            )
            return
        logger.warning("worker processes died as they started; starting new ones")
        self._start_pool()


class _PoolShutDown(Exception):
    """The pool a page was to be read in was shut down before it took the page."""


def _new_pool(count: int) -> tuple[ProcessPoolExecutor, list[Future[None]]] | None:
    """A pool of ``count`` workers and one warm-up job per worker (the pool takes pages
    once all of them answered), or ``None`` when processes cannot be created here."""
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(_PRELOAD)
    pool = None
    try:
        pool = ProcessPoolExecutor(count, mp_context=context, initializer=_worker_started)
        warmups = [pool.submit(_ready) for _ in range(count)]
    except (OSError, RuntimeError) as exc:  # no semaphores, no processes: read in-process
        logger.error("no worker processes (%s); pages are read in the ingest process", exc)
        if pool is not None:  # some workers may have started before the failure
            _stop(pool, grace=0, cancel=True)
        return None
    return pool, warmups


def _processes(pool: ProcessPoolExecutor) -> dict[int, multiprocessing.process.BaseProcess]:
    """The pool's worker processes by id (it keeps no public list)."""
    return dict(getattr(pool, "_processes", None) or {})


def _stop(pool: ProcessPoolExecutor, *, grace: float, cancel: bool) -> None:
    """Shut ``pool`` down without waiting on its jobs: workers that have not exited after
    ``grace`` seconds are killed. Jobs not started are cancelled when ``cancel``, else
    they fail with ``BrokenProcessPool`` once the pool sees its workers gone."""
    processes = list(_processes(pool).values())  # shutdown() forgets them
    pool.shutdown(wait=False, cancel_futures=cancel)
    waiting = {process.sentinel: process for process in processes}
    deadline = time.monotonic() + grace
    while waiting and (left := deadline - time.monotonic()) > 0:
        exited = set(wait(list(waiting), left))
        waiting = {sentinel: p for sentinel, p in waiting.items() if sentinel not in exited}
    for process in waiting.values():
        with contextlib.suppress(OSError, ValueError):  # exited meanwhile, or already reaped
            process.kill()


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
