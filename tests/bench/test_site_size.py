"""``bench/build.py``: its count of edited documents with pages (a folded month's are not),
and the archive it generates, which ``verify`` must accept."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from quietedit.archive.verify import verify_archive
from tests.bench import bench_module


def _build() -> ModuleType:
    return bench_module("build")


def _document(data: Path, day: str, name: str, revisions: int) -> None:
    folder = data / "documents" / day / "00" / name / "revisions"  # its bucket
    folder.mkdir(parents=True)
    for n in range(1, revisions + 1):
        (folder / f"{n:06d}.json").write_text("{}", encoding="utf-8")


def test_the_documents_of_a_folded_month_are_not_counted(tmp_path: Path) -> None:
    build = _build()
    data, site = tmp_path / "data", tmp_path / "site"
    _document(data, "2026/01/31", "a", 2)
    _document(data, "2026/02/01", "b", 3)
    _document(data, "2026/02/02", "c", 1)  # never edited
    (site / "archive" / "2026" / "01").mkdir(parents=True)  # January folded
    folded = build.folded_months(site)
    assert folded == frozenset({"2026/01"})
    assert build.edited_documents(data) == 2
    assert build.edited_documents(data, folded=folded) == 1


def test_the_generated_archive_is_one_verify_accepts(tmp_path: Path) -> None:
    build = _build()
    data = tmp_path / "data"
    build.generate(data, docs=60, revisions=3, per_day=20)
    report = verify_archive(data)
    assert report.problems == ()
    assert report.documents == 60
    assert report.revisions > 60
