"""parse_feed: dispatch, the common entry shape, limits, and clear errors for hopeless bodies."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quietedit.errors import FeedParseError, QuieteditError
from quietedit.feeds.parse import parse_feed

URL = "https://news.example.org/feeds/top.xml"
FETCHED = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def rss(*items: str, channel: str = "<title>Top stories</title>") -> bytes:
    return (
        '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>'
        + channel
        + "".join(f"<item>{item}</item>" for item in items)
        + "</channel></rss>"
    ).encode("utf-8")


def declared(encoding: str, channel: str) -> str:
    """An RSS document declaring ``encoding``, as text."""
    return (
        f'<?xml version="1.0" encoding="{encoding}"?>'
        f'<rss version="2.0"><channel>{channel}</channel></rss>'
    )


def test_a_json_body_is_read_as_json_feed_whatever_the_content_type_says() -> None:
    body = json.dumps(
        {
            "version": "https://jsonfeed.org/version/1.1",
            "title": "J",
            "items": [{"id": "1", "title": "A"}],
        }
    ).encode()
    feed = parse_feed(body, url=URL, content_type="application/rss+xml")
    assert feed.kind == "jsonfeed"
    assert [e.title for e in feed.entries] == ["A"]
    assert any("served as 'application/rss+xml' but the body is JSON" in p for p in feed.problems)


def test_an_xml_body_served_as_json_is_read_as_xml() -> None:
    feed = parse_feed(
        rss("<title>A</title><guid>a</guid>"), url=URL, content_type="application/json"
    )
    assert feed.kind == "rss"
    assert any("body is XML" in p for p in feed.problems)


def test_the_same_story_reads_the_same_in_every_dialect() -> None:
    atom = b"""<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
      <entry><id>urn:story:1</id><title>Mayor resigns</title><link href="/story/1"/>
      <summary>She left on Monday.</summary>
      <published>2026-11-30T08:00:00Z</published></entry></feed>"""
    rss2 = rss(
        "<guid isPermaLink='false'>urn:story:1</guid><title>Mayor resigns</title>"
        "<link>/story/1</link><description>She left on Monday.</description>"
        "<pubDate>Mon, 30 Nov 2026 08:00:00 GMT</pubDate>"
    )
    jsonfeed = json.dumps(
        {
            "version": "https://jsonfeed.org/version/1.1",
            "title": "T",
            "items": [
                {
                    "id": "urn:story:1",
                    "url": "/story/1",
                    "title": "Mayor resigns",
                    "content_text": "She left on Monday.",
                    "date_published": "2026-11-30T09:00:00+01:00",
                }
            ],
        }
    ).encode()
    shapes = set()
    for body in (atom, rss2, jsonfeed):
        [entry] = parse_feed(body, url=URL).entries
        assert entry.published is not None
        shapes.add((entry.id, entry.link, entry.title, entry.summary, entry.published.value))
    assert shapes == {
        (
            "urn:story:1",
            "https://news.example.org/story/1",
            "Mayor resigns",
            "She left on Monday.",
            datetime(2026, 11, 30, 8, tzinfo=UTC),
        )
    }


def test_ids_fall_back_from_guid_to_link_to_a_hash_of_the_text() -> None:
    feed = parse_feed(
        rss(
            "<guid>g-1</guid><link>https://news.example.org/a</link><title>A</title>",
            "<link>https://news.example.org/b</link><title>B</title>",
            "<title>C</title><description>only text</description>",
        ),
        url=URL,
    )
    assert [(e.id_source, e.id[:7]) for e in feed.entries] == [
        ("id", "g-1"),
        ("link", "https:/"),
        ("hash", "sha256:"),
    ]
    assert feed.entries[1].id == "https://news.example.org/b"


def test_a_text_hash_id_is_stable_across_typographic_noise() -> None:
    first = parse_feed(rss("<title>It\u2019s \u201cdone\u201d</title>"), url=URL).entries[0].id
    second = parse_feed(rss('<title>It\'s  "done"</title>'), url=URL).entries[0].id
    third = parse_feed(rss("<title>It's undone</title>"), url=URL).entries[0].id
    assert first == second != third


def test_a_repeated_id_keeps_the_first_entry_and_is_recorded() -> None:
    feed = parse_feed(
        rss("<guid>x</guid><title>First</title>", "<guid>x</guid><title>Again</title>"), url=URL
    )
    assert [e.title for e in feed.entries] == ["First"]
    assert "1 entries repeat an earlier entry's id; the first is kept" in feed.problems


def test_entries_beyond_the_cap_are_dropped_and_the_cut_recorded() -> None:
    items = [f"<guid>n{i}</guid><title>Story {i}</title>" for i in range(120)]
    feed = parse_feed(rss(*items), url=URL, max_entries=50)
    assert len(feed.entries) == 50
    assert feed.entries[-1].title == "Story 49"
    # The entries past the cap are cut before parsing, and the cut leaves well-formed XML.
    assert feed.problems == (
        "120 entries; only the first 50 are read (raise max_entries if the feed is genuine)",
    )


@pytest.mark.parametrize(
    ("head", "entry", "tail"),
    [
        (
            "<feed xmlns='http://www.w3.org/2005/Atom'><title>A</title>",
            "<entry><id>{n}</id><title>T{n}</title></entry>",
            "</feed>",
        ),
        (
            "<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'"
            " xmlns='http://purl.org/rss/1.0/'><channel rdf:about='https://x.example/'>"
            "<title>R</title><items><rdf:Seq/></items></channel>",
            "<item rdf:about='https://x.example/{n}'><title>T{n}</title>"
            "<link>https://x.example/{n}</link></item>",
            "</rdf:RDF>",
        ),
        (
            "<rss version='2.0'><channel><title>R</title><!-- <item> -->",
            "<item><guid>{n}</guid><title>T{n}</title></item>",
            "</channel></rss>",
        ),
    ],
    ids=["atom", "rdf", "rss"],
)
def test_the_cut_before_parsing_works_for_every_dialect(head: str, entry: str, tail: str) -> None:
    body = head + "".join(entry.format(n=n) for n in range(40)) + tail
    feed = parse_feed(body.encode(), url=URL, max_entries=10)
    assert [e.title for e in feed.entries] == [f"T{n}" for n in range(10)]
    assert feed.problems == (
        "40 entries; only the first 10 are read (raise max_entries if the feed is genuine)",
    )


def test_a_json_feed_beyond_the_cap_is_cut_too() -> None:
    body = json.dumps(
        {"version": "https://jsonfeed.org/version/1", "items": [{"id": str(i)} for i in range(30)]}
    )
    feed = parse_feed(body.encode(), url=URL, max_entries=10)
    assert [e.id for e in feed.entries] == [str(i) for i in range(10)]
    assert any("30 entries; only the first 10" in p for p in feed.problems)


def test_a_body_over_the_size_limit_is_refused_with_the_way_out() -> None:
    with pytest.raises(
        FeedParseError, match=r"over the limit of 1000 bytes; raise max_bytes"
    ) as caught:
        parse_feed(rss("<title>x</title>" * 100), url=URL, max_bytes=1000)
    assert caught.value.url == URL


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"", "the body is empty"),
        (b"  \n ", "the body is empty"),
        (b"<html><body>Moved</body></html>", "HTML page, not a feed"),
        (b"<!DOCTYPE html><html lang=en><p>hi", "HTML page, not a feed"),
        (b"<?xml version='1.0'?><svg xmlns='http://www.w3.org/2000/svg'/>", "root is <svg>"),
        (b"Just some text", "no XML element"),
        (b"{not json", "not valid JSON"),
        (b'{"title": "no items"}', 'no "items" list'),
        (b"[1, 2, 3]", 'no "items" list'),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ],
)
def test_a_hopeless_body_is_one_clear_error_naming_the_feed(body: bytes, reason: str) -> None:
    with pytest.raises(FeedParseError) as caught:
        parse_feed(body, url=URL)
    assert reason in str(caught.value)
    assert str(caught.value).startswith(f"feed {URL}: ")
    assert isinstance(caught.value, QuieteditError)


def test_an_ill_formed_feed_is_recovered_and_the_problem_recorded() -> None:
    body = rss("<title>Fish & chips</title><guid>a</guid>", "<title>Unclosed<guid>b</guid>")
    feed = parse_feed(body, url=URL)
    assert feed.entries[0].title == "Fish & chips"
    assert any(
        "not well-formed XML" in p and "read with the lenient parser" in p for p in feed.problems
    )


def test_a_utf16_feed_with_a_bom_is_read() -> None:
    body = declared("utf-16", "<title>Ü</title><item><title>Grüße</title></item>")
    feed = parse_feed(body.encode("utf-16"), url=URL)
    assert (feed.title, feed.entries[0].title, feed.problems) == ("Ü", "Grüße", ())


def test_the_http_charset_overrules_the_declaration_and_says_so() -> None:
    body = declared("utf-8", "<title>Café</title>")
    feed = parse_feed(
        body.encode("latin-1"), url=URL, content_type="application/xml; charset=iso-8859-1"
    )
    assert feed.title == "Café"
    assert any(p.startswith("XML declaration 'utf-8' not followed") for p in feed.problems)


def test_a_server_default_charset_does_not_turn_utf8_into_mojibake() -> None:
    body = declared("utf-8", "<title>Café</title>")
    feed = parse_feed(body.encode(), url=URL, content_type="text/xml; charset=ISO-8859-1")
    assert feed.title == "Café"
    assert any("not followed: the bytes are UTF-8" in p for p in feed.problems)


def test_text_xml_without_charset_reads_the_declaration_without_complaint() -> None:
    body = declared("utf-8", "<title>Café</title>")
    feed = parse_feed(body.encode(), url=URL, content_type="text/xml")
    assert (feed.title, feed.problems) == ("Café", ())


def test_titles_and_summaries_are_plain_one_line_text() -> None:
    feed = parse_feed(
        rss(
            "<guid>a</guid><title>A &amp;lt;b&amp;gt; tag,\n  &#8220;quoted&#8221;</title>"
            "<description><![CDATA[<p>One&nbsp;<b>bold</b></p>\n<p>Two</p><style>p{}</style>]]></description>"
        ),
        url=URL,
    )
    entry = feed.entries[0]
    assert entry.title == "A <b> tag, “quoted”"
    assert entry.summary == "One bold Two"  # a no-break space is white space too


def test_relative_links_resolve_against_the_feed_url() -> None:
    feed = parse_feed(rss("<guid>a</guid><link>../stories/1.html</link>"), url=URL)
    assert feed.entries[0].link == "https://news.example.org/stories/1.html"


def test_entry_dates_after_the_fetch_are_clamped_only_when_a_fetch_time_is_given() -> None:
    body = rss("<guid>a</guid><pubDate>Mon, 30 Nov 2026 18:00:00 GMT</pubDate>")
    clamped = parse_feed(body, url=URL, fetched_at=FETCHED).entries[0].published
    free = parse_feed(body, url=URL).entries[0].published
    assert clamped is not None and (clamped.value, clamped.clamped) == (FETCHED, True)
    assert free is not None and (free.value, free.clamped) == (
        datetime(2026, 11, 30, 18, tzinfo=UTC),
        False,
    )


def test_a_date_we_cannot_read_has_no_value_even_if_feedparser_guesses_one() -> None:
    # feedparser reads this Unix timestamp as 2015-07-03: a guess is worse than nothing.
    date = (
        parse_feed(rss("<guid>a</guid><pubDate>1518478934</pubDate>"), url=URL).entries[0].published
    )
    assert date is not None
    assert (date.raw, date.value) == ("1518478934", None)


def test_a_naive_fetch_time_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="no timezone"):
        parse_feed(rss(), url=URL, fetched_at=datetime(2026, 11, 30))  # noqa: DTZ001


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000) | st.text(max_size=500).map(lambda t: rss(t)))
def test_any_body_gives_a_feed_or_a_feed_parse_error(body: bytes) -> None:
    try:
        feed = parse_feed(body, url=URL, fetched_at=FETCHED)
    except FeedParseError as error:
        failure: FeedParseError | None = error
    else:
        failure = None
    if failure is not None:
        assert failure.url == URL
        return
    for entry in feed.entries:
        assert entry.id
        assert entry.link is None or entry.link.startswith(("http://", "https://"))
        for text in (entry.title, entry.summary):
            assert text == text.strip() and "  " not in text and "\n" not in text
