"""feedparser's registered date handlers, asked when our own formats do not read a date (pure).

feedparser keeps a registry of date handlers (``feedparser.registerDateHandler``) for the
forms feeds have written over two decades: Greek and Hungarian month names, the Korean
blog platforms' ``2004년 05월 28일`` and ``오후`` (p.m.) forms, Perforce's ``2006/09/15``,
and its lenient RFC 822, asctime and W3C-DTF readers. :func:`registered_handlers_moment`
asks each in the order feedparser would, with two differences:

- feedparser's ISO 8601 handler is skipped: it fills a missing year, month or day from the
  clock, normalises through the machine's local time zone (``time.mktime``), and accepts
  any text that merely *begins* with a date (so it reads ``2004-július-13`` as 2004-12-01
  before the Hungarian handler is asked). :mod:`quietedit.feeds.dates` reads ISO 8601's
  reduced and truncated forms itself, from the text alone.
- a handler that raises is treated as "not mine", whatever it raises, so hostile text never
  escapes as an exception.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import feedparser.datetimes

_SKIPPED: frozenset[str] = frozenset({"_parse_date_iso8601"})
"""Handlers left out, by name (why: the module docstring)."""


def registered_handlers_moment(text: str) -> datetime | None:
    """The UTC moment the first willing feedparser handler reads in ``text``, or None."""
    if not text:
        return None
    for handler in _handlers():
        try:
            parsed = handler(text)
        except (ArithmeticError, AttributeError, KeyError, IndexError, TypeError, ValueError):
            continue
        if parsed is None or len(parsed) != 9:
            continue
        try:
            year, month, day, hour, minute, second = parsed[:6]
            return datetime(year, month, day, hour, minute, second, tzinfo=UTC)
        except (TypeError, ValueError, OverflowError):
            continue
    return None


def _handlers() -> list[Callable[[str], Sequence[int] | None]]:
    """The registry as it stands (read at call time: a caller may register its own)."""
    registry: list[Callable[[str], Sequence[int] | None]] = feedparser.datetimes._date_handlers
    return [h for h in registry if getattr(h, "__name__", "") not in _SKIPPED]
