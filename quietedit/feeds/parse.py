"""Feed bodies in, :class:`~quietedit.feeds.entries.Feed` values out (pure: no I/O, no clock).

:func:`parse_feed` reads RSS 0.9x/1.0/2.0, Atom 0.3/1.0, RDF and JSON Feed 1.0/1.1 into
one entry shape. JSON or XML is decided from the body's first character, the content type
breaking ties; a content type that disagrees with the body is recorded, not obeyed.

XML goes through :func:`~quietedit.feeds.xmlprep.prepare_xml` first (decoding, control
characters, DOCTYPE with its DTD and unsafe entities removed) and then to feedparser,
always as a byte *stream*: given a string feedparser fetches URLs itself, and given bytes
it first tries to ``open()`` them as a file name. feedparser's strict path is expat
through ``xml.sax`` with external general entities off; its lenient path (for ill-formed
XML) is sgmllib, which expands only the entities ``prepare_xml`` left (short, internal).
Ill-formed feeds feedparser recovers are accepted with the problem recorded; a body that
is no feed at all raises :class:`~quietedit.errors.FeedParseError`.
"""

from __future__ import annotations

import io
import itertools
import re
from dataclasses import replace
from datetime import datetime
from typing import Any, Final

import feedparser

from quietedit.config.settings import FetchSettings
from quietedit.errors import FeedParseError
from quietedit.feeds.entries import (
    MAX_ENTRIES,
    Feed,
    FeedEntry,
    FeedKind,
    RawEntry,
    RawFeed,
    assemble_feed,
)
from quietedit.feeds.jsonfeed import read_json_feed
from quietedit.feeds.wrapped import wrapped_feed
from quietedit.feeds.xmlprep import PreparedXML, prepare_xml

__all__ = ["MAX_FEED_BYTES", "Feed", "FeedEntry", "parse_feed"]

MAX_FEED_BYTES: Final = FetchSettings().max_bytes
"""Largest body read (the fetcher's default ``fetch.max_bytes``); the biggest real news
feeds are about 1 MiB."""

_HTML_TYPES: Final = frozenset({"text/html", "application/xhtml+xml"})
_JSON_TYPE: Final = re.compile(r"^(application|text)/([\w.+-]+\+)?json$")
_ROOT: Final = re.compile(r"<([A-Za-z_][\w:.-]*)")
_ENTRY_START: Final = re.compile(r"<(?:[\w.-]+:)?(?:item|entry)[\s/>]")
_ENTRY_END: Final = re.compile(r"</(?:[\w.-]+:)?(?:item|entry)\s*>")
_TAG: Final = re.compile(r"<(/?)([A-Za-z_][\w:.-]*)[^>]*?(/?)>")
_SKIPPED: Final = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<[?!][^>]*>", re.DOTALL)
_PERSON_PATTERNS: Final = (
    re.compile(r"\S+@\S+\s*\((?P<name>[^()]+)\)"),
    re.compile(r"(?P<name>[^<>()]+?)\s*<\S+@\S+>"),
    re.compile(r"(?P<name>[^<>()]+?)\s*\(\S+@\S+\)"),
)
_ROOT_KINDS: Final[dict[str, FeedKind]] = {
    "feed": "atom",
    "rss": "rss",
    "rdf": "rdf",
    "channel": "rss",
}


def parse_feed(
    body: bytes,
    *,
    url: str,
    content_type: str | None = None,
    fetched_at: datetime | None = None,
    max_bytes: int = MAX_FEED_BYTES,
    max_entries: int = MAX_ENTRIES,
) -> Feed:
    """Parse one fetched feed body; ``url`` is the feed's address (the base for links).

    ``content_type`` is the HTTP ``Content-Type`` (its ``charset`` counts for XML).
    ``fetched_at`` (aware) is when the body was fetched: entry dates more than an hour
    after it are clamped to it. ``None`` — for a body parsed outside a poll — means
    no clamp. At most ``max_entries`` entries are read (the cut is recorded).

    Raises :class:`~quietedit.errors.FeedParseError` (naming ``url`` and the reason) for
    an empty or oversized body, an HTML page, or anything else no entries can be read
    from. Everything recoverable is repaired and listed in ``Feed.problems`` instead.
    """
    if fetched_at is not None and fetched_at.tzinfo is None:
        raise ValueError(f"fetched_at {fetched_at.isoformat()} has no timezone; pass UTC")
    if len(body) > max_bytes:
        raise FeedParseError(
            url,
            f"body of {len(body)} bytes is over the limit of {max_bytes} bytes; "
            "raise max_bytes if the feed is genuine",
        )
    if not body.strip():
        raise FeedParseError(url, "the body is empty; the server sent no feed")
    mime = (content_type or "").partition(";")[0].strip().lower()
    problems: list[str] = []
    if _sniff(body, mime, problems=problems) == "json":
        return read_json_feed(
            body, url=url, fetched_at=fetched_at, max_entries=max_entries, problems=problems
        )
    prepared = prepare_xml(body, content_type=content_type)
    problems.extend(prepared.problems)
    if _root_name(prepared.text).rpartition(":")[2].lower() == "html":
        wrapped = wrapped_feed(prepared.text)
        if wrapped is not None:
            problems.append(
                f"an {wrapped.kind} feed wrapped in an XHTML page; the feed inside read"
            )
            prepared = replace(prepared, text=wrapped.text, data=wrapped.text.encode("utf-8"))
    prepared = _cut_entries(prepared, max_entries=max_entries, problems=problems)
    raw = _read_xml(prepared, url=url, problems=problems)
    return assemble_feed(
        raw, url=url, fetched_at=fetched_at, max_entries=max_entries, problems=problems
    )


def _sniff(body: bytes, mime: str, *, problems: list[str]) -> str:
    """``json`` or ``xml``: the body's first character decides, else the media type."""
    head = body[:1024].lstrip(b" \t\r\n\xef\xbb\xbf")
    if head[:1] in (b"{", b"["):
        sniffed = "json"
    elif head[:1] == b"<" or head[:2] in (b"\xff\xfe", b"\xfe\xff") or head[:1] == b"\x00":
        sniffed = "xml"
    else:
        sniffed = ""
    declared = "json" if _JSON_TYPE.match(mime) else ("xml" if "xml" in mime else "")
    if mime and sniffed and declared != sniffed:
        problems.append(f"served as {mime!r} but the body is {sniffed.upper()}; read as such")
    return sniffed or declared or "xml"


def _cut_entries(prepared: PreparedXML, *, max_entries: int, problems: list[str]) -> PreparedXML:
    """Drop the entries past ``max_entries`` before feedparser spends time on them.

    feedparser reads about two thousand entries a second, so a 10 MiB feed of tiny
    entries would take half a minute. Entries are siblings, so the elements open at the
    first entry (``rss`` and ``channel``, or ``feed``) are the ones to close after the
    last one kept. A cut that misjudges an odd document only sends it to the lenient parser.
    """
    text = prepared.text
    if len(_ENTRY_START.findall(text)) <= max_entries:
        return prepared
    markup = _SKIPPED.sub("", text)  # comments and CDATA may mention <item> too
    starts = _ENTRY_START.findall(markup)
    first = _ENTRY_START.search(markup)
    ends = list(itertools.islice(_ENTRY_END.finditer(text), max_entries))
    if len(starts) <= max_entries or len(ends) < max_entries or first is None:
        return prepared
    closing = "".join(f"</{name}>" for name in reversed(_open_elements(markup[: first.start()])))
    problems.append(
        f"{len(starts)} entries; only the first {max_entries} are read "
        "(raise max_entries if the feed is genuine)"
    )
    cut = text[: ends[-1].end()] + closing
    return replace(prepared, text=cut, data=cut.encode("utf-8"))


def _open_elements(prefix: str) -> list[str]:
    """The names of the elements still open at the end of ``prefix`` (markup only)."""
    stack: list[str] = []
    for closing, name, empty in _TAG.findall(prefix):
        if closing:
            if name in stack:
                del stack[len(stack) - 1 - stack[::-1].index(name) :]
        elif not empty:
            stack.append(name)
    return stack


def _read_xml(prepared: PreparedXML, *, url: str, problems: list[str]) -> RawFeed:
    """Run feedparser on prepared XML and collect what it found."""
    try:
        result = feedparser.parse(
            io.BytesIO(prepared.data),
            # No content-location: with a base URI feedparser also "resolves" RSS guids and
            # Atom ids ("g-1" becomes https://host/feeds/g-1), so ids would change with the
            # feed's URL. Links are resolved against the feed URL afterwards (safe_link).
            response_headers={"content-type": "application/xml; charset=utf-8"},
            # Both would rewrite markup we reduce to plain text anyway (script and style
            # content included); the sanitizer alone is half of feedparser's time.
            sanitize_html=False,
            resolve_relative_uris=False,
        )
    except Exception as exc:  # sgmllib and feedparser's handlers raise anything on odd input
        raise FeedParseError(url, f"the feed parser failed: {type(exc).__name__}: {exc}") from exc
    version = str(_get(result, "version") or "")
    root = _root_name(prepared.text)
    if _get(result, "bozo"):
        reason = str(_get(result, "bozo_exception") or "unknown error")[:200]
        problems.append(f"not well-formed XML ({reason}); read with the lenient parser")
    kind = _kind(version, root)
    entries = list(_get(result, "entries") or [])
    if kind is None:
        if root.lower() in {"html", "body", "head"} or root.lower().endswith(":html"):
            raise FeedParseError(
                url,
                "this is an HTML page, not a feed; discover_feeds() finds the feeds it links to",
            )
        shown = f"<{root}>" if root else "no XML element"
        raise FeedParseError(url, f"not a feed: the document's root is {shown}, no entries read")
    if version == "cdf":
        problems.append("a Microsoft CDF channel, read as RSS")
    channel = _get(result, "feed") or {}
    title, title_html = _text(channel, "title")
    raw = RawFeed(
        kind=kind,
        dialect=version or kind,
        title=title,
        title_html=title_html,
        link=_str(_get(channel, "link")),
        updated=_str(_get(channel, "updated")) or _str(_get(channel, "published")),
    )
    raw.entries = [_raw_entry(entry) for entry in entries if isinstance(entry, dict)]
    return raw


def _kind(version: str, root: str) -> FeedKind | None:
    if version.startswith("atom"):
        return "atom"
    if version in {"rss090", "rss10"}:
        return "rdf"
    if version.startswith("rss") or version == "cdf":
        return "rss"
    return _ROOT_KINDS.get(root.rpartition(":")[2].lower())


def _raw_entry(entry: dict[str, Any]) -> RawEntry:
    title, title_html = _text(entry, "title")
    summary, summary_html = _text(entry, "summary")
    contents = _get(entry, "content")
    if not isinstance(_get(entry, "summary_detail"), dict) and isinstance(contents, list):
        # feedparser copies a lone <content> into "summary" without saying its type.
        first = contents[0] if contents else None
        if isinstance(first, dict) and _str(_get(first, "value")):
            summary = _str(_get(first, "value")) or ""
            summary_html = _get(first, "type") in _HTML_TYPES
    link = _str(_get(entry, "link"))
    if link is None:
        for candidate in _get(entry, "links") or []:
            if (
                isinstance(candidate, dict)
                and (_get(candidate, "rel") or "alternate") == "alternate"
            ):
                link = _str(_get(candidate, "href"))
                break
    authors = [
        _str(_get(author, "name")) or _str(_get(author, "email")) or ""
        for author in _get(entry, "authors") or []
        if isinstance(author, dict)
    ]
    single = _str(_get(entry, "author"))
    if single and len(authors) <= 1:
        # feedparser's e-mail pattern allows 2-4 letter TLDs only and mangles the name of
        # "desk@paper.online (Jane Roe)"; the raw text is kept, so read it ourselves.
        authors = [_person(single)]
    categories = [
        _str(_get(tag, "term")) or _str(_get(tag, "label")) or ""
        for tag in _get(entry, "tags") or []
        if isinstance(tag, dict)
    ]
    return RawEntry(
        id=_str(_get(entry, "id")),
        link=link,
        title=title,
        title_html=title_html,
        summary=summary,
        summary_html=summary_html,
        published=_str(_get(entry, "published")),
        updated=_str(_get(entry, "updated")),
        authors=authors,
        categories=categories,
    )


def _text(source: dict[str, Any], key: str) -> tuple[str, bool]:
    """A text construct's value and whether it is markup (feedparser's ``*_detail.type``)."""
    detail = _get(source, f"{key}_detail")
    value = _str(_get(source, key)) or ""
    if isinstance(detail, dict):
        return value, _get(detail, "type") in _HTML_TYPES
    return value, False


def _person(text: str) -> str:
    """The name in an RSS author line: ``mail (Name)``, ``Name <mail>``, ``Name (mail)``."""
    for pattern in _PERSON_PATTERNS:
        match = pattern.fullmatch(text.strip())
        if match is not None:
            return match.group("name")
    return text


def _get(source: object, key: str) -> Any:
    """``source[key]`` or None, reading feedparser's dicts as the plain dicts they are.

    ``FeedParserDict.get`` maps legacy key names and warns (``updated`` falls back to
    ``published`` with a DeprecationWarning); the stored keys are what we want.
    """
    return dict.get(source, key) if isinstance(source, dict) else None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _root_name(text: str) -> str:
    """The name of the first element, skipping the prolog's declarations and comments."""
    pos = 0
    while (lt := text.find("<", pos)) != -1:
        if text.startswith("<!--", lt):
            end = text.find("-->", lt + 4)
            if end == -1:
                return ""
            pos = end + 3
            continue
        match = _ROOT.match(text, lt)
        if match is not None:
            return match.group(1)
        pos = lt + 1
    return ""
