"""Which failures a fetch retries, and the errors for running out of time or hops (pure)."""

from __future__ import annotations

import pytest

from quietedit.errors import (
    BlockedURLError,
    ContentDecodingError,
    FetchError,
    FetchTimeoutError,
    HostDeferredError,
    HTTPStatusError,
    NetworkError,
    ResponseTooLargeError,
    RobotsDisallowedError,
    TooManyRedirectsError,
    UnsupportedURLError,
)
from quietedit.fetch.failures import (
    MAX_REDIRECTS,
    attempt_timed_out,
    deadline_passed,
    retryable,
    too_many_redirects,
)

URL = "https://news.example/politics/2026/11/30/budget-vote"


@pytest.mark.parametrize(
    "error",
    [
        NetworkError(URL, "connection reset by peer"),
        FetchTimeoutError(URL, "attempt 1 got no complete response within 15 s"),
        HTTPStatusError(URL, 503, "HTTP 503 Service Unavailable"),
        HTTPStatusError(URL, 429, "HTTP 429 Too Many Requests", retry_after=30.0),
    ],
    ids=["network", "attempt-timeout", "503", "429"],
)
def test_network_failures_attempt_timeouts_429_and_5xx_are_retried(error: FetchError) -> None:
    assert retryable(error)


@pytest.mark.parametrize(
    "error",
    [
        FetchTimeoutError(URL, "no document within the 60 s deadline", deadline=True),
        HTTPStatusError(URL, 404, "HTTP 404 Not Found"),
        HTTPStatusError(URL, 451, "HTTP 451 Unavailable For Legal Reasons"),
        BlockedURLError(URL, "refused by the SSRF guard: 10.0.0.7 is private"),
        RobotsDisallowedError(URL, "robots.txt disallows it"),
        UnsupportedURLError(URL, "not http(s)"),
        TooManyRedirectsError(URL, "redirects more than 5 times"),
        ResponseTooLargeError(URL, 1024, "declares 2,048 bytes"),
        ContentDecodingError(URL, "corrupt gzip"),
        # transient for the batch (carried over), but a deferral is not retried in the fetch
        HostDeferredError(URL, "hourly budget spent", retry_at=1_800_000_000.0),
    ],
    ids=lambda error: type(error).__name__ + getattr(error, "message", "")[:12],
)
def test_refusals_other_statuses_and_a_passed_deadline_are_final(error: FetchError) -> None:
    assert not retryable(error)


def test_a_passed_deadline_names_the_deadline_the_attempts_and_the_setting() -> None:
    error = deadline_passed(URL, deadline=60.0, attempts=3)
    assert error.deadline and error.transient and error.url == URL
    assert "60 s deadline" in error.message and "(3 attempt(s))" in error.message
    assert "settings.fetch.deadline" in error.message
    assert not retryable(error)


def test_an_attempt_timeout_names_the_attempt_the_limit_and_the_setting() -> None:
    error = attempt_timed_out(URL, number=2, timeout=2.5)
    assert not error.deadline
    assert error.message.startswith("attempt 2 got no complete response within 2.5 s")
    assert "settings.fetch.timeout" in error.message
    assert retryable(error)


def test_too_many_redirects_names_the_limit_and_where_the_chain_began() -> None:
    start = "https://news.example/s/abc"
    error = too_many_redirects(URL, requested=start)
    assert error.url == URL
    assert f"more than {MAX_REDIRECTS} times (from {start})" in error.message
    assert not retryable(error)
