"""Every page type of the built fixture site, parsed and checked: content, escaping, safety."""

# css_first() returns an Optional node; a missing one fails these tests with AttributeError
# mypy: disable-error-code="union-attr, operator"

from __future__ import annotations

import json
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

from tests.publish.conftest import BASE_URL, HOSTILE_TITLE, STORIES
from tests.publish.sitecheck import BASE_PATH, api_days, api_documents, html_pages, parse, resolve


def page(site: Path, path: str) -> LexborHTMLParser:
    return parse(site / path / "index.html" if not path.endswith(".html") else site / path)


def doc_id(site: Path, url: str) -> str:
    return str(next(d["id"] for d in api_documents(site) if d["url"] == url))


def test_every_page_is_a_complete_accessible_document(built_site: Path) -> None:
    pages = html_pages(built_site)
    assert len(pages) > 20
    redirects = 0
    for path in pages:
        tree = parse(path)
        assert tree.css_first("html").attributes.get("lang") == "en", path
        refresh = tree.css_first('meta[http-equiv="refresh"]')
        if refresh is not None:  # an edit's address from before: it redirects to its place
            redirects += 1
            assert path.parent.parent.name == "diff", path
            target = refresh.attributes["content"].split("url=", 1)[1]
            assert target == tree.css_first("a").attributes["href"], path
            resolved = resolve(built_site, path, target)
            assert resolved is not None and resolved[1].startswith("r"), path
            assert tree.css_first("title").text(), path
            # the article page it leads to carries the canonical link, not each edit's address
            assert tree.css_first('link[rel="canonical"]') is None, path
            continue
        assert len(tree.css("h1")) == 1, path
        assert tree.css_first("main#main") is not None, path
        assert tree.css_first('meta[name="viewport"]') is not None, path
        csp = tree.css_first('meta[http-equiv="Content-Security-Policy"]')
        assert csp is not None and "script-src 'self'" in csp.attributes["content"], path
        assert tree.css_first("title").text().strip(), path
        # a link card (its title with it) only where there is a share image
        card = tree.css_first('meta[property="og:image"]') is not None
        assert (tree.css_first('meta[property="og:title"]') is not None) == card, path
        canonical = tree.css_first('link[rel="canonical"]').attributes["href"]
        assert canonical is not None and canonical.startswith(BASE_URL), path
    assert redirects == 4  # one per edit


def test_pages_run_no_inline_script_and_load_nothing_from_elsewhere(built_site: Path) -> None:
    for path in html_pages(built_site):
        tree = parse(path)
        for script in tree.css("script"):
            src = script.attributes.get("src")
            assert src and src.startswith(BASE_PATH), f"{path}: inline or foreign script"
        for node in tree.css("link[href], img[src], iframe, object, embed"):
            target = node.attributes.get("href") or node.attributes.get("src") or ""
            if node.tag == "link" and node.attributes.get("rel") in {"canonical", "alternate"}:
                continue
            if node.tag == "link" and node.attributes.get("rel") == "icon" and target == "data:,":
                continue  # a redirect page's empty icon: nothing is loaded
            assert target.startswith(BASE_PATH), f"{path}: loads {target}"
        for node in tree.css("*"):
            assert not any(name.startswith("on") for name in node.attributes), path


def test_hostile_archive_text_is_shown_as_text_never_as_markup(built_site: Path) -> None:
    mayor = doc_id(built_site, STORIES[2].url)
    for path in (f"articles/{mayor}", ""):
        tree = page(built_site, path)
        assert HOSTILE_TITLE in tree.body.text()
        assert not tree.css("img"), path
        for anchor in tree.css("a[href]"):
            href = anchor.attributes["href"] or ""
            assert not href.lower().lstrip().startswith(("javascript:", "data:")), href
    article = page(built_site, f"articles/{mayor}")
    # the redirect event's location is javascript:, so it is described but not linked
    assert "redirects to another address" in article.body.text()
    assert "New address" not in article.body.text()
    raw = (built_site / "articles" / mayor / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(&#34;title&#34;)&lt;/script&gt;" in raw
    assert "\x0b" not in raw


def test_home_lists_each_edit_with_its_verdict_kinds_and_excerpt(built_site: Path) -> None:
    home = page(built_site, "")
    items = [i for i in home.css("li.edit") if i.css_first(".event-badge") is None]
    assert len(items) == 4  # and the mayor's article taken down, an entry of its own
    assert len(home.css("li.edit.event-gone")) == 1
    bridge = next(
        i for i in items if i.css_first("h3").text() == "Council approves Elm river bridge"
    )
    assert bridge.css_first(".verdict-silent") is not None
    assert {b.text() for b in bridge.css(".kind")} >= {"facts"}
    assert bridge.css_first(".excerpt del").text(deep=True) == "48 "
    assert "84" in bridge.css_first(".excerpt ins").text()
    acknowledged = next(i for i in items if "despite cost doubts" in i.text())
    assert acknowledged.css_first(".verdict-ack") is not None


def test_article_page_has_timeline_headlines_and_events(built_site: Path) -> None:
    bridge = doc_id(built_site, STORIES[0].url)
    tree = page(built_site, f"articles/{bridge}")
    assert [li.attributes["id"] for li in tree.css("ol.timeline > li")] == ["r1", "r2", "r3"]
    times = [t.attributes["datetime"] for t in tree.css("ol.timeline time")]
    assert times == ["2026-11-28T07:30Z", "2026-11-28T10:30Z", "2026-11-28T13:30Z"]
    # each edit is shown in the timeline, under its revision
    edits = [li for li in tree.css("ol.timeline > li") if li.css_first("div.blocks")]
    assert [li.attributes["id"] for li in edits] == ["r2", "r3"]
    for number in (2, 3):  # the edit's address from when it had a page of its own
        stub = page(built_site, f"articles/{bridge}/diff/{number}")
        target = stub.css_first("a").attributes["href"]
        assert target == f"../../#r{number}"  # relative: the same under any base path
        resolved = resolve(
            built_site, built_site / f"articles/{bridge}/diff/{number}/index.html", target
        )
        assert resolved == (built_site / f"articles/{bridge}/index.html", f"r{number}")
    headlines = [q.text() for q in tree.css("ol.headlines q")]
    assert headlines == [
        "Council approves Elm river bridge",
        "Elm river bridge approved despite cost doubts",
    ]
    assert "anomaly" in tree.css_first("ul.events").text()
    assert tree.css_first("a.canonical").attributes["href"] == STORIES[0].url
    assert "Correction: an earlier version" in tree.css_first("section.notes").text()


def test_an_edit_marks_changes_for_eyes_and_screen_readers(built_site: Path) -> None:
    bridge = doc_id(built_site, STORIES[0].url)
    tree = page(built_site, f"articles/{bridge}")
    inline = tree.css_first("#r3")
    # the stylesheet, not each change, carries the labels a screen reader says
    assert inline.css("ins") and inline.css("del") and not inline.css("ins .vh, del .vh")
    css = (built_site / "static" / "site.css").read_text(encoding="utf-8")
    assert 'ins::before { content: "[added: "; }' in css
    assert 'del::before { content: "[removed: "; }' in css
    assert '.findings dd mark::before { content: "[decided by: "; }' in css
    assert [t.text() for t in inline.css(".row-added .tag")] == ["added"]
    moved = inline.css_first(".row-moved")
    target = moved.css_first("a.moved-link").attributes["href"] or ""
    stub = tree.css_first(target)
    assert stub is not None and "row-moved-from" in (stub.attributes.get("class") or "")
    assert stub.css_first("a").attributes["href"] == "#" + moved.attributes["id"]
    headline = inline.css_first(".headline")
    assert "approved despite cost doubts" in headline.css_first("ins").text()
    rows = inline.css(".blocks > p")
    assert len(rows) == 6  # 4 blocks (one moved, with its stub), 1 added
    assert tree.css_first("table.side-by-side") is None  # the change is shown once
    assert inline.css_first(".verdict-ack") is not None
    assert "date-modified: seen" in inline.css_first("details.evidence").text()


def test_an_edit_shows_the_sentences_and_words_that_decided_each_kind(built_site: Path) -> None:
    bridge = doc_id(built_site, STORIES[0].url)
    findings = page(built_site, f"articles/{bridge}").css_first("#r3 details.findings")
    kinds = [dt.text().split()[0] for dt in findings.css("dt")]
    assert kinds == ["added", "correction", "headline", "moved", "style"]
    # what a mark means, said where marks are (the page has no colour legend)
    assert findings.css_first("summary mark").text() == "marked"
    sentences = findings.css("dd.sentence")
    # the paragraph added whole is shown above, and counted by its evidence: not again
    added = [dd.text() for dd in findings.css("dd:not(.sentence)") if "words" in dd.text()]
    assert added and all("“" not in line for line in added)  # its length, not its text
    assert not any("full budget" in dd.text() for dd in sentences)
    headline = sentences[1]  # before and after on one line
    assert headline.text() == (
        "title: before: Council approves Elm river bridge · after: Elm river bridge "
        "approved despite cost doubts"
    )
    assert [m.text() for m in headline.css("mark")] == [
        "Council approves",
        "approved despite cost doubts",
    ]
    note = sentences[0]
    assert "before:" not in note.text()
    assert note.css_first("mark").text() == "Correction:"


def test_source_pages_show_health_and_feed_state(built_site: Path) -> None:
    courier = page(built_site, "sources/courier-world")
    text = courier.css_first("section.health").text()
    assert "Feed polls" in text and "42" in text and "Revisions stored" in text
    assert len(courier.css("li.edit")) == 2
    blog = page(built_site, "sources/blog-example-com")
    assert "No feed state has been recorded" in blog.text()
    index = page(built_site, "sources")
    assert len(index.css("section.source-card")) == 3


def test_stats_charts_are_inline_svg_with_table_alternatives(built_site: Path) -> None:
    tree = page(built_site, "stats")
    charts = tree.css("svg.chart")
    assert len(charts) == 3
    for chart in charts:
        assert chart.attributes["role"] == "img"
        assert chart.css_first("title") is not None and chart.css_first("desc") is not None
    assert len(tree.css("table")) == 3
    kinds_table = tree.css("table")[2].text()
    assert "facts" in kinds_table


def test_markdown_pages_are_rendered(built_site: Path) -> None:
    about = page(built_site, "about")
    assert about.css_first("h1").text() == "About"
    method = page(built_site, "methodology")
    assert "Methodology" in method.css_first("h1").text() and method.css("h2")


def test_kind_filter_pages_list_only_that_kind(built_site: Path) -> None:
    tree = page(built_site, "kinds/headline")
    items = tree.css("li.edit")
    assert items and all("headline" in {b.text() for b in i.css(".kind")} for i in items)


def test_search_and_compare_pages_degrade_without_javascript(built_site: Path) -> None:
    compare = page(built_site, "compare")
    assert "needs JavaScript" in compare.css_first("noscript").text()
    search = page(built_site, "search")
    assert search.css_first("noscript") is not None or "not available" in search.text()


def test_robots_404_and_sitemap(built_site: Path) -> None:
    assert f"Sitemap: {BASE_URL}sitemap.xml" in (built_site / "robots.txt").read_text()
    assert "Page not found" in page(built_site, "404.html").css_first("h1").text()
    index = LexborHTMLParser((built_site / "sitemap.xml").read_text())
    locs = set()
    for part in index.css("sitemap loc"):
        target = resolve(built_site, built_site / "index.html", part.text())
        assert target is not None and target[0].is_file(), part.text()
        locs |= {loc.text() for loc in LexborHTMLParser(target[0].read_text()).css("url loc")}
    for day in api_days(built_site):
        for unpublished in day["unpublished"]:  # never edited: no page, nothing to list
            assert not any(unpublished in loc for loc in locs)
    for doc in api_documents(built_site):
        assert f"{BASE_URL}articles/{doc['id']}/" in locs
        diffs = json.loads((built_site / f"api/documents/{doc['id']}.json").read_text())["diffs"]
        for diff in diffs:
            # an edit's own address redirects to the article page: not listed
            assert f"{BASE_URL}articles/{doc['id']}/diff/{diff['new']}/" not in locs
    assert f"{BASE_URL}stats/" in locs
    for loc in locs:
        target = resolve(built_site, built_site / "index.html", loc)
        assert target is not None and target[0].is_file(), loc
