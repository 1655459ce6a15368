"""JSON Feed 1.0 and 1.1 (https://jsonfeed.org) into the common entry shape (pure).

feedparser 6 does not read JSON Feed, so this module does. Every value is type-checked:
a field of the wrong type is ignored and recorded, never trusted. Per the spec, titles
and ``summary``/``content_text`` are plain text and ``content_html`` is markup; an item
without authors inherits the feed's (1.1); relative URLs resolve against the feed's URL.
"""

from __future__ import annotations

import codecs
import json
from datetime import datetime
from typing import Any, Final

from quietedit.errors import FeedParseError
from quietedit.feeds.entries import Feed, RawEntry, RawFeed, assemble_feed

_VERSIONS: Final = {
    "https://jsonfeed.org/version/1": "jsonfeed10",
    "https://jsonfeed.org/version/1.1": "jsonfeed11",
}
_UTF_BOMS: Final = (
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
)


def read_json_feed(
    body: bytes,
    *,
    url: str,
    fetched_at: datetime | None,
    max_entries: int,
    problems: list[str],
) -> Feed:
    """Parse a JSON Feed body; ``problems`` already holds the caller's notes and grows.

    Raises :class:`~quietedit.errors.FeedParseError` when the body is not JSON, or is JSON
    but has no ``items`` list.
    """
    document = _load(body, url=url, problems=problems)
    if not isinstance(document, dict) or not isinstance(document.get("items"), list):
        raise FeedParseError(url, 'JSON, but not a JSON Feed: there is no "items" list')
    version = _text(document, "version", where="feed", problems=problems) or ""
    dialect = _VERSIONS.get(version.replace("http://", "https://", 1).rstrip("/"))
    if dialect is None:
        shown = repr(version[:60]) if version else "no version"
        problems.append(f"JSON Feed with {shown}; read as version 1.1")
        dialect = "jsonfeed"
    feed_authors = _authors(document, where="feed", problems=problems)
    raw = RawFeed(
        kind="jsonfeed",
        dialect=dialect,
        title=_text(document, "title", where="feed", problems=problems) or "",
        link=_text(document, "home_page_url", where="feed", problems=problems),
    )
    items: list[Any] = document["items"]
    if len(items) > max_entries:
        problems.append(
            f"{len(items)} entries; only the first {max_entries} are read "
            "(raise max_entries if the feed is genuine)"
        )
    for index, item in enumerate(items[:max_entries]):
        if not isinstance(item, dict):
            problems.append(f"entry {index + 1}: an item is {_json_type(item)}, not an object")
            continue
        raw.entries.append(_item(item, index=index, feed_authors=feed_authors, problems=problems))
    return assemble_feed(
        raw, url=url, fetched_at=fetched_at, max_entries=max_entries, problems=problems
    )


def _load(body: bytes, *, url: str, problems: list[str]) -> Any:
    encoding = next((name for mark, name in _UTF_BOMS if body.startswith(mark)), "utf-8")
    if encoding != "utf-8":
        problems.append(f"JSON in {encoding}; JSON Feed must be UTF-8")
    try:
        text = body.decode(encoding).removeprefix("\ufeff")
    except UnicodeDecodeError:
        problems.append("bytes are not valid UTF-8; undecodable bytes replaced")
        text = body.decode(encoding, errors="replace").removeprefix("\ufeff")
    try:
        return json.loads(text)
    except RecursionError as exc:
        raise FeedParseError(url, "JSON nested too deeply to be a feed") from exc
    except ValueError as exc:
        raise FeedParseError(url, f"not valid JSON: {str(exc)[:200]}") from exc


def _item(
    item: dict[str, Any], *, index: int, feed_authors: list[str], problems: list[str]
) -> RawEntry:
    where = f"entry {index + 1}"
    identifier = item.get("id")
    if isinstance(identifier, int | float) and not isinstance(identifier, bool):
        identifier = str(identifier)  # JSON Feed 1.0 feeds often use numbers
    elif identifier is not None and not isinstance(identifier, str):
        problems.append(f"{where}: 'id' is {_json_type(identifier)}, not text; ignored")
        identifier = None
    summary = _text(item, "summary", where=where, problems=problems)
    summary_html = False
    if not summary:
        summary = _text(item, "content_text", where=where, problems=problems)
    if not summary:
        summary = _text(item, "content_html", where=where, problems=problems)
        summary_html = True
    tags = item.get("tags")
    categories: list[str] = []
    if isinstance(tags, list):
        categories = [tag for tag in tags if isinstance(tag, str)]
    elif tags is not None:
        problems.append(f"{where}: 'tags' is {_json_type(tags)}, not a list; ignored")
    return RawEntry(
        id=identifier,
        link=_text(item, "url", where=where, problems=problems),
        title=_text(item, "title", where=where, problems=problems) or "",
        summary=summary or "",
        summary_html=summary_html,
        published=_text(item, "date_published", where=where, problems=problems),
        updated=_text(item, "date_modified", where=where, problems=problems),
        authors=_authors(item, where=where, problems=problems) or list(feed_authors),
        categories=categories,
    )


def _authors(source: dict[str, Any], *, where: str, problems: list[str]) -> list[str]:
    """Names from 1.1's ``authors`` list or 1.0's ``author`` object."""
    value = source.get("authors")
    people = value if isinstance(value, list) else [source.get("author")]
    if value is not None and not isinstance(value, list):
        problems.append(f"{where}: 'authors' is {_json_type(value)}, not a list; ignored")
    return [
        person["name"]
        for person in people
        if isinstance(person, dict) and isinstance(person.get("name"), str)
    ]


def _text(source: dict[str, Any], key: str, *, where: str, problems: list[str]) -> str | None:
    value = source.get(key)
    if value is None or isinstance(value, str):
        return value
    problems.append(f"{where}: {key!r} is {_json_type(value)}, not text; ignored")
    return None


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "text", bool: "a boolean"}
    return names.get(type(value), "null" if value is None else "a number")
