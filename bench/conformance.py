"""Other projects' conformance cases through quietedit: how many give their answer.

Usage: .venv/bin/python bench/conformance.py

Prints, for each suite, the cases that give the other project's expected answer:
feedparser's date cases (``tests/feeds/feedparser_date_cases.py``), courlan's
tracking-parameter cases (``tests/article/test_courlan_cases.py``), Google's robots.txt
cases (``tests/fetch/google_robots_cases.py``), a ``<meta charset>`` behind comments of
1025 to 8193 characters (as in html5lib-tests' encoding tests, after a full parse), and
feeds wrapped in XHTML pages (``tests/fixtures/feeds/*-in-xhtml.xhtml``). A case that
differs is listed. The test suite holds each of these at its current count.
"""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quietedit.article.encoding import resolve_encoding  # noqa: E402
from quietedit.article.identity import canonical_url  # noqa: E402
from quietedit.feeds.dates import normalize_date  # noqa: E402
from quietedit.feeds.parse import parse_feed  # noqa: E402
from quietedit.fetch.kinds import detect_kind  # noqa: E402
from quietedit.fetch.robots_groups import RobotsRules  # noqa: E402
from tests.article.test_courlan_cases import COURLAN_CASES  # noqa: E402
from tests.feeds.feedparser_date_cases import CASES as DATE_CASES  # noqa: E402
from tests.fetch.google_robots_cases import CASES as ROBOTS_CASES  # noqa: E402


def report(name: str, results: list[tuple[str, bool]]) -> None:
    passed = sum(ok for _, ok in results)
    print(f"{name}: {passed} of {len(results)}")
    for case, ok in results:
        if not ok:
            print(f"    differs: {case}")


def dates() -> list[tuple[str, bool]]:
    results = []
    for handler, text, expected in DATE_CASES:
        value = normalize_date(text, fetched_at=None).value
        got = None if value is None else value.timetuple()[:6]
        results.append((f"{handler} {text!r}", got == expected))
    return results


def courlan() -> list[tuple[str, bool]]:
    return [(url, urlsplit(canonical_url(url)).query == query) for url, query in COURLAN_CASES]


def robots() -> list[tuple[str, bool]]:
    return [
        (f"{test} {agent} {url[:80]}", RobotsRules.parse(txt).allows(url, agent=agent) is allowed)
        for test, txt, agent, url, allowed in ROBOTS_CASES
    ]


def late_meta() -> list[tuple[str, bool]]:
    results = []
    for length in (1025, 2048, 2049, 4096, 4097, 8192, 8193):
        opening = f"<!-- {length} characters ".encode()
        body = opening + b"x" * (length - len(opening) - 4) + b"z-->\n<meta charset=iso8859-2>"
        decision = resolve_encoding(body, "text/html")
        results.append((f"comment of {length}", decision.encoding == "iso-8859-2"))
    return results


def wrapped() -> list[tuple[str, bool]]:
    results = []
    for path in sorted((ROOT / "tests" / "fixtures" / "feeds").glob("*-in-xhtml.xhtml")):
        body = path.read_bytes()
        kind = detect_kind("application/xhtml+xml", body)
        feed = parse_feed(body, url="https://news.example/feed")
        results.append((path.name, kind != "html" and bool(feed.entries) and bool(feed.title)))
    return results


def main() -> None:
    report("feedparser date cases", dates())
    report("courlan tracking-parameter cases", courlan())
    report("Google robots.txt cases (3 follow RFC 9309 on purpose)", robots())
    report("<meta charset> past 1024 bytes", late_meta())
    report("feeds wrapped in XHTML pages", wrapped())


if __name__ == "__main__":
    main()
