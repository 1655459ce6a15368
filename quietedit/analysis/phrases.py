"""Where a change stands and how two phrases compare: its sentence, a headline's kicker,
a place a kicker locates, words without their facts or their inflection endings, and the
key a number is compared by (pure; the reading of ``reading.py`` works from these)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Final

from quietedit.analysis.facts import LOCATIVES, Fact, Word, located_facts
from quietedit.analysis.lexicon import number_form
from quietedit.analysis.numberwords import RELATIVE, magnitude
from quietedit.analysis.words import common_words, similarity, similarity_codes, tokenize

PASSAGE_WORDS: Final = 5
"""A pure insertion or deletion inside a block of at least this many words is a passage
added or removed, not a rewording."""
REWRITE_SIMILARITY: Final = 0.34
"""Below this share of words in common, a change whose sides both have ``PASSAGE_WORDS``
or more replaced a clause with another (removed and added), rather than reworded it.
Set against the labelled edits of ``bench/classify.py``: paraphrases of a clause share
about half their words, replaced clauses under a fifth."""
_SMALL_WORDS: Final = frozenset(
    {"the", "a", "an", "in", "on", "at", "of", "der", "die", "das", "den", "dem", "des",
     "im", "am", "le", "la", "les", "l", "en", "au"}
)  # fmt: skip
"""Words that come and go with a fact ("the Netherlands" → "Belgium") without rewording."""
KICKER_CHARS: Final = 80
"""Longest kicker: the topic label before a headline's colon or spaced dash. A name there
labels the story and states nothing, so a name changed in it is a rewording ("Peking:" →
"China:"); a list of the names a story is about is one too."""
_KICKER_MARKS: Final = (": ", " \u2013 ", " \u2014 ", " - ")
"""What ends a kicker: a colon, or a dash set between spaces."""
SENTENCE_REACH: Final = 600
"""Characters a sentence reaches at most either side of a change: a longer run without a
full stop is read as far as this."""

_WORDS: Final = re.compile(r"\w+")
_SENTENCE_END_AT: Final = re.compile(r"(?<=[^\W\d])[.!?…]+[\"'»«“”]?(?=\s+[\"'»«„“(]?[^\W\d_a-z])")
"""A sentence's end: a full stop after a letter, not a digit ("am 14. Dezember"), then a
capital."""
_MARKED: Final = re.compile(r"[»«„“”\"]([^»«„“”\"\n]{1,80})[»«“”\"]")
"""Words between quotation marks of any kind."""
_ENDING: Final = re.compile(r"(?<=\w{3})(?:ern|en|er|em|es|e|n|s)$")
"""An inflection ending, cut where the word keeps three letters at least."""
_FIGURES: Final = re.compile(r"\d(?:[\d.,:]*\d)?")
_ARTICLES: Final = frozenset({"der", "die", "den", "dem", "des", "the", "le", "la", "les"})


def kicker_end(title: str) -> int:
    """Where a headline's kicker ends ("Iran: …", "Nancy Faeser (SPD): …", "Krieg in
    der Ukraine -- …" with an en dash), 0 if none."""
    ends = [title.find(mark) for mark in _KICKER_MARKS]
    end = min((e for e in ends if e > 0), default=0)
    if end > KICKER_CHARS or states(title[:end]):
        return 0
    return end


_FINITE: Final = frozenset(
    {"ist", "sind", "war", "hat", "haben", "wird", "werden", "soll", "will", "muss", "kann",
     "darf", "warb", "gibt", "geht", "is", "was", "has", "wins", "says"}
)  # fmt: skip
_NOT_VERBS: Final = frozenset(
    {"nicht", "jetzt", "erst", "selbst", "bereits", "seit", "mit", "fast", "meist", "zuletzt",
     "gut", "tot", "oft", "laut", "samt", "statt", "weit", "nebst", "aka", "at", "but"}
)  # fmt: skip
"""Small words ending like a German verb ("mit", "laut") that are none."""
_LOWER_WORD: Final = re.compile(r"(?<![\w'\u2019-])[a-zäöüß]+(?![\w'\u2019-])")


def states(kicker: str) -> bool:
    """Whether the words before a headline's colon make a statement rather than a topic
    label: a verb of its own there ("RB Leipzig schlägt Real Madrid in der Champions
    League:", "Hans Meiser ist tot:"), a German finite verb read as a lower-case word
    ending in "t" that is not a small word, or an auxiliary."""
    for match in _LOWER_WORD.finditer(kicker):
        word = match.group()
        if word in _FINITE or (len(word) > 3 and word.endswith("t") and word not in _NOT_VERBS):
            return True
    return False


def marked_spans(text: str, end: int) -> list[tuple[int, int]]:
    """Where words in quotation marks stand before ``end``, names and titles of works
    included."""
    return [match.span(1) for match in _MARKED.finditer(text, 0, end)]


def located(words: list[Word], at: int) -> bool:
    """The word at ``at`` in ``words`` is a place a preposition puts the story in."""
    before = [w.text.casefold() for w in words if w.end <= at][-2:]
    if before and before[-1] in _ARTICLES:
        before = before[:-1]
    return bool(before) and before[-1] in LOCATIVES


def same_topic(old_title: str, new_title: str) -> bool:
    """Two headlines open with the same word: their kickers name one topic."""
    old, new = _WORDS.findall(old_title[:200]), _WORDS.findall(new_title[:200])
    return bool(old and new) and old[0].casefold() == new[0].casefold()


def whole_sentence(whole: str, at: int, text: str) -> bool:
    """``text``, standing at ``at`` in ``whole``, is a whole sentence ("… stellt sich
    quer{+. Die FDP reagiert empört+}.")."""
    body = text.strip()
    before = whole[:at].rstrip()
    opens = body[:1] in ".!?" or not before or before[-1] in ".!?:"
    after = whole[at + len(text) :].lstrip()
    closes = body[-1:] in ".!?" or not after or after[0] in ".!?"
    first = body.lstrip(".!? ")[:1]
    return opens and closes and (first.isupper() or first.isdigit())


def sentence_around(text: str, start: int, end: int) -> str:
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


def stems(text: str) -> str:
    """``text``'s words without their inflection endings, so that a clause reworded in
    other grammatical forms ("Moderne Methoden, reiche Hinterleute" → "Mit modernen
    Methoden und reichen Hinterleuten") shares its words with the old one."""
    return " ".join(_ENDING.sub("", word.casefold()) for word in _WORDS.findall(text))


def fact_key(fact: Fact) -> str:
    """What a fact is compared by: a number by its figures ("G20-Gipfel" and "G20" are one
    number, "160 000" and "160.000" too, "1.5" and "1,5" are not), anything else by its
    folded text."""
    if not fact.name:
        figures = _FIGURES.findall(number_form(fact.text))
        if figures:
            return " ".join(figures)
        return magnitude(fact.text) or number_form(fact.text)
    return fact.text.casefold()


def shared(one: str, other: str) -> float:
    """The share of their words two texts have in common, in order (1.0 for two empty)."""
    a, b = similarity_codes([one, other])
    return similarity(common_words(a, b), len(a), len(b)) if a or b else 1.0


def without_facts(text: str, names: bool) -> str:
    """``text`` with its numbers, dates and names left out."""
    facts = located_facts(text, names=names, anywhere=True)
    pieces, position = [], 0
    for fact in facts:
        pieces.append(text[position : fact.start])
        position = fact.end
    pieces.append(text[position:])
    return " ".join(pieces)


def word_count(text: str) -> int:
    """Words as a reader counts them: "Nigeria's" and "4.2" are one word each."""
    return sum(1 for token in tokenize(text) if any(c.isalnum() for c in token))


def clause_replaced(removed: str, added: str) -> bool:
    """Both sides of a change are passages, sharing few words: one clause replaced by
    another that says something else."""
    return (
        min(word_count(removed), word_count(added)) >= PASSAGE_WORDS
        and shared(stems(removed), stems(added)) < REWRITE_SIMILARITY
        and kindred(removed, added) < KINDRED_SHARE
    )


KINDRED_SHARE: Final = 0.4
"""Share of their content words two sides of a change must have in kind, a word's stem
inside a word of the other side ("gesperrt", "Straßensperren"), to be one clause said
in other words rather than one clause replaced by another."""
_KIN_LETTERS: Final = 5


def kindred(one: str, other: str) -> float:
    """The share of the content words of both sides (five letters or more) whose stem
    stands in a word of the other side, in any order, a compound's part or a participle
    included ("Straßen wurden gesperrt … ein gepanzertes Fahrzeug" and "Mit
    Straßensperren und Panzerfahrzeugen")."""
    a = [w.casefold() for w in _WORDS.findall(one) if len(w) >= _KIN_LETTERS]
    b = [w.casefold() for w in _WORDS.findall(other) if len(w) >= _KIN_LETTERS]
    if not a or not b:
        return 0.0
    found = sum(_kin(w, b) for w in a) + sum(_kin(w, a) for w in b)
    return found / (len(a) + len(b))


def _kin(word: str, others: list[str]) -> bool:
    root = _root(word)
    return any(root in _root(o) or _root(o) in word for o in others)


def _root(word: str) -> str:
    """A word's stem, without a participle's "ge" and its inflection ending."""
    stem = _ENDING.sub("", word)
    if stem.startswith("ge") and len(stem) > _KIN_LETTERS + 1:
        stem = stem[2:]
    return stem[: max(_KIN_LETTERS, len(stem) - 1)] if len(stem) > _KIN_LETTERS else stem


def small_words_only(removed: str, added: str, names: bool) -> bool:
    """The two sides differ, facts aside, only in small words (articles, prepositions,
    and the word that places a span of time: "{+in diesem Jahr+}" gives a date alone)."""
    old = Counter(w.casefold() for w in _WORDS.findall(without_facts(removed, names)))
    new = Counter(w.casefold() for w in _WORDS.findall(without_facts(added, names)))
    return set((old - new) + (new - old)) <= _SMALL_WORDS | RELATIVE


def restructured(removed: str, added: str) -> bool:
    """A headline's change that puts in or takes out the colon a kicker ends with
    ("[-Estlands-]{+Estland:+} Regierung", "[-US-Ermittler-]{+USA: Ermittler+}"): the
    headline built another way, a rewording, however few letters changed."""
    return removed.count(":") != added.count(":")


_PART_LETTERS: Final = 4
"""Letters a word or a part of a compound needs to be matched in another phrase; shorter
words ("hat", "von") are left out of the comparison."""


_WIDENED_PARTS: Final = 2
"""Words (or compound parts) the shorter side must have: one word found again in a long
change says little about the two saying one thing."""


def widened(short: str, long_: str) -> bool:
    """Every word of ``short`` stands in ``long_`` too, alone or as a part of a compound
    ("[-SPIEGEL-Podcast-]{+Podcast von SPIEGEL und Spotify+}", "[-Gesundheitsminister
    Lauterbach hat-]{+Die Minister Lauterbach und Özdemir haben+}"): the same phrase
    said at more length, so a name or number it gains or loses changed in it."""
    parts = [p.casefold() for p in _WORDS.findall(short) if len(p) >= _PART_LETTERS]
    others = {p.casefold() for p in _WORDS.findall(long_) if len(p) >= _PART_LETTERS}
    return (
        len(parts) >= _WIDENED_PARTS
        and len(parts) < len(others)
        and all(any(p == o or p.endswith(o) or p.startswith(o) for o in others) for p in parts)
    )


_CLAUSE_END: Final = re.compile(r"[.!?;:]+\s|\s[\u2013\u2014-]\s")
"""What closes a sentence or a clause of its own inside a change: a full stop, a colon,
a semicolon, or a dash between spaces."""
_CLAUSE_MARK_REACH: Final = " - "
"""The longest mark, whose reach outside a change still bounds a clause in it."""


def in_own_clause(fact: Fact, text: str, start: int, end: int) -> bool:
    """``fact`` stands in a sentence or clause of its own that the change from ``start``
    to ``end`` of ``text`` puts in or cuts whole, of :data:`PASSAGE_WORDS` words or more:
    a new statement's fact, not one changed in a statement that stays ("[-gespürt. Es-]{+.
    Mindestens acht Menschen wurden verletzt - es+} ist bereits das zweite Beben")."""
    # a mark just outside the change bounds the clause too ("…Erdstoß.{+ Mindestens …+}")
    reach = len(_CLAUSE_MARK_REACH)
    opening = [m.end() for m in _CLAUSE_END.finditer(text, max(0, start - reach), fact.start)]
    first = opening[-1] if opening else 0 if start == 0 else -1
    closing = _CLAUSE_END.search(text, fact.end, min(len(text), end + reach))
    last = closing.start() if closing else len(text) if end >= len(text) else -1
    if first < 0 or last < 0:
        return False
    return word_count(text[first:last]) >= PASSAGE_WORDS


def outside_own_clauses(facts: list[Fact], text: str, at: int, change: str) -> list[Fact]:
    """``facts`` but those in a sentence or clause of its own that ``change``, standing at
    ``at`` in ``text``, puts in or cuts whole (:func:`in_own_clause`)."""
    return [f for f in facts if not in_own_clause(f, text, at, at + len(change))]
