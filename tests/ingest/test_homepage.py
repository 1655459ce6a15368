"""A front page on loopback, polled hourly: the headline each link shows, first and last
seen; A/B tests and retitles visible; the stories archived like a feed's entries."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article.identity import canonical_url, document_id
from quietedit.config import load_config
from quietedit.decide.homepage import HOMEPAGE_MEMORY, history_from_record, history_rows
from quietedit.ingest.run import IngestReport, run_ingest
from quietedit.model import format_timestamp
from tests.homepage_site import START, Story, article_page, front_page

BRIDGE = Story(
    "/news/2026/11/30/bridge-closed",
    ("Tyne bridge closed as winds reach 90mph", "Storm shuts Tyne bridge for first time in decade"),
    kicker="Storm Ida",
)
BUDGET = Story(
    "/politics/2026/11/30/council-budget",
    ("Council approves budget after late-night debate",),
    retitled=(3, "Council budget passes by a single vote"),
    kicker="Politics",
)
DERBY = Story(
    "/sport/2026/11/30/derby-off", ("Derby postponed after rain floods the pitch",), last_hour=1
)
FOOTAGE = Story("/video/2026/11/30/storm-footage", ("Watch: waves batter the harbour wall",))
STORIES = (BRIDGE, BUDGET, DERBY, FOOTAGE)


class Front:
    """The newsroom: its front page and story pages at the current hour."""

    def __init__(self, server: HTTPServer) -> None:
        self.server = server
        self.hour = 0
        self.robots = "User-agent: *\nDisallow: /account/\n"
        self.blank = False  # the front serves a page without links (a consent wall)
        server.expect_request("/robots.txt").respond_with_handler(
            lambda request: Response(self.robots, content_type="text/plain")
        )
        server.expect_request("/").respond_with_handler(self.front)
        for story in STORIES:
            server.expect_request(story.path).respond_with_handler(self.story(story))

    def url(self, path: str) -> str:
        return self.server.url_for(path)

    def front(self, request: Request) -> Response:
        if self.blank:
            return Response("<html><body><p>Please accept our cookies.</p></body></html>")
        return Response(front_page(STORIES, self.hour), content_type="text/html; charset=utf-8")

    def story(self, story: Story) -> Callable[[Request], Response]:
        def respond(request: Request) -> Response:
            return Response(article_page(story, self.hour), content_type="text/html")

        return respond


@pytest.fixture
def front() -> Iterator[Front]:
    server = HTTPServer()
    server.start()
    yield Front(server)
    server.clear()
    server.stop()


def config(tmp_path: Path, front: Front) -> Path:
    path = tmp_path / "feeds.yaml"
    path.write_text(
        "feeds:\n"
        f"  - url: {front.url('/')}\n"
        "    name: Northern Chronicle front page\n"
        "    slug: chronicle-front\n"
        "    kind: homepage\n"
        "    exclude: [/video/]\n"
        "settings:\n"
        "  allow_private_addresses: true\n"
        "  politeness:\n"
        "    min_host_interval: 0s\n"
        "  fetch:\n"
        "    retries: 0\n",
        encoding="utf-8",
    )
    return path


def poll(front: Front, path: Path, archive: Archive, hours: list[int]) -> list[IngestReport]:
    settings = load_config(path, environ={})
    reports = []
    for hour in hours:
        front.hour = hour
        now = START + timedelta(hours=hour)
        reports.append(run_ingest(settings, archive, now=now, simulated=True))
    return reports


def history(front: Front, archive: Archive) -> dict[str, tuple[bool, list[tuple[str, str, str]]]]:
    record = archive.read_feed("chronicle-front")
    assert record is not None and record["kind"] == "homepage"
    found = history_from_record(record["homepage"])
    assert found is not None
    return {
        url.removeprefix(canonical_url(front.url("/"))): (
            on_page,
            [(text, format_timestamp(first), format_timestamp(last)) for text, first, last in rows],
        )
        for url, on_page, rows in history_rows(found)
    }


def at(hour: int) -> str:
    return format_timestamp(START + timedelta(hours=hour))


def test_every_poll_records_the_headline_shown_for_each_link(front: Front, tmp_path: Path) -> None:
    archive = Archive(tmp_path / "data")
    reports = poll(front, config(tmp_path, front), archive, [0, 1, 2, 3, 4, 5])
    assert all(r.feeds == {"polled": 1} for r in reports)
    found = history(front, archive)
    assert found == {
        # an A/B test: two headlines in turn, each stored once, both still seen
        "news/2026/11/30/bridge-closed": (
            True,
            [
                ("Tyne bridge closed as winds reach 90mph", at(0), at(4)),
                ("Storm shuts Tyne bridge for first time in decade", at(1), at(5)),
            ],
        ),
        # a retitle in hour 3
        "politics/2026/11/30/council-budget": (
            True,
            [
                ("Council approves budget after late-night debate", at(0), at(2)),
                ("Council budget passes by a single vote", at(3), at(5)),
            ],
        ),
        # off the page after hour 1
        "sport/2026/11/30/derby-off": (
            False,
            [("Derby postponed after rain floods the pitch", at(0), at(1))],
        ),
    }  # the video story is excluded in feeds.yaml
    # the stories are archived like a feed's entries, the excluded one not at all
    docs = {document_id(canonical_url(front.url(s.path))) for s in (BRIDGE, BUDGET, DERBY)}
    assert set(archive.document_ids()) == docs
    assert all(archive.revisions(doc) for doc in docs)
    assert verify_archive(archive.root).problems == ()


def test_a_poll_that_changes_nothing_rewrites_no_link(front: Front, tmp_path: Path) -> None:
    archive = Archive(tmp_path / "data")
    path = config(tmp_path, front)
    poll(front, path, archive, [3])
    before = archive.read_feed("chronicle-front")
    poll(front, path, archive, [5])  # the A/B test serves the same variant as in hour 3
    after = archive.read_feed("chronicle-front")
    assert before is not None and after is not None
    old, new = before["homepage"], after["homepage"]
    assert isinstance(old, dict) and isinstance(new, dict)
    assert old["links"] == new["links"]
    assert new["polled_at"] == at(5)


def test_a_link_gone_for_days_becomes_an_event_of_its_article(front: Front, tmp_path: Path) -> None:
    archive = Archive(tmp_path / "data")
    path = config(tmp_path, front)
    poll(front, path, archive, [0, 1, 2])
    later = 2 + int(HOMEPAGE_MEMORY / timedelta(hours=1)) + 1
    poll(front, path, archive, [later])
    assert "sport/2026/11/30/derby-off" not in history(front, archive)
    doc = document_id(canonical_url(front.url(DERBY.path)))
    (event,) = [e for e in archive.events(doc) if e.kind == "homepage-headlines"]
    assert event.detail == {
        "source": "chronicle-front",
        "headlines": [
            {
                "text": "Derby postponed after rain floods the pitch",
                "first_seen": at(0),
                "last_seen": at(1),
            }
        ],
    }
    # closed once: the next poll writes no second event
    poll(front, path, archive, [later + 1])
    assert len([e for e in archive.events(doc) if e.kind == "homepage-headlines"]) == 1


def test_a_page_without_links_or_refused_by_robots_is_a_failed_poll(
    front: Front, tmp_path: Path
) -> None:
    archive = Archive(tmp_path / "data")
    path = config(tmp_path, front)
    poll(front, path, archive, [0])
    before = history(front, archive)
    front.blank = True
    (report,) = poll(front, path, archive, [1])
    assert report.feeds == {"failed": 1}
    assert "no links to articles of this site were found" in report.errors[0]
    front.blank = False
    front.robots = "User-agent: *\nDisallow: /\n"
    (report,) = poll(front, path, archive, [6])  # after the back-off
    assert report.feeds == {"failed": 1} and "robots.txt" in report.errors[0]
    assert history(front, archive) == before


def test_the_ssrf_guard_refuses_a_homepage_on_loopback_by_default(
    front: Front, tmp_path: Path
) -> None:
    path = config(tmp_path, front)
    path.write_text(
        path.read_text(encoding="utf-8").replace("  allow_private_addresses: true\n", ""),
        encoding="utf-8",
    )
    (report,) = poll(front, path, Archive(tmp_path / "data"), [0])
    assert report.feeds == {"failed": 1}
    assert "private" in report.errors[0] or "loopback" in report.errors[0]
    assert front.server.log == []  # nothing was asked of the server
