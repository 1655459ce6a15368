"""What a reader does with JavaScript on: search the archive, compare two revisions."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from tests.publish.browser.conftest import Tab
from tests.publish.browser.test_pages import BUDGET, article_path

if TYPE_CHECKING:
    from playwright.sync_api import Locator

WAIT_MS = 10_000
"""Generous for loopback; a broken page fails at the wait, not with a wrong answer."""


def search(tab: Tab, word: str, *, expect: str) -> Locator:
    """Type ``word`` into the Pagefind UI and wait for a result titled ``expect``."""
    tab.page.goto(tab.url("search/"))
    tab.page.locator(".pagefind-ui__search-input").fill(word)
    result = tab.page.locator(".pagefind-ui__result-link", has_text=expect)
    result.wait_for(timeout=WAIT_MS)
    return result


def test_searching_a_headline_word_finds_the_article(tab: Tab) -> None:
    result = search(tab, "budget", expect=BUDGET)
    assert result.count() == 1
    assert tab.errors == []


def test_a_search_result_opens_the_article_under_the_base_path(tab: Tab, demo_site: Path) -> None:
    result = search(tab, "budget", expect=BUDGET)
    href = urljoin(tab.page.url, result.get_attribute("href") or "")
    assert href == tab.url(article_path(demo_site, BUDGET))
    result.click()
    tab.page.wait_for_url(href)
    assert tab.page.get_by_role("heading", level=1).inner_text() == BUDGET


def test_comparing_two_chosen_revisions_shows_the_corrected_figure(
    tab: Tab, demo_site: Path
) -> None:
    article = article_path(demo_site, BUDGET)
    tab.page.goto(tab.url(article))
    tab.page.get_by_role("link", name="Compare any two revisions").click()
    form = tab.page.locator("form.compare-form")
    form.locator("select[name=from]").select_option("1")
    form.locator("select[name=to]").select_option("2")
    form.get_by_role("button", name="Compare").click()
    tab.page.wait_for_url("**&to=2", timeout=WAIT_MS)
    tab.page.locator("#compare-result ins").first.wait_for(timeout=WAIT_MS)
    status = tab.page.locator("#compare-status").inner_text()
    assert status.startswith("Revision 1 (") and "compared with revision 2" in status
    removed = tab.page.locator("#compare-result del").all_inner_texts()
    added = tab.page.locator("#compare-result ins").all_inner_texts()
    assert any("48.6" in text for text in removed), removed
    assert any("46.8" in text for text in added), added
    assert tab.errors == []


def test_asking_where_each_paragraph_comes_from_dates_the_corrected_one(
    tab: Tab, demo_site: Path
) -> None:
    tab.page.goto(tab.url(article_path(demo_site, BUDGET)))
    assert tab.page.locator("section.provenance li").count() == 0  # nothing until asked
    tab.page.get_by_role("button", name="Where each paragraph comes from").click()
    items = tab.page.locator("section.provenance li")
    items.first.wait_for(timeout=WAIT_MS)
    texts = items.all_inner_texts()
    assert "46.8 million" in texts[0] and "last changed in revision 2" in texts[0], texts
    assert all("first appeared in revision 1" in text for text in texts[1:]), texts
    assert items.first.locator("a").get_attribute("href") == "#r2"  # the edit, in the timeline
    assert tab.errors == []
