"""Every fixture page under tests/fixtures/pages meets the expectations written beside it.

Each ``name.html`` has a ``name.json``: the headline, the number of blocks (and of each
kind), the first and last block, snippets the body must and must not contain, and the
publisher metadata. The pages are our own, modelled on real CMSs (WordPress, Arc, Drupal,
a live blog, a paywall, a consent wall, a German page in windows-1252).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from quietedit.article.extract import extract_article
from quietedit.model import PUBLISHER_FIELDS
from tests.article.conftest import PAGES

CASES = sorted(PAGES.glob("*.html"))


def expectations(page: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    return loaded


def test_every_fixture_page_has_expectations() -> None:
    assert len(CASES) >= 7
    for page in CASES:
        assert page.with_suffix(".json").is_file(), f"{page.name} has no expectations"


@pytest.mark.parametrize("page", CASES, ids=lambda p: p.stem)
def test_fixture_page_meets_its_expectations(page: Path) -> None:
    expected = expectations(page)
    article = extract_article(page.read_bytes(), url=expected["url"])
    texts = [block.text for block in article.blocks]
    body = "\n".join(texts)

    assert article.title == expected["title"]
    assert len(article.blocks) == expected["blocks"], texts
    assert dict(Counter(block.kind for block in article.blocks)) == expected["kinds"]
    assert texts[0].startswith(expected["first"])
    assert texts[-1].startswith(expected["last"])
    for snippet in expected["include"]:
        assert snippet in body, f"missing: {snippet!r}"
    for snippet in expected["exclude"]:
        assert snippet not in body, f"furniture kept: {snippet!r}"
    assert article.title not in texts, "the headline is repeated in the body"
    published = article.publisher.to_record()
    for field, value in expected["metadata"].items():
        assert field in PUBLISHER_FIELDS, field
        assert published[field] == value, field


@pytest.mark.parametrize("page", CASES, ids=lambda p: p.stem)
def test_extraction_is_deterministic_and_text_equals_bytes(page: Path) -> None:
    raw = page.read_bytes()
    first = extract_article(raw)
    assert extract_article(raw) == first
    if page.stem != "german-cp1252":  # the others are UTF-8
        assert extract_article(raw.decode("utf-8")) == first
