"""A bounded site: past ``max_bytes`` the oldest months fold into one archive page each.

The archive here has stories first seen in September and in November; a small bound folds
September. Every check compares with a build from nothing: folding is a function of the
archive and the bound, never of what an earlier build left.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.model import Article, Block, Publisher
from quietedit.publish import BuildReport
from quietedit.publish.folding import MonthSize, months_to_fold
from quietedit.publish.listing import DocumentSummary
from quietedit.revisions import Observation
from tests.publish.sitecheck import api_ids, link_problems
from tests.publish.test_incremental import build, files

SEPTEMBER = datetime(2026, 9, 10, 8, 0, tzinfo=UTC)
NOVEMBER = datetime(2026, 11, 20, 8, 0, tzinfo=UTC)
DATA_URL = "https://github.com/example/watch/tree/main/data/"


def story(archive: Archive, url: str, seen: datetime, *, edits: int) -> str:
    """A story first seen at ``seen`` with ``edits`` edits (a paragraph added each)."""
    doc = document_id(url)
    archive.write_document(
        doc,
        {
            "url": url,
            "feeds": ["courier-world"],
            "first_seen": seen.isoformat().replace("+00:00", "Z"),
        },
    )
    paragraphs = ["The council met on Monday to debate the budget.", "It approved the plan."]
    for n in range(edits + 1):
        article = Article(
            f"Budget story {url[-2:]}", tuple(Block(p) for p in paragraphs), Publisher()
        )
        archive.append_revision(
            doc,
            Observation(
                url=url,
                observed_at=seen + timedelta(hours=3 * n),
                article=article,
                extractor="tests/1",
            ),
        )
        paragraphs.append(f"Update {n}: the vote was {40 + n} to {12 - n}.")
    return doc


@pytest.fixture
def data(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    archive = Archive(root)
    for n in range(3):
        story(
            archive,
            f"https://news.example.org/world/2026/09/s{n:02d}",
            SEPTEMBER + timedelta(days=n),
            edits=1 + n % 2,
        )
    story(archive, "https://news.example.org/world/2026/09/once", SEPTEMBER, edits=0)
    for n in range(2):
        story(
            archive,
            f"https://news.example.org/world/2026/11/s{n:02d}",
            NOVEMBER + timedelta(days=n),
            edits=1,
        )
    return root


def september(data: Path) -> list[str]:
    archive = Archive(data)
    return [d for d in archive.document_ids() if (archive.partition(d) or "").startswith("2026/09")]


def same_as_fresh(data: Path, out: Path, fresh: Path, **options: object) -> BuildReport:
    report = build(data, out, **options)
    assert not report.failures
    build(data, fresh, **options)
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(fresh).items()}
    return report


def test_a_small_bound_folds_the_oldest_month_into_its_archive_page(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    open_site = build(data, out)
    assert open_site.files and (out / "articles").is_dir()
    report = same_as_fresh(data, out, tmp_path / "fresh", max_bytes=1, data_url=DATA_URL)
    gone = september(data)
    for doc in gone:  # no pages, no API file, no sitemap line, no listing entry
        assert not (out / "articles" / doc).exists()
        assert not (out / f"api/documents/{doc}.json").exists()
        for page in ("index.html", "sitemaps/articles-1.xml", "sources/courier-world/index.html"):
            assert doc not in (out / page).read_text(encoding="utf-8")
    assert any(p.startswith("articles/") for p in report.removed)
    month = (out / "archive/2026/09/index.html").read_text(encoding="utf-8")
    edited = [
        d
        for d in gone
        if not d.endswith(document_id("https://news.example.org/world/2026/09/once")[-16:])
    ]
    assert len(edited) == 3
    for doc in edited:  # each edited story, linked to its data in the repository
        partition = Archive(data).partition(doc)
        assert f'href="{DATA_URL}documents/{partition}/{doc[-16:-14]}/{doc}/"' in month
    assert "once" not in month  # never edited: it had no page to fold
    index = json.loads((out / "api/index.json").read_text(encoding="utf-8"))
    assert [f["month"] for f in index["folded"]] == ["2026-09"]
    assert index["folded"][0] == {
        "documents": 4,
        "month": "2026-09",
        "page": "archive/2026/09/",
        "published": 3,
    }
    assert {d["day"][:7] for d in index["days"]} == {"2026-11"}
    assert api_ids(out) == set(Archive(data).document_ids()) - set(gone)
    # the newest month is never folded, however small the bound
    assert len(list((out / "articles").iterdir())) == 2
    stats = (out / "stats/index.html").read_text(encoding="utf-8")
    assert "6 articles tracked, 12 revisions stored, 6 edits observed." in stats  # all of them
    checked, problems = link_problems(out)
    assert checked > 50 and problems == []


def test_a_larger_bound_brings_the_folded_pages_back(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(data, out, max_bytes=1)
    assert not (out / "articles" / september(data)[0]).exists()
    report = same_as_fresh(data, out, tmp_path / "fresh")
    assert (out / "articles" / september(data)[0] / "index.html").is_file()
    assert not (out / "archive").exists()
    assert "archive/2026/09/index.html" in report.removed


def test_an_edit_to_a_folded_story_changes_no_page_of_it(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(data, out, max_bytes=1)
    doc = september(data)[0]
    archive = Archive(data)
    last = archive.revisions(doc)[-1]
    archive.append_revision(
        doc,
        Observation(
            url=last.observation.url,
            observed_at=NOVEMBER + timedelta(days=5),
            article=Article(
                last.article.title, (*last.article.blocks, Block("Late.")), Publisher()
            ),
            extractor="tests/1",
        ),
    )
    report = same_as_fresh(data, out, tmp_path / "fresh", max_bytes=1)
    assert not (out / "articles" / doc).exists()
    assert not any(doc in path for path in report.written)


def summary(month: str) -> DocumentSummary:
    return DocumentSummary(
        "d", None, "t", "s", 2, "", "", partition=month.replace("-", "/") + "/01"
    )


def test_the_oldest_months_fold_first_until_the_estimate_fits() -> None:
    months = {
        m: MonthSize(open=100, folded=10) for m in ("2026-01", "2026-02", "2026-03", "2026-04")
    }
    assert months_to_fold(months, max_bytes=1000) == frozenset()
    assert months_to_fold(months, max_bytes=300) == {"2026-01", "2026-02"}  # 100+100+10+10 ≤ 285
    assert months_to_fold(months, max_bytes=1) == {"2026-01", "2026-02", "2026-03"}
    assert months_to_fold({}, max_bytes=1) == frozenset()
    assert summary("2026-03").month == "2026-03"
