"""Facts in text: numbers, dates and names, where they stand, and the forms of one name.

A number is any token with a digit (``4.2``, ``1,200``, ``12:30``, ``2019``) or a number
word; a date is a month, weekday, season, relative day or a holiday that names one day
("Heiligabend", "Silvester"); a name is a capitalised word
that does not open a sentence. The word lists cover English, German and French; a word
missing from them only makes the rule see less, never more. Words that are also common
words elsewhere ("may", "march", "one", "cent", German "hier") are left out, or count
only when capitalised.

Words a page ran together are read apart first, where a case change inside a word shows
the missing space ("LedgerThursday", "said.The"): otherwise the run reads as a new name.

Which names are forms of one name is ``names.py``'s.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Final

from rapidfuzz.distance import Levenshtein

from quietedit.analysis.numberwords import (
    CAPITALISED_DATE_WORDS,
    ENGLISH_ONLY,
    NUMBER_WORDS,
    ORDINALS,
    is_date_word,
    is_relative_date,
    magnitude,
)
from quietedit.analysis.places import is_german_place
from quietedit.analysis.words import tokenize
from quietedit.article.fingerprint import fold_text

MAX_SPELLING_DISTANCE: Final = 2
"""Letters a word may change and still count as a spelling fix ("recieve" → "receive"),
for words of at least five letters; shorter words may change one letter."""


_SENTENCE_END: Final = frozenset({".", "!", "?", ":", "…"})
_OPENERS: Final = frozenset("\"\u201c\u201e\u00ab\u2018'([\u201a\u2039-\u2014\u2013")
CONNECTORS: Final = frozenset(
    {"of", "and", "for", "the", "&", "de", "du", "des", "la", "le", "von", "van", "der", "al"}
)
"""Small words inside a name ("Department of Forestry and Fire Protection")."""
_GERMAN_CONNECTORS: Final = frozenset({"van", "de", "al"})
"""In German only foreign name particles: "der", "und" and "von" join common nouns too
("Stadt der Zukunft", "Pleite von Paris Saint-Germain")."""
_ACRONYM: Final = 3
"""Capitals an acronym has at least to count as a name in German ("SPD"; "KI" is a noun)."""

_DIGIT: Final = re.compile(r"\d")


@dataclass(frozen=True, slots=True)
class Word:
    """A word or a punctuation mark of a text, folded, and where it stands in the text."""

    text: str
    start: int
    end: int

    @property
    def capitalised(self) -> bool:
        return len(self.text) > 1 and self.text[0].isupper() and self.text[0].isalpha()


@dataclass(frozen=True, slots=True)
class Fact:
    """A number, date or name of a text (folded), where it stands, and its name group:
    the run of capitalised words it belongs to (``group``, empty for a number or date)."""

    text: str
    start: int
    end: int
    name: bool
    group: tuple[Word, ...] = ()


def words(text: str) -> list[Word]:
    """The words and punctuation marks of ``text`` with their places, words a page ran
    together read apart, and an initial or a title with its full stop ("F.", "Dr.") one
    word."""
    found: list[Word] = []
    position = 0
    for token in tokenize(text):
        word = token.rstrip()
        if word == "." and found and found[-1].end == position and _abbreviated(found[-1].text):
            found[-1] = Word(found[-1].text + ".", found[-1].start, position + 1)
        elif word:
            found += [
                # an ASCII word folds to itself: only the rest pays for folding
                Word(w if w.isascii() else fold_text(w), position + at, position + at + len(w))
                for w, at in _apart(word)
            ]
        position += len(token)
    return found


_ABBREVIATIONS: Final = frozenset(
    {"Mr", "Mrs", "Ms", "Dr", "St", "Sen", "Rep", "Gov", "Gen", "Lt", "Col", "Sgt", "Prof", "Jr"}
)


def _abbreviated(word: str) -> bool:
    """An initial ("F") or a title ("Dr") that a full stop ends without ending a sentence."""
    return (len(word) == 1 and word.isupper()) or word in _ABBREVIATIONS


_JOINED_PART: Final = 3
"""Letters either side of a case change for it to mark a lost space, the second word
written like one ("LedgerThursday" is two words; "McCallister", "DeSantis" and
"ChatGPT" are one)."""


def _apart(word: str) -> list[tuple[str, int]]:
    """``word`` cut where a lower-case letter meets an upper-case one, directly or across
    a full stop ("LedgerThursday", "said.The"): a space the page lost."""
    rest = word[1:]
    if rest.islower() or not any(c.isupper() for c in rest):
        return [(word, 0)]  # no capital after the first letter: nothing run together
    cuts = [0]
    for i in range(1, len(word)):
        before, here = word[i - 1], word[i]
        if here.isupper() and (
            (
                before.islower()
                and i - cuts[-1] >= _JOINED_PART
                and len(word) - i >= _JOINED_PART
                and word[i + 1].islower()
            )
            or (before in ".!?" and i >= 2 and word[i - 2].islower())
        ):
            cuts.append(i)
    cuts.append(len(word))
    return [(word[a:b], a) for a, b in itertools.pairwise(cuts) if a < b]


def located_facts(
    text: str, *, names: bool = True, anywhere: bool = False, read: list[Word] | None = None
) -> list[Fact]:
    """The numbers, dates and names of ``text`` in reading order, with their places.

    A name is a capitalised word that does not open a sentence (``anywhere``: any
    capitalised word, for a fragment whose sentence is not known). ``names=False`` is for
    German, which capitalises every noun: there a capitalised word is a name only in a
    run of two or more that do not open a sentence (a given name and a surname, a title
    and a name, "Islamischer Dschihad", "Deutsche Bahn"), as an acronym of three
    capitals or more ("SPD", "FBI"), or as a place of ``places.py`` ("Moskau").
    ``read``: the text's :func:`words`, when the caller has them already.
    """
    found = []
    all_words = read if read is not None else words(text)
    opens = []
    previous = ""
    for word in all_words:
        opens.append(
            not previous
            or (previous[-1] in _SENTENCE_END | _OPENERS and not _abbreviated(previous[:-1]))
        )
        previous = word.text
    connectors = CONNECTORS if names else _GERMAN_CONNECTORS
    placed = frozenset() if names else _placed_places(all_words)
    for index, word in enumerate(all_words):
        text_ = word.text
        lowered = text_.casefold()
        if (
            _DIGIT.search(text_)
            or (lowered in NUMBER_WORDS and (names or lowered not in ENGLISH_ONLY))
            or (not names and lowered in ORDINALS)
            or (is_date_word(lowered) and not _surname(all_words, index, opens))
            or text_ in CAPITALISED_DATE_WORDS
            or (index > 0 and is_relative_date(lowered, all_words[index - 1].text.casefold()))
        ):
            found.append(Fact(text_, word.start, word.end, False))
        elif _counted(lowered, names=names):
            # a number opening a compound is the compound's count: "Acht-Tore-Spektakel"
            count = text_.split("-", 1)[0]
            found.append(Fact(count, word.start, word.start + len(count), False))
        elif word.capitalised and (anywhere or not opens[index]):
            first, last = _group(all_words, index, connectors, placed)
            group = tuple(all_words[first : last + 1])
            if (
                names
                or _german_name(word, first, group, opens)
                or _coordinated(all_words, index, opens)
            ):
                found.append(Fact(text_, word.start, word.end, True, group))
    return _grouped_digits(found, text)


_SEASONS: Final = frozenset(
    {"spring", "summer", "autumn", "winter", "frühling", "sommer", "herbst", "printemps",
     "été", "automne", "hiver"}
)  # fmt: skip
_SPAN_WORDS: Final = frozenset({"anfang", "ende", "mitte", "beginn", "early", "late", "mid"})
"""Words that place a date in a span ("Ende Sommer"): no given name."""


def _surname(all_words: list[Word], index: int, opens: list[bool]) -> bool:
    """A season's word that a name's first word goes before is a surname ("Yann Sommer",
    "Donna Summer"), not a date: the word before it capitalised, in mid-sentence."""
    if all_words[index].text.casefold() not in _SEASONS or index == 0:
        return False
    before = all_words[index - 1]
    return (
        before.capitalised
        and not opens[index - 1]
        and before.text.casefold() not in _SPAN_WORDS
        and not is_date_word(before.text.casefold())
    )


def _counted(lowered: str, *, names: bool) -> bool:
    """A hyphenated compound opening with a number word ("acht-tore-spektakel",
    "two-day")."""
    first, hyphen, rest = lowered.partition("-")
    return bool(hyphen and rest) and first in NUMBER_WORDS and (names or first not in ENGLISH_ONLY)


_DIGIT_GROUP: Final = re.compile(r"\d{3}")
_LEADING_GROUP: Final = re.compile(r"\d{1,3}(?:[ \u00a0\u2009\u202f]\d{3})*")
_GROUP_SPACES: Final = frozenset(" \u00a0\u2009\u202f")
"""What sets a number's groups of three digits apart in French and German ("160 000")."""


def _grouped_digits(found: list[Fact], text: str) -> list[Fact]:
    """Numbers whose groups of three digits a space sets apart read as one number
    ("160 000"), not as two."""
    merged: list[Fact] = []
    for fact in found:
        previous = merged[-1] if merged else None
        if (
            previous is not None
            and not previous.name
            and not fact.name
            and _DIGIT_GROUP.fullmatch(fact.text)
            and fact.start == previous.end + 1
            and _LEADING_GROUP.fullmatch(previous.text.replace("\u00a0", " "))
            and text[previous.end : fact.start] in _GROUP_SPACES
        ):
            merged[-1] = Fact(f"{previous.text} {fact.text}", previous.start, fact.end, False)
        else:
            merged.append(fact)
    return merged


def _german_name(word: Word, first: int, group: tuple[Word, ...], opens: list[bool]) -> bool:
    if (len(word.text) >= _ACRONYM and word.text.isupper()) or is_german_place(word.text):
        return True
    capitals = [w for at, w in enumerate(group, first) if w.capitalised and not opens[at]]
    return len(capitals) >= 2


_COORDINATING: Final = frozenset({"und", "sowie", "oder", ","})
_NOUN_ENDINGS: Final = (
    "ung", "heit", "keit", "schaft", "tion", "sion", "tät", "nis", "tum", "ismus", "ment",
    "ik", "ie", "ei", "enz", "anz", "ling", "chen", "lein", "en", "e", "s",
)  # fmt: skip
"""Endings of German common nouns and their plurals ("Regierung", "Mannschaften",
"Minister… und Experten"): a word ending so is no name by coordination alone."""
_SURNAME_LETTERS: Final = 11
"""Letters a word joined to a name may have to be read as one: a longer word is mostly a
compound noun ("Bauministerin Mietwucher und Wohnraummangel")."""
_DETERMINERS: Final = frozenset(
    {"der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer",
     "eines", "kein", "keine", "im", "am", "vom", "zum", "zur", "beim", "ins"}
)  # fmt: skip


def _coordinated(all_words: list[Word], index: int, opens: list[bool]) -> bool:
    """In German, a single capitalised word joined by "und" (or a comma) to a name is a
    name too ("die Minister Lauterbach und Özdemir", "von SPIEGEL und Spotify"): a
    surname or a company standing alone, which a run of capitals would not show. Not a
    word ending like a common noun, nor one the text puts after an article elsewhere."""
    word = all_words[index]
    if (
        opens[index]
        or len(word.text) > _SURNAME_LETTERS
        or word.text.casefold().endswith(_NOUN_ENDINGS)
    ):
        return False
    if _solitary(all_words, index) is False:
        return False
    joined = [
        at
        for at, link in ((index - 2, index - 1), (index + 2, index + 1))
        if 0 <= at < len(all_words) and all_words[link].text.casefold() in _COORDINATING
    ]
    if not any(_named(all_words, at, opens) for at in joined):
        return False
    folded = word.text.casefold()
    return not any(
        w.text.casefold() == folded and all_words[at - 1].text.casefold() in _DETERMINERS
        for at, w in enumerate(all_words)
        if at > 0
    )


def _solitary(all_words: list[Word], index: int) -> bool:
    """The word is no part of a run of capitals (such a run is a name already)."""
    neighbours = [all_words[at] for at in (index - 1, index + 1) if 0 <= at < len(all_words)]
    return not any(w.capitalised for w in neighbours)


_TITLE_WORDS: Final = (
    "minister", "ministerin", "kanzler", "kanzlerin", "präsident", "präsidentin", "trainer",
    "trainerin", "chef", "chefin", "sprecher", "sprecherin", "meister", "meisterin",
    "senator", "senatorin", "gouverneur", "gouverneurin", "könig", "königin", "prinz",
    "prinzessin", "papst", "richter", "richterin", "abgeordneter", "abgeordnete",
    "politiker", "politikerin", "star", "sänger", "sängerin", "autor", "autorin",
    "moderator", "moderatorin", "stürmer", "torwart", "kapitän", "kapitänin",
)  # fmt: skip
_TITLES: Final = _TITLE_WORDS + tuple(t + "nen" for t in _TITLE_WORDS if t.endswith("in"))
"""What a person's title ends with ("Gesundheitsminister", "Bundeskanzlerin",
"Ministerinnen", "Ex-Präsident", "BVB-Trainer"): the capitalised word after one is a
surname."""


def _named(all_words: list[Word], at: int, opens: list[bool]) -> bool:
    """The word at ``at`` is a German name by stronger signs than a run of capitals (which
    is often a noun beside a noun): an acronym of three capitals, a known place, or a word
    after a person's title ("Minister Lauterbach")."""
    word = all_words[at]
    if not word.capitalised or opens[at]:
        return False
    if (len(word.text) >= _ACRONYM and word.text.isupper()) or is_german_place(word.text):
        return True
    title = all_words[at - 1] if at > 0 else None
    return title is not None and title.capitalised and title.text.casefold().endswith(_TITLES)


def fact_tokens(text: str, *, names: bool = True, anywhere: bool = False) -> list[str]:
    """The numbers, dates and names of ``text`` in reading order (folded)."""
    return [fact.text for fact in located_facts(text, names=names, anywhere=anywhere)]


def _group(
    all_words: list[Word],
    index: int,
    connectors: frozenset[str] = CONNECTORS,
    placed: frozenset[int] = frozenset(),
) -> tuple[int, int]:
    """Where the run of capitalised words (and the small words between them) around one
    starts and ends, as positions in ``all_words``; a run ends at a ``placed`` word."""
    first = last = index
    while (
        first > 0
        and first - 1 not in placed
        and _joins(all_words, first - 1, step=-1, connectors=connectors)
    ):
        first -= 1
    while (
        last < len(all_words) - 1
        and last not in placed
        and _joins(all_words, last + 1, step=1, connectors=connectors)
    ):
        last += 1
    return first, last


LOCATIVES: Final = frozenset(
    {"in", "im", "auf", "bei", "nahe", "aus", "an", "am", "at", "near", "à", "au", "en"}
)
"""Words that put a place after them ("Dürre in Südfrankreich")."""
_PLACE_ARTICLES: Final = frozenset({"der", "die", "den", "dem", "des", "the", "le", "la", "les"})


def _placed_places(all_words: list[Word]) -> frozenset[int]:
    """Where a known place stands that a preposition puts a statement in ("beschwören in
    Hamburg Freundschaft", "in der Ukraine Panzer"): in German, whose nouns are all
    capitalised, the place ends the run of capitals there, so the noun after it neither
    makes it a longer name nor is made a name by it."""
    found = set()
    for index, word in enumerate(all_words):
        if index == 0 or not is_german_place(word.text):
            continue
        before = all_words[index - 1].text.casefold()
        if before in _PLACE_ARTICLES and index > 1:
            before = all_words[index - 2].text.casefold()
        if before in LOCATIVES:
            found.add(index)
    return frozenset(found)


def _joins(all_words: list[Word], index: int, *, step: int, connectors: frozenset[str]) -> bool:
    word = all_words[index]
    if word.capitalised:
        return True
    beyond = index + step
    return (
        word.text.casefold() in connectors
        and 0 <= beyond < len(all_words)
        and all_words[beyond].capitalised
    )


def is_spelling_fix(old: str, new: str) -> bool:
    """One word corrected, not replaced: a few letters apart, no digits, no other order of
    magnitude ("millionaire" → "billionaire" is another number)."""
    if any(c.isdigit() for c in old + new) or magnitude(old) != magnitude(new):
        return False
    longest = max(len(old), len(new))
    allowed = MAX_SPELLING_DISTANCE if longest >= 5 else 1
    return longest >= 3 and Levenshtein.distance(old.casefold(), new.casefold()) <= allowed


def magnitude_facts(read: list[Word], start: int, end: int) -> list[Fact]:
    """The compounds from ``start`` to ``end`` that carry an order of magnitude
    ("Multimillionär", "billionaire"), as numbers. Read only where both sides of a change
    have one: a magnitude changed inside a compound ("[-Multimillionär-]{+Multimilliardär+}")
    is a changed number, while such a word put in alone is a description."""
    return [
        Fact(w.text, w.start, w.end, False)
        for w in read
        if start <= w.start and w.end <= end and magnitude(w.text) is not None
    ]
