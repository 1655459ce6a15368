"""The demo site's main pages in Chromium: they load, show their heading and landmarks,
log no errors, look right at desktop and phone widths, and pass axe-core."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Final

import pytest
from selectolax.lexbor import LexborHTMLParser

from tests.publish.browser.conftest import VIEWPORTS, Tab, open_tab

if TYPE_CHECKING:
    from playwright.sync_api import Browser

BUDGET: Final = "Council approves next year's budget after late-night session"
"""The demo story whose figure is silently corrected between revisions 1 and 2."""
AXE: Final = Path(__file__).parents[3] / "tools" / "node_modules" / "axe-core" / "axe.min.js"
AXE_RULES: Final = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice")
"""Every WCAG 2.2 A/AA rule and axe's best practices; a violation of any impact fails."""
AXE_KNOWN: Final = {("search", "label-title-only")}
"""(page, rule) pairs outside the project's markup. Pagefind's UI builds its own search
input, named by aria-label/title only; axe's best practice wants a visible label. Remove the
entry once the search template labels the field itself."""


def article_path(site: Path, headline: str) -> str:
    """The site path of the article page whose h1 is ``headline``."""
    for page in sorted((site / "articles").glob("*/index.html")):
        h1 = LexborHTMLParser(page.read_text(encoding="utf-8")).css_first("h1")
        if h1 is not None and h1.text(strip=True) == headline:
            return page.parent.relative_to(site).as_posix() + "/"
    raise AssertionError(f"no article page in {site} has the headline {headline!r}")


@pytest.fixture(scope="module")
def pages(demo_site: Path) -> dict[str, tuple[str, str]]:
    """Name → (site path, expected h1) of the pages every visitor meets."""
    article = article_path(demo_site, BUDGET)
    return {
        "home": ("", "Recent edits"),
        "article": (article, BUDGET),
        "search": ("search/", "Search"),
        "stats": ("stats/", "Statistics"),
    }


PAGE_NAMES: Final = ("home", "article", "search", "stats")


def visit(tab: Tab, path: str) -> None:
    response = tab.page.goto(tab.url(path), wait_until="load")
    assert response is not None and response.status == 200, f"{path}: {response}"


@pytest.fixture(params=sorted(VIEWPORTS))
def viewport(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_the_page_renders_with_its_heading_and_landmarks_and_no_errors(
    browser: Browser,
    site_url: str,
    pages: dict[str, tuple[str, str]],
    name: str,
    viewport: str,
) -> None:
    path, heading = pages[name]
    tab = open_tab(browser, site_url, viewport)
    try:
        visit(tab, path)
        page = tab.page
        assert page.get_by_role("heading", level=1).inner_text() == heading
        assert page.get_by_role("main").count() == 1
        assert page.get_by_role("banner").count() == 1
        assert page.get_by_role("contentinfo").count() == 1
        assert page.get_by_role("navigation", name="Site").count() == 1
        assert page.evaluate("document.documentElement.lang") == "en"
        # nothing wider than the viewport: no sideways scrolling on a phone
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} is {overflow}px wider than the {viewport} viewport"
        tab.screenshot(f"{name}-{viewport}")
        assert tab.errors == []
    finally:
        tab.page.context.close()


def test_an_edits_own_address_takes_the_reader_to_the_edit(
    tab: Tab, pages: dict[str, tuple[str, str]]
) -> None:
    article, _ = pages["article"]
    tab.page.goto(tab.url(article + "diff/2/"), wait_until="load")
    tab.page.wait_for_url(f"**/{article}#r2")
    edit = tab.page.locator("#r2")
    assert "46.8" in edit.locator("ins").first.inner_text()
    assert tab.errors == []


def test_the_atom_feed_is_served_as_xml(tab: Tab) -> None:
    response = tab.page.goto(tab.url("feed.xml"))
    assert response is not None and response.status == 200
    assert "xml" in response.headers["content-type"]
    assert '<feed xmlns="http://www.w3.org/2005/Atom"' in response.text()
    # An XML document cannot declare an icon, so the browser may (or may not, by timing)
    # ask for /favicon.ico at the server's root, outside the site; nothing else may fail.
    assert [error for error in tab.errors if not error.endswith("/favicon.ico)")] == []


@pytest.fixture(scope="session")
def axe_source() -> str:
    if not AXE.is_file():
        pytest.skip(f"no {AXE}: run npm ci --prefix tools")
    return AXE.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_axe_finds_no_accessibility_violations(
    browser: Browser,
    site_url: str,
    pages: dict[str, tuple[str, str]],
    axe_source: str,
    name: str,
    viewport: str,
) -> None:
    tab = open_tab(browser, site_url, viewport, bypass_csp=True)
    try:
        visit(tab, pages[name][0])
        tab.page.add_script_tag(content=axe_source)
        result = tab.page.evaluate(
            "async (tags) => await axe.run(document, {runOnly: {type: 'tag', values: tags}})",
            list(AXE_RULES),
        )
        violations = [
            {
                "rule": v["id"],
                "impact": v["impact"],
                "help": v["help"],
                "nodes": [n["target"] for n in v["nodes"]][:5],
            }
            for v in result["violations"]
            if (name, v["id"]) not in AXE_KNOWN
        ]
        assert violations == [], json.dumps(violations, indent=2)
    finally:
        tab.page.context.close()
