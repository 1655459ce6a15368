"""What a page says about itself: canonical URL, Open Graph, JSON-LD, dates, byline, language.

Everything is read as written (dates stay the publisher's text); the analysis normalises
later. JSON-LD is hostile input like the rest: invalid JSON, a ``@graph``, arrays of
objects, ``author`` as a string, an object or a list, and absurd nesting are all met in the
wild and all tolerated — a block that cannot be read is skipped, never an error.
"""

from __future__ import annotations

import html as html_entities
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final
from urllib.parse import urljoin, urlsplit

from quietedit.article.blocks import normalize_space
from quietedit.article.dom import RawHead

# schema.org types whose objects describe the article itself.
ARTICLE_TYPES: Final = frozenset(
    {
        "article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle",
        "opinionnewsarticle", "reviewnewsarticle", "backgroundnewsarticle", "liveblogposting",
        "techarticle", "scholarlyarticle", "socialmediaposting", "report", "posting",
        "advertisercontentarticle", "satiricalarticle", "medicalscholarlyarticle",
    }
)  # fmt: skip
JSON_LD_MAX_CHARS: Final = 1_000_000  # larger blocks are not metadata but a page's state dump
JSON_LD_MAX_DEPTH: Final = 12  # deep enough for @graph → mainEntity → author → name
_TRAILING_COMMA: Final = re.compile(r",\s*([}\]])")
_CDATA: Final = re.compile(r"^\s*(?://\s*)?<!\[CDATA\[|(?://\s*)?\]\]>\s*$|^\s*<!--|-->\s*$")

# Meta names and properties, in order of preference, for each field.
_PUBLISHED_KEYS: Final = (
    "article:published_time", "datepublished", "og:article:published_time",
    "parsely-pub-date", "sailthru.date", "pubdate", "publishdate", "publish-date",
    "dc.date.issued", "dcterms.created", "dc.date", "date", "citation_publication_date",
)  # fmt: skip
_MODIFIED_KEYS: Final = (
    "article:modified_time", "datemodified", "og:updated_time", "og:article:modified_time",
    "last-modified", "dcterms.modified", "dc.date.modified", "revised",
)  # fmt: skip
_AUTHOR_KEYS: Final = (
    "author", "article:author", "parsely-author", "dc.creator", "dcterms.creator",
    "sailthru.author",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class PageMeta:
    """Metadata gathered from ``<head>``, JSON-LD and microdata, before the body is read."""

    html_title: str | None = None
    og_title: str | None = None
    headline: str | None = None
    canonical_url: str | None = None
    og_url: str | None = None
    date_published: str | None = None
    date_modified: str | None = None
    authors: tuple[str, ...] = ()
    language: str | None = None
    site_name: str | None = None


def read_metadata(head: RawHead, *, url: str | None) -> PageMeta:
    """Interpret a page's raw head; ``url`` resolves relative canonical and og:url links."""
    metas = _meta_values(head.metas)
    ld = _json_ld_article(head.json_ld)
    canonical = None
    for link in head.links:
        rels = (link.get("rel") or "").lower().split()
        href = link.get("href")
        if "canonical" in rels and href and href.strip():
            canonical = _absolute(href, url)
            break
    og_url = metas.get("og:url")
    authors = (
        ld.authors
        or split_authors(_first(metas, _AUTHOR_KEYS))
        or next((names for text in head.author_names if (names := split_authors(_clean(text)))), ())
    )
    language = (
        _clean(head.language)
        or ld.language
        or _clean(metas.get("content-language"))
        or _clean(metas.get("og:locale"))
    )
    published_time = next((t for raw in head.published_times if (t := _clean(raw))), None)
    return PageMeta(
        html_title=_clean(head.title),
        og_title=_clean(metas.get("og:title")) or _clean(metas.get("twitter:title")),
        headline=ld.headline,
        canonical_url=canonical,
        og_url=_absolute(og_url, url) if og_url and og_url.strip() else None,
        date_published=ld.date_published or _first(metas, _PUBLISHED_KEYS) or published_time,
        date_modified=ld.date_modified or _first(metas, _MODIFIED_KEYS),
        authors=authors,
        language=language.replace("_", "-") if language else None,
        site_name=_clean(metas.get("og:site_name")),
    )


def _meta_values(metas: list[dict[str, str | None]]) -> dict[str, str]:
    """``<meta>`` contents by lower-cased ``property``/``name``/``itemprop``; first one wins."""
    values: dict[str, str] = {}
    for attributes in metas:
        content = attributes.get("content")
        if content is None:
            continue
        for key in ("property", "name", "itemprop", "http-equiv"):
            name = attributes.get(key)
            if name:
                values.setdefault(name.strip().lower(), content)
    return values


def _first(values: dict[str, str], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = _clean(values.get(key))
        if value:
            return value
    return None


def _clean(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    return normalize_space(html_entities.unescape(value)) or None


def _absolute(href: str, base: str | None) -> str:
    href = href.strip()
    if base is None:
        return href
    try:
        joined = urljoin(base, href)
        urlsplit(joined)  # refuse what cannot be parsed back ("http://[::1")
    except ValueError:
        return href
    return joined


# --- JSON-LD -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _LinkedData:
    headline: str | None = None
    date_published: str | None = None
    date_modified: str | None = None
    authors: tuple[str, ...] = ()
    language: str | None = None


def _json_ld_article(scripts: list[str]) -> _LinkedData:
    """The first article-typed JSON-LD object of the page, or an empty one."""
    fallback: dict[str, object] | None = None
    for script in scripts:
        for item in _objects(_load_json(script)):
            types = item.get("@type")
            names = {t.lower() for t in (types if isinstance(types, list) else [types])
                     if isinstance(t, str)}  # fmt: skip
            if names & ARTICLE_TYPES:
                return _linked_data(item)
            if fallback is None and isinstance(item.get("headline"), str):
                fallback = item
    return _linked_data(fallback) if fallback is not None else _LinkedData()


_LONE_SURROGATE_ESCAPE: Final = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)
# One decoder for every block: json.loads(text, strict=False) builds a new one per call.
_JSON_DECODER: Final = json.JSONDecoder(strict=False)


def _load_json(text: str) -> object:
    if len(text) > JSON_LD_MAX_CHARS:
        return None
    text = text.strip()
    if "<!" in text or "]]>" in text or "-->" in text:  # the wrappers _CDATA removes
        text = _CDATA.sub("", text)
    if "\\ud" in text or "\\uD" in text:  # how every escape of a surrogate begins
        # json.loads turns an unpaired "\ud800" into a lone surrogate, which no UTF-8
        # writer or hash accepts: hostile or broken JSON-LD must not reach the archive so.
        text = _LONE_SURROGATE_ESCAPE.sub(r"\\ufffd", text)
    decoder = _JSON_DECODER
    try:  # a leading BOM fails here as it does in json.loads
        return decoder.decode(text)
    except (ValueError, RecursionError):
        pass
    try:  # only broken JSON is searched for trailing commas
        return decoder.decode(_TRAILING_COMMA.sub(r"\1", text))
    except (ValueError, RecursionError):
        pass
    # Some CMSs print several objects back to back in one script element.
    found: list[object] = []
    position = 0
    try:
        while position < len(text):
            while position < len(text) and text[position] in " \t\r\n;,":
                position += 1
            if position >= len(text):
                break
            value, position = decoder.raw_decode(text, position)
            found.append(value)
    except (ValueError, RecursionError):
        pass
    return found or None


def _objects(value: object, depth: int = 0) -> Iterator[dict[str, object]]:
    """Every JSON object in ``value`` that has a ``@type``, outer ones first."""
    if depth > JSON_LD_MAX_DEPTH:
        return
    if isinstance(value, list):
        for item in value:
            yield from _objects(item, depth + 1)
    elif isinstance(value, dict):
        if "@type" in value:
            yield value
        for key in ("@graph", "mainEntity", "mainEntityOfPage", "itemListElement"):
            if key in value:
                yield from _objects(value[key], depth + 1)


def _linked_data(item: dict[str, object]) -> _LinkedData:
    language = item.get("inLanguage")
    if isinstance(language, dict):
        language = language.get("name") or language.get("alternateName")
    return _LinkedData(
        headline=_clean(item.get("headline")) or _clean(item.get("name")),
        date_published=_clean(item.get("datePublished")) or _clean(item.get("dateCreated")),
        date_modified=_clean(item.get("dateModified")),
        authors=_ld_authors(item.get("author")),
        language=_clean(language),
    )


def _ld_authors(value: object) -> tuple[str, ...]:
    items = value if isinstance(value, list) else [value]
    names: list[str] = []
    for item in items[:20]:
        name = item.get("name") if isinstance(item, dict) else item
        if isinstance(name, list):
            name = " ".join(n for n in name if isinstance(n, str))
        for part in split_authors(_clean(name)):
            if part not in names:
                names.append(part)
    return tuple(names)


# --- bylines -------------------------------------------------------------------------

_BY_PREFIX: Final = re.compile(r"^(?:by|von|from|written by|text:|autor(?:in)?:)\s+", re.I)
_AUTHOR_SPLIT: Final = re.compile(r"\s*(?:,|;|&|\band\b|\bund\b|\|)\s*", re.I)
AUTHOR_MAX_CHARS: Final = 80  # longer "names" are sentences or bios


def split_authors(text: str | None) -> tuple[str, ...]:
    """Names in a byline ("By Ana Ruiz and Li Wei" → two names); URLs are not names."""
    if not text or text.startswith(("http://", "https://")):
        return ()
    text = _BY_PREFIX.sub("", text.strip())
    names = []
    for part in _AUTHOR_SPLIT.split(text):
        part = part.strip(" .:")
        if part and len(part) <= AUTHOR_MAX_CHARS and part not in names:
            names.append(part)
    return tuple(names[:20])
