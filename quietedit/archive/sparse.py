"""Document folders of a sparse git checkout, brought back when a run needs one.

The hourly job checks out only the documents it expects to read (``quietedit
sparse-paths``): today's and yesterday's partitions whole, and of the others the folders of
the documents still observed, each in its bucket (:meth:`Layout.document_dir`), so that the
folders beside it that git must list are the partition's buckets and the few documents of
its own bucket, not every document of its day. In git's cone mode a folder brings along the
files directly in each folder above it, so every partition one of its documents is checked
out in has its checks files on disk (:mod:`quietedit.archive.partition_checks` then keeps
the entries of the documents left out). When another document comes back — an old article
reappearing in a feed — the index names its partition and :func:`fetch_folder` adds its
folder alone to the sparse checkout; in a clone without trees it first fetches the trees on
its way (:mod:`quietedit.archive.gittrees`), and git then fetches its files. Outside git, or
in a full checkout, there is nothing to fetch and nothing is run.

:func:`checkout_cone` tells a document the checkout leaves out from one deleted from it:
the site build keeps the pages of the first, and drops those of the second
(:func:`outside_checkout`).
"""

from __future__ import annotations

import fcntl
import logging
import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Final

from quietedit.archive.gitcmd import git
from quietedit.archive.gittrees import fetch_all_trees, fetch_trees
from quietedit.archive.layout import Layout, document_path
from quietedit.errors import ArchiveError, UnsafePathError

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Cone:
    """The folders a cone-mode sparse checkout holds whole (``git sparse-checkout list``),
    absolute; ``patterns``: the checkout is not in cone mode, and which folders it holds is
    not known here."""

    folders: frozenset[Path]
    patterns: bool = False
    names: frozenset[str] = field(init=False)
    """``folders`` as text, for :meth:`holds`."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", frozenset(str(folder) for folder in self.folders))

    def holds(self, folder: Path | str) -> bool:
        """Whether ``folder`` (absolute and resolved: the caller resolves the archive's
        folder once, not each of thousands of documents) and all below it are in the
        checkout. Read as text, a folder and each of its parents: an hourly build asks
        for every document of the partitions it reads that the checkout leaves out (tens
        of thousands once the observation window is full), and walking a ``Path``'s
        parents cost about fifteen times as much (under the profiler, 37,954 folders at
        day 91 of ``bench/year.py``: 2.92 s, as text 0.20)."""
        if self.patterns:
            return False
        text = str(folder)
        names = self.names
        if text in names:
            return True
        at = text.rfind("/")
        while at > 0:
            if text[:at] in names:
                return True
            at = text.rfind("/", 0, at)
        return at == 0 and "/" in names


def checkout_cone(root: Path) -> Cone | None:
    """What the sparse checkout holding the archive ``root`` holds; ``None`` when ``root``
    is not in a sparse git checkout (outside git, or a full checkout: everything there)."""
    top = _find_sparse_top(root.resolve())  # not the cached answer: read once a pass
    if top is None:
        return None
    cone = git(top, "config", "--bool", "core.sparseCheckoutCone")
    listed = git(top, "sparse-checkout", "list")
    if cone is None or cone.stdout.strip() != "true" or listed is None or listed.returncode:
        return Cone(frozenset(), patterns=True)
    folders = [line.strip() for line in listed.stdout.splitlines() if line.strip()]
    return Cone(frozenset(top / folder for folder in folders))


def outside_checkout(
    root: Path, partition_of: Callable[[str], tuple[bool, str | None]]
) -> Callable[[str, str], bool]:
    """A test of whether a document missing from disk, given as ``(partition, id)``,
    is left out by the checkout (its partition is not on disk, or a sparse git checkout
    does not hold its folder) rather than deleted (its folder missing from what is
    checked out, or the index no longer naming it there). ``partition_of``: the archive's
    index lookup without a fetch, whether it knows and what (:meth:`DocumentIndex.peek`):
    an index shard the hourly checkout leaves out is not fetched for this, so a document
    left out whose shard is left out too counts as left out. Reads the sparse checkout's
    list once: the test is for one pass."""
    cone = checkout_cone(root)
    resolved = Layout(root.resolve())
    top = str(resolved.root).rstrip("/")  # "" for the file system's root
    partitions: dict[str, bool] = {}

    def outside(partition: str, document: str) -> bool:
        try:
            folder = f"{top}/{document_path(document, partition)}"  # as document_dir
        except UnsafePathError:
            return True  # no such folder can exist: never taken for a deletion
        try:
            known, named = partition_of(document)
        except ArchiveError:
            return True  # an unreadable index deletes nothing
        if known and named != partition:
            return False  # removed from the index: deleted, not left out
        if partition not in partitions:
            partitions[partition] = resolved.partition_dir(partition).is_dir()
        return not partitions[partition] or (cone is not None and not cone.holds(folder))

    return outside


def check_out_everything(root: Path) -> bool:
    """Make the sparse checkout holding the archive ``root`` a full one (git fetches what
    a blob-less clone lacks), for a build that has nothing recorded of the documents left
    out; whether it was sparse. ``ArchiveError`` when git refuses."""
    top = _find_sparse_top(root.resolve())
    if top is None:
        return False
    with _LOCK, _locked(top):
        logger.warning("checking out the whole archive: the build has no record of the rest")
        fetch_all_trees(top)  # in one request per level, not one per folder
        done = git(top, "sparse-checkout", "disable")
    if done is None or done.returncode != 0:
        reason = done.stderr.strip() if done is not None else "git is missing"
        raise ArchiveError(root, f"git sparse-checkout disable failed: {reason}")
    return True


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
    with _LOCK, _locked(top) as git_dir:
        if folder.is_dir():  # another thread or process fetched it meanwhile
            return False
        logger.info("fetching %s into the sparse checkout", relative)
        fetch_trees(top, [relative])  # its own trees, not its partition's every folder
        reason = "git is missing"
        for attempt in range(_ATTEMPTS):
            if git_dir is not None:
                _clear_after_kill(git_dir)
            done = _add(top, git_dir, relative)
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


def fetch_folders(root: Path, folders: list[Path], *, strict: bool = False) -> int:
    """Add every one of ``folders`` (document or index shard folders below the archive
    ``root``) missing from the sparse checkout ``root`` is in at once: their trees in one
    walk, one ``git sparse-checkout add``; how many were added. A run that will read many
    documents the checkout left out (those its feeds list) so pays one fetch, not one each.
    Nothing is raised unless ``strict`` (then ``ArchiveError`` when git refuses): a folder
    still missing afterwards is fetched alone when read (:func:`fetch_folder`, which
    reports a failure)."""
    top = _sparse_top(root.resolve())
    if top is None:
        return 0
    relative = []
    for folder in sorted(set(folders)):
        if folder.is_dir():
            continue
        try:
            relative.append(folder.resolve().relative_to(top).as_posix())
        except ValueError:
            continue
    if not relative:
        return 0
    with _LOCK, _locked(top) as git_dir:
        logger.info("fetching %d folders into the sparse checkout at once", len(relative))
        fetch_trees(top, relative)
        if git_dir is not None:
            _clear_after_kill(git_dir)
        done = git(
            top,
            "sparse-checkout",
            "add",
            "--skip-checks",
            "--stdin",
            stdin="".join(f"{path}\n" for path in relative),
        )
    if done is None or done.returncode != 0:
        reason = "git is missing" if done is None else done.stderr.strip()
        if strict:
            raise ArchiveError(
                folders[0],
                f"not in the sparse checkout, and git sparse-checkout add failed: {reason}",
            )
        logger.warning(
            "could not fetch the folders at once (each is fetched when read): %s", reason
        )
        return 0
    return len(relative)


_LOCK: Final = threading.Lock()
_ATTEMPTS: Final = 5


_MARKER: Final = "quietedit-sparse.pid"
"""In the git folder while a fetch's git runs: its process id (:func:`_clear_after_kill`)."""
_GIT_LOCKS: Final = ("index.lock", "info/sparse-checkout.lock")
"""The lock files ``git sparse-checkout add`` holds while it works."""


@contextmanager
def _locked(top: Path) -> Iterator[Path | None]:
    """Hold an exclusive lock on a file in the git folder of ``top`` (other processes);
    yields that folder (``None``: git could not name it, and nothing is locked)."""
    done = git(top, "rev-parse", "--absolute-git-dir")
    if done is None or done.returncode != 0:
        yield None
        return
    git_dir = Path(done.stdout.strip())
    with open(git_dir / "quietedit-sparse.lock", "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield git_dir
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _add(top: Path, git_dir: Path | None, relative: str) -> subprocess.CompletedProcess[str] | None:
    """``git sparse-checkout add`` of ``relative``, its process id in the marker file while
    it runs (the caller holds the lock)."""
    # --skip-checks: git 2.39 checks a path given as an argument against a full index,
    # which expands a sparse one and, in a clone without trees, fetches every folder's
    command = [
        "git",
        "-c",
        "core.quotepath=off",
        "sparse-checkout",
        "add",
        "--skip-checks",
        "--",
        relative,
    ]
    try:
        process = subprocess.Popen(  # noqa: S603 - fixed git arguments, no shell
            command,
            cwd=top,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="surrogateescape",
        )
    except (FileNotFoundError, NotADirectoryError):
        return None
    marker = None if git_dir is None else git_dir / _MARKER
    if marker is not None:
        marker.write_text(f"{process.pid}\n", encoding="ascii")
    out, err = process.communicate()
    if marker is not None:
        marker.unlink(missing_ok=True)
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def _clear_after_kill(git_dir: Path) -> None:
    """Remove the lock files of a fetch killed before its end (SIGKILL, a cancelled job's
    runner), or every later fetch in this clone would fail on them. A marker left behind
    names the git process of such a fetch: once that process is gone, nothing holds its
    locks, and the fetch is simply made again (the caller holds the lock that every fetch
    takes, so no fetch of ours is at work)."""
    marker = git_dir / _MARKER
    try:
        pid = int(marker.read_text(encoding="ascii"))
    except FileNotFoundError:
        return
    except (OSError, ValueError):
        pid = 0
    if pid > 0 and _alive(pid):
        return  # still at work (its parent was killed, not it): its locks are real
    for name in _GIT_LOCKS:
        if (git_dir / name).exists():
            logger.warning("removing %s, left by a fetch killed before its end", name)
            (git_dir / name).unlink(missing_ok=True)
    marker.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, killed and never reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    except (OSError, IndexError, ValueError):
        return True  # no /proc: taken as running, so its locks stay
    return state[0] not in ("Z", "X")


def _find_sparse_top(root: Path) -> Path | None:
    """The top of the git work tree holding ``root`` if its checkout is sparse, else None."""
    probe = root
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    done = git(probe, "rev-parse", "--show-toplevel")
    if done is None or done.returncode != 0:
        return None
    top = Path(done.stdout.strip())
    sparse = git(top, "config", "--bool", "core.sparseCheckout")
    if sparse is None or sparse.stdout.strip() != "true":
        return None
    return top.resolve()


_sparse_top: Final = lru_cache(maxsize=8)(_find_sparse_top)
"""As :func:`_find_sparse_top`, asked once per archive folder: each fetch asks it."""
