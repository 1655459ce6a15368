"""feedparser's own date cases through normalize_date, and the fallback to its handlers.

The cases are feedparser's (BSD-2-Clause; source, copyright and licence in
``feedparser_date_cases.py``). Before feedparser's handlers were asked and ISO 8601's
reduced forms read, 49 of the 73 passed; now all do.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime

import feedparser
import feedparser.datetimes
import pytest

from quietedit.feeds.dates import normalize_date
from tests.feeds.feedparser_date_cases import CASES, Moment


@pytest.mark.parametrize(
    ("handler", "text", "expected"), CASES, ids=[f"{h}:{t!r}" for h, t, _ in CASES]
)
def test_feedparsers_date_cases(handler: str, text: str, expected: Moment | None) -> None:
    value = normalize_date(text, fetched_at=None).value
    got = (
        None
        if value is None
        else (value.year, value.month, value.day, value.hour, value.minute, value.second)
    )
    assert got == expected, handler


@pytest.mark.parametrize(
    ("text", "exact"),
    [
        # a zone in the text: exact, whichever reader found the date
        ("\u039a\u03c5\u03c1, 11 \u0399\u03bf\u03cd\u03bb 2004 12:00:00 EST", True),
        ("2004-j\u00falius-13T9:15-05:00", True),
        ("Fri, 2006/09/15 08:19:53 EDT", True),
        ("Wed, 19 Aug 2009 18:28:00 Etc/GMT", True),
        ("Thu, 30 Apr 2015 08:57:00 MEST", True),
        # the Korean forms imply KST but do not say it; "ET" does not say EST or EDT
        ("2004-05-25 \uc624\ud6c4 11:23:17", False),
        ("2004\ub144 05\uc6d4 28\uc77c  01:31:15", False),
        ("Mon, 26 January 2004 16:31:00 ET", False),
        # reduced forms have no time
        ("2003-12", False),
        ("03335", False),
    ],
)
def test_a_fallback_date_is_exact_only_when_its_text_names_a_zone(text: str, exact: bool) -> None:
    date = normalize_date(text, fetched_at=None)
    assert date.value is not None
    assert date.exact is exact


def test_reduced_iso_forms_window_two_digit_years_like_every_other_date() -> None:
    assert normalize_date("69-11-30", fetched_at=None).value == datetime(2069, 11, 30, tzinfo=UTC)
    assert normalize_date("701130", fetched_at=None).value == datetime(1970, 11, 30, tzinfo=UTC)
    assert normalize_date("-7011", fetched_at=None).value == datetime(1970, 11, 1, tzinfo=UTC)


@pytest.mark.parametrize("text", ["2026-366", "26000", "2024-367", "2026-13", "261332"])
def test_impossible_reduced_dates_read_as_no_date(text: str) -> None:
    assert normalize_date(text, fetched_at=None).value is None


def test_an_ordinal_date_counts_a_leap_day() -> None:
    assert normalize_date("2024-366", fetched_at=None).value == datetime(2024, 12, 31, tzinfo=UTC)
    assert normalize_date("2024060", fetched_at=None).value == datetime(2024, 2, 29, tzinfo=UTC)


def _parse_dutch_words(text: str) -> time.struct_time | None:
    """A handler a user might register: '30 november 2026 om 08:00' read as UTC."""
    parts = text.split()
    if len(parts) != 5 or parts[1] != "november" or parts[3] != "om":
        return None
    hour, minute = parts[4].split(":")
    moment = datetime(int(parts[2]), 11, int(parts[0]), int(hour), int(minute), tzinfo=UTC)
    return moment.utctimetuple()


@pytest.fixture
def dutch_handler() -> Iterator[None]:
    feedparser.registerDateHandler(_parse_dutch_words)
    yield
    feedparser.datetimes._date_handlers.remove(_parse_dutch_words)


@pytest.mark.usefixtures("dutch_handler")
def test_a_handler_registered_with_feedparser_is_asked_too() -> None:
    date = normalize_date("30 november 2026 om 08:00", fetched_at=None)
    assert date.value == datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
    assert date.exact is False


def _broken_handler(text: str) -> time.struct_time | None:
    raise IndexError(text)


def test_a_handler_that_raises_is_passed_over() -> None:
    feedparser.registerDateHandler(_broken_handler)
    try:
        assert normalize_date("2004-05-25 \uc624\ud6c4 11:23:17", fetched_at=None).value == (
            datetime(2004, 5, 25, 14, 23, 17, tzinfo=UTC)
        )
    finally:
        feedparser.datetimes._date_handlers.remove(_broken_handler)
