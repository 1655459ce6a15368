"""One side of a pair read for facts, and what a headline's kicker does to its facts.

A :class:`Side` reads a revision's text for its words, facts, quotations and kicker, once
and only when a change needs it. :class:`Kickers` holds the rules of a headline's kicker
(the topic before its colon): a name there labels the story rather than states a fact,
but the place a kept topic is located in, replaced or given where none was, is a fact
("Dürre in [-Südfrankreich-]{+Frankreich+}:", "Corona-Entscheidung {+in Erfurt+}:").
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Final

from quietedit.analysis.facts import Fact, Word, located_facts, words
from quietedit.analysis.lexicon import quotation_spans
from quietedit.analysis.names import still_there, texts
from quietedit.analysis.phrases import fact_key, kicker_end, located, marked_spans, same_topic
from quietedit.analysis.verdicts import Span
from quietedit.analysis.words import Hunk


class Side:
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
    def numbers(self) -> set[str]:
        return {fact_key(f) for f in self.facts if not f.name}

    def has(self, key: str) -> bool:
        """The side has a number compared by ``key`` (:func:`fact_key`)."""
        return key in self.numbers

    @cached_property
    def quotes(self) -> list[tuple[int, int]]:
        return quotation_spans(self.text)

    @cached_property
    def marked(self) -> list[tuple[int, int]]:
        """Where words in quotation marks stand in a headline's kicker, names and titles
        of works included (nothing outside a headline's kicker is asked for)."""
        if not self.kicker:
            return []
        return marked_spans(self.text, self.kicker)

    @cached_property
    def kicker(self) -> int:
        return kicker_end(self.text) if self.title else 0


class Kickers:
    """The kicker rules of one pair of headlines (both sides read as :class:`Side`)."""

    def __init__(self, old: Side, new: Side) -> None:
        self.old, self.new = old, new

    def label(self, fact: Fact, side: Side) -> bool:
        """A fact of a headline's kicker that labels the story rather than states a fact:
        a name ("Peking:" → "China:"), or words in quotation marks (a work's title, »192
        Farben«). A place a kept topic is located in, replaced by another, is a fact
        ("Dürre in [-Südfrankreich-]{+Frankreich+}:")."""
        if fact.end > side.kicker:
            return False
        if within(Span(fact.start, fact.end), side.marked):
            return True
        if not fact.name:
            return _model(fact, side)
        return not (self._topic_kept and located(side.read, fact.start))

    def places(
        self,
        gone: list[Fact],
        came: list[Fact],
        placed_gone: list[Fact],
        placed_came: list[Fact],
        hunk: Hunk,
    ) -> tuple[list[Fact], list[Fact]]:
        """The facts of a change without the places added to a kicker or cut from it (they
        label the story), but for a place a kept topic is located in that a word the place
        list lacks replaced, there in the same phrase ("E6 [-bei Stenungsund-]{+in
        Schweden+}:", "Schule in [-Brandenburg-]{+Burg+}:"): then both are places."""
        old_words = self._located_words(self.old, hunk.old_at, hunk.old_at + len(hunk.removed))
        new_words = self._located_words(self.new, hunk.new_at, hunk.new_at + len(hunk.added))
        kept_gone = [f for f in placed_gone if new_words and self._locates(f, self.old)]
        kept_came = [f for f in placed_came if old_words and self._locates(f, self.new)]
        if self.topic_kept_in(hunk):
            kept_came += [f for f in placed_came if self.placed_topic(f, self.new, self.old)]
        gone = [f for f in gone if f not in placed_gone or f in kept_gone]
        came = [f for f in came if f not in placed_came or f in kept_came]
        if kept_gone:
            came += [_place(w) for w in new_words if all(f.start != w.start for f in came)]
        if kept_came:
            gone += [_place(w) for w in old_words if all(f.start != w.start for f in gone)]
        return sorted(gone, key=_at), sorted(came, key=_at)

    def topic_kept_in(self, hunk: Hunk) -> bool:
        """The change cuts nothing, or only the kicker's topic word that the words it puts
        in open with in a shorter or longer form ("[-Coronavirus-]{+Corona in
        Deutschland+}:"): the topic stays, so a place put after it is given to it."""
        removed = hunk.removed.split()
        if not removed:
            return True
        added = hunk.added.split()
        return len(removed) == 1 and bool(added) and same_word(removed[0], added[0])

    def placed_topic(self, fact: Fact, side: Side, other: Side) -> bool:
        """A place put after a kicker's topic that the old kicker had too (in that or a
        shorter or longer form), with no place in its stead: where the topic happens,
        given where none was ("Corona-Entscheidung {+in Erfurt+}:", "[-Coronavirus-]
        {+Corona in Deutschland+}:"), a fact, not a label. (A place cut from a kicker
        drops a label.)"""
        if not located(side.read, fact.start):
            return False
        before = [w for w in side.read if w.end <= fact.start and w.text[:1].isalnum()]
        topic = next((w for w in reversed(before) if w.capitalised), None)
        if topic is None or topic.end > fact.start or not other.kicker:
            return False
        return any(
            same_word(w.text, topic.text) and w.end <= other.kicker for w in other.read
        ) and not still_there(fact, other.words, other.names_)

    def _locates(self, fact: Fact, side: Side) -> bool:
        return self._topic_kept and located(side.read, fact.start)

    def _located_words(self, side: Side, start: int, end: int) -> list[Word]:
        """The capitalised words from ``start`` to ``end`` in a kept topic's kicker that a
        preposition locates the story in."""
        if not self._topic_kept:
            return []
        end = min(end, side.kicker)
        return [
            w
            for w in side.read
            if start <= w.start and w.end <= end and w.capitalised and located(side.read, w.start)
        ]

    @cached_property
    def _topic_kept(self) -> bool:
        """Both headlines have a kicker, opening with the same word (the topic)."""
        return bool(self.old.kicker and self.new.kicker) and same_topic(
            self.old.text, self.new.text
        )


_MODEL: Final = re.compile(r"[A-Za-z]{0,2}\d+[A-Za-z]*")
"""A model's number: figures with a letter or two before or after ("5er", "A320", "737")."""
_YEAR: Final = re.compile(r"(?:19|20)\d\d")


def _model(fact: Fact, side: Side) -> bool:
    """A number in a kicker that a name goes before is the name's, a model or a series
    ("BMW 5er, Mercedes E-Klasse:", "Boeing 737:", "iPhone 15:"): a label like the name,
    not a count. A year there ("Frauentag 2023:") is a date, still a fact."""
    before = [w for w in side.read if w.end <= fact.start]
    return (
        bool(before)
        and before[-1].capitalised
        and side.text[before[-1].end : fact.start].isspace()
        and _MODEL.fullmatch(fact.text) is not None
        and _YEAR.fullmatch(fact.text) is None
    )


TOPIC_LETTERS: Final = 5
"""Letters a topic's shorter form keeps of its longer one at least ("Corona" of
"Coronavirus", "Klima" of "Klimakrise")."""


def same_word(one: str, other: str) -> bool:
    """One word, or a shorter form of it that opens the longer ("Corona", "Coronavirus")."""
    short, long_ = sorted((one.casefold(), other.casefold()), key=len)
    return short == long_ or (len(short) >= TOPIC_LETTERS and long_.startswith(short))


def within(span: Span, spans: list[tuple[int, int]]) -> bool:
    """``span`` lies inside one of ``spans``."""
    return any(start <= span.start and span.end <= end for start, end in spans)


def _place(word: Word) -> Fact:
    return Fact(word.text, word.start, word.end, True, (word,))


def _at(fact: Fact) -> int:
    return fact.start
