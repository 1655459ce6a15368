"""Canonical URLs: one URL per article, whatever variant a feed or a redirect gave us."""

from __future__ import annotations

import socket

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from quietedit.article import identity
from quietedit.article.identity import (
    canonical_url,
    document_id,
    is_document_id,
    normalise_url,
    registrable_domain,
)
from quietedit.article.tracking import drops_parameter
from quietedit.errors import InvalidURLError, QuieteditError

STORY = "https://www.example.com/politics/2026/11/30/council-budget-vote"

# (what it shows, input, canonical form)
TABLE = [
    ("identity", STORY, STORY),
    (
        "scheme and host lower-cased",
        "HTTPS://WWW.Example.COM/politics/Story",
        "https://www.example.com/politics/Story",
    ),
    ("path case kept", "https://example.com/News/Story-1", "https://example.com/News/Story-1"),
    ("default https port dropped", "https://example.com:443/a", "https://example.com/a"),
    ("default http port dropped", "http://example.com:80/a", "http://example.com/a"),
    ("other port kept", "https://example.com:8443/a", "https://example.com:8443/a"),
    ("credentials dropped", "https://user:secret@example.com/a", "https://example.com/a"),
    ("empty path is /", "https://example.com", "https://example.com/"),
    ("trailing dot of host dropped", "https://example.com./a", "https://example.com/a"),
    ("fragment dropped", "https://example.com/a#comments", "https://example.com/a"),
    ("hashbang route kept", "https://example.com/#!/story/1", "https://example.com/#!/story/1"),
    (
        "hashbang route escapes normalised",
        "https://example.com/#!/story/ä%2f",
        "https://example.com/#!/story/%C3%A4%2F",
    ),
    ("utm parameters dropped", f"{STORY}?utm_source=rss&utm_medium=feed&utm_campaign=x", STORY),
    ("fbclid and gclid dropped", f"{STORY}?fbclid=IwAR3&gclid=Cj0K", STORY),
    ("mailchimp ids dropped", f"{STORY}?mc_cid=1a2b&mc_eid=3c4d", STORY),
    (
        "heise webtrekk dropped",
        "https://www.heise.de/news/Story-123.html?wt_mc=rss.red.ho.ho.atom.beitrag.beitrag",
        "https://www.heise.de/news/Story-123.html",
    ),
    (
        "bbc at_ and ns_ dropped",
        "https://www.bbc.co.uk/news/uk-123?at_medium=RSS&at_campaign=KARANGA&ns_source=x",
        "https://www.bbc.co.uk/news/uk-123",
    ),
    ("tracking names compared without case", f"{STORY}?UTM_Source=x&FBCLID=y", STORY),
    (
        "content parameters kept and sorted",
        "https://example.com/article.php?page=2&id=17",
        "https://example.com/article.php?id=17&page=2",
    ),
    (
        "repeated parameters keep their order",
        "https://example.com/s?b=2&a=9&a=1",
        "https://example.com/s?a=9&a=1&b=2",
    ),
    (
        "content ids kept, the rule set's trackers dropped",
        "https://example.com/s?ref=7&sid=42&source=rss&cid=4512&id=9&nid=3",
        "https://example.com/s?cid=4512&id=9&nid=3&sid=42",
    ),
    ("empty query items dropped", "https://example.com/s?&id=1&&", "https://example.com/s?id=1"),
    (
        "session id parameters dropped",
        "https://example.com/s?PHPSESSID=abc123&id=1",
        "https://example.com/s?id=1",
    ),
    (
        "jsessionid path parameter dropped",
        "https://example.com/story;jsessionid=0A1B2C?id=1",
        "https://example.com/story?id=1",
    ),
    ("dot segments resolved", "https://example.com/a/./b/../c", "https://example.com/a/c"),
    ("dot segments above root stop there", "https://example.com/../../a", "https://example.com/a"),
    ("escape case normalised", "https://example.com/caf%c3%a9", "https://example.com/caf%C3%A9"),
    (
        "unreserved escapes decoded",
        "https://example.com/%7Euser/%41rticle",
        "https://example.com/~user/Article",
    ),
    (
        "unicode path percent-encoded",
        "https://example.com/straße/ä",
        "https://example.com/stra%C3%9Fe/%C3%A4",
    ),
    ("space percent-encoded", "https://example.com/a b?q=c d", "https://example.com/a%20b?q=c%20d"),
    ("invalid escape encoded as %25", "https://example.com/100%zz", "https://example.com/100%25zz"),
    ("plus kept as written", "https://example.com/s?q=a+b", "https://example.com/s?q=a+b"),
    (
        "backslashes are slashes",
        "https:\\\\example.com\\news\\story",
        "https://example.com/news/story",
    ),
    ("tabs and newlines removed", "https://exam\tple.com/st\nory", "https://example.com/story"),
    (
        "surrounding space and controls trimmed",
        " \x00https://example.com/a\x1f ",
        "https://example.com/a",
    ),
    (
        "idn host to punycode",
        "https://münchen.example/straße",
        "https://xn--mnchen-3ya.example/stra%C3%9Fe",
    ),
    (
        "uts46 mapping of full-width host",
        "https://\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com/a",
        "https://example.com/a",
    ),
    ("punycode host kept", "https://xn--mnchen-3ya.de/a", "https://xn--mnchen-3ya.de/a"),
    ("ipv6 host compressed", "http://[2001:DB8:0:0::1]:8080/a", "http://[2001:db8::1]:8080/a"),
    ("ipv4 host kept", "http://192.0.2.7/a", "http://192.0.2.7/a"),
    ("index.html folded", "https://example.com/news/index.html", "https://example.com/news/"),
    ("index.htm at root folded", "https://example.com/index.htm", "https://example.com/"),
    (
        "index.php kept (a script)",
        "https://example.com/index.php?id=3",
        "https://example.com/index.php?id=3",
    ),
    ("bare directory not folded", "https://example.com/news", "https://example.com/news"),
    ("amp query flag dropped", f"{STORY}?amp=1", STORY),
    ("valueless amp flag dropped", f"{STORY}?amp", STORY),
    ("outputType=amp dropped", f"{STORY}?outputType=amp", STORY),
    ("other outputType kept", f"{STORY}?outputType=print", f"{STORY}?outputType=print"),
    (
        "trailing /amp/ segment dropped",
        "https://example.com/2026/11/story/amp/",
        "https://example.com/2026/11/story/",
    ),
    (
        "leading /amp/ segment dropped",
        "https://www.bbc.co.uk/news/amp/uk-123",
        "https://www.bbc.co.uk/news/uk-123",
    ),
    ("a lone /amp page kept", "https://example.com/amp", "https://example.com/amp"),
    (
        ".amp suffix dropped",
        "https://example.com/news/story-123.amp",
        "https://example.com/news/story-123",
    ),
    (
        ".amp.html suffix dropped",
        "https://example.com/news/story-123.amp.html",
        "https://example.com/news/story-123.html",
    ),
    (
        "amp host to www",
        "https://amp.example.co.uk/news/story",
        "https://www.example.co.uk/news/story",
    ),
    (
        "amp subdomain label dropped",
        "https://amp.news.example.com/story",
        "https://news.example.com/story",
    ),
    (
        "amp cache unwrapped",
        "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/news/story?id=2",
        "https://www.example.com/news/story?id=2",
    ),
    (
        "amp cache http origin",
        "https://blog-example-org.cdn.ampproject.org/c/blog.example.org/p/1",
        "http://blog.example.org/p/1",
    ),
    (
        "amp viewer cache unwrapped",
        "https://www-example-com.cdn.ampproject.org/v/s/www.example.com/story/amp/?amp_js_v=0.1&usqp=mq331AQ",
        "https://www.example.com/story/",
    ),
    (
        "google amp viewer unwrapped",
        "https://www.google.com/amp/s/www.example.com/news/story.amp",
        "https://www.example.com/news/story",
    ),
    (
        "amp.dev itself is not a variant",
        "https://amp.dev/documentation/",
        "https://amp.dev/documentation/",
    ),
    (
        "m. host to www",
        "https://m.spiegel.de/politik/story-a-1.html",
        "https://www.spiegel.de/politik/story-a-1.html",
    ),
    ("mobile. host to www", "https://mobile.example.com/story", "https://www.example.com/story"),
    (
        "m. label under a subdomain dropped",
        "https://m.news.example.com/story",
        "https://news.example.com/story",
    ),
    ("m. host that is the registrable domain kept", "https://m.co/story", "https://m.co/story"),
    (
        "leading /m/ path dropped",
        "https://example.com/m/news/story-1",
        "https://example.com/news/story-1",
    ),
    (
        "leading /mobile/ path dropped",
        "https://example.com/mobile/story-1",
        "https://example.com/story-1",
    ),
    ("a lone /m page kept", "https://example.com/m", "https://example.com/m"),
    (
        "/m/ later in the path kept",
        "https://example.com/news/m/story",
        "https://example.com/news/m/story",
    ),
    (
        "blogger mobile flag dropped",
        "https://x.blogspot.com/2026/11/post.html?m=1",
        "https://x.blogspot.com/2026/11/post.html",
    ),
    (
        "every variant at once",
        "HTTPS://M.Example.com:443/m/amp/news/../politics/index.amp.html?utm_source=t&amp=1&id=5#top",
        "https://www.example.com/politics/?id=5",
    ),
]


@pytest.mark.parametrize(("case", "url", "expected"), TABLE, ids=[row[0] for row in TABLE])
def test_canonical_form(case: str, url: str, expected: str) -> None:
    assert canonical_url(url) == expected
    assert canonical_url(expected) == expected


def test_the_table_is_at_least_forty_cases_and_names_each_once() -> None:
    names = [row[0] for row in TABLE]
    assert len(names) >= 40
    assert len(set(names)) == len(names)


def test_variants_of_one_article_share_one_document_id() -> None:
    variants = [
        STORY,
        f"{STORY}?utm_source=rss#comments",
        f"{STORY}/amp?amp=1",
        STORY.replace("www.", "m.") + "?fbclid=x",
        STORY.replace("https://www.example.com/", "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/"),
        STORY.replace("https://www.", "HTTPS://WWW.").replace(".com/", ".com:443/"),
    ]  # fmt: skip
    assert {document_id(canonical_url(url)) for url in variants} == {
        document_id(canonical_url(STORY))
    }


# --- the page's own claim -----------------------------------------------------------


def page(head: str, body: str = "<p>The council approved the budget.</p>") -> str:
    return (
        f"<!DOCTYPE html><html><head><title>Budget</title>{head}</head><body>{body}</body></html>"
    )


PAGE_URL = "https://www.example.com/politics/2026/11/30/council-budget-vote?utm_source=rss"
OWN = "https://www.example.com/politics/2026/11/30/council-budget-vote"

HTML_CASES = [
    (
        "relative canonical believed",
        '<link rel="canonical" href="/politics/council-budget-vote-1.123">',
        "https://www.example.com/politics/council-budget-vote-1.123",
    ),
    (
        "canonical on a sibling subdomain believed",
        '<link rel="canonical" href="https://news.example.com/p/2026/budget">',
        "https://news.example.com/p/2026/budget",
    ),
    (
        "canonical is normalised too",
        '<link rel="canonical" href="https://WWW.example.com/politics/budget-vote-7?utm_medium=x#top">',
        "https://www.example.com/politics/budget-vote-7",
    ),
    (
        "rel tokens in any case and order",
        '<link rel="alternate Canonical" href="/story-8">',
        "https://www.example.com/story-8",
    ),
    (
        "base href applies",
        '<base href="https://www.example.com/archive/"><link rel="canonical" href="story-9">',
        "https://www.example.com/archive/story-9",
    ),
    (
        "og:url when there is no canonical",
        '<meta property="og:url" content="https://www.example.com/og/story-10">',
        "https://www.example.com/og/story-10",
    ),
    (
        "canonical before og:url",
        '<meta property="og:url" content="/og-11"><link rel="canonical" href="/canonical-11">',
        "https://www.example.com/canonical-11",
    ),
    (
        "cross-publisher canonical ignored (syndication)",
        '<link rel="canonical" href="https://www.wire-service.org/politics/council-budget-vote">',
        OWN,
    ),
    (
        "cross-publisher og:url ignored",
        '<meta property="og:url" content="https://partner.example.net/story">',
        OWN,
    ),
    (
        "look-alike domain is another publisher",
        '<link rel="canonical" href="https://www.example.com.evil.org/x-1">',
        OWN,
    ),
    (
        "same name on another public suffix",
        '<link rel="canonical" href="https://www.example.co.uk/politics/x-1">',
        OWN,
    ),
    (
        "canonical to the home page ignored",
        '<link rel="canonical" href="https://www.example.com/">',
        OWN,
    ),
    ("canonical to a section ignored", '<link rel="canonical" href="/politics/">', OWN),
    ("canonical to a two-word section ignored", '<link rel="canonical" href="/world-news">', OWN),
    ("canonical to a language home ignored", '<link rel="canonical" href="/de/">', OWN),
    ("canonical to a language section ignored", '<link rel="canonical" href="/de/politik">', OWN),
    (
        "single-segment article slug believed",
        '<link rel="canonical" href="/council-approves-budget-after-late-night-debate">',
        "https://www.example.com/council-approves-budget-after-late-night-debate",
    ),
    (
        "numeric single segment believed",
        '<link rel="canonical" href="/12345678">',
        "https://www.example.com/12345678",
    ),
    (
        "home with a query is an article (?p=)",
        '<link rel="canonical" href="https://www.example.com/?p=4711">',
        "https://www.example.com/?p=4711",
    ),
    (
        "two different canonicals: neither believed",
        '<link rel="canonical" href="/a-1"><link rel="canonical" href="/b-2">',
        OWN,
    ),
    (
        "two different canonicals fall back to og:url",
        '<link rel="canonical" href="/a-1"><link rel="canonical" href="/b-2">'
        '<meta property="og:url" content="/c-3">',
        "https://www.example.com/c-3",
    ),
    (
        "the same canonical twice is one claim",
        '<link rel="canonical" href="/a-1"><link rel="canonical" href="https://www.example.com/a-1">',
        "https://www.example.com/a-1",
    ),
    (
        "unusable canonical skipped for og:url",
        '<link rel="canonical" href="javascript:alert(1)">'
        '<meta property="og:url" content="//www.example.com/six-6">',
        "https://www.example.com/six-6",
    ),
    ("empty canonical ignored", '<link rel="canonical" href="  ">', OWN),
    ("canonical in the body ignored", "", OWN),
]


@pytest.mark.parametrize(("case", "head", "expected"), HTML_CASES, ids=[r[0] for r in HTML_CASES])
def test_the_pages_own_claim(case: str, head: str, expected: str) -> None:
    body = '<p>Text</p><link rel="canonical" href="/from-the-body-1">'
    assert canonical_url(PAGE_URL, html=page(head, body)) == expected


def test_a_section_page_may_name_itself() -> None:
    html = page('<link rel="canonical" href="https://www.example.com/politics/">')
    assert canonical_url("https://www.example.com/politics/?utm_source=x", html=html) == (
        "https://www.example.com/politics/"
    )


def test_a_short_slug_may_name_itself_with_a_trailing_slash() -> None:
    html = page('<link rel="canonical" href="https://words.example.org/keyserver-tlog/">')
    assert canonical_url("https://words.example.org/keyserver-tlog", html=html) == (
        "https://words.example.org/keyserver-tlog/"
    )
    other = page('<link rel="canonical" href="https://words.example.org/archive/">')
    assert canonical_url("https://words.example.org/keyserver-tlog", html=other) == (
        "https://words.example.org/keyserver-tlog"
    )


def test_hashbang_pages_keep_their_route_against_a_home_canonical() -> None:
    html = page('<link rel="canonical" href="https://example.com/">')
    assert canonical_url("https://example.com/#!/story/1", html=html) == (
        "https://example.com/#!/story/1"
    )


# --- hostile input ------------------------------------------------------------------

INVALID = [
    ("javascript", "javascript:alert(document.cookie)"),
    ("data", "data:text/html;base64,PHNjcmlwdD4="),
    ("mailto", "mailto:desk@example.com"),
    ("ftp", "ftp://example.com/file"),
    ("relative", "/politics/story"),
    ("no scheme", "www.example.com/story"),
    ("empty", ""),
    ("only spaces", "   "),
    ("no host", "https:///"),
    ("space in host", "https://exa mple.com/"),
    ("control char in host", "https://exa\x01mple.com/"),
    ("underscore-free garbage host", "https://<script>/"),
    ("invalid punycode", "https://xn--a.com/"),
    ("invalid idna", "https://a\u200db.example/"),
    ("undecodable host escape", "https://%ff.example/"),
    ("port not a number", "https://example.com:http/"),
    ("port out of range", "https://example.com:65536/"),
    ("unclosed ipv6", "http://[::1/"),
    ("invalid ipv6", "http://[::g]/"),
    ("label too long", "https://" + "a" * 64 + ".com/"),
    ("huge", "https://example.com/" + "a" * 9000),
    ("lone surrogate", "https://example.com/\ud800"),
]


@pytest.mark.parametrize(("case", "url"), INVALID, ids=[row[0] for row in INVALID])
def test_unusable_urls_raise_invalid_url_error_naming_them(case: str, url: str) -> None:
    with pytest.raises(InvalidURLError) as raised:
        canonical_url(url)
    assert raised.value.url == url
    assert str(raised.value).startswith("URL ")
    assert len(str(raised.value)) < 400
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, QuieteditError)


def test_the_message_teaches_the_fix() -> None:
    with pytest.raises(InvalidURLError, match="write it with https://"):
        canonical_url("www.example.com/story")
    with pytest.raises(InvalidURLError, match="not an http"):
        canonical_url("javascript:alert(1)")


@pytest.mark.parametrize(
    "html",
    ["", "\x00\x00", "<<<<>>>>", "<head><link rel=canonical href='http://[::1'>", "<" * 5000,
     '<html><head><link rel="canonical" href="https://%ff/"></head>',
     '<head><base href="javascript:x"><link rel=canonical href="/story-1"></head>'],
)  # fmt: skip
def test_bad_html_is_never_an_error(html: str) -> None:
    result = canonical_url(PAGE_URL, html=html)
    assert result in (OWN, "https://www.example.com/story-1")


# --- registrable domains, offline -----------------------------------------------------


@pytest.mark.parametrize(
    ("host", "domain"),
    [
        ("www.example.com", "example.com"),
        ("news.bbc.co.uk", "bbc.co.uk"),
        ("alice.blogspot.com", "alice.blogspot.com"),
        ("co.uk", "co.uk"),
        ("localhost", "localhost"),
        ("192.0.2.7", "192.0.2.7"),
        ("[2001:db8::1]", "[2001:db8::1]"),
    ],
)
def test_registrable_domain(host: str, domain: str) -> None:
    assert registrable_domain(host) == domain


def test_the_public_suffix_list_loads_without_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("the public suffix list tried to use the network")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    identity._public_suffix_list.cache_clear()
    try:
        assert registrable_domain("www.theguardian.co.uk") == "theguardian.co.uk"
    finally:
        identity._public_suffix_list.cache_clear()


def test_tracking_denylist_decides_by_name_prefix_and_view_value() -> None:
    assert drops_parameter("utm_content", "x") and drops_parameter("PK_CAMPAIGN", "x")
    assert drops_parameter("amp", "") and drops_parameter("m", "1")
    assert not drops_parameter("m", "12") and not drops_parameter("id", "7")
    assert not drops_parameter("outputType", "print")


# --- properties ---------------------------------------------------------------------

URL_PIECES = st.sampled_from(
    ["https://", "http://", "HTTPS://", "www.", "m.", "amp.", "example.com", "bbc.co.uk",
     "münchen.de", ".cdn.ampproject.org", "/c/s/", ":443", ":8080", "/", "/amp", "/m/",
     "/index.html", ".amp", "/../", "/./", "?", "&", "=", "#", "#!", "utm_source", "amp",
     "id", "%", "%41", "%zz", "%c3%a4", "ä", " ", "\\", ";jsessionid=1", "@", "[::1]", "x",
     "1", "-", "_", ".", "\t", "\x00", "\ud800"]
)  # fmt: skip


@given(st.lists(URL_PIECES, max_size=25).map("".join))
@example("https://example.com/%%34%31")
@example("https://example.com/a/..amp")
@example("https://m.amp.m.example.com/m/m/amp/index.amp.html")
def test_canonicalisation_is_idempotent(url: str) -> None:
    try:
        once = canonical_url(url)
    except InvalidURLError:
        return
    assert canonical_url(once) == once
    assert once.isascii() and once.startswith(("http://", "https://"))
    assert is_document_id(document_id(once))


@given(st.text(max_size=300))
def test_arbitrary_text_never_raises_anything_but_invalid_url_error(text: str) -> None:
    for url in (text, "https://" + text, "https://example.com/" + text):
        try:
            once = canonical_url(url)
        except InvalidURLError:
            continue
        assert normalise_url(once) == once


HTML_PIECES = st.sampled_from(
    ["<head>", "</head>", "<body>", "<base href=", "<link rel=canonical href=", "<link rel=",
     "<meta property=og:url content=", '"', "'", ">", "/story-1", "https://www.example.com/",
     "//other.org/x", "javascript:", "http://[::1", "%ff", "\x00", "\ud800", " ", "canonical",
     "<!--", "-->"]
)  # fmt: skip


@given(st.one_of(st.text(max_size=400), st.lists(HTML_PIECES, max_size=30).map("".join)))
def test_arbitrary_html_never_raises(html: str) -> None:
    result = canonical_url(PAGE_URL, html=html)
    assert canonical_url(result) == result
    assert registrable_domain(result.split("/")[2]) == "example.com"
