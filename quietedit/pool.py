"""Worker processes for ``extract``, ``ingest`` and ``build``: one helper on the standard
library's :class:`~concurrent.futures.ProcessPoolExecutor` (the shell).

A :class:`WorkerPool` is an executor with what all three commands need on top:

- workers ignore Ctrl-C (the command that started them stops them) and exit by
  themselves when that process dies (killed, out of memory), so none outlives it;
- :meth:`WorkerPool.map` yields results in input order and turns a dead worker into
  :class:`~quietedit.errors.WorkerDiedError`, naming the first item left without a result;
- :meth:`WorkerPool.close` never waits on a busy worker for long: after ``grace``
  seconds it kills it, and :meth:`WorkerPool.kill` kills every worker at once (a worker
  stuck on one item).

Workers start the ``forkserver`` way (``spawn`` where there is none): each imports the
``__main__`` module again, so a script that starts workers needs the usual
``if __name__ == "__main__":`` guard. ``method="fork"`` is for callers whose workers must
inherit what the process has built and that know no other thread runs (see
:func:`can_fork`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import wait
from typing import Final, Literal, ParamSpec, TypeVar

from quietedit.errors import WorkerDiedError

P = ParamSpec("P")
T = TypeVar("T")
Item = TypeVar("Item")

CLOSE_GRACE: Final = 1.0
"""Seconds :meth:`WorkerPool.close` gives workers to exit by themselves (idle ones take
milliseconds) before it kills the ones still busy with work nobody waits for."""


def can_fork() -> bool:
    """Whether workers may be forked copies of this process: a POSIX fork, and no other
    thread (a fork copies locks another thread may hold). macOS counts as unable: its
    system libraries may crash in a forked child (the standard library's choice too)."""
    return (
        "fork" in multiprocessing.get_all_start_methods()
        and sys.platform != "darwin"
        and threading.active_count() == 1
    )


class WorkerPool:
    """``processes`` worker processes; use as a context manager (leaving it closes).

    ``preload`` names modules the fork server imports once for all workers (with
    ``method="forkserver"``); a worker then starts with them imported.
    """

    def __init__(
        self,
        processes: int,
        *,
        method: Literal["fork", "forkserver"] = "forkserver",
        preload: Sequence[str] = (),
    ) -> None:
        available = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context(method if method in available else "spawn")
        if context.get_start_method() == "forkserver" and preload:
            context.set_forkserver_preload(list(preload))
        self.executor = ProcessPoolExecutor(
            processes, mp_context=context, initializer=_worker_started
        )

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def submit(self, function: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Run ``function`` in a worker. Its future fails with ``BrokenProcessPool`` when a
        worker of this pool died (every pending future does: the pool is broken)."""
        return self.executor.submit(function, *args, **kwargs)

    def map(
        self, function: Callable[[Item], T], items: Iterable[Item], *, chunksize: int = 1
    ) -> Iterator[T]:
        """``function`` of each item, in input order, handed out ``chunksize`` at a time.
        Raises :class:`~quietedit.errors.WorkerDiedError` when a worker died; the results
        before its ``index`` have been yielded by then."""
        done = 0
        try:
            for result in self.executor.map(function, items, chunksize=chunksize):
                yield result
                done += 1
        except BrokenProcessPool as exc:
            raise WorkerDiedError(done, reason=str(exc)) from exc

    def pids(self) -> tuple[int, ...]:
        """The worker processes' ids (workers start as work arrives)."""
        return tuple(sorted(_processes(self.executor)))

    def kill(self) -> None:
        """Kill every worker now; what they held fails with ``BrokenProcessPool``."""
        _kill(_processes(self.executor).values())

    def close(self, *, grace: float = CLOSE_GRACE) -> None:
        """Drop work not started; workers still busy after ``grace`` seconds are killed."""
        waiting = list(_processes(self.executor).values())  # shutdown() forgets them
        manager = getattr(self.executor, "_executor_manager_thread", None)  # and this
        self.executor.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + grace
        while waiting and (left := deadline - time.monotonic()) > 0:
            exited = set(wait([process.sentinel for process in waiting], left))
            waiting = [process for process in waiting if process.sentinel not in exited]
        _kill(waiting)
        # The executor's own thread closes its wake-up pipe as it ends. Were the process
        # to exit meanwhile, the library's exit hook could write to the pipe as it closes
        # and print a traceback (seen after a worker died: OSError, "Bad file
        # descriptor"). With its workers gone, the thread ends at once.
        if isinstance(manager, threading.Thread):
            manager.join(timeout=CLOSE_GRACE)


def _processes(executor: ProcessPoolExecutor) -> dict[int, multiprocessing.process.BaseProcess]:
    # The executor keeps no public list of its workers before Python 3.14 (kill_workers()).
    return dict(getattr(executor, "_processes", None) or {})


def _kill(processes: Iterable[multiprocessing.process.BaseProcess]) -> None:
    for process in processes:
        with contextlib.suppress(OSError, ValueError):  # exited meanwhile, or reaped
            process.kill()


def _worker_started() -> None:
    """In each worker: leave Ctrl-C to the process that started it, and exit if it dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(
            target=_exit_with, args=(parent.sentinel,), daemon=True, name="parent-watch"
        ).start()


def _exit_with(sentinel: int) -> None:
    with contextlib.suppress(OSError):
        wait([sentinel])
    os._exit(0)  # the process that started us is gone: nobody will collect our results
