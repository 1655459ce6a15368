"""``archive.treeids``: the folders' tree ids read top down, a folder as recorded left
unlisted (in the hourly job's clone, listing an old month would fetch all of it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from quietedit.archive import treeids
from tests.conftest import git

DOCS = (
    "2025/03/01/news.example.org-00000000000000a1",
    "2025/03/02/news.example.org-00000000000000a2",
    "2026/10/30/news.example.org-00000000000000b1",
    "2026/11/05/news.example.org-00000000000000c1",
)


def commit(root: Path, *changed: str) -> None:
    for doc in changed:
        record = root / "documents" / doc / "document.json"
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(record.read_text() + "x" if record.exists() else "{}", "utf-8")
    git(root.parent, "add", "-A")
    git(root.parent, "commit", "-qm", "change")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q", "-b", "main")
    data = tmp_path / "data"
    commit(data, *DOCS)
    return data


def test_a_folder_as_recorded_is_not_listed_and_the_result_is_a_full_read(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = treeids.read(root)
    assert first is not None
    assert set(first.partitions) == {doc.rpartition("/")[0] for doc in DOCS}
    assert set(first.folders) >= {"2025", "2025/03", "2026", "2026/10", "2026/11"}
    commit(root, DOCS[3])  # today's document changed
    asked: list[str] = []
    ls_tree = treeids._ls_tree

    def listed(where: Path, paths: list[str]) -> list[tuple[str, str]]:
        asked.extend(paths)
        return ls_tree(where, paths)

    monkeypatch.setattr(treeids, "_ls_tree", listed)
    second = treeids.read(root, first.folders)
    assert second is not None
    assert asked == ["documents/", "documents/2026/", "documents/2026/11/"]
    monkeypatch.undo()
    full = treeids.read(root)
    assert full is not None
    assert second.folders == full.folders
    assert second.partitions["2026/11/05"] != first.partitions["2026/11/05"]
    assert second.partitions["2025/03/01"] == first.partitions["2025/03/01"]


def test_an_old_partition_changed_is_found_below_its_changed_year_and_month(root: Path) -> None:
    first = treeids.read(root)
    assert first is not None
    commit(root, DOCS[0])  # a derived record written into a year-old document
    second = treeids.read(root, first.folders)
    assert second is not None
    moved = {p for p, tree in second.partitions.items() if first.partitions[p] != tree}
    assert moved == {"2025/03/01"}
