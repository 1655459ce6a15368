"""The folder listings (trees) a sparse checkout needs, fetched before git asks for them.

The hourly job clones with ``--filter=tree:0``: the newest commit and no tree at all. Left
to itself, git fetches a tree it lacks with ``--filter=blob:none``, which brings every tree
below it, so the first folder it opens under ``data/documents`` downloads the listings of
the whole archive. :func:`fetch_trees` instead walks down from the commit's tree to the
folders a run checks out, a level at a time, a request or two per level:

- each folder on the way (``data``, ``data/documents``, a year, a month, a partition), and
  each folder beside one of them, comes alone (``--filter=tree:0``: its own listing,
  nothing below). A sparse index keeps a folder outside the checkout as one entry, the
  id of its tree; git reads that tree itself (to prime its cache of trees) but nothing
  below it;
- each folder checked out comes whole, without file contents (``--filter=blob:none``);
  git fetches those, all at once, when it checks the files out. A folder whose own
  listing is already here (an earlier walk passed by it) is read, and what is missing
  below it asked for: git never asks a server for an object it has.

No deeper ``tree:<depth>`` filter is used: GitHub's servers allow ``tree:0``, not deeper.

So what a clone downloads follows the folders a run reads, not the archive's age. Every
request names objects by id (``git fetch origin <tree id>…``, which protocol v2 allows)
and sends no "have" lines (as git's own lazy fetch does), so the server
sends what was asked even though the commit that holds it is already here.

Which of the trees on a level are here already is read from one listing of the objects
the clone holds (:class:`Present`), never by asking git about each missing one: git looks
for an object it lacks by scanning its pack folder again, once per object, and the walk's
missing trees (the folders beside those a run reads, 256 buckets for every partition read
in part) number thousands once the documents still observed span the observation window,
in a clone that holds a pack per request made (``rev-list --missing``: 2,000 missing trees
took 8.6 s of CPU in a clone of 69 packs). The listing costs what the clone holds, which
follows one run's folders, not the archive's age.

When a request fails (a server that refuses objects by id, say), nothing is lost: the
walk stops, and git fetches what is still missing itself, as it would have without the
walk, more slowly. Outside a partial clone nothing is run.
"""

from __future__ import annotations

import logging
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Final

from quietedit.archive.gitcmd import git

logger = logging.getLogger(__name__)

_BATCH: Final = 2000
"""Object ids per request: one command line holds this many with room to spare."""


class Present:
    """The objects a clone holds, listed once (``git cat-file --batch-all-objects``, which
    reads the pack indexes and fetches nothing) and kept up to date with what each request
    brings; ``None`` when git could not list them (every object is then taken for absent:
    asking for one that is here only costs its bytes again)."""

    def __init__(self, top: Path) -> None:
        done = git(
            top,
            "cat-file",
            "--batch-all-objects",
            "--unordered",
            "--batch-check=%(objectname)",
        )
        listed = done is not None and done.returncode == 0
        self.oids: set[str] | None = set(done.stdout.split()) if listed and done else None

    def absent(self, oids: Iterable[str]) -> list[str]:
        """Those of ``oids`` not here (sorted), without asking git about any of them."""
        asked = sorted(set(oids))
        if self.oids is None:
            return asked
        return [oid for oid in asked if oid not in self.oids]

    def add(self, oids: Iterable[str]) -> None:
        """Mark ``oids`` as here (a request for them succeeded)."""
        if self.oids is not None:
            self.oids.update(oids)


@dataclass(frozen=True, slots=True)
class TreeFetch:
    """What :func:`fetch_trees` asked for: requests made, trees asked for, and whether a
    request failed (git then fetches what is missing itself)."""

    requests: int = 0
    trees: int = 0
    failed: bool = False


def promisor_remote(top: Path) -> str | None:
    """The remote a partial clone at ``top`` fetches missing objects from, or ``None``
    (not a partial clone, or not a git work tree)."""
    done = git(top, "config", "--get", "extensions.partialclone")  # git clone --filter
    if done is not None and done.returncode == 0 and done.stdout.strip():
        return done.stdout.strip()
    # git fetch --filter in a fresh repository (as actions/checkout does) marks the remote
    done = git(top, "config", "--bool", "--get-regexp", r"^remote\..*\.promisor$")
    if done is None or done.returncode != 0:
        return None
    for line in done.stdout.splitlines():
        key, _, value = line.partition(" ")
        if value.strip() == "true":
            return key.removeprefix("remote.").removesuffix(".promisor")
    return None


def fetch_trees(top: Path, folders: Iterable[str], *, revision: str = "HEAD") -> TreeFetch:
    """Fetch the trees a cone-mode sparse checkout of ``folders`` (paths relative to the
    work tree ``top``, as ``git sparse-checkout add`` takes them) needs at ``revision``,
    so that checking them out fetches no tree on its own; see the module's text."""
    remote = promisor_remote(top)
    if remote is None:
        return TreeFetch()
    wanted = {PurePosixPath(folder.strip().strip("/")) for folder in folders if folder.strip()}
    wanted.discard(PurePosixPath("."))
    parents: set[PurePosixPath] = {PurePosixPath(".")}
    for folder in wanted:
        parents.update(p for p in folder.parents)
    root = _commit_tree(top, revision)
    if root is None:
        return TreeFetch(failed=True)
    made = TreeFetch()
    level: dict[PurePosixPath, str] = {PurePosixPath("."): root}
    present = Present(top)
    made = _request(top, remote, "tree:0", present.absent([root]), made, present)
    while level and not made.failed:
        listed = _list_trees(top, level.values())
        below: dict[PurePosixPath, str] = {}
        whole: list[str] = []
        beside: list[str] = []
        for path, tree in level.items():
            for name, oid in listed.get(tree, ()):
                child = path / name
                if child in wanted:
                    whole.append(oid)
                elif child in parents:
                    below[child] = oid
                else:
                    beside.append(oid)
        made = _complete(top, remote, whole, made, present)
        # the folders on the way, and those left out beside them: their own listing only
        on_the_way = present.absent([*below.values(), *beside])
        made = _request(top, remote, "tree:0", on_the_way, made, present)
        level = below
    return made


def fetch_all_trees(top: Path, *, revision: str = "HEAD") -> TreeFetch:
    """Fetch every tree of ``revision`` not here yet, before a checkout of everything
    (which would otherwise ask for each missing folder on its own): the folders whose
    listing is here are read, and those below them not here asked for whole, a level at a
    time."""
    remote = promisor_remote(top)
    root = _commit_tree(top, revision) if remote is not None else None
    if remote is None or root is None:
        return TreeFetch()
    return _complete(top, remote, [root], TreeFetch(), Present(top))


def _commit_tree(top: Path, revision: str) -> str | None:
    """The id of ``revision``'s tree, read from the commit (which a ``tree:0`` clone has)."""
    done = git(top, "cat-file", "commit", revision)
    if done is None or done.returncode != 0:
        return None
    first = done.stdout.split("\n", 1)[0].split()
    return first[1] if len(first) == 2 and first[0] == "tree" else None


def _list_trees(top: Path, trees: Iterable[str]) -> dict[str, list[tuple[str, str]]]:
    """The folders listed in each of ``trees`` (all here), as (name, tree id), read by one
    ``git cat-file --batch``."""
    asked = sorted(set(trees))
    if not asked:
        return {}
    try:
        done = subprocess.run(
            ["git", "cat-file", "--batch"],  # noqa: S607 - git as found on PATH
            cwd=top,
            input=("\n".join(asked) + "\n").encode("ascii"),
            capture_output=True,
            check=False,
        )
    except (FileNotFoundError, NotADirectoryError):
        return {}
    if done.returncode != 0:
        return {}
    out, at, found = done.stdout, 0, {}
    while at < len(out):
        header_end = out.index(b"\n", at)
        header = out[at:header_end].split()
        if len(header) != 3:  # "<id> missing": not here after all
            at = header_end + 1
            continue
        size = int(header[2])
        body = out[header_end + 1 : header_end + 1 + size]
        at = header_end + 1 + size + 1
        if header[1] == b"tree":
            found[header[0].decode("ascii")] = _folders(body)
    return found


def _folders(body: bytes) -> list[tuple[str, str]]:
    """The (name, tree id) of each folder in a raw tree object: entries of ``<mode> <name>
    NUL <20-byte id>`` (SHA-1 repositories, as GitHub's are), a folder's mode ``40000``."""
    found, at = [], 0
    while at < len(body):
        space = body.index(b" ", at)
        nul = body.index(b"\0", space)
        oid = body[nul + 1 : nul + 21].hex()
        if body[at:space] == b"40000":
            found.append((body[space + 1 : nul].decode("utf-8", "surrogateescape"), oid))
        at = nul + 21
    return found


def _complete(
    top: Path, remote: str, trees: Sequence[str], made: TreeFetch, present: Present
) -> TreeFetch:
    """``made`` and the requests that bring every listing below ``trees``: those not here
    whole (``blob:none``); of those here (an earlier walk fetched them as a folder on the
    way or beside it, without what is below), the folders in them, and so on down. A
    request for a tree already here would bring nothing: git asks only for what it lacks.
    What a ``blob:none`` request brings below the trees it names is not added to
    ``present``: the walk never asks about it again."""
    queue = sorted(set(trees))
    while queue and not made.failed:
        absent = present.absent(queue)
        made = _request(top, remote, "blob:none", absent, made, present)
        missing = set(absent)
        here = [oid for oid in queue if oid not in missing]
        listed = _list_trees(top, here)
        queue = sorted({oid for tree in here for _, oid in listed.get(tree, ())})
    return made


def _request(
    top: Path,
    remote: str,
    filter_spec: str,
    oids: Sequence[str],
    made: TreeFetch,
    present: Present,
) -> TreeFetch:
    """``made`` and a request for ``oids`` (none when empty or when one failed before),
    marked in ``present`` once brought."""
    if made.failed or not oids:
        return made
    done = _fetch(top, remote, filter_spec, oids)
    if done:
        present.add(oids)
    return TreeFetch(made.requests + 1, made.trees + len(oids), failed=not done)


def _fetch(top: Path, remote: str, filter_spec: str, oids: Sequence[str]) -> bool:
    """One request per batch of ``oids`` with ``filter_spec``, no "have" lines sent."""
    for start in range(0, len(oids), _BATCH):
        done = git(
            top,
            "-c",
            "fetch.negotiationAlgorithm=noop",
            "fetch",
            "--quiet",
            "--no-tags",
            "--no-write-fetch-head",
            "--recurse-submodules=no",
            f"--filter={filter_spec}",
            remote,
            *oids[start : start + _BATCH],
        )
        if done is None or done.returncode != 0:
            reason = "git is missing" if done is None else done.stderr.strip()
            logger.warning("could not fetch trees by id (git will fetch them itself): %s", reason)
            return False
    return True
