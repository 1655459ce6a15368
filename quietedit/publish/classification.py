"""What an edit's page shows of its classification (pure: no I/O, no clock).

The Classification JSON (``Comparison.classification``) read into view values: the
:class:`Verdict` (did the publisher say so, and each publisher signal's evidence) and one
:class:`FindingView` per kind, with its evidence lines and the sentences that decided it,
cut into pieces with the deciding words marked. The article page's "Why these kinds" and
its verdict badges are made of these. Every piece of archive text passes through
:func:`~quietedit.publish.text.clean_text`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NotRequired, TypeAlias, TypedDict, cast

from quietedit.analysis.signals import (
    DATE_MODIFIED,
    FEED_UPDATED,
    NOTE,
    SITEMAP_LASTMOD,
    UPDATED_LINE,
    is_plain,
)
from quietedit.model import JSON
from quietedit.publish.text import clean_text, cut_run


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether the publisher said so: ``silent`` True/False, or None when unknown."""

    silent: bool | None
    label: str
    evidence: tuple[str, ...] = ()
    """One line per signal with something to tell (seen, or a value that did not change)."""
    nothing: str = ""
    """The signals of which neither revision had anything, in one sentence."""
    unchecked: tuple[str, ...] = ()
    """What the signals not checked look at."""


class SignalJSON(TypedDict):
    """One publisher signal of the Classification JSON: ``seen`` is ``None`` when it could
    not be checked."""

    name: str
    seen: bool | None
    evidence: str


class SentenceJSON(TypedDict):
    """Where a finding was decided: old and new sentence, the deciding words' offsets."""

    where: str
    old: str
    new: str
    old_marks: list[list[int]]
    new_marks: list[list[int]]


class FindingJSON(TypedDict):
    significance: str
    evidence: list[str]
    sentences: NotRequired[list[SentenceJSON]]  # absent from comparisons cached before it
    restating: NotRequired[list[int]]  # absent when no line restates a sentence


class ClassificationJSON(TypedDict):
    """``Classification.to_dict()``, the documented Classification JSON."""

    kinds: list[str]  # sorted
    findings: dict[str, FindingJSON]
    significance: str
    silent: bool
    notice: NotRequired[str]  # absent from comparisons made before it
    signals: list[SignalJSON]


def classification_json(classification: dict[str, JSON]) -> ClassificationJSON:
    """``classification`` read as the Classification JSON it is (``Comparison``)."""
    return cast(ClassificationJSON, classification)


def verdict_of(classification: dict[str, JSON]) -> Verdict:
    """The verdict and, as evidence, each publisher signal with what was seen."""
    shape = classification_json(classification)
    # the signals that say only "nothing there" or "not checked" are told in a few words
    plain = [s for s in shape["signals"] if is_plain(s["name"], s["seen"], s["evidence"])]
    evidence = tuple(_signal_line(s) for s in shape["signals"] if s not in plain)
    absent = [_ABSENT.get(s["name"], clean_text(s["name"])) for s in plain if s["seen"] is False]
    nothing = f"No {_or_list(absent)} in either revision" if absent else ""
    unchecked = tuple(
        _UNCHECKED.get(s["name"], clean_text(s["name"])) for s in plain if s["seen"] is None
    )
    if shape["silent"]:
        return Verdict(True, "silent", evidence, nothing, unchecked)
    # the badge's words: a technical notice (only a date moved) or a note
    label = {"technical": "technical notice", "proper": "noted"}.get(
        shape.get("notice", ""), "acknowledged"
    )
    return Verdict(False, label, evidence, nothing, unchecked)


_ABSENT: Final = {DATE_MODIFIED: "dateModified", UPDATED_LINE: "“Updated” line", NOTE: "note"}
"""A signal of which neither revision had anything, in the page's one sentence for them
(the methodology page says what each one looks for)."""
_UNCHECKED: Final = {SITEMAP_LASTMOD: "sitemap <lastmod>", FEED_UPDATED: "feed entry date"}
"""What a signal not checked looks at, in a word or two."""


def _or_list(words: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _signal_line(signal: SignalJSON) -> str:
    """``date-modified: seen — dateModified changed: … → …``; a signal not seen says so in
    its evidence alone (``dateModified unchanged: …``, ``the feed entry's updated date did
    not change``)."""
    name = clean_text(signal["name"]).replace("_", " ")
    seen = signal["seen"]
    evidence = signal["evidence"]
    if seen is False and evidence:
        return clean_text(evidence)
    state = "seen" if seen is True else "not seen" if seen is False else "not known"
    tail = f" — {clean_text(evidence)}" if evidence else ""
    return f"{name}: {state}{tail}"


Piece: TypeAlias = tuple[str, bool]
"""A run of a sentence's text and whether it is among the words that decided a finding."""


@dataclass(frozen=True, slots=True)
class SentenceView:
    """One place a finding was decided, the old and the new sentence cut into pieces
    with the deciding words marked (empty when a side has no sentence)."""

    where: str
    old: tuple[Piece, ...]
    new: tuple[Piece, ...]


@dataclass(frozen=True, slots=True)
class FindingView:
    """One finding as the edit's page shows it: kind, significance, evidence lines and
    the sentences that decided it."""

    kind: str
    significance: str
    lines: tuple[str, ...]
    sentences: tuple[SentenceView, ...]


def findings_of(classification: dict[str, JSON]) -> tuple[FindingView, ...]:
    """Each finding of the classification, its sentences ready to mark; a sentence that
    an earlier finding shows already, with the same words marked, is not repeated, and
    one that tells nothing the finding's evidence and the changed paragraphs do not is
    left out (:func:`_tells_more`); so is an evidence line that the finding says only
    restates a sentence (``restating``) when a sentence at its place is shown (the API
    keeps every line)."""
    findings = classification_json(classification)["findings"]
    shown: set[SentenceView] = set()
    views: list[FindingView] = []
    for kind, finding in sorted(findings.items()):
        # a sentence that decided two kinds with the same words is shown at the first
        sentences = [_sentence_view(s) for s in finding.get("sentences", []) if _tells_more(s)]
        fresh = tuple(s for s in sentences if s not in shown)
        shown.update(fresh)
        places = {s.where for s in fresh}
        restating = set(finding.get("restating", ()))
        lines = (
            line
            for n, line in enumerate(finding["evidence"])
            if n not in restating or _place(line) not in places
        )
        views.append(
            FindingView(kind, finding["significance"], tuple(map(clean_text, lines)), fresh)
        )
    return tuple(views)


def _place(line: str) -> str:
    """Where an evidence line says it stands: the words before its first ``": "``."""
    return line.partition(": ")[0]


SENTENCE_CONTEXT: Final = 5
"""Words of a finding's sentence kept on each side of its marked words: the edit shows the
changed paragraph just above, so a finding needs only where its words stand."""


MARKED_WORDS: Final = 8
"""Words kept of a marked run longer than twice that: a sentence added or removed whole is
marked whole, and the changed paragraph above shows all of it."""


def _tells_more(sentence: SentenceJSON) -> bool:
    """Whether a finding's sentence shows words that decided it in their context: not when
    no word is marked (the evidence line says where, and quotes it), nor when it is on one
    side only and marked whole (a sentence added or removed whole, which the changed
    paragraph shows above and the evidence line quotes)."""
    sides = [
        (text, marks)
        for text, marks in (
            (sentence["old"], sentence["old_marks"]),
            (sentence["new"], sentence["new_marks"]),
        )
        if text.strip()
    ]
    pieces = [marked_pieces(text, marks) for text, marks in sides]
    if not any(marked for side in pieces for _, marked in side):
        return False
    whole = len(pieces) == 1 and all(marked for _, marked in pieces[0])
    return not whole


def _sentence_view(sentence: SentenceJSON) -> SentenceView:
    old = trimmed(marked_pieces(sentence["old"], sentence["old_marks"]))
    new = trimmed(marked_pieces(sentence["new"], sentence["new_marks"]))
    if sentence["where"].startswith("block") and any(marked for _, marked in new):
        # a paragraph's sentence: the changed paragraph above shows its before and after,
        # so the words that decided the kind are marked on one side, the new one
        old = ()
    # a sentence moved unchanged: shown once
    return SentenceView(clean_text(sentence["where"]), () if old == new else old, new)


def trimmed(pieces: tuple[Piece, ...], *, words: int = SENTENCE_CONTEXT) -> tuple[Piece, ...]:
    """``pieces`` with their unmarked text cut to ``words`` words beside each marked
    piece (``…`` where text was left out); a sentence without marks keeps its start."""
    if not any(marked for _, marked in pieces):
        return tuple((_head_words(text, 2 * words), False) for text, _ in pieces[:1])
    out: list[Piece] = []
    last = len(pieces) - 1
    for n, (text, marked) in enumerate(pieces):
        out.append(
            (_cut_marked(text) if marked else cut_run(text, n=n, last=last, words=words), marked)
        )
    return tuple(out)


def _cut_marked(text: str) -> str:
    """A marked run of more than twice :data:`MARKED_WORDS` words cut to its start."""
    parts = text.split()
    if len(parts) <= 2 * MARKED_WORDS:
        return text
    lead = " " if text[:1].isspace() else ""
    trail = " " if text[-1:].isspace() else ""
    return lead + " ".join(parts[:MARKED_WORDS]) + " …" + trail


def _head_words(text: str, words: int) -> str:
    parts = text.split()
    return text if len(parts) <= words else " ".join(parts[:words]) + " …"


def marked_pieces(text: str, marks: list[list[int]]) -> tuple[Piece, ...]:
    """``text`` cut at its marks (``[start, end)`` offsets, overlapping or not) into
    pieces, each cleaned of illegal characters after the cut so the offsets hold."""
    inside = [False] * len(text)
    for mark in marks:
        if len(mark) == 2:
            for index in range(max(mark[0], 0), min(mark[1], len(text))):
                inside[index] = True
    pieces: list[Piece] = []
    start = 0
    for index in range(1, len(text) + 1):
        if index == len(text) or inside[index] != inside[start]:
            piece = clean_text(text[start:index])
            if piece:
                pieces.append((piece, inside[start]))
            start = index
    return tuple(pieces)
