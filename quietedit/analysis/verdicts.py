"""What a change of a pair was read as: the verdicts, and where the change stands (pure
data; :mod:`quietedit.analysis.reading` reads the changes)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from quietedit.analysis.words import Hunk

TYPO: Final = "typo"
STYLE: Final = "style"
FACT: Final = "facts"
ADDED: Final = "added"
REMOVED: Final = "removed"
QUOTED: Final = "quoted"
NOTE: Final = "note"
CREDIT: Final = "credit"


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Reading:
    """One change and what it is: ``verdicts`` (a set of the constants above), the facts
    that changed as ``(old, new)`` pairs ("" for none), and the spans that decided it in
    the pair's old and new text."""

    hunk: Hunk
    nature: str
    verdicts: frozenset[str]
    facts: tuple[tuple[str, str], ...] = ()
    old_marks: tuple[Span, ...] = ()
    new_marks: tuple[Span, ...] = ()

    @property
    def old_span(self) -> Span:
        """Where the removed words stand in the old text (white space left out)."""
        return stripped(self.hunk.old_at, self.hunk.removed)

    @property
    def new_span(self) -> Span:
        """Where the added words stand in the new text (white space left out)."""
        return stripped(self.hunk.new_at, self.hunk.added)


@dataclass(frozen=True, slots=True)
class PairReading:
    """Old and new text of one place (``where``) and each of its changes, read."""

    where: str
    old_text: str
    new_text: str
    readings: tuple[Reading, ...]


def stripped(at: int, text: str) -> Span:
    start = at + len(text) - len(text.lstrip())
    return Span(start, max(start, at + len(text.rstrip())))
