"""What git knows of the document folders: stamps that survive a clone, and which folders
a commit changed without the checkout holding them.

A fresh clone gives every file a new modification time, so the site build's stamps of
file times (``Archive.document_stamps``) all move on each hourly job's clone, and every
document checked out would be hashed again. Git's tree id of a document folder names its
content exactly and is the same in every clone: it is the stamp of a document whose files
are as committed (none modified, staged or untracked: ``git status``). The tree ids come
from the commit (``git ls-tree``), which a blob-less clone holds whole, for the folders
checked out and for those left out alike: a document changed in a commit while the
checkout leaves it out (a derived record written by ``quietedit reextract``, an edit
pushed from elsewhere) has a tree id other than the one its build recorded.

Three ``ls-tree`` calls read the tree id of every partition (years, months, days), one
more the documents of the partitions asked for: a build compares the partitions' ids
with those it recorded and lists the documents of the partitions that changed only.
Outside git (or where ``data/documents`` is not committed) nothing here applies.
"""

from __future__ import annotations

import logging
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

logger = logging.getLogger(__name__)

PREFIX: Final = "git "
"""How a tree-id stamp starts (a stamp of file times is digits and dashes)."""
_BATCH: Final = 200
"""Paths per ``git ls-tree`` call (well within any command-line limit)."""


@dataclass(frozen=True, slots=True)
class Trees:
    """The committed tree ids of an archive's document folders (``read``)."""

    root: Path
    partitions: dict[str, str]
    """Partition (``YYYY/MM/DD``) → the tree id of its folder in the commit checked out."""
    dirty: frozenset[str]
    """Names of the document folders with a file that differs from the commit."""

    def documents(self, partitions: Iterable[str]) -> dict[str, tuple[str, str]]:
        """Document folder name → (partition, tree id) for every document folder the
        commit holds in ``partitions`` (checked out or not)."""
        wanted = sorted(p for p in set(partitions) if p in self.partitions)
        found: dict[str, tuple[str, str]] = {}
        for start in range(0, len(wanted), _BATCH):
            paths = [f"documents/{p}/" for p in wanted[start : start + _BATCH]]
            for path, tree in _ls_tree(self.root, paths):
                partition, _, name = path.removeprefix("documents/").rpartition("/")
                found[name] = (partition, tree)
        return found

    def stamp(self, tree: str) -> str:
        """The stamp of a document folder with this tree id."""
        return PREFIX + tree


def read(root: Path) -> Trees | None:
    """The committed tree ids of the archive at ``root``, or ``None`` outside git (no git,
    no commit, or ``documents`` not committed)."""
    years = _ls_tree(root, ["documents/"])
    if not years:
        return None
    months = _ls_tree(root, [f"{path}/" for path, _ in years])
    days = _ls_tree(root, [f"{path}/" for path, _ in months])
    status = _git(
        root,
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=all",
        "--no-renames",
        "--ignore-submodules",
        "--",
        "documents",
    )
    if status is None:
        return None
    dirty = set()
    prefix = _git(root, "rev-parse", "--show-prefix")
    if prefix is None:
        return None
    under = prefix.strip() + "documents/"
    for item in status.split("\0"):
        path = item[3:]
        if path.startswith(under):
            parts = path[len(under) :].split("/")
            if len(parts) > 3:  # YYYY/MM/DD/<document>/...
                dirty.add(parts[3])
    partitions = {path.removeprefix("documents/"): tree for path, tree in days}
    return Trees(root, partitions, frozenset(dirty))


def _ls_tree(root: Path, paths: list[str]) -> list[tuple[str, str]]:
    """(path relative to ``root``, tree id) of the folders directly in ``paths`` (each
    ending in ``/``) in the commit checked out; empty when git cannot say."""
    if not paths:
        return []
    listed = _git(root, "ls-tree", "-d", "-z", "HEAD", "--", *paths)
    if listed is None:
        return []
    found = []
    for line in listed.split("\0"):
        meta, _, path = line.partition("\t")
        fields = meta.split()
        if len(fields) == 3 and fields[1] == "tree":
            found.append((path, fields[2]))
    return found


def _git(root: Path, *args: str) -> str | None:
    """Git's output, or ``None`` when git is missing or fails (outside a repository, no
    commit yet)."""
    try:
        done = subprocess.run(  # noqa: S603 - fixed git arguments, no shell
            ["git", "-c", "core.quotepath=off", *args],  # noqa: S607 - git as found on PATH
            cwd=root,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="surrogateescape",
            check=False,
        )
    except (FileNotFoundError, NotADirectoryError):
        return None
    if done.returncode != 0:
        logger.debug("git %s: %s", args[0], done.stderr.strip())
        return None
    return done.stdout
