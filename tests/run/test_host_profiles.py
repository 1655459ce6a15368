"""Host templates in the ingest: furniture churn is no edit, and a template is never one."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article.template import HostProfile
from quietedit.config import load_config
from quietedit.ingest.policy import Candidate
from quietedit.ingest.profiles import (
    PROFILE_SAMPLE,
    judging_profile,
    learn_profiles,
    profile_sample,
    without_furniture,
)
from quietedit.ingest.run import run_ingest
from quietedit.ingest.state import DocumentState, Seen
from quietedit.model import Article, Block

T0 = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)
STORIES = {
    "harbour-dredging": [
        "Dredging of the inner harbour will start in March and last eleven weeks, the port "
        "authority said on Monday, closing two of the four berths used by fishing boats.",
        "Skippers said the timing was the worst possible, in the middle of the spring "
        "season, and asked for the works to be moved to the autumn.",
    ],
    "library-hours": [
        "The central library will open on Sunday afternoons from January, after the council "
        "found the money for two more librarians in next year's budget.",
        "Visitor numbers have grown by a quarter since the reading room was renovated.",
    ],
    "tram-extension": [
        "The tram line to the university will be extended by three stops, the transport "
        "department announced, with construction expected to take two years.",
        "Shops along the route will be compensated for the months of road works.",
    ],
    "school-meals": [
        "Free school meals will be offered to every primary pupil in the district from "
        "September, the education committee decided after a long debate.",
        "Parents' associations welcomed the decision but asked how it would be funded.",
    ],
}


class Herald:
    """A site whose every article carries a promo line with a changing count."""

    def __init__(self, server: HTTPServer) -> None:
        self.server = server
        self.readers = 4
        self.edited = False
        server.expect_request("/robots.txt").respond_with_data("User-agent: *\nAllow: /\n")
        server.expect_request("/rss.xml").respond_with_handler(self.feed)
        for slug in STORIES:
            server.expect_request(f"/news/{slug}").respond_with_handler(self.page(slug))

    def feed(self, request: Request) -> Response:
        items = "".join(
            f"<item><title>{slug}</title><link>{self.server.url_for(f'/news/{slug}')}</link>"
            f"<guid>{slug}</guid><pubDate>Mon, 30 Nov 2026 05:00:00 GMT</pubDate></item>"
            for slug in STORIES
        )
        body = f"<rss version='2.0'><channel><title>Lakeside Herald</title>{items}</channel></rss>"
        return Response(body, content_type="application/rss+xml")

    def page(self, slug: str) -> Callable[[Request], Response]:
        def respond(request: Request) -> Response:
            text = list(STORIES[slug])
            if self.edited and slug == "library-hours":
                text[1] = "Visitor numbers have grown by a third since the reading room reopened."
            # in the article body, where the generic extractor keeps it: only the host's
            # template tells it apart from the story
            promo = (
                f"<p>Join the {self.readers},000 readers who get the Lakeside Herald morning "
                "briefing in their inbox every weekday.</p>"
            )
            paragraphs = "".join(f"<p>{p}</p>" for p in text)
            headline = slug.replace("-", " ").capitalize()
            html = (
                "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
                f"<title>{headline} | Lakeside Herald</title></head><body><main><article>"
                f"<h1>{headline}</h1>{paragraphs}{promo}"
                "</article></main><footer>© Lakeside Herald</footer></body></html>"
            )
            return Response(html, content_type="text/html; charset=utf-8")

        return respond


@pytest.fixture
def herald(httpserver: HTTPServer) -> Herald:
    return Herald(httpserver)


def test_a_template_learnt_between_runs_is_no_revision_and_hides_furniture_churn(
    herald: Herald, tmp_path: Path
) -> None:
    config_file = tmp_path / "feeds.yaml"
    config_file.write_text(
        f"feeds:\n  - url: {herald.server.url_for('/rss.xml')}\n    name: Lakeside Herald\n"
        "settings:\n  allow_private_addresses: true\n  politeness:\n    min_host_interval: 0s\n",
        encoding="utf-8",
    )
    config = load_config(config_file, environ={})
    archive = Archive(tmp_path / "data")
    first = run_ingest(config, archive, now=T0, simulated=True)
    assert first.articles["new-revision"] == len(STORIES)  # no template yet: stored as is
    stored = [archive.revisions(doc)[0] for doc in archive.document_ids()]
    assert all("4,000 readers" in r.article.blocks[-1].text for r in stored)
    # the same pages, now judged through the template learnt from those revisions
    second = run_ingest(config, archive, now=T0 + timedelta(hours=1), simulated=True)
    assert second.articles == {"unchanged": len(STORIES)}
    # the promo's count changes on every page (a changed number would be an edit), and one
    # story is really edited: only that one is a revision, stored with its promo line
    herald.readers, herald.edited = 5, True
    third = run_ingest(config, archive, now=T0 + timedelta(hours=2), simulated=True)
    assert third.articles == {"new-revision": 1, "unchanged": len(STORIES) - 1}
    [edited] = [doc for doc in archive.document_ids() if len(archive.revisions(doc)) == 2]
    newest = archive.revisions(edited)[-1].article
    assert any("grown by a third" in block.text for block in newest.blocks)
    assert "5,000 readers" in newest.blocks[-1].text  # what is stored is the page as read
    assert verify_archive(archive.root).problems == ()
    assert not (archive.root / "state").exists() or all(
        not path.name.startswith("profile") for path in (archive.root / "state").iterdir()
    )  # nothing about templates is stored


PROFILE = HostProfile(
    host="lakeside-herald.test", pages=5, furniture=("join the 0,0 readers who subscribe",)
)


def article(*texts: str) -> Article:
    return Article(title="Library hours", blocks=tuple(Block(t) for t in texts))


def test_without_furniture_drops_only_the_template_lines() -> None:
    page = article("The library opens on Sundays.", "Join the 4,000 readers who subscribe")
    assert without_furniture(page, PROFILE).blocks == (Block("The library opens on Sundays."),)
    plain = article("The library opens on Sundays.")
    assert without_furniture(plain, PROFILE) is plain


def test_a_template_that_would_remove_most_of_a_text_is_not_used() -> None:
    story = article(
        "The library opens on Sundays from January.", "Join the 4,000 readers who subscribe"
    )
    assert judging_profile(PROFILE, story, None) is PROFILE
    mostly_promo = article("Join the 4,000 readers who subscribe", "Sundays.")
    assert judging_profile(PROFILE, story, mostly_promo) is None  # the stored text counts too
    assert judging_profile(None, story, None) is None
    assert judging_profile(HostProfile(host="x"), story, None) is None  # learnt nothing


def test_the_profile_sample_is_the_first_stored_documents_of_each_planned_host() -> None:
    def doc(n: int, host: str, revisions: int) -> DocumentState:
        return DocumentState(
            id=f"{host}-{n:03d}",
            url=f"https://{host}/{n}",
            candidate=Candidate(key=f"{host}-{n:03d}", host=host, discovered_at=T0),
            seen=Seen(revisions=revisions),
        )

    states = [doc(n, "a.test", 1) for n in range(PROFILE_SAMPLE + 5, 0, -1)]
    states += [doc(1, "b.test", 0), doc(2, "c.test", 3)]
    sample = profile_sample(states, hosts={"a.test", "b.test"})
    assert list(sample) == ["a.test"]  # b has nothing stored, c is not in the plan
    assert sample["a.test"] == [f"a.test-{n:03d}" for n in range(1, PROFILE_SAMPLE + 1)]


def test_profiles_are_learnt_only_from_enough_distinct_documents() -> None:
    line = "Join the 4,000 readers who subscribe"

    def page(n: int) -> tuple[str, Article]:
        text = ("Rain all week.", "A new bridge opens.", "Fares rise.")[n]
        return f"d{n}", Article(title=f"Story {n}", blocks=(Block(text), Block(line)))

    learnt = learn_profiles({"a.test": [page(n) for n in range(3)], "b.test": [page(1), page(2)]})
    assert list(learnt) == ["a.test"]
    assert learnt["a.test"].is_furniture("Join the 5,000 readers who subscribe")
    assert not learnt["a.test"].is_furniture("A new bridge opens.")
