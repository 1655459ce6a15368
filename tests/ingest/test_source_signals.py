"""What feeds claimed at each fetch is kept with the revision and reaches the silent verdict."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer

from quietedit.archive.records import (
    check_revision_record,
    claims_changed,
    new_revision,
    revision_from_record,
    revision_to_record,
)
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article.identity import canonical_url, document_id
from quietedit.config import load_config
from quietedit.ingest.run import run_ingest
from quietedit.model import JSON
from quietedit.publish.changes import compare_revisions
from tests.conftest import observation

T0 = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)
LEDE = (
    "The harbour authority will raise ferry fares by {rise} from January, its board decided "
    "on Monday after a two-hour meeting that was closed to the public."
)
REST = (
    "Commuters from the islands, who make up most of the ferries' passengers, said the rise "
    "would cost a family several hundred euros a year.",
    "The authority said fuel and crew costs had grown faster than expected and that the "
    "fares had not changed since the spring of 2023.",
)


class Harbour:
    """A newsroom whose feed stamps ``updated`` on an edited story, or forgets to."""

    def __init__(self, server: HTTPServer) -> None:
        self.server = server
        self.rise = "a fifth"
        self.updated = "2026-11-30T05:30:00Z"
        self.listed = True  # whether the feed still lists the story (else only an older one)
        server.expect_request("/robots.txt").respond_with_data("User-agent: *\nAllow: /\n")
        server.expect_request("/atom.xml").respond_with_handler(lambda _: self.feed())
        server.expect_request("/news/ferry-fares").respond_with_handler(lambda _: self.page())

    def feed(self) -> Any:
        from werkzeug import Response

        link = self.server.url_for("/news/ferry-fares")
        body = (
            "<?xml version='1.0' encoding='utf-8'?><feed xmlns='http://www.w3.org/2005/Atom'>"
            f"<title>Harbour Gazette</title><id>urn:harbour</id><updated>{self.updated}</updated>"
            + (
                f"<entry><id>urn:harbour:ferry-fares</id><title>Ferry fares to rise</title>"
                f"<link href='{link}'/><published>2026-11-30T05:00:00Z</published>"
                f"<updated>{self.updated}</updated><summary>Fares rise in January.</summary>"
                "</entry>"
                if self.listed
                else "<entry><id>urn:harbour:tides</id><title>Tide tables</title>"
                f"<link href='{self.server.url_for('/news/tides')}'/>"
                "<updated>2026-11-30T07:00:00Z</updated><summary>Tides.</summary></entry>"
            )
            + "</feed>"
        )
        return Response(body, content_type="application/atom+xml")

    def page(self) -> Any:
        from werkzeug import Response

        paragraphs = "".join(f"<p>{p}</p>" for p in (LEDE.format(rise=self.rise), *REST))
        html = (
            "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<title>Ferry fares to rise | Harbour Gazette</title></head><body>"
            "<header><nav><a href='/'>Home</a> <a href='/news'>News</a></nav></header>"
            f"<main><article><h1>Ferry fares to rise</h1>{paragraphs}</article></main>"
            "<footer>© Harbour Gazette</footer></body></html>"
        )
        return Response(html, content_type="text/html; charset=utf-8")


@pytest.fixture
def harbour(httpserver: HTTPServer) -> Harbour:
    return Harbour(httpserver)


def ingest_twice(
    harbour: Harbour, tmp_path: Path, *, stamp: bool, leave: bool = False
) -> tuple[Any, Any]:
    config_file = tmp_path / "feeds.yaml"
    config_file.write_text(
        f"feeds:\n  - url: {harbour.server.url_for('/atom.xml')}\n    name: Harbour Gazette\n"
        "settings:\n  allow_private_addresses: true\n  politeness:\n    min_host_interval: 0s\n",
        encoding="utf-8",
    )
    config = load_config(config_file, environ={})
    archive = Archive(tmp_path / "data")
    run_ingest(config, archive, now=T0, simulated=True)
    if leave:  # the story leaves the feed at a poll before its next check
        harbour.listed = False
        run_ingest(config, archive, now=T0 + timedelta(hours=1), simulated=True, feeds_only=True)
    harbour.rise = "a third"
    if stamp:
        harbour.updated = "2026-11-30T08:10:00Z"
    run_ingest(config, archive, now=T0 + timedelta(hours=3), simulated=True)
    assert verify_archive(archive.root).problems == ()
    doc = document_id(canonical_url(harbour.server.url_for("/news/ferry-fares")))
    old, new = archive.revisions(doc)
    return old, new


def test_an_edit_the_feed_stamped_is_not_silent(harbour: Harbour, tmp_path: Path) -> None:
    old, new = ingest_twice(harbour, tmp_path, stamp=True)
    assert old.observation.signals == {
        "feed_updated": {"feed": "harbour-gazette", "value": "2026-11-30T05:30:00Z"}
    }
    assert new.observation.signals == {
        "feed_updated": {"feed": "harbour-gazette", "value": "2026-11-30T08:10:00Z"}
    }
    verdict: Any = compare_revisions(old, new).classification
    assert {"name": "feed-updated", "seen": True, "evidence": "the feed entry's updated date "
            "changed"} in verdict["signals"]  # fmt: skip
    assert verdict["silent"] is False


def test_an_edit_the_feed_did_not_stamp_stays_silent(harbour: Harbour, tmp_path: Path) -> None:
    old, new = ingest_twice(harbour, tmp_path, stamp=False)
    verdict: Any = compare_revisions(old, new).classification
    feed_signal = next(s for s in verdict["signals"] if s["name"] == "feed-updated")
    assert feed_signal["seen"] is False  # checked, and the feed said nothing
    assert verdict["silent"] is True


def test_the_claim_of_an_entry_that_left_the_feed_is_read_from_its_day_file(
    harbour: Harbour, tmp_path: Path
) -> None:
    old, new = ingest_twice(harbour, tmp_path, stamp=False, leave=True)
    assert (
        tmp_path / "data" / "departed" / "2026" / "11" / "30" / "harbour-gazette.json"
    ).is_file()
    assert new.observation.signals == old.observation.signals  # as the feed last listed it
    verdict: Any = compare_revisions(old, new).classification
    assert verdict["silent"] is True


def test_revisions_stored_before_signals_existed_still_read_verify_and_compare() -> None:
    first = new_revision("d", observation(), previous=None)
    edited = observation(
        "The council approved a budget of 4.8 million euros on Monday.", at=T0 + timedelta(hours=1)
    )
    second = new_revision("d", edited, previous=first)
    for revision in (first, second):
        record = revision_to_record(revision)
        assert "signals" not in record  # the same bytes as before the field existed
        assert check_revision_record(record) == []
        assert revision_from_record(record) == revision
    assert claims_changed(first, second) == {
        "feed_updated_changed": None,
        "sitemap_lastmod_changed": None,
    }
    verdict: Any = compare_revisions(first, second).classification
    signals = {s["name"]: s["seen"] for s in verdict["signals"]}
    assert signals["feed-updated"] is None and signals["sitemap-lastmod"] is None


def claim(feed: str, value: str | None) -> dict[str, JSON]:
    return {"feed": feed, "value": value}


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (claim("desk", "2026-11-30T05:30:00Z"), claim("desk", "2026-11-30T08:10:00Z"), True),
        (claim("desk", "2026-11-30T05:30:00Z"), claim("desk", " 2026-11-30T05:30:00Z"), False),
        (claim("desk", None), claim("desk", None), False),  # the feed never gives one
        (claim("desk", None), claim("desk", "2026-11-30T08:10:00Z"), True),  # it appeared
        (claim("desk", "2026-11-30T05:30:00Z"), claim("wire", "2026-11-30T08:10:00Z"), None),
        (None, claim("desk", "2026-11-30T08:10:00Z"), None),  # not listed at the first fetch
    ],
)
def test_a_claim_changed_only_between_two_readings_of_the_same_feed(
    before: dict[str, JSON] | None, after: dict[str, JSON] | None, expected: bool | None
) -> None:
    def revision(value: dict[str, JSON] | None, number: int) -> Any:
        signals: dict[str, JSON] | None = None if value is None else {"feed_updated": value}
        return new_revision(
            "d", replace(observation(f"Text {number}."), signals=signals), previous=None
        )

    found = claims_changed(revision(before, 1), revision(after, 2))
    assert found == {"feed_updated_changed": expected, "sitemap_lastmod_changed": None}


@pytest.mark.parametrize(
    ("signals", "problem"),
    [
        ("yesterday", "signals: 'yesterday' has the wrong type"),
        ({"twitter": claim("x", None)}, "signals.twitter: unknown"),
        ({"feed_updated": {"feed": "desk"}}, "is not {'feed': str, 'value': str or null}"),
        ({"sitemap_lastmod": claim("desk", None) | {"value": 5}}, "str or null"),
    ],
)
def test_malformed_signals_are_reported_by_verify(signals: Any, problem: str) -> None:
    record = revision_to_record(new_revision("d", observation(), previous=None))
    record["signals"] = signals
    assert any(problem in p for p in check_revision_record(record))


def test_the_signals_are_covered_by_the_revision_hash() -> None:
    stamped = replace(observation(), signals={"feed_updated": claim("desk", "2026-11-30T05:30Z")})
    record = revision_to_record(new_revision("d", stamped, previous=None))
    assert check_revision_record(record) == []
    record["signals"] = {"feed_updated": claim("desk", "2026-11-30T09:00Z")}  # rewritten later
    assert any(p.startswith("hash: recorded") for p in check_revision_record(record))
