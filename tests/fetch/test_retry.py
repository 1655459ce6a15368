"""Retry-After parsing and jittered backoff (pure)."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quietedit.fetch import parse_retry_after
from quietedit.fetch.retry import MAX_WAIT, backoff_delay, capped_wait, jitter_factor

NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("120", 120.0),
        (" 7 ", 7.0),
        ("0", 0.0),
        ("86400", 86400.0),  # uncapped here; the caller caps
        ("Mon, 30 Nov 2026 08:00:45 GMT", 45.0),
        ("Monday, 30-Nov-26 08:01:00 GMT", 60.0),  # RFC 850, obsolete but valid
        ("Mon Nov 30 08:02:00 2026", 120.0),  # asctime
        ("Mon, 30 Nov 2026 07:00:00 GMT", 0.0),  # in the past
    ],
)
def test_retry_after_reads_seconds_and_http_dates(value: str, expected: float) -> None:
    assert parse_retry_after(value, now=NOW) == expected


@pytest.mark.parametrize("value", ["", "  ", "soon", "-5", "1.5", "12s", "Mon, 99 Foo 2026", "١٢"])
def test_unreadable_retry_after_is_none(value: str) -> None:
    assert parse_retry_after(value, now=NOW) is None


def test_an_absurd_retry_after_is_infinite_not_an_error() -> None:
    assert parse_retry_after("9" * 5000, now=NOW) == math.inf
    assert capped_wait(math.inf) == MAX_WAIT


def test_now_in_another_zone_gives_the_same_wait() -> None:
    later = NOW.astimezone(timezone(timedelta(hours=-5)))
    assert parse_retry_after("Mon, 30 Nov 2026 08:00:30 GMT", now=later) == 30.0


@given(st.integers(min_value=0, max_value=10**9))
def test_delta_seconds_round_trip(seconds: int) -> None:
    assert parse_retry_after(str(seconds), now=NOW) == float(seconds)


@given(st.text(max_size=60))
def test_retry_after_never_raises(value: str) -> None:
    result = parse_retry_after(value, now=NOW)
    assert result is None or result >= 0


@given(
    st.integers(min_value=0, max_value=200),
    st.floats(min_value=0, max_value=100),
    st.floats(min_value=0, max_value=1, exclude_max=True),
)
def test_backoff_stays_within_full_jitter_bounds_and_the_cap(
    attempt: int, base: float, unit: float
) -> None:
    delay = backoff_delay(attempt, base=base, factor=jitter_factor(unit))
    ceiling = base * 2.0 ** min(attempt, 64)
    assert 0 <= delay <= MAX_WAIT
    assert delay <= ceiling
    floor = min(MAX_WAIT, 0.5 * ceiling)
    assert delay >= floor or math.isclose(delay, floor)


def test_backoff_doubles_per_attempt() -> None:
    assert [backoff_delay(n, base=0.5, factor=0.5) for n in range(4)] == [0.25, 0.5, 1.0, 2.0]
    assert backoff_delay(20, base=0.5, factor=0.9) == MAX_WAIT
    assert backoff_delay(3, base=1, factor=0.5, cap=2.5) == 2.5


@pytest.mark.parametrize("factor", [0.49, 1.0, -1])
def test_a_factor_outside_the_jitter_interval_is_refused(factor: float) -> None:
    with pytest.raises(ValueError, match="outside"):
        backoff_delay(0, base=1, factor=factor)


@given(st.floats(allow_nan=False))
def test_jitter_factor_maps_any_draw_into_half_open_interval(unit: float) -> None:
    assert 0.5 <= jitter_factor(unit) < 1
