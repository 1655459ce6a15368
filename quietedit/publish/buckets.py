"""The tree id each bucket's documents make, as the build cache keeps it.

A document's folder sits in a bucket of its partition (``YYYY/MM/DD/<bb>``), whose git
tree id moves only when one of its documents changes. A bucket whose every document the
build stamped with its folder's tree id (``treeids``) has, while those documents stay as
built, the tree id those stamps make (:func:`bucket_trees`: the hash of the tree git would
write for them); an hourly build compares it with the commit's to keep a bucket's
documents unread (``committed.built_buckets``).

Every hour the checks of the documents still observed move some forty partitions' tree
ids (at day 35 of ``bench/year.py``'s archive, about 7,100 buckets an hour). Made anew
from every one of those documents' stamps each hour, these ids took 0.3 s of a profiled
hourly build; so the cache keeps them in its ``buckets`` table, and a build makes anew
those of the buckets whose documents it wrote or deleted (:func:`refresh`, in the
transaction that writes their rows), or all of them when it writes the cache whole.
"""

from __future__ import annotations

import itertools
import json
import operator
import sqlite3
from collections.abc import Iterable
from typing import Final

from quietedit.archive.treeids import PREFIX, folder_tree

TABLE: Final = (
    "CREATE TABLE buckets (bucket TEXT PRIMARY KEY, tree TEXT NOT NULL) STRICT, WITHOUT ROWID"
)
"""Bucket → the tree id its documents' stamps make; none for a bucket with a document
stamped otherwise (of file times)."""
IN_PARTITIONS: Final = (
    "SELECT b.bucket, b.tree FROM json_each(?) AS p JOIN buckets AS b"
    " ON b.bucket > p.value || '/' AND b.bucket < p.value || '0'"
)
"""The rows of the buckets of some partitions (a JSON list): a range of the table's key
each (``/`` sorts just before ``0``)."""
_ROWS_OF: Final = (
    "SELECT id, stamp, partition FROM documents"
    " WHERE partition IN (SELECT value FROM json_each(?))"
    " AND partition || '/' || substr(id, -16, 2) IN (SELECT value FROM json_each(?))"
)


def bucket_key(partition: str, doc: str) -> str:
    """``YYYY/MM/DD/<bb>``: the bucket of a document of ``partition``, as
    ``layout.bucket_of`` names it (a row's id is a document id; were it not, its bucket
    would be listed, as the tree ids would differ)."""
    return f"{partition}/{doc[-16:-14]}"


def bucket_trees(rows: Iterable[tuple[str, str, str]]) -> dict[str, str]:
    """Bucket → the tree id its documents make, from their ``(id, stamp, partition)``
    rows: for the buckets whose every document is stamped with a tree id."""
    trees: dict[str, dict[str, str]] = {}
    unsure: set[str] = set()  # a document stamped otherwise: no id for its bucket
    for doc, stamp, partition in rows:
        bucket = bucket_key(partition, doc)
        if stamp.startswith(PREFIX):
            trees.setdefault(bucket, {})[doc] = stamp[len(PREFIX) :]
        else:
            unsure.add(bucket)
    found = {}
    for bucket, docs in trees.items():
        if bucket not in unsure and (tree := folder_tree(docs)) is not None:
            found[bucket] = tree
    return found


def refresh(db: sqlite3.Connection, touched: Iterable[str] | None) -> None:
    """Make the ``buckets`` rows of the ``touched`` buckets (those whose documents' rows
    were written or deleted) what their documents' rows make now; ``None``: of every
    bucket (a cache written whole). In the caller's transaction."""
    trees: dict[str, str] = {}
    if touched is None:
        db.execute("DELETE FROM buckets")
        # a partition's rows at a time (a year's are 365,000 at 1,000 articles a day)
        rows = db.execute("SELECT id, stamp, partition FROM documents ORDER BY partition")
        for _, group in itertools.groupby(rows, key=operator.itemgetter(2)):
            trees.update(bucket_trees(group))
    else:
        stale = sorted(set(touched))
        if not stale:
            return
        partitions = sorted({bucket.rpartition("/")[0] for bucket in stale})
        db.executemany("DELETE FROM buckets WHERE bucket = ?", [(b,) for b in stale])
        trees = bucket_trees(db.execute(_ROWS_OF, (json.dumps(partitions), json.dumps(stale))))
    db.executemany("INSERT INTO buckets VALUES (?, ?)", sorted(trees.items()))
