"""How long to wait before a retry: Retry-After when sent, else jittered backoff (pure).

Pure: the time (``now``) and the random factor are parameters.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Final

from quietedit.config.settings import FetchSettings

MAX_WAIT: Final = FetchSettings().max_wait
"""Cap on any one wait in seconds (``settings.fetch.max_wait``'s default), so a hostile or
huge Retry-After cannot stall a run."""

JITTER_LOW: Final = 0.5
"""Full-jitter backoff multiplies by a factor in [JITTER_LOW, 1): retries of many sources
failing at once spread out instead of arriving in lockstep."""


def parse_retry_after(value: str, *, now: datetime) -> float | None:
    """Seconds to wait according to a Retry-After header value, uncapped; None if unreadable.

    ``value`` is delta-seconds (``"120"``) or an HTTP-date (``"Wed, 21 Oct 2026 07:28:00
    GMT"``), RFC 9110 §10.2.3; a date in the past means 0. ``now`` must be timezone-aware.
    """
    text = value.strip()
    if not text:
        return None
    if text.isascii() and text.isdigit():
        # Beyond 300 digits int() refuses the string or float() overflows; it is "forever".
        return float(int(text)) if len(text) <= 300 else math.inf
    try:
        moment = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if moment.tzinfo is None:  # "-0000" and obsolete zones: HTTP-dates are GMT
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, (moment - now).total_seconds())


def backoff_delay(attempt: int, *, base: float, factor: float, cap: float = MAX_WAIT) -> float:
    """Full-jitter exponential backoff: ``base * 2**attempt * factor``, at most ``cap``.

    ``attempt`` counts retries from 0; ``factor`` is drawn from [0.5, 1) by the caller.
    """
    if not JITTER_LOW <= factor < 1:
        raise ValueError(f"backoff factor {factor!r} is outside [{JITTER_LOW}, 1)")
    # min() first: 2**attempt for a large attempt would overflow a float.
    return min(cap, base * 2.0 ** min(attempt, 64) * factor)


def jitter_factor(unit: float) -> float:
    """Map a uniform draw from [0, 1) onto the jitter interval [0.5, 1)."""
    return JITTER_LOW + (1 - JITTER_LOW) * min(max(unit, 0.0), 0.999_999_999)


def capped_wait(seconds: float, *, cap: float = MAX_WAIT) -> float:
    """A wait the server asked for, within [0, cap]."""
    return min(cap, max(0.0, seconds))
