"""What ``quietedit verify --since`` needs of a sparse checkout (I/O): the documents a
partition's checks file names that the checkout leaves out, looked up in the commit, and
the index shards of the documents that changed, fetched at once.

The hourly job's clone holds no tree it did not ask for, and no index shard its run did
not read: each lookup here is made in a request or two for all, never one fetch of git's
own per folder (117 s of CPU at day 7 of ``bench/year.py`` when the bucket folders of a
checks file were looked up that way, against 5 s).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from quietedit.archive.audit import Change, Repository
from quietedit.archive.gittrees import fetch_trees
from quietedit.archive.layout import (
    DOCUMENT_FILE,
    Layout,
    bucket_of,
    classify_flat_path,
    classify_path,
    index_shard,
)
from quietedit.archive.sparse import Cone, fetch_folders


def documents_left_out(
    repository: Repository, cone: Cone | None, partition: Path, names: list[str]
) -> set[str]:
    """Which of ``names`` (documents of the ``partition`` folder, not on disk) are outside
    the sparse checkout ``cone`` (``None``: not a sparse checkout) and have a record in
    the commit checked out."""
    if cone is None:
        return set()  # not a sparse checkout: everything is on disk
    folder = partition.resolve()
    outside = [
        name
        for name in names
        if not cone.holds(folder / bucket_of(name) / name) and not cone.holds(folder / name)
    ]
    if not outside:
        return set()
    base = partition.resolve().relative_to(repository.top.resolve()).as_posix()
    fetch_trees(repository.top, sorted({f"{base}/{bucket_of(n)}" for n in outside}))
    paths = [f"{base}/{bucket_of(name)}/{name}/{DOCUMENT_FILE}" for name in outside]
    paths += [f"{base}/{name}/{DOCUMENT_FILE}" for name in outside]  # not bucketed yet
    listed = repository.git("ls-tree", "--name-only", "-z", "HEAD", "--", *paths)
    found = {PurePosixPath(line).parent.name for line in listed.split("\0") if line}
    return found & set(outside)


def bring_index_shards(root: Path, changes: Iterable[Change]) -> int:
    """Bring the index shard folders of the documents ``changes`` touch that a sparse
    checkout leaves out (the run read those documents through the list of documents
    still observed, not their shards) into it at once; how many were added. Nothing is
    raised: a shard still missing is reported by the check that reads it."""
    layout = Layout(root)
    shards = set()
    for change in changes:
        placed = classify_path(change.path) or classify_flat_path(change.path)
        if placed is not None and "id" in placed[1]:
            shards.add(index_shard(placed[1]["id"]))
    missing = [folder for folder in map(layout.index_folder, sorted(shards)) if not folder.is_dir()]
    return fetch_folders(root, missing) if missing else 0
