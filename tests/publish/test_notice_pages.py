"""The site tells a technical notice (only a date moved) from a proper one (a note), on
the article's page (which holds its edits), the listings and in the feeds."""

from __future__ import annotations

from pathlib import Path

from quietedit.article.identity import document_id
from quietedit.model import Publisher
from quietedit.publish import BuildOptions, build_site
from tests.publish.conftest import BASE_URL, SOURCES, STORIES, Story, write_archive

BODY = (
    "The harbour authority said on Monday that the ferry to the islands would resume in May.",
    "The service was suspended in October after a fire in the engine room.",
)
TECHNICAL = Story(
    "https://news.example.org/world/2026/11/28/ferry-resumes",
    ("courier-world",),
    (
        ("Ferry to resume in May", BODY, Publisher(date_modified="2026-11-28T08:00:00Z")),
        (
            "Ferry to resume in May",
            (BODY[0].replace("Monday", "Tuesday"), BODY[1]),
            Publisher(date_modified="2026-11-28T11:00:00Z"),
        ),
    ),
)
PROPER = Story(
    "https://www.example.net/politics/harbour-budget",
    ("daily-politics",),
    (
        ("Harbour budget approved", BODY, Publisher()),
        (
            "Harbour budget approved",
            (*BODY, "This story has been updated with additional reporting."),
            Publisher(),
        ),
    ),
)


def test_a_technical_and_a_proper_notice_are_told_apart(tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "site"
    write_archive(data, (*STORIES, TECHNICAL, PROPER))
    build_site(BuildOptions(data=data, out=out, base_url=BASE_URL, sources=SOURCES, search=False))
    technical, proper = (document_id(s.url) for s in (TECHNICAL, PROPER))

    # each edit sits in its article page's timeline
    page = (out / f"articles/{technical}/index.html").read_text(encoding="utf-8")
    assert ">technical notice</b>" in page and ">noted</b>" not in page
    assert "Why “technical notice”: the publisher's signals" in page
    page = (out / f"articles/{proper}/index.html").read_text(encoding="utf-8")
    assert ">noted</b>" in page and "technical notice" not in page
    home = (out / "index.html").read_text(encoding="utf-8")
    assert ">technical notice</b>" in home and ">noted</b>" in home

    feed = (out / "feed.xml").read_text(encoding="utf-8")
    assert "a technical notice (only a date or an “Updated” line changed)" in feed
    assert "noted by the publisher (a correction, update or editor&#39;s note)" in feed
    api = (out / f"api/documents/{proper}.json").read_text(encoding="utf-8")
    assert '"notice":"proper"' in api


QUIET = Story(
    "https://news.example.org/world/2026/11/28/ferry-quietly",
    ("courier-world",),
    (
        ("Ferry to resume", BODY, Publisher()),
        ("Ferry to resume", (BODY[0].replace("Monday", "Tuesday"), BODY[1]), Publisher()),
        ("Ferry to resume", (BODY[0].replace("Monday", "Wednesday"), BODY[1]), Publisher()),
    ),
)


def test_signals_the_same_for_every_edit_are_told_once(tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "site"
    write_archive(data, (*STORIES, QUIET))
    build_site(BuildOptions(data=data, out=out, base_url=BASE_URL, sources=SOURCES, search=False))
    page = (out / f"articles/{document_id(QUIET.url)}/index.html").read_text(encoding="utf-8")
    # two silent edits with no signal at all: once on the page, not under each edit
    assert page.count("No dateModified, “Updated” line or note in either revision") == 1
    assert "The publisher's signals, the same for each edit" in page
    assert page.count(">silent edit</b>") == 2 and "Why “silent”" not in page
    # an article with a single edit keeps it under the edit
    single = (out / f"articles/{document_id(STORIES[1].url)}/index.html").read_text("utf-8")
    assert "the same for each edit" not in single and "Why “" in single
