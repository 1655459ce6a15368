"""Partitions of a sparse git checkout, brought back when a run needs one.

The hourly job checks out only the partitions it expects to touch (``quietedit
sparse-paths``). When a document of another partition comes back — an old article
reappearing in a feed — the index names its partition and :func:`fetch_partition` adds it
to the sparse checkout; in a blob-less clone git then fetches its files. Outside git, or
in a full checkout, there is nothing to fetch and nothing is run.
"""

from __future__ import annotations

import logging
import subprocess
from functools import lru_cache
from pathlib import Path

from quietedit.errors import ArchiveError

logger = logging.getLogger(__name__)


def fetch_partition(root: Path, folder: Path) -> bool:
    """Add ``folder`` (a partition below the archive ``root``) to the sparse checkout
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
    logger.info("fetching partition %s into the sparse checkout", relative)
    done = _git(top, "sparse-checkout", "add", "--", relative)
    if done is None or done.returncode != 0:
        reason = "git is missing" if done is None else done.stderr.strip()
        raise ArchiveError(
            folder, f"not in the sparse checkout, and git sparse-checkout add failed: {reason}"
        )
    return True


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
