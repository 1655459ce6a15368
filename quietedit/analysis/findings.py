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
facts               a number, date or name of a changed phrase differs (a number written
                    differently counts; a name written shorter or longer does not);
                    substantive, never cosmetic
quote               text inside quotation marks (or a quote block) changed or removed:
                    substantive; only added: moderate
added               blocks added, or a passage of 5+ words added inside a block (or a
                    clause replaced by one saying something else); moderate (minor
                    under 8 words)
removed             blocks removed, or a passage of 5+ words cut from a block (or
                    replaced); substantive (minor under 8 words with no number)
moved               a block moved to another place; minor
paragraphing        a block split in several, or several merged; cosmetic
correction          a note admitting an error added ("Correction: …", "An earlier version
                    of this article misstated …"), in the page's notes or in the text;
                    substantive
update-note         a note saying the story was updated, admitting no error ("This
                    story has been updated with …", "Aktualisiert …", "Mis à jour …");
                    minor
byline              the authors changed, or a credit line ("… contributed to this
                    report") was added, changed or cut; minor
encoding-repair     mojibake or U+FFFD in the old revision fixed in the new; cosmetic
index-line-rewrite  a ticker rewrote its own index line (entries added, dropped,
                    reordered); cosmetic
live-update         timestamped entries added to a live blog or ticker; minor
==================  =====================================================================

Besides its evidence lines, a finding carries :class:`Sentence` values: the old and the
new sentence where it was decided, with the words that decided it marked, so that a reader
can check the call against the text; and it says which of its evidence lines only restate
such a sentence (``restating``), which a view showing the sentence can leave out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Final, TypeAlias

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
UPDATE_NOTE: Final = "update-note"
BYLINE: Final = "byline"
ENCODING_REPAIR: Final = "encoding-repair"
INDEX_LINE_REWRITE: Final = "index-line-rewrite"
LIVE_UPDATE: Final = "live-update"
KINDS: Final = (
    ADDED, BYLINE, CORRECTION, ENCODING_REPAIR, FACTS, HEADLINE, INDEX_LINE_REWRITE,
    LEDE, LIVE_UPDATE, MOVED, PARAGRAPHING, QUOTE, REMOVED, STYLE, TYPO, UPDATE_NOTE,
)  # fmt: skip
"""Every kind a finding can have, sorted."""

MAX_EVIDENCE: Final = 12
"""Evidence lines (and sentences) kept per finding; the rest are counted in a last line."""
MAX_SENTENCE: Final = 400
"""Characters of a sentence shown as evidence; a longer one is cut around its marks."""
SENTENCE_CONTEXT: Final = 150
"""Characters kept either side of the marks when a sentence is cut."""


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


Mark: TypeAlias = tuple[int, int]
"""Where words stand in a sentence: ``(start, end)`` character offsets, end excluded."""


@dataclass(frozen=True, slots=True)
class Sentence:
    """Where a finding was decided: the old and the new sentence (``""`` when there is
    none on that side), and the words in each that decided it (``marks``)."""

    where: str
    old: str
    new: str
    old_marks: tuple[Mark, ...] = ()
    new_marks: tuple[Mark, ...] = ()

    def __post_init__(self) -> None:
        for text, marks in ((self.old, self.old_marks), (self.new, self.new_marks)):
            if any(not 0 <= start < end <= len(text) for start, end in marks):
                raise ValueError(f"marks {marks} do not fall inside {text!r}")

    def to_dict(self) -> dict[str, JSON]:
        return {
            "where": self.where,
            "old": self.old,
            "new": self.new,
            "old_marks": [list(mark) for mark in self.old_marks],
            "new_marks": [list(mark) for mark in self.new_marks],
        }


@dataclass(frozen=True, slots=True)
class Finding:
    """One kind of change found, how much it matters, the evidence (one line each) and
    the sentences where it was decided."""

    kind: str
    significance: Significance
    evidence: tuple[str, ...]
    sentences: tuple[Sentence, ...] = ()
    restating: tuple[int, ...] = ()
    """The evidence lines, by index, that only quote the text at a place where one of
    ``sentences`` stands, the words that decided the kind marked in it: a word diff
    (``block 3: was [-4.2-]{+4.5+} million``) or a quotation (``quote added: “…”``). A line
    that says more (``block 3: 4.2 → 4.5``) is none."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"finding kind {self.kind!r} is not one of {list(KINDS)}")
        if any(not 0 <= n < len(self.evidence) for n in self.restating):
            raise ValueError(f"restating {self.restating} names no evidence line")

    def to_dict(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "significance": self.significance.label,
            "evidence": list(self.evidence),
            "sentences": [sentence.to_dict() for sentence in self.sentences],
        }
        if self.restating:
            out["restating"] = list(self.restating)
        return out


def finding(
    kind: str,
    significance: Significance,
    evidence: list[str],
    sentences: Sequence[Sentence] = (),
) -> Finding:
    """A finding whose evidence is cut to ``MAX_EVIDENCE`` lines, the rest counted, and
    whose sentences are cut to as many (without repeating one); the lines that only restate
    one of them are named (:attr:`Finding.restating`)."""
    lines = evidence[:MAX_EVIDENCE]
    if len(evidence) > MAX_EVIDENCE:
        lines.append(f"… and {len(evidence) - MAX_EVIDENCE} more")
    kept = list(dict.fromkeys(sentences))[:MAX_EVIDENCE]
    places = {sentence.where for sentence in kept}
    restating = tuple(n for n, line in enumerate(lines) if _quotes_only(line, places))
    return Finding(kind, significance, tuple(lines), tuple(kept), restating)


def _quotes_only(line: str, places: set[str]) -> bool:
    """Whether an evidence line only quotes the text at its place (``place: …``), one of
    ``places``: a word diff in the form :meth:`~quietedit.analysis.words.Hunk.markup`
    writes, or a quotation in the rules' “…”."""
    place, _, rest = line.partition(": ")
    return place in places and (rest.startswith("“") or "[-" in rest or "{+" in rest)


def sentence_at(text: str, marks: Sequence[Mark]) -> tuple[str, tuple[Mark, ...]]:
    """The sentence (or sentences) of ``text`` holding ``marks``, and the marks in it.

    A sentence ends at ``.``, ``!``, ``?`` or ``…`` (with any closing quotation marks or
    brackets) followed by white space, or at a line break; a mark that is empty (a place,
    not words) gives the sentence it stands in. Sentences over ``MAX_SENTENCE``
    characters are cut around the marks with an ellipsis.
    """
    if not text:
        return "", ()
    spots = [m for m in marks if 0 <= m[0] <= m[1] <= len(text)] or [(0, 0)]
    low = min(m[0] for m in spots)
    high = max(m[1] for m in spots)
    start = _sentence_start(text, low)
    end = _sentence_end(text, max(high, low))
    ellipsis_before = ellipsis_after = False
    if end - start > MAX_SENTENCE:
        if low - start > SENTENCE_CONTEXT:
            start = _word_start(text, low - SENTENCE_CONTEXT)
            ellipsis_before = True
        if end - high > SENTENCE_CONTEXT:
            end = _word_end(text, high + SENTENCE_CONTEXT)
            ellipsis_after = True
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    shift = start - (1 if ellipsis_before else 0)
    sentence = ("…" if ellipsis_before else "") + text[start:end] + ("…" if ellipsis_after else "")
    inside = tuple(
        (max(a, start) - shift, min(b, end) - shift)
        for a, b in spots
        if min(b, end) > max(a, start)
    )
    return sentence, inside


_SENTENCE_END: Final = re.compile("[.!?\u2026][\"'\u201d\u2019\u00bb\u00ab)\\]]*(?=\\s)|\n")


def _sentence_start(text: str, position: int) -> int:
    start = 0
    for match in _SENTENCE_END.finditer(text, 0, position):
        start = match.end()
    return start


def _sentence_end(text: str, position: int) -> int:
    # a mark that ends on a full stop ends the sentence there
    match = _SENTENCE_END.search(text, max(position - 1, 0))
    return match.end() if match and match.group() != "\n" else match.start() if match else len(text)


def _word_start(text: str, position: int) -> int:
    space = text.find(" ", position)
    return space + 1 if space != -1 else position


def _word_end(text: str, position: int) -> int:
    space = text.rfind(" ", 0, position)
    return space if space != -1 else position
