"""The walk reads a parsed page as a reader sees it, without changing the tree.

Inline markup splits a sentence into many text nodes, and the white space between two
inline elements is often a node of its own; the walk must join them as a browser lays them
out, count link text, and still find the metadata that hidden or skipped parts declare.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from quietedit.article import dom
from quietedit.article.blocks import Segment, normalize_space, walk
from quietedit.article.dom import RawHead, parse, read_head
from quietedit.article.extract import extract_article

PROSE = (
    "The council approved the budget on Monday after a debate that ran past midnight, "
    "with 31 votes in favour and 12 against."
)


def segments(body: str, head: str = "") -> tuple[list[Segment], RawHead]:
    tree = parse(f"<!DOCTYPE html><html><head>{head}</head><body>{body}</body></html>")
    assert tree is not None
    raw = read_head(tree)
    found, _ = walk(tree.body, raw)
    return found, raw


def test_words_split_by_inline_markup_keep_the_spaces_between_them() -> None:
    found, _ = segments(
        "<p><b>Breaking</b> <i>news</i>: the <a href='/c'>council</a> <em>voted</em>\n"
        "  <span>again</span></p>"
    )
    assert [s.text for s in found] == ["Breaking news: the council voted again"]


def test_markup_inside_a_word_does_not_split_it() -> None:
    found, _ = segments("<p>re<b>ad</b>ing <i>i</i>t<span>al</span>ics</p>")
    assert [s.text for s in found] == ["reading italics"]


def test_link_text_is_counted_and_marks_never_reach_the_text() -> None:
    found, _ = segments("<p>Read <a href='/a'>the full report</a> here.</p>")
    assert [s.text for s in found] == ["Read the full report here."]
    assert found[0].link_chars == len("the full report")


def test_an_icon_link_before_a_paragraph_leaves_the_paragraph_without_link_text() -> None:
    found, _ = segments(
        "<div><a href='/'><img src='/logo.png' alt='Courier'></a></div>"
        "<div><a href='/share'><i class='icon-share'></i></a></div>"
        f"<p>{PROSE}</p>"
    )
    assert [(s.text, s.link_chars) for s in found] == [(PROSE, 0)]


def test_two_breaks_end_a_block_even_with_white_space_between_them() -> None:
    found, _ = segments(
        "<div>09:41 First entry<br>\n  <br>09:55 Second entry<br><span> </span><br>"
        "10:02 Third entry<br>10:03 still the third</div>"
    )
    assert [s.text for s in found] == [
        "09:41 First entry",
        "09:55 Second entry",
        "10:02 Third entry 10:03 still the third",
    ]


def test_text_of_hidden_and_skipped_elements_is_left_out() -> None:
    found, _ = segments(
        "<p>Seats <span class='sr-only'>(opens in a new window)</span>sold "
        "<button>Share</button>out<script>var x = 1;</script> <style>p{}</style>today."
        "<noscript>Enable scripts</noscript></p>"
    )
    assert [s.text for s in found] == ["Seats sold out today."]


def test_metadata_inside_skipped_and_hidden_parts_of_the_body_is_collected() -> None:
    _, raw = segments(
        "<nav><a rel='author' href='/by/jane'>Jane Doe</a></nav>"
        '<noscript><script type=\'application/ld+json\'>{"@type": "NewsArticle"}'
        "</script><meta itemprop='dateModified' content='2026-05-02'></noscript>"
        "<span class='visually-hidden'><time itemprop='datePublished' "
        "datetime='2026-05-01T09:00'>1 May</time></span>"
        f"<p>{PROSE}</p><link rel='canonical' href='https://news.example.org/a/1'>",
        head="<title>Budget passes</title><meta name='author' content='Jane Doe'>",
    )
    assert raw.title == "Budget passes"
    assert raw.author_names == ["Jane Doe"]
    assert raw.json_ld == ['{"@type": "NewsArticle"}']
    assert raw.published_times == ["2026-05-01T09:00"]
    assert [m.get("itemprop") or m.get("name") for m in raw.metas] == [
        "author",
        "dateModified",
    ]
    assert [link.get("href") for link in raw.links] == ["https://news.example.org/a/1"]


def test_metadata_in_svg_and_hidden_bylines_is_collected() -> None:
    # SVG's foreignObject holds HTML; a byline only screen readers get still names the author.
    _, raw = segments(
        "<svg><foreignObject><time itemprop='datePublished' datetime='2026-05-01'>1 May"
        "</time></foreignObject></svg>"
        "<p>a <span hidden>By <span itemprop='author'>Jo Lee</span></span> b</p>"
    )
    assert raw.published_times == ["2026-05-01"]
    assert raw.author_names == ["Jo Lee"]


def test_a_title_in_the_body_is_not_the_page_title() -> None:
    _, raw = segments("<svg><title>Logo</title></svg><p>Text</p>", head="")
    assert raw.title is None


def test_extraction_leaves_the_body_metadata_to_the_publisher_record() -> None:
    html = (
        "<html><head><title>Budget passes | Courier</title></head><body>"
        "<article><h1>Budget passes</h1><p>By <a rel='author' href='/by/jane'>Jane "
        f"Doe</a></p><p>{PROSE}</p>"
        '<script type=\'application/ld+json\'>{"@type": "NewsArticle", '
        '"dateModified": "2026-05-02T10:00:00Z"}</script></article></body></html>'
    )
    publisher = extract_article(html).publisher
    assert publisher.authors == ("Jane Doe",)
    assert publisher.date_modified == "2026-05-02T10:00:00Z"


def test_inline_elements_nested_a_thousand_deep_do_not_exhaust_the_stack() -> None:
    depth = 1500  # below the nesting cap (quietedit.article.dom.MAX_NESTING)
    found, _ = segments("<p>" + "<span>" * depth + "deep" + "</span>" * depth + " text</p>")
    assert [s.text for s in found] == ["deep text"]


# A sentence of words and spaces cut at random points into inline elements: the walk
# must give the text a browser shows, which is the text nodes joined, spaces collapsed.
_PIECES = st.lists(
    st.tuples(
        st.sampled_from(["", "b", "i", "span", "a", "em", "strong"]),
        st.text(alphabet="ab \n\t", min_size=1, max_size=6),
    ),
    min_size=1,
    max_size=12,
)


@given(_PIECES, st.integers(min_value=0, max_value=3))
def test_text_split_among_inline_elements_reads_as_it_is_shown(
    pieces: list[tuple[str, str]], depth: int
) -> None:
    markup = ""
    for tag, text in pieces:
        # Every element holds text: an empty inline element is a separate case (an icon).
        markup += f"<{tag}>{text}</{tag}>" if tag else text
    body = "<div>" * depth + f"<p>{markup}</p>" + "</div>" * depth
    found, _ = segments(body)
    expected = normalize_space("".join(text for _, text in pieces))
    assert [s.text for s in found] == ([expected] if expected else [])
    if found and all(tag != "a" for tag, _ in pieces):
        assert found[0].link_chars == 0


# The nesting guard reads tags with a greedy pattern and looks at the character before
# ">"; a plain reading, tag by tag, with a pattern that asks for "/>" itself, must agree.
_REFERENCE_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)[^>]*?(/?)>")
_FLAT = frozenset(dom._FLAT)


def _reference_cut(document: str, limit: int) -> int:
    depth = 0
    for match in _REFERENCE_TAG.finditer(document):
        closing, name, self_closing = match.groups()
        if self_closing or name.lower() in _FLAT:
            continue
        if closing:
            depth = max(depth - 1, 0)
            continue
        depth += 1
        if depth > limit:
            return match.start()
    return -1


_SOUP_PIECES = (
    "<div>", "</div>", "<a//>", "</a/>", "<br/>", "<P>", "</p>", "<li>", "<B/ >",
    "<span class='x/'>", "<x-y:z a='>'>", "<!-- <div> -->", "text", "<", ">", "/",
)  # fmt: skip
_SOUP = st.lists(st.sampled_from(_SOUP_PIECES), max_size=40)


@given(_SOUP, st.integers(min_value=1, max_value=4))
def test_the_nesting_guard_cuts_where_a_tag_by_tag_reading_does(
    pieces: list[str], limit: int
) -> None:
    document = "".join(pieces)
    expected = _reference_cut(document, limit)
    tags = dom._TAG.finditer(document)
    assert dom._too_deep(document, tags, "/", limit=limit) == expected
    data = document.encode()
    tags_of_bytes = dom._TAG_BYTES.finditer(data)
    assert dom._too_deep(data, tags_of_bytes, ord("/"), limit=limit) == expected
