"""Home and section pages read for their article links and the headline shown for each.

Every page in ``tests/fixtures/homepages/`` is read from its bytes, and what it must give is
beside it: ``url`` (where it was fetched from) and its ``links`` as [URL, headline] in page
order. The pages are written the way news fronts are built (cards, teasers, kickers, image
and overlay links, most-read lists repeating stories); each says what it holds in ``about``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quietedit.feeds.homepage import MAX_HEADLINE, MAX_LINKS, read_homepage

FIXTURES = Path(__file__).parents[1] / "fixtures" / "homepages"
PAGES = sorted(FIXTURES.glob("*.html"))
URL = "https://www.example-news.example/"


def read(html: str, url: str = URL) -> list[tuple[str, str]]:
    page = read_homepage(html.encode(), url=url, content_type="text/html; charset=utf-8")
    return [(link.url, link.headline) for link in page.links]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_each_fixture_gives_its_links_and_headlines(page: Path) -> None:
    expected = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    found = read_homepage(page.read_bytes(), url=expected["url"], content_type="text/html")
    assert [[link.url, link.headline] for link in found.links] == expected["links"]
    assert found.problems == ()


@pytest.mark.parametrize(
    ("inner", "headline"),
    [
        ("Storm closes bridge <span class='age'>5 minutes ago</span>", "Storm closes bridge"),
        ("Storm closes bridge 12m ago", "Storm closes bridge"),
        ("Sturm sperrt Brücke vor 6 Min", "Sturm sperrt Brücke"),
        ("Sturm sperrt Brücke · vor 3 Stunden", "Sturm sperrt Brücke"),
        ("Storm closes bridge | 3h", "Storm closes bridge"),
        ("10:42 Sturm sperrt Brücke", "Sturm sperrt Brücke"),
        ("Sturm sperrt Brücke 10.42 Uhr", "Sturm sperrt Brücke"),
        (
            "Storm closes bridge <time datetime='2026-11-30T10:00Z'>Just now</time>",
            "Storm closes bridge",
        ),
        # prose with numbers and times stays as written
        (
            "Storm closed the bridge 48 hours ago and it is still shut",
            "Storm closed the bridge 48 hours ago and it is still shut",
        ),
        ("Trains to run every 15 min from Monday", "Trains to run every 15 min from Monday"),
    ],
)
def test_relative_and_clock_times_are_no_part_of_a_headline(inner: str, headline: str) -> None:
    html = f"<body><main><a href='/news/2026/11/30/story-1'>{inner}</a></main></body>"
    assert read(html) == [(URL + "news/2026/11/30/story-1", headline)]


def test_the_same_story_changing_its_age_keeps_its_headline() -> None:
    def page(age: str) -> str:
        return (
            "<body><article class='teaser'><a href='/politik/haushalt-a-1.html'>"
            "<span class='teaser__kicker'>Landtag</span>"
            f"<span class='teaser__title'>Koalition einigt sich</span></a>"
            f"<span class='teaser__time'>{age}</span></article></body>"
        )

    assert read(page("vor 6 Min")) == read(page("vor 7 Min")) == read(page("vor 2 Std."))


def test_links_outside_the_site_the_fronts_and_the_furniture_are_left_out() -> None:
    html = (
        "<body><header><a href='/news/2026/11/30/masthead'>Masthead story link here</a>"
        "</header>"
        "<nav><a href='/news/2026/11/30/nav-story'>A story linked from the menu</a></nav>"
        "<main><a href='https://other.example/news/2026/1'>A story of another site</a>"
        "<a href='/world'>World news</a><a href='/'>Front page of the site</a>"
        "<a href='#top'>Back to the top of page</a>"
        "<form><a href='/news/2026/11/30/in-a-form'>A link inside a search form</a></form>"
        "<a href='/news/2026/11/30/kept'>The one story this page keeps</a></main>"
        "<footer><a href='/news/2026/11/30/footer'>A story linked from the footer</a>"
        "</footer></body>"
    )
    assert read(html) == [(URL + "news/2026/11/30/kept", "The one story this page keeps")]


def test_texts_that_are_no_headlines_are_not_taken_for_one() -> None:
    html = (
        "<body><a href='/a/2026/1'>More</a><a href='/a/2026/2'>Read more</a>"
        "<a href='/a/2026/3'>Short</a><a href='/a/2026/4'>Weiterlesen</a>"
        "<a href='/a/2026/5'><img src='x.jpg' alt=''></a>"
        "<a href='/a/2026/6'>東京で大雪、交通に乱れ</a></body>"
    )
    assert read(html) == [(URL + "a/2026/6", "東京で大雪、交通に乱れ")]


def test_a_headline_is_cut_at_a_word_and_a_page_at_its_first_thousand_articles() -> None:
    long = " ".join(["word"] * 200)
    links = "".join(f"<a href='/a/2026/{n}'>Story number {n} of the day</a>" for n in range(1200))
    html = f"<body><a href='/a/2026/long'>{long}</a>{links}</body>"
    found = read_homepage(html.encode(), url=URL)
    assert len(found.links) == MAX_LINKS
    first = found.links[0].headline
    assert len(first) <= MAX_HEADLINE and first.endswith("word")


def test_an_empty_or_broken_page_gives_no_links_and_says_why() -> None:
    assert read_homepage(b"", url=URL).problems == ("the page is empty",)
    found = read_homepage(b"<html><body><p>Nothing here</p></body></html>", url=URL)
    assert found.links == () and found.problems == ("no links to articles of this site were found",)


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=300), st.text(max_size=60))
def test_any_markup_gives_headlines_of_one_bounded_line(noise: str, text: str) -> None:
    html = f"<body>{noise}<a href='/news/2026/11/30/x'>{text}</a>{noise}</body>"
    for _, headline in read(html):
        assert headline == " ".join(headline.split())
        assert 0 < len(headline) <= MAX_HEADLINE
