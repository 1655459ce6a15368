"""A small, realistic archive for the site tests, written through the Archive API.

Three newsrooms (two in feeds.yaml, one known only by its host), stories edited the way
newsrooms edit: a corrected figure, a rewritten headline, a paragraph added then moved, a
correction note, an article taken down, and one story whose text is hostile markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.model import Article, Block, Publisher
from quietedit.publish import BuildOptions, build_site
from quietedit.publish.pages import Source
from quietedit.revisions import Observation

T0 = datetime(2026, 11, 28, 7, 30, tzinfo=UTC)
BASE_URL = "https://watch.example.org/quietedit/"

SOURCES = (
    Source(
        "courier-world",
        "The Example Courier \N{EN DASH} World",
        "https://news.example.org/world/rss.xml",
    ),
    Source(
        "daily-politics", "Example Net Daily — Politics", "https://www.example.net/politics.atom"
    ),
)

HOSTILE_TITLE = '<script>alert("title")</script> Mayor "><img src=x onerror=alert(1)> resigns'
HOSTILE_PARAGRAPH = "Read more <a href=\"javascript:alert('p')\">here</a> & <b>now</b>\x0b."


@dataclass(frozen=True)
class Story:
    url: str
    feeds: tuple[str, ...]
    versions: tuple[tuple[str, tuple[str, ...], Publisher], ...]


BRIDGE = (
    "The regional council approved the new bridge over the Elm river on Thursday, at a cost "
    "of 48 million euros.",
    "Construction is expected to start in the spring and last three years, the council said.",
    "Residents of the eastern districts have campaigned for a second crossing since 2011.",
    "Opposition councillors said the cost estimate was unrealistic.",
)

STORIES = (
    Story(
        "https://news.example.org/world/2026/11/28/bridge-approved",
        ("courier-world",),
        (
            (
                "Council approves Elm river bridge",
                BRIDGE,
                Publisher(date_published="2026-11-28T06:00:00Z"),
            ),
            (
                "Council approves Elm river bridge",
                (BRIDGE[0].replace("48 million", "84 million"), *BRIDGE[1:]),
                Publisher(date_published="2026-11-28T06:00:00Z"),
            ),
            (
                "Elm river bridge approved despite cost doubts",
                (
                    BRIDGE[0].replace("48 million", "84 million"),
                    BRIDGE[3],
                    BRIDGE[1],
                    BRIDGE[2],
                    "The council will publish the full budget next week.",
                ),
                Publisher(
                    date_published="2026-11-28T06:00:00Z",
                    date_modified="2026-11-28T15:00:00Z",
                    notes=("Correction: an earlier version gave the cost as 48 million euros.",),
                ),
            ),
        ),
    ),
    Story(
        "https://www.example.net/politics/minister-interview",
        ("daily-politics",),
        (
            (
                "Minister: 'We will not raise taxes'",
                (
                    "The finance minister ruled out tax rises in an interview on Friday.",
                    "“We will not raise taxes this year,” she said.",
                ),
                Publisher(date_published="2026-11-27T20:00:00+01:00"),
            ),
            (
                "Minister: 'We will not raise taxes'",
                (
                    "The finance minister ruled out tax rises in an interview on Friday.",
                    "“We do not plan to raise taxes this year,” she said.",
                ),
                Publisher(date_published="2026-11-27T20:00:00+01:00"),
            ),
        ),
    ),
    Story(
        "https://blog.example.com/2026/11/mayor",
        (),
        (
            ("Mayor resigns", ("The mayor resigned on Saturday.",), Publisher()),
            (HOSTILE_TITLE, ("The mayor resigned on Saturday.", HOSTILE_PARAGRAPH), Publisher()),
        ),
    ),
    Story(
        "https://news.example.org/world/2026/11/28/single-version",
        ("courier-world",),
        (("A story seen once", ("Only one version of this was ever observed.",), Publisher()),),
    ),
)


def write_archive(root: Path, stories: tuple[Story, ...] = STORIES) -> dict[str, str]:
    """Write ``stories`` into an archive at ``root``; returns url → document id."""
    archive = Archive(root)
    ids = {}
    for n, story in enumerate(stories):
        doc = document_id(story.url)
        ids[story.url] = doc
        record: dict[str, object] = {"url": story.url, "first_seen": "2026-11-28T07:00:00Z"}
        if story.feeds:
            record["feeds"] = list(story.feeds)
        archive.write_document(doc, record)  # type: ignore[arg-type]
        for v, (title, paragraphs, publisher) in enumerate(story.versions):
            archive.append_revision(
                doc,
                Observation(
                    url=story.url,
                    observed_at=T0 + timedelta(hours=3 * v, minutes=n),
                    article=Article(title, tuple(Block(p) for p in paragraphs), publisher),
                    extractor="tests/1",
                    evidence=None,
                ),
            )
    bridge = ids[STORIES[0].url]
    archive.append_event(
        bridge, "anomaly", observed_at=T0 + timedelta(hours=4), detail={"reason": "consent wall"}
    )
    mayor = ids[STORIES[2].url]
    archive.append_event(
        mayor, "gone", observed_at=T0 + timedelta(hours=9), revision=2, detail={"status": 410}
    )
    archive.append_event(
        mayor,
        "redirected",
        observed_at=T0 + timedelta(hours=10),
        revision=2,
        detail={"location": "javascript:alert(document.cookie)"},
    )
    archive.write_feed(
        "courier-world", {"polls": 42, "failures": 1, "last_polled": "2026-11-28T16:00:00Z"}
    )
    return ids


@pytest.fixture(scope="session")
def archive_ids(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("archive") / "data"
    return root, write_archive(root)


@pytest.fixture(scope="session")
def built_site(
    tmp_path_factory: pytest.TempPathFactory, archive_ids: tuple[Path, dict[str, str]]
) -> Path:
    """The fixture archive built once (with search when Pagefind is installed)."""
    out = tmp_path_factory.mktemp("site") / "site"
    report = build_site(
        BuildOptions(data=archive_ids[0], out=out, base_url=BASE_URL, sources=SOURCES)
    )
    assert not report.failures, report.failures
    return out
