"""A batch shared out among forked copies of this process, results in input order.

``quietedit extract`` spends a few milliseconds of CPU on a page, so what it costs to hand
a page to another process matters: a process pool pickles every task and result, and
moves them through queues with a feeder thread — together a third of the work itself.
Here the batch is split up front instead. Each round, this process forks a copy of
itself per extra process; copy *k* takes every *n*-th item from the *k*-th on (so a run
of large pages is spread out), writes its results to a file of its own with ``marshal``
and exits, while this process works through its own share; then the results are put back
in input order. A fork starts with everything already imported, so a copy starts at once.

Only for platforms that can fork safely, and only from a process with one thread (a fork
copies a lock another thread may hold): :func:`can_fork` says.
"""

from __future__ import annotations

import gc
import marshal
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Final, TypeVar

ROUND_PER_PROCESS: Final = 256
"""Items per process per round: the results of a round wait in memory until the round is
over, so a round is bounded; forking again for the next costs a few milliseconds."""
_FAILED: Final = 70  # a copy's exit status when its work raised (EX_SOFTWARE)

Item = TypeVar("Item")
Result = TypeVar("Result")


class WorkerDied(RuntimeError):
    """A forked copy ended without its results (killed by a signal, or its work raised)."""

    def __init__(self, *, first: int, status: str) -> None:
        super().__init__(f"a worker process {status}")
        self.first = first  # the index of the first item the dead copy was given


def can_fork() -> bool:
    """Whether this process may fork copies of itself: a POSIX fork, no other thread.

    macOS's system libraries (its resolver among them) may crash in a forked child, so
    macOS counts as unable, as in the standard library's choice of start method.
    """
    return hasattr(os, "fork") and sys.platform != "darwin" and threading.active_count() == 1


def map_forked(
    work: Callable[[Item], Result],
    items: Sequence[Item],
    *,
    processes: int,
    per_round: int = ROUND_PER_PROCESS,
) -> Iterator[Result]:
    """``work`` of each item, in input order, computed by ``processes`` processes.

    ``work``'s results must be values ``marshal`` can write (strings, numbers, ``None``,
    tuples and lists of them). Each process takes at most ``per_round`` items a round.
    Raises :class:`WorkerDied` when a copy is killed or its ``work`` raises; the results
    before that copy's round have been yielded by then.
    """
    if processes < 2 or len(items) < 2:
        yield from map(work, items)
        return
    size = per_round * processes
    for start in range(0, len(items), size):
        yield from _round(work, items[start : start + size], processes=processes, offset=start)


def _round(
    work: Callable[[Item], Result], items: Sequence[Item], *, processes: int, offset: int
) -> list[Result]:
    """One round: ``items`` shared among this process and ``processes - 1`` copies."""
    import tempfile  # imported here: it costs a one-file run more than its extraction

    processes = min(processes, len(items))
    copies: list[tuple[int, int, IO[bytes]]] = []  # (share, pid, results file)
    parent = os.getpid()
    sys.stdout.flush()  # a copy must not inherit output this process has yet to write
    sys.stderr.flush()
    # Frozen objects are left alone by the collector, so the copies share their memory
    # pages with this process instead of copying them as the collector walks.
    gc.freeze()
    try:
        for share in range(1, processes):
            # closed when its copy is reaped, or in the cleanup below
            results: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
            pid = os.fork()
            if pid == 0:  # the copy: never returns
                _serve(work, items[share::processes], results, parent=parent)
            copies.append((share, pid, results))
        mine = [work(item) for item in items[0::processes]]
        merged: list[Result] = [None] * len(items)  # type: ignore[list-item]
        merged[0::processes] = mine
        while copies:
            share, pid, results = copies[0]
            _, status = os.waitpid(pid, 0)
            copies.pop(0)
            with results:
                if status != 0:
                    raise WorkerDied(first=offset + share, status=_describe(status))
                results.seek(0)
                merged[share::processes] = marshal.load(results)  # noqa: S302 - our copy wrote it
        return merged
    finally:
        gc.unfreeze()
        for _, pid, leftover in copies:  # interrupted: no copy outlives the command
            _stop(pid)
            leftover.close()


def _serve(
    work: Callable[[Item], Result], share: Sequence[Item], results: IO[bytes], *, parent: int
) -> None:
    """In a copy: do ``share``, write the results, and end the process without cleanup.

    ``os._exit`` skips what this process inherited the duty of (atexit handlers, the
    buffers of stdout, temporary files of the parent), which stays the parent's. A copy
    whose parent is gone (killed) stops at the next item: nobody would read its results.
    """
    status = _FAILED
    try:
        done = []
        for item in share:
            if os.getppid() != parent:
                break
            done.append(work(item))
        marshal.dump(done, results)
        results.flush()
        status = 0
    except KeyboardInterrupt:  # Ctrl-C reached the whole process group: the parent says so
        status = 130
    except BaseException:  # noqa: BLE001 - reported by the exit status, in the parent
        import traceback

        traceback.print_exc()
        sys.stderr.flush()
    finally:
        os._exit(status)


def _stop(pid: int) -> None:
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:  # already reaped, or gone
        pass


def _describe(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"was killed by signal {os.WTERMSIG(status)}"
    return f"failed (exit status {os.waitstatus_to_exitcode(status)})"
