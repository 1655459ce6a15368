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

The folders are read top down, as ``git diff-tree`` compares trees: the years' ids, then the
months of the years whose id is not the one the previous build recorded, then the days of
those months; a folder whose id is as recorded keeps the ids recorded below it unread. So an
hourly build lists the current year, month and day, not every partition of the archive: in
the hourly job's clone, which holds the listing of a folder beside the checkout but not the
listings below it, listing an old month would make git fetch every folder listing of that
month. Then one more call lists the buckets of the partitions asked for, and another the
documents in those buckets whose tree id is not known to be unchanged (:func:`folder_tree`;
a partition not bucketed yet by ``quietedit migrate``: its documents directly); in the
hourly job's clone each bucket's own listing is there, as a folder beside one checked
out. Outside git (or where ``data/documents`` is not committed)
nothing here applies."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from quietedit.archive.gitcmd import git
from quietedit.archive.layout import BUCKET_PATTERN

logger = logging.getLogger(__name__)

PREFIX: Final = "git "
"""How a tree-id stamp starts (a stamp of file times is digits and dashes)."""
_BATCH: Final = 1000
"""Paths per ``git ls-tree`` call (about 40 KB: well within any command-line limit)."""


@dataclass(frozen=True, slots=True)
class Trees:
    """The committed tree ids of an archive's document folders (``read``)."""

    root: Path
    folders: dict[str, str]
    """Year (``YYYY``), month (``YYYY/MM``) and partition (``YYYY/MM/DD``) → the tree id
    of its folder in the commit checked out (below a folder as recorded: as recorded)."""
    dirty: frozenset[str]
    """Names of the document folders with a file that differs from the commit."""
    changed: frozenset[str] = frozenset()
    """The partitions (``YYYY/MM/DD``) holding a file that differs from the commit
    (modified, staged, deleted or untracked), whether in a document folder or not."""

    @property
    def partitions(self) -> dict[str, str]:
        """Partition (``YYYY/MM/DD``) → the tree id of its folder."""
        return {path: tree for path, tree in self.folders.items() if path.count("/") == 2}

    def documents(
        self, partitions: Iterable[str], *, unchanged: Mapping[str, str] | None = None
    ) -> dict[str, tuple[str, str]]:
        """Document folder name → (partition, tree id) for every document folder the
        commit holds in ``partitions`` (checked out or not), but those of the buckets
        whose tree id is the one ``unchanged`` gives for them (``YYYY/MM/DD/<bb>`` → tree
        id: a bucket whose every document is as known): those are not listed."""
        return self.listing(partitions, unchanged=unchanged).documents

    def listing(
        self, partitions: Iterable[str], *, unchanged: Mapping[str, str] | None = None
    ) -> Listing:
        """:meth:`documents`, and the buckets it did not list (:class:`Listing`). A bucket
        of a partition with a file that differs from the commit (:attr:`changed`) is
        listed whatever its tree id: what is on disk is not what the id names."""
        known = self.partitions
        same = unchanged or {}
        wanted = sorted(p for p in set(partitions) if p in known)
        found: dict[str, tuple[str, str]] = {}
        buckets, kept = [], set()
        for start in range(0, len(wanted), _BATCH):
            paths = [f"documents/{p}/" for p in wanted[start : start + _BATCH]]
            for path, tree in _ls_tree(self.root, paths):
                folder = path.removeprefix("documents/")
                partition, _, name = folder.rpartition("/")
                if not BUCKET_PATTERN.fullmatch(name):
                    # a folder quietedit migrate has not moved into its bucket yet
                    found[name] = (partition, tree)
                elif same.get(folder) == tree and partition not in self.changed:
                    kept.add(folder)
                else:
                    buckets.append(f"{path}/")
        for start in range(0, len(buckets), _BATCH):
            for path, tree in _ls_tree(self.root, buckets[start : start + _BATCH]):
                bucket, _, name = path.removeprefix("documents/").rpartition("/")
                found[name] = (bucket.rpartition("/")[0], tree)
        return Listing(found, frozenset(kept))

    def stamp(self, tree: str) -> str:
        """The stamp of a document folder with this tree id."""
        return PREFIX + tree


@dataclass(frozen=True, slots=True)
class Listing:
    """What :meth:`Trees.listing` found in some partitions."""

    documents: dict[str, tuple[str, str]]
    """Document folder name → (partition, tree id), of the buckets listed."""
    unchanged: frozenset[str]
    """The buckets (``YYYY/MM/DD/<bb>``) not listed: their tree id is the one known, so
    every document in them is as known."""


def folder_tree(entries: Mapping[str, str]) -> str | None:
    """The tree id git gives a folder holding exactly the folders ``entries`` (name → tree
    id), each a folder of its own (a document's): the hash of the tree object git would
    write for it, in the object format the ids are in (SHA-1 or SHA-256). ``None`` for no
    entries or an id that is not one (a stamp of file times)."""
    try:
        ids = {name: bytes.fromhex(tree) for name, tree in entries.items()}
    except ValueError:
        return None
    sizes = {len(i) for i in ids.values()}
    if not ids or len(sizes) != 1 or sizes.pop() not in (20, 32):
        return None
    # git sorts a tree's entries by name, a folder's name as if it ended in "/"
    body = b"".join(
        b"40000 " + name.encode() + b"\0" + ids[name]
        for name in sorted(ids, key=lambda n: n.encode() + b"/")
    )
    digest = hashlib.sha1 if len(next(iter(ids.values()))) == 20 else hashlib.sha256
    return digest(b"tree %d\0" % len(body) + body, usedforsecurity=False).hexdigest()


def read(root: Path, before: dict[str, str] | None = None) -> Trees | None:
    """The committed tree ids of the archive at ``root``, or ``None`` outside git (no git,
    no commit, or ``documents`` not committed). ``before``: the folders' ids a previous
    build recorded (:attr:`Trees.folders`); what is under a folder whose id is as
    recorded is taken from it, not listed."""
    recorded = before or {}
    level = _ls_tree(root, ["documents/"])
    if not level:
        return None
    folders: dict[str, str] = {}
    for depth in range(3):  # years, months, days
        below = []
        for path, tree in level:
            name = path.removeprefix("documents/")
            folders[name] = tree
            if depth == 2:
                continue
            if recorded.get(name) == tree:
                inside = name + "/"
                folders.update((k, v) for k, v in recorded.items() if k.startswith(inside))
            else:
                below.append(f"{path}/")
        level = _ls_tree(root, below)
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
    dirty, changed = set(), set()
    prefix = _git(root, "rev-parse", "--show-prefix")
    if prefix is None:
        return None
    under = prefix.strip() + "documents/"
    for item in status.split("\0"):
        path = item[3:]
        if path.startswith(under):
            parts = path[len(under) :].split("/")
            if len(parts) > 4 and BUCKET_PATTERN.fullmatch(parts[3]):  # YYYY/MM/DD/<bb>/<id>/…
                dirty.add(parts[4])
            elif len(parts) > 3:  # YYYY/MM/DD/<document>/... (not moved into its bucket yet)
                dirty.add(parts[3])
            changed.add("/".join(parts[:3]))  # (a file directly in a year or month: its name)
    return Trees(root, dict(sorted(folders.items())), frozenset(dirty), frozenset(changed))


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
    done = git(root, *args)
    if done is None:
        return None
    if done.returncode != 0:
        logger.debug("git %s: %s", args[0], done.stderr.strip())
        return None
    return done.stdout
