"""extract_article on small pages: each test names one behaviour of the extractor."""

from __future__ import annotations

import json

import pytest

from quietedit.article.extract import _ALNUM, article_json, article_record, extract_article
from quietedit.model import Article, Block, Publisher

PROSE = (
    "The council approved the budget on Monday after a debate that ran past midnight, "
    "with 31 votes in favour and 12 against."
)
MORE = (
    "Opposition members had asked for more money for the northern bus lines, which "
    "they said were overcrowded every morning."
)


def page(body: str, head: str = "") -> str:
    return f"<!DOCTYPE html><html lang='en'><head>{head}</head><body>{body}</body></html>"


def texts(article: Article) -> list[str]:
    return [block.text for block in article.blocks]


@pytest.mark.parametrize(
    "html",
    [
        b"",
        "",
        "   \n\t ",
        b"\x80\x81\x8d\x8f\x90\x9d\x01\x02\x03",
        "\ufffd\ufffd\ufffd",
        "<<<>>>",
        "<html>",
        "</p></div>",
        "<p>* * *</p><p>\u2014</p>",
    ],
    ids=["empty-bytes", "empty", "blank", "binary", "replacement", "brackets", "open",
         "stray-ends", "dingbats"],
)  # fmt: skip
def test_empty_or_garbage_input_gives_an_empty_article(html: str | bytes) -> None:
    article = extract_article(html)
    assert article == Article(title="", blocks=(), publisher=article.publisher)
    assert article.blocks == ()


def test_a_page_nested_deeper_than_any_reader_sees_is_cut_there() -> None:
    # 100,000 nested elements would take lexbor minutes (its parse time grows with the
    # square of the depth); the extractor cuts the page where it nests too deep.
    html = f"<p>{PROSE}</p>" + "<div>" * 100_000 + f"<p>{MORE}</p>" + "</div>" * 100_000
    assert texts(extract_article(html)) == [PROSE]
    assert texts(extract_article(html.encode())) == [PROSE]


def test_a_page_nested_a_thousand_deep_keeps_its_text() -> None:
    html = "<div>" * 1_000 + f"<p>{PROSE}</p>" + "</div>" * 1_000
    assert texts(extract_article(html)) == [PROSE]


def test_entities_are_decoded_and_white_space_collapsed_without_markup() -> None:
    html = page(
        "<article><p>Caf&eacute; &amp; bar&nbsp;&nbsp;opened\n\n  on <b>Main</b>"
        "<i>Street</i>, &#8220;finally&#8221; &lt;b&gt; the owners said on Monday.</p>"
        f"<p>{PROSE}</p></article>"
    )
    first = texts(extract_article(html))[0]
    assert first == "Café & bar opened on MainStreet, “finally” <b> the owners said on Monday."


def test_ticker_entries_in_divs_separated_by_double_breaks_become_blocks() -> None:
    html = page(
        "<div class='ticker'>"
        "<div class='entry'>10:12 Police reopened the bridge in both directions."
        "<br><br>Drivers should keep below 30mph while crews clear the approach roads.</div>"
        "<div class='entry'>09:40 Fourteen thousand homes are still without power after the"
        " storm brought down lines across the valley overnight.<br>Engineers are on site.</div>"
        "</div>"
    )
    assert texts(extract_article(html)) == [
        "10:12 Police reopened the bridge in both directions.",
        "Drivers should keep below 30mph while crews clear the approach roads.",
        "09:40 Fourteen thousand homes are still without power after the storm brought down"
        " lines across the valley overnight. Engineers are on site.",
    ]


def test_pull_quote_in_a_figure_is_kept_as_a_quote_and_other_figures_are_dropped() -> None:
    html = page(
        f"<article><p>{PROSE}</p>"
        "<figure class='pullquote'><blockquote><p>We will not close the pool.</p>"
        "</blockquote></figure>"
        "<figure><img src='a.jpg'><p>The pool in 1972, when it opened.</p>"
        "<figcaption>Photo: Town archive</figcaption></figure>"
        f"<p>{MORE}</p></article>"
    )
    article = extract_article(html)
    assert [(b.kind, b.text) for b in article.blocks] == [
        ("paragraph", PROSE),
        ("quote", "We will not close the pool."),
        ("paragraph", MORE),
    ]


def test_headings_list_items_and_quotes_are_marked_with_their_kind() -> None:
    html = page(
        f"<main><p>{PROSE}</p><h2>What changes</h2><ul><li>Fares rise.</li>"
        "<li><p>Routes change.</p></li></ul><blockquote><p>It is fair.</p></blockquote>"
        f"<p>{MORE}</p></main>"
    )
    assert [(b.kind, b.text) for b in extract_article(html).blocks] == [
        ("paragraph", PROSE),
        ("heading", "What changes"),
        ("list-item", "Fares rise."),
        ("list-item", "Routes change."),
        ("quote", "It is fair."),
        ("paragraph", MORE),
    ]


def test_hidden_text_is_dropped_but_aria_hidden_text_readers_see_is_kept() -> None:
    html = page(
        f"<article><p>{PROSE}</p>"
        "<p style='display: none'>Secret tracking paragraph that no reader ever sees.</p>"
        "<p hidden>Another hidden paragraph with enough words to look like prose.</p>"
        "<p>Seats <span class='sr-only'>(opens in a new window)</span>"
        "<span aria-hidden='true'>4,200</span> were sold out in an hour.</p>"
        f"<p>{MORE}</p></article>"
    )
    assert texts(extract_article(html)) == [
        PROSE,
        "Seats 4,200 were sold out in an hour.",
        MORE,
    ]


def test_navigation_share_bars_related_links_and_cookie_banners_are_dropped() -> None:
    html = page(
        "<nav><a href='/'>Home</a><a href='/news'>News</a></nav>"
        "<div class='cookie-notice'><p>We use cookies to improve your experience of our"
        " website and to show you relevant advertising.</p></div>"
        f"<article><div class='share-tools'><a>Facebook</a><a>Email</a></div><p>{PROSE}</p>"
        f"<p>{MORE}</p><p>Advertisement</p>"
        "<div class='related-articles'><h3>Related</h3><ul><li><a href='/a'>Bus lines to"
        " be cut in spring as costs rise</a></li><li><a href='/b'>Mayor under pressure"
        " over budget overrun</a></li></ul></div></article>"
        "<footer><p>© 2026 The Example Courier. All rights reserved.</p></footer>"
    )
    assert texts(extract_article(html)) == [PROSE, MORE]


def test_a_table_row_of_short_cells_is_one_block() -> None:
    html = page(
        f"<article><p>{PROSE}</p><table><tr><th>Ward</th><th>Votes</th></tr>"
        f"<tr><td>North</td><td>1,204</td></tr></table><p>{MORE}</p></article>"
    )
    assert texts(extract_article(html))[1:3] == ["Ward | Votes", "North | 1,204"]


def test_the_headline_is_the_h1_that_agrees_with_the_metadata_not_a_logo() -> None:
    html = page(
        "<header><h1 class='site-title'>The Example Courier</h1></header>"
        f"<article><h1>Council approves budget after late-night debate</h1><p>{PROSE}</p>"
        f"<p>{MORE}</p></article>",
        head="<title>Council approves budget after late-night debate | The Example Courier"
        "</title><meta property='og:site_name' content='The Example Courier'>",
    )
    article = extract_article(html)
    assert article.title == "Council approves budget after late-night debate"
    assert texts(article) == [PROSE, MORE]


def test_without_an_h1_the_title_loses_its_site_name() -> None:
    html = page(
        f"<article><p>{PROSE}</p></article>",
        head="<title>Council approves budget after late-night debate \u2013 The Example Courier"
        "</title>",
    )
    assert extract_article(html).title == "Council approves budget after late-night debate"


def test_json_ld_graph_arrays_and_author_shapes_are_read() -> None:
    graph = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebPage", "name": "A page"},
            {
                "@type": ["NewsArticle", "Article"],
                "headline": "Budget &amp; buses",
                "datePublished": "2026-11-30T05:40:00Z",
                "dateModified": "2026-11-30T09:12:00Z",
                "author": [{"@type": "Person", "name": "Ana Ruiz"}, "Li Wei", {"name": ["X"]}],
                "inLanguage": "en-GB",
            },
        ],
    }
    html = page(
        f"<article><p>{PROSE}</p></article>",
        head=f"<script type='application/ld+json'>{json.dumps(graph)}</script>",
    )
    publisher = extract_article(html).publisher
    assert publisher.headline == "Budget & buses"
    assert publisher.date_published == "2026-11-30T05:40:00Z"
    assert publisher.date_modified == "2026-11-30T09:12:00Z"
    assert publisher.authors == ("Ana Ruiz", "Li Wei", "X")


@pytest.mark.parametrize(
    "script",
    [
        "{not json at all",
        '{"@type": "NewsArticle", "headline": "Trailing", }',
        "[" * 50_000 + "]" * 50_000,
        '<!-- {"@type": "NewsArticle", "headline": "Commented"} -->',
        '{"@type": "NewsArticle", "author": 42, "headline": ["a", "list"]}',
        '{"@type":"Thing"}{"@type":"NewsArticle","headline":"Second"}',
    ],
    ids=["broken", "trailing-comma", "deep", "comment", "wrong-types", "concatenated"],
)
def test_bad_json_ld_is_tolerated(script: str) -> None:
    html = page(
        f"<article><p>{PROSE}</p></article>",
        head=f"<script type='application/ld+json'>{script}</script>",
    )
    article = extract_article(html)
    assert texts(article) == [PROSE]
    assert article.publisher.headline in {None, "Trailing", "Commented", "Second"}


def test_open_graph_article_times_and_relative_canonical_resolve_against_the_url() -> None:
    html = page(
        f"<article><p>{PROSE}</p></article>",
        head="<link rel='Canonical' href='/news/budget?id=7'>"
        "<meta property='og:url' content='https://example.org/news/budget'>"
        "<meta property='article:published_time' content='2026-11-30T05:40:00Z'>"
        "<meta property='article:modified_time' content='2026-11-30T09:12:00Z'>",
    )
    publisher = extract_article(html, url="https://example.org/a/b.html").publisher
    assert publisher.canonical_url == "https://example.org/news/budget?id=7"
    assert publisher.og_url == "https://example.org/news/budget"
    assert publisher.date_published == "2026-11-30T05:40:00Z"
    assert publisher.date_modified == "2026-11-30T09:12:00Z"
    assert publisher.language == "en"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Updated 30 November 2026, 10:12", "Updated 30 November 2026, 10:12"),
        ("Last updated: Nov. 30, 2026 at 10:12 a.m.", "Last updated: Nov. 30, 2026 at 10:12 a.m."),
        ("By Ana Ruiz · Updated 10:12 GMT", "Updated 10:12 GMT"),
        ("Aktualisiert am 30.11.2026, 10:12 Uhr", "Aktualisiert am 30.11.2026, 10:12 Uhr"),
        ("Zuletzt aktualisiert: 30.11.2026", "Zuletzt aktualisiert: 30.11.2026"),
        ("Stand: 30.11.2026 10:12 Uhr", "Stand: 30.11.2026 10:12 Uhr"),
    ],
)
def test_a_visible_updated_line_is_recorded_and_left_out_of_the_body(
    line: str, expected: str
) -> None:
    html = page(f"<article><h1>Budget</h1><p class='meta'>{line}</p><p>{PROSE}</p></article>")
    article = extract_article(html)
    assert article.publisher.updated_line == expected
    assert texts(article) == [PROSE]


def test_every_updated_line_leaves_the_body_and_the_first_on_the_page_is_recorded() -> None:
    """The first is found outside the article; the body still drops the others."""
    html = page(
        "<header><p>Stand: 29.11.2026 08:00 Uhr</p></header>"
        f"<article><h1>Budget</h1><p>Updated 30 November 2026, 10:12</p><p>{PROSE}</p>"
        f"<p>Last updated: Nov. 30, 2026 at 11:40 a.m.</p><p>{MORE}</p></article>"
    )
    article = extract_article(html)
    assert article.publisher.updated_line == "Stand: 29.11.2026 08:00 Uhr"
    assert texts(article) == [PROSE, MORE]


@pytest.mark.parametrize(
    "note",
    [
        "Correction: An earlier version of this article misstated the vote.",
        "Corrections: The headline has been changed.",
        "Editor's note: This story has been updated with comment from the mayor.",
        "Editor\u2019s Note: Names have been changed.",
        "An earlier version of this story said the pool would close.",
        "This article has been updated to include the final vote.",
        "Korrektur: In einer früheren Version hieß es 19 zu 11.",
        "Anmerkung der Redaktion: Der Text wurde ergänzt.",
        "In einer früheren Fassung dieses Artikels stand ein falscher Name.",
    ],
)
def test_correction_and_editors_notes_are_recorded_and_kept_in_the_body(note: str) -> None:
    html = page(f"<article><p>{PROSE}</p><p><em>{note}</em></p></article>")
    article = extract_article(html)
    assert article.publisher.notes == (note,)
    assert texts(article) == [PROSE, note]


def test_a_sentence_that_merely_starts_like_furniture_is_kept() -> None:
    html = page(
        f"<article><p>{PROSE}</p><p>Share prices fell 4% after the announcement.</p>"
        "<p>Print editions will cost more from January.</p></article>"
    )
    assert texts(extract_article(html))[1:] == [
        "Share prices fell 4% after the announcement.",
        "Print editions will cost more from January.",
    ]


def test_bytes_are_decoded_by_the_http_charset() -> None:
    html = page("<article><p>Straßenbahn fährt wieder über die Brücke am Fluss.</p></article>")
    article = extract_article(html.encode("iso-8859-1"), content_type="text/html; charset=latin1")
    assert texts(article) == ["Straßenbahn fährt wieder über die Brücke am Fluss."]


def test_link_marks_in_the_input_cannot_forge_link_text() -> None:
    html = page(f"<article><p>\x01{PROSE}\x02</p><p>{MORE}</p></article>")
    assert texts(extract_article(html)) == [PROSE, MORE]


def test_a_stub_page_without_prose_keeps_its_text() -> None:
    assert texts(extract_article(page("<p>Short notice.</p>"))) == ["Short notice."]


def test_article_record_is_the_json_shape_of_extract() -> None:
    article = Article("T", (Block("a"), Block("b", "heading")))
    record = article_record(article)
    assert record["title"] == "T"
    assert record["paragraphs"] == ["a", "b"]
    assert record["blocks"] == [
        {"kind": "paragraph", "text": "a"},
        {"kind": "heading", "text": "b"},
    ]
    assert isinstance(record["metadata"], dict) and "canonical_url" in record["metadata"]
    assert json.loads(json.dumps(record)) == record


def test_the_json_line_is_one_line_of_input_then_the_record_with_text_as_itself() -> None:
    article = Article(
        "Zürich “vote”",
        (Block('Line\u2028one "quoted"', "paragraph"), Block("Zwischentitel", "heading")),
        Publisher(language="de", authors=("Anna Müller",)),
    )
    line = article_json(article, source="pages/a.html")
    assert "\n" not in line
    assert line.startswith('{"input": "pages/a.html", "title": "Zürich “vote”", "paragraphs": [')
    assert '"authors": ["Anna Müller"]' in line
    decoded = json.loads(line)
    assert list(decoded) == ["input", "title", "paragraphs", "blocks", "metadata"]
    assert decoded == {"input": "pages/a.html", **article_record(article)}


def test_a_first_character_isalnum_accepts_is_one_the_alnum_pattern_finds() -> None:
    """The body's shortcut past its "says something" search holds for every code point."""
    for code in range(0x110000):
        char = chr(code)
        if char.isalnum():
            assert _ALNUM.match(char) is not None, hex(code)
