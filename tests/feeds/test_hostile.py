"""Hostile feeds: nothing a feed names is fetched or read, no entity bomb goes off.

A real HTTP server on loopback stands ready to serve every URL the feeds name; each test
proves it was never asked. Local files are real files in tmp_path.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from quietedit.errors import FeedParseError
from quietedit.feeds.parse import parse_feed
from quietedit.feeds.sitemaps import parse_sitemap

URL = "https://hostile.example/feed.xml"
LEAK_MARKER = "TOPSECRET-7f3a9c"


@pytest.fixture
def trap(httpserver: HTTPServer) -> HTTPServer:
    """A loopback server that would hand the secret to any request."""
    httpserver.expect_request(re.compile(".*")).respond_with_data(
        f'<!ENTITY leak "{LEAK_MARKER}">{LEAK_MARKER}', content_type="application/xml-dtd"
    )
    return httpserver


def feed_text(feed: object) -> str:
    return repr(feed)


def rss_with(prolog: str, title: str = "&xxe;") -> bytes:
    return (
        f'<?xml version="1.0" encoding="utf-8"?>\n{prolog}\n'
        f'<rss version="2.0"><channel><title>T</title><item><title>{title}</title>'
        "<link>https://hostile.example/a</link><description>d</description></item></channel></rss>"
    ).encode()


@pytest.mark.parametrize(
    "prolog",
    [
        '<!DOCTYPE rss [<!ENTITY xxe SYSTEM "{url}/general">]>',
        '<!DOCTYPE rss [\n  <!ENTITY xxe SYSTEM "{url}/general">\n]>',
        '<!DOCTYPE rss PUBLIC "-//Evil//DTD//EN" "{url}/external.dtd">',
        '<!DOCTYPE rss SYSTEM "{url}/external.dtd" [<!ENTITY x "1">]>',
        '<!DOCTYPE rss [<!ENTITY % pe SYSTEM "{url}/parameter.dtd"> %pe;]>',
        '<!DOCTYPE rss [\n<!ENTITY % pe SYSTEM "{url}/parameter.dtd">\n%pe;\n]>',
        '<?xml-stylesheet type="text/xsl" href="{url}/style.xsl"?>',
        'junk before <!DOCTYPE rss [<!ENTITY xxe SYSTEM "{url}/after-junk">]>',
    ],
)
def test_no_entity_dtd_or_stylesheet_a_feed_names_is_fetched(trap: HTTPServer, prolog: str) -> None:
    body = rss_with(prolog.format(url=trap.url_for("").rstrip("/")))
    feed = parse_feed(body, url=URL)
    assert trap.log == []
    assert LEAK_MARKER not in feed_text(feed)


def test_a_file_entity_is_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text(LEAK_MARKER, encoding="utf-8")
    for prolog in (
        f'<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file://{secret}">]>',
        f'<!DOCTYPE rss [\n<!ENTITY xxe SYSTEM "{secret.as_uri()}">\n]>',
        f'<!DOCTYPE rss SYSTEM "{secret.as_uri()}">',
    ):
        feed = parse_feed(rss_with(prolog), url=URL)
        assert LEAK_MARKER not in feed_text(feed)
        assert feed.entries[0].title == "&xxe;"


def test_a_body_that_is_a_file_name_is_not_opened(tmp_path: Path) -> None:
    secret = tmp_path / "feed.xml"
    secret.write_bytes(rss_with("", title=LEAK_MARKER))
    with pytest.raises(FeedParseError) as caught:
        parse_feed(str(secret).encode(), url=URL)
    assert LEAK_MARKER not in str(caught.value)


def test_a_body_that_is_a_url_is_not_fetched(trap: HTTPServer) -> None:
    with pytest.raises(FeedParseError):
        parse_feed(trap.url_for("/feed.xml").encode(), url=URL)
    assert trap.log == []


def test_a_sitemap_names_nothing_that_is_fetched(trap: HTTPServer) -> None:
    body = (
        '<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY xxe SYSTEM "{url}/x">]>'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://hostile.example/a</loc></url></urlset>"
    ).format(url=trap.url_for("").rstrip("/"))
    sitemap = parse_sitemap(
        body.encode(), url="https://hostile.example/sitemap.xml", fetched_at=None
    )
    assert trap.log == []
    assert [e.url for e in sitemap.entries] == ["https://hostile.example/a"]


def test_the_billion_laughs_do_not_expand() -> None:
    lines = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{n} "{("&lol" + str(n - 1) + ";") * 10}">' for n in range(1, 10)
    ]
    body = rss_with("<!DOCTYPE rss [\n" + "\n".join(lines) + "\n]>", title="&lol9;")
    feed = parse_feed(body, url=URL)
    assert feed.entries[0].title == "&lol9;"
    assert len(feed_text(feed)) < 5_000


def test_a_quadratic_blowup_is_not_expanded_even_in_the_lenient_parser() -> None:
    # A 10 kB entity referenced over and over, in a feed that is also ill-formed (an unclosed
    # tag), so feedparser falls back to its lenient parser, which expands every entity it
    # was told about without any limit.
    body = rss_with(
        '<!DOCTYPE rss [\n<!ENTITY big "' + "A" * 10_000 + '">\n]>',
        title="&big;" * 500 + "<unclosed>",
    )
    feed = parse_feed(body, url=URL)
    assert "AAAA" not in feed_text(feed)
    assert any("1 entity declaration(s) ignored" in p for p in feed.problems)


def test_an_entity_hidden_in_a_prolog_comment_is_not_declared() -> None:
    # feedparser reads '<!ENTITY' lines anywhere before the root, comments included.
    body = rss_with(
        '<!DOCTYPE rss [\n<!ENTITY ok "fine">\n]>\n<!--\n<!ENTITY big "' + "B" * 5000 + '">\n-->',
        title="&ok; &big;&big;&big;<unclosed>",
    )
    feed = parse_feed(body, url=URL)
    assert "BBBB" not in feed_text(feed)


def test_short_plain_entities_still_work() -> None:
    body = rss_with(
        '<!DOCTYPE rss [\n<!ENTITY nbsp "&#160;">\n<!ENTITY co "Courier">\n]>',
        title="The&nbsp;&co;",
    )
    assert parse_feed(body, url=URL).entries[0].title == "The Courier"


def test_javascript_and_data_links_are_dropped_and_recorded() -> None:
    body = rss_with("", title="x").replace(b"https://hostile.example/a", b"  JavaScript:alert(1)")
    feed = parse_feed(body, url=URL)
    assert feed.entries[0].link is None
    assert any("only http(s) links are followed" in p for p in feed.problems)
