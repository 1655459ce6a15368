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
  headline's kicker labels the story, but a date there, or the place of a kept topic
  replaced, is a fact; a number is compared by its figures ("G20-Gipfel", "G20"); a
  number or date changed in a longer rewording counts while its sentence stays; a short
  sentence inserted or cut whole is a new statement, not a changed one; and a change
  whose two sides share little and are long (a clause replaced by another) is a passage,
  not a fact (``alteredfacts.py`` pairs the facts a change altered, ``phrases.py``
  compares the phrases);
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

from collections.abc import Sequence
from typing import Final

from quietedit.analysis.alteredfacts import ChangeFacts
from quietedit.analysis.changedfacts import (
    in_pairs,
    inside,
    names_of,
    names_only,
    requalified,
    weighs_as_number,
)
from quietedit.analysis.confidence import FactEvidence, confident
from quietedit.analysis.facts import Fact, magnitude_facts
from quietedit.analysis.headlines import clause_of_its_own, headline_clause
from quietedit.analysis.lexicon import (
    FACTS,
    PUNCTUATION,
    TYPO_NATURES,
    grammar_words,
    hunk_nature,
)
from quietedit.analysis.moves import moved_facts
from quietedit.analysis.names import (
    renamed,
)
from quietedit.analysis.notes import headline_credit, is_credit_line, note_kind
from quietedit.analysis.phrases import (
    PASSAGE_WORDS,
    clause_replaced,
    located,
    restructured,
    small_words_only,
    whole_sentence,
    word_count,
)
from quietedit.analysis.places import is_german_place
from quietedit.analysis.sides import Kickers, Side, within
from quietedit.analysis.verdicts import (
    ADDED,
    CREDIT,
    FACT,
    NOTE,
    QUOTED,
    REMOVED,
    STYLE,
    TYPO,
    PairReading,
    Reading,
    Span,
    stripped,
)
from quietedit.analysis.words import (
    Hunk,
    Segment,
    hunks,
    new_side,
    old_side,
    realign,
)

PUNCTUATION_REACH: Final = 2
"""Kept words at most between a punctuation change and a rewording for the punctuation to
be part of the rewording."""


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
    old_at = realign("\n".join(old_parts), old_text)
    new_at = realign("\n".join(new_parts), new_text)
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


class _Reader:
    def __init__(self, old_text: str, new_text: str, *, names: bool, title: bool) -> None:
        self.old_text, self.new_text = old_text, new_text
        self.names, self.title = names, title
        self.old = Side(old_text, names=names, title=title)
        self.new = Side(new_text, names=names, title=title)
        self.kickers = Kickers(self.old, self.new)
        self.facts = ChangeFacts(old_text, new_text, self.old, self.new, names=names, title=title)

    def read(self, hunk: Hunk) -> Reading:
        removed, added = hunk.removed, hunk.added
        nature = hunk_nature(removed, added, names=self.names)
        old_span = Span(hunk.old_at, hunk.old_at + len(removed))
        new_span = Span(hunk.new_at, hunk.new_at + len(added))
        whole_old = (_trimmed(old_span, self.old_text),)
        whole_new = (_trimmed(new_span, self.new_text),)
        if nature in TYPO_NATURES and not (self.title and restructured(removed, added)):
            return Reading(hunk, nature, frozenset({TYPO}), (), whole_old, whole_new)
        if self.title and not (removed and added):
            # the author named at the end of a headline: a credit, not a name of the story
            text, at = (self.new_text, hunk.new_at) if added else (self.old_text, hunk.old_at)
            if not text[at + len(added or removed) :].strip() and headline_credit(
                text[:at], added or removed
            ):
                return Reading(hunk, nature, frozenset({CREDIT}), (), whole_old, whole_new)
        if not removed and not self.title:
            if is_credit_line(added):
                return Reading(hunk, nature, frozenset({CREDIT}), (), (), whole_new)
            if note_kind(added) is not None:
                return Reading(hunk, nature, frozenset({NOTE}), (), (), whole_new)
        gone = [f for f in inside(self.old.facts, old_span) if not self.kickers.label(f, self.old)]
        came = [
            f
            for f in inside(self.new.facts, new_span)
            if not self.kickers.label(f, self.new)
            or (
                self.kickers.topic_kept_in(hunk)
                and self.kickers.placed_topic(f, self.new, self.old)
            )
        ]
        gone_sizes = magnitude_facts(self.old.read, old_span.start, old_span.end)
        came_sizes = magnitude_facts(self.new.read, new_span.start, new_span.end)
        if gone_sizes and came_sizes:  # a magnitude inside a compound on both sides
            gone = sorted([*gone, *gone_sizes], key=lambda f: f.start)
            came = sorted([*came, *came_sizes], key=lambda f: f.start)
        placed_gone = [f for f in gone if f.name and f.end <= self.old.kicker]
        placed_came = [f for f in came if f.name and f.end <= self.new.kicker]
        if (placed_gone or placed_came) and not (placed_gone and placed_came):
            # a place added to a kicker or cut labels the story
            gone, came = self.kickers.places(gone, came, placed_gone, placed_came, hunk)
        changed, rule = self.facts.pairs(gone, came, hunk)
        bounded = () if changed else requalified(hunk, self.old_text, self.new_text)
        if bounded and confident(
            FactEvidence(kept=self.facts.kept_share(hunk), rule=True, numbers=True, located=False)
        ):
            return Reading(hunk, nature, frozenset({FACT}), bounded, whole_old, whole_new)
        if changed and (
            self._short_sentence(hunk)
            or (
                self.title
                and (
                    (clause_of_its_own(hunk, changed) and not self._placed(gone, came))
                    or (
                        names_only(changed, names_of(gone, came))
                        and headline_clause(hunk, self.old, self.new)
                    )
                )
            )
        ):
            changed = ()  # a sentence or clause of its own, too short for a passage
        removed_words, added_words = word_count(removed), word_count(added)
        if renamed(gone, came):
            # one name written in another form is a rewording, however many words it has
            removed_words -= sum(f.name for f in gone)
            added_words -= sum(f.name for f in came)
        if changed and rule:
            # the changed facts are the change, not words of a passage ("[-Die News-]{+Das
            # waren die News am 14. Dezember+}": a date added to a kept sentence)
            removed_words -= sum(word_count(a) for a, _ in changed)
            added_words -= sum(word_count(b) for _, b in changed)
        passage = self._passage(removed, added, removed_words, added_words)
        if changed and not passage and confident(self._evidence(hunk, changed, gone, came, rule)):
            only_facts = nature == FACTS or small_words_only(removed, added, self.names)
            verdicts = {FACT} if only_facts else {FACT, STYLE}
            old_marks = tuple(Span(f.start, f.end) for f in gone if in_pairs(f, changed, 0))
            new_marks = tuple(Span(f.start, f.end) for f in came if in_pairs(f, changed, 1))
            return Reading(hunk, nature, frozenset(verdicts), changed, old_marks, new_marks)
        if passage:
            return Reading(hunk, nature, frozenset(passage), (), whole_old, whole_new)
        if self._quoted(whole_old[0], whole_new[0]):
            return Reading(hunk, nature, frozenset({QUOTED}), (), whole_old, whole_new)
        return Reading(hunk, nature, frozenset({STYLE}), (), whole_old, whole_new)

    def _passage(self, removed: str, added: str, removed_words: int, added_words: int) -> set[str]:
        if self.title:
            return set()
        if not removed or not added:
            if max(removed_words, added_words) < PASSAGE_WORDS:
                return set()
            return {ADDED} if added else {REMOVED}
        if clause_replaced(removed, added):
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
            (old.start == old.end or within(old, self.old.quotes))
            and (new.start == new.end or within(new, self.new.quotes))
            and bool(self.old.quotes or self.new.quotes)
        )

    def _placed(self, gone: list[Fact], came: list[Fact]) -> bool:
        """A name of the change is a known place, or where a preposition puts the
        statement ("{+am Rand der Altstadt von Leipzig+}"): a place given to it, whatever
        words come with it."""
        return any(
            f.name and (is_german_place(f.text) or located(side.read, f.start))
            for facts, side in ((gone, self.old), (came, self.new))
            for f in facts
        )

    def _short_sentence(self, hunk: Hunk) -> bool:
        """The change inserts or cuts a whole sentence: its facts are a new statement's."""
        if hunk.removed and hunk.added:
            return False
        if hunk.added:
            return whole_sentence(self.new_text, hunk.new_at, hunk.added)
        return whole_sentence(self.old_text, hunk.old_at, hunk.removed)

    def _evidence(
        self,
        hunk: Hunk,
        changed: tuple[tuple[str, str], ...],
        gone: list[Fact],
        came: list[Fact],
        rule: bool,
    ) -> FactEvidence:
        """What speaks for the change being a changed fact (``confidence.py``)."""
        old = [f for f in gone if in_pairs(f, changed, 0)]
        new = [f for f in came if in_pairs(f, changed, 1)]
        placed = [(f, self.old) for f in old] + [(f, self.new) for f in new]
        return FactEvidence(
            kept=self.facts.kept_share(hunk),
            rule=rule,
            numbers=weighs_as_number(
                changed,
                old,
                new,
                names_of(gone, came),
                texts=(self.old_text, self.new_text),
                sentences=self.facts.sentences(hunk),
            ),
            located=any(f.name and located(side.read, f.start) for f, side in placed),
        )

    def settle(self, readings: list[Reading]) -> list[Reading]:
        """Facts that left one change and came in another of the same pair moved, and
        punctuation changed next to a rewording is part of it."""
        return self._punctuation_with_rewording(moved_facts(readings))

    def _punctuation_with_rewording(self, readings: list[Reading]) -> list[Reading]:
        """A comma dropped a word or two from a reworded phrase ("The company's chief
        executive, Laura Kim, told" → "Chief executive Laura Kim told") is the rewording's,
        not a typo of its own; so is an article, a pronoun or an auxiliary verb that the
        rewording beside it changed ("[-Die-]{+Das+} Berliner [-Firma-]{+Unternehmen+}",
        "zur Sucht [-wird-]{+werden+}" after "[-Sex-]{+Trieb und Lust+}")."""
        settled = list(readings)
        for order in (range(len(settled)), range(len(settled) - 1, -1, -1)):
            for index in order:
                reading = settled[index]
                if reading.verdicts != {TYPO} or not (
                    reading.nature == PUNCTUATION
                    or grammar_words(reading.hunk.removed, reading.hunk.added)
                ):
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


def _trimmed(span: Span, text: str) -> Span:
    """The span without the white space at its ends."""
    return stripped(span.start, text[span.start : span.end])
