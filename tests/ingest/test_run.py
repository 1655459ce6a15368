"""End to end: a newsroom on loopback, ingested over several simulated rounds."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from quietedit.archive.lock import RunLock
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article.identity import canonical_url, document_id
from quietedit.cli import cli
from quietedit.config import load_config
from quietedit.decide.memory import document_from_record
from quietedit.decide.partitions import still_observed
from quietedit.errors import ArchiveLockedError
from quietedit.ingest.listfiles import read_list
from quietedit.ingest.run import run_ingest
from quietedit.model import Article, Block

T0 = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)

BUDGET = [
    "The city council approved a budget of {amount} million euros on Monday night, after "
    "a debate about bus lines and school repairs that ran well past midnight.",
    "Council leader Maria Okafor said the vote was a fair compromise between the northern "
    "and the southern districts, which had argued for weeks.",
    "Opposition members had asked for more money for the northern bus lines and said they "
    "would raise the question again in the spring.",
]
FERRY = [
    "Ferry services between the harbour and the islands were suspended on Monday after "
    "gusts of up to 110 kilometres an hour were recorded along the coast.",
    "The operator said the first crossings would resume on Tuesday morning if the wind "
    "dropped as forecast, and advised travellers to check the timetable.",
]
TRAIN_A = [
    "Rail services will run a reduced timetable over the holidays while engineers replace "
    "a bridge on the main line north of the city.",
    "Replacement buses will connect the two closest stations every twenty minutes during "
    "the works, the rail company said in a statement.",
]
TRAIN_B = [
    "Rail passengers face weeks of disruption over the holidays as engineers replace an "
    "ageing bridge on the main line north of the city.",
    *TRAIN_A[1:],
]
SCHOOL = [
    "The regional government will close two village schools at the end of the school year "
    "and move their pupils to a new building in the town centre.",
    "Parents said they had not been consulted and announced a protest outside the "
    "ministry for next week.",
]
POOL = [
    "The city's indoor swimming pool will stay closed until March while the roof is "
    "repaired, the sports department said on Monday.",
    "Swimming clubs will train at the university pool in the meantime.",
]


def page(title: str, paragraphs: list[str], *, round_: int) -> str:
    """An article page with the furniture real news sites wrap around the text."""
    related = "".join(
        f'<li><a href="/news/related-{round_}-{i}">Most read story {round_ * 10 + i}</a></li>'
        for i in range(5)
    )
    body = "".join(f"<p>{text}</p>" for text in paragraphs)
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{title} | The Example Courier</title>"
        f'<script>window.adSlot="{round_:08x}deadbeef{round_:04d}";</script></head><body>'
        "<header><nav><a href='/'>Home</a> <a href='/news'>News</a> <a href='/sport'>Sport"
        "</a></nav></header>"
        f"<main><article><h1>{title}</h1><p class='byline'>By Ana Ruiz</p>{body}</article>"
        f"<aside class='related'><h2>Most read</h2><ul>{related}</ul></aside></main>"
        "<footer><p>© The Example Courier. All rights reserved.</p></footer></body></html>"
    )


class Newsroom:
    """The site: what each URL serves in the current round."""

    def __init__(self, server: HTTPServer) -> None:
        self.server = server
        self.round = 1
        self.broken = False  # the ferry story's server fails
        self.listed: set[str] | None = None  # the paths the feed lists (None: all)
        self.slow: set[str] = set()  # paths that answer only once `release` is set
        self.release = threading.Event()
        self.release.set()
        self.routes: dict[str, Callable[[int], Response]] = {}
        server.expect_request("/robots.txt").respond_with_data(
            "User-agent: *\nDisallow: /private/\n", content_type="text/plain"
        )
        server.expect_request("/feed.xml").respond_with_handler(self.feed)
        for path in (
            "/news/budget",
            "/news/ferry",
            "/news/trains",
            "/news/schools",
            "/news/pool",
            "/private/memo",
            "/news/pool-reopens",
        ):
            server.expect_request(path).respond_with_handler(self.handler(path))

    def url(self, path: str) -> str:
        return self.server.url_for(path)

    def handler(self, path: str) -> Callable[[Request], Response]:
        def respond(request: Request) -> Response:
            if path in self.slow:
                self.release.wait(timeout=10)
            return self.serve(path)

        return respond

    def serve(self, path: str) -> Response:
        r = self.round
        html = "text/html; charset=utf-8"
        if path == "/news/budget":
            text = [BUDGET[0].format(amount="4.2" if r == 1 else "4.8"), *BUDGET[1:]]
            return Response(page("Council approves budget", text, round_=r), content_type=html)
        if path == "/news/ferry":  # only the furniture changes
            if self.broken:
                return Response("Service unavailable", status=503)
            return Response(page("Storm stops ferries", FERRY, round_=r), content_type=html)
        if path == "/news/trains":  # A, B, A: a flip-flop
            text = TRAIN_B if r == 2 else TRAIN_A
            return Response(page("Holiday rail works", text, round_=r), content_type=html)
        if path == "/news/schools":  # taken down in round 2
            if r >= 2:
                return Response("Not found", status=404)
            return Response(
                page("Two village schools to close", SCHOOL, round_=r), content_type=html
            )
        if path == "/news/pool":  # moved to a new address in round 2
            if r >= 2:
                return Response("", status=301, headers={"Location": "/news/pool-reopens"})
            return Response(page("Pool closed until March", POOL, round_=r), content_type=html)
        if path == "/news/pool-reopens":
            return Response(page("Pool closed until March", POOL, round_=r), content_type=html)
        return Response(page("Memo", SCHOOL, round_=r), content_type=html)

    def feed(self, request: Request) -> Response:
        items = "".join(
            f"<item><title>{title}</title><link>{self.url(path)}</link>"
            f"<guid>{self.url(path)}</guid><pubDate>Mon, 30 Nov 2026 05:00:00 GMT</pubDate>"
            f"<description>{title}.</description></item>"
            for path, title in (
                (
                    "/news/budget",
                    "Council approves budget"
                    if self.round < 3
                    else "Council approves larger budget",
                ),
                ("/news/ferry", "Storm stops ferries"),
                ("/news/trains", "Holiday rail works"),
                ("/news/schools", "Two village schools to close"),
                ("/news/pool", "Pool closed until March"),
                ("/private/memo", "Memo"),
            )
            if self.listed is None or path in self.listed
        )
        body = (
            '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>'
            f"<title>The Example Courier</title><link>{self.url('/')}</link>"
            f"<description>News</description>{items}</channel></rss>"
        )
        return Response(body, content_type="application/rss+xml")


@pytest.fixture
def newsroom() -> Iterator[Newsroom]:
    """The newsroom on its own threaded server: a slow answer holds up only itself."""
    server = HTTPServer(threaded=True)
    server.start()
    yield Newsroom(server)
    server.clear()
    server.stop()


@pytest.fixture
def config_file(tmp_path: Path, newsroom: Newsroom) -> Path:
    path = tmp_path / "feeds.yaml"
    path.write_text(
        "feeds:\n"
        f"  - url: {newsroom.url('/feed.xml')}\n"
        "    name: The Example Courier\n"
        "settings:\n"
        "  allow_private_addresses: true\n"
        "  politeness:\n"
        "    min_host_interval: 0s\n"
        "  fetch:\n"
        "    retries: 0\n",
        encoding="utf-8",
    )
    return path


def doc_of(newsroom: Newsroom, path: str) -> str:
    return document_id(canonical_url(newsroom.url(path)))


def test_three_rounds_of_a_newsroom_archive_exactly_what_happened(
    newsroom: Newsroom, config_file: Path, tmp_path: Path
) -> None:
    config = load_config(config_file, environ={})
    archive = Archive(tmp_path / "data")
    reports = []
    for round_ in (1, 2, 3):
        newsroom.round = round_
        now = T0 + timedelta(hours=round_ - 1)
        reports.append(run_ingest(config, archive, now=now, simulated=True))
        assert verify_archive(archive.root).problems == ()

    budget, ferry, trains, schools, pool, memo = (
        doc_of(newsroom, p)
        for p in (
            "/news/budget",
            "/news/ferry",
            "/news/trains",
            "/news/schools",
            "/news/pool",
            "/private/memo",
        )
    )
    # the edited number: two revisions, the second with the new figure
    revisions = archive.revisions(budget)
    assert [r.number for r in revisions] == [1, 2]
    assert "4.2 million" in revisions[0].article.blocks[0].text
    assert "4.8 million" in revisions[1].article.blocks[0].text
    assert revisions[1].observation.observed_at == T0 + timedelta(hours=1)
    assert revisions[0].observation.evidence is not None
    # the headline edited in the feed alone is an event of its own
    assert [e.kind for e in archive.events(budget)] == ["feed-edit"]
    edit = archive.events(budget)[0].detail
    assert edit["after"] == {
        "title": "Council approves larger budget",
        "summary": "Council approves larger budget.",
    }
    # furniture-only churn: one revision, no events
    assert len(archive.revisions(ferry)) == 1
    assert archive.events(ferry) == []
    # A, B, A: two revisions and a flip-flop back to revision 1
    assert len(archive.revisions(trains)) == 2
    flips = archive.events(trains)
    assert [(e.kind, e.revision) for e in flips] == [("flip-flop", 1)]
    # taken down: one gone event, recorded once
    assert len(archive.revisions(schools)) == 1
    assert [(e.kind, e.detail) for e in archive.events(schools)] == [("gone", {"status": 404})]
    # moved to another article's address: a redirected event, the text unchanged
    assert len(archive.revisions(pool)) == 1
    moved = archive.events(pool)
    assert [e.kind for e in moved] == ["redirected"]
    assert moved[0].detail["location"] == newsroom.url("/news/pool-reopens")
    # robots.txt disallows the memo: never fetched, never stored
    assert archive.revisions(memo) == []
    memo_record = archive.read_document(memo)
    assert memo_record is not None
    schedule: Any = memo_record["schedule"]
    assert schedule["failures"] == 3
    assert reports[0].articles["robots"] == 1
    assert reports[0].new_documents == 6
    assert reports[0].articles["new-revision"] == 5
    feed_state = archive.read_feed("the-example-courier")
    assert feed_state is not None
    health: Any = feed_state["health"]
    assert health["polls"] == 3
    ledger = archive.read_state("ledger")
    assert ledger is not None
    assert len(ledger["requests"]) > 15  # type: ignore[arg-type]


def test_a_second_concurrent_run_is_refused(config_file: Path, tmp_path: Path) -> None:
    config = load_config(config_file, environ={})
    archive = Archive(tmp_path / "data")
    with RunLock(archive.root, now=T0), pytest.raises(ArchiveLockedError):
        run_ingest(config, archive, now=T0, simulated=True)


def test_feeds_only_creates_documents_without_fetching_articles(
    newsroom: Newsroom, config_file: Path, tmp_path: Path
) -> None:
    archive = Archive(tmp_path / "data")
    report = run_ingest(
        load_config(config_file, environ={}), archive, now=T0, feeds_only=True, simulated=True
    )
    assert report.new_documents == 6
    assert sum(report.articles.values()) == 0
    assert all(archive.revisions(doc) == [] for doc in archive.document_ids())


def test_ingest_command_prints_a_summary_and_strict_fails_on_failures(
    newsroom: Newsroom, config_file: Path, tmp_path: Path
) -> None:
    args = [
        "ingest",
        "--config",
        str(config_file),
        "--data",
        str(tmp_path / "data"),
        "--now",
        "2026-11-30T06:00:00Z",
    ]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0
    assert "new documents: 6" in result.stdout
    assert "5 new-revision" in result.stdout
    newsroom.round = 2
    later = [*args[:-1], "2026-11-30T07:00:00Z", "--strict"]
    result = CliRunner().invoke(cli, later, catch_exceptions=False)
    assert result.exit_code == 0  # a 404 and a robots refusal are recorded, not failures
    assert "1 gone" in result.stdout
    newsroom.broken = True
    latest = [*args[:-1], "2026-11-30T08:00:00Z", "--strict"]
    result = CliRunner().invoke(cli, latest, catch_exceptions=False)
    assert result.exit_code == 1
    assert "1 failed" in result.stdout
    assert "503" in result.stderr
    bad = CliRunner().invoke(cli, [*args[:-1], "yesterday"])
    assert bad.exit_code == 2
    assert "is not an ISO-8601 time" in bad.stderr


@pytest.mark.slow
def test_a_run_killed_at_any_moment_leaves_a_sound_archive_and_the_next_finishes_the_work(
    newsroom: Newsroom, config_file: Path, tmp_path: Path
) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    newsroom.slow = {"/news/pool"}  # held back: the run is still busy after the others
    rng = random.Random(11)
    interrupted = []  # revisions stored when the kill landed
    # kill points: as documents appear; at the first revision; while the slow article is
    # still loading (four revisions stored); and two at random
    for trial, (revisions_before_kill, delay) in enumerate(
        [(0, 0.0), (1, 0.0), (4, 0.0), (0, rng.uniform(0, 0.3)), (1, rng.uniform(0, 0.3))]
    ):
        data = tmp_path / f"data-{trial}"
        command = [
            sys.executable,
            "-m",
            "quietedit",
            "-q",
            "ingest",
            "--config",
            str(config_file),
            "--data",
            str(data),
            "--now",
            T0.isoformat(),
        ]
        newsroom.release.clear()  # the slow article is held until the kill
        writer = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            stored = list(data.glob("documents/**/revisions/*.json"))
            if (data / "documents").exists() and len(stored) >= revisions_before_kill:
                break
            time.sleep(0.001)
        time.sleep(delay)
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        newsroom.release.set()
        report = verify_archive(data)
        assert report.problems == ()
        interrupted.append(report.revisions)
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        archive = Archive(data)
        for doc in archive.document_ids():
            record = archive.read_document(doc)
            assert record is not None
            expected = 0 if "memo" in str(record["url"]) else 1
            assert len(archive.revisions(doc)) == expected, record["url"]
            assert archive.events(doc) == []
        assert len(archive.document_ids()) == 6
        assert verify_archive(data).problems == ()
    assert 4 in interrupted, f"no kill landed mid-run: {interrupted}"


def test_run_ingests_then_builds_the_site(
    newsroom: Newsroom, config_file: Path, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    args = [
        "run",
        "--config",
        str(config_file),
        "--data",
        str(tmp_path / "data"),
        "--out",
        str(site),
        "--now",
        T0.isoformat(),
    ]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    assert "5 new-revision" in result.stdout
    assert (site / "index.html").is_file()
    assert (site / "feed.xml").is_file()
    budget = doc_of(newsroom, "/news/budget")
    # seen once, not edited yet: in the API's index of the day, without pages of its own
    assert any(budget in p.read_text(encoding="utf-8") for p in site.glob("api/days/*.json"))
    assert not (site / "articles" / budget).exists()


def test_a_damaged_record_or_revision_never_stops_the_run(
    newsroom: Newsroom, config_file: Path, tmp_path: Path
) -> None:
    config = load_config(config_file, environ={})
    archive = Archive(tmp_path / "data")
    run_ingest(config, archive, now=T0, simulated=True)
    ferry, budget = doc_of(newsroom, "/news/ferry"), doc_of(newsroom, "/news/budget")
    archive.document_file(ferry).write_text("<<<<<<< HEAD\n", encoding="utf-8")
    archive.revision_file(budget, 1).write_text('{"broken": ', encoding="utf-8")
    newsroom.round = 2
    report = run_ingest(config, archive, now=T0 + timedelta(hours=1), simulated=True)
    assert any(ferry in error for error in report.errors)
    assert report.articles["failed"] == 1  # the budget story's damaged revision
    budget_record = archive.read_document(budget)
    assert budget_record is not None
    schedule: Any = budget_record["schedule"]
    assert schedule["failures"] == 1
    assert report.articles["unchanged"] >= 1  # the others were checked as usual
    assert archive.read_feed("the-example-courier") is not None


def test_a_run_killed_after_storing_a_revision_is_not_taken_for_a_flip_flop(
    newsroom: Newsroom, config_file: Path, tmp_path: Path
) -> None:
    config = load_config(config_file, environ={})
    archive = Archive(tmp_path / "data")
    run_ingest(config, archive, now=T0, simulated=True)
    budget = doc_of(newsroom, "/news/budget")
    first = archive.revisions(budget)[0]
    edited = Article(
        first.article.title,
        (Block(BUDGET[0].format(amount="4.8")), *first.article.blocks[1:]),
        first.article.publisher,
    )
    # the state a kill leaves between the revision and the document record
    archive.append_revision(
        budget, replace(first.observation, article=edited, observed_at=T0 + timedelta(hours=1))
    )
    newsroom.round = 2
    run_ingest(config, archive, now=T0 + timedelta(hours=1), simulated=True)
    assert len(archive.revisions(budget)) == 2
    assert [e.kind for e in archive.events(budget)] == []


def test_a_page_that_comes_back_after_a_404_is_restored(
    newsroom: Newsroom, config_file: Path, tmp_path: Path
) -> None:
    config = load_config(config_file, environ={})
    archive = Archive(tmp_path / "data")
    schools = doc_of(newsroom, "/news/schools")
    run_ingest(config, archive, now=T0, simulated=True)
    newsroom.round = 2
    run_ingest(config, archive, now=T0 + timedelta(hours=1), simulated=True)
    newsroom.round = 1  # the same text is served again
    run_ingest(config, archive, now=T0 + timedelta(hours=3), simulated=True)
    assert [e.kind for e in archive.events(schools)] == ["gone", "restored"]
    record = archive.read_document(schools)
    assert record is not None
    assert record["status"] == "active"
    assert len(archive.revisions(schools)) == 1


def test_past_the_time_budget_no_check_starts_and_all_carry_over(
    newsroom: Newsroom, config_file: Path, tmp_path: Path
) -> None:
    text = config_file.read_text(encoding="utf-8") + "  run:\n    max_duration: 1ms\n"
    config_file.write_text(text, encoding="utf-8")
    archive = Archive(tmp_path / "data")
    report = run_ingest(load_config(config_file, environ={}), archive, now=T0, simulated=True)
    assert report.new_documents == 6
    assert report.articles == {"deferred": 6}
    assert report.deferred == 6
    assert all(archive.revisions(doc) == [] for doc in archive.document_ids())


def test_pages_read_by_worker_processes_give_a_byte_identical_archive(
    newsroom: Newsroom, config_file: Path, tmp_path: Path
) -> None:
    base = config_file.read_text(encoding="utf-8")
    archives = {}
    for workers in (1, 2):
        config_file.write_text(base + f"  run:\n    workers: {workers}\n", encoding="utf-8")
        config = load_config(config_file, environ={})
        archive = Archive(tmp_path / f"data-{workers}")
        for round_ in (1, 2):
            newsroom.round = round_
            report = run_ingest(
                config, archive, now=T0 + timedelta(hours=round_ - 1), simulated=True
            )
            assert report.articles["new-revision"] >= 1
            # every page the run read went through the workers (none are read after a 404)
            read = sum(report.articles[k] for k in ("new-revision", "unchanged", "flip-flop"))
            assert report.read_in_workers == (read if workers == 2 else 0)
        assert multiprocessing.active_children() == []  # the workers were stopped
        archives[workers] = {
            path.relative_to(archive.root).as_posix(): path.read_bytes()
            for path in sorted(archive.root.rglob("*.json"))
            if "documents" in path.parts or "feeds" in path.parts  # the ledger has real times
        }
    assert archives[1].keys() == archives[2].keys()
    assert any("/revisions/" in name for name in archives[1])
    assert archives[1] == archives[2]


def test_a_run_reads_only_the_partitions_still_observed(
    newsroom: Newsroom, config_file: Path, tmp_path: Path
) -> None:
    config = load_config(config_file, environ={})
    archive = Archive(tmp_path / "data")
    newsroom.round = 1
    run_ingest(config, archive, now=T0, simulated=True)
    saved = read_list(archive, "partitions")
    assert saved is not None
    assert saved["active"] == ["2026/11/29", "2026/11/30"]  # new documents go there: whole
    assert saved["documents"] == {}
    # an article of October, long retired, whose record no run should need to read
    old_url = "https://news.example.org/world/2026/10/01/harbour"
    old = document_id(old_url)
    archive.write_document(old, {"url": old_url, "discovered_at": "2026-10-01T06:00:00Z"})
    archive.document_file(old).write_text("not json", encoding="utf-8")

    newsroom.round = 2
    report = run_ingest(config, archive, now=T0 + timedelta(hours=1), simulated=True)
    assert not [e for e in report.errors if old in e]
    # days later the partition is read in part: the documents still observed, by id
    later = T0 + timedelta(days=9)  # past the unedited stories' window, not the edited's
    run_ingest(config, archive, now=later, simulated=True)
    saved = read_list(archive, "partitions") or {}
    assert saved["active"] == ["2026/11/30", "2026/12/08", "2026/12/09"]
    listed = saved["documents"]
    assert isinstance(listed, dict) and list(listed) == ["2026/11/30"]
    observed = [
        doc
        for doc in archive.document_ids(["2026/11/30"])
        if still_observed(
            document_from_record(doc, archive.read_document(doc) or {}).candidate,
            policy=config.settings.recheck,
            now=later,
        )
    ]
    assert listed["2026/11/30"] == observed
    assert 0 < len(observed) < len(archive.document_ids(["2026/11/30"]))

    # without the list every partition is read, the damaged record with it
    archive.layout.state_file("partitions").unlink()
    report = run_ingest(config, archive, now=T0 + timedelta(hours=2), simulated=True)
    assert [e for e in report.errors if old in e]


def test_documents_a_killed_run_registered_are_checked_by_the_next(
    newsroom: Newsroom, config_file: Path, tmp_path: Path
) -> None:
    config = load_config(config_file, environ={})
    data = tmp_path / "data"
    archive = Archive(data)
    archive.write_state("partitions", {"active": ["2026/10/01"]})  # a day long retired
    newsroom.round = 1
    # a run killed after its feed polls: documents and feed records written (their entries
    # known from then on), the checks and the end-of-run list never reached
    run_ingest(config, archive, now=T0, feeds_only=True, simulated=True)
    registered = Archive(data).document_ids()
    assert registered
    listed = read_list(Archive(data), "partitions") or {}
    assert listed["active"] == ["2026/10/01", "2026/11/29", "2026/11/30"]
    archive.write_state("partitions", {"active": ["2026/10/01"]})  # even with the old list

    run_ingest(config, Archive(data), now=T0 + timedelta(hours=1), simulated=True)

    after = Archive(data)
    states = [document_from_record(doc, after.read_document(doc) or {}) for doc in registered]
    checked = [
        state.id
        for state in states
        if state.candidate.last_checked_at or state.candidate.last_failure_at
    ]
    assert sorted(checked) == sorted(registered)
