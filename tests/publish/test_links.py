"""The internal link checker: every href/src inside the site resolves, every #fragment exists."""

from __future__ import annotations

from pathlib import Path

from tests.publish.sitecheck import html_pages, parse, resolve


def test_every_internal_link_and_fragment_resolves(built_site: Path) -> None:
    ids: dict[Path, set[str]] = {}
    problems = []
    checked = 0
    for page in html_pages(built_site):
        tree = parse(page)
        for node in tree.css("a[href], link[href], script[src], img[src]"):
            link = node.attributes.get("href") or node.attributes.get("src") or ""
            found = resolve(built_site, page, link)
            if found is None:
                continue
            target, fragment = found
            checked += 1
            if not target.is_file():
                problems.append(f"{page.relative_to(built_site)}: {link} → missing {target}")
                continue
            if fragment and target.suffix == ".html":
                if target not in ids:
                    ids[target] = {n.attributes["id"] or "" for n in parse(target).css("[id]")}
                if fragment not in ids[target]:
                    problems.append(f"{page.relative_to(built_site)}: {link} → no #{fragment}")
    assert checked > 300
    assert problems == []


def test_the_checker_sees_a_broken_link(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text('<a href="/quietedit/missing/">x</a><a href="#nope">y</a>')
    page = tmp_path / "index.html"
    target, _ = resolve(tmp_path, page, "/quietedit/missing/") or (None, "")
    assert target is not None and not target.is_file()
    assert resolve(tmp_path, page, "https://elsewhere.example/") is None
