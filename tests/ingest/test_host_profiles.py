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
from quietedit.article.fingerprint import content_hash
from quietedit.article.template import HostProfile, furniture_key
from quietedit.config import Config, load_config
from quietedit.decide.memory import DocumentState, Seen
from quietedit.decide.profiles import (
    PROFILE_SAMPLE,
    judge_observation,
    judging_profile,
    learn_profiles,
    profile_sample,
    without_furniture,
)
from quietedit.decide.recheck import Candidate
from quietedit.decide.versioning import Verdict, body_words
from quietedit.ingest.run import run_ingest
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
        self.stories = dict(STORIES)
        server.expect_request("/robots.txt").respond_with_data("User-agent: *\nAllow: /\n")
        server.expect_request("/rss.xml").respond_with_handler(self.feed)
        for slug in STORIES:
            server.expect_request(f"/news/{slug}").respond_with_handler(self.page(slug))

    def publish(self, stories: dict[str, list[str]]) -> None:
        """New stories, in a newer page layout without the promo line."""
        self.stories.update(stories)
        for slug in stories:
            self.server.expect_request(f"/news/{slug}").respond_with_handler(self.page(slug))

    def feed(self, request: Request) -> Response:
        items = "".join(
            f"<item><title>{slug}</title><link>{self.server.url_for(f'/news/{slug}')}</link>"
            f"<guid>{slug}</guid><pubDate>Mon, 30 Nov 2026 05:00:00 GMT</pubDate></item>"
            for slug in self.stories
        )
        body = f"<rss version='2.0'><channel><title>Lakeside Herald</title>{items}</channel></rss>"
        return Response(body, content_type="application/rss+xml")

    def page(self, slug: str) -> Callable[[Request], Response]:
        def respond(request: Request) -> Response:
            text = list(self.stories[slug])
            if self.edited and slug == "library-hours":
                text[1] = "Visitor numbers have grown by a third since the reading room reopened."
            # in the article body, where the generic extractor keeps it: only the host's
            # template tells it apart from the story
            promo = (
                f"<p>Join the {self.readers},000 readers who get the Lakeside Herald morning "
                "briefing in their inbox every weekday.</p>"
                if slug in STORIES
                else ""
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


def herald_config(herald: Herald, tmp_path: Path) -> Config:
    """A feeds.yaml with the Herald's feed, loopback allowed, no spacing."""
    config_file = tmp_path / "feeds.yaml"
    config_file.write_text(
        f"feeds:\n  - url: {herald.server.url_for('/rss.xml')}\n    name: Lakeside Herald\n"
        "settings:\n  allow_private_addresses: true\n  politeness:\n    min_host_interval: 0s\n",
        encoding="utf-8",
    )
    return load_config(config_file, environ={})


def test_a_template_learnt_between_runs_is_no_revision_and_hides_furniture_churn(
    herald: Herald, tmp_path: Path
) -> None:
    config = herald_config(herald, tmp_path)
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


# Published after the first runs, in a layout without the promo line: once enough of them
# are stored, the promo is no longer on 30 % of the host's pages and its template drops it.
LATER_STORIES = {
    slug: [
        f"{first} the {place} {verb}, and {second.lower()} {detail} after the {place} news.",
        f"{second} {detail}, as they did when the {place} was last in the news.",
    ]
    for slug, first, place, verb, second, detail in [
        (
            "bridge-repairs",
            "Repairs to",
            "swing bridge",
            "begin in April",
            "Cyclists",
            "will use the ferry",
        ),
        (
            "market-hall",
            "Stallholders at",
            "market hall",
            "asked for longer leases",
            "Rents",
            "rose sharply",
        ),
        ("swimming-pool", "Lifeguards at", "lido", "went on strike", "Swimmers", "were sent home"),
        (
            "bus-timetable",
            "Evening services on",
            "lakeshore route",
            "are being cut",
            "Commuters",
            "signed a petition",
        ),
        (
            "museum-roof",
            "Rain leaked through",
            "museum roof",
            "onto the tapestries",
            "Curators",
            "moved the collection",
        ),
        (
            "allotments",
            "Waiting lists for",
            "allotment gardens",
            "doubled since spring",
            "Gardeners",
            "want more plots",
        ),
        (
            "harbour-festival",
            "Organisers of",
            "harbour festival",
            "booked a brass band",
            "Tickets",
            "sold out quickly",
        ),
        (
            "cycle-lanes",
            "Painted cycle lanes on",
            "high street",
            "faded within weeks",
            "Engineers",
            "blamed cheap paint",
        ),
        (
            "fire-station",
            "Volunteers at",
            "northern fire station",
            "trained with new ladders",
            "Residents",
            "watched the drill",
        ),
        (
            "tree-planting",
            "Schoolchildren planted oaks along",
            "ring road",
            "on Saturday",
            "Foresters",
            "supplied the saplings",
        ),
    ]
}


def test_a_template_that_shrinks_between_runs_makes_no_revision_of_an_unchanged_page(
    herald: Herald, tmp_path: Path
) -> None:
    config = herald_config(herald, tmp_path)
    archive = Archive(tmp_path / "data")
    run_ingest(config, archive, now=T0, simulated=True)  # revision 1 says 4,000 readers
    herald.readers = 5
    second = run_ingest(config, archive, now=T0 + timedelta(hours=1), simulated=True)
    assert second.articles == {"unchanged": len(STORIES)}  # the template covers the promo
    herald.publish(LATER_STORIES)
    third = run_ingest(config, archive, now=T0 + timedelta(hours=2), simulated=True)
    assert third.articles == {"new-revision": len(LATER_STORIES), "unchanged": len(STORIES)}
    # the template learnt now no longer covers the promo line
    newest = {doc: archive.revisions(doc)[-1].article for doc in archive.document_ids()}
    [learnt] = learn_profiles(
        {"h": [(doc, article) for doc, article in sorted(newest.items())]}
    ).values()
    assert not learnt.is_furniture("Join the 5,000 readers who get the Lakeside Herald morning")
    assert not any(
        learnt.is_furniture(block.text) for a in newest.values() for block in a.blocks[-1:]
    )
    # the pages still say 5,000 readers, as at the last check: no edit, however the
    # stored revision (4,000) compares with them without a template
    fourth = run_ingest(config, archive, now=T0 + timedelta(hours=3), simulated=True)
    assert "new-revision" not in fourth.articles
    assert fourth.articles["unchanged"] >= len(STORIES)
    assert all(len(archive.revisions(doc)) == 1 for doc in archive.document_ids())
    assert verify_archive(archive.root).problems == ()


STORY = tuple(
    f"Paragraph {n} of the story about the harbour dredging works and the skippers' "
    "complaints about the timing in the middle of the spring season, which the port "
    "authority says cannot be changed."
    for n in ("one", "two", "three", "four", "five", "six")
)
PROMO = "Join the {},000 readers who get the Lakeside Herald morning briefing every weekday."
TEMPLATE = HostProfile("h.test", pages=40, furniture=(furniture_key(PROMO.format(4)),))
SHRUNK = HostProfile("h.test", pages=40)  # learnt again from a sample where it is rarer


def herald_page(readers: int, *, story: tuple[str, ...] = STORY) -> Article:
    return Article(
        title="Dredging to start",
        blocks=tuple(Block(text) for text in (*story, PROMO.format(readers))),
    )


def observe(
    page: Article, stored: list[Article], seen: Seen, profile: HostProfile | None
) -> tuple[Verdict, Seen]:
    """One check of ``page``, as check.py makes it."""
    return judge_observation(
        page,
        plain=content_hash(page),
        words=body_words(page),
        revisions=[(content_hash(article), article) for article in stored],
        seen=seen,
        profile=profile,
    )


def test_an_unchanged_page_stays_unchanged_when_its_template_shrinks() -> None:
    stored = [herald_page(4)]
    seen = Seen(content_hash(stored[0]), revisions=1)
    now = herald_page(5)  # the promo's count went up: furniture churn, no edit
    verdict, seen = observe(now, stored, seen, TEMPLATE)
    assert verdict.action == "unchanged"
    assert seen.last_seen == content_hash(now)  # remembered as read, not through the template
    for profile in (SHRUNK, None, TEMPLATE, SHRUNK):  # the template comes and goes
        verdict, seen = observe(now, stored, seen, profile)
        assert (verdict.action, verdict.record_event) == ("unchanged", False), profile
    # a real edit is still one, template or not
    edited = herald_page(5, story=(*STORY[:5], "A new sixth paragraph: the works are delayed."))
    verdict, _ = observe(edited, stored, seen, SHRUNK)
    assert verdict.action == "store"


def test_revisions_that_differ_only_in_furniture_make_no_flip_flop_once_a_template_grows() -> None:
    # stored while the host had too few pages for a template: the count change was an edit
    stored = [herald_page(4), herald_page(5)]
    seen = Seen(content_hash(stored[1]), revisions=2)
    for readers in (5, 5, 4, 6, 6):  # now the template makes both revisions look alike
        verdict, seen = observe(herald_page(readers), stored, seen, TEMPLATE)
        assert verdict.action == "unchanged", readers
    verdict, seen = observe(herald_page(6), stored, seen, None)  # and if it shrinks again
    assert verdict.action == "unchanged"


def test_a_cut_text_is_confirmed_across_runs_with_and_without_a_template() -> None:
    stored = [herald_page(4)]
    assert body_words(stored[0]) >= 150  # long enough for a cut to be an anomaly at first
    cut = herald_page(5, story=STORY[:2])
    seen = Seen(content_hash(stored[0]), revisions=1)
    verdicts = []
    for profile in (TEMPLATE, None, SHRUNK):
        verdict, seen = observe(cut, stored, seen, profile)
        verdicts.append(verdict.action)
        assert seen.anomaly_hash in (None, content_hash(cut))  # one hash space: the plain one
    assert verdicts == ["anomaly", "anomaly", "store"]  # the third sighting in a row counts
