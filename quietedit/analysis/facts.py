"""Facts in text: numbers, dates and names, and which of them an edit changed.

A number is any token with a digit (``4.2``, ``1,200``, ``12:30``, ``2019``) or a number
word; a date is a month, weekday, season or relative day; a name is a capitalised word
that does not open a sentence. The word lists cover English, German and French; a word
missing from them only makes the rule see less, never more. Words that are also common
words elsewhere ("may", "march", "one", "cent", German "hier") are left out, or count
only when capitalised.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Final

from rapidfuzz.distance import Levenshtein

from quietedit.analysis.words import tokenize
from quietedit.article.fingerprint import fold_text

MAX_SPELLING_DISTANCE: Final = 2
"""Letters a word may change and still count as a spelling fix ("recieve" → "receive"),
for words of at least five letters; shorter words may change one letter."""

NUMBER_WORDS: Final = frozenset(
    [
        "zero",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
        "thirty",
        "forty",
        "fifty",
        "sixty",
        "seventy",
        "eighty",
        "ninety",
        "hundred",
        "thousand",
        "million",
        "billion",
        "trillion",
        "dozen",
        "half",
        "third",
        "quarter",
        "eins",
        "zwei",
        "drei",
        "vier",
        "funf",
        "fünf",
        "sechs",
        "sieben",
        "acht",
        "neun",
        "zehn",
        "elf",
        "zwolf",
        "zwölf",
        "zwanzig",
        "dreissig",
        "dreißig",
        "hundert",
        "tausend",
        "million",
        "millionen",
        "milliarde",
        "milliarden",
        "hälfte",
        "halb",
        "zéro",
        "deux",
        "trois",
        "quatre",
        "cinq",
        "six",
        "sept",
        "huit",
        "neuf",
        "dix",
        "onze",
        "douze",
        "vingt",
        "trente",
        "mille",
        "million",
        "millions",
        "milliard",
        "milliards",
        "moitié",
    ]
)
DATE_WORDS: Final = frozenset(
    [
        "january",
        "february",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "yesterday",
        "today",
        "tomorrow",
        "tonight",
        "spring",
        "summer",
        "autumn",
        "winter",
        "januar",
        "februar",
        "märz",
        "april",
        "mai",
        "juni",
        "juli",
        "august",
        "september",
        "oktober",
        "november",
        "dezember",
        "montag",
        "dienstag",
        "mittwoch",
        "donnerstag",
        "freitag",
        "samstag",
        "sonntag",
        "gestern",
        "heute",
        "morgen",
        "frühling",
        "sommer",
        "herbst",
        "janvier",
        "février",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "août",
        "septembre",
        "octobre",
        "novembre",
        "décembre",
        "lundi",
        "mardi",
        "mercredi",
        "jeudi",
        "vendredi",
        "samedi",
        "dimanche",
        "aujourd'hui",
        "demain",
        "printemps",
        "été",
        "automne",
        "hiver",
    ]
)
_CAPITALISED_DATE_WORDS: Final = frozenset({"May", "March"})
"""Months that are also common words ("it may rain", "they march"): dates only when capitalised."""
_SENTENCE_END: Final = frozenset({".", "!", "?", ":", "…"})
_OPENERS: Final = frozenset("\"\u201c\u201e\u00ab\u2018'([\u201a\u2039-\u2014\u2013")

_DIGIT: Final = re.compile(r"\d")


def fact_tokens(text: str, *, names: bool = True, anywhere: bool = False) -> list[str]:
    """The numbers, dates and names of ``text`` in reading order (folded).

    A name is a capitalised word that does not open a sentence (``anywhere``: any
    capitalised word, for a fragment whose sentence is not known); ``names=False`` leaves
    names out (for German, which capitalises every noun).
    """
    found = []
    previous = ""
    for token in tokenize(fold_text(text)):
        word = token.strip()
        if not word:
            continue
        lowered = word.casefold()
        if (
            _DIGIT.search(word)
            or lowered in NUMBER_WORDS
            or lowered in DATE_WORDS
            or word in _CAPITALISED_DATE_WORDS
            or (
                names
                and len(word) > 1
                and word[0].isupper()
                and word[0].isalpha()
                and (anywhere or (previous and previous not in _SENTENCE_END | _OPENERS))
            )
        ):
            found.append(word)
        previous = word
    return found


def fact_changes(old: str, new: str, *, names: bool = True) -> str:
    """The numbers, dates and names one text has and the other lacks, as one line
    (``4.2 → 4.5``, or ``removed …; added …``); empty when they agree."""
    old_text, new_text = old, new
    before = fact_tokens(old_text, names=names)
    after = fact_tokens(new_text, names=names)
    gone = _missing(before, after, present=_words_of(new_text))
    came = _missing(after, before, present=_words_of(old_text))
    # a name respelt within two letters is a typo, not a new name
    for token in list(gone):
        fix = next((t for t in came if not t[0].isdigit() and is_spelling_fix(token, t)), None)
        if fix is not None and not token[0].isdigit():
            gone.remove(token)
            came.remove(fix)
    if not gone and not came:
        return ""
    if len(gone) == len(came):
        return ", ".join(f"{a} → {b}" for a, b in zip(gone, came, strict=True))
    parts = [f"removed {', '.join(gone)}"] if gone else []
    parts += [f"added {', '.join(came)}"] if came else []
    return "; ".join(parts)


def _missing(tokens: list[str], other: list[str], *, present: set[str]) -> list[str]:
    """``tokens`` not matched in ``other``: numbers and dates by count, names by presence.

    A name that opens a sentence in the other text is not found as a name there, but it
    is there: a reworded sentence must not read as a changed name.
    """
    left = Counter(other)
    out = []
    for token in tokens:
        if left[token] > 0:
            left[token] -= 1
        elif not (_is_name(token) and token in present):
            out.append(token)
    return out


def _is_name(token: str) -> bool:
    lowered = token.casefold()
    return not any(c.isdigit() for c in token) and lowered not in NUMBER_WORDS | DATE_WORDS


def _words_of(text: str) -> set[str]:
    return {word.strip(".,;:!?()[]\"'“”„«»") for word in fold_text(text).split()}


def is_spelling_fix(old: str, new: str) -> bool:
    """One word corrected, not replaced: a few letters apart, no digits."""
    if any(c.isdigit() for c in old + new):
        return False
    longest = max(len(old), len(new))
    allowed = MAX_SPELLING_DISTANCE if longest >= 5 else 1
    return longest >= 3 and Levenshtein.distance(old.casefold(), new.casefold()) <= allowed
