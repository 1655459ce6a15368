"""The site build's shallow reads of the document folders: a stamp and a content key each.

An incremental build must tell the documents that changed since its last build from the
others without parsing a revision. A *stamp* (:func:`document_stamps`) is the cheap test:
equal stamps mean unchanged files. A changed stamp only says to compute the *content key*
(:func:`content_key`), a hash of what the folder holds: equal keys mean equal content.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from quietedit.archive import treeids
from quietedit.archive.files import listdir
from quietedit.archive.layout import (
    BUCKET_PATTERN,
    DERIVED_FOLDER,
    DOCUMENT_FILE,
    EVENTS_FOLDER,
    REVISIONS_FOLDER,
)
from quietedit.errors import ArchiveError


def document_stamps(
    documents_dir: Path,
    partitions: Iterable[str],
    trees: treeids.Trees | None = None,
    *,
    listing: treeids.Listing | None = None,
) -> dict[str, str]:
    """Every document folder holding a record in ``partitions`` (the partition folders
    under ``documents_dir``), by name, sorted → its *stamp*.

    In a git checkout (``trees``, :func:`treeids.read`), the stamp of a document
    whose files are as committed is its folder's tree id, which survives a clone.
    Else a stamp is read with three ``stat`` calls and no file opened: the modification
    times of the record and of the revision and event folders (and of the derived
    folder, when there is one). A new revision or event moves its folder's time and a
    rewritten record (replaced by a rename) its own, so an
    unchanged stamp means unchanged files, short of someone resetting times by hand. A
    changed stamp only says to look again with :func:`content_key`. Folder names that
    are not document ids are included, for the caller to report.

    ``listing``: what ``trees.listing`` found in ``partitions`` (else it is asked here);
    the documents of the buckets it did not list (known unchanged) are left out, their
    folders not even listed.
    """
    found = {}
    present = list(partitions)
    if listing is None and trees is not None:
        listing = trees.listing(present)
    committed = listing.documents if listing is not None else {}
    skipped: dict[str, set[str]] = {}  # partition → names of its buckets left out
    for bucket in listing.unchanged if listing is not None else ():
        partition, _, name = bucket.rpartition("/")
        skipped.setdefault(partition, set()).add(name)
    for partition in present:
        root = os.path.join(documents_dir, partition)
        for name, home in _homes(root, skipped.get(partition, set())):
            try:
                times = [str(os.stat(os.path.join(home, DOCUMENT_FILE)).st_mtime_ns)]
            except (FileNotFoundError, NotADirectoryError):
                continue  # not a document (yet): revisions never come before the record
            tree = committed.get(name, ("", ""))
            clean = trees is not None and name not in trees.dirty  # as committed
            if clean and tree[0] == partition:
                found[name] = treeids.PREFIX + tree[1]
                continue
            for folder in (REVISIONS_FOLDER, EVENTS_FOLDER):
                try:
                    times.append(str(os.stat(os.path.join(home, folder)).st_mtime_ns))
                except FileNotFoundError:
                    times.append("-")
            with contextlib.suppress(FileNotFoundError):  # re-extractions, when any
                times.append(str(os.stat(os.path.join(home, DERIVED_FOLDER)).st_mtime_ns))
            found[name] = " ".join(times)
    return dict(sorted(found.items()))


def _homes(partition: str, skipped: set[str]) -> list[tuple[str, str]]:
    """(name, path) of each folder in the buckets of the ``partition`` folder but the
    ``skipped`` ones (by name), and of each folder directly in it that is not a bucket
    (one ``quietedit migrate`` has not moved into its bucket yet, or a stray folder, for
    the caller to report)."""
    found: list[tuple[str, str]] = []
    for name in listdir(Path(partition)):
        path = os.path.join(partition, name)
        if BUCKET_PATTERN.fullmatch(name):
            if name in skipped:
                continue
            found.extend((inner, os.path.join(path, inner)) for inner in listdir(Path(path)))
        else:
            found.append((name, path))
    return found


def content_key(record: Path) -> str:
    """A hash of everything the document whose record file is ``record`` holds (the record,
    its revisions, events and derived records), read without parsing a revision: equal keys
    mean equal content.

    Revision, event and derived files are create-only and numbered, so their names fix the set
    and the newest file's bytes fix the content (a revision's hash chains every older
    one; an event is never rewritten). Raises ``ArchiveError`` when a file cannot be
    read.
    """
    digest = hashlib.sha256()
    try:
        digest.update(record.read_bytes())
        home = record.parent
        for folder in (home / REVISIONS_FOLDER, home / EVENTS_FOLDER, home / DERIVED_FOLDER):
            try:
                names = [n for n in os.listdir(folder) if n.endswith(".json")]
            except FileNotFoundError:
                names = []
            if folder.name == DERIVED_FOLDER and not names:
                continue  # no re-extraction: the key of a document without one is as before
            digest.update(f"\0{len(names)}\0".encode())
            if names:
                newest = max(names, key=lambda n: (len(n), n))  # numbers may outgrow padding
                digest.update(newest.encode() + b"\0")
                digest.update((folder / newest).read_bytes())
    except OSError as exc:
        raise ArchiveError(
            record.parent, f"cannot read: {exc.strerror}; run quietedit verify"
        ) from exc
    return digest.hexdigest()
