"""Entries that leave a feed: their snapshots go to the feed's day file once, the record keeps
what the feed carries, and an entry that comes back is still compared with what it was."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from quietedit.archive.since import verify_since
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article.identity import canonical_url, document_id
from quietedit.config import load_config
from quietedit.decide.departed import day_of, key_digest
from quietedit.decide.memory import FeedState, feed_from_record
from quietedit.feeds.edits import EntrySnapshot
from quietedit.ingest.feedrecords import save_departed, with_departed
from quietedit.ingest.run import run_ingest
from tests.conftest import clone_observed, git

T0 = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)
STORIES = {
    "/news/harbour": ("Harbour fees to rise", "The port board voted on Monday."),
    "/news/library": ("Library opens on Sundays", "A trial of six months starts in January."),
    "/news/bridge": ("Bridge closed for repairs", "Drivers face a detour of ten minutes."),
    "/news/market": ("Night market returns", "Forty stalls are expected on Friday."),
}


class Newsroom:
    """A feed whose entries (path -> title, summary) each test sets; no article pages."""

    def __init__(self, server: HTTPServer) -> None:
        self.server = server
        self.listed: dict[str, tuple[str, str]] = {}
        server.expect_request("/robots.txt").respond_with_data("User-agent: *\nAllow: /\n")
        server.expect_request("/feed.xml").respond_with_handler(self.feed)

    def url(self, path: str) -> str:
        return self.server.url_for(path)

    def list(self, *paths: str, **titles: str) -> None:
        self.listed = {
            path: (titles.get(path.rsplit("/", 1)[1], STORIES[path][0]), STORIES[path][1])
            for path in paths
        }

    def feed(self, request: Request) -> Response:
        items = "".join(
            f"<item><title>{title}</title><link>{self.url(path)}</link>"
            f"<guid>{self.url(path)}</guid><pubDate>Mon, 30 Nov 2026 05:00:00 GMT</pubDate>"
            f"<description>{summary}</description></item>"
            for path, (title, summary) in self.listed.items()
        )
        body = (
            '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>'
            f"<title>Harbour Gazette</title><link>{self.url('/')}</link>"
            f"<description>News</description>{items}</channel></rss>"
        )
        return Response(body, content_type="application/rss+xml")


@pytest.fixture
def newsroom() -> Iterator[Newsroom]:
    server = HTTPServer()
    server.start()
    yield Newsroom(server)
    server.clear()
    server.stop()


@pytest.fixture
def config_file(tmp_path: Path, newsroom: Newsroom) -> Path:
    path = tmp_path / "feeds.yaml"
    path.write_text(
        f"feeds:\n  - url: {newsroom.url('/feed.xml')}\n    name: Harbour Gazette\n"
        "settings:\n  allow_private_addresses: true\n  politeness:\n"
        "    min_host_interval: 0s\n  fetch:\n    retries: 0\n",
        encoding="utf-8",
    )
    return path


def poll(config_file: Path, archive: Archive, at: datetime) -> None:
    config = load_config(config_file)
    report = run_ingest(config, archive, now=at, feeds_only=True, simulated=True)
    assert report.errors == []


def day_file(archive: Archive, slug: str, day: str) -> dict[str, Any]:
    return archive.read_departed(slug, day) or {}


def only_feed(archive: Archive) -> tuple[str, dict[str, Any]]:
    [slug] = archive.feed_slugs()
    return slug, archive.read_feed(slug) or {}


def test_an_entry_that_leaves_goes_to_the_day_file_and_comes_back_as_an_edit(
    config_file: Path, newsroom: Newsroom, tmp_path: Path
) -> None:
    archive = Archive(tmp_path / "data")
    newsroom.list("/news/harbour", "/news/library", "/news/bridge")
    poll(config_file, archive, T0)
    newsroom.list("/news/library", "/news/bridge", "/news/market")  # the harbour story left
    poll(config_file, archive, T0 + timedelta(hours=1))

    slug, record = only_feed(archive)
    harbour = newsroom.url("/news/harbour")
    entries = record["entries"]
    assert isinstance(entries, dict)
    assert sorted(entries) == sorted(newsroom.url(p) for p in newsroom.listed)
    assert record["departed"] == {"2026/11/30": key_digest(harbour)}  # id and link are one
    day = day_file(archive, slug, "2026/11/30")
    assert list(day["entries"]) == [harbour]
    assert (archive.root / "departed" / "2026" / "11" / "30" / f"{slug}.json").is_file()

    # three days later the story is back, its headline rewritten
    newsroom.list("/news/harbour", "/news/market", harbour="Harbour fees to double")
    poll(config_file, archive, T0 + timedelta(days=3))
    doc = document_id(canonical_url(harbour))
    [edit] = [e for e in archive.events(doc) if e.kind == "feed-edit"]
    summary = STORIES["/news/harbour"][1]
    assert edit.detail["before"] == {"title": "Harbour fees to rise", "summary": summary}
    assert edit.detail["after"] == {"title": "Harbour fees to double", "summary": summary}
    _, record = only_feed(archive)
    assert harbour in record["entries"]
    departed = record["departed"]
    assert isinstance(departed, dict) and sorted(departed) == ["2026/11/30", "2026/12/03"]
    assert verify_archive(archive.root).problems == ()


def test_a_record_of_an_earlier_version_hands_its_departed_entries_over_at_the_next_poll(
    config_file: Path, newsroom: Newsroom, tmp_path: Path
) -> None:
    archive = Archive(tmp_path / "data")
    newsroom.list("/news/library", "/news/bridge")
    poll(config_file, archive, T0)
    slug, record = only_feed(archive)
    # as an earlier version wrote it: the entries that left the feed among its entries
    harbour = newsroom.url("/news/harbour")
    old: dict[str, Any] = {
        "id": harbour,
        "link": newsroom.url("/news/harbour"),
        "observed_at": "2026-11-29T06:00:00Z",
        "published": None,
        "schema": 1,
        "summary": "The port board voted on Monday.",
        "title": "Harbour fees to rise",
        "updated": None,
    }
    gone = {**old, "id": "urn:old", "link": None, "observed_at": "2026-10-01T06:00:00Z"}
    entries = {**record["entries"], harbour: old, "urn:old": gone}
    legacy = {k: v for k, v in record.items() if k not in ("departed", "schema", "type", "slug")}
    archive.write_feed(slug, {**legacy, "entries": entries})
    assert feed_from_record(slug, archive.read_feed(slug) or {}).departed == {}

    poll(config_file, archive, T0 + timedelta(hours=1))
    _, record = only_feed(archive)
    assert sorted(record["entries"]) == sorted(newsroom.url(p) for p in newsroom.listed)
    day = day_file(archive, slug, "2026/11/30")
    assert list(day["entries"]) == [harbour]  # urn:old is older than 30 days: forgotten
    every: dict[str, Any] = with_departed(archive, slug, record)
    assert every["entries"][harbour] == old
    assert verify_archive(archive.root).problems == ()


def test_a_run_killed_between_the_day_file_and_the_record_leaves_no_double(
    config_file: Path, newsroom: Newsroom, tmp_path: Path
) -> None:
    archive = Archive(tmp_path / "data")
    newsroom.list("/news/harbour", "/news/library")
    poll(config_file, archive, T0)
    slug, before = only_feed(archive)
    later = T0 + timedelta(hours=1)
    state = feed_from_record(slug, before)
    harbour = state.entries[newsroom.url("/news/harbour")]
    # the state a kill leaves after the day file was written, before the record
    save_departed(archive, slug, day_of(later), {harbour.id: harbour}, now=later)
    assert verify_archive(archive.root).problems == ()

    newsroom.list("/news/library")
    poll(config_file, archive, later)
    day = day_file(archive, slug, day_of(later))
    assert day["entries"] == {harbour.id: harbour.to_record()}
    _, record = only_feed(archive)
    assert record["departed"] == {day_of(later): key_digest(harbour.id)}
    assert verify_archive(archive.root).problems == ()


def test_a_damaged_day_file_is_reported_by_verify_and_written_anew(
    config_file: Path, newsroom: Newsroom, tmp_path: Path
) -> None:
    archive = Archive(tmp_path / "data")
    newsroom.list("/news/harbour", "/news/library")
    poll(config_file, archive, T0)
    slug, _ = only_feed(archive)
    path = archive.layout.departed_file(slug, "2026/11/30")
    path.parent.mkdir(parents=True)
    path.write_text('{"entries": [', encoding="utf-8")
    problems = verify_archive(archive.root).problems
    assert [p.path for p in problems] == [str(path)]

    newsroom.list("/news/library")
    poll(config_file, archive, T0 + timedelta(hours=1))
    assert list(json.loads(path.read_text(encoding="utf-8"))["entries"]) == [
        newsroom.url("/news/harbour")
    ]
    assert verify_archive(archive.root).problems == ()


def test_the_claims_about_an_article_whose_entry_left_come_from_its_day_file(
    newsroom: Newsroom,
) -> None:
    from quietedit.decide.departed import remember
    from quietedit.decide.memory import DocumentState, SourceIndex
    from quietedit.decide.recheck import Candidate

    link = newsroom.url("/news/harbour")
    snapshot = EntrySnapshot(link, T0, "Harbour fees", "", link, None, "2026-11-30T05:00:00Z")
    departed = remember({}, [snapshot], now=T0 + timedelta(hours=3))
    feed = FeedState("gazette", "https://gazette.test/feed.xml", "Gazette", departed=departed)
    doc = document_id(canonical_url(link))
    state = DocumentState(
        doc, link, Candidate(doc, "127.0.0.1", discovered_at=T0), links=(link,), feeds=("gazette",)
    )
    assert SourceIndex.days_needed({"gazette": feed}, [state]) == {"gazette": ["2026/11/30"]}
    without = SourceIndex.of({"gazette": feed})
    assert without.claims(state) is None
    read = SourceIndex.of({"gazette": feed}, {"gazette": {link: snapshot}})
    assert read.claims(state) == {
        "feed_updated": {"feed": "gazette", "value": "2026-11-30T05:00:00Z"}
    }


def test_in_the_hourly_clone_an_older_day_folder_is_fetched_when_an_entry_comes_back(
    config_file: Path, newsroom: Newsroom, tmp_path: Path
) -> None:
    work, bare = tmp_path / "work", tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(bare, "config", "uploadpack.allowFilter", "true")
    git(tmp_path, "init", "-q", "-b", "main", str(work))
    archive = Archive(work / "data")
    newsroom.list("/news/harbour", "/news/library")
    poll(config_file, archive, T0)
    newsroom.list("/news/library")
    poll(config_file, archive, T0 + timedelta(hours=1))
    git(work, "add", "-A")
    git(work, "commit", "-qm", "Two polls")
    git(work, "push", "-q", str(bare), "main")

    clone = tmp_path / "clone"
    later = T0 + timedelta(days=5)
    clone_observed(bare, clone, now=later.isoformat())
    folder = clone / "data" / "departed" / "2026" / "11" / "30"
    assert not folder.exists()  # not today's or yesterday's: left out
    before = git(clone, "rev-parse", "HEAD").strip()
    newsroom.list("/news/harbour", "/news/library", harbour="Harbour fees to double")
    poll(config_file, Archive(clone / "data"), later)

    assert folder.is_dir()  # fetched for the entry that came back
    doc = document_id(canonical_url(newsroom.url("/news/harbour")))
    events = Archive(clone / "data").events(doc)
    assert [e.detail["after"] for e in events if e.kind == "feed-edit"] == [
        {"title": "Harbour fees to double", "summary": STORIES["/news/harbour"][1]}
    ]
    assert verify_since(clone / "data", before).problems == ()


@pytest.mark.slow
def test_a_run_killed_while_entries_leave_leaves_a_sound_archive_and_loses_none(
    config_file: Path, newsroom: Newsroom, tmp_path: Path
) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    rng = random.Random(16)
    later = T0 + timedelta(hours=1)
    # kill points: as soon as the day file appears, and at random while the run starts
    for trial, (wait_for_day_file, delay) in enumerate(
        [(True, 0.0), (True, 0.002), (False, rng.uniform(0.2, 0.6)), (False, rng.uniform(0.2, 0.6))]
    ):
        archive = Archive(tmp_path / f"data-{trial}")
        newsroom.list("/news/harbour", "/news/library", "/news/bridge")
        poll(config_file, archive, T0)
        newsroom.list("/news/market")  # three entries leave at once
        command = [
            sys.executable, "-m", "quietedit", "-q", "ingest", "--feeds-only",
            "--config", str(config_file), "--data", str(archive.root), "--now", later.isoformat(),
        ]  # fmt: skip
        writer = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        slug = archive.feed_slugs()[0]
        day = archive.layout.departed_file(slug, day_of(later))
        deadline = time.monotonic() + 20
        while wait_for_day_file and not day.exists() and time.monotonic() < deadline:
            time.sleep(0.0005)
        time.sleep(delay)
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        assert verify_archive(archive.root).problems == ()
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        _, record = only_feed(archive)
        assert list(record["entries"]) == [newsroom.url("/news/market")]
        left = sorted(newsroom.url(p) for p in ("/news/harbour", "/news/library", "/news/bridge"))
        assert sorted(day_file(archive, slug, day_of(later))["entries"]) == left
        assert sorted(record["departed"]) == [day_of(later)]
        assert verify_archive(archive.root).problems == ()
