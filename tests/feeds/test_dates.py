"""normalize_date: the seed's date rules, the formats feeds write, and no exception ever."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from email.utils import format_datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quietedit.feeds.dates import ZONES, normalize_date

FETCHED = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def utc(
    year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0, us: int = 0
) -> datetime:
    return datetime(year, month, day, hour, minute, second, us, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "value", "exact"),
    [
        ("Mon, 30 Nov 2026 08:00:00 +0100", utc(2026, 11, 30, 7), True),
        ("Mon, 30 Nov 2026 08:00:00 -0000", utc(2026, 11, 30, 8), True),
        ("Mon, 30 Nov 2026 08:00 GMT", utc(2026, 11, 30, 8), True),
        ("30 Nov 2026 08:00:00 Z", utc(2026, 11, 30, 8), True),
        ("Mon, 30 Nov 2026 08:00:00 +0100 (CET)", utc(2026, 11, 30, 7), True),
        ("Mon,30 Nov 2026 08:00:00 GMT", utc(2026, 11, 30, 8), True),
        ("Mon, 30 November 2026 08:00:00 EST", utc(2026, 11, 30, 13), True),
        ("Mon, 30 Nov 2026 08:00:00 GMT+01:00", utc(2026, 11, 30, 7), True),
        ("2026-11-30T08:00:00Z", utc(2026, 11, 30, 8), True),
        ("2026-11-30t08:00:00z", utc(2026, 11, 30, 8), True),
        ("2026-11-30T08:00:00+01:00", utc(2026, 11, 30, 7), True),
        ("2026-11-30T08:00:00+0100", utc(2026, 11, 30, 7), True),
        ("2026-11-30T08:00:00+01", utc(2026, 11, 30, 7), True),
        ("2026-11-30 08:00:00 +01:00", utc(2026, 11, 30, 7), True),
        ("2026-11-30T08:00:00,5-03:30", utc(2026, 11, 30, 11, 30, 0, 500000), True),
        ("20261130T080000Z", utc(2026, 11, 30, 8), True),
        ("2026-11-30T24:00:00Z", utc(2026, 12, 1), True),
        ("2026-06-30T23:59:60Z", utc(2026, 6, 30, 23, 59, 59), True),
        ("November 30, 2026 8:00 AM EST", utc(2026, 11, 30, 13), True),
        ("Monday, November 30, 2026 at 12:30 PM PST", utc(2026, 11, 30, 20, 30), True),
        ("Nov 30th, 2026", utc(2026, 11, 30), False),
        ("Mon Nov 30 08:00:00 2026", utc(2026, 11, 30, 8), False),
        ("Mon Nov 30 08:00:00 UTC 2026", utc(2026, 11, 30, 8), True),
        ("Mo, 30. November 2026 08:00:00 MEZ", utc(2026, 11, 30, 7), True),
        ("Dienstag, 30. Juni 2026, 08.15 Uhr MESZ", utc(2026, 6, 30, 6, 15), True),
        ("30. Dez. 2026 08:00", utc(2026, 12, 30, 8), False),
        ("3 Mär 2026 10:00 CET", utc(2026, 3, 3, 9), True),
        ("Sun, 30 Nov 2026 08:00:00 BST", utc(2026, 11, 30, 7), True),
        ("Mon, 30 Nov 2026 08:00:00 NZDT", utc(2026, 11, 29, 19), True),
    ],
)
def test_formats_feeds_write_are_read(text: str, value: datetime, exact: bool) -> None:
    date = normalize_date(text, fetched_at=None)
    assert (date.value, date.exact, date.raw, date.clamped) == (value, exact, text, False)


def test_a_missing_time_zone_means_utc_marked_inexact() -> None:
    date = normalize_date("Mon, 30 Nov 2026 08:00:00", fetched_at=FETCHED)
    assert date.value == utc(2026, 11, 30, 8)
    assert date.exact is False


def test_an_unknown_zone_name_reads_as_utc_marked_inexact() -> None:
    date = normalize_date("Mon, 30 Nov 2026 08:00:00 IST", fetched_at=None)
    assert (date.value, date.exact) == (utc(2026, 11, 30, 8), False)


def test_a_date_without_time_is_midnight_utc_and_inexact() -> None:
    date = normalize_date("2026-11-30", fetched_at=None)
    assert (date.value, date.exact) == (utc(2026, 11, 30), False)


@pytest.mark.parametrize(
    ("year", "expected"), [("70", 1970), ("99", 1999), ("00", 2000), ("26", 2026), ("69", 2069)]
)
def test_two_digit_years_window_into_1970_to_2069(year: str, expected: int) -> None:
    date = normalize_date(f"30 Nov {year} 08:00:00 GMT", fetched_at=None)
    assert date.value is not None and date.value.year == expected


def test_a_date_more_than_an_hour_after_the_fetch_becomes_the_fetch_time() -> None:
    date = normalize_date("Mon, 30 Nov 2026 13:00:01 GMT", fetched_at=FETCHED)
    assert (date.value, date.exact, date.clamped) == (FETCHED, False, True)
    assert date.raw == "Mon, 30 Nov 2026 13:00:01 GMT"


def test_a_date_up_to_an_hour_after_the_fetch_is_kept() -> None:
    date = normalize_date("Mon, 30 Nov 2026 13:00:00 GMT", fetched_at=FETCHED)
    assert (date.value, date.clamped) == (utc(2026, 11, 30, 13), False)


def test_without_a_fetch_time_nothing_is_clamped() -> None:
    date = normalize_date("Mon, 30 Nov 2099 13:00:00 GMT", fetched_at=None)
    assert (date.value, date.clamped) == (utc(2099, 11, 30, 13), False)


def test_a_wrong_day_name_is_ignored() -> None:
    assert normalize_date("Fri, 30 Nov 2026 08:00 GMT", fetched_at=None).value == utc(
        2026, 11, 30, 8
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "garbage",
        "gestern, 18 Uhr",
        "Mon, 31 Nov 2026 08:00:00 GMT",
        "Mon, 30 Foo 2026 08:00:00 GMT",
        "2026-13-01",
        "2026-11-30T25:00:00Z",
        "30 Nov 202 08:00",
        "2026-11-30T08:00:00+99:00",
        "1" * 5000,
        "13:00",
    ],
)
def test_unreadable_text_gives_no_value_and_no_exception(text: str) -> None:
    date = normalize_date(text, fetched_at=FETCHED)
    assert (date.value, date.exact, date.clamped, date.raw) == (None, False, False, text)


def test_a_naive_fetch_time_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="no timezone"):
        normalize_date("2026-11-30", fetched_at=datetime(2026, 11, 30))  # noqa: DTZ001


def test_every_named_zone_is_a_whole_quarter_hour_within_14_hours() -> None:
    assert {
        "EST",
        "EDT",
        "CET",
        "CEST",
        "GMT",
        "UTC",
        "Z",
        "BST",
        "MEZ",
        "MESZ",
        "PST",
        "PDT",
    } <= set(ZONES)
    for name, offset in ZONES.items():
        assert abs(offset) <= 14 * 3600 and offset % 900 == 0, name


moments = st.datetimes(
    min_value=datetime(1000, 1, 2),  # noqa: DTZ001 - hypothesis wants naive bounds
    max_value=datetime(9998, 12, 30),  # noqa: DTZ001
    timezones=st.sampled_from(
        [UTC, timezone(timedelta(hours=5, minutes=30)), timezone(-timedelta(hours=8))]
    ),
)


@given(moments)
def test_rfc_2822_dates_round_trip(moment: datetime) -> None:
    date = normalize_date(format_datetime(moment), fetched_at=None)
    assert date.value == moment.replace(microsecond=0)
    assert date.exact is True


@given(moments)
def test_iso_8601_dates_round_trip(moment: datetime) -> None:
    date = normalize_date(moment.isoformat(), fetched_at=None)
    assert date.value == moment
    assert date.exact is True


@given(st.text(max_size=200), st.datetimes(timezones=st.just(UTC)))
def test_any_text_gives_a_utc_value_or_none_never_an_exception(
    text: str, fetched: datetime
) -> None:
    date = normalize_date(text, fetched_at=fetched)
    assert date.raw == text
    if date.value is not None:
        assert date.value.tzinfo is UTC
        assert date.value <= fetched + timedelta(hours=1)
    if date.clamped:
        assert date.value == fetched and not date.exact
