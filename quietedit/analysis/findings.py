"""The classification vocabulary: kinds of change, their significance, and a finding.

==================  =====================================================================
kind                the rule (evidence names the place: ``title``, ``block N`` counted
                    from 1 in the new revision, ``old block N`` in the old one)
==================  =====================================================================
typo                quote marks, dashes, spacing, punctuation, capitals, or a word
                    respelt within two letters; cosmetic, minor for a respelling
style               words reworded in a block or the title; minor up to 4 words, else
                    moderate
headline            the title changed; cosmetic to moderate by how deep the change goes
lede                the first paragraph reworded, replaced, or a new one put before it;
                    moderate
facts               numbers, dates or names changed (a number written differently
                    counts); substantive, never cosmetic
quote               text inside quotation marks (or a quote block) changed or removed:
                    substantive; only added: moderate
added               blocks added, or a passage of 5+ words added inside a block;
                    moderate (minor under 8 words)
removed             blocks removed, or a passage of 5+ words cut from a block;
                    substantive (minor under 8 words with no number)
moved               a block moved to another place; minor
paragraphing        a block split in several, or several merged; cosmetic
correction          a correction or editor's note added, in the page's notes or in the
                    text; substantive
byline              the authors changed; minor
encoding-repair     mojibake or U+FFFD in the old revision fixed in the new; cosmetic
index-line-rewrite  a ticker rewrote its own index line (entries added, dropped,
                    reordered); cosmetic
live-update         timestamped entries added to a live blog or ticker; minor
==================  =====================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from quietedit.model import JSON

TYPO: Final = "typo"
STYLE: Final = "style"
HEADLINE: Final = "headline"
LEDE: Final = "lede"
FACTS: Final = "facts"
QUOTE: Final = "quote"
ADDED: Final = "added"
REMOVED: Final = "removed"
MOVED: Final = "moved"
PARAGRAPHING: Final = "paragraphing"
CORRECTION: Final = "correction"
BYLINE: Final = "byline"
ENCODING_REPAIR: Final = "encoding-repair"
INDEX_LINE_REWRITE: Final = "index-line-rewrite"
LIVE_UPDATE: Final = "live-update"
KINDS: Final = (
    ADDED, BYLINE, CORRECTION, ENCODING_REPAIR, FACTS, HEADLINE, INDEX_LINE_REWRITE,
    LEDE, LIVE_UPDATE, MOVED, PARAGRAPHING, QUOTE, REMOVED, STYLE, TYPO,
)  # fmt: skip
"""Every kind a finding can have, sorted."""

MAX_EVIDENCE: Final = 12
"""Evidence lines kept per finding; the rest are counted in a last line."""


class Significance(IntEnum):
    """How much a change matters, ordered: cosmetic < minor < moderate < substantive."""

    COSMETIC = 0
    MINOR = 1
    MODERATE = 2
    SUBSTANTIVE = 3

    @property
    def label(self) -> str:
        """The name used in JSON and on the site (``"cosmetic"`` …)."""
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class Finding:
    """One kind of change found, how much it matters, and the evidence (one line each)."""

    kind: str
    significance: Significance
    evidence: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"finding kind {self.kind!r} is not one of {list(KINDS)}")

    def to_dict(self) -> dict[str, JSON]:
        return {"significance": self.significance.label, "evidence": list(self.evidence)}


def finding(kind: str, significance: Significance, evidence: list[str]) -> Finding:
    """A finding whose evidence is cut to ``MAX_EVIDENCE`` lines, the rest counted."""
    lines = evidence[:MAX_EVIDENCE]
    if len(evidence) > MAX_EVIDENCE:
        lines.append(f"… and {len(evidence) - MAX_EVIDENCE} more")
    return Finding(kind, significance, tuple(lines))
