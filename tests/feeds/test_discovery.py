"""discover_feeds: the feeds a news page advertises, resolved, ordered, origin-marked."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from quietedit.feeds.discovery import MAX_DISCOVERED, discover_feeds

PAGE = "https://www.example-courier.test/world/2026/nov/30/ceasefire-talks"

# The <head> of a news article page as CMSs write it: a comments feed first, icons,
# stylesheets, AMP and canonical links, and the section feeds in several formats.
HEAD = """<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>Ceasefire talks resume in Geneva | World | The Example Courier</title>
<link rel="canonical" href="https://www.example-courier.test/world/2026/nov/30/ceasefire-talks">
<link rel="amphtml" href="https://amp.example-courier.test/world/2026/nov/30/ceasefire-talks">
<link rel="alternate" type="application/rss+xml"
  title="Comments on: Ceasefire talks"
  href="/world/2026/nov/30/ceasefire-talks/comments/feed">
<link rel="stylesheet" href="/assets/main.css">
<link rel="alternate stylesheet" type="application/rss+xml"
  href="/not-a-feed.css"
  title="High contrast">
<link rel="icon" href="/favicon.ico">
<link rel="alternate" type="application/rss+xml"
  title="The Example Courier &raquo; World"
  href="/world/rss">
<link rel="Alternate" type="application/atom+xml; charset=utf-8"
  title="World (Atom)"
  href="https://www.example-courier.test/world/atom.xml">
<link rel="alternate" type="application/feed+json"
  title="World (JSON Feed)"
  href="https://feeds.example-courier.test/world.json">
<link rel="alternate" type="application/json" href="/wp-json/wp/v2/posts/88213">
<link rel="alternate" type="application/json" title="JSON feed" href="/world/feed.json">
<link rel="alternate" type="text/html" hreflang="de"
  href="https://de.example-courier.test/welt/waffenstillstand">
<link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
<link rel="alternate" type="application/rss+xml"
  title="Duplicate"
  href="https://www.example-courier.test/world/rss">
<link rel="alternate" type="application/rdf+xml"
  title="World (RSS 1.0)"
  href="http://www.example-courier.test/world/index.rdf">
</head>
<body><article><h1>Ceasefire talks resume in Geneva</h1></article></body>
</html>"""


def test_feeds_are_found_resolved_and_ordered_by_preference() -> None:
    feeds = discover_feeds(HEAD, page_url=PAGE)
    assert [(f.kind, f.url) for f in feeds] == [
        ("atom", "https://www.example-courier.test/world/atom.xml"),
        ("jsonfeed", "https://feeds.example-courier.test/world.json"),
        ("rss", "https://www.example-courier.test/world/rss"),
        ("rdf", "http://www.example-courier.test/world/index.rdf"),
        ("jsonfeed", "https://www.example-courier.test/world/feed.json"),
        ("rss", "https://www.example-courier.test/world/2026/nov/30/ceasefire-talks/comments/feed"),
    ]
    assert feeds[2].title == "The Example Courier » World"
    assert feeds[0].content_type == "application/atom+xml"


def test_wordpress_rest_api_links_are_not_feeds() -> None:
    urls = [f.url for f in discover_feeds(HEAD, page_url=PAGE)]
    assert not any("wp-json" in url for url in urls)


def test_a_feed_on_another_scheme_host_or_port_is_not_same_origin() -> None:
    feeds = {f.url: f.same_origin for f in discover_feeds(HEAD, page_url=PAGE)}
    assert feeds["https://www.example-courier.test/world/atom.xml"] is True
    assert feeds["https://feeds.example-courier.test/world.json"] is False
    assert feeds["http://www.example-courier.test/world/index.rdf"] is False
    other_port = discover_feeds(
        '<link rel=alternate type=application/rss+xml href="https://www.example-courier.test:8443/rss">',
        page_url=PAGE,
    )
    assert [f.same_origin for f in other_port] == [False]
    default_port = discover_feeds(
        '<link rel=alternate type=application/rss+xml href="https://www.example-courier.test:443/rss">',
        page_url=PAGE,
    )
    assert [f.same_origin for f in default_port] == [True]


def test_the_base_element_changes_what_relative_links_resolve_against() -> None:
    html = (
        '<head><base href="https://static.example-courier.test/feeds/">'
        '<link rel="alternate" type="application/rss+xml" href="world.xml"></head>'
    )
    [feed] = discover_feeds(html.encode(), page_url=PAGE)
    assert feed.url == "https://static.example-courier.test/feeds/world.xml"
    assert feed.same_origin is False


def test_a_page_without_feed_links_gives_nothing() -> None:
    assert discover_feeds("<html><head><title>x</title></head></html>", page_url=PAGE) == ()
    assert discover_feeds(b"", page_url=PAGE) == ()


def test_a_page_listing_hundreds_of_feeds_is_cut() -> None:
    links = "".join(
        f'<link rel="alternate" type="application/rss+xml" href="/tag/{n}/feed">'
        for n in range(500)
    )
    assert len(discover_feeds(links, page_url=PAGE)) == MAX_DISCOVERED


@given(st.text(max_size=400) | st.binary(max_size=400))
def test_any_page_gives_http_feeds_or_nothing(html: str | bytes) -> None:
    for feed in discover_feeds(html, page_url=PAGE):
        assert feed.url.startswith(("http://", "https://"))
