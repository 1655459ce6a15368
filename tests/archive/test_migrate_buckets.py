"""`quietedit migrate` moving each document folder of a partition into its bucket
(`<YYYY>/<MM>/<DD>/<id>/` → `<YYYY>/<MM>/<DD>/<bb>/<id>/`): an archive in the flat layout
read and written where it is until then, verify naming the old layout, every file kept
byte for byte, idempotent, a migration stopped after any move finished by the next run,
and the migrating commit accepted by the git audit."""

from __future__ import annotations

import os
import shutil
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from quietedit.archive.checks import FLAT_DOCUMENTS
from quietedit.archive.layout import DOCUMENTS_DIR, Layout
from quietedit.archive.migrate import migrate_archive
from quietedit.archive.since import verify_since
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.cli import cli
from quietedit.revisions import EvidenceRef
from tests.archive.builders import story_url, write_story
from tests.conftest import T0, git, observation

STORIES = 12


def no_pages(document: str, url: str, observed_at: datetime, body: bytes) -> EvidenceRef:
    raise AssertionError("an archive in partitions has no pages to keep")


def write_flat_archive(root: Path) -> dict[str, str]:
    """Stories over three days, each folder directly in its partition, as archives were
    written before the buckets; their partitions by id."""
    layout = Layout(root)
    homes = {}
    for n in range(STORIES):
        day = T0 - timedelta(days=n % 3)
        doc = write_story(root, story_url(n), revisions=2, discovered=day, events=n % 2)
        partition = day.strftime("%Y/%m/%d")
        bucketed = layout.document_dir(doc, partition)
        bucketed.rename(layout.flat_document_dir(doc, partition))
        bucketed.parent.rmdir()
        homes[doc] = partition
    return homes


def files(root: Path) -> dict[str, bytes]:
    """Every document file by document id and its path inside the document's folder."""
    found = {}
    for path in sorted((root / DOCUMENTS_DIR).rglob("*.json")):
        if path.name.startswith("checks"):
            continue
        inside = path.relative_to(root / DOCUMENTS_DIR).parts[3:]
        if len(inside[0]) == 2:  # a bucket
            inside = inside[1:]
        found["/".join(inside)] = path.read_bytes()
    return found


def messages(root: Path) -> list[str]:
    return [str(problem) for problem in verify_archive(root).problems]


def test_a_flat_archive_is_read_and_written_where_it_is_and_verify_names_the_old_layout(
    tmp_path: Path,
) -> None:
    root = tmp_path / "data"
    homes = write_flat_archive(root)
    assert messages(root) == [
        f"{root / DOCUMENTS_DIR}: {STORIES} document folders {FLAT_DOCUMENTS}"
    ]
    archive = Archive(root)
    assert sorted(archive.documents()) == sorted((p, doc) for doc, p in homes.items())
    doc = next(iter(homes))
    flat = archive.layout.flat_document_dir(doc, homes[doc])
    assert archive.document_dir(doc) == flat
    assert [r.number for r in archive.revisions(doc)] == [1, 2]
    stored = archive.append_revision(
        doc, observation(title="A later headline", at=T0 + timedelta(days=3), url=story_url(0))
    )
    assert stored.number == 3 and (flat / "revisions").is_dir()
    assert not archive.layout.document_dir(doc, homes[doc]).exists()  # no second folder
    # a new document goes to its bucket, beside the flat ones of its day
    new = write_story(root, story_url(99), revisions=1, discovered=T0)
    assert Archive(root).document_dir(new) == Layout(root).document_dir(new, homes[doc])
    assert messages(root) == [
        f"{root / DOCUMENTS_DIR}: {STORIES} document folders {FLAT_DOCUMENTS}"
    ]


def test_migrate_moves_every_folder_into_its_bucket_byte_for_byte_and_verify_passes(
    tmp_path: Path,
) -> None:
    root = tmp_path / "data"
    homes = write_flat_archive(root)
    before = files(root)
    report = migrate_archive(root, keep_page=no_pages)
    assert report.ok and report.bucketed == STORIES
    assert messages(root) == []
    assert files(root) == before
    layout = Layout(root)
    for doc, partition in homes.items():
        assert Archive(root).document_dir(doc) == layout.document_dir(doc, partition)
        assert not layout.flat_document_dir(doc, partition).exists()
    again = migrate_archive(root, keep_page=no_pages)
    assert again.ok and again.bucketed == 0


@pytest.mark.parametrize("survived", [0, 1, 5, STORIES - 1])
def test_a_migration_stopped_after_any_move_leaves_every_document_readable_and_is_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, survived: int
) -> None:
    root = tmp_path / "data"
    homes = write_flat_archive(root)
    before = files(root)
    real_rename = os.rename
    moved: list[str] = []

    def killed(old: str | Path, new: str | Path) -> None:
        if len(moved) == survived:
            raise SystemExit("killed")
        real_rename(old, new)
        moved.append(str(new))

    monkeypatch.setattr(os, "rename", killed)  # only the bucket moves rename
    with pytest.raises(SystemExit):
        migrate_archive(root, keep_page=no_pages)
    monkeypatch.setattr(os, "rename", real_rename)
    archive = Archive(root)
    for doc in homes:
        assert [r.number for r in archive.revisions(doc)] == [1, 2]  # wherever it is now
    left = STORIES - survived
    assert messages(root) == [
        f"{root / DOCUMENTS_DIR}: {left} document folder{'s' * (left != 1)} {FLAT_DOCUMENTS}"
    ]
    report = migrate_archive(root, keep_page=no_pages)
    assert report.ok and report.bucketed == left
    assert files(root) == before
    assert messages(root) == []


def test_a_folder_whose_bucket_holds_it_already_is_reported_and_left_in_place(
    tmp_path: Path,
) -> None:
    root = tmp_path / "data"
    homes = write_flat_archive(root)
    doc = next(iter(homes))
    layout = Layout(root)
    flat = layout.flat_document_dir(doc, homes[doc])
    shutil.copytree(flat, layout.document_dir(doc, homes[doc]))  # a copy by hand
    report = migrate_archive(root, keep_page=no_pages)
    assert [p.path for p in report.problems] == [str(flat)]
    assert "exists already; left in place" in report.problems[0].message
    assert report.bucketed == STORIES - 1
    assert flat.is_dir()
    assert any("a second folder of the document" in m for m in messages(root))


def test_the_migrating_commit_passes_the_git_audit_and_a_deleted_revision_does_not(
    tmp_path: Path,
) -> None:
    git(tmp_path, "init", "-q", "-b", "main")
    root = tmp_path / "data"
    homes = write_flat_archive(root)
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "archive, flat partitions")
    base = git(tmp_path, "rev-parse", "HEAD").strip()
    # an hourly run before the migration: a revision in a flat folder passes --since
    doc = next(iter(homes))
    Archive(root).append_revision(
        doc, observation(title="A later headline", at=T0 + timedelta(days=3), url=story_url(0))
    )
    assert verify_since(root, base).problems == ()
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "ingest")
    base = git(tmp_path, "rev-parse", "HEAD").strip()

    done = CliRunner().invoke(cli, ["migrate", "--data", str(root)])
    assert done.exit_code == 0, done.output
    assert f"moved {STORIES} document folders into their buckets" in done.output
    assert verify_since(root, base).problems == ()  # the working tree against the commit
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "migrate: document folders into their buckets")
    assert verify_since(root, base).problems == ()  # and the commit itself
    assert messages(root) == []

    # a revision gone in a move is no move
    head = git(tmp_path, "rev-parse", "HEAD").strip()
    victim = Layout(root).document_dir(doc, homes[doc]) / "revisions"
    first = sorted(victim.iterdir())[0]
    first.rename(tmp_path / "kept-aside.json")
    problems = [str(p) for p in verify_since(root, head).problems]
    assert any(str(first) in p and "deleted" in p for p in problems)
