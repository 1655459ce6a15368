"""The site's feeds against RFC 4287 (a RELAX NG grammar plus the RFC's other rules) and
the RSS 2.0 specification.

First the validator is shown to fail: small hand-written feeds, each broken in exactly one
way, must be rejected for that reason, and valid ones (extension elements, every kind of
content, an Entry Document) accepted. Then every feed a build writes from an archive full
of hostile text must pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quietedit.model import Publisher
from quietedit.publish import BuildOptions, build_site
from quietedit.publish.atom import FeedSpec, iri_reference, render_feed
from quietedit.publish.pages import Edit, clean_text, safe_http_url
from quietedit.publish.render import Renderer, SiteURLs, template_dirs
from tests.publish.atomcheck import (
    A,
    Problem,
    atom_feed_files,
    atom_problems,
    duplicate_entry_ids,
    duplicate_guids,
    iri_error,
    parse_xml,
    rfc_822_error,
    rfc_3339_error,
    rss_problems,
)
from tests.publish.conftest import BASE_URL, SOURCES, STORIES, Story, write_archive

# --- hand-written Atom -------------------------------------------------------------------

NEWS_FEED = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-GB">
  <title>The Example Courier \N{EN DASH} World</title>
  <subtitle type="html">News from &lt;em&gt;everywhere&lt;/em&gt;</subtitle>
  <link rel="self" type="application/atom+xml" href="https://news.example.org/world/atom.xml"/>
  <link rel="alternate" type="text/html" href="https://news.example.org/world/"/>
  <link rel="alternate" type="text/html" hreflang="fr" href="https://news.example.org/fr/monde/"/>
  <id>tag:news.example.org,2026:world</id>
  <updated>2026-11-28T15:04:00+01:00</updated>
  <author><name>Courier World Desk</name><email>world@news.example.org</email></author>
  <generator uri="https://cms.example.org/" version="4.2">ExampleCMS</generator>
  <rights>© 2026 The Example Courier</rights>
  <entry>
    <title>Council approves Elm river bridge</title>
    <link href="https://news.example.org/world/2026/11/28/bridge-approved"/>
    <id>tag:news.example.org,2026:article-48213</id>
    <published>2026-11-28T06:00:00Z</published>
    <updated>2026-11-28T14:58:12.250Z</updated>
    <category term="politics" scheme="https://news.example.org/sections/" label="Politics"/>
    <summary>The regional council approved the new bridge on Thursday.</summary>
    <content type="html">&lt;p&gt;The regional council approved the new bridge.&lt;/p&gt;</content>
  </entry>
  <entry>
    <title>Storm warning for the coast</title>
    <link rel="alternate" type="text/html" href="https://news.example.org/world/2026/11/28/storm"/>
    <id>tag:news.example.org,2026:article-48214</id>
    <updated>2026-11-28T12:00:00-05:00</updated>
    <summary>Forecasters expect gusts of 120 km/h overnight.</summary>
  </entry>
</feed>
"""

EXTENDED_FEED = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"
      xmlns:dc="http://purl.org/dc/elements/1.1/"
      xmlns:media="http://search.yahoo.com/mrss/"
      xmlns:georss="http://www.georss.org/georss"
      xmlns:x="https://cms.example.org/ns/1"
      xml:base="https://www.example.net/">
  <id>urn:uuid:60a76c80-d399-11d9-b93c-0003939e0af6</id>
  <title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Example Net <b>Daily</b></div>
  </title>
  <updated>2026-11-27T23:59:60Z</updated>
  <icon>/favicon.ico</icon>
  <logo>/static/logo.png</logo>
  <x:editor-in-chief x:since="2019">A. Person</x:editor-in-chief>
  <entry x:priority="high">
    <id>https://www.example.net/politics/minister-interview</id>
    <title>Minister: &#x2018;We will not raise taxes&#x2019;</title>
    <updated>2026-11-27T20:00:00+01:00</updated>
    <author>
      <name>Jana Nováková</name>
      <uri>https://www.example.net/authors/jana</uri>
      <x:twitter>@jana</x:twitter>
    </author>
    <contributor><name>Politics desk</name></contributor>
    <dc:subject>Tax</dc:subject>
    <media:thumbnail url="https://img.example.net/1.jpg" width="120" height="80"/>
    <georss:point>50.08 14.42</georss:point>
    <link rel="enclosure" type="audio/mpeg" length="1337" href="/audio/interview.mp3"/>
    <link rel="http://www.iana.org/assignments/relation/edit" href="/api/items/77"/>
    <content type="xhtml">
      <div xmlns="http://www.w3.org/1999/xhtml"><p>She said <q>no</q>.</p></div>
    </content>
  </entry>
  <entry>
    <id>https://www.example.net/politics/budget-pdf</id>
    <title type="text">Budget (PDF)</title>
    <updated>2026-11-27T18:00:00Z</updated>
    <author><name>Example Net</name></author>
    <summary>The full budget as published by the ministry.</summary>
    <content type="application/pdf" src="/files/budget.pdf"/>
  </entry>
  <entry>
    <id>https://www.example.net/politics/chart</id>
    <title>Chart</title>
    <updated>2026-11-27T17:00:00Z</updated>
    <author><name>Graphics</name></author>
    <summary>Tax revenue, 2016\N{EN DASH}2026.</summary>
    <content type="image/png">iVBORw0KGgo=</content>
  </entry>
  <entry>
    <id>https://www.example.net/politics/data</id>
    <title>Data</title>
    <updated>2026-11-27T16:00:00Z</updated>
    <link href="/politics/data"/>
    <content type="application/xhtml+xml"><html xmlns="http://www.w3.org/1999/xhtml"><body/></html></content>
    <source>
      <id>https://wire.example.com/feed</id>
      <title>Example Wire</title>
      <updated>2026-11-27T15:00:00Z</updated>
      <author><name>Example Wire</name></author>
    </source>
  </entry>
</feed>
"""

ENTRY_DOCUMENT = """<entry xmlns="http://www.w3.org/2005/Atom">
  <id>tag:blog.example.com,2026:mayor</id>
  <title>Mayor resigns</title>
  <updated>2026-11-28T13:30:00Z</updated>
  <author><name>Blog</name></author>
  <content>The mayor resigned on Saturday.</content>
</entry>
"""


@pytest.mark.parametrize(
    "document", [NEWS_FEED, EXTENDED_FEED, ENTRY_DOCUMENT], ids=["news", "extended", "entry"]
)
def test_valid_hand_written_atom_documents_are_accepted(document: str) -> None:
    assert atom_problems(document.encode()) == ()


@dataclass(frozen=True)
class Breakage:
    """One edit to a valid document, and the rule its problem must name."""

    name: str
    old: str
    new: str
    rule: str
    base: str = NEWS_FEED


FIRST_ENTRY_ID = "<id>tag:news.example.org,2026:article-48213</id>"
FIRST_UPDATED = "<updated>2026-11-28T14:58:12.250Z</updated>"
FEED_AUTHOR = (
    "<author><name>Courier World Desk</name><email>world@news.example.org</email></author>"
)
FIRST_CONTENT = (
    '<content type="html">&lt;p&gt;The regional council approved the new bridge.'
    "&lt;/p&gt;</content>"
)
GRAMMAR = "grammar"

BREAKAGES = (
    Breakage("feed without id", "<id>tag:news.example.org,2026:world</id>", "", GRAMMAR),
    Breakage("entry without id", FIRST_ENTRY_ID, "", GRAMMAR),
    Breakage(
        "two titles",
        "<title>The Example Courier \N{EN DASH} World</title>",
        "<title>The Example Courier</title><title>World</title>",
        GRAMMAR,
    ),
    Breakage("two updated in an entry", FIRST_UPDATED, FIRST_UPDATED * 2, GRAMMAR),
    Breakage("date without zone", FIRST_UPDATED, "<updated>2026-11-28T14:58:12</updated>", GRAMMAR),
    Breakage("lower-case t", FIRST_UPDATED, "<updated>2026-11-28t14:58:12Z</updated>", GRAMMAR),
    Breakage(
        "date with a space", FIRST_UPDATED, "<updated>2026-11-28 14:58:12Z</updated>", GRAMMAR
    ),
    Breakage(
        "RFC 822 date", FIRST_UPDATED, "<updated>Sat, 28 Nov 2026 14:58:12 GMT</updated>", GRAMMAR
    ),
    Breakage("month 13", FIRST_UPDATED, "<updated>2026-13-28T14:58:12Z</updated>", "§3.3"),
    Breakage("30 February", FIRST_UPDATED, "<updated>2026-02-30T14:58:12Z</updated>", "§3.3"),
    Breakage("25 o'clock", FIRST_UPDATED, "<updated>2026-11-28T25:58:12Z</updated>", "§3.3"),
    Breakage(
        "published not a date",
        "<published>2026-11-28T06:00:00Z</published>",
        "<published>yesterday</published>",
        GRAMMAR,
    ),
    Breakage(
        "content src without summary",
        "<summary>The regional council approved the new bridge on Thursday.</summary>\n"
        '    <content type="html">&lt;p&gt;The regional council approved the new bridge.'
        "&lt;/p&gt;</content>",
        '<content type="text/html" src="https://news.example.org/world/2026/11/28/bridge"/>',
        "§4.1.2",
    ),
    Breakage(
        "base64 content without summary",
        "<summary>The regional council approved the new bridge on Thursday.</summary>",
        '<content type="image/png">iVBORw0KGgo=</content>',
        "§4.1.2",
        base=NEWS_FEED.replace(
            '<content type="html">&lt;p&gt;The regional council approved the new bridge.'
            "&lt;/p&gt;</content>",
            "",
        ),
    ),
    Breakage("entry without author in an author-less feed", FEED_AUTHOR, "", "§4.1.2"),
    Breakage(
        "xhtml text construct without the div",
        "<title>Council approves Elm river bridge</title>",
        '<title type="xhtml">Council approves <b>Elm</b> river bridge</title>',
        GRAMMAR,
    ),
    Breakage(
        "xhtml div in the wrong namespace",
        "<title>Council approves Elm river bridge</title>",
        '<title type="xhtml"><div>Council approves Elm river bridge</div></title>',
        GRAMMAR,
    ),
    Breakage(
        "html text construct with markup",
        "<summary>The regional council approved the new bridge on Thursday.</summary>",
        '<summary type="html">The <b>regional</b> council</summary>',
        GRAMMAR,
    ),
    Breakage(
        "unknown text construct type",
        "<title>Council approves Elm river bridge</title>",
        '<title type="markdown">Council approves Elm river bridge</title>',
        GRAMMAR,
    ),
    Breakage(
        "relative id",
        FIRST_ENTRY_ID,
        "<id>/world/2026/11/28/bridge-approved</id>",
        GRAMMAR,
    ),
    Breakage(
        "id with a bidi mark",
        FIRST_ENTRY_ID,
        "<id>https://news.example.org/world/\u200fbridge</id>",
        "§4.2.6",
    ),
    Breakage(
        "href with a quote",
        'href="https://news.example.org/world/"',
        'href="https://news.example.org/world/&quot;x"',
        "§4.2.7.1",
    ),
    Breakage(
        "href with a broken escape",
        'href="https://news.example.org/world/"',
        'href="https://news.example.org/world/%zz"',
        "§4.2.7.1",
    ),
    Breakage(
        "two alternate links of one type and language",
        '<link rel="alternate" type="text/html" hreflang="fr" href="https://news.example.org/fr/monde/"/>',
        '<link type="text/html" href="https://news.example.org/fr/monde/"/>',
        "§4.1.1",
    ),
    Breakage(
        "entry without content or alternate link",
        '<link rel="alternate" type="text/html" href="https://news.example.org/world/2026/11/28/storm"/>',
        '<link rel="related" href="https://news.example.org/world/2026/11/28/storm"/>',
        "§4.1.2",
    ),
    Breakage(
        "composite content type",
        '<content type="html">',
        '<content type="multipart/mixed">',
        "§4.1.3.1",
    ),
    Breakage(
        "content src typed html",
        FIRST_CONTENT,
        '<content type="html" src="https://news.example.org/b"/>',
        GRAMMAR,
    ),
    Breakage(
        "content src that is not empty",
        FIRST_CONTENT,
        '<content type="text/html" src="https://news.example.org/b">text</content>',
        GRAMMAR,
    ),
    Breakage(
        "text/plain content with an element",
        FIRST_CONTENT,
        '<content type="text/plain">a <br xmlns="http://www.w3.org/1999/xhtml"/> b</content>',
        GRAMMAR,
    ),
    Breakage(
        "content that is not Base64",
        FIRST_CONTENT,
        '<content type="image/png">not base64!</content>',
        "§4.1.3.3",
    ),
    Breakage(
        "link without href",
        '<link href="https://news.example.org/world/2026/11/28/bridge-approved"/>',
        '<link rel="alternate"/>',
        GRAMMAR,
    ),
    Breakage(
        "bad hreflang",
        'hreflang="fr"',
        'hreflang="French (France)"',
        GRAMMAR,
    ),
    Breakage(
        "rel that is neither a name nor an IRI",
        'rel="self"',
        'rel="my/self"',
        "§4.2.7.2",
    ),
    Breakage("category without term", 'term="politics" ', "", GRAMMAR),
    Breakage(
        "person without name",
        FEED_AUTHOR,
        "<author><email>world@news.example.org</email></author>",
        GRAMMAR,
    ),
    Breakage(
        "email that is not an address",
        "<email>world@news.example.org</email>",
        "<email>world desk</email>",
        GRAMMAR,
    ),
    Breakage(
        "undefined Atom element",
        "<rights>",
        "<atom-ish>x</atom-ish><rights>",
        GRAMMAR,
    ),
    Breakage(
        "unqualified attribute on an Atom element",
        "<title>Council approves Elm river bridge</title>",
        '<title style="bold">Council approves Elm river bridge</title>',
        GRAMMAR,
    ),
    Breakage(
        "metadata after the entries",
        "</feed>",
        "<logo>https://news.example.org/logo.png</logo></feed>",
        GRAMMAR,
    ),
    Breakage(
        "Atom 0.3 namespace",
        'xmlns="http://www.w3.org/2005/Atom"',
        'xmlns="http://purl.org/atom/ns#"',
        GRAMMAR,
    ),
    Breakage(
        "repeated id with the same updated",
        "<id>tag:news.example.org,2026:article-48214</id>\n"
        "    <updated>2026-11-28T12:00:00-05:00</updated>",
        FIRST_ENTRY_ID + "\n    " + FIRST_UPDATED,
        "§4.1.1 (SHOULD)",
    ),
    Breakage("not well-formed", "</rights>", "</right>", "XML 1.0"),
    Breakage(
        "a control character",
        "<rights>© 2026",
        "<rights>&#x1b;© 2026",
        "XML 1.0",
    ),
)


def _rules(problems: tuple[Problem, ...]) -> str:
    return " | ".join(str(p) for p in problems)


@pytest.mark.parametrize("breakage", BREAKAGES, ids=[b.name for b in BREAKAGES])
def test_a_feed_broken_in_one_way_is_rejected_for_that_reason(breakage: Breakage) -> None:
    assert breakage.base.count(breakage.old) == 1, "the edit must apply exactly once"
    assert atom_problems(breakage.base.encode()) == ()
    problems = atom_problems(breakage.base.replace(breakage.old, breakage.new).encode())
    assert problems, breakage.name
    expected = "RFC 4287 grammar" if breakage.rule == GRAMMAR else breakage.rule
    assert any(expected in p.rule for p in problems), _rules(problems)


def test_every_atom_rule_beyond_the_grammar_names_its_rfc_section() -> None:
    broken = NEWS_FEED.replace(FEED_AUTHOR, "").replace(
        FIRST_UPDATED, "<updated>2026-02-30T00:00:00Z</updated>"
    )
    problems = atom_problems(broken.encode())
    assert {p.rule for p in problems} == {"RFC 4287 §4.1.2", "RFC 4287 §3.3"}
    assert all("line" in p.where for p in problems)
    # both entries lack an author: every problem is reported, not only the first
    assert sum(p.rule == "RFC 4287 §4.1.2" for p in problems) == 2


def test_an_entity_is_never_expanded_nor_fetched() -> None:
    document = (
        '<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        + NEWS_FEED.split("?>", 1)[1].replace("ExampleCMS", "&x;")
    )
    root, problem = parse_xml(document.encode())
    assert problem is None
    assert "root:" not in (root.findtext(f"{A}generator") or "")


def test_an_entry_may_take_its_author_from_its_atom_source() -> None:
    # EXTENDED_FEED has no feed author; its last entry's only author is its source's
    assert atom_problems(EXTENDED_FEED.encode()) == ()
    unsourced = EXTENDED_FEED.replace("<author><name>Example Wire</name></author>", "")
    problems = atom_problems(unsourced.encode())
    assert [p.rule for p in problems] == ["RFC 4287 §4.1.2"]
    assert "/*[10]" in problems[0].where  # the fourth entry, after six metadata children


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("2026-11-28T07:30:00Z", True),
        ("2026-11-28T07:30:00.123456+05:30", True),
        ("2024-02-29T00:00:00Z", True),
        ("2026-12-31T23:59:60Z", True),
        ("2025-02-29T00:00:00Z", False),
        ("2026-11-28T07:30:00z", False),
        ("2026-11-28T07:30:00+24:00", False),
        ("2026-11-28T07:60:00Z", False),
        ("2026-11-28", False),
    ],
)
def test_rfc_3339_dates_must_exist_on_the_calendar(text: str, ok: bool) -> None:
    assert (rfc_3339_error(text) is None) is ok


# --- hand-written RSS --------------------------------------------------------------------

NEWS_RSS = """<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>The Example Courier \N{EN DASH} World</title>
    <link>https://news.example.org/world/</link>
    <description>World news from the Example Courier.</description>
    <atom:link rel="self" type="application/rss+xml" href="https://news.example.org/world/rss.xml"/>
    <lastBuildDate>Sat, 28 Nov 2026 15:04:00 +0100</lastBuildDate>
    <item>
      <title>Council approves Elm river bridge</title>
      <link>https://news.example.org/world/2026/11/28/bridge-approved</link>
      <guid>https://news.example.org/world/2026/11/28/bridge-approved</guid>
      <pubDate>Sat, 28 Nov 2026 06:00:00 GMT</pubDate>
      <dc:creator>Courier World Desk</dc:creator>
    </item>
    <item>
      <description>Forecasters expect gusts of 120 km/h overnight.</description>
      <guid isPermaLink="false">courier-48214</guid>
      <pubDate>28 Nov 2026 12:00 EST</pubDate>
      <enclosure url="https://news.example.org/audio/storm.mp3" length="1337" type="audio/mpeg"/>
    </item>
  </channel>
</rss>
"""

RSS_BREAKAGES = (
    Breakage(
        "channel without title",
        "<title>The Example Courier \N{EN DASH} World</title>",
        "",
        "channel",
        NEWS_RSS,
    ),
    Breakage(
        "channel without description",
        "<description>World news from the Example Courier.</description>",
        "",
        "channel",
        NEWS_RSS,
    ),
    Breakage(
        "channel link not a URL",
        "<link>https://news.example.org/world/</link>",
        "<link>the world desk</link>",
        "<link>",
        NEWS_RSS,
    ),
    Breakage(
        "item with neither title nor description",
        "<description>Forecasters expect gusts of 120 km/h overnight.</description>",
        "",
        "<item>",
        NEWS_RSS,
    ),
    Breakage(
        "ISO date",
        "<pubDate>Sat, 28 Nov 2026 06:00:00 GMT</pubDate>",
        "<pubDate>2026-11-28T06:00:00Z</pubDate>",
        "<pubDate>",
        NEWS_RSS,
    ),
    Breakage(
        "wrong weekday",
        "<pubDate>Sat, 28 Nov 2026 06:00:00 GMT</pubDate>",
        "<pubDate>Fri, 28 Nov 2026 06:00:00 GMT</pubDate>",
        "<pubDate>",
        NEWS_RSS,
    ),
    Breakage(
        "lastBuildDate 31 November",
        "Sat, 28 Nov 2026 15:04:00 +0100",
        "31 Nov 2026 15:04:00 +0100",
        "<lastBuildDate>",
        NEWS_RSS,
    ),
    Breakage(
        "permalink guid that is not a URL",
        '<guid isPermaLink="false">courier-48214</guid>',
        "<guid>courier-48214</guid>",
        "<guid>",
        NEWS_RSS,
    ),
    Breakage(
        "isPermaLink neither true nor false",
        'isPermaLink="false"',
        'isPermaLink="no"',
        "<guid>",
        NEWS_RSS,
    ),
    Breakage("enclosure without length", 'length="1337" ', "", "<enclosure>", NEWS_RSS),
    Breakage("RSS 0.91", 'version="2.0"', 'version="0.91"', "RSS 2.0", NEWS_RSS),
)


def test_a_valid_hand_written_rss_feed_is_accepted() -> None:
    assert rss_problems(NEWS_RSS.encode()) == ()


@pytest.mark.parametrize("breakage", RSS_BREAKAGES, ids=[b.name for b in RSS_BREAKAGES])
def test_an_rss_feed_broken_in_one_way_is_rejected_for_that_reason(breakage: Breakage) -> None:
    assert breakage.base.count(breakage.old) == 1
    problems = rss_problems(breakage.base.replace(breakage.old, breakage.new).encode())
    assert any(breakage.rule in p.rule for p in problems), _rules(problems)


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("Sat, 28 Nov 2026 07:30:00 GMT", True),
        ("28 Nov 26 07:30 +0000", True),
        ("Sat, 28 Nov 2026 07:30:00 Z", True),
        ("Sat, 28 Nov 2026 07:30:00", False),
        ("Saturday, 28 Nov 2026 07:30:00 GMT", False),
        ("Sat, 28 nov 2026 07:30:00 GMT", False),
    ],
)
def test_rss_dates_are_rfc_822(text: str, ok: bool) -> None:
    assert (rfc_822_error(text) is None) is ok


# --- the feeds a build writes ------------------------------------------------------------

RTL_WORD = "\u200f\u05e2\u05d1\u05e8\u05d9\u05ea\u200f"  # a Hebrew word between RTL marks
FRAKTUR = "\U0001d518\U0001d52b\U0001d526\U0001d520\U0001d52c\U0001d521\U0001d522"  # astral
HOSTILE_HEADLINE = (
    "Breaking\x00\x01\x1b\x0c ]]> <![CDATA[ <script>alert(1)</script> \u202eevil\u202c "
    f"{RTL_WORD} {FRAKTUR} 🦆 \ufffe\uffff &amp; &lt; \u2028\x85 end"
)
HOSTILE_BODY = (
    "Quoted ]]> and <![CDATA[x]]> with \x0b\x7f and 🦆 in it.",
    "مرحبا \u200f(RTL) then \U0001d54f and a tab\tand\r\nCRLF.",
)
ODD_URL = 'https://news.example.org/a"b<c>{d}|e^f`g\u200fh%zz\u202e'
HOSTILE_STORIES = (
    *STORIES,
    Story(
        "https://news.example.org/world/2026/11/29/hostile",
        ("courier-world",),
        (
            ("A calm headline", HOSTILE_BODY, Publisher(date_published="2026-11-28T06:00:00Z")),
            (
                HOSTILE_HEADLINE,
                (HOSTILE_BODY[0] + " ]]>", HOSTILE_BODY[1]),
                Publisher(date_published="not a date \x00"),
            ),
        ),
    ),
    # an archive record whose URL was never canonicalised (older archive, hand edit)
    Story(
        ODD_URL,
        ("courier-world",),
        (("Odd URL", ("One.",), Publisher()), ("Odd URL, edited", ("Two.",), Publisher())),
    ),
)


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile-feeds")
    write_archive(root / "data", HOSTILE_STORIES)
    out = root / "site"
    report = build_site(
        BuildOptions(
            data=root / "data",
            out=out,
            base_url=BASE_URL,
            sources=SOURCES,
            search=False,
            workers=1,
            # watched terms the hostile text holds: their feeds quote it, marked
            watch=("alert", "mayor", "🦆"),
        )
    )
    assert not report.failures, report.failures
    return out


def test_every_atom_feed_of_a_hostile_archive_is_valid_rfc_4287(hostile_site: Path) -> None:
    feeds = atom_feed_files(hostile_site)
    names = {path.relative_to(hostile_site).as_posix() for path in feeds}
    # main and 3 per-source (2 configured + 1 by host), and the filtered feeds of the site
    # and of each source: articles have no feed of their own
    assert {
        "feed.xml",
        "feeds/silent.xml",
        "feeds/headlines.xml",
        "feeds/significant.xml",
        "feeds/kinds/headline.xml",
        "feeds/watch/alert.xml",
        "feeds/watch/mayor.xml",
        "sources/courier-world/feed.xml",
        "sources/courier-world/feeds/headlines.xml",
        "sources/blog-example-com/feeds/watch/alert.xml",
    } <= names, names
    assert all(n == "feed.xml" or n.startswith(("feeds/", "sources/")) for n in names), names
    assert len([n for n in names if n.endswith("/feed.xml")]) == 3
    assert (hostile_site / "feeds/watch/alert.xml").read_text().count("<entry>") >= 1
    for path in feeds:
        data = path.read_bytes()
        assert atom_problems(data) == (), (path, _rules(atom_problems(data)))
        assert duplicate_entry_ids(data) == [], path


def test_every_rss_twin_of_a_hostile_archive_is_valid_rss_2(hostile_site: Path) -> None:
    twins = sorted(hostile_site.rglob("*.rss"))
    assert len(twins) == 1 + 3
    for path in twins:
        data = path.read_bytes()
        assert rss_problems(data) == (), (path, _rules(rss_problems(data)))
        assert duplicate_guids(data) == [], path


def test_hostile_text_reaches_the_feed_as_text(hostile_site: Path) -> None:
    """The validity above is not the hostile text having been dropped."""
    root, _ = parse_xml((hostile_site / "feed.xml").read_bytes())
    titles = [entry.findtext(f"{A}title") or "" for entry in root.iterfind(f"{A}entry")]
    hostile = next(t for t in titles if t.startswith("Breaking"))
    for kept in (
        "]]>",
        "<script>",
        "\u202e",
        RTL_WORD,
        FRAKTUR,
        "🦆",
        "&amp;",
    ):
        assert kept in hostile, kept
    for dropped in ("\x00", "\x01", "\x1b", "\x0c", "\ufffe", "\uffff"):
        assert dropped not in hostile, repr(dropped)


def test_a_non_canonical_archive_url_is_percent_encoded_in_the_related_link(
    hostile_site: Path,
) -> None:
    root, _ = parse_xml((hostile_site / "feed.xml").read_bytes())
    related = [link.get("href") for link in root.iter(f"{A}link") if link.get("rel") == "related"]
    encoded = "https://news.example.org/a%22b%3Cc%3E%7Bd%7D%7Ce%5Ef%60g%E2%80%8Fh%25zz%E2%80%AE"
    assert encoded in related


@settings(deadline=None)
@given(st.text(max_size=40))
def test_iri_reference_makes_any_http_url_a_valid_iri_and_is_idempotent(path: str) -> None:
    url = safe_http_url("https://news.example.org/" + path)
    if url is None:
        return
    once = iri_reference(url)
    assert iri_error(once, absolute=True) is None, once
    assert iri_reference(once) == once


RENDERER = Renderer(template_dirs(None), urls=SiteURLs.parse(BASE_URL))


def edit_of(title: str, old_title: str, url: str | None, kinds: tuple[str, ...]) -> Edit:
    """An edit as ``pages.make_edit`` builds one: archive text through ``clean_text``."""
    return Edit(
        document="news-example-org-0123456789abcdef",
        number=2,
        observed_at="2026-11-28T10:30:00Z",
        previous_at="2026-11-28T07:30:00Z",
        title=clean_text(title),
        old_title=clean_text(old_title),
        url=safe_http_url(url),
        source="courier-world",
        kinds=kinds,
        significance="minor",
        rank=1,
        silent=True,
        excerpt=(
            ("=", clean_text(old_title)),
            ("-", clean_text(title)),
            ("+", clean_text(url or "")),
        ),
        summary="1 paragraph changed",
        published=None,
    )


@settings(max_examples=60, deadline=None)
@given(
    title=st.text(),
    old_title=st.text(max_size=20),
    url=st.none() | st.text(max_size=30).map(lambda s: "https://news.example.org/" + s),
    kinds=st.lists(st.sampled_from(["facts", "headline", "correction", "style"]), unique=True),
)
def test_a_feed_of_any_archive_text_is_valid_atom_and_rss(
    title: str, old_title: str, url: str | None, kinds: list[str]
) -> None:
    edit = edit_of(title, old_title, url, tuple(kinds))
    spec = FeedSpec(
        "sources/courier-world/feed", clean_text(title) or "x", "sources/courier-world/"
    )
    out = render_feed(RENDERER, spec, [edit])
    atom = out["sources/courier-world/feed.xml"].encode()
    assert atom_problems(atom) == (), _rules(atom_problems(atom))
    rss = out["sources/courier-world/feed.rss"].encode()
    assert rss_problems(rss) == (), _rules(rss_problems(rss))
