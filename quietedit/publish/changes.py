"""The one place the site asks the analysis what changed between two revisions.

The site depends only on the documented JSON forms (docs/diff-json.md):
``RevisionDiff.to_dict()`` and ``Classification.to_dict()``. Everything downstream (pages,
feeds, API, cache) reads these dicts, so a change inside ``quietedit.analysis`` reaches the
site through its documented format or not at all.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import quietedit.analysis
from quietedit.analysis import ExternalSignals, classify_change, diff_revisions
from quietedit.analysis.diff import DIFF_SCHEMA
from quietedit.analysis.segment import thai_segmenter
from quietedit.archive.records import claims_changed
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


def compare_revisions(old: Revision, new: Revision) -> Comparison:
    """Diff and classify ``old`` → ``new`` (a pure function of the two revisions)."""
    diff = diff_revisions(old, new)
    # what the feeds and sitemaps claimed at each fetch, as the revisions recorded it
    signals = ExternalSignals(**claims_changed(old, new))
    classification = classify_change(old, new, diff=diff, signals=signals)
    return Comparison(diff.to_dict(), classification.to_dict())


def pair_key(old: Revision, new: Revision) -> str:
    """The cache key of one comparison: both revisions' hashes and the analysis version."""
    return f"{ANALYSIS_VERSION}:{old.hash}:{new.hash}"
