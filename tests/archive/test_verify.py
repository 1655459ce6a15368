"""`quietedit verify` finds every kind of damage, in the files and in git history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quietedit.archive.audit import audit_since
from quietedit.archive.records import dump_json, record_hash
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article.fingerprint import content_hash
from quietedit.errors import AuditError
from quietedit.model import JSON, Article, Block
from tests.conftest import T0, git, seed_story


def messages(root: Path) -> list[str]:
    return [str(p) for p in verify_archive(root).problems]


def rewrite(path: Path, **changes: JSON) -> dict[str, JSON]:
    """Rewrite a record in canonical form with ``changes`` applied (no hash recomputed)."""
    record: dict[str, JSON] = json.loads(path.read_text(encoding="utf-8"))
    record.update(changes)
    path.write_bytes(dump_json(record))
    return record


def forge(path: Path, *, title: str) -> None:
    """Edit a revision the way a careful forger would: every self-hash recomputed."""
    record = json.loads(path.read_text(encoding="utf-8"))
    record["title"] = title
    blocks = tuple(Block(b["text"], b["kind"]) for b in record["blocks"])
    record["content_hash"] = content_hash(Article(title=title, blocks=blocks))
    record["hash"] = record_hash(record)
    path.write_bytes(dump_json(record))


def test_a_sound_archive_has_no_problems(archive: Archive) -> None:
    seed_story(archive)
    archive.write_feed("city-desk", {"etag": None})
    archive.write_state("ledger", {})
    report = verify_archive(archive.root)
    assert report.problems == ()
    assert (report.documents, report.revisions, report.evidence) == (1, 3, 3)


def test_missing_archive_folder_is_one_clear_problem(tmp_path: Path) -> None:
    assert messages(tmp_path / "nope") == [
        f"{tmp_path / 'nope'}: no such archive folder; pass --data or run an ingest first"
    ]


def test_an_edited_revision_fails_its_own_hash(archive: Archive) -> None:
    doc = seed_story(archive)
    path = archive.revision_file(doc, 2)
    rewrite(path, title="Council rejects budget")
    found = messages(archive.root)
    assert len(found) == 2
    assert found[0].startswith(f"{path}: content_hash: recorded sha256:")
    assert found[1].startswith(f"{path}: hash: recorded sha256:")


def test_a_forged_hash_is_caught_by_the_successors_chain_link(archive: Archive) -> None:
    doc = seed_story(archive)
    forge(archive.revision_file(doc, 2), title="Council rejects budget")
    found = messages(archive.root)
    assert found == [
        f"{archive.revision_file(doc, 3)}: previous: "
        f"{archive.revisions(doc)[2].previous} breaks the chain; revision 2 has hash "
        f"{json.loads(archive.revision_file(doc, 2).read_text())['hash']}"
    ]


def test_a_forged_content_hash_is_recomputed(archive: Archive) -> None:
    doc = seed_story(archive)
    path = archive.revision_file(doc, 1)
    record = rewrite(path, content_hash="sha256:" + "0" * 64)
    rewrite(path, hash=record_hash(record))
    assert any("content_hash: recorded sha256:000" in m for m in messages(archive.root))


def test_a_broken_chain_is_reported(archive: Archive) -> None:
    doc = seed_story(archive)
    path = archive.revision_file(doc, 3)
    record = rewrite(path, previous="sha256:" + "1" * 64)
    rewrite(path, hash=record_hash(record))
    assert messages(archive.root) == [
        f"{path}: previous: sha256:{'1' * 64} breaks the chain; revision 2 has hash "
        f"{archive.revisions(doc)[1].hash}"
    ]


def test_a_deleted_middle_revision_leaves_a_gap(archive: Archive) -> None:
    doc = seed_story(archive)
    archive.revision_file(doc, 2).unlink()
    assert messages(archive.root) == [
        f"{archive.revision_file(doc, 2)}: missing: revisions must run 1..n without gaps (deleted?)"
    ]


def test_repeated_content_and_time_travel_are_reported(archive: Archive) -> None:
    doc = seed_story(archive, revisions=2)
    first = json.loads(archive.revision_file(doc, 1).read_text())
    path = archive.revision_file(doc, 2)
    record = rewrite(
        path,
        blocks=first["blocks"],
        content_hash=first["content_hash"],
        observed_at="2026-11-29T00:00:00Z",
    )
    rewrite(path, hash=record_hash(record))
    found = messages(archive.root)
    assert any("content_hash equals revision 1's" in m for m in found)
    assert any("is earlier than revision 1's" in m for m in found)


def test_orphans_strays_and_hand_edits_are_reported(archive: Archive) -> None:
    doc = seed_story(archive, revisions=1)
    archive.document_file(doc).unlink()
    (archive.root / "notes.txt").write_text("hello")
    (archive.root / "documents" / "Bad..Id").mkdir()
    (archive.root / "documents" / "Bad..Id" / "document.json").write_text("{}")
    archive.write_feed("desk", {})
    feed = archive.layout.feed_file("desk")
    feed.write_text(json.dumps(json.loads(feed.read_text())))  # same data, not canonical
    found = messages(archive.root)
    assert f"{archive.document_dir(doc)}: orphan files: the folder has no document.json" in found
    assert any(m.startswith(f"{archive.root / 'notes.txt'}: unexpected file") for m in found)
    assert any("Bad..Id: folder name is not a document id" in m for m in found)
    assert any(m.startswith(f"{feed}: not in canonical form") for m in found)


def test_missing_and_tampered_evidence_is_reported(archive: Archive) -> None:
    doc = seed_story(archive, revisions=2)
    first, second = archive.revisions(doc)
    assert first.observation.evidence and second.observation.evidence
    archive.layout.evidence_file(doc, first.observation.evidence).unlink()
    archive.layout.evidence_file(doc, second.observation.evidence).write_bytes(b"<p>other</p>")
    found = messages(archive.root)
    assert any(f"evidence {first.observation.evidence} is missing" in m for m in found)
    assert any("evidence bytes hash to" in m for m in found)


def test_events_are_checked_and_numbered_without_gaps(archive: Archive) -> None:
    doc = seed_story(archive, revisions=2)
    archive.append_event(doc, "flip-flop", observed_at=T0, revision=1, detail={"hash": "x"})
    archive.append_event(doc, "gone", observed_at=T0, revision=2, detail={"status": 410})
    assert messages(archive.root) == []
    assert [e.kind for e in archive.events(doc)] == ["flip-flop", "gone"]
    first = archive.event_file(doc, 1)
    rewrite(first, kind="vanished", revision=9)
    archive.event_file(doc, 2).rename(archive.event_file(doc, 3))
    found = messages(archive.root)
    assert any("kind: 'vanished' is not one of" in m for m in found)
    assert any("000002.json: missing: events must run 1..n" in m for m in found)
    assert any("number: 2 does not match the file name" in m for m in found)


def test_interrupted_writes_in_tmp_are_not_problems(archive: Archive) -> None:
    seed_story(archive, revisions=1)
    archive.layout.tmp_dir.mkdir(exist_ok=True)
    (archive.layout.tmp_dir / "000002.json.x1y2").write_text('{"half": ')
    assert messages(archive.root) == []


def test_symlinks_are_not_followed_out_of_the_archive(archive: Archive, tmp_path: Path) -> None:
    seed_story(archive, revisions=1)
    (archive.root / "feeds").mkdir(exist_ok=True)
    (archive.root / "feeds" / "evil.json").symlink_to("/etc/hostname")
    assert any("evil.json: is not a regular file" in m for m in messages(archive.root))


# -- git: --since ------------------------------------------------------------------------


def committed_story(repo: Path) -> tuple[Archive, str, str]:
    archive = Archive(repo / "data")
    doc = seed_story(archive)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "ingest")
    return archive, doc, git(repo, "rev-parse", "HEAD").strip()


def test_additions_and_state_changes_since_a_commit_are_fine(repo: Path) -> None:
    archive, doc, base = committed_story(repo)
    archive.write_document(doc, {"url": archive.revisions(doc)[0].observation.url, "checks": 9})
    archive.write_state("ledger", {"n": 1})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "state")
    assert audit_since(archive.root, base) == []


def test_an_edit_to_the_newest_revision_is_caught_only_by_git(repo: Path) -> None:
    archive, doc, base = committed_story(repo)
    newest = archive.revision_file(doc, 3)
    forge(newest, title="Council rejects budget")  # self-consistent: files alone look sound
    assert messages(archive.root) == []
    found = [str(p) for p in audit_since(archive.root, base)]
    assert found == [
        f"{newest}: modified since {base}; revisions, events and evidence are create-only"
    ]


def test_deleting_the_newest_revision_is_caught_only_by_git(repo: Path) -> None:
    archive, doc, _ = committed_story(repo)
    newest = archive.revision_file(doc, 3)
    newest.unlink()
    assert messages(archive.root) == []
    assert [str(p) for p in audit_since(archive.root, "HEAD")] == [
        f"{newest}: deleted since HEAD; revisions, events and evidence are create-only"
    ]


def test_a_modification_committed_and_then_undone_is_still_caught(repo: Path) -> None:
    archive, doc, base = committed_story(repo)
    path = archive.revision_file(doc, 1)
    original = path.read_bytes()
    forge(path, title="Rewritten history")
    git(repo, "commit", "-qam", "rewrite")
    path.write_bytes(original)
    git(repo, "commit", "-qam", "restore")
    shas = git(repo, "rev-list", f"{base}..HEAD").split()
    assert messages(archive.root) == []
    found = [str(p) for p in audit_since(archive.root, base)]
    assert found == sorted(
        f"{path}: modified in commit {sha[:12]}; revisions, events and evidence are create-only"
        for sha in shas
    )


def test_evidence_is_create_only_too(repo: Path) -> None:
    archive, doc, base = committed_story(repo)
    evidence = archive.revisions(doc)[0].observation.evidence
    assert evidence
    archive.layout.evidence_file(doc, evidence).unlink()
    assert any("deleted since" in str(p) for p in audit_since(archive.root, base))


def test_unknown_revision_and_missing_repository_are_clear_errors(
    repo: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    archive, _, _ = committed_story(repo)
    with pytest.raises(AuditError, match="'no-such-tag' names no commit"):
        audit_since(archive.root, "no-such-tag")
    with pytest.raises(AuditError, match="not a git revision"):
        audit_since(archive.root, "--output=/tmp/x")
    outside = tmp_path_factory.mktemp("plain")
    with pytest.raises(AuditError, match="not inside a git repository"):
        audit_since(outside, "HEAD")


def test_events_are_create_only_too(repo: Path) -> None:
    archive, doc, _ = committed_story(repo)
    archive.append_event(doc, "gone", observed_at=T0, revision=3)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "event")
    base = git(repo, "rev-parse", "HEAD").strip()
    rewrite(archive.event_file(doc, 1), kind="restored")
    assert [str(p) for p in audit_since(archive.root, base)] == [
        f"{archive.event_file(doc, 1)}: modified since {base}; "
        "revisions, events and evidence are create-only"
    ]


def test_nan_or_a_huge_number_in_a_hand_edited_file_is_a_problem_not_a_crash(
    archive: Archive,
) -> None:
    doc = seed_story(archive, revisions=1)
    path = archive.revision_file(doc, 1)
    path.write_text(path.read_text().replace('"status": 200', '"status": NaN'), encoding="utf-8")
    feed = archive.root / "feeds" / "desk.json"
    feed.parent.mkdir(exist_ok=True)
    feed.write_text('{"n": ' + "9" * 5000 + "}\n", encoding="utf-8")
    found = messages(archive.root)
    assert any(m.startswith(f"{path}: not canonical JSON") for m in found)
    assert any(m.startswith(f"{feed}: not valid UTF-8 JSON") for m in found)


def test_a_change_undone_on_a_merged_branch_is_still_caught(repo: Path) -> None:
    archive, doc, base = committed_story(repo)
    path = archive.revision_file(doc, 1)
    original = path.read_bytes()
    git(repo, "checkout", "-qb", "side")
    forge(path, title="Rewritten on a branch")
    git(repo, "commit", "-qam", "rewrite")
    path.write_bytes(original)
    git(repo, "commit", "-qam", "restore")
    git(repo, "checkout", "-q", "main")
    archive.write_state("ledger", {})
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "state")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge", "side")
    found = [str(p) for p in audit_since(archive.root, base)]
    assert len(found) == 2
    assert all(p.startswith(f"{path}: modified in commit") for p in found)
