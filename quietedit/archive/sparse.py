"""Document folders of a sparse git checkout, brought back when a run needs one.

The hourly job checks out only the documents it expects to read (``quietedit
sparse-paths``): today's and yesterday's partitions whole, and of the others the folders of
the documents still observed. In git's cone mode a folder brings along the files directly
in each folder above it, so every partition one of its documents is checked out in has its
checks files on disk (:mod:`quietedit.archive.partition_checks` then keeps the entries of
the documents left out). When another document comes back — an old article reappearing
in a feed — the index names its partition and :func:`fetch_folder` adds its folder alone to
the sparse checkout; in a blob-less clone git then fetches its files. Outside git, or in a
full checkout, there is nothing to fetch and nothing is run.

:func:`checkout_cone` tells a document the checkout leaves out from one deleted from it:
the site build keeps the pages of the first, and drops those of the second.
"""

from __future__ import annotations

import fcntl
import logging
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

from quietedit.errors import ArchiveError

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Cone:
    """The folders a cone-mode sparse checkout holds whole (``git sparse-checkout list``),
    absolute; ``patterns``: the checkout is not in cone mode, and which folders it holds is
    not known here."""

    folders: frozenset[Path]
    patterns: bool = False

    def holds(self, folder: Path) -> bool:
        """Whether ``folder`` and all below it are in the checkout."""
        if self.patterns:
            return False
        target = folder.resolve()
        return any(probe in self.folders for probe in (target, *target.parents))


def checkout_cone(root: Path) -> Cone | None:
    """What the sparse checkout holding the archive ``root`` holds; ``None`` when ``root``
    is not in a sparse git checkout (outside git, or a full checkout: everything there)."""
    top = _sparse_top(root.resolve())
    if top is None:
        return None
    cone = _git(top, "config", "--bool", "core.sparseCheckoutCone")
    listed = _git(top, "sparse-checkout", "list")
    if cone is None or cone.stdout.strip() != "true" or listed is None or listed.returncode:
        return Cone(frozenset(), patterns=True)
    folders = [line.strip() for line in listed.stdout.splitlines() if line.strip()]
    return Cone(frozenset(top / folder for folder in folders))


def fetch_folder(root: Path, folder: Path) -> bool:
    """Add ``folder`` (a document folder below the archive ``root``) to the sparse checkout
    that ``root`` is in, if it is one and ``folder`` is missing; whether it was added.

    Raises ``ArchiveError`` when git refuses (the clone cannot reach its origin, say): the
    caller's document cannot be read, which is reported, and the run goes on.
    """
    if folder.is_dir():
        return False
    top = _sparse_top(root.resolve())
    if top is None:
        return False
    try:
        relative = folder.resolve().relative_to(top).as_posix()
    except ValueError:
        return False
    # one `sparse-checkout add` at a time: git's own lock file makes a second one fail,
    # and the threads of a run and the build's workers may need partitions at once
    with _LOCK, _locked(top):
        if folder.is_dir():  # another thread or process fetched it meanwhile
            return False
        logger.info("fetching %s into the sparse checkout", relative)
        reason = "git is missing"
        for attempt in range(_ATTEMPTS):
            done = _git(top, "sparse-checkout", "add", "--", relative)
            if done is not None and done.returncode == 0:
                return True
            if done is None:
                break
            reason = done.stderr.strip()
            if ".lock" not in reason:  # only git's lock file (another git at work) passes
                break
            time.sleep(0.2 * (attempt + 1))
    raise ArchiveError(
        folder, f"not in the sparse checkout, and git sparse-checkout add failed: {reason}"
    )


_LOCK: Final = threading.Lock()
_ATTEMPTS: Final = 5


@contextmanager
def _locked(top: Path) -> Iterator[None]:
    """Hold an exclusive lock on a file in the git folder of ``top`` (other processes)."""
    done = _git(top, "rev-parse", "--git-path", "quietedit-sparse.lock")
    if done is None or done.returncode != 0:
        yield
        return
    path = top / done.stdout.strip()
    with open(path, "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@lru_cache(maxsize=8)
def _sparse_top(root: Path) -> Path | None:
    """The top of the git work tree holding ``root`` if its checkout is sparse, else None."""
    probe = root
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    done = _git(probe, "rev-parse", "--show-toplevel")
    if done is None or done.returncode != 0:
        return None
    top = Path(done.stdout.strip())
    sparse = _git(top, "config", "--bool", "core.sparseCheckout")
    if sparse is None or sparse.stdout.strip() != "true":
        return None
    return top.resolve()


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str] | None:
    try:
        return subprocess.run(  # noqa: S603 - fixed git arguments, no shell
            ["git", "-c", "core.quotepath=off", *args],  # noqa: S607 - git as found on PATH
            cwd=cwd,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="surrogateescape",
            check=False,
        )
    except (FileNotFoundError, NotADirectoryError):
        return None
