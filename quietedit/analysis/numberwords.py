"""The words that are numbers and dates, in English, German and French.

A number word counts ("two", "zwölf", "vingt", "Hälfte"), as do German ordinals in every
inflection; a date word is a month, weekday, season, relative day or a holiday that names
one day ("Heiligabend", "Silvester", "Pfingsten") or its weekend, or a German weekday with
the part of the day run together ("Dienstagabend"). A count may be said without a number
("beiden", "erneut": :func:`same_count`), and a compound may carry an order of magnitude
(:func:`magnitude`). Words that are also common words elsewhere ("may", "march",
"half" in German) are left out, or count only where ``facts.py`` says.
"""

from __future__ import annotations

import re
from typing import Final

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
        "dozens",
        "hundreds",
        "thousands",
        "million",
        "billion",
        "trillion",
        "dozen",
        "half",
        "third",
        "quarter",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
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
        "dutzende",
        "dutzenden",
        "hunderte",
        "hunderten",
        "tausende",
        "tausenden",
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
_ORDINAL_STEMS: Final = (
    "zweit", "dritt", "viert", "fünft", "sechst", "siebt", "neunt", "zehnt", "elft",
    "zwölft", "zwanzigst", "hundertst", "tausendst",
)  # fmt: skip
ORDINALS: Final = frozenset(
    stem + ending for stem in _ORDINAL_STEMS for ending in ("e", "en", "er", "es", "em")
)
"""German ordinals in every inflection ("viertes Leck", "im sechsten Versuch"): a number.
"erste" is left out (it ranks more than it counts: "die ersten Neuheiten"), and "achte"
(also a verb form: "sie achte darauf")."""
_ORDINAL_STEM: Final = {
    stem + ending: stem for stem in _ORDINAL_STEMS for ending in ("e", "en", "er", "es", "em")
}


def ordinal_value(word: str) -> str | None:
    """The value an ordinal gives, whatever its ending: "zweite", "zweiten" and "zweiter"
    give one value ("zweit"), so that "die zweite Hinrichtung" and "den zweiten
    Demonstranten" count the same; ``None`` for a word that is no ordinal of
    :data:`ORDINALS`. English ordinals do not inflect ("third" is "third"); an ordinal
    written in figures ("2.") or its word ("zweiten") still differ, as a number written
    another way does."""
    return _ORDINAL_STEM.get(word.casefold())


ENGLISH_ONLY: Final = frozenset({"half"})
"""Number words that are common words in German ("er half": he helped): numbers only in
text that is not German (``names=True``)."""
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
        "heiligabend",
        "silvester",
        "neujahr",
        "ostern",
        "pfingsten",
        "osterwochenende",
        "pfingstwochenende",
        "easter",
        "thanksgiving",
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
CAPITALISED_DATE_WORDS: Final = frozenset({"May", "March"})
"""Months that are also common words ("it may rain", "they march"): dates only when capitalised."""
_WEEKDAYS: Final = ("montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag")
_DAY_PARTS: Final = ("morgen", "vormittag", "mittag", "nachmittag", "abend", "nacht")
"""A German weekday with the part of the day run together ("Dienstagabend") is a date."""


_DATES: Final = DATE_WORDS | {day + part for day in _WEEKDAYS for part in _DAY_PARTS}


def is_date_word(lowered: str) -> bool:
    """A date word of :data:`DATE_WORDS`, or a weekday and a part of the day in one word."""
    return lowered in _DATES


TIME_UNITS: Final = frozenset(
    {"woche", "wochen", "wochenende", "nacht", "monat", "monats", "jahr", "jahres",
     "week", "weekend", "night", "month", "year"}
)  # fmt: skip
RELATIVE: Final = frozenset(
    {"kommende", "kommenden", "nächste", "nächsten", "vergangene", "vergangenen",
     "letzte", "letzten", "diese", "dieser", "dieses", "diesen", "diesem", "next", "last",
     "this"}
)  # fmt: skip
"""A span of time that a word before it places ("in der kommenden Woche", "in diesem Jahr",
"this year") is a date: "[-Woche-]{+Nacht+}" there moves the day. The unit alone ("seit Wochen") or
the relative word changed alone ("letzten" → "vergangenen Wochen") is none."""


def is_relative_date(lowered: str, before: str) -> bool:
    """``lowered`` is a time unit placed by ``before``, the word before it (folded)."""
    return lowered in TIME_UNITS and before in RELATIVE


DUALS: Final = frozenset({"beide", "beiden", "beider", "beides", "beidem", "both"})
"""Words that count two things without a number word: "den beiden Weltmächten" and "den
zwei Weltmächten" give one count."""
TWOS: Final = frozenset({"2", "zwei", "two", "deux"})
REPEATS: Final = frozenset(
    {"erneut", "erneute", "erneuten", "erneuter", "erneutes", "abermals", "again"}
)
"""Words that say a thing happened once more: "erneut explodiert" and "beim zweiten
Anlauf explodiert" give one count (a third time would be a new one)."""
SECONDS: Final = frozenset({"zweite", "zweiten", "zweiter", "zweites", "zweitem", "second"})
_COUNT_WORD: Final = re.compile(r"\w+")


def same_count(fact: str, own: str, other: str) -> bool:
    """The number ``fact`` of a sentence (``own``) says in other words what the other
    side's sentence (``other``) said without a number: "zwei" for "beiden", "zweiten
    Anlauf" for "erneut". The other sentence must have lost that word (it was replaced),
    and ``own`` must not have it too."""
    folded = fact.casefold()
    own_words = {w.casefold() for w in _COUNT_WORD.findall(own)}
    other_words = {w.casefold() for w in _COUNT_WORD.findall(other)}
    for numbers, words in ((TWOS, DUALS), (SECONDS, REPEATS)):
        if folded in numbers and other_words & words and not own_words & words:
            return True
    return False


MAGNITUDES: Final = ("million", "milliard", "billion", "trillion")
"""The orders of magnitude a compound can carry inside it ("Multimillionär",
"Milliardenverlust", "billionaire")."""


def magnitude(word: str) -> str | None:
    """The order of magnitude inside a compound (not a number word of its own:
    "Millionen" is one already), or ``None``: "Multimilliardär" → "milliard"."""
    folded = word.casefold()
    if folded in NUMBER_WORDS or (folded.endswith("n") and folded[:-1] in NUMBER_WORDS):
        return None
    return next((m for m in MAGNITUDES if m in folded), None)


_MORE, _ABOUT, _UNDER, _LEAST, _MOST = "more", "about", "under", "at least", "at most"
QUALIFIERS: Final = {
    "über": _MORE, "mehr als": _MORE, "more than": _MORE, "over": _MORE,
    "rund": _ABOUT, "etwa": _ABOUT, "ungefähr": _ABOUT, "circa": _ABOUT, "ca.": _ABOUT,
    "zirka": _ABOUT, "about": _ABOUT, "around": _ABOUT, "roughly": _ABOUT,
    "approximately": _ABOUT,
    "fast": _UNDER, "knapp": _UNDER, "beinahe": _UNDER, "nahezu": _UNDER, "unter": _UNDER,
    "weniger als": _UNDER, "almost": _UNDER, "nearly": _UNDER, "under": _UNDER,
    "less than": _UNDER, "fewer than": _UNDER,
    "mindestens": _LEAST, "wenigstens": _LEAST, "at least": _LEAST,
    "bis zu": _MOST, "höchstens": _MOST, "up to": _MOST, "at most": _MOST,
}  # fmt: skip
"""Words that say how a number bounds the true figure, by what they say: "über acht
Milliarden" and "mehr als acht Milliarden" say one thing, "etwa acht Milliarden" another."""
_NEXT_WORD: Final = re.compile(r"\s*([\w.,:]+)")


def bound_changed(removed: str, added: str, *, old_after: str, new_after: str) -> str | None:
    """A change that only puts in, cuts or replaces the word saying how the number after
    it bounds the figure, with another meaning ("[-über-]{+etwa+} acht Milliarden Euro",
    "{+more than+} 40 people"): the number changed, though its figures stayed. The same
    bound in other words ("[-über-]{+mehr als+}") is a rewording. ``old_after`` and
    ``new_after``: the two texts after the change, which must open with one number. The
    number, or ``None``."""
    old_bound, new_bound = _bound(removed), _bound(added)
    if old_bound is None or new_bound is None or old_bound == new_bound:
        return None
    old_next, new_next = _NEXT_WORD.match(old_after), _NEXT_WORD.match(new_after)
    if old_next is None or new_next is None:
        return None
    number = old_next.group(1).rstrip(".,:")
    same = number.casefold() == new_next.group(1).rstrip(".,:").casefold()
    if same and (any(c.isdigit() for c in number) or number.casefold() in NUMBER_WORDS):
        return number
    return None


def _bound(words: str) -> str | None:
    """What the words of one side say of the number after them: ``""`` for nothing (the
    figure as it is), a bound of :data:`QUALIFIERS`, or ``None`` for other words."""
    folded = " ".join(words.split()).casefold()
    return "" if not folded else QUALIFIERS.get(folded)
