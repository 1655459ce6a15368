"""A document's comparisons: each pair of revisions compared once, kept between builds.

Rendering a changed document needs the diff and the classification of each consecutive
pair of its revisions (:func:`~quietedit.publish.changes.compare_revisions`, the costly
part of rendering). What a build computed is kept in the build cache, one file per
document, ``diffs/<id>.json``, by :func:`~quietedit.publish.changes.pair_key` (the two
revisions, their live blog's posts and the analysis's version), so that the next build
rendering the document compares only the pairs it has not seen. The same file keeps the
keys of the document's share images, under :data:`SHARE_KEY`. A missing or unreadable
file is no file: every pair is compared again; a full build reads none.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path

from quietedit.model import JSON
from quietedit.publish.changes import Comparison, LivePair, compare_revisions, pair_key
from quietedit.revisions import Revision

SHARE_KEY = "share"
"""The entry of a document's ``diffs/<id>.json`` that keeps its share images' keys (no
pair key looks like it)."""


def comparisons_file(cache_root: Path, doc: str) -> Path:
    """``diffs/<id>.json`` in the build cache ``cache_root``: the document's comparisons."""
    return cache_root / "diffs" / f"{doc}.json"


def read_comparisons(path: Path) -> dict[str, JSON] | None:
    """The records kept in ``path`` by pair key; ``None`` when it is missing or unreadable."""
    try:
        record = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def save_comparisons(path: Path, comparisons: dict[str, JSON]) -> None:
    """Keep ``comparisons`` in ``path`` (written whole, then renamed into place); none
    (a document of one revision) removes the file."""
    if not comparisons:  # one revision: nothing computed, nothing to keep
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(comparisons, separators=(",", ":")), "utf-8")
    tmp.replace(path)


def compare_pairs(
    revisions: Sequence[Revision],
    *,
    live: Callable[[int, int], LivePair | None],
    kept: dict[str, JSON] | None,
) -> tuple[list[Comparison], dict[str, JSON]]:
    """The comparison of each consecutive pair of ``revisions``, read from ``kept`` (what
    :func:`read_comparisons` found) where it holds the pair's key, else computed; and the
    records to keep, by pair key. ``live`` gives a pair's live-blog posts
    (:func:`~quietedit.publish.live.live_pairs`): they are no part of its edit."""
    comparisons: list[Comparison] = []
    records: dict[str, JSON] = {}
    for old, new in pairwise(revisions):
        pair = live(old.number, new.number)
        key = pair_key(old, new, live=pair)
        found = kept.get(key) if kept is not None else None
        comparison = Comparison.from_record(found) if isinstance(found, dict) else None
        if comparison is None:
            comparison = compare_revisions(old, new, live=pair)
        comparisons.append(comparison)
        records[key] = comparison.to_record()
    return comparisons, records
