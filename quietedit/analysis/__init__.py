"""Diffs and change classification (pure): what changed, what kind, did the publisher say so.

``diff_revisions`` aligns two revisions paragraph by paragraph (kept, changed, moved, split,
merged, added, removed) and diffs the words of every paired block; ``classify_change``
names the kinds of change with their evidence, grades the significance and gives the
"silent" verdict against the publisher's own signals. Nothing here does I/O or reads a
clock: revisions in, values out.

Names here load on first use: a command that needs one small module of the package (the
settings read the kinds' names, the catalogue the watched terms' rules) does not load
the classifier behind these names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quietedit.lazy import lazy_exports

if TYPE_CHECKING:
    from quietedit.analysis.classify import Classification, classify_change
    from quietedit.analysis.diff import BlockChange, RevisionDiff, TitleChange, diff_revisions
    from quietedit.analysis.findings import Finding, Significance
    from quietedit.analysis.signals import ExternalSignals, Signal

_EXPORTS = {
    "Classification": "quietedit.analysis.classify",
    "classify_change": "quietedit.analysis.classify",
    "BlockChange": "quietedit.analysis.diff",
    "RevisionDiff": "quietedit.analysis.diff",
    "TitleChange": "quietedit.analysis.diff",
    "diff_revisions": "quietedit.analysis.diff",
    "Finding": "quietedit.analysis.findings",
    "Significance": "quietedit.analysis.findings",
    "ExternalSignals": "quietedit.analysis.signals",
    "Signal": "quietedit.analysis.signals",
}

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

__getattr__ = lazy_exports(__name__, _EXPORTS)
