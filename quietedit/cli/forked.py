"""A batch shared out among forked copies of this process, results in input order.

``quietedit extract`` spends a few milliseconds of CPU on a page, so what it costs to hand
a page to another process matters: a process pool pickles every task and result, and
moves them through queues with a feeder thread — together a third of the work itself.
Here nothing but the items' numbers moves between processes. Each round, this process
writes the numbers of the round's items into a pipe and forks a copy of itself per extra
process; then every process, this one included, takes the next number from the pipe as
soon as it is done with its last item, so a process that drew large pages takes fewer of
them and all finish at about the same time. A copy writes its results, with their
numbers, to a file of its own with ``marshal`` and exits; then the results are put back
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
CLAIMS_MAX: Final = 1024
"""At most this many takes from the pipe a round (a huge round hands out runs of items):
their numbers, two bytes each, then fit in the smallest buffer a pipe may have (one page
of 4 KiB), so writing them all never waits for a reader."""
_CLAIM: Final = 2  # bytes per number in the pipe; one read of them is atomic
_FAILED: Final = 70  # a copy's exit status when its work raised (EX_SOFTWARE)

Item = TypeVar("Item")
Result = TypeVar("Result")


class WorkerDied(RuntimeError):
    """A forked copy ended without its results (killed by a signal, or its work raised)."""

    def __init__(self, *, first: int, status: str) -> None:
        super().__init__(f"a worker process {status}")
        self.first = first  # the index of the first item left without a result


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
    tuples and lists of them). A round has ``per_round`` items per process, which each
    process takes one by one as it is ready for the next. Raises :class:`WorkerDied` when
    a copy that was killed, or whose ``work`` raised, leaves items of its round without a
    result (a copy that dies before taking any loses nothing: the others do its share);
    the results of the rounds before have been yielded by then.
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
    processes = min(processes, len(items))
    run = -(-len(items) // CLAIMS_MAX)  # items per take: one, unless the round is huge
    copies: list[tuple[int, IO[bytes]]] = []  # (pid, results file)
    parent = os.getpid()
    sys.stdout.flush()  # a copy must not inherit output this process has yet to write
    sys.stderr.flush()
    claims = _claims(-(-len(items) // run))
    # Frozen objects are left alone by the collector, so the copies share their memory
    # pages with this process instead of copying them as the collector walks. Where the
    # caller froze nothing, the round freezes what lives now and thaws it after; where it
    # did (quietedit.cli.main freezes the start-up), the round freezes nothing more, which
    # would pin for good any garbage of earlier rounds that only the collector can free.
    thaw = gc.get_freeze_count() == 0
    if thaw:
        gc.freeze()
    try:
        for _ in range(1, processes):
            results = _results_file()  # closed when its copy is reaped, or in the cleanup below
            try:
                pid = os.fork()
            except OSError:  # no process to spare (EAGAIN): the file has no copy to close it
                results.close()
                raise
            if pid == 0:  # the copy: never returns
                _serve(work, items, claims, run, results, parent=parent)
            copies.append((pid, results))
        merged: list[Result] = [None] * len(items)  # type: ignore[list-item]
        done = bytearray(len(items))  # 1 where merged holds a result (which may be None)
        for index, result in _take(work, items, claims, run):
            merged[index] = result
            done[index] = 1
        death = None
        while copies:
            pid, results = copies[0]
            _, status = os.waitpid(pid, 0)
            copies.pop(0)
            with results:
                if status != 0:
                    death = death or _describe(status)
                    continue
                results.seek(0)
                for index, result in marshal.load(results):  # noqa: S302 - our copy wrote it
                    merged[index] = result
                    done[index] = 1
        if death is not None and 0 in done:  # a dead copy lost the items it took, if any
            raise WorkerDied(first=offset + done.index(0), status=death)
        return merged
    finally:
        os.close(claims)
        if thaw:
            gc.unfreeze()
        for pid, leftover in copies:  # interrupted: no copy outlives the command
            _stop(pid)
            leftover.close()


def _claims(count: int) -> int:
    """A pipe's read end, holding the numbers ``0 .. count - 1`` and closed for writing.

    Each process takes the next number with one read of :data:`_CLAIM` bytes: a pipe hands
    each read whole to one reader, and the pipe is empty (at its end) once all are taken.
    """
    read, write = os.pipe()
    try:
        os.write(write, b"".join(n.to_bytes(_CLAIM, "little") for n in range(count)))
    finally:
        os.close(write)
    return read


def _take(
    work: Callable[[Item], Result],
    items: Sequence[Item],
    claims: int,
    run: int,
    *,
    parent: int | None = None,
) -> Iterator[tuple[int, Result]]:
    """(index, ``work`` of the item) for each item this process takes from ``claims``.

    Takes ``run`` items at a time until no number is left. In a copy (``parent`` is the
    pid of the process that forked it) whose parent is gone (killed), stops at the next
    item: nobody would read its results.
    """
    while claim := os.read(claims, _CLAIM):
        first = int.from_bytes(claim, "little") * run
        for index in range(first, min(first + run, len(items))):
            if parent is not None and os.getppid() != parent:
                return
            yield index, work(items[index])


def _results_file() -> IO[bytes]:
    """A new unnamed file, read and write, that a forked copy can hand its results back in.

    An anonymous file in memory where the system offers one (Linux): importing ``tempfile``
    for a temporary file instead costs a batch's start-up as much as extracting a couple of
    pages. Elsewhere, a temporary file.
    """
    if hasattr(os, "memfd_create"):
        try:
            return open(os.memfd_create("quietedit-results"), "w+b")
        except OSError:  # a kernel too old for it, or a sandbox that refuses it
            pass
    import tempfile

    return tempfile.TemporaryFile()


def _serve(
    work: Callable[[Item], Result],
    items: Sequence[Item],
    claims: int,
    run: int,
    results: IO[bytes],
    *,
    parent: int,
) -> None:
    """In a copy: do the items it takes, write the results, and end the process.

    ``os._exit`` skips what this process inherited the duty of (atexit handlers, the
    buffers of stdout, temporary files of the parent), which stays the parent's.
    """
    status = _FAILED
    try:
        done = list(_take(work, items, claims, run, parent=parent))
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
