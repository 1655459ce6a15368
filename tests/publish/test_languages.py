"""Articles in other languages and scripts on the site: ``lang`` and ``dir`` on their text,
right-to-left for Hebrew and Arabic, Chinese diffs by character, local publisher dates."""

from __future__ import annotations

from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser

from quietedit.article.identity import document_id
from quietedit.model import Publisher
from quietedit.publish import BuildOptions, build_site
from quietedit.publish.pages import parse_publisher_date
from quietedit.publish.text import text_language
from tests.publish.conftest import BASE_URL, SOURCES, STORIES, Story, write_archive

HEBREW = Story(
    "https://www.hadashot-hayom.example/news/2026-06-04/knesset-budget",
    (),
    (
        (
            "הכנסת אישרה את תקציב המדינה בקריאה ראשונה",
            ("התקציב אושר ברוב של 61 חברי כנסת מול 55.",),
            Publisher(language="he"),
        ),
        (
            "הכנסת אישרה את תקציב המדינה בקריאה ראשונה",
            ("התקציב אושר ברוב של 62 חברי כנסת מול 54.",),
            Publisher(language="he"),
        ),
    ),
)
CHINESE = Story(
    "https://www.taiwannews-net.example/news/aipl/202606040123.aspx",
    (),
    (
        (
            "交通部宣布增加五千個停車位",
            ("交通部今天宣布\uff0c將在明年增加五千個停車位。",),
            Publisher(language="zh-TW", date_published="2026/06/04 10:12"),
        ),
        (
            "交通部宣布增加五千個停車位",
            ("交通部今天宣布\uff0c將在後年增加三千個停車位。",),
            Publisher(language="zh-TW", date_published="2026/06/04 10:12"),
        ),
    ),
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("languages")
    write_archive(root / "data", (*STORIES, HEBREW, CHINESE))
    out = root / "site"
    report = build_site(
        BuildOptions(data=root / "data", out=out, base_url=BASE_URL, sources=SOURCES, search=False)
    )
    assert not report.failures, report.failures
    return out


def page(site: Path, story: Story, suffix: str = "") -> LexborHTMLParser:
    path = site / "articles" / document_id(story.url) / suffix / "index.html"
    return LexborHTMLParser(path.read_text(encoding="utf-8"))


def test_a_hebrew_article_is_marked_right_to_left_on_its_pages(site: Path) -> None:
    article = page(site, HEBREW)
    heading = article.css_first("h1")
    assert heading is not None
    assert heading.attributes.get("lang") == "he"
    assert heading.attributes.get("dir") == "rtl"
    diff = article.css_first("#r2")  # the edit, in the article page's timeline
    assert diff is not None
    blocks = diff.css_first("div.blocks")
    assert blocks is not None
    assert (blocks.attributes.get("lang"), blocks.attributes.get("dir")) == ("he", "rtl")
    # The site's own text stays English, left to right.
    root = article.css_first("html")
    assert root is not None
    assert root.attributes.get("lang") == "en"


def test_a_chinese_edit_is_diffed_character_by_character(site: Path) -> None:
    diff = page(site, CHINESE).css_first("#r2")
    assert diff is not None
    blocks = diff.css_first("div.blocks")
    assert blocks is not None
    assert (blocks.attributes.get("lang"), blocks.attributes.get("dir")) == ("zh-TW", "ltr")
    removed = [node.text(strip=True) for node in blocks.css("del")]
    added = [node.text(strip=True) for node in blocks.css("ins")]
    assert removed == ["明", "五"]
    assert added == ["後", "三"]


def test_listings_let_the_browser_set_the_direction_of_titles(site: Path) -> None:
    home = LexborHTMLParser((site / "index.html").read_text(encoding="utf-8"))
    titles = home.css("li.edit h3")
    assert titles
    assert all(title.attributes.get("dir") == "auto" for title in titles)


@pytest.mark.parametrize(
    ("tag", "attributes"),
    [
        ("he", ("he", "rtl")),
        ("ar-EG", ("ar-EG", "rtl")),
        ("fa_IR", ("fa-IR", "rtl")),
        ("ku-Arab", ("ku-Arab", "rtl")),
        ("az-Latn", ("az-Latn", "ltr")),
        ("zh-Hant-TW", ("zh-Hant-TW", "ltr")),
        ("en", ("en", "ltr")),
        (None, (None, "auto")),
        ("", (None, "auto")),
        ('en" onmouseover="x', (None, "auto")),
    ],
)
def test_text_language_gives_lang_and_dir(
    tag: str | None, attributes: tuple[str | None, str]
) -> None:
    assert text_language(tag) == attributes


def test_publisher_dates_in_the_page_language_are_read() -> None:
    moment = parse_publisher_date("4 czerwca 2026, 10:12", language="pl-PL")
    assert moment is not None and moment.isoformat() == "2026-06-04T10:12:00+00:00"
    moment = parse_publisher_date("2026年6月4日 10時12分", language="ja")
    assert moment is not None and moment.isoformat() == "2026-06-04T10:12:00+00:00"
    # A date without a year depends on "now": not read.
    assert parse_publisher_date("4 juin à 10h12", language="fr") is None
    assert parse_publisher_date("gestern", language="de") is None
