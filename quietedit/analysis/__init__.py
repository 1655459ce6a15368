"""Diffs and change classification (pure): what changed, what kind, did the publisher say so.

``diff_revisions`` aligns two revisions paragraph by paragraph (kept, changed, moved, split,
merged, added, removed) and diffs the words of every paired block; ``classify_change``
names the kinds of change with their evidence, grades the significance and gives the
"silent" verdict against the publisher's own signals. Nothing here does I/O or reads a
clock: revisions in, values out.
"""

from __future__ import annotations

from quietedit.analysis.classify import Classification, classify_change
from quietedit.analysis.diff import BlockChange, RevisionDiff, TitleChange, diff_revisions
from quietedit.analysis.findings import Finding, Significance
from quietedit.analysis.signals import ExternalSignals, Signal

__all__ = [
    "BlockChange",
    "Classification",
    "ExternalSignals",
    "Finding",
    "RevisionDiff",
    "Signal",
    "Significance",
    "TitleChange",
    "classify_change",
    "diff_revisions",
]
