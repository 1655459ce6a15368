"""Per-host templates: learn a site's furniture from many of its articles.

A curated vocabulary cannot know every site's promo lines, but the site itself gives them
away: its boilerplate recurs across its articles, its prose does not. Given several pages
of one host, :func:`learn_host_profile` keeps the body blocks that recur in at least
``min_share`` of the host's *distinct* articles (and in at least ``min_pages`` of them),
and :func:`quietedit.article.extract.extract_article` drops those blocks when given the
profile.

Blocks are compared by :func:`~quietedit.article.profile.furniture_key`, which forgives
case, white space and digits. Articles are counted once however many revisions of them are
given, so an article's own paragraphs never look recurrent. The profile itself, a plain
value, lives in :mod:`quietedit.article.profile`, which extraction reads without this
module.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Final

from quietedit.article.extract import extract_article
from quietedit.article.profile import PROFILE_VERSION, HostProfile, furniture_key
from quietedit.model import Article

__all__ = [
    "MIN_PAGES",
    "MIN_SHARE",
    "PROFILE_VERSION",
    "HostProfile",
    "furniture_key",
    "learn_host_profile",
]

MIN_PAGES: Final = 3
"""A block must recur in at least this many distinct articles to be furniture."""

MIN_SHARE: Final = 0.3
"""…and in at least this share of the host's distinct articles."""


def learn_host_profile(
    pages: Iterable[Article | str | bytes],
    *,
    host: str,
    min_pages: int = MIN_PAGES,
    min_share: float = MIN_SHARE,
) -> HostProfile:
    """Learn ``host``'s furniture from its pages (articles, or HTML to extract first).

    A block is furniture when its key occurs in at least ``min_pages`` distinct articles
    and in at least ``min_share`` of them. Articles are told apart by canonical URL, then
    ``og:url``, then title, so revisions of one article count once. Headings count like any
    block (a recurring "Related stories" is furniture too); the title never does.
    """
    seen: dict[str, set[str]] = {}
    for page in pages:
        article = page if isinstance(page, Article) else extract_article(page)
        identity = (
            article.publisher.canonical_url
            or article.publisher.og_url
            or article.title
            or f"#{len(seen)}"
        )
        keys = seen.setdefault(identity, set())
        keys.update(furniture_key(block.text) for block in article.blocks)
    counts: Counter[str] = Counter()
    for keys in seen.values():
        counts.update(keys)
    distinct = len(seen)
    needed = max(min_pages, min_share * distinct)
    furniture = tuple(key for key, count in counts.items() if key and count >= needed)
    return HostProfile(host=host, pages=distinct, furniture=furniture)
