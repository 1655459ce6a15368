"""The helpers of one run: worker processes that read pages, threads that write the archive.

A run fetches in one process, on one event loop. Two kinds of work would stall that loop
or endanger it:

- **reading pages** (:func:`~quietedit.decide.reading.read_page`: decoding, extraction, the
  content hash) runs parsers on hostile input. A run with workers reads every page in a
  worker process (:mod:`quietedit.pool`), so a page that crashes a parser or never ends
  costs a worker, never the run, and fetching goes on while other cores extract.
- **writing the archive** waits on ``fsync`` (two per file). Writes run in a pool of
  threads: waits on the disk overlap, and the loop keeps fetching. Every write stays in
  the ingesting process, so the archive's crash-safety argument is unchanged.

A worker that dies (a crash in a parser, the out-of-memory killer) breaks its pool: the
pool is replaced and the pages it held are read again in the new one, at most
``MAX_ATTEMPTS`` times each, then the check fails with ``WorkerCrashedError``. Such a page
is never read in the ingest process, where the same crash would end the run. A page still
being read after ``READ_TIMEOUT`` seconds fails its check with ``PageReadTimeoutError`` and
its pool is killed and replaced. When workers cannot start at all (the first ones die or
do not answer, or no process can be created), the run says so in an error-level log line
and reads its pages in the ingest process. Workers ignore Ctrl-C (the run stops them), exit
by themselves if the ingesting process is killed, and are killed when the run closes with
one of them still reading, so a pathological page never keeps a run from ending. A page
read in the ingest process (``run.workers: 1``, a small automatic run, no workers) has no
time limit: a thread cannot be stopped.

Workers start the ``forkserver`` way, so a script that calls ``run_ingest`` needs the usual
``if __name__ == "__main__":`` guard. The command line needs nothing.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Final, ParamSpec, TypeVar

from quietedit.decide.reading import PageReading, read_page
from quietedit.errors import PageReadTimeoutError, WorkerCrashedError
from quietedit.pool import CLOSE_GRACE, WorkerPool

logger = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

POOL_MIN_CHECKS: Final = 64
"""With ``run.workers: 0`` (automatic), runs with fewer checks read pages in the ingest
process: a pool costs about a second of CPU to start, which 64 real pages (~17 ms each to
read) barely repay on two cores."""

MAX_ATTEMPTS: Final = 3
"""Readings of one page when workers keep dying under it: a page that kills every worker
it meets fails its check; pages that were only in the same pool succeed on a retry."""

READ_TIMEOUT: Final = 60.0
"""Seconds a worker may spend on one page. A real news page takes tens of milliseconds,
the largest a few hundred; a page still being read after a minute is pathological, and
its worker is killed rather than left to hold the run past its deadline."""

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
    (see :meth:`close`). ``threads`` is the number of writer threads (the standard
    library's default when ``None``); ``read_timeout`` the time limit of one page's
    reading in a worker (``READ_TIMEOUT``).
    """

    def __init__(self, *, threads: int | None = None, read_timeout: float = READ_TIMEOUT) -> None:
        self.processes = 0
        self._threads = ThreadPoolExecutor(threads, thread_name_prefix="quietedit-write")
        self._read_timeout = read_timeout
        self._pool: WorkerPool | None = None
        self._slots: asyncio.Semaphore | None = None  # one per worker, on the loop using it
        self._slots_loop: asyncio.AbstractEventLoop | None = None
        self.restarts = 0
        self.read_in_workers = 0
        self.read_in_process = 0

    def start_processes(self, count: int) -> None:
        """Start ``count`` worker processes (none for 0; once per run) and wait until they
        answer; from then on every page is read in a worker. Workers that cannot start
        leave the run reading pages in-process (an error-level log line says so)."""
        if not count or self.processes:
            return
        self.processes = count
        pool = None
        try:
            pool = WorkerPool(count, preload=_PRELOAD)
            for answer in [pool.submit(os.getpid) for _ in range(count)]:
                answer.result(timeout=self._read_timeout)
        except BaseException as exc:
            if pool is not None:
                pool.close(grace=0)
            if not isinstance(exc, (BrokenProcessPool, TimeoutError, OSError, RuntimeError)):
                raise  # Ctrl-C while they start: no worker is left behind
            logger.error(
                "worker processes cannot start (%s); this run reads pages in the ingest "
                'process (a script calling run_ingest needs an `if __name__ == "__main__":` '
                "guard)",
                str(exc) or type(exc).__name__,
            )
            return
        self._pool = pool

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
        return self._pool is not None

    def pids(self) -> tuple[int, ...]:
        """The worker processes' ids (for measurements and tests)."""
        pool = self._pool
        return pool.pids() if pool is not None else ()

    def close(self) -> None:
        """Stop the workers and wait for the writes under way. Work not yet started is
        dropped: a run awaits all of it before closing, so there is some only when the run
        is interrupted, and each unit (a check's writes) is whole or absent. A worker still
        reading a page (one the run gave up on at its deadline) is killed after
        ``CLOSE_GRACE`` seconds, so closing never waits on a page."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close(grace=CLOSE_GRACE)
        self._threads.shutdown(wait=True, cancel_futures=True)

    async def write(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``function`` (an archive write or read) in a writer thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, partial(function, *args, **kwargs))

    async def read_page(self, body: bytes, *, url: str, content_type: str | None) -> PageReading:
        """:func:`~quietedit.decide.reading.read_page` in a worker, or in a thread when there
        are no workers. Raises what the reading raises; ``WorkerCrashedError`` when workers
        died under this page ``MAX_ATTEMPTS`` times, or died under it once and no workers
        are left (it is never read in this process then); ``PageReadTimeoutError`` when a
        worker spent more than the read timeout on it."""
        job = partial(read_page, body, url=url, content_type=content_type)
        crashes = 0
        while crashes < MAX_ATTEMPTS:
            pool = self._pool
            if pool is None:
                if crashes:  # the crash it caused there would end the run here
                    break
                self.read_in_process += 1
                return await asyncio.get_running_loop().run_in_executor(self._threads, job)
            async with self._slots_here():  # so the time limit counts reading, not queueing
                # the pool as it is now: one replaced while this page waited for a slot
                # is shut down and takes no more work
                pool = self._pool
                if pool is None:
                    continue
                try:
                    reading = await self._read_in(pool, job)
                except BrokenProcessPool:
                    crashes += 1
                    self._replace(pool)
                    continue
                except TimeoutError:
                    self._replace(pool, hung=True)
                    raise PageReadTimeoutError(url, seconds=self._read_timeout) from None
            self.read_in_workers += 1
            return reading
        raise WorkerCrashedError(url, attempts=crashes)

    async def _read_in(self, pool: WorkerPool, job: Callable[[], PageReading]) -> PageReading:
        """``job``'s result from ``pool``; ``TimeoutError`` after the read timeout.
        (Not ``asyncio.wait_for``: on Python 3.11 it can swallow a cancellation that
        arrives as the result does, and a cancelled run would go on reading.)"""
        submitted = pool.submit(job)
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

    def _slots_here(self) -> asyncio.Semaphore:
        """A slot per worker: a page is handed to the pool only when a worker is free."""
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots_loop is not loop:
            self._slots, self._slots_loop = asyncio.Semaphore(self.processes), loop
        return self._slots

    def _replace(self, broken: WorkerPool, *, hung: bool = False) -> None:
        """Swap a broken pool (or one with a worker stuck on a page: ``hung``) for a new
        one, once however many readings saw it break; its workers start as pages arrive."""
        if self._pool is not broken:
            return
        self.restarts += 1
        if hung:
            logger.warning(
                "a worker spent more than %g s on one page; starting new workers",
                self._read_timeout,
            )
        else:
            logger.warning("a worker process died; starting new workers")
        broken.kill()  # the pages it held fail over to the new pool
        broken.close(grace=0)
        try:
            self._pool = WorkerPool(self.processes, preload=_PRELOAD)
        except (OSError, RuntimeError) as exc:  # no process to spare: read in-process
            logger.error("no new worker processes (%s); pages are read in-process", exc)
            self._pool = None
