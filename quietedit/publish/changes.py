"""The one place the site asks the analysis what changed between two revisions.

The site depends only on the documented JSON forms (docs/diff-json.md):
``RevisionDiff.to_dict()`` and ``Classification.to_dict()``. Everything downstream (pages,
feeds, API, cache) reads these dicts, so a change inside ``quietedit.analysis`` reaches the
site through its documented format or not at all.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

import quietedit.analysis
from quietedit.analysis import ExternalSignals, classify_change, diff_revisions
from quietedit.analysis.diff import DIFF_SCHEMA
from quietedit.analysis.liveblog import PublishedPost, in_revision_terms, live_projection
from quietedit.analysis.segment import thai_segmenter
from quietedit.archive.records import claims_changed
from quietedit.article.liveblog import LiveEntry
from quietedit.model import JSON
from quietedit.revisions import Revision


def _analysis_version() -> str:
    """The Diff JSON schema plus a hash of the analysis code and of the Thai segmenter in
    use: any change to how diffs or classifications are made invalidates the cached ones."""
    digest = hashlib.sha256()
    for path in sorted(Path(quietedit.analysis.__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update(thai_segmenter().encode())
    return f"diff-json-{DIFF_SCHEMA}-{digest.hexdigest()[:16]}"


ANALYSIS_VERSION: Final = _analysis_version()
"""Part of every cached comparison's key and of the build fingerprint."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """The diff and the classification of one pair of revisions, as documented JSON."""

    diff: dict[str, JSON]
    classification: dict[str, JSON]

    def to_record(self) -> dict[str, JSON]:
        return {"classification": self.classification, "diff": self.diff}

    @classmethod
    def from_record(cls, record: dict[str, JSON]) -> Comparison | None:
        """Read :meth:`to_record`'s output; ``None`` for a malformed record."""
        diff, classification = record.get("diff"), record.get("classification")
        if isinstance(diff, dict) and isinstance(classification, dict):
            return cls(diff, classification)
        return None


@dataclass(frozen=True, slots=True)
class LivePair:
    """The posts of two revisions of a live blog as block ranges, the posts live updates
    published between them (newest first) and the keys of the posts the new revision's
    check found deleted, ``None`` if unknown (:mod:`quietedit.analysis.liveblog`)."""

    old: tuple[LiveEntry, ...]
    new: tuple[LiveEntry, ...]
    published: tuple[PublishedPost, ...] = ()
    removed: frozenset[str] | None = None


def compare_revisions(old: Revision, new: Revision, *, live: LivePair | None = None) -> Comparison:
    """Diff and classify ``old`` → ``new`` (a pure function of the two revisions, and of
    their posts' layouts for a live blog: posts published or paged out between the two are
    no part of the edit)."""
    # what the feeds and sitemaps claimed at each fetch, as the revisions recorded it
    signals = ExternalSignals(**claims_changed(old, new))
    if live is None:
        diff = diff_revisions(old, new)
        classification = classify_change(old, new, diff=diff, signals=signals)
        return Comparison(diff.to_dict(), classification.to_dict())
    projection = live_projection(
        old.article,
        new.article,
        live.old,
        live.new,
        published=live.published,
        removed=live.removed,
    )
    before = replace(old, observation=replace(old.observation, article=projection.old))
    after = replace(new, observation=replace(new.observation, article=projection.new))
    diff = diff_revisions(before, after)
    classification = classify_change(before, after, diff=diff, signals=signals)
    return Comparison(*in_revision_terms(diff.to_dict(), classification.to_dict(), projection))


def pair_key(old: Revision, new: Revision, *, live: LivePair | None = None) -> str:
    """The cache key of one comparison: both revisions' hashes and the analysis version
    (and, for a live blog's pair, the posts compared)."""
    key = f"{ANALYSIS_VERSION}:{old.hash}:{new.hash}"
    if live is None:
        return key
    removed = None if live.removed is None else sorted(live.removed)
    posts = repr((live.old, live.new, live.published, removed))
    return f"{key}:live-{hashlib.sha256(posts.encode()).hexdigest()[:16]}"
