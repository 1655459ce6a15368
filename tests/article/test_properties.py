"""Properties of the extractor and its normalisers, on inputs hypothesis makes up.

Everything fetched is hostile: whatever the page, extraction returns an Article with
clean, deterministic blocks and never raises.
"""

from __future__ import annotations

import json
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from quietedit.article.blocks import normalize_space
from quietedit.article.extract import extract_article
from quietedit.article.template import HostProfile, furniture_key
from quietedit.article.titles import strip_site_name
from quietedit.model import BLOCK_KINDS, Article

TAGS = [
    "div", "p", "span", "a", "b", "i", "h1", "h2", "h3", "ul", "ol", "li", "table", "tr",
    "td", "th", "blockquote", "figure", "figcaption", "pre", "br", "section", "article",
    "aside", "nav", "header", "footer", "main", "script", "style", "form", "img", "hr",
    "noscript", "svg", "template", "select", "option", "time", "main", "x-widget",
]  # fmt: skip
ATTRIBUTES = [
    'class="share-tools"', 'class="article-body"', 'class="hidden"', 'class="sr-only"',
    'id="comments"', "hidden", 'style="display:none"', 'aria-hidden="true"', 'role="main"',
    'role="navigation"', 'itemprop="articleBody"', 'class="ad"', 'class="related"',
    'href="/x"', 'rel="author"', 'class="js-social-hook"', 'id="a-very-long-heading-slug"',
]  # fmt: skip
WORDS = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"),
    max_size=40,
)


@st.composite
def html_fragments(draw: st.DrawFn, depth: int = 0) -> str:
    """Tag soup: nested elements with telling attributes, text, entities and stray marks."""
    parts = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.integers(0, 5))
        if kind == 0 or depth > 4:
            parts.append(draw(WORDS))
        elif kind == 1:
            parts.append(draw(st.sampled_from(["&amp;", "&nbsp;", "&#8220;", "&bogus;", "<", ">"])))
        else:
            tag = draw(st.sampled_from(TAGS))
            attribute = draw(st.sampled_from(["", *ATTRIBUTES]))
            inner = draw(html_fragments(depth + 1))
            closed = draw(st.booleans())
            parts.append(f"<{tag} {attribute}>{inner}" + (f"</{tag}>" if closed else ""))
    return "".join(parts)


def assert_clean(article: Article) -> None:
    for block in article.blocks:
        assert block.kind in BLOCK_KINDS
        assert block.text == normalize_space(block.text)
        assert any(character.isalnum() for character in block.text)
        assert not any(unicodedata.category(character) == "Cc" for character in block.text)
    assert article.title == normalize_space(article.title)


@settings(max_examples=150, deadline=None)
@given(html_fragments())
def test_any_tag_soup_gives_clean_blocks_the_same_way_every_time(html: str) -> None:
    article = extract_article(html)
    assert_clean(article)
    assert extract_article(html) == article


@settings(max_examples=80, deadline=None)
@given(html_fragments())
def test_utf8_bytes_and_their_text_extract_alike(html: str) -> None:
    assert extract_article(html.encode("utf-8")) == extract_article(html)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000), st.sampled_from([None, "text/html", "text/html; charset=koi8-r"]))
def test_arbitrary_bytes_never_raise(body: bytes, content_type: str | None) -> None:
    assert_clean(extract_article(body, content_type=content_type))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_any_json_ld_text_is_tolerated(script: str) -> None:
    html = (
        "<html><head><script type='application/ld+json'>"
        + script.replace("</", "<\\/")
        + "</script></head><body><p>Text of the page.</p></body></html>"
    )
    assert [b.text for b in extract_article(html).blocks] == ["Text of the page."]


@given(st.text())
def test_normalize_space_is_idempotent_and_leaves_single_spaces(text: str) -> None:
    once = normalize_space(text)
    assert normalize_space(once) == once
    assert "  " not in once and once == once.strip()


@given(st.text())
def test_furniture_key_is_idempotent(text: str) -> None:
    assert furniture_key(furniture_key(text)) == furniture_key(text)


@given(st.text())
def test_stripping_the_site_name_keeps_a_part_of_the_title(title: str) -> None:
    stripped = strip_site_name(title)
    assert stripped in title


@given(st.text(), st.integers(0, 10_000), st.lists(st.text()))
def test_host_profile_survives_its_json_record(host: str, pages: int, lines: list[str]) -> None:
    profile = HostProfile(host=host, pages=pages, furniture=tuple(lines))
    record = json.loads(json.dumps(profile.to_record()))
    assert HostProfile.from_record(record) == profile
