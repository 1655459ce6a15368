"""The documents a commit changed while the checkout leaves them out.

An hourly job checks out only the documents still observed (``quietedit sparse-paths``);
the build keeps the pages of the others as the previous build left them. A commit can
still change one of those: a derived record written by ``quietedit reextract`` (shown
when ``settings.site.reextracted`` is on), an edit pushed from another clone. The
signal is git's tree ids (:mod:`quietedit.archive.treeids`): the build records the tree
id of each partition it built from (``trees.json`` in the build cache); the next build
lists the buckets of the partitions whose id moved, then the documents of the buckets
whose id is not the one the recorded stamps of their documents make (the hash of the
tree git would write for them: :func:`built_buckets`), and reads again each one left out
whose folder's tree id is not its recorded stamp (fetching its folder into the sparse
checkout). The partitions that did not move cost nothing more than their id.

A document whose recorded stamp is of file times (built outside git, or before this
signal) cannot be compared: in a partition that moved it is read again; without a
record of the partitions (a cache from before this signal) it is left as it was, as
before.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Final

from quietedit.archive.store import Archive
from quietedit.archive.treeids import PREFIX, Listing, Trees
from quietedit.article.identity import is_document_id
from quietedit.errors import QuieteditError
from quietedit.publish import buckets
from quietedit.publish.buildcache import BuildState

TREES_FILE: Final = "trees.json"
"""In the build cache: year, month and partition → the tree id its documents were built
from (:attr:`~quietedit.archive.treeids.Trees.folders`)."""
_STAMPS_OF: Final = "SELECT id, stamp FROM documents WHERE id IN (SELECT value FROM json_each(?))"


def recorded(cache_root: Path) -> dict[str, str] | None:
    """The partitions' tree ids the previous build recorded; ``None`` when there are none
    (outside git, or a cache from before this record) or the file is unreadable."""
    try:
        found = json.loads((cache_root / TREES_FILE).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in found.items()
    ):
        return None
    return found


def record(cache_root: Path, trees: Trees | None, *, unsure: Iterable[str]) -> None:
    """Write the folders' tree ids this build read, less the ``unsure`` partitions (where
    a document failed: the next build looks at them again), those whose files differ
    from the commit (``Trees.changed``: built from files the tree id does not name) and
    their months and years; remove the record outside git. Written under a temporary
    name, then renamed.

    So a partition recorded is one whose every document this build read was as committed
    under that tree id, and stamped with its folder's tree id (:func:`settled`)."""
    path = cache_root / TREES_FILE
    if trees is None:
        path.unlink(missing_ok=True)
        return
    # an unsure partition's month and year too: a folder recorded is one whose every
    # folder below is recorded (treeids.read does not look below it)
    skip = {"/".join(p.split("/")[:n]) for p in {*unsure, *trees.changed} for n in (1, 2, 3)}
    kept = {p: tree for p, tree in sorted(trees.folders.items()) if p not in skip}
    cache_root.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(kept, separators=(",", ":")), encoding="utf-8")
    os.replace(temporary, path)


def forget(cache_root: Path) -> None:
    """Remove the record before the cache is written: a build stopped between the two
    must not leave a record that another cache's rows do not match (the next build then
    reads every partition on disk, as without a record)."""
    (cache_root / TREES_FILE).unlink(missing_ok=True)


def settled(trees: Trees | None, before: dict[str, str] | None, present: Iterable[str]) -> set[str]:
    """The partitions of ``present`` (on disk) whose documents an hourly build need not
    list, stamp or look up: the previous build recorded them (``before``, see
    :func:`record`) under the tree id the commit holds now, and no file in them differs
    from the commit (``git status``). Every document in such a partition is what that
    build read, stamped as it stamped it, so its row and pages stay as they are, as those
    of a document the checkout leaves out do; none without a record or outside git."""
    if trees is None or before is None:
        return set()
    folders = trees.folders
    return {
        p for p in present if p not in trees.changed and p in before and folders.get(p) == before[p]
    }


def moved(trees: Trees | None, before: dict[str, str] | None) -> list[str]:
    """The partitions whose tree id is not the one ``before`` recorded (every partition
    without a record; none outside git)."""
    if trees is None:
        return []
    return [p for p, tree in trees.partitions.items() if before is None or before.get(p) != tree]


def changed_outside(
    trees: Trees | None,
    before: dict[str, str] | None,
    previous: BuildState,
    found: dict[str, str],
    outside: Callable[[str, str], bool],
    *,
    listing: Listing | None = None,
) -> dict[str, str]:
    """Document → its new stamp, for every document the checkout leaves out (not in
    ``found``, ``outside`` says so) that the commit holds otherwise than its previous
    build (``previous``) recorded, in the partitions whose tree id moved since ``before``
    (:func:`moved`; then only tree-id stamps are compared without a record). Only
    documents the cache holds are compared: a new document is written to the current
    partition, which the hourly job checks out. ``listing``: what ``trees.listing`` found
    in (at least) those partitions, the buckets :func:`built_buckets` gives left out, when
    the caller has it."""
    if trees is None or not previous.loaded:
        return {}
    if listing is None:
        partitions = moved(trees, before)
        listing = trees.listing(partitions, unchanged=built_buckets(previous, partitions))
    listed = {d: pt for d, pt in listing.documents.items() if d not in found}
    stamps: dict[str, str] = {}
    ids = sorted(listed)
    for start in range(0, len(ids), 500):
        part = json.dumps(ids[start : start + 500])
        stamps.update((str(d), str(s)) for d, s in previous.query(_STAMPS_OF, (part,)))
    changed = {}
    for doc, (partition, tree) in listed.items():
        stamp = trees.stamp(tree)
        old = stamps.get(doc)
        if old == stamp or (before is None and not (old or PREFIX).startswith(PREFIX)):
            continue
        if old is None:
            continue  # never built (a new document lands in today's partition, on disk)
        if outside(partition, doc):
            changed[doc] = stamp
    return changed


def built_buckets(previous: BuildState, partitions: Iterable[str]) -> dict[str, str]:
    """Bucket (``YYYY/MM/DD/<bb>``) → the tree id it has when each of its documents is
    as ``previous`` built it, for the buckets of ``partitions`` whose every document
    the build stamped with its folder's tree id (as the cache keeps them: ``buckets``).
    A revision or a derived record moves the tree id of its document's bucket; the other
    buckets of a partition that moved are known unchanged without listing their
    documents (all the documents of the about 38 partitions nine hours of revisions moved
    at day 90 of ``bench/year.py``'s archive, 38,000, against those of the buckets the
    revisions touched)."""
    found = previous.query(buckets.IN_PARTITIONS, (json.dumps(sorted(set(partitions))),))
    return {str(bucket): str(tree) for bucket, tree in found}


def failed_partitions(archive: Archive, failures: Iterable[str]) -> set[str]:
    """The partitions of the documents that failed (``unsure`` for :func:`record`: looked at
    again by the next build)."""
    found = set()
    for doc in failures:
        with contextlib.suppress(QuieteditError):
            partition = archive.partition(doc) if is_document_id(doc) else None
            if partition is not None:
                found.add(partition)
    return found
