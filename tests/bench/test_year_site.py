"""``bench/year_site.py``: the folders the hour's runs had checked out, which the site
half's hourly build gets in its clone as the workflow's build finds them in the ingest's."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.bench import bench_module

CHECKED = "127-0-0-2-96fef49e726166be"  # checked in the hour, unchanged (and retired)
KEPT = "127-0-0-3-0a3560ea28b09f57"  # not checked in the hour
GONE = "127-0-0-4-ab00000000000001"  # its entry removed
NEW = "127-0-0-5-cd00000000000002"  # its entry added
REVISED = "127-0-0-6-ef00000000000003"  # a new revision, in another partition


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=repo, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout.strip()


def _commit(repo: Path, message: str) -> str:
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", message)
    return _git(repo, "rev-parse", "HEAD")


def _checks(repo: Path, partition: str, entries: dict[str, str]) -> None:
    path = repo / "data" / "documents" / partition / "checks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    documents = {doc: {"schedule": {"last_checked_at": at}} for doc, at in entries.items()}
    path.write_text(json.dumps({"documents": documents, "type": "checks"}), encoding="utf-8")


def _write(repo: Path, relative: str, text: str) -> None:
    path = repo / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_the_documents_a_checks_file_names_as_checked_come_with_the_written_folders(
    tmp_path: Path,
) -> None:
    year_site = bench_module("year_site")
    repo = tmp_path / "origin"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    old = "2026-02-18T10:00:00Z"
    _checks(repo, "2026/02/18", {CHECKED: old, KEPT: old, GONE: old})
    _write(repo, f"data/documents/2026/04/01/ef/{REVISED}/revisions/000001.json", "{}")
    _write(repo, "data/index/96/96f/entries.json", "{}")
    before = _commit(repo, "before")

    new = "2026-04-01T10:00:00Z"
    _checks(repo, "2026/02/18", {CHECKED: new, KEPT: old, NEW: new})
    _write(repo, f"data/documents/2026/04/01/ef/{REVISED}/revisions/000002.json", "{}")
    _write(repo, "data/index/96/96f/entries.json", '{"a": 1}')
    after = _commit(repo, "the hour")

    assert year_site.written_folders(repo, before, after) == [
        f"data/documents/2026/02/18/96/{CHECKED}",  # the first of those checked
        f"data/documents/2026/04/01/ef/{REVISED}",
        "data/index/96/96f",
    ]
    # a checks file in neither commit names no document
    assert (
        year_site.checked_documents(repo, before, after, "data/documents/2026/02/19/checks.json")
        == []
    )
