"""The exports of an archive made by the real ingest: the demo's newsroom, four rounds."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from quietedit.archive.store import Archive
from quietedit.demo import run_demo
from quietedit.export.datasette import QUERIES
from quietedit.export.newsedits import export_newsedits, read_lines
from quietedit.export.sqlite import SourceInfo, export_sqlite


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("demo-export")
    run = run_demo(root / "data")
    sources = [SourceInfo(f.slug, f.name, f.url, f.kind) for f in run.config.feeds]
    report = export_sqlite(Archive(root / "data"), root / "demo.db", sources=sources)
    assert report.failures == []
    with sqlite3.connect(root / "demo.db") as conn:
        ids = {
            url.split("/", 3)[3]: doc for doc, url in conn.execute("select id, url from documents")
        }
    return root / "data", root / "demo.db", ids


def answer(db: Path, name: str, **params: Any) -> list[tuple[Any, ...]]:
    sql = next(q.sql for q in QUERIES if q.name == name)
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchall()


def test_the_demo_exports_every_document_revision_and_event(
    demo: tuple[Path, Path, dict[str, str]],
) -> None:
    _, db, ids = demo
    with sqlite3.connect(db) as conn:
        counts = [conn.execute(f"select count(*) from {t}").fetchone()[0]  # noqa: S608
                  for t in ("documents", "revisions", "edits", "events")]  # fmt: skip
        kinds = dict(conn.execute("select kind, count(*) from events group by kind"))
        budget = conn.execute(
            "select kinds, silent from edits where document = ?",
            (ids["news/council-approves-budget"],),
        ).fetchall()
    assert counts == [9, 16, 7, 7]  # as the demo's own summary counts them
    assert kinds == {"feed-edit": 1, "flip-flop": 1, "gone": 1, "live-update": 4}
    assert budget == [('["facts","lede"]', 1)]  # 48.6 → 46.8 million, without a word


def test_the_example_queries_on_the_demo(demo: tuple[Path, Path, dict[str, str]]) -> None:
    _, db, ids = demo
    # the demo's rewritten headline bumped dateModified, its correction came hours later
    assert answer(db, "silent_headline_changes") == []
    assert answer(db, "early_corrections") == []
    assert answer(db, "silent_fact_changes") == [
        ("gazette-front", 6, 2, 1),
        ("the-harbour-gazette", 1, 1, 1),
    ]
    [(doc, text, first, last, newest)] = answer(db, "removed_text", phrase="million")
    assert (doc, first, last, newest) == (ids["news/council-approves-budget"], 1, 1, 2)
    assert "48.6 million pounds" in text
    grown = {row[0]: row[4:] for row in answer(db, "paragraphs_added_later")}
    assert grown[ids["health/emergency-waits-record"]] == (4, 2, 1)
    assert grown[ids["news/live/storm-live-latest"]][1] == 7  # the live blog's new posts


def test_the_demo_s_sentence_pairs(demo: tuple[Path, Path, dict[str, str]], tmp_path: Path) -> None:
    data, _, ids = demo
    report = export_newsedits(Archive(data), tmp_path / "demo.jsonl")
    assert (report.lines, report.documents, report.failures) == (7, 7, [])
    lines = {line["document"]: line for line in read_lines(tmp_path / "demo.jsonl")}
    counts = {
        path: lines[doc]["counts"] for path, doc in ids.items() if doc in lines
    }  # headline only, a number, a cut paragraph, a moved one, a correction note
    assert counts["news/tram-extension-delayed"] == {
        "added": 0, "deleted": 0, "edited": 0, "refactored": 0, "unchanged": 6,
    }  # fmt: skip
    assert counts["news/council-approves-budget"]["edited"] == 1
    assert counts["news/north-quay-warehouse-fire"]["deleted"] == 1
    assert counts["education/free-school-lunches"]["refactored"] == 1
    assert counts["health/emergency-waits-record"] == {
        "added": 2, "deleted": 0, "edited": 1, "refactored": 0, "unchanged": 2,
    }  # fmt: skip
