"""News sitemaps and sitemap indexes as candidate sources (pure).

:func:`parse_sitemap` reads a ``<urlset>`` (with Google News' ``<news:news>`` title and
publication date, and ``<lastmod>``) or a ``<sitemapindex>`` listing further sitemaps,
gzip-compressed or not. ``lastmod`` is kept on each entry: it is the publisher's own
signal that a page changed. Elements are matched by local name, so a sitemap with a
wrong or missing namespace still reads.

Hostile input is bounded: the decompressed size, the number of URLs (the sitemap
protocol's own maximum by default), and, as for feeds, the XML itself is neutralised by
:func:`~quietedit.feeds.xmlprep.prepare_xml` (no DTD, no entity can be fetched or
expanded) before expat reads it. A sitemap cut off mid-way keeps what was read before
the cut, with the problem recorded.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal

from quietedit.errors import FeedParseError
from quietedit.feeds.dates import NormalizedDate, normalize_date
from quietedit.feeds.fields import MAX_TITLE_CHARS, capped_problems, plain_text, safe_link
from quietedit.feeds.xmlprep import prepare_xml

MAX_SITEMAP_BYTES: Final = 50 * 1024 * 1024
"""Largest (decompressed) sitemap read: the sitemap protocol's limit of 50 MB."""

MAX_SITEMAP_URLS: Final = 50_000
"""URLs read per sitemap: the sitemap protocol's limit."""

_CHUNK: Final = 64 * 1024


@dataclass(frozen=True, slots=True)
class SitemapEntry:
    """One ``<url>``: its address, ``lastmod``, and the Google News fields when present."""

    url: str
    lastmod: NormalizedDate | None = None
    news_title: str | None = None
    news_published: NormalizedDate | None = None
    news_publication: str | None = None
    news_language: str | None = None


@dataclass(frozen=True, slots=True)
class SitemapRef:
    """One ``<sitemap>`` of an index: a further sitemap to fetch, and its ``lastmod``."""

    url: str
    lastmod: NormalizedDate | None = None


@dataclass(frozen=True, slots=True)
class Sitemap:
    """A parsed sitemap: ``urlset`` entries, or an index's ``sitemaps``; what was repaired."""

    url: str
    kind: Literal["urlset", "sitemapindex"]
    entries: tuple[SitemapEntry, ...] = ()
    sitemaps: tuple[SitemapRef, ...] = ()
    problems: tuple[str, ...] = ()


def parse_sitemap(
    body: bytes,
    *,
    url: str,
    fetched_at: datetime | None,
    content_type: str | None = None,
    max_bytes: int = MAX_SITEMAP_BYTES,
    max_urls: int = MAX_SITEMAP_URLS,
) -> Sitemap:
    """Parse a sitemap or sitemap index fetched from ``url`` (the base for relative URLs).

    Dates more than an hour after ``fetched_at`` are clamped to it (``None``: no clamp).
    Raises :class:`~quietedit.errors.FeedParseError` for a body that is too big, not
    XML, or neither a ``urlset`` nor a ``sitemapindex``.
    """
    problems: list[str] = []
    if body[:2] == b"\x1f\x8b":
        body = _gunzip(body, url=url, max_bytes=max_bytes)
    if len(body) > max_bytes:
        raise _error(url, f"body of {len(body)} bytes is over the limit of {max_bytes} bytes")
    prepared = prepare_xml(body, content_type=content_type)
    problems.extend(prepared.problems)
    reader = _Reader(url=url, fetched_at=fetched_at, max_urls=max_urls, problems=problems)
    parser: ET.XMLPullParser[ET.Element] = ET.XMLPullParser(events=("start", "end"))
    try:
        for start in range(0, len(prepared.data), _CHUNK):
            parser.feed(prepared.data[start : start + _CHUNK])
            if reader.take(parser):
                break
        else:
            parser.close()
            reader.take(parser)
    except ET.ParseError as exc:
        if reader.kind is None:
            raise _error(url, f"not well-formed XML: {exc}") from exc
        problems.append(f"not well-formed XML ({exc}); kept what was read before the error")
    if reader.kind is None:
        raise _error(url, f"not a sitemap: the root is <{reader.root or '?'}>, not <urlset>")
    return Sitemap(
        url=url,
        kind=reader.kind,
        entries=tuple(reader.entries),
        sitemaps=tuple(reader.sitemaps),
        problems=capped_problems(problems),
    )


class _Reader:
    """Collects ``<url>`` and ``<sitemap>`` elements from a pull parser as they end."""

    def __init__(
        self, *, url: str, fetched_at: datetime | None, max_urls: int, problems: list[str]
    ) -> None:
        self.url = url
        self.fetched_at = fetched_at
        self.max_urls = max_urls
        self.problems = problems
        self.kind: Literal["urlset", "sitemapindex"] | None = None
        self.root = ""
        self.entries: list[SitemapEntry] = []
        self.sitemaps: list[SitemapRef] = []
        self.depth = 0

    def take(self, parser: ET.XMLPullParser[ET.Element]) -> bool:
        """Consume the parser's pending events; True once ``max_urls`` have been read."""
        for item in parser.read_events():
            event, element = item[0], item[-1]
            if not isinstance(element, ET.Element):
                continue
            name = _local(element.tag)
            if event == "start":
                self.depth += 1
                if self.depth == 1:
                    self.root = name
                    if name in {"urlset", "sitemapindex"}:
                        self.kind = "urlset" if name == "urlset" else "sitemapindex"
                continue
            self.depth -= 1
            if self.depth == 1 and name in {"url", "sitemap"}:
                if len(self.entries) + len(self.sitemaps) >= self.max_urls:
                    self.problems.append(
                        f"more than {self.max_urls} URLs; only the first {self.max_urls} are read"
                    )
                    return True
                self._add(name, element)
                element.clear()
        return False

    def _add(self, name: str, element: ET.Element) -> None:
        fields = {_local(child.tag): child for child in element}
        position = len(self.entries) + len(self.sitemaps) + 1
        link, why = safe_link(
            (fields["loc"].text or "") if "loc" in fields else None, base=self.url
        )
        if link is None:
            self.problems.append(f"{name} {position}: {why or 'no <loc>'}; skipped")
            return
        lastmod = self._date(fields.get("lastmod"))
        if name == "sitemap":
            self.sitemaps.append(SitemapRef(url=link, lastmod=lastmod))
            return
        news = {}
        if "news" in fields:
            news = {_local(child.tag): child for child in fields["news"].iter()}
        title = news.get("title")
        self.entries.append(
            SitemapEntry(
                url=link,
                lastmod=lastmod,
                news_title=plain_text(title.text or "", html=False, limit=MAX_TITLE_CHARS)
                if title is not None
                else None,
                news_published=self._date(news.get("publication_date")),
                news_publication=_text(news.get("name")),
                news_language=_text(news.get("language")),
            )
        )

    def _date(self, element: ET.Element | None) -> NormalizedDate | None:
        text = _text(element)
        return None if text is None else normalize_date(text, fetched_at=self.fetched_at)


def _text(element: ET.Element | None) -> str | None:
    if element is None or element.text is None:
        return None
    return plain_text(element.text, html=False, limit=200) or None


def _local(tag: object) -> str:
    """An element's name without its ``{namespace}``."""
    return str(tag).rpartition("}")[2]


def _gunzip(body: bytes, *, url: str, max_bytes: int) -> bytes:
    """Decompress a gzip body, refusing to inflate beyond ``max_bytes`` (gzip bombs)."""
    inflater = zlib.decompressobj(wbits=31)
    try:
        data = inflater.decompress(body, max_bytes + 1)
    except zlib.error as exc:
        raise _error(url, f"gzip body is corrupt: {exc}") from exc
    if len(data) > max_bytes:
        raise _error(url, f"gzip body inflates to more than {max_bytes} bytes")
    return data


def _error(url: str, reason: str) -> FeedParseError:
    return FeedParseError(url, reason, source="sitemap")
