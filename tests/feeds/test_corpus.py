"""The shared real-world corpus through parse_feed (skipped when the corpus is absent).

Read by path only, never copied: ``../shared/corpus/feeds`` beside the project. Figures
(entries, problems, speed) are printed by ``bench/feed_parse.py``.
"""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from quietedit.errors import FeedParseError
from quietedit.feeds.parse import parse_feed

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "feeds"
pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus at {CORPUS}")
FETCHED = datetime(2026, 11, 30, tzinfo=UTC)

# feedjira's fixtures of a single entry's HTML content: fragments, not feeds.
FRAGMENTS = {
    "feedjira--AmazonWebServicesBlogFirstEntryContent.xml",
    "feedjira--HREFConsideredHarmfulFirstEntry.xml",
    "feedjira--PaulDixExplainsNothingFirstEntryContent.xml",
    "feedjira--TechCrunchFirstEntry.xml",
    "feedjira--TechCrunchFirstEntryDescription.xml",
    "feedjira--TenderLovemakingFirstEntry.xml",
}


def real_feeds() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in (CORPUS / "real").iterdir() if p.is_file() and p.name != "index.json")


def test_every_real_feed_parses_with_entries_and_only_fragments_fail() -> None:
    failed = set()
    for path in real_feeds():
        try:
            feed = parse_feed(
                path.read_bytes(), url=f"https://feeds.example/{path.name}", fetched_at=FETCHED
            )
        except FeedParseError:
            failed.add(path.name)
            continue
        assert feed.entries, path.name
        assert all(e.id and (e.title or e.summary) for e in feed.entries), path.name
    assert failed == FRAGMENTS


def _text(value: str | None) -> str:
    """Another parser's title as a reader sees it: tags dropped, entities decoded."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", value or ""))).strip()


def test_entries_agree_with_rss_parser_on_titles_links_and_dates() -> None:
    expected_dir = CORPUS / "real" / "expected"
    checked = 0
    for expected_path in sorted(expected_dir.iterdir()):
        [source] = [p for p in real_feeds() if p.stem == expected_path.stem]
        raw = expected_path.read_bytes()
        feed = parse_feed(source.read_bytes(), url="https://feeds.example/feed")
        items = json.loads(raw.decode("utf-8", errors="replace"))["feed"]["items"]
        assert len(feed.entries) == len(items), source.name
        for entry, item in zip(feed.entries, items, strict=True):
            assert entry.link == item.get("link"), source.name
            if "\ufffd" not in raw.decode("utf-8", errors="replace"):  # rss-parser's mojibake
                assert entry.title == _text(item.get("title")), source.name
            if item.get("isoDate"):
                date = entry.published or entry.updated
                assert date is not None and date.value == datetime.fromisoformat(item["isoDate"])
            checked += 1
    assert checked > 300


def feedparser_cases() -> list[tuple[str, str | None]]:
    if not CORPUS.is_dir():
        return []
    cases = json.loads((CORPUS / "feedparser-tests" / "index.json").read_text(encoding="utf-8"))
    found = []
    for name, case in sorted(cases["cases"].items()):
        content_type = None
        for header in case.get("headers", []):
            key, _, value = header.partition(":")
            if key.strip().lower() == "content-type":
                content_type = value.strip()
        found.append((name, content_type))
    return found


def test_feedparsers_own_test_feeds_never_raise_anything_but_a_feed_parse_error() -> None:
    errors = []
    parsed = 0
    for name, content_type in feedparser_cases():
        body = (CORPUS / "feedparser-tests" / name).read_bytes()
        try:
            parse_feed(
                body, url="http://example.com/feed", content_type=content_type, fetched_at=FETCHED
            )
        except FeedParseError:
            errors.append(name)
        else:
            parsed += 1
    assert parsed > 2000
    assert errors == ["illformed/rss_empty_document.xml"]
