"""The facts one change altered: where they stand, paired across the change, whether
they are names only, and whether a number among them weighs as one (pure; ``reading.py``
reads the changes)."""

from __future__ import annotations

import re
from typing import Final

from quietedit.analysis.facts import Fact
from quietedit.analysis.numberwords import (
    NUMBER_WORDS,
    ORDINALS,
    bound_changed,
    is_date_word,
    magnitude,
)
from quietedit.analysis.verdicts import Span
from quietedit.analysis.words import Hunk


def paired(gone: list[Fact], came: list[Fact]) -> tuple[tuple[str, str], ...]:
    """Facts that went and came paired one for one, or each with nothing."""
    if len(gone) == len(came):
        return tuple((a.text, b.text) for a, b in zip(gone, came, strict=True))
    return tuple((f.text, "") for f in gone) + tuple(("", f.text) for f in came)


def names_only(changed: tuple[tuple[str, str], ...], named: frozenset[str] = frozenset()) -> bool:
    """The changed facts are names: no number, no date. ``named``: the words the text read
    as names, a date word among them ("Yann Sommer") included."""
    return not any(number_or_date(fact, named) for pair in changed for fact in pair if fact)


def number_or_date(fact: str, named: frozenset[str] = frozenset()) -> bool:
    """``fact`` is a number or a date, not a name (``named``: see :func:`names_only`)."""
    folded = fact.casefold()
    return folded not in named and (
        any(c.isdigit() for c in folded)
        or is_date_word(folded)
        or folded in NUMBER_WORDS
        or folded in ORDINALS
        or magnitude(folded) is not None
    )


_YEAR: Final = re.compile(r"(?:1[89]|20)\d\d")
COUNTED_REACH: Final = 4
"""Words after a count looked at for what it counts ("16 abgeschossene Raketen", "two of
the suspects")."""
_COUNTED_LETTERS: Final = 4
"""Letters a word after a count needs to say what is counted ("an", "of", "the" do not)."""
_STEM_LETTERS: Final = 5
_ENDING: Final = re.compile(r"(?<=\w{4})(?:en|er|es|e|n|s)$")
_WORD: Final = re.compile(r"[^\W\d_]+")


def counted_kept(text: str, end: int, other: str) -> bool:
    """What a count that ends at ``end`` in ``text`` counts is said in ``other`` too (the
    other side's sentence): one of the words after it has its stem there ("[-Ein
    Mensch kam-]{+Zwei Menschen kamen+}", "{+16+} Raketen"), or no word after it says
    what it counts. Where the other side counts nothing of the kind ("Kiew meldet [-16
    abgeschossene Raketen-]{+Vorankommen im Osten+}"), the count went with the statement
    it was part of: a statement replaced, not a number changed in one that stays."""
    after = [
        w.casefold()
        for w in _WORD.findall(_up_to_clause_end(text[end:]))[:COUNTED_REACH]
        if len(w) >= _COUNTED_LETTERS
    ]
    if not after:
        return True
    folded = other.casefold()
    return any(_stem(w) in folded for w in after)


def is_count(fact: str) -> bool:
    """``fact`` counts or ranks something: a number that is no year and no date word."""
    folded = fact.casefold()
    return number_or_date(folded) and not is_date_word(folded) and not _YEAR.fullmatch(folded)


_CLAUSE_MARKS: Final = (".", ":", ";", "?", "!", "(", "\u2013", "\u2014")


def _up_to_clause_end(text: str) -> str:
    cut = min((at for at in (text.find(m) for m in _CLAUSE_MARKS) if at >= 0), default=len(text))
    return text[:cut]


def _stem(word: str) -> str:
    stem = _ENDING.sub("", word)
    return stem[:_STEM_LETTERS] if len(stem) > _STEM_LETTERS else stem


def names_of(gone: list[Fact], came: list[Fact]) -> frozenset[str]:
    """The folded words of the names among ``gone`` and ``came``."""
    return frozenset(f.text.casefold() for f in (*gone, *came) if f.name)


def inside(facts: list[Fact], span: Span) -> list[Fact]:
    """The facts inside ``span``."""
    return [f for f in facts if f.start >= span.start and f.end <= span.end]


def in_pairs(fact: Fact, pairs: tuple[tuple[str, str], ...], side: int) -> bool:
    """``fact`` is one of ``pairs``' facts on ``side`` (0 the old, 1 the new)."""
    return any(pair[side] == fact.text for pair in pairs)


def weighs_as_number(
    changed: tuple[tuple[str, str], ...],
    old: list[Fact],
    new: list[Fact],
    named: frozenset[str],
    *,
    texts: tuple[str, str],
    sentences: tuple[str, str],
) -> bool:
    """A number or date among a change's changed facts (``old`` and ``new``, paired in
    ``changed``) weighs as one: a date, a count replaced by another number, or a count
    given or dropped while what it counts stays (:func:`counted_kept`). ``texts``: the
    old and the new text; ``sentences``: the old and the new sentence of the change."""
    sides = [(f, 0, texts[0], sentences[1]) for f in old] + [
        (f, 1, texts[1], sentences[0]) for f in new
    ]
    for fact, side, text, other in sides:
        if not number_or_date(fact.text, named):
            continue
        partners = [pair[1 - side] for pair in changed if pair[side] == fact.text]
        if (
            not is_count(fact.text)
            or any(number_or_date(p, named) for p in partners)
            or counted_kept(text, fact.end, other)
        ):
            return True
    return False


def requalified(hunk: Hunk, old_text: str, new_text: str) -> tuple[tuple[str, str], ...]:
    """The number whose bound the change alone changed ("[-über-]{+etwa+} acht
    Milliarden", :func:`~quietedit.analysis.numberwords.bound_changed`), as the changed
    fact's two sides, or nothing."""
    removed, added = hunk.removed.strip(), hunk.added.strip()
    number = bound_changed(
        removed,
        added,
        old_after=old_text[hunk.old_at + len(hunk.removed) :],
        new_after=new_text[hunk.new_at + len(hunk.added) :],
    )
    if number is None:
        return ()
    return ((f"{removed} {number}".lstrip(), f"{added} {number}".lstrip()),)
