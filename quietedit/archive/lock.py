"""One ingest run at a time: an exclusive lock on the archive.

The lock is ``flock`` on ``.tmp/ingest.lock``: the kernel releases it when its holder
exits, however it exits — SIGKILL and power loss included — so a stale lock cannot
outlive a crashed run and needs no recovery. The file records who holds it, for the
message a second run gets.
"""

from __future__ import annotations

import fcntl
import os
import socket
from datetime import datetime
from pathlib import Path
from types import TracebackType

from quietedit.archive.layout import Layout
from quietedit.errors import ArchiveError, ArchiveLockedError
from quietedit.model import format_timestamp


class RunLock:
    """``with RunLock(root, now=...):`` holds the archive for one run or raises
    ``ArchiveLockedError`` at once (it never waits)."""

    def __init__(self, root: Path, *, now: datetime) -> None:
        self.path = Layout(root).tmp_dir / "ingest.lock"
        self.now = now
        self._fd: int | None = None

    def __enter__(self) -> RunLock:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise ArchiveError(self.path, f"cannot open the run lock: {exc.strerror}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            holder = os.pread(fd, 512, 0).decode("utf-8", "replace").strip() or "unknown"
            os.close(fd)
            raise ArchiveLockedError(
                self.path,
                f"another quietedit run holds the archive ({holder}); "
                "wait for it to finish — a crashed run releases the lock by itself",
            ) from exc
        holder = f"pid {os.getpid()} on {socket.gethostname()} since {format_timestamp(self.now)}"
        os.ftruncate(fd, 0)
        os.pwrite(fd, holder.encode("utf-8"), 0)
        self._fd = fd
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
