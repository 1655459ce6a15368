"""An archive of two newsrooms' edits over two months, written through the Archive API.

Each story is edited the way newsrooms edit, with the publisher's metadata as their pages
carry it: a figure corrected 35 minutes after publication with a correction note, a
headline rewritten twice without a word (in November, and in December with the stadium's
capacity changed and a paragraph added), a quote
softened silently, a headline sharpened with ``dateModified`` bumped, a paragraph cut and
another added, an article taken down. Feed records list the entries as polls record them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.decide.departed import day_of, index_to_record, remember
from quietedit.feeds.edits import EntrySnapshot
from quietedit.ingest.feedrecords import save_departed
from quietedit.model import JSON, Article, Block, Publisher
from quietedit.revisions import EvidenceRef, Observation


@dataclass(frozen=True)
class Version:
    at: datetime
    title: str
    paragraphs: tuple[str, ...]
    publisher: Publisher


@dataclass(frozen=True)
class Story:
    url: str
    feed: str
    versions: tuple[Version, ...]


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


FERRY = (
    "The island ferry service will run a reduced timetable from Monday after one of its "
    "two vessels failed an inspection, the operator said on Tuesday.",
    "Repairs to the Marrowby Star are expected to cost 1.2 million pounds and take six weeks.",
    "Passengers with bookings will be moved to the remaining sailings free of charge.",
)
FERRY_PUBLISHED = "2026-11-24T08:00:00+00:00"

STADIUM = (
    "Plans for a new 20,000-seat stadium on the old gasworks site were approved by the "
    "planning committee late on Wednesday.",
    "The club says construction will begin next summer.",
    "Neighbours raised concerns about traffic on match days.",
)

TAXES = (
    "The finance minister ruled out tax rises in an interview on Friday.",
    "“We will not raise taxes this year,” she said, adding that the budget was balanced.",
    "Economists said the forecast relied on optimistic growth figures.",
)

FLOODS = (
    "Heavy rain flooded parts of the old town overnight, closing three roads.",
    "Emergency services rescued two drivers whose cars were trapped by rising water.",
)

COURIER = "https://news.example.org"
DAILY = "https://www.example.net"

STORIES = (
    Story(
        f"{COURIER}/uk/2026/11/24/ferry-timetable-cut",
        "courier-uk",
        (
            Version(
                at("2026-11-24T08:10:00"),
                "Ferry timetable cut after vessel fails inspection",
                FERRY,
                Publisher(date_published=FERRY_PUBLISHED, date_modified=FERRY_PUBLISHED),
            ),
            Version(
                at("2026-11-24T08:35:00"),
                "Ferry timetable cut after vessel fails inspection",
                (FERRY[0], FERRY[1].replace("1.2 million", "2.1 million"), FERRY[2]),
                Publisher(
                    date_published=FERRY_PUBLISHED,
                    date_modified="2026-11-24T08:30:00+00:00",
                    notes=(
                        "Correction: an earlier version of this article gave the cost of "
                        "the repairs as 1.2 million pounds.",
                    ),
                ),
            ),
        ),
    ),
    Story(
        f"{COURIER}/sport/2026/11/26/stadium-plans",
        "courier-uk",
        (
            Version(
                at("2026-11-26T22:00:00"),
                "Stadium plans approved",
                STADIUM,
                Publisher(date_published="2026-11-26T21:40:00Z"),
            ),
            Version(
                at("2026-11-27T09:00:00"),
                "Stadium plans approved despite traffic fears",
                STADIUM,
                Publisher(date_published="2026-11-26T21:40:00Z"),
            ),
            Version(
                at("2026-12-01T10:00:00"),
                "Gasworks stadium approved despite traffic fears",
                (
                    STADIUM[0].replace("20,000-seat", "25,000-seat"),
                    *STADIUM[1:],
                    "A public meeting on parking will be held in January.",
                ),
                Publisher(date_published="2026-11-26T21:40:00Z"),
            ),
        ),
    ),
    Story(
        f"{DAILY}/politics/minister-interview",
        "daily-politics",
        (
            Version(
                at("2026-11-27T19:10:00"),
                "Minister: 'We will not raise taxes'",
                TAXES,
                Publisher(date_published="2026-11-27T20:00:00+01:00"),
            ),
            Version(
                at("2026-11-28T07:00:00"),
                "Minister: 'We will not raise taxes'",
                (
                    TAXES[0],
                    "“We do not plan to raise taxes this year,” she said, adding that the "
                    "budget was balanced.",
                ),
                Publisher(date_published="2026-11-27T20:00:00+01:00"),
            ),
        ),
    ),
    Story(
        f"{DAILY}/local/old-town-floods",
        "daily-politics",
        (
            Version(
                at("2026-12-02T06:00:00"),
                "Floods close roads in the old town",
                FLOODS,
                Publisher(date_published="2026-12-02T05:30:00Z"),
            ),
            Version(
                at("2026-12-02T09:00:00"),
                "Floods close roads across the old town",
                (*FLOODS, "The council has opened a rest centre at the town hall."),
                Publisher(
                    date_published="2026-12-02T05:30:00Z",
                    date_modified="2026-12-02T08:50:00Z",
                ),
            ),
        ),
    ),
    Story(
        f"{DAILY}/local/bakery-closes",
        "daily-politics",
        (
            Version(
                at("2026-12-01T12:00:00"),
                "Bakery on Quay Street closes after 90 years",
                (
                    "The family bakery on Quay Street will close on Saturday after 90 years.",
                    "The owners said rising energy costs had made the ovens unaffordable.",
                ),
                Publisher(date_published="2026-12-01T11:00:00Z"),
            ),
        ),
    ),
)


def write_archive(root: Path) -> dict[str, str]:
    """Write :data:`STORIES` into an archive at ``root``; returns url → document id."""
    archive = Archive(root)
    ids: dict[str, str] = {}
    for story in STORIES:
        doc = document_id(story.url)
        ids[story.url] = doc
        first = story.versions[0].at - timedelta(minutes=5)
        archive.write_document(
            doc,
            {
                "url": story.url,
                "discovered_at": first.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "feeds": [story.feed],
                "status": "active",
            },
        )
        for n, version in enumerate(story.versions, start=1):
            archive.append_revision(
                doc,
                Observation(
                    url=story.url,
                    observed_at=version.at,
                    article=Article(
                        version.title,
                        tuple(Block(p) for p in version.paragraphs),
                        version.publisher,
                    ),
                    extractor="quietedit/0.1.0",
                    evidence=EvidenceRef(
                        f"{version.at:%Y-%m}/quietedit-{version.at:%Y%m%dT%H%M%SZ}.warc.gz",
                        f"urn:uuid:00000000-0000-4000-8000-{n:012d}",
                        "sha256:" + f"{n:064x}",
                    ),
                ),
            )
    bakery = ids[STORIES[4].url]
    archive.append_event(
        bakery, "gone", observed_at=at("2026-12-01T18:00:00"), revision=1, detail={"status": 410}
    )
    for slug, name, url, host in (
        ("courier-uk", "The Example Courier — UK", f"{COURIER}/uk/rss.xml", COURIER),
        ("daily-politics", "Example Net Daily — Politics", f"{DAILY}/politics.atom", DAILY),
    ):
        entries: dict[str, JSON] = {}
        for story in STORIES:
            if story.feed == slug:
                entries[story.url] = {
                    "id": story.url,
                    "link": story.url,
                    "observed_at": story.versions[-1].at.strftime("%Y-%m-%dT%H:%M:%SZ"),
                    "published": story.versions[0].publisher.date_published,
                    "schema": 1,
                    "summary": story.versions[-1].paragraphs[0],
                    "title": story.versions[-1].title,
                    "updated": None,
                }
        entries[f"{host}/not-archived"] = {
            "id": f"{host}/not-archived",
            "link": f"{host}/not-archived",
            "observed_at": "2026-12-02T09:00:00Z",
            "published": None,
            "schema": 1,
            "summary": "",
            "title": "An entry whose article was never fetched",
            "updated": None,
        }
        record: dict[str, JSON] = {"name": name, "url": url, "kind": "rss", "active": True}
        if slug == "courier-uk":  # its entry left the feed: in the feed's day file, as ingest
            left = EntrySnapshot.from_record(entries.pop(f"{host}/not-archived"))  # type: ignore[arg-type]
            now = at("2026-12-02T10:00:00")
            save_departed(archive, slug, day_of(now), {left.id: left}, now=now)
            record["departed"] = index_to_record(remember({}, [left], now=now))
        archive.write_feed(slug, {**record, "entries": entries})
    return ids


FEEDS_YAML = f"""\
feeds:
  - url: {COURIER}/uk/rss.xml
    name: The Example Courier (UK)
    slug: courier-uk
  - url: {DAILY}/politics.atom
    name: Example Net Daily — Politics
    slug: daily-politics
"""


@pytest.fixture(scope="session")
def feeds_yaml(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("export-config") / "feeds.yaml"
    path.write_text(FEEDS_YAML, "utf-8")
    return path


@pytest.fixture(scope="session")
def archive_ids(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("export-archive") / "data"
    return root, write_archive(root)
