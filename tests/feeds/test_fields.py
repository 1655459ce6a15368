"""Field cleaning: plain text, safe links, ids and capped problem lists."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quietedit.feeds.fields import (
    MAX_PROBLEMS,
    capped_problems,
    clean_id,
    plain_text,
    safe_link,
    text_hash_id,
)

BASE = "https://news.example.org/feeds/world.xml"


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        ("<p>One</p><p>Two</p>", "One Two"),
        ("Wo<b>rd</b>s stay whole", "Words stay whole"),
        ("line<br>break<br/>again", "line break again"),
        ("<script>alert(1)</script>Hi<style>p{}</style>", "Hi"),
        ("Fish &amp; chips &#8211; &eacute;t&eacute;", "Fish & chips \u2013 été"),
        ("a < b and c > d", "a < b and c > d"),
        ("<ul><li>one</li><li>two</li></ul>", "one two"),
        ("  \n\t spaced \r\n out \u00a0 ", "spaced out"),
        ("<!-- comment -->kept", "kept"),
    ],
)
def test_markup_becomes_one_line_of_text(markup: str, text: str) -> None:
    assert plain_text(markup, html=True, limit=1000) == text


def test_plain_text_is_not_read_as_markup() -> None:
    assert plain_text("<b>literal</b> &amp;", html=False, limit=100) == "<b>literal</b> &amp;"


def test_text_is_capped_at_the_limit() -> None:
    assert plain_text("word " * 100, html=False, limit=12) == "word word wo"


@given(st.text(max_size=300), st.booleans(), st.integers(min_value=1, max_value=400))
def test_plain_text_never_raises_and_is_always_clean(value: str, html: bool, limit: int) -> None:
    text = plain_text(value, html=html, limit=limit)
    assert len(text) <= limit
    assert text == text.strip()
    assert "  " not in text
    assert not any(ord(c) < 32 or 127 <= ord(c) < 160 for c in text)


@pytest.mark.parametrize(
    ("raw", "link"),
    [
        ("https://news.example.org/a", "https://news.example.org/a"),
        ("/world/a.html", "https://news.example.org/world/a.html"),
        ("b.html", "https://news.example.org/feeds/b.html"),
        ("//cdn.example.org/x", "https://cdn.example.org/x"),
        ("  https://news.example.org/with space  ", "https://news.example.org/with%20space"),
        ("HTTP://NEWS.example.org/Caps", "HTTP://NEWS.example.org/Caps"),
        ("https://news.example.org/\x00a\tb", "https://news.example.org/a%09b"),
    ],
)
def test_links_resolve_against_the_base(raw: str, link: str) -> None:
    assert safe_link(raw, base=BASE) == (link, None)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("javascript:alert(1)", "only http(s) links are followed"),
        ("  JAVASCRIPT:alert(1)", "only http(s) links are followed"),
        ("data:text/html,<script>", "only http(s) links are followed"),
        ("file:///etc/passwd", "only http(s) links are followed"),
        ("mailto:desk@example.org", "only http(s) links are followed"),
        ("https://user:pw@news.example.org/", "credentials in a link"),
        ("https://news.example.org:99999/", "not a valid URL"),
        ("http:///no-host", "no host"),
        ("https://" + "a" * 9000, "refused (more than 8192)"),
    ],
)
def test_unsafe_links_are_refused_with_the_reason(raw: str, reason: str) -> None:
    link, why = safe_link(raw, base=BASE)
    assert link is None
    assert why is not None and reason in why


def test_a_missing_or_empty_link_is_no_problem() -> None:
    assert safe_link(None, base=BASE) == (None, None)
    assert safe_link("  ", base=BASE) == (None, None)


@given(st.text(max_size=200))
def test_any_link_is_http_with_a_host_or_refused(raw: str) -> None:
    link, why = safe_link(raw, base=BASE)
    if link is not None:
        assert link.lower().startswith(("http://", "https://"))
        assert why is None
        assert not any(ord(c) <= 32 for c in link)


def test_an_overlong_id_becomes_its_hash() -> None:
    text, note = clean_id("x" * 5000)
    assert text.startswith("sha256:") and len(text) == 71
    assert note == "id of 5000 characters replaced by its hash"
    assert clean_id("  guid-1\x00 ") == ("guid-1", None)


def test_the_text_hash_ignores_typographic_noise_but_not_words() -> None:
    assert text_hash_id("It\u2019s \u201cdone\u201d", "a  b") == text_hash_id('It\'s "done"', "a b")
    assert text_hash_id("It's done", "a") != text_hash_id("It's undone", "a")
    assert text_hash_id("A", "B C") != text_hash_id("A B", "C")


def test_problems_are_capped_with_a_count_of_the_rest() -> None:
    problems = [f"entry {n}: bad" for n in range(250)]
    capped = capped_problems(problems)
    assert len(capped) == MAX_PROBLEMS
    assert capped[-1] == f"... and {250 - MAX_PROBLEMS + 1} more problems"
    assert capped_problems(problems[:3]) == tuple(problems[:3])
