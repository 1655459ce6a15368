"""Live blogs: the stream of posts a page shows, as ranges of its extracted blocks.

Every page in ``tests/fixtures/liveblogs/`` is read, and what it must give is beside it:
``declared`` (its JSON-LD says LiveBlogPosting), its ``entries`` as (key, time, first block
of the post or null for a post without text), and the first block of its frame; ``null``
entries mean the page has no stream.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quietedit.article.extract import extract_article
from quietedit.article.liveblog import LiveLayout, may_be_live, read_live_layout
from quietedit.decide.reading import read_page
from quietedit.model import Article, Block

FIXTURES = Path(__file__).parents[1] / "fixtures" / "liveblogs"
PAGES = sorted(FIXTURES.glob("*.html"))


def layout_of(page: Path) -> tuple[Article, LiveLayout | None]:
    body = page.read_bytes()
    article = extract_article(body)
    return article, read_live_layout(body, article)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_each_fixture_gives_its_stream(page: Path) -> None:
    expected = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    article, layout = layout_of(page)
    if expected["entries"] is None:
        assert layout is None
        return
    assert layout is not None
    assert layout.declared is expected["declared"]
    found = [
        [e.key, e.published, article.blocks[e.start].text if e.end > e.start else None]
        for e in layout.entries
    ]
    assert found == expected["entries"]
    frame = layout.frame(len(article.blocks))
    assert article.blocks[frame[0]].text == expected["frame_first"]
    # ranges follow one another, never overlap, and stay inside the article
    ends = [(e.start, e.end) for e in layout.entries]
    assert all(0 <= a <= b <= len(article.blocks) for a, b in ends)
    assert all(b1 <= a2 for (_, b1), (a2, _) in itertools.pairwise(ends))


def test_the_reading_of_a_page_carries_its_stream_and_skips_the_rest() -> None:
    page = FIXTURES / "blocks-with-key-events.html"
    reading = read_page(
        page.read_bytes(), url="https://www.dailyledger.example/", content_type=None
    )
    assert reading.live is not None and len(reading.live.entries) == 4
    plain = b"<html><body><h1>Plain</h1><p>No stream here at all.</p></body></html>"
    assert not may_be_live(plain)
    assert read_page(plain, url="https://x.example/", content_type=None).live is None


def test_the_key_events_aside_is_never_the_stream() -> None:
    article, layout = layout_of(FIXTURES / "blocks-with-key-events.html")
    assert layout is not None
    texts = [b.text for b in article.blocks]
    # the posts' own text is inside the ranges, the aside's links nowhere
    inside = {texts[i] for e in layout.entries for i in range(e.start, e.end)}
    assert "The 5p cut introduced in 2022 will also be kept, she tells the Commons." in inside
    assert not any("Key events" in t for t in inside)


def test_posts_with_the_same_time_and_no_id_get_distinct_keys() -> None:
    posts = "".join(
        f'<div class="post"><time datetime="2026-11-30T10:00:00Z">10:00</time>'
        f"<p>Post number {n} says something long enough to be kept as a paragraph.</p></div>"
        for n in range(3)
    )
    html = f"<html><body><main><h1>Live</h1><div class='stream'>{posts}</div></main></body></html>"
    article = extract_article(html)
    layout = read_live_layout(html, article)
    assert layout is not None
    assert [e.key for e in layout.entries] == [
        "time:2026-11-30T10:00:00Z#1",
        "time:2026-11-30T10:00:00Z#2",
        "time:2026-11-30T10:00:00Z#3",
    ]


def test_hostile_ids_and_json_ld_are_bounded() -> None:
    key = "x" * 5000 + "\x07"
    posts = "".join(
        f'<article class="p" id="{key}{n}"><time datetime="{"9" * 500}">t</time>'
        f"<p>Paragraph {n} of a hostile page that still reads like text.</p></article>"
        for n in range(2)
    )
    ld = '{"@type": "LiveBlogPosting", "liveBlogUpdate": [' + ",".join(["7"] * 3000) + "]}"
    html = f"<script type='application/ld+json'>{ld}</script><body>{posts}</body>"
    article = extract_article(html)
    layout = read_live_layout(html, article)
    assert layout is not None and layout.declared
    assert all(len(e.key) <= 120 and (e.published or "") == "9" * 64 for e in layout.entries)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400), st.lists(st.text(max_size=40), max_size=6))
def test_any_page_gives_a_layout_within_the_article_or_none(html: str, texts: list[str]) -> None:
    article = Article(title="t", blocks=tuple(Block(t) for t in texts if t.strip()))
    layout = read_live_layout("<time>" + html + "<time>", article)
    if layout is not None:
        assert all(0 <= e.start <= e.end <= len(article.blocks) for e in layout.entries)
