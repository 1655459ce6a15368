"""Lines the publisher writes *about* the article: "Updated …", corrections, bylines, dates.

These are signals for the analysis (an admitted edit is not a silent one), and most of
them are not article text: an "Updated 10:12" line or a byline changes on its own and
would make a new revision of an unchanged story. Correction notes are the exception —
they are part of what readers are told, so they stay in the body as well.
"""

from __future__ import annotations

import re
from typing import Final

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
# One of these in the lower-cased line is needed for _UPDATED to match: a cheap gate.
_UPDATED_WORDS: Final = re.compile(
    "updated|modified|aktualisiert|stand|mis \u00e0 jour|actualizado|aggiornato"
)
_DIGIT: Final = re.compile(r"\d")
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
    if len(text) > UPDATED_LINE_MAX:
        return None
    if _UPDATED_WORDS.search(text.lower()) is None:
        return None
    match = _UPDATED.search(text)
    if match is None:
        return None
    rest = _SEPARATOR.split(text[match.start() :], maxsplit=1)[0]
    return rest if _DIGIT.search(rest) else None


def is_note(text: str) -> bool:
    """Whether a block is a correction or editor's note ("Correction: …", "Korrektur: …")."""
    if len(text) > NOTE_MAX or text.lstrip("*([\u2013\u2014- ")[:2].lower() not in _NOTE_STARTS:
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


def is_date_line(text: str) -> bool:
    """Whether a line is only a date, maybe with a time ("30. November 2026, 10:12 Uhr")."""
    if len(text) > DATE_LINE_MAX or _DIGIT.search(text) is None:
        return False
    return _DATE_ONLY.match(text) is not None
