"""`quietedit verify` (the full check) finds every kind of damage in a schema-2 archive."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from quietedit.archive.layout import Layout
from quietedit.archive.records import dump_json, record_hash
from quietedit.archive.verify import verify_archive
from quietedit.article.fingerprint import content_hash
from quietedit.article.identity import document_id
from quietedit.model import JSON, Article, Block
from tests.archive.builders import (
    add_index_entry,
    story_url,
    write,
    write_legacy_state,
    write_legacy_story,
    write_story,
)
from tests.conftest import T0

DAY = "2026/11/30"


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


def test_a_sound_archive_has_no_problems(tmp_path: Path) -> None:
    root = tmp_path / "data"
    write_story(root, events=1)
    write_story(root, story_url(1), discovered=T0 + timedelta(days=3), revisions=2)
    write_story(root, story_url(2), revision_schema=1)  # migrated: revisions keep schema 1
    report = verify_archive(root)
    assert report.problems == ()
    assert (report.documents, report.revisions, report.partitions) == (3, 8, 2)
    assert report.evidence == 8
    assert len(report.references) == 8


def test_missing_archive_folder_is_one_clear_problem(tmp_path: Path) -> None:
    assert messages(tmp_path / "nope") == [
        f"{tmp_path / 'nope'}: no such archive folder; pass --data or run an ingest first"
    ]


def test_an_edited_revision_fails_its_own_hash(tmp_path: Path) -> None:
    root = tmp_path / "data"
    doc = write_story(root)
    path = Layout(root).revision_file(doc, DAY, 2)
    rewrite(path, title="Council rejects budget")
    found = messages(root)
    assert len(found) == 2
    assert found[0].startswith(f"{path}: content_hash: recorded sha256:")
    assert found[1].startswith(f"{path}: hash: recorded sha256:")


def test_a_forged_hash_is_caught_by_the_successors_chain_link(tmp_path: Path) -> None:
    root = tmp_path / "data"
    doc = write_story(root)
    layout = Layout(root)
    forge(layout.revision_file(doc, DAY, 2), title="Council rejects budget")
    found = messages(root)
    assert len(found) == 1
    assert found[0].startswith(f"{layout.revision_file(doc, DAY, 3)}: previous: ")
    assert "breaks the chain; revision 2 has hash" in found[0]


def test_a_deleted_middle_revision_leaves_a_gap(tmp_path: Path) -> None:
    root = tmp_path / "data"
    doc = write_story(root)
    Layout(root).revision_file(doc, DAY, 2).unlink()
    assert messages(root) == [
        f"{Layout(root).revision_file(doc, DAY, 2)}: missing: revisions must run 1..n "
        "without gaps (deleted?)"
    ]


def test_repeated_content_and_time_travel_are_reported(tmp_path: Path) -> None:
    root = tmp_path / "data"
    doc = write_story(root, revisions=2)
    layout = Layout(root)
    first = json.loads(layout.revision_file(doc, DAY, 1).read_text())
    path = layout.revision_file(doc, DAY, 2)
    record = rewrite(
        path,
        blocks=first["blocks"],
        content_hash=first["content_hash"],
        observed_at="2026-11-29T00:00:00Z",
    )
    rewrite(path, hash=record_hash(record))
    found = messages(root)
    assert any("content_hash equals revision 1's" in m for m in found)
    assert any("is earlier than revision 1's" in m for m in found)


def test_orphans_strays_and_hand_edits_are_reported(tmp_path: Path) -> None:
    root = tmp_path / "data"
    doc = write_story(root, revisions=1)
    layout = Layout(root)
    layout.document_file(doc, DAY).unlink()
    (root / "notes.txt").write_text("hello")
    write(root / "documents" / DAY / "Bad..Id" / "document.json", b"{}")
    feed = write(
        root / "feeds" / "desk.json",
        json.dumps({"schema": 2, "slug": "desk", "type": "feed"}).encode(),
    )
    found = messages(root)
    assert f"{layout.document_dir(doc, DAY)}: orphan files: the folder has no document.json" in (
        found
    )
    assert any(m.startswith(f"{root / 'notes.txt'}: unexpected file") for m in found)
    assert any("Bad..Id: folder name is not a document id" in m for m in found)
    assert any(m.startswith(f"{feed}: not in canonical form") for m in found)


def test_a_document_outside_its_discovery_day_or_a_real_day_is_reported(tmp_path: Path) -> None:
    root = tmp_path / "data"
    doc = write_story(root)
    layout = Layout(root)
    moved = layout.document_dir(doc, "2026/12/01")
    moved.parent.mkdir(parents=True)
    layout.document_dir(doc, DAY).rename(moved)
    add_index_entry(root, doc, "2026/12/01")
    assert messages(root) == [
        f"{moved / 'document.json'}: discovered_at: 2026-11-30T06:00:00Z is in partition "
        f"{DAY}, but the folder is in 2026/12/01"
    ]
    other = write_story(root, story_url(1))
    bad = root / "documents" / "2026" / "02" / "30"
    bad.parent.mkdir(parents=True)
    layout.document_dir(other, DAY).parent.rename(bad)
    assert f"{bad}: '2026/02/30' is not a partition: YYYY/MM/DD of a real day" in messages(root)


def test_every_folder_needs_its_index_entry_and_the_entry_its_partition(tmp_path: Path) -> None:
    root = tmp_path / "data"
    doc = write_story(root)
    layout = Layout(root)
    shard = layout.index_file(doc[-16:-13])
    shard.unlink()
    assert messages(root) == [
        f"{layout.document_dir(doc, DAY)}: no index entry: the index does not know this document"
    ]
    add_index_entry(root, doc, "2026/11/29")  # the folder is in 2026/11/30
    assert messages(root) == [
        f"{layout.document_dir(doc, DAY)}: the index puts this document in partition "
        "2026/11/29, not here"
    ]


def test_an_entry_whose_folder_does_not_exist_is_a_registration_cut_short(tmp_path: Path) -> None:
    root = tmp_path / "data"
    write_story(root)
    add_index_entry(root, document_id(story_url(7)), "2026/12/01")
    assert messages(root) == []


def test_malformed_index_shards_are_reported(tmp_path: Path) -> None:
    root = tmp_path / "data"
    doc = write_story(root)
    layout = Layout(root)
    shard = doc[-16:-13]
    path = layout.index_file(shard)
    wrong = "000" if shard != "000" else "001"
    record = rewrite(path, schema=1, shard=wrong)
    documents = record["documents"]
    assert isinstance(documents, dict)
    documents[f"news-example-org-{wrong}0000000000000"] = "2026/13/01"
    rewrite(path, documents=documents)
    write(root / "index" / "zz.json", b"{}\n")
    found = messages(root)
    assert any(f"{path}: schema: 1 is not 4" in m for m in found)
    assert f"{path}: shard: {wrong!r} does not match the folder name" in found
    stray = f"news-example-org-{wrong}0000000000000"
    assert f"{path}: documents.{stray}: belongs in shard {wrong}" in found
    assert any("'2026/13/01' is not a partition" in m for m in found)
    assert any(m.startswith(f"{root / 'index' / 'zz.json'}: unexpected file") for m in found)


def test_events_are_checked_and_numbered_without_gaps(tmp_path: Path) -> None:
    root = tmp_path / "data"
    doc = write_story(root, revisions=2, events=2)
    layout = Layout(root)
    assert messages(root) == []
    rewrite(layout.event_file(doc, DAY, 1), kind="vanished", revision=9)
    layout.event_file(doc, DAY, 2).rename(layout.event_file(doc, DAY, 3))
    found = messages(root)
    assert any("kind: 'vanished' is not one of" in m for m in found)
    assert any("000002.json: missing: events must run 1..n" in m for m in found)
    assert any("number: 2 does not match the file name" in m for m in found)


def test_interrupted_writes_in_tmp_are_not_problems(tmp_path: Path) -> None:
    root = tmp_path / "data"
    write_story(root, revisions=1)
    write(root / ".tmp" / "000002.json.x1y2", b'{"half": ')
    assert messages(root) == []


def test_symlinks_are_not_followed_out_of_the_archive(tmp_path: Path) -> None:
    root = tmp_path / "data"
    write_story(root, revisions=1)
    (root / "feeds").mkdir()
    (root / "feeds" / "evil.json").symlink_to("/etc/hostname")
    assert any("evil.json: is not a regular file" in m for m in messages(root))


def test_nan_or_a_huge_number_in_a_hand_edited_file_is_a_problem_not_a_crash(
    tmp_path: Path,
) -> None:
    root = tmp_path / "data"
    doc = write_story(root, revisions=1)
    path = Layout(root).revision_file(doc, DAY, 1)
    path.write_text(path.read_text().replace('"status": 200', '"status": NaN'), encoding="utf-8")
    feed = write(root / "feeds" / "desk.json", b'{"n": ' + b"9" * 5000 + b"}\n")
    found = messages(root)
    assert any(m.startswith(f"{path}: not canonical JSON") for m in found)
    assert any(m.startswith(f"{feed}: not valid UTF-8 JSON") for m in found)


def test_a_schema_1_archive_is_one_problem_that_says_to_migrate(tmp_path: Path) -> None:
    root = tmp_path / "data"
    write_legacy_story(root)
    write_legacy_story(root, story_url(1))
    write_legacy_state(root)
    assert messages(root) == [
        f"{root / 'documents'}: schema-1 archive: run quietedit migrate "
        "(2 document folders in the schema-1 layout documents/<id>/)"
    ]


def test_what_an_interrupted_migration_left_says_to_rerun_it(tmp_path: Path) -> None:
    root = tmp_path / "data"
    write_legacy_story(root)
    write_story(root, story_url(1), revision_schema=1)
    assert messages(root) == [
        f"{root / 'documents'}: unfinished migration: rerun quietedit migrate "
        "(1 document folder in the schema-1 layout documents/<id>/)"
    ]


def test_a_migration_stopped_while_it_rewrote_the_state_files_says_to_rerun_it(
    tmp_path: Path,
) -> None:
    root = tmp_path / "data"
    write_story(root)  # every document moved; the feed and state files not yet rewritten
    write_legacy_state(root)
    assert messages(root) == [
        f"{root / 'documents'}: unfinished migration: rerun quietedit migrate "
        "(2 feed or state files still schema 1)"
    ]


def test_index_files_of_ingest_shards_count_and_must_agree(tmp_path: Path) -> None:
    root = tmp_path / "data"
    doc = write_story(root)
    layout = Layout(root)
    shard = doc[-16:-13]
    own = layout.index_file(shard)
    mine = layout.index_file(shard, writer="shard-2-of-3")
    own.rename(mine)  # registered by ingest shard 2 of 3
    assert messages(root) == []
    add_index_entry(root, doc, "2026/11/29")  # the unsharded file says otherwise
    found = messages(root)
    assert any("another file of the shard says" in m for m in found)
    write(layout.index_folder(shard) / "entries-shard-0-of-3.json", b"{}\n")
    assert any("unexpected file: index files are named" in m for m in messages(root))
