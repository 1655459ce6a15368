"""Per-host templates: learn a site's furniture from many of its articles.

A curated vocabulary cannot know every site's promo lines, but the site itself gives them
away: its boilerplate recurs across its articles, its prose does not. Given several pages
of one host, :func:`learn_host_profile` keeps the body blocks that recur in at least
``min_share`` of the host's *distinct* articles (and in at least ``min_pages`` of them),
and :func:`quietedit.article.extract.extract_article` drops those blocks when given the
profile.

Blocks are compared by a *key* that forgives what changes from page to page in a
template line: case, white space, and digits ("© 2026", "12 comments" and
"© 2027", "13 comments" share a key). Articles are counted once however many revisions of
them are given, so an article's own paragraphs never look recurrent.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from quietedit.errors import HostProfileError
from quietedit.model import JSON, Article

PROFILE_VERSION: Final = 1
"""Version of the record format and of :func:`furniture_key`; bump on any change."""

MIN_PAGES: Final = 3
"""A block must recur in at least this many distinct articles to be furniture."""

MIN_SHARE: Final = 0.3
"""…and in at least this share of the host's distinct articles."""

_DIGITS: Final = re.compile(r"\d+")


def furniture_key(text: str) -> str:
    """The form in which blocks are compared across pages: folded case, space and digits."""
    return _DIGITS.sub("0", " ".join(text.lower().split()))


@dataclass(frozen=True, slots=True)
class HostProfile:
    """What one host's pages share: its furniture lines, as :func:`furniture_key` keys.

    ``pages`` is the number of distinct articles it was learnt from. Store it with
    :meth:`to_record` and read it back with :meth:`from_record`.
    """

    host: str
    pages: int = 0
    furniture: tuple[str, ...] = ()
    _keys: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "furniture", tuple(sorted(set(self.furniture))))
        object.__setattr__(self, "_keys", frozenset(self.furniture))

    def furniture_keys(self) -> frozenset[str]:
        """The furniture keys, for membership tests."""
        return self._keys

    def is_furniture(self, text: str) -> bool:
        """Whether a block's text is one of this host's furniture lines."""
        return furniture_key(text) in self._keys

    def to_record(self) -> dict[str, JSON]:
        """A JSON-ready object (sorted lists; deterministic)."""
        return {
            "version": PROFILE_VERSION,
            "host": self.host,
            "pages": self.pages,
            "furniture": list(self.furniture),
        }

    @classmethod
    def from_record(cls, record: object) -> HostProfile:
        """Read :meth:`to_record`'s output back.

        Raises :class:`~quietedit.errors.HostProfileError` naming the field when the
        record is not a profile of this version.
        """
        if not isinstance(record, dict):
            raise HostProfileError(f"a host profile is a JSON object, not {type(record).__name__}")
        version = record.get("version")
        if version != PROFILE_VERSION:
            raise HostProfileError(
                f"host profile version {version!r} is not {PROFILE_VERSION}; "
                "learn the profile again from the host's pages"
            )
        host = record.get("host")
        pages = record.get("pages")
        furniture = record.get("furniture")
        if not isinstance(host, str):
            raise HostProfileError(f"host profile 'host' must be a string, not {host!r}")
        if not isinstance(pages, int) or isinstance(pages, bool) or pages < 0:
            raise HostProfileError(
                f"host profile 'pages' must be a whole number of at least 0, not {pages!r}"
            )
        if not isinstance(furniture, list) or not all(isinstance(f, str) for f in furniture):
            raise HostProfileError("host profile 'furniture' must be a list of strings")
        return cls(host=host, pages=pages, furniture=tuple(furniture))


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
    from quietedit.article.extract import extract_article

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
