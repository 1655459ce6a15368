"""The sentences a finding shows, so that a reader can check the call against the text
(pure).

Each :class:`~quietedit.analysis.findings.Sentence` holds the old and the new sentence of
one place, cut from the texts with :func:`~quietedit.analysis.findings.sentence_at`, and
the words that decided the kind marked: the facts that changed, the changed words, the
quotation, the words that make a note what it is, the names that came or went.
"""

from __future__ import annotations

import re
from typing import Final

from quietedit.analysis.findings import Sentence, sentence_at
from quietedit.analysis.notes import note_opening
from quietedit.analysis.repair import Repair
from quietedit.analysis.verdicts import PairReading, Reading, Span
from quietedit.analysis.words import diff_words
from quietedit.article.fingerprint import fold_text
from quietedit.model import Article

_WORD: Final = re.compile(r"\w+")


def change_sentence(pair: PairReading, reading: Reading, *, whole: bool = False) -> Sentence:
    """The old and new sentence of one change, the words that decided it marked: the
    reading's marks (the facts that changed), or with ``whole`` the changed words."""
    old_marks = (reading.old_span,) if whole else reading.old_marks
    new_marks = (reading.new_span,) if whole else reading.new_marks
    old, old_in = sentence_at(pair.old_text, _spots(old_marks, reading.old_span))
    new, new_in = sentence_at(pair.new_text, _spots(new_marks, reading.new_span))
    return Sentence(pair.where, old, new, old_in, new_in)


def _spots(marks: tuple[Span, ...], fallback: Span) -> list[tuple[int, int]]:
    """The marks, or the change's place when it marks no words (so the sentence is found)."""
    found = [(m.start, m.end) for m in marks if m.end > m.start]
    return found or [(fallback.start, fallback.start)]


def whole_sentence(where: str, old: str, new: str) -> Sentence:
    """A block or a line shown whole (cut to its first sentences), every word marked."""
    old_text, old_in = sentence_at(old, [(0, len(old))]) if old else ("", ())
    new_text, new_in = sentence_at(new, [(0, len(new))]) if new else ("", ())
    return Sentence(where, old_text, new_text, old_in, new_in)


def white_space_sentence(pair: PairReading) -> Sentence:
    """The first place two texts differ only in white space, that space marked."""
    old, new = pair.old_text, pair.new_text
    at = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), 0)
    old_end = at + len(old[at:]) - len(old[at:].lstrip())
    new_end = at + len(new[at:]) - len(new[at:].lstrip())
    old_text, old_in = sentence_at(old, [(at, max(old_end, at + 1))])
    new_text, new_in = sentence_at(new, [(at, max(new_end, at + 1))])
    return Sentence(pair.where, old_text, new_text, old_in, new_in)


def quote_sentence(where: str, before: Article, after: Article, old: str, new: str) -> Sentence:
    """A quotation where it stands in each revision, the quotation marked."""
    old_text, old_in = _find(before, old) if old else ("", ())
    new_text, new_in = _find(after, new) if new else ("", ())
    return Sentence(where, old_text, new_text, old_in, new_in)


def _find(article: Article, quote: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The sentence of ``article`` that holds ``quote`` (folded words), the quote marked."""
    pattern = re.compile(r"\W+".join(re.escape(w) for w in _WORD.findall(quote)))
    for text in (article.title, *(block.text for block in article.blocks)):
        match = pattern.search(text)
        if match:
            return sentence_at(text, [(match.start(), match.end())])
    return quote, ((0, len(quote)),)


def cut_sentence(label: str, position: int, whole: str, parts: list[str]) -> Sentence:
    """Where one paragraph was cut in several: the whole's sentences at the first cut,
    and the parts' on either side of it with a ``¶`` marked between."""
    tail, _ = sentence_at(parts[0], [(len(parts[0]), len(parts[0]))])
    head, _ = sentence_at(parts[1], [(0, 0)])
    joined = f"{tail} ¶ {head}"
    mark = len(tail) + 1
    at = whole.find(head[:40]) if head else -1
    old, _ = sentence_at(whole, [(max(at - 2, 0), max(at, 0))]) if at > 0 else (whole[:200], ())
    return Sentence(f"{label} {position + 1}", old, joined, (), ((mark, mark + 1),))


def note_sentence(where: str, note: str) -> Sentence:
    opening = note_opening(note)
    at = note.find(opening) if opening else -1
    marks = [(at, at + len(opening))] if at != -1 else [(0, 0)]
    text, inside = sentence_at(note, marks)
    return Sentence(where, "", text, (), inside)


def authors_sentence(before: tuple[str, ...], after: tuple[str, ...]) -> Sentence:
    """The two bylines, the names only one of them has marked."""
    old, new = ", ".join(before), ", ".join(after)
    keys_before = {fold_text(a).casefold() for a in before}
    keys_after = {fold_text(a).casefold() for a in after}
    return Sentence(
        "byline",
        old,
        new,
        _name_marks(before, keys_after),
        _name_marks(after, keys_before),
    )


def _name_marks(names: tuple[str, ...], other: set[str]) -> tuple[tuple[int, int], ...]:
    marks, position = [], 0
    for name in names:
        if fold_text(name).casefold() not in other:
            marks.append((position, position + len(name)))
        position += len(name) + 2
    return tuple(marks)


def credit_sentence(where: str, old: str, new: str) -> Sentence:
    old_marks, new_marks = [], []
    old_at = new_at = 0
    for op, text in diff_words(old, new).segments:
        if op == "=":
            old_at += len(text)
            new_at += len(text)
        elif op == "-":
            old_marks.append((old_at, old_at + len(text.rstrip())))
            old_at += len(text)
        else:
            new_marks.append((new_at, new_at + len(text.rstrip())))
            new_at += len(text)
    old_text, old_in = sentence_at(old, [m for m in old_marks if m[1] > m[0]] or [(0, 0)])
    new_text, new_in = sentence_at(new, [m for m in new_marks if m[1] > m[0]] or [(0, 0)])
    return Sentence(where, old_text, new_text, old_in, new_in)


def repair_sentences(
    old: Article, repaired: Article, repairs: tuple[Repair, ...]
) -> list[Sentence]:
    """Each distinct repair in its sentence: the broken text, then the fixed."""
    sentences = []
    for repair in dict.fromkeys(repairs):
        if repair.where == "title":
            broken_text, fixed_text = old.title, repaired.title
        else:
            position = int(repair.where.split()[-1]) - 1
            broken_text = old.blocks[position].text
            fixed_text = repaired.blocks[position].text
        at = broken_text.find(repair.broken)
        fixed_at = fixed_text.find(repair.fixed)
        if at == -1 or fixed_at == -1:
            continue
        old_text, old_in = sentence_at(broken_text, [(at, at + len(repair.broken))])
        new_text, new_in = sentence_at(fixed_text, [(fixed_at, fixed_at + len(repair.fixed))])
        sentences.append(Sentence(repair.where, old_text, new_text, old_in, new_in))
    return sentences
