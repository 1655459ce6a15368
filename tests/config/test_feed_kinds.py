"""feeds.yaml's ``kind``, ``include`` and ``exclude`` keys: values, errors, matching."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quietedit.config import Config, load_config, parse_config
from quietedit.config.patterns import UrlFilter
from quietedit.errors import ConfigError


def parse(document: object) -> Config:
    return parse_config(document, environ={}, source="feeds.yaml", base_dir=Path("/base"))


def problems(document: object) -> tuple[str, ...]:
    with pytest.raises(ConfigError) as caught:
        parse(document)
    return caught.value.problems


def feed(**fields: object) -> dict[str, object]:
    return {"url": "https://news.example.org/", "name": "Example News", **fields}


def test_a_feed_is_a_feed_tracking_every_link_unless_it_says_otherwise() -> None:
    (entry,) = parse({"feeds": [feed()]}).feeds
    assert entry.kind == "feed"
    assert entry.links == UrlFilter()
    assert entry.links.tracks("https://news.example.org/anything")


def test_kind_include_and_exclude_are_read_from_the_file(tmp_path: Path) -> None:
    path = tmp_path / "feeds.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            feeds:
              - url: https://news.example.org/
                name: Example News front page
                kind: homepage
                include:
                  - /news/
                  - /sport/live/
                exclude: /news/live/
            """
        ),
        encoding="utf-8",
    )
    (entry,) = load_config(path, environ={}).feeds
    assert entry.kind == "homepage"
    assert entry.links.include == ("/news/", "/sport/live/")
    assert entry.links.exclude == ("/news/live/",)


@pytest.mark.parametrize(
    ("value", "complaint"),
    [
        ("homepag", "feeds[0].kind: 'homepag' is not a kind of source; did you mean 'homepage'?"),
        ("sitemap", "feeds[0].kind: 'sitemap' is not a kind of source; use feed or homepage"),
        (3, "feeds[0].kind: 3 is a number, not a kind; write kind: feed or kind: homepage"),
        (None, "feeds[0].kind: None is empty, not a kind"),
    ],
)
def test_an_unknown_kind_is_reported_with_a_fix(value: object, complaint: str) -> None:
    (problem,) = problems({"feeds": [feed(kind=value)]})
    assert problem.startswith(f"feeds.yaml: {complaint}")


@pytest.mark.parametrize(
    ("key", "value", "complaint"),
    [
        ("include", {"a": 1}, "include: {'a': 1} is a mapping, not a list of URL patterns"),
        ("exclude", 7, "exclude: 7 is a number, not a list of URL patterns"),
        ("include", ["/ok/", ""], "include[1]: '' is empty"),
        ("exclude", ["/two words/"], "exclude[0]: '/two words/' contains white space"),
        ("include", ["/ok/", 3], "include[1]: 3 is not text"),
        ("exclude", "**", "exclude: '**' matches every URL; leave the list out instead"),
        ("include", ["/x" * 300], "is longer than 500 characters"),
        ("include", ["/a/"] * 101, "include: has 101 patterns; keep it to at most 100"),
    ],
)
def test_bad_url_patterns_are_reported_by_key(key: str, value: object, complaint: str) -> None:
    (problem,) = problems({"feeds": [feed(**{key: value})]})
    assert problem.startswith("feeds.yaml: feeds[0].")
    assert complaint in problem


def test_every_problem_of_an_entry_is_reported_at_once() -> None:
    found = problems({"feeds": [feed(kind="front", include=[""], exclude=5, sluggish=1)]})
    keys = sorted(p.split(": ")[1] for p in found)
    assert keys == ["feeds[0].exclude", "feeds[0].include[0]", "feeds[0].kind", "feeds[0].sluggish"]


@pytest.mark.parametrize(
    ("include", "exclude", "url", "tracked"),
    [
        ((), ("/live/",), "https://news.example.org/news/live/storm-latest", False),
        ((), ("/live/",), "https://news.example.org/news/2026/11/30/storm", True),
        (("/sport/live/",), (), "https://news.example.org/sport/live/cup-final", True),
        (("/sport/live/",), (), "https://news.example.org/news/live/storm", False),
        (("/sport/",), ("/sport/live/",), "https://news.example.org/sport/live/cup", False),
        (("/sport/",), ("/sport/live/",), "https://news.example.org/sport/cup-report", True),
        (("/live/*-latest",), (), "https://news.example.org/news/live/storm-ida-latest", True),
        (("/live/*-latest",), (), "https://news.example.org/news/live/storm-ida", False),
        (("https://news.example.org/",), (), "https://other.example.org/news.example.org/", False),
        (("/Sport/",), (), "https://news.example.org/sport/cup", True),  # letter case aside
        (("?id=",), (), "https://news.example.org/story?id=4", True),  # the query counts
        (("a.b",), (), "https://news.example.org/aXb", False),  # no regular expressions
    ],
)
def test_include_and_exclude_decide_which_links_are_tracked(
    include: tuple[str, ...], exclude: tuple[str, ...], url: str, tracked: bool
) -> None:
    assert UrlFilter(include, exclude).tracks(url) is tracked


@given(st.text(min_size=1, max_size=40).filter(lambda t: "*" not in t))
def test_a_pattern_without_a_star_matches_every_url_holding_it(piece: str) -> None:
    url = f"https://news.example.org/a{piece}b"
    assert UrlFilter(include=(piece,)).tracks(url)
    assert not UrlFilter(exclude=(piece,)).tracks(url)
