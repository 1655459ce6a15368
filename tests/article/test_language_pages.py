"""Every page under tests/fixtures/pages/languages meets the expectations written beside it.

One page per language, our own, each modelled on how a newsroom of that language builds
its article pages (its class names, its dateline, its "Updated" line, its correction
note): English, German, French, Spanish, Italian, Portuguese, Dutch, Polish, Swedish,
Japanese, Chinese and Korean, plus Hebrew, Arabic and Thai for the scripts. Each
``name.json`` names the headline, text the body must and must not hold (the dateline and
the "Updated" line are furniture), the "Updated" line and the notes the publisher
metadata must hold (with the kind the analysis gives each), the update notes the body
keeps for the analysis to tell from corrections, and the visible dateline with the
moment it names.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from quietedit.analysis.notes import UPDATE, note_kind
from quietedit.article.extract import extract_article
from quietedit.article.languages import dateparser_languages
from quietedit.article.notices import is_date_line
from quietedit.article.pagedates import parse_page_date
from quietedit.model import parse_timestamp
from tests.article.conftest import PAGES

LANGUAGE_PAGES = PAGES / "languages"
CASES = sorted(LANGUAGE_PAGES.glob("*.html"))
TEN_LANGUAGES = {"en", "de", "fr", "es", "it", "pt", "nl", "pl", "sv", "ja", "zh", "ko"}


def expectations(page: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    return loaded


def page_languages(tag: str) -> tuple[str, ...]:
    """The dateparser languages a page's dateline is read in (English and German, which
    have patterns of their own, by their code)."""
    return dateparser_languages(tag) or (tag.split("-")[0],)


def test_every_language_of_the_issue_has_a_page_with_a_dateline_and_a_correction() -> None:
    covered = set()
    for page in CASES:
        expected = expectations(page)
        if expected["dateline"] and expected["updated_line"] and expected["notes"]:
            covered.add(expected["language"].split("-")[0])
    assert covered == TEN_LANGUAGES


@pytest.mark.parametrize("page", CASES, ids=lambda p: p.stem)
def test_language_page_meets_its_expectations(page: Path) -> None:
    expected = expectations(page)
    article = extract_article(page.read_bytes(), url=expected["url"])
    texts = [block.text for block in article.blocks]
    body = "\n".join(texts)

    assert article.title == expected["title"]
    for snippet in expected["include"]:
        assert snippet in body, f"missing: {snippet!r}"
    for snippet in expected["exclude"]:
        assert snippet not in body, f"furniture kept: {snippet!r}"
    assert article.publisher.language == expected["language"]
    assert article.publisher.updated_line == expected["updated_line"]
    assert list(article.publisher.notes) == [note["text"] for note in expected["notes"]]
    assert [note_kind(note) for note in article.publisher.notes] == [
        note["kind"] for note in expected["notes"]
    ]
    # Update notes stay in the body, where the analysis tells them from corrections.
    for note in expected["update_notes"]:
        assert note in texts
        assert note_kind(note) == UPDATE


@pytest.mark.parametrize(
    "page", [p for p in CASES if expectations(p)["dateline"]], ids=lambda p: p.stem
)
def test_the_dateline_is_furniture_and_names_its_moment(page: Path) -> None:
    expected = expectations(page)
    languages = page_languages(expected["language"])
    assert is_date_line(
        expected["dateline_line"], languages=dateparser_languages(expected["language"])
    )
    moment = parse_page_date(expected["dateline"], languages=languages, complete=True)
    assert moment == parse_timestamp(expected["dateline_utc"])


@pytest.mark.parametrize("page", CASES, ids=lambda p: p.stem)
def test_language_pages_extract_the_same_twice(page: Path) -> None:
    raw = page.read_bytes()
    assert extract_article(raw) == extract_article(raw)
    assert extract_article(raw) == extract_article(raw.decode("utf-8"))


@pytest.mark.parametrize(
    ("text", "languages", "moment"),
    [
        ("hace 5 minutos", ("es",), datetime.fromisoformat("2026-06-04T11:55:00+00:00")),
        ("il y a 2 heures", ("fr",), datetime.fromisoformat("2026-06-04T10:00:00+00:00")),
        ("5 minut temu", ("pl",), datetime.fromisoformat("2026-06-04T11:55:00+00:00")),
        ("för 3 timmar sedan", ("sv",), datetime.fromisoformat("2026-06-04T09:00:00+00:00")),
        ("10 minuten geleden", ("nl",), datetime.fromisoformat("2026-06-04T11:50:00+00:00")),
        ("5 minuti fa", ("it",), datetime.fromisoformat("2026-06-04T11:55:00+00:00")),
        ("há 2 horas", ("pt",), datetime.fromisoformat("2026-06-04T10:00:00+00:00")),
        ("5分前", ("ja",), datetime.fromisoformat("2026-06-04T11:55:00+00:00")),
        ("5分鐘前", ("zh-Hant", "zh"), datetime.fromisoformat("2026-06-04T11:55:00+00:00")),
        ("3시간 전", ("ko",), datetime.fromisoformat("2026-06-04T09:00:00+00:00")),
    ],
)
def test_relative_times_are_read_against_the_given_now(
    text: str, languages: tuple[str, ...], moment: datetime
) -> None:
    base = datetime(2026, 6, 4, 12, 0)  # noqa: DTZ001 (naive UTC, as parse_page_date takes it)
    assert parse_page_date(text, languages=languages, base=base) == moment
    assert is_date_line(text, languages=languages)
    # A value that must not depend on "now" refuses them.
    assert parse_page_date(text, languages=languages, base=base, complete=True) is None


@pytest.mark.parametrize(
    ("text", "languages"),
    [
        ("El ministro dimitió el 4 de junio", ("es",)),
        ("W 2026 roku 4 osoby zginęły", ("pl",)),
        ("政府は6月4日に更新された指針を発表した。", ("ja",)),
        ("정부는 6월 4일 법안을 수정했다", ("ko",)),
        ("2026", ("fr",)),
        ("juni 2026", ("sv",)),
        ("1717488000", ("nl",)),
        ("20260604", ("de",)),
    ],
)
def test_prose_years_and_bare_numbers_are_not_datelines(
    text: str, languages: tuple[str, ...]
) -> None:
    assert not is_date_line(text, languages=languages)
    assert parse_page_date(text, languages=languages) is None


def test_a_page_in_no_listed_language_reads_only_labelled_datelines() -> None:
    assert is_date_line("Publicado el 4 de junio de 2026", languages=None)
    assert is_date_line("입력 2026.06.04 10:12", languages=None)
    assert not is_date_line("czwartek, 4 czerwca 2026", languages=None)
