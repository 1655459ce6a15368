"""Dates as article pages write them, in any language, read by dateparser (pure).

A dateline ("4 czerwca 2026, 10:12", "2026年6月4日 10時12分", "jeudi 4 juin 2026"), the
date of an "Updated …" line ("Aktualizacja: 04.06.2026 11:30", "hace 5 minutos") or a
relative time alone ("5분 전") is read by `dateparser <https://dateparser.readthedocs.io>`_,
whose month, weekday and "ago" words for 200 languages are maintained upstream, rather
than by hand lists. A text is a date only when dateparser reads *all* of it (it refuses
"The minister resigned on 4 June"), so reading is also how a line is told to be only a
date.

Kept pure and deterministic: every setting that would consult the clock or the machine's
time zone is fixed (``RELATIVE_BASE`` is the caller's ``base``, ``TIMEZONE`` UTC, a missing
day or month is the first, never today's), and the parsers that read a bare number as a
Unix timestamp or "20260604" as a date are left out. dateparser is imported on first use,
so extraction of an English or German page never loads it (see ``bench/languages.py`` for
its cost).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime
from functools import cache
from typing import TYPE_CHECKING, Final

from quietedit.article.wording import LANGUAGES, WORDINGS

if TYPE_CHECKING:
    from dateparser.date import DateDataParser

DATE_TEXT_MAX: Final = 80
"""Longest text read as a date; dateparser's time grows with the text, a date's does not."""

NEUTRAL_BASE: Final = datetime(2000, 1, 1)  # noqa: DTZ001 (dateparser wants it naive: UTC)
"""The "now" a date is read against when only *whether* it is a date matters."""

_PARSERS: Final = ("relative-time", "custom-formats", "absolute-time")
_ABSOLUTE_PARSERS: Final = ("custom-formats", "absolute-time")
# Parts an absolute date must name: "June 2026" or "2026" alone is no dateline.
_REQUIRED_PARTS: Final = ("day", "month")
_COMPLETE_PARTS: Final = ("day", "month", "year")
_EDGE: Final = " \t:\uff1a;,.|-\u2013—()[]{}\uff08\uff09【】「」『』\uff3b\uff3d\u3014\u3015·•"
# A time with "h" ("10h12", Portuguese and French) or "kl."/"godz." before it (Swedish,
# Polish): dateparser reads the first only in French and neither clock word.
_H_TIME: Final = re.compile(r"(?<=\d)\s?h\s?(?=\d{2}\b)", re.IGNORECASE)
_CLOCK_WORD: Final = re.compile(
    r"(?:\b(?:kl|godz|ore|h)\.?|\bum|\b\u00e0|\b\u00e0s|\ba las|\balle|\bom)\s+(?=\d)",
    re.IGNORECASE,
)
_SWEDISH_CLOCK: Final = re.compile(r"(?<=\d)\.(?=\d{2}\b(?![.,]\d))")  # "kl. 10.12"


def parse_page_date(
    text: str,
    *,
    languages: Iterable[str] = LANGUAGES,
    base: datetime = NEUTRAL_BASE,
    complete: bool = False,
) -> datetime | None:
    """The moment ``text`` names, in UTC, or None when ``text`` is not only a date.

    ``languages`` are dateparser's codes to read it in (by default every language of
    :data:`~quietedit.article.wording.LANGUAGES`); ``base`` is the "now" of relative
    times and of dates without a year (naive, UTC); ``complete`` refuses both, for a
    value that must not depend on ``base``. Leading connectors ("le", "am", "el", "op")
    and labels are the caller's to remove; the words between a date and its time ("à",
    "um", "kl.", "alle") are read here. A date without a zone is taken as UTC. Never
    raises.
    """
    cleaned = _prepared(text)
    if not cleaned or len(cleaned) > DATE_TEXT_MAX or not any(c.isdigit() for c in cleaned):
        return None
    parts = _COMPLETE_PARTS if complete else _REQUIRED_PARTS
    parsers = _ABSOLUTE_PARSERS if complete else _PARSERS
    moment = _parse(cleaned, tuple(languages), base.replace(tzinfo=None), parts, parsers)
    return moment.astimezone(UTC) if moment is not None else None


def is_date_text(text: str, *, languages: Iterable[str] = LANGUAGES) -> bool:
    """Whether ``text`` is only a date, a date and time, or a relative time."""
    return parse_page_date(text, languages=languages) is not None


def languages_of_label(label: str) -> tuple[str, ...]:
    """The languages whose tables hold ``label`` (case-folded) as an update or date label."""
    return _LABEL_LANGUAGES.get(" ".join(label.split()).casefold(), ())


def _prepared(text: str) -> str:
    """``text`` without its edge punctuation, clock words and "10h12" or "10.12" times."""
    cleaned = " ".join(text.split()).strip(_EDGE)
    cleaned = _CLOCK_WORD.sub("", cleaned)
    cleaned = _H_TIME.sub(":", cleaned)
    return _SWEDISH_CLOCK.sub(":", cleaned) if ":" not in cleaned else cleaned


@cache
def _parser(
    languages: tuple[str, ...], base: datetime, parts: tuple[str, ...], parsers: tuple[str, ...]
) -> DateDataParser:
    """A dateparser ``DateDataParser`` for ``languages``, reading against ``base`` with
    ``parsers`` and refusing a date that names none of ``parts``."""
    from dateparser.date import DateDataParser

    return DateDataParser(
        languages=list(languages),
        settings={
            "RELATIVE_BASE": base,
            "TIMEZONE": "UTC",
            "TO_TIMEZONE": "UTC",
            "RETURN_AS_TIMEZONE_AWARE": True,
            "PREFER_DATES_FROM": "past",
            "PREFER_DAY_OF_MONTH": "first",
            "PREFER_MONTH_OF_YEAR": "first",
            "PARSERS": list(parsers),
            "REQUIRE_PARTS": list(parts),
        },
    )


def _parse(
    text: str,
    languages: tuple[str, ...],
    base: datetime,
    parts: tuple[str, ...],
    parsers: tuple[str, ...],
) -> datetime | None:
    try:
        data = _parser(languages, base, parts, parsers).get_date_data(text)
    except (ValueError, OverflowError, TypeError, LookupError):  # dateparser's own bugs
        return None
    moment = data["date_obj"] if data is not None else None
    return moment if isinstance(moment, datetime) else None


def _label_languages() -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {}
    for wording in WORDINGS:
        for label in (*wording.update_labels, *wording.date_labels):
            languages = found.setdefault(label, [])
            if wording.language not in languages:
                languages.append(wording.language)
    # A label shared by Japanese and Chinese (更新) may be either.
    return {label: tuple(languages) for label, languages in found.items()}


_LABEL_LANGUAGES: Final = _label_languages()
