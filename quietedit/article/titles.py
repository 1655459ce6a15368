"""The headline: which of the page's candidate titles is the article's own.

A page names itself several times: the ``<h1>`` readers see, ``og:title`` and JSON-LD
``headline`` for sharing (sometimes a different, shorter headline), and ``<title>`` with
the site's name appended. The headline is the visible ``<h1>`` when it agrees with the
metadata, because that is what a reader would call the title; the metadata decides
between several ``<h1>``, and replaces an ``<h1>`` that shares no word with it (a
site logo marked up as ``<h1>``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from quietedit.article.metadata import PageMeta

_WORD: Final = re.compile(r"\w+")
# "Headline | Site", "Headline - Site", "Site » Headline"
_TITLE_SEPARATOR: Final = re.compile(r"\s+(?:[|\-\u2013\u2014\u00bb\u00b7\u2022:]{1,2}|::)\s+")
TITLE_MAX_CHARS: Final = 400
"""A longer ``<h1>`` is not a headline but a page-builder's text block."""
H1_AGREEMENT: Final = 0.5
"""Share of an ``<h1>``'s words the metadata titles must have for it to be the headline."""


def words(text: str) -> set[str]:
    """The lower-cased words of ``text``."""
    return set(_WORD.findall(text.lower()))


def choose_title(meta: PageMeta, h1s: Sequence[str]) -> str:
    """The article's headline from its ``<h1>`` texts and metadata; "" if it has none."""
    references = [
        strip_site_name(text, meta.site_name)
        for text in (meta.og_title, meta.headline, meta.html_title)
        if text
    ]
    reference_words = set().union(*(words(text) for text in references))
    candidates = [h for h in dict.fromkeys(h1s) if 0 < len(h) <= TITLE_MAX_CHARS]
    if candidates:
        if not reference_words:
            return candidates[0]
        overlaps = [_overlap(words(h), reference_words) for h in candidates]
        agreement = max(overlaps)
        if agreement >= H1_AGREEMENT:
            return candidates[overlaps.index(agreement)]  # the first that agrees the most
    if meta.headline:
        return meta.headline
    if meta.og_title:
        return strip_site_name(meta.og_title, meta.site_name)
    if meta.html_title:
        return strip_site_name(meta.html_title, meta.site_name)
    return ""


def _overlap(candidate: set[str], reference: set[str]) -> float:
    if not candidate:
        return 0.0
    return len(candidate & reference) / len(candidate)


def strip_site_name(title: str, site_name: str | None = None) -> str:
    """A title without the site's name: the longest part between separators."""
    parts = [p.strip() for p in _TITLE_SEPARATOR.split(title) if p.strip()]
    if site_name:
        site = site_name.strip().lower()
        parts = [p for p in parts if p.lower() != site] or parts
    if not parts:
        return title.strip()
    return max(parts, key=len)


def same_title(text: str, title: str) -> bool:
    """Whether a block repeats the headline (same words, in any case or punctuation)."""
    if not title or abs(len(text) - len(title)) > len(title) // 2 + 10:
        return False
    return text == title or _WORD.findall(text.lower()) == _WORD.findall(title.lower())
