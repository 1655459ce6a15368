"""Every fixture feed in tests/fixtures/feeds parses as its sidecar ``.expect.json`` says.

Each fixture describes itself: ``<name>.expect.json`` beside ``<name>.<ext>`` holds a
``description``, the HTTP ``content_type`` and ``url`` it is served with, the
``fetched_at`` time, and either ``error`` (a substring of the FeedParseError) or the
expected ``feed`` fields, ``entries`` (all of them, in order; each lists only the keys it
checks) and ``problems`` (substrings that must each appear in some problem; ``[]`` means
the feed must parse clean).
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from quietedit.errors import FeedParseError
from quietedit.feeds.dates import NormalizedDate
from quietedit.feeds.parse import parse_feed

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "feeds"
EXPECTATIONS = sorted(FIXTURES.glob("*.expect.json"))


def fixture_body(expectation: Path) -> Path:
    stem = expectation.name.removesuffix(".expect.json")
    [body] = [p for p in FIXTURES.glob(stem + ".*") if p != expectation]
    return body


def test_every_fixture_has_expectations_and_every_expectation_a_fixture() -> None:
    bodies = {p for p in FIXTURES.iterdir() if not p.name.endswith(".expect.json")}
    assert bodies == {fixture_body(e) for e in EXPECTATIONS}
    assert len(EXPECTATIONS) >= 15


def check_date(actual: NormalizedDate | None, expected: dict[str, Any] | None, where: str) -> None:
    if expected is None:
        assert actual is None, where
        return
    assert actual is not None, where
    value = expected["value"]
    assert actual.value == (None if value is None else datetime.fromisoformat(value)), where
    for key in ("exact", "clamped", "raw"):
        if key in expected:
            assert getattr(actual, key) == expected[key], f"{where}.{key}"


def check_fields(actual: object, expected: dict[str, Any], where: str) -> None:
    for key, value in expected.items():
        got = getattr(actual, key)
        if key in {"published", "updated"}:
            check_date(got, value, f"{where}.{key}")
        elif isinstance(got, tuple):
            assert list(got) == value, f"{where}.{key}"
        else:
            assert got == value, f"{where}.{key}"


@pytest.mark.parametrize("expectation", EXPECTATIONS, ids=lambda p: p.name.split(".")[0])
def test_fixture_parses_as_described(expectation: Path) -> None:
    spec = json.loads(expectation.read_text(encoding="utf-8"))
    assert spec["description"]
    body = fixture_body(expectation).read_bytes()
    fetched_at = datetime.fromisoformat(spec["fetched_at"]) if "fetched_at" in spec else None
    if "error" in spec:
        with pytest.raises(FeedParseError) as caught:
            parse_feed(
                body, url=spec["url"], content_type=spec["content_type"], fetched_at=fetched_at
            )
        assert spec["error"] in str(caught.value)
        assert spec["url"] in str(caught.value)
        return
    feed = parse_feed(
        body, url=spec["url"], content_type=spec["content_type"], fetched_at=fetched_at
    )
    check_fields(feed, spec["feed"], "feed")
    assert len(feed.entries) == len(spec["entries"]), [e.title for e in feed.entries]
    for index, (entry, expected) in enumerate(zip(feed.entries, spec["entries"], strict=True)):
        check_fields(entry, expected, f"entries[{index}]")
    if not spec["problems"]:
        assert feed.problems == ()
    for wanted in spec["problems"]:
        assert any(wanted in problem for problem in feed.problems), (wanted, feed.problems)
