"""How a fetch ends in failure: which failures earn another attempt, and the limit errors (pure).

Pure: errors in, a decision out; values in, an error out. The client (``attempts``,
``hops``) raises what these build, so the wording of every limit lives in one place.
"""

from __future__ import annotations

from typing import Final

from quietedit.errors import (
    FetchError,
    FetchTimeoutError,
    HTTPStatusError,
    NetworkError,
    TooManyRedirectsError,
)

MAX_REDIRECTS: Final = 5
"""Redirect hops followed after the first request; one more is a ``TooManyRedirectsError``."""

REDIRECT_STATUSES: Final = frozenset({301, 302, 303, 307, 308})


def retryable(error: FetchError) -> bool:
    """Whether another attempt may succeed where this one failed.

    Network failures, an attempt's timeout, 429 and 5xx are retried; a passed deadline and
    every refusal (guard, ``validate``, robots.txt, status, size, redirects) are final.
    """
    if isinstance(error, FetchTimeoutError):
        return not error.deadline
    if isinstance(error, HTTPStatusError):
        return error.transient
    return isinstance(error, NetworkError)


def deadline_passed(url: str, *, deadline: float, attempts: int) -> FetchTimeoutError:
    """The error for a fetch whose ``deadline`` (seconds) passed during attempt ``attempts``."""
    return FetchTimeoutError(
        url,
        f"no document within the {deadline:g} s deadline "
        f"({attempts} attempt(s)); the host is slow or trickling — "
        "raise settings.fetch.deadline if it is merely slow",
        deadline=True,
    )


def attempt_timed_out(url: str, *, number: int, timeout: float) -> FetchTimeoutError:
    """The error for attempt ``number`` (counted from 1) running past ``timeout`` seconds."""
    return FetchTimeoutError(
        url,
        f"attempt {number} got no complete response within {timeout:g} s (settings.fetch.timeout)",
    )


def too_many_redirects(url: str, *, requested: str) -> TooManyRedirectsError:
    """The error for a chain from ``requested`` that still redirects at hop ``MAX_REDIRECTS``."""
    return TooManyRedirectsError(
        url,
        f"redirects more than {MAX_REDIRECTS} times (from {requested}); "
        "fetch the final URL directly",
    )
