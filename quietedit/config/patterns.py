"""The ``include:`` and ``exclude:`` URL patterns of a feed: syntax, checks, matching (pure).

A pattern is a piece of a URL: it matches when it occurs anywhere in the link's canonical
URL, letter case aside, ``*`` standing for any run of characters (``/sport/live/`` matches
``https://news.example.org/sport/live/cup-final-2026``; ``/live/*-latest`` matches
``/news/live/storm-latest``). To anchor a pattern at the start, write the URL from its
scheme: ``https://news.example.org/sport/``. A link is tracked when it matches one of the
``include`` patterns (every link, when there are none) and none of the ``exclude`` ones.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final

MAX_PATTERN_LENGTH: Final = 500
"""Longer than any URL path a feeds.yaml author would write by hand."""
MAX_PATTERNS: Final = 100
"""Patterns per list: a feed that needs more wants a feed of its own."""


class PatternError(ValueError):
    """A pattern is not usable; the message follows the pattern's repr."""


def check_pattern(value: object) -> str:
    """The pattern ``value`` as written, or ``PatternError`` saying what is wrong."""
    if not isinstance(value, str):
        raise PatternError("is not text; write a piece of a URL such as /sport/live/")
    if not value.strip():
        raise PatternError("is empty; write a piece of a URL such as /sport/live/")
    if any(char.isspace() or unicodedata.category(char) == "Cc" for char in value):
        raise PatternError("contains white space or a control character; percent-encode it (%20)")
    if len(value) > MAX_PATTERN_LENGTH:
        raise PatternError(f"is longer than {MAX_PATTERN_LENGTH} characters; shorten it")
    if not value.strip("*"):
        raise PatternError("matches every URL; leave the list out instead")
    return value


@dataclass(frozen=True, slots=True)
class UrlFilter:
    """A feed's ``include`` and ``exclude`` patterns, checked by :func:`check_pattern`."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def tracks(self, url: str) -> bool:
        """Whether a link to ``url`` is tracked (see the module docstring)."""
        if not self.include and not self.exclude:
            return True
        folded = url.casefold()
        if self.include and not any(_compiled(p).search(folded) for p in self.include):
            return False
        return not any(_compiled(p).search(folded) for p in self.exclude)

    @property
    def active(self) -> bool:
        """Whether any pattern is set (without one, every link is tracked)."""
        return bool(self.include or self.exclude)


_CACHE: Final[dict[str, re.Pattern[str]]] = {}
_CACHE_MAX: Final = 4096


def _compiled(pattern: str) -> re.Pattern[str]:
    """``pattern`` as a regular expression: literal text, ``*`` any run of characters."""
    found = _CACHE.get(pattern)
    if found is None:
        parts = (re.escape(part) for part in pattern.casefold().split("*"))
        found = re.compile(".*?".join(parts), re.DOTALL)
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        _CACHE[pattern] = found
    return found
