"""What each change of a paired block or the title is: the reading the rules work from.

A *change* is one hunk of the word diff of a pair the diff already made (a changed,
moved, split or merged block, the title, an edited ticker entry). Each is read once:

* ``typo`` — typographic, punctuation, capitals or a respelling (:func:`hunk_nature`);
  punctuation changed a word or two from a rewording is the rewording's;
* ``facts`` — a number, date or name of the changed phrase differs: found in the removed
  and the added words of *this* change only, never paired with a fact from another place
  of the block. A fact that moved within the block is no change; a name written shorter
  or longer ("President Daniel Harper" → "Harper", "the California Department of
  Forestry and Fire Protection" → "Cal Fire") is style; a name swapped for a description
  of the same person ("Moreno" → "the actress") is style (``names.py``); a name in a
  headline's kicker labels the story; a short sentence inserted or cut whole is a new
  statement, not a changed one; and a change whose two sides share little and are long
  (a clause replaced by another) is a passage, not a fact;
* ``added`` / ``removed`` — a passage of ``PASSAGE_WORDS`` or more inserted or cut, or a
  clause replaced by one that says something else (both sides that long and sharing under
  ``REWRITE_SIMILARITY`` of their words), or one side that much longer than the other;
* ``style`` — any other rewording;
* ``quoted`` — words changed inside a quotation: the quote rule's, not a rewording;
* ``note`` / ``credit`` — a correction or update note or a credit line inserted.

Offsets in a reading are into the pair's ``old_text`` and ``new_text`` (the two sides'
real texts, blocks joined by a line break), so that evidence can show the sentences.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Final

from quietedit.analysis.facts import Fact, Word, is_spelling_fix, located_facts, words
from quietedit.analysis.lexicon import (
    FACTS,
    PUNCTUATION,
    TYPO_NATURES,
    hunk_nature,
    number_form,
    quotation_spans,
)
from quietedit.analysis.names import name_forms, renamed, still_there, texts
from quietedit.analysis.notes import is_credit_line, note_kind
from quietedit.analysis.words import (
    Hunk,
    Segment,
    common_words,
    hunks,
    new_side,
    old_side,
    similarity,
    similarity_codes,
    tokenize,
)

PASSAGE_WORDS: Final = 5
"""A pure insertion or deletion inside a block of at least this many words is a passage
added or removed, not a rewording."""
REWRITE_SIMILARITY: Final = 0.34
"""Below this share of words in common, a change whose sides both have ``PASSAGE_WORDS``
or more replaced a clause with another (removed and added), rather than reworded it.
Set against the labelled edits of ``bench/classify.py``: paraphrases of a clause share
about half their words, replaced clauses under a fifth."""
FACT_PHRASE_WORDS: Final = PASSAGE_WORDS
"""A change shorter than this on both sides is one phrase: a number, date or name that
differs in it changed. Longer changes must keep half their other words to count."""
FACT_REST_SIMILARITY: Final = 0.5
SENTENCE_KEPT: Final = 0.4
"""Share of its other words a sentence must keep for a number or date that changed in a
longer rewording of it to count as a changed fact."""

TYPO: Final = "typo"
STYLE: Final = "style"
FACT: Final = "facts"
ADDED: Final = "added"
REMOVED: Final = "removed"
QUOTED: Final = "quoted"
NOTE: Final = "note"
CREDIT: Final = "credit"

PUNCTUATION_REACH: Final = 2
"""Kept words at most between a punctuation change and a rewording for the punctuation to
be part of the rewording."""
_SMALL_WORDS: Final = frozenset(
    {"the", "a", "an", "in", "on", "at", "of", "der", "die", "das", "den", "dem", "des",
     "im", "am", "le", "la", "les", "l", "en", "au"}
)  # fmt: skip
"""Words that come and go with a fact ("the Netherlands" → "Belgium") without rewording."""
KICKER_CHARS: Final = 80
"""Longest kicker: the topic label before a headline's colon or spaced dash. A name there
labels the story and states nothing, so a name changed in it is a rewording ("Peking:" →
"China:"); a list of the names a story is about is one too."""

_WORDS: Final = re.compile(r"\w+")
_MARKED: Final = re.compile(r"[»«„“”\"]([^»«„“”\"\n]{1,80})[»«“”\"]")
"""Words between quotation marks of any kind."""


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
        return _stripped(self.hunk.old_at, self.hunk.removed)

    @property
    def new_span(self) -> Span:
        """Where the added words stand in the new text (white space left out)."""
        return _stripped(self.hunk.new_at, self.hunk.added)


@dataclass(frozen=True, slots=True)
class PairReading:
    """Old and new text of one place (``where``) and each of its changes, read."""

    where: str
    old_text: str
    new_text: str
    readings: tuple[Reading, ...]


def read_pair(
    where: str,
    parts: Sequence[Sequence[Segment]],
    old_text: str,
    new_text: str,
    *,
    names: bool,
    title: bool = False,
) -> PairReading:
    """Read every change of a pair's word diff (one segment run per part) between
    ``old_text`` and ``new_text``, the two sides' texts (blocks joined by a line break).

    ``title``: the pair is a headline, where a replaced clause is a rewording (passages
    added and removed are the body's).
    """
    old_parts = [old_side(part) for part in parts]
    new_parts = [new_side(part) for part in parts]
    # the word diff keeps the new side's white space in kept runs: find each place in the
    # real texts, or words the old side separated would read as run together
    old_at = _realign("\n".join(old_parts), old_text)
    new_at = _realign("\n".join(new_parts), new_text)
    located: list[Hunk] = []
    old_offset = new_offset = 0
    for part, old_part, new_part in zip(parts, old_parts, new_parts, strict=True):
        for hunk in hunks(part):
            start, end = hunk.old_at + old_offset, hunk.new_at + new_offset
            located.append(
                Hunk(hunk.removed, hunk.added, hunk.before, hunk.after, old_at[start], new_at[end])
            )
        old_offset += len(old_part) + 1
        new_offset += len(new_part) + 1
    reader = _Reader(old_text, new_text, names=names, title=title)
    readings = [reader.read(hunk) for hunk in located]
    return PairReading(where, old_text, new_text, tuple(reader.settle(readings)))


def _realign(approx: str, actual: str) -> list[int]:
    """For each position of ``approx`` (and its end), the same place in ``actual``, the
    two differing only in white space."""
    if approx == actual:
        return list(range(len(approx) + 1))
    mapping = []
    j = 0
    for char in approx:
        while j < len(actual) and actual[j] != char and actual[j].isspace():
            j += 1
        mapping.append(j)
        if j < len(actual) and actual[j] == char:
            j += 1
    mapping.append(j)
    return mapping


def word_count(text: str) -> int:
    """Words as a reader counts them: "Nigeria's" and "4.2" are one word each."""
    return sum(1 for token in tokenize(text) if any(c.isalnum() for c in token))


class _Side:
    """One side's text read for facts, once, and only when a change needs it."""

    def __init__(self, text: str, *, names: bool, title: bool) -> None:
        self.text, self.names, self.title = text, names, title

    @cached_property
    def read(self) -> list[Word]:
        return words(self.text)

    @cached_property
    def facts(self) -> list[Fact]:
        return located_facts(self.text, names=self.names, read=self.read)

    @cached_property
    def words(self) -> set[str]:
        return {w.text.casefold() for w in self.read}

    @cached_property
    def names_(self) -> set[tuple[str, ...]]:
        return {texts(f.group) for f in self.facts if f.name}

    @cached_property
    def quotes(self) -> list[tuple[int, int]]:
        return quotation_spans(self.text)

    @cached_property
    def marked(self) -> list[tuple[int, int]]:
        """Where words in quotation marks stand in a headline's kicker, names and titles
        of works included (nothing outside a headline's kicker is asked for)."""
        if not self.kicker:
            return []
        return [match.span(1) for match in _MARKED.finditer(self.text, 0, self.kicker)]

    @cached_property
    def kicker(self) -> int:
        return _kicker(self.text) if self.title else 0


class _Reader:
    def __init__(self, old_text: str, new_text: str, *, names: bool, title: bool) -> None:
        self.old_text, self.new_text = old_text, new_text
        self.names, self.title = names, title
        self.old = _Side(old_text, names=names, title=title)
        self.new = _Side(new_text, names=names, title=title)

    def read(self, hunk: Hunk) -> Reading:
        removed, added = hunk.removed, hunk.added
        nature = hunk_nature(removed, added, names=self.names)
        old_span = Span(hunk.old_at, hunk.old_at + len(removed))
        new_span = Span(hunk.new_at, hunk.new_at + len(added))
        whole_old = (_trimmed(old_span, self.old_text),)
        whole_new = (_trimmed(new_span, self.new_text),)
        if nature in TYPO_NATURES:
            return Reading(hunk, nature, frozenset({TYPO}), (), whole_old, whole_new)
        if not removed and not self.title:
            if is_credit_line(added):
                return Reading(hunk, nature, frozenset({CREDIT}), (), (), whole_new)
            if note_kind(added) is not None:
                return Reading(hunk, nature, frozenset({NOTE}), (), (), whole_new)
        gone = [f for f in _inside(self.old.facts, old_span) if not self._label(f, self.old)]
        came = [f for f in _inside(self.new.facts, new_span) if not self._label(f, self.new)]
        placed_gone = [f for f in gone if f.name and f.end <= self.old.kicker]
        placed_came = [f for f in came if f.name and f.end <= self.new.kicker]
        if not (placed_gone and placed_came):  # a place added to a kicker or cut labels
            gone = [f for f in gone if f not in placed_gone]
            came = [f for f in came if f not in placed_came]
        changed = self._fact_pairs(gone, came, hunk)
        if changed and self._short_sentence(hunk):
            changed = ()  # a sentence of its own, too short for a passage: a rewording
        removed_words, added_words = word_count(removed), word_count(added)
        if renamed(gone, came):
            # one name written in another form is a rewording, however many words it has
            removed_words -= sum(f.name for f in gone)
            added_words -= sum(f.name for f in came)
        if changed:
            # the changed facts are the change, not words of a passage ("[-Die News-]{+Das
            # waren die News am 14. Dezember+}": a date added to a kept sentence)
            removed_words -= sum(word_count(a) for a, _ in changed)
            added_words -= sum(word_count(b) for _, b in changed)
        passage = self._passage(removed, added, removed_words, added_words)
        if changed and not passage:
            only_facts = nature == FACTS or _small_words_only(removed, added, self.names)
            verdicts = {FACT} if only_facts else {FACT, STYLE}
            old_marks = tuple(Span(f.start, f.end) for f in gone if _in_pairs(f, changed, 0))
            new_marks = tuple(Span(f.start, f.end) for f in came if _in_pairs(f, changed, 1))
            return Reading(hunk, nature, frozenset(verdicts), changed, old_marks, new_marks)
        if passage:
            return Reading(hunk, nature, frozenset(passage), (), whole_old, whole_new)
        if self._quoted(whole_old[0], whole_new[0]):
            return Reading(hunk, nature, frozenset({QUOTED}), (), whole_old, whole_new)
        return Reading(hunk, nature, frozenset({STYLE}), (), whole_old, whole_new)

    def _label(self, fact: Fact, side: _Side) -> bool:
        """A fact of a headline's kicker that labels the story rather than states a fact:
        a name ("Peking:" → "China:"), or words in quotation marks (a work's title, »192
        Farben«). A place a kept topic is located in, replaced by another, is a fact
        ("Dürre in [-Südfrankreich-]{+Frankreich+}:")."""
        if fact.end > side.kicker:
            return False
        if _within(Span(fact.start, fact.end), side.marked):
            return True
        if not fact.name:
            return False
        return not (self._topic_kept and _located(side.read, fact.start))

    @cached_property
    def _topic_kept(self) -> bool:
        """Both headlines have a kicker, opening with the same word (the topic)."""
        if not (self.old.kicker and self.new.kicker):
            return False
        old, new = _WORDS.findall(self.old_text[:1000]), _WORDS.findall(self.new_text[:1000])
        return bool(old and new) and old[0].casefold() == new[0].casefold()

    def _passage(self, removed: str, added: str, removed_words: int, added_words: int) -> set[str]:
        if self.title:
            return set()
        if not removed or not added:
            if max(removed_words, added_words) < PASSAGE_WORDS:
                return set()
            return {ADDED} if added else {REMOVED}
        if _clause_replaced(removed, added):
            return {ADDED, REMOVED}
        # one side much longer: a passage came or went, and what stood opposite it was
        # reworded ("[-Mit der-]{+Familienpolitisch ein bitterer Tag … dass die+}")
        if added_words - removed_words >= PASSAGE_WORDS:
            return {ADDED, STYLE} if removed_words else {ADDED}
        if removed_words - added_words >= PASSAGE_WORDS:
            return {REMOVED, STYLE} if added_words else {REMOVED}
        return set()

    def _quoted(self, old: Span, new: Span) -> bool:
        """Both sides of the change inside a quotation (a side that is empty counts)."""
        return (
            (old.start == old.end or _within(old, self.old.quotes))
            and (new.start == new.end or _within(new, self.new.quotes))
            and bool(self.old.quotes or self.new.quotes)
        )

    def _fact_pairs(
        self, gone: list[Fact], came: list[Fact], hunk: Hunk
    ) -> tuple[tuple[str, str], ...]:
        """The facts this change altered, as ``(old, new)`` pairs ("" for none)."""
        left = Counter(_key(f) for f in came)
        still_gone = []
        for fact in gone:  # the same fact on both sides of the change is no change
            if left[_key(fact)] > 0:
                left[_key(fact)] -= 1
            else:
                still_gone.append(fact)
        right = Counter(_key(f) for f in gone)
        still_came = []
        for fact in came:
            if right[_key(fact)] > 0:
                right[_key(fact)] -= 1
            else:
                still_came.append(fact)
        # a name still in the other revision moved; a respelt one is a typo; a name run
        # together with the next word by the page is still there
        still_gone = [f for f in still_gone if not still_there(f, self.new.words, self.new.names_)]
        still_came = [f for f in still_came if not still_there(f, self.old.words, self.old.names_)]
        for fact in list(still_gone):
            fix = next(
                (
                    c
                    for c in still_came
                    if c.name and fact.name and is_spelling_fix(fact.text, c.text)
                ),
                None,
            )
            if fix is not None:
                still_gone.remove(fact)
                still_came.remove(fix)
        still_gone, still_came = name_forms(
            still_gone,
            still_came,
            hunk.removed,
            hunk.added,
            old=(hunk.old_at, hunk.old_at + len(hunk.removed)),
            new=(hunk.new_at, hunk.new_at + len(hunk.added)),
            german=not self.names,
        )
        still_gone = [f for f in still_gone if not self._beside_kept(f, self.new)]
        still_came = [f for f in still_came if not self._beside_kept(f, self.old)]
        if not still_gone and not still_came:
            return ()
        if not self._one_phrase(hunk):
            numbers = any(not f.name for f in (*still_gone, *still_came))
            if (
                numbers
                and self._sentence_kept(hunk)
                and (self.title or not _clause_replaced(hunk.removed, hunk.added))
            ):
                # the sentence stands, reworded around a number or date that changed in it
                # ("»The Wire«-Star [-ist tot-]{+im Alter von 60 Jahren gestorben+}");
                # a name there may be the rewording's own
                still_gone = [f for f in still_gone if not f.name]
                still_came = [f for f in still_came if not f.name]
            else:
                # a headline's kicker is a phrase of its own: a date or number in it
                # changed even when the rest of the headline was rewritten ("News
                # [-heute-]{+am Donnerstag+}: …"); its names label the story and were
                # left out already
                still_gone = [f for f in still_gone if f.end <= self.old.kicker]
                still_came = [f for f in still_came if f.end <= self.new.kicker]
            if not still_gone and not still_came:
                return ()
        if len(still_gone) == len(still_came):
            return tuple((a.text, b.text) for a, b in zip(still_gone, still_came, strict=True))
        return tuple((f.text, "") for f in still_gone) + tuple(("", f.text) for f in still_came)

    def _beside_kept(self, fact: Fact, other: _Side) -> bool:
        """A word of a name run whose other words the other revision still has: a first
        name put to a surname that stays ("[-Putins-] … {+von Wladimir Putin+}"), or, in
        German, where a run of capitals is often a noun beside a name, that noun
        ("Abtreibungspille Mifepriston", "Trump-Gala Fotos"), but for a place's adjective
        ("[-Offenbacher-]{+Offenburger+} Schule")."""
        if not fact.name or len(fact.group) < 2:
            return False
        if self.names:  # a given name and a surname
            first, last = fact.group[0], fact.group[-1]
            kept = [last] if len(fact.group) == 2 and first.start == fact.start else []
        elif fact.text.endswith("er") and fact.group[-1].start != fact.start:
            return False  # a place's adjective before its noun ("Offenbacher Schule")
        else:
            kept = [w for w in fact.group if w.start != fact.start and w.capitalised]
        return bool(kept) and all(
            still_there(Fact(w.text, w.start, w.end, True, (w,)), other.words, set()) for w in kept
        )

    def _short_sentence(self, hunk: Hunk) -> bool:
        """The change inserts or cuts a whole sentence ("… stellt sich quer{+. Die FDP
        reagiert empört+}."): its facts are a new statement's, not changed in a kept one."""
        if hunk.removed and hunk.added:
            return False
        text, at = (hunk.added, hunk.new_at) if hunk.added else (hunk.removed, hunk.old_at)
        whole = self.new_text if hunk.added else self.old_text
        body = text.strip()
        before = whole[:at].rstrip()
        opens = body[:1] in ".!?" or not before or before[-1] in ".!?:"
        after = whole[at + len(text) :].lstrip()
        closes = body[-1:] in ".!?" or not after or after[0] in ".!?"
        first = body.lstrip(".!? ")[:1]
        return opens and closes and (first.isupper() or first.isdigit())

    def _one_phrase(self, hunk: Hunk) -> bool:
        """The two sides of the change say one thing two ways, so a fact that differs
        between them changed: short, or keeping half their other words."""
        removed, added = hunk.removed, hunk.added
        if max(word_count(removed), word_count(added)) < FACT_PHRASE_WORDS:
            return True
        return _shared(_without_facts(removed, self.names), _without_facts(added, self.names)) >= (
            FACT_REST_SIMILARITY
        )

    def _sentence_kept(self, hunk: Hunk) -> bool:
        """The sentence the change is in keeps most of its other words: the change
        rewords part of one statement rather than replacing it."""
        old = _sentence(self.old_text, hunk.old_at, hunk.old_at + len(hunk.removed))
        new = _sentence(self.new_text, hunk.new_at, hunk.new_at + len(hunk.added))
        if self.title:  # the kicker labels the story, and is read on its own
            old = old[self.old.kicker :] if self.old.kicker else old
            new = new[self.new.kicker :] if self.new.kicker else new
        kept = _shared(_without_facts(old, self.names), _without_facts(new, self.names))
        return kept >= SENTENCE_KEPT

    def settle(self, readings: list[Reading]) -> list[Reading]:
        """Facts that left one change and came in another of the same pair moved, and
        punctuation changed next to a rewording is part of it."""
        return self._punctuation_with_rewording(self._moved_facts(readings))

    def _punctuation_with_rewording(self, readings: list[Reading]) -> list[Reading]:
        """A comma dropped a word or two from a reworded phrase ("The company's chief
        executive, Laura Kim, told" → "Chief executive Laura Kim told") is the rewording's,
        not a typo of its own."""
        settled = list(readings)
        for order in (range(len(settled)), range(len(settled) - 1, -1, -1)):
            for index in order:
                reading = settled[index]
                if reading.nature != PUNCTUATION or reading.verdicts != {TYPO}:
                    continue
                neighbours = [settled[j] for j in (index - 1, index + 1) if 0 <= j < len(settled)]
                if any(n.verdicts & {STYLE, FACT} and self._close(n, reading) for n in neighbours):
                    settled[index] = Reading(
                        reading.hunk, reading.nature, frozenset({STYLE}), (),
                        reading.old_marks, reading.new_marks,
                    )  # fmt: skip
        return settled

    def _close(self, one: Reading, other: Reading) -> bool:
        first, second = sorted((one, other), key=lambda r: r.hunk.new_at)
        gap = self.new_text[first.hunk.new_at + len(first.hunk.added) : second.hunk.new_at]
        return word_count(gap) <= PUNCTUATION_REACH

    def _moved_facts(self, readings: list[Reading]) -> list[Reading]:
        """Facts that left one change and came in another of the same pair moved."""
        gone = Counter(a.casefold() for r in readings for a, b in r.facts if a and not b)
        came = Counter(b.casefold() for r in readings for a, b in r.facts if b and not a)
        moved = gone & came
        if not moved:
            return readings
        gone_left, came_left = moved.copy(), moved.copy()
        settled = []
        for reading in readings:
            kept = []
            for a, b in reading.facts:
                if a and not b and gone_left[a.casefold()] > 0:
                    gone_left[a.casefold()] -= 1
                elif b and not a and came_left[b.casefold()] > 0:
                    came_left[b.casefold()] -= 1
                else:
                    kept.append((a, b))
            if reading.facts and not kept:
                verdicts = (reading.verdicts - {FACT}) or frozenset({STYLE})
                settled.append(Reading(reading.hunk, reading.nature, verdicts))
            else:
                settled.append(reading)
        return settled


_SENTENCE_END_AT: Final = re.compile(r"(?<=[^\W\d])[.!?…]+[\"'»«“”]?(?=\s+[\"'»«„“(]?[^\W\d_a-z])")
"""A sentence's end: a full stop after a letter, not a digit ("am 14. Dezember"), then a
capital."""


SENTENCE_REACH: Final = 600
"""Characters a sentence reaches at most either side of a change: a longer run without a
full stop is read as far as this."""


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence (or sentences) of ``text`` that ``start`` to ``end`` stands in; a line
    break ends one too."""
    reach = max(0, start - SENTENCE_REACH)
    first = max(text.rfind("\n", reach, start) + 1, reach)
    for match in _SENTENCE_END_AT.finditer(text, first, start):
        first = match.end()
    last = text.find("\n", end, end + SENTENCE_REACH)
    last = min(len(text), end + SENTENCE_REACH) if last < 0 else last
    closing = _SENTENCE_END_AT.search(text, end, last)
    if closing is not None:
        last = closing.end()
    return text[first:last]


def _clause_replaced(removed: str, added: str) -> bool:
    """Both sides of a change are passages, sharing few words: one clause replaced by
    another that says something else."""
    return (
        min(word_count(removed), word_count(added)) >= PASSAGE_WORDS
        and _shared(_stems(removed), _stems(added)) < REWRITE_SIMILARITY
    )


_ENDING: Final = re.compile(r"(?<=\w{3})(?:ern|en|er|em|es|e|n|s)$")
STEM_LETTERS: Final = 3
"""Letters a word keeps when its inflection ending is cut."""


def _stems(text: str) -> str:
    """``text``'s words without their inflection endings, so that a clause reworded in
    other grammatical forms ("Moderne Methoden, reiche Hinterleute" → "Mit modernen
    Methoden und reichen Hinterleuten") shares its words with the old one."""
    return " ".join(_ENDING.sub("", word.casefold()) for word in _WORDS.findall(text))


def _key(fact: Fact) -> str:
    """What a fact is compared by: a number by its figures ("G20-Gipfel" and "G20" are one
    number, "160 000" and "160.000" too, "1.5" and "1,5" are not), anything else by its
    folded text."""
    if not fact.name:
        figures = _FIGURES.findall(number_form(fact.text))
        if figures:
            return " ".join(figures)
        return number_form(fact.text)
    return fact.text.casefold()


_FIGURES: Final = re.compile(r"\d(?:[\d.,:]*\d)?")


def _small_words_only(removed: str, added: str, names: bool) -> bool:
    """The two sides differ, facts aside, only in small words (articles, prepositions)."""
    old = Counter(w.casefold() for w in _WORDS.findall(_without_facts(removed, names)))
    new = Counter(w.casefold() for w in _WORDS.findall(_without_facts(added, names)))
    return set((old - new) + (new - old)) <= _SMALL_WORDS


def _inside(facts: list[Fact], span: Span) -> list[Fact]:
    """The facts inside ``span``."""
    return [f for f in facts if f.start >= span.start and f.end <= span.end]


_LOCATIVES: Final = frozenset(
    {"in", "im", "auf", "bei", "nahe", "aus", "an", "am", "at", "near", "à", "au", "en"}
)
"""Words that put a place after them ("Dürre in Südfrankreich")."""
_ARTICLES: Final = frozenset({"der", "die", "den", "dem", "des", "the", "le", "la", "les"})


def _located(words_: list[Word], at: int) -> bool:
    """The word at ``at`` in ``words_`` is a place a preposition puts the story in."""
    before = [w.text.casefold() for w in words_ if w.end <= at][-2:]
    if before and before[-1] in _ARTICLES:
        before = before[:-1]
    return bool(before) and before[-1] in _LOCATIVES


def _kicker(title: str) -> int:
    """Where a headline's kicker ends ("Iran: …", "Nancy Faeser (SPD): …", "Krieg in
    der Ukraine -- …" with an en dash), 0 if none."""
    ends = [title.find(mark) for mark in _KICKER_MARKS]
    end = min((e for e in ends if e > 0), default=0)
    return end if end <= KICKER_CHARS else 0


_KICKER_MARKS: Final = (": ", " \u2013 ", " \u2014 ", " - ")
"""What ends a kicker: a colon, or a dash set between spaces."""


def _in_pairs(fact: Fact, pairs: tuple[tuple[str, str], ...], side: int) -> bool:
    return any(pair[side] == fact.text for pair in pairs)


def _within(span: Span, spans: list[tuple[int, int]]) -> bool:
    return any(start <= span.start and span.end <= end for start, end in spans)


def _trimmed(span: Span, text: str) -> Span:
    """The span without the white space at its ends."""
    return _stripped(span.start, text[span.start : span.end])


def _stripped(at: int, text: str) -> Span:
    start = at + len(text) - len(text.lstrip())
    return Span(start, max(start, at + len(text.rstrip())))


def _shared(one: str, other: str) -> float:
    a, b = similarity_codes([one, other])
    return similarity(common_words(a, b), len(a), len(b)) if a or b else 1.0


def _without_facts(text: str, names: bool) -> str:
    facts = located_facts(text, names=names, anywhere=True)
    pieces, position = [], 0
    for fact in facts:
        pieces.append(text[position : fact.start])
        position = fact.end
    pieces.append(text[position:])
    return " ".join(pieces)
