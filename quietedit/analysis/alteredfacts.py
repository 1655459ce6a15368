"""The facts one change altered: the numbers, dates and names that differ between the two
sides of a change, paired old with new (pure).

``reading.py`` reads each change of a pair; this module answers its first question about
one: which facts did the change alter, once the facts that stayed, moved, were respelt,
were written in another form of the same name or said as the same count in other words
are set aside, and whether the word rules vouch for them (a short phrase, or one keeping
half its other words) or only the sentence around them can (``confidence.py`` decides).
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from quietedit.analysis.changedfacts import paired
from quietedit.analysis.confidence import kept_share
from quietedit.analysis.facts import Fact, is_spelling_fix
from quietedit.analysis.names import ACRONYM_LETTERS, by_kept, name_forms, still_there
from quietedit.analysis.numberwords import same_count
from quietedit.analysis.phrases import (
    PASSAGE_WORDS,
    clause_replaced,
    fact_key,
    located,
    outside_own_clauses,
    sentence_around,
    shared,
    widened,
    without_facts,
    word_count,
)
from quietedit.analysis.places import capital_for_country
from quietedit.analysis.sides import Side
from quietedit.analysis.words import Hunk

FACT_PHRASE_WORDS: Final = PASSAGE_WORDS
"""A change shorter than this on both sides is one phrase: a number, date or name that
differs in it changed. Longer changes must keep half their other words to count."""
FACT_REST_SIMILARITY: Final = 0.5
SENTENCE_KEPT: Final = 0.4
"""Share of its other words a sentence must keep for a number or date that changed in a
longer rewording of it to count as a changed fact."""


class ChangeFacts:
    """The fact rules of one pair's changes: both sides read once (:class:`Side`)."""

    def __init__(
        self, old_text: str, new_text: str, old: Side, new: Side, *, names: bool, title: bool
    ) -> None:
        self.old_text, self.new_text = old_text, new_text
        self.old, self.new = old, new
        self.names, self.title = names, title

    def pairs(
        self, gone: list[Fact], came: list[Fact], hunk: Hunk
    ) -> tuple[tuple[tuple[str, str], ...], bool]:
        """The facts this change altered, as ``(old, new)`` pairs ("" for none), and
        whether the word rules vouch for them (``False``: a longer rewording whose facts
        only the sentence around it can vouch for, :func:`confident` decides)."""
        left = Counter(fact_key(f) for f in came)
        still_gone = []
        for fact in gone:  # the same fact on both sides of the change is no change
            if left[fact_key(fact)] > 0:
                left[fact_key(fact)] -= 1
            else:
                still_gone.append(fact)
        right = Counter(fact_key(f) for f in gone)
        still_came = []
        for fact in came:
            if right[fact_key(fact)] > 0:
                right[fact_key(fact)] -= 1
            else:
                still_came.append(fact)
        # a count said in other words ("[-beiden-]{+zwei+}", "erneut" → "beim zweiten
        # Anlauf") is the same count
        old_sentence, new_sentence = self.sentences(hunk)
        still_gone = [
            f for f in still_gone if f.name or not same_count(f.text, old_sentence, new_sentence)
        ]
        still_came = [
            f for f in still_came if f.name or not same_count(f.text, new_sentence, old_sentence)
        ]
        # a name still in the other revision moved; a respelt one is a typo; a name run
        # together with the next word by the page is still there
        still_gone = [f for f in still_gone if not still_there(f, self.new.words, self.new.names_)]
        still_came = [f for f in still_came if not still_there(f, self.old.words, self.old.names_)]
        # a number cut from one place while the other side has it elsewhere, and none came
        # in its stead, moved ("[-F-16-Kampfjets für die-] Ukraine: … {+von F-16+}")
        if not any(not f.name for f in still_came):
            still_gone = [f for f in still_gone if f.name or not self.new.has(fact_key(f))]
        if not any(not f.name for f in still_gone):
            still_came = [f for f in still_came if f.name or not self.old.has(fact_key(f))]
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
            texts_=(self.old_text, self.new_text),
        )
        german = not self.names
        still_gone, still_came = self._capitals(still_gone, still_came)
        if not any(f.name for f in still_gone):
            still_came = [f for f in still_came if not self._short_form(f)]
        if not any(f.name for f in still_came):
            still_gone = [f for f in still_gone if not self._short_form(f)]
        if not self.title:  # a headline's clause is never a passage: its facts stay
            still_gone = outside_own_clauses(still_gone, self.old_text, hunk.old_at, hunk.removed)
            still_came = outside_own_clauses(still_came, self.new_text, hunk.new_at, hunk.added)
        still_gone = [
            f for f in still_gone if not by_kept(f, self.old.read, self.new.words, german)
        ]
        still_came = [
            f for f in still_came if not by_kept(f, self.new.read, self.old.words, german)
        ]
        if not still_gone and not still_came:
            return (), False
        rule = True
        if not self._one_phrase(hunk):
            loose = paired(still_gone, still_came)
            numbers = any(not f.name for f in (*still_gone, *still_came))
            if (
                numbers
                and self.sentence_kept(hunk)
                and (self.title or not clause_replaced(hunk.removed, hunk.added))
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
                return loose, False
        return paired(still_gone, still_came), rule

    def _short_form(self, fact: Fact) -> bool:
        """An abbreviation put in or cut while both sides name a body in full elsewhere:
        the body's short form ("Niklas Süle von Borussia Dortmund: … {+beim BVB+}"), a
        rewording, though its letters need not be the name's initials."""
        fewest, most = ACRONYM_LETTERS
        if not (fact.name and fewest <= len(fact.text) <= most and fact.text.isupper()):
            return False
        both = self.old.names_ & self.new.names_
        return any(len(name) >= 2 and not all(w.isupper() for w in name) for name in both)

    def _capitals(self, gone: list[Fact], came: list[Fact]) -> tuple[list[Fact], list[Fact]]:
        """Without a country and its capital that stands for it where neither is where
        something happens ("[-die Ukraine-]{+Kiew+} erhält Panzer"), a rewording; "in
        [-der Ukraine-]{+Kiew+}" is a place changed."""
        for old in [f for f in gone if f.name and not located(self.old.read, f.start)]:
            new = next(
                (
                    f
                    for f in came
                    if f.name
                    and capital_for_country(old.text, f.text)
                    and not located(self.new.read, f.start)
                ),
                None,
            )
            if new is not None:
                gone = [f for f in gone if f is not old]
                came = [f for f in came if f is not new]
        return gone, came

    def sentences(self, hunk: Hunk) -> tuple[str, str]:
        """The old and the new sentence the change stands in."""
        return (
            sentence_around(self.old_text, hunk.old_at, hunk.old_at + len(hunk.removed)),
            sentence_around(self.new_text, hunk.new_at, hunk.new_at + len(hunk.added)),
        )

    def _one_phrase(self, hunk: Hunk) -> bool:
        """The two sides of the change say one thing two ways, so a fact that differs
        between them changed: short, or keeping half their other words."""
        removed, added = hunk.removed, hunk.added
        if max(word_count(removed), word_count(added)) < FACT_PHRASE_WORDS:
            return True
        if shared(without_facts(removed, self.names), without_facts(added, self.names)) >= (
            FACT_REST_SIMILARITY
        ):
            return True
        return widened(removed, added) or widened(added, removed)

    def sentence_kept(self, hunk: Hunk) -> bool:
        """The sentence the change is in keeps most of its other words: the change
        rewords part of one statement rather than replacing it."""
        return self.kept_share(hunk) >= SENTENCE_KEPT

    def kept_share(self, hunk: Hunk) -> float:
        kickers = (self.old.kicker, self.new.kicker) if self.title else (0, 0)
        return kept_share(self.old_text, self.new_text, hunk, kickers=kickers, names=self.names)
