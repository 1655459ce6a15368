"""Lines the publisher writes *about* the article: "Updated …", corrections, bylines, dates.

These are signals for the analysis (an admitted edit is not a silent one), and most of
them are not article text: an "Updated 10:12" line or a byline changes on its own and
would make a new revision of an unchanged story. Correction notes are the exception —
they are part of what readers are told, so they stay in the body as well.

English and German are read by the patterns below; notes, "Updated" lines and datelines
in French, Spanish, Italian, Portuguese, Dutch, Polish, Swedish, Japanese, Chinese and
Korean by :mod:`quietedit.article.languages`.
"""

from __future__ import annotations

import re
from typing import Final

from quietedit.article.furniture import opening_word
from quietedit.article.languages import is_other_date_line, is_other_note, other_updated_line

UPDATED_LINE_MAX: Final = 160
"""Longest line read as an "Updated …" line; longer ones are prose that mentions an update."""

NOTE_MAX: Final = 1200
"""Longest block read as a correction or editor's note."""

DATE_LINE_MAX: Final = 80
"""Longest line read as a date alone."""

_UPDATED: Final = re.compile(
    r"\b(?:last\s+updated|updated|last\s+modified|zuletzt\s+aktualisiert|aktualisiert|"
    r"stand(?=\s*:)|mis\s+\u00e0\s+jour|actualizado|aggiornato)\b",
    re.IGNORECASE,
)
_DIGIT: Final = re.compile(r"\d")
_ASCII_DIGIT: Final = re.compile(r"[0-9]")
_SEPARATOR: Final = re.compile(r"\s+[|\u00b7\u2022]\s+")  # "Updated … | Published …"

_NOTE: Final = re.compile(
    r"^(?:\W{0,3})(?:"
    r"corrections?\s*[:.\-\u2013\u2014]|clarifications?\s*[:.\-\u2013\u2014]|"
    r"editor['\u2019]?s['\u2019]?\s+note|editors['\u2019]\s+note|note\s+from\s+the\s+editors?|"
    r"an\s+earlier\s+version\s+of\s+this\s+(?:article|story|report|post|piece)|"
    r"a\s+previous\s+version\s+of\s+this\s+(?:article|story|report|post|piece)|"
    r"this\s+(?:article|story|report|post|piece)\s+(?:has\s+been|was|is)\s+"
    r"(?:updated|corrected|amended|changed|edited)|"
    r"korrektur\s*[:.\-\u2013\u2014]|korrekturhinweis|berichtigung\s*[:.\-\u2013\u2014]|"
    r"richtigstellung\s*[:.\-\u2013\u2014]|anmerkung\s+der\s+redaktion|hinweis\s+der\s+redaktion|"
    r"transparenzhinweis|in\s+einer\s+(?:früheren|ersten|vorherigen|älteren)\s+"
    r"(?:version|fassung)|dieser\s+(?:artikel|beitrag|text)\s+wurde\s+"
    r"(?:aktualisiert|korrigiert|geändert|ergänzt)"
    r")",
    re.IGNORECASE,
)

_BYLINE: Final = re.compile(
    r"^(?:by|von|written\s+by|words\s+by|reporting\s+by|text\s*:|autor(?:in)?\s*:)\s+"
    r"\S.{0,100}$",
    re.IGNORECASE,
)
BYLINE_MAX: Final = 120
# The first two letters a byline or a note can begin with, to skip the rest cheaply.
_BYLINE_STARTS: Final = frozenset({"by", "vo", "wr", "wo", "re", "te", "au"})
_NOTE_STARTS: Final = frozenset(
    {"co", "cl", "ed", "no", "an", "a ", "th", "ko", "be", "ri", "hi", "tr", "in", "di"}
)
# ...as code points, the first times 128 plus the second.
_NOTE_START_CODES: Final = frozenset(ord(start[0]) * 128 + ord(start[1]) for start in _NOTE_STARTS)
# What is_note passes over before those two letters, and for each ASCII code point whether
# a block opening with it can pass that test: it is passed over, or in lower case it is
# the first letter of one of the two.
_NOTE_SKIPPED: Final = "*([\u2013\u2014- "
_NOTE_OPENERS: Final = tuple(
    chr(code) in _NOTE_SKIPPED or chr(code).lower() in {start[0] for start in _NOTE_STARTS}
    for code in range(128)
)
# The words a note _NOTE matches can open with (see opening_word), with every ending its
# pattern lets follow them without a character between ("editor", "editors"), and the
# two its pattern lets any letters follow ("Transparenzhinweise").
_NOTE_WORDS: Final = frozenset(
    {
        "correction", "corrections", "clarification", "clarifications", "editor", "editors",
        "note", "an", "a", "this", "korrektur", "berichtigung", "richtigstellung",
        "anmerkung", "hinweis", "in", "dieser",
    }
)  # fmt: skip
_NOTE_WORD_STEMS: Final = ("korrekturhinweis", "transparenzhinweis")
_BYLINE_PREFIX: Final = re.compile(
    r"^(?:by|von|written\s+by|words\s+by|reporting\s+by|text\s*:|autor(?:in)?\s*:)\s+",
    re.IGNORECASE,
)
# Where the names end: a date, a place, a role or a separator follows.
_BYLINE_END: Final = re.compile(
    r"\s+(?:on|am|at|um|published|updated|aktualisiert|ver\u00f6ffentlicht)\s+|"
    r"\s*[|\u00b7\u2022\u2013\u2014]\s*|\s+-\s+|,\s*(?=\d)|\s+(?=\d)",
    re.IGNORECASE,
)

_MONTHS: Final = (
    r"jan(?:uary|uar)?|feb(?:ruary|ruar)?|m(?:a|ä)r(?:ch|z)?|apr(?:il)?|ma(?:y|i)|"
    r"june?|juni|july?|juli|aug(?:ust)?|sep(?:t(?:ember)?)?|o[ck]t(?:ober)?|nov(?:ember)?|"
    r"de[cz](?:ember)?"
)
# The first three letters, lower-cased, of the words a line _DATE_ONLY matches can open
# with when it opens with a letter (a label, a weekday or a month): the two-letter labels
# "am" and "on" aside, an ASCII opening must be one of these (see is_date_line).
_DATE_OPENINGS: Final = frozenset(
    {
        "pub", "pos", "ver", "ers", "dat", "mon", "tue", "wed", "thu", "fri", "sat", "sun",
        "die", "mit", "don", "fre", "sam", "son", "jan", "feb", "mar", "apr", "may", "mai",
        "jun", "jul", "aug", "sep", "oct", "okt", "nov", "dec", "dez",
    }
)  # fmt: skip
_SHORT_DATE_LABELS: Final = frozenset({"am", "on"})
# A line that is only a date or a date and time ("30 November 2026, 10:12", "Nov. 30, 2026").
_DATE_ONLY: Final = re.compile(
    r"^(?:(?:published|posted|veröffentlicht|erschienen|am|on|date)\s*:?\s*)?"
    r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+|"
    r"(?:montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag),?\s+)?"
    r"(?:\d{1,4}[./-]\d{1,2}[./-]\d{1,4}|\d{1,2}\.?\s+(?:" + _MONTHS + r")\.?,?\s+\d{2,4}|"
    r"(?:" + _MONTHS + r")\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{2,4})"
    r"(?:\s*(?:,|at|um|-|\u2013|\|)?\s*\d{1,2}[:.]\d{2}(?:\s*(?:[ap]\.?m\.?|uhr))?"
    r"(?:\s*[a-z]{2,5})?)?\s*$",
    re.IGNORECASE,
)


def is_updated_line(text: str) -> bool:
    """Whether a short line announces an update with a time: "Updated 30 Nov 2026, 10:12"."""
    return updated_line(text) is not None


def updated_line(text: str) -> str | None:
    """The "Updated …" part of a short line ("By Ana Ruiz · Updated 30 Nov, 10:12" gives
    "Updated 30 Nov, 10:12"), or None when the line announces no update with a time."""
    if len(text) > UPDATED_LINE_MAX or not _may_hold_digit(text):
        return None  # without a digit, no time
    # One of these words in the lower-cased line is needed for _UPDATED to match: a cheap
    # gate, each test a substring search at C speed.
    lowered = text.lower()
    if (
        "updated" in lowered
        or "modified" in lowered
        or "aktualisiert" in lowered
        or "stand" in lowered
        or "mis \u00e0 jour" in lowered
        or "actualizado" in lowered
        or "aggiornato" in lowered
    ) and (match := _UPDATED.search(text)) is not None:
        rest = _SEPARATOR.split(text[match.start() :], maxsplit=1)[0]
        if _DIGIT.search(rest):
            return rest
    return other_updated_line(text)


def is_note(text: str) -> bool:
    """Whether a block is a correction or editor's note ("Correction: …", "Korrektur: …",
    "Rectificatif : …", "【訂正】…")."""
    if len(text) > NOTE_MAX:
        return False
    return _is_english_or_german_note(text) or is_other_note(text)


def _is_english_or_german_note(text: str) -> bool:
    # Most blocks open with an ASCII letter no note opens with, told by its code point
    # alone: the lower case of an ASCII character is itself or its lower-case letter.
    code = ord(text[0]) if text else 0
    if code < 128 and not _NOTE_OPENERS[code]:
        return False
    second = ord(text[1]) if len(text) > 1 else 128
    if 97 <= (code | 32) <= 122 and second < 128:
        # Two ASCII characters, the first a letter (nothing to pass over): the two letters
        # are told by their code points, without making strings of them.
        if _ascii_lower(code) * 128 + _ascii_lower(second) not in _NOTE_START_CODES:
            return False
    elif text.lstrip(_NOTE_SKIPPED)[:2].lower() not in _NOTE_STARTS:
        return False
    word = opening_word(text, past_digits=False)  # _NOTE passes over \W{0,3} only
    if word is not None and word not in _NOTE_WORDS and not word.startswith(_NOTE_WORD_STEMS):
        return False
    return _NOTE.match(text) is not None


def is_byline(text: str) -> bool:
    """Whether a short line is a byline ("By Ana Ruiz", "Von Max Muster, Berlin")."""
    return (
        len(text) <= BYLINE_MAX
        and text[:2].lower() in _BYLINE_STARTS
        and _BYLINE.match(text) is not None
    )


def byline_text(text: str) -> str | None:
    """The names part of a byline ("By Sam Lee on 28 Nov 2026" gives "Sam Lee"), or None."""
    if not is_byline(text):
        return None
    names = _BYLINE_PREFIX.sub("", text, count=1)
    names = _BYLINE_END.split(names, maxsplit=1)[0].strip(" ,;:")
    return names or None


def is_date_line(text: str, *, languages: tuple[str, ...] | None = None) -> bool:
    """Whether a line is only a date, maybe with a time ("30. November 2026, 10:12 Uhr",
    "Publicado el 4 de junio de 2026", "5분 전").

    ``languages`` are the dateparser languages of the page
    (:func:`~quietedit.article.languages.dateparser_languages`), None when it is in
    English, German or a language without tables.
    """
    if len(text) > DATE_LINE_MAX:
        return False
    return _is_english_or_german_date_line(text) or is_other_date_line(text, languages=languages)


def _is_english_or_german_date_line(text: str) -> bool:
    # A line opening with three ASCII characters, the first a letter, is settled by them
    # alone unless they open a label, a weekday or a month: ignoring case, an ASCII
    # character matches no letter but its own two cases, and every word the pattern can
    # open with has three letters or more (but "am" and "on").
    if text and 97 <= (ord(text[0]) | 32) <= 122:  # an ASCII letter: "A"-"Z" | 32 is "a"-"z"
        opening = text[:3]
        if opening.isascii():
            opening = opening.lower()
            if opening not in _DATE_OPENINGS and opening[:2] not in _SHORT_DATE_LABELS:
                return False
    if not _may_hold_digit(text) or _DIGIT.search(text) is None:
        return False
    return _DATE_ONLY.match(text) is not None


def _ascii_lower(code: int) -> int:
    """The lower case of an ASCII code point, as str.lower gives it."""
    return code | 32 if 65 <= code <= 90 else code


def _may_hold_digit(text: str) -> bool:
    """False when ``text`` is ASCII without a digit, and so holds nothing ``\\d`` matches."""
    return not text.isascii() or _ASCII_DIGIT.search(text) is not None
