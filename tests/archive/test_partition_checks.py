"""A partition's checks file: schedules and validators kept apart from the records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article.identity import document_id
from tests.conftest import STORY_URL

OTHER_URL = "https://news.example.org/world/2026/11/30/harbour-strike-ends"
PARTITION = "2026/11/30"


def record(*, checked: str, etag: str | None = None, title: str = "Budget vote") -> dict[str, Any]:
    """A document record as ingest writes it: what is known, schedule and validators."""
    return {
        "url": STORY_URL,
        "discovered_at": "2026-11-30T06:00:00Z",
        "title": title,
        "http": {"etag": etag, "last_modified": None},
        "schedule": {"last_checked_at": checked, "failures": 0, "claimed_at": None},
    }


def checked_at(archive: Archive, doc: str) -> Any:
    """When the document was last checked, as a reader of the archive sees it."""
    seen: Any = archive.read_document(doc)
    return seen["schedule"]["last_checked_at"]


def checks_file(archive: Archive, name: str = "checks.json") -> dict[str, Any]:
    found: dict[str, Any] = json.loads(
        (archive.layout.partition_dir(PARTITION) / name).read_text(encoding="utf-8")
    )
    return found


def test_the_schedule_and_validators_go_to_the_checks_file_and_read_back_merged(
    archive: Archive,
) -> None:
    doc = document_id(STORY_URL)
    archive.write_document(doc, record(checked="2026-11-30T06:00:00Z", etag='"v1"'))
    stored = json.loads(archive.document_file(doc).read_text(encoding="utf-8"))
    assert "schedule" not in stored and "http" not in stored
    assert stored["title"] == "Budget vote"
    checks = checks_file(archive)
    assert checks["type"] == "checks" and checks["partition"] == PARTITION
    assert checks["documents"][doc]["http"] == {"etag": '"v1"', "last_modified": None}
    again = Archive(archive.root).read_document(doc)
    assert again is not None
    assert again["schedule"] == record(checked="2026-11-30T06:00:00Z")["schedule"]
    assert again["http"] == {"etag": '"v1"', "last_modified": None}
    assert again["title"] == "Budget vote"
    assert verify_archive(archive.root).problems == ()


def test_a_check_that_changes_only_the_schedule_leaves_the_record_file_alone(
    archive: Archive,
) -> None:
    doc = document_id(STORY_URL)
    archive.write_document(doc, record(checked="2026-11-30T06:00:00Z"))
    before = archive.document_file(doc).stat()
    archive.write_document(doc, record(checked="2026-11-30T07:00:00Z", etag='"v2"'))
    after = archive.document_file(doc).stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert checks_file(archive)["documents"][doc]["schedule"]["last_checked_at"] == (
        "2026-11-30T07:00:00Z"
    )
    archive.write_document(doc, record(checked="2026-11-30T08:00:00Z", title="Budget passes"))
    assert json.loads(archive.document_file(doc).read_text())["title"] == "Budget passes"


def test_a_batching_run_writes_its_entries_at_the_flush_and_reads_them_before(
    archive: Archive,
) -> None:
    doc = document_id(STORY_URL)
    archive.write_document(doc, record(checked="2026-11-30T06:00:00Z"))
    archive.checks.batched = True
    archive.write_document(doc, record(checked="2026-11-30T07:00:00Z"))
    # not on disk yet (a run killed now checks the article once more), but read back
    assert checks_file(archive)["documents"][doc]["schedule"]["last_checked_at"] == (
        "2026-11-30T06:00:00Z"
    )
    assert checked_at(archive, doc) == "2026-11-30T07:00:00Z"
    assert verify_archive(archive.root).problems == ()
    archive.flush_checks()
    assert checks_file(archive)["documents"][doc]["schedule"]["last_checked_at"] == (
        "2026-11-30T07:00:00Z"
    )


def test_a_check_that_stored_a_revision_has_its_partition_written_at_once(
    archive: Archive,
) -> None:
    doc, other = document_id(STORY_URL), document_id(OTHER_URL)
    archive.write_document(doc, record(checked="2026-11-30T06:00:00Z"))
    elsewhere = {**record(checked="2026-12-01T06:00:00Z"), "url": OTHER_URL}
    archive.write_document(other, {**elsewhere, "discovered_at": "2026-12-01T06:00:00Z"})
    archive.checks.batched = True
    archive.write_document(
        other,
        {**elsewhere, "discovered_at": "2026-12-01T06:00:00Z"}
        | {"schedule": {"last_checked_at": "2026-12-01T07:00:00Z"}},
    )
    changed = record(checked="2026-11-30T07:00:00Z")
    changed["schedule"] |= {"changes": 1, "last_changed_at": "2026-11-30T07:00:00Z"}
    archive.write_document(doc, changed, at_once=True)
    # as if the run were killed now: the restarted schedule is on disk, the other partition's
    # plain check is not (that article is checked once more)
    fresh = Archive(archive.root)
    seen: Any = fresh.read_document(doc)
    assert seen["schedule"]["changes"] == 1
    assert checked_at(fresh, other) == "2026-12-01T06:00:00Z"


def test_each_shard_writes_its_own_file_and_readers_take_the_newest_entry(tmp_path: Path) -> None:
    data = tmp_path / "data"
    doc = document_id(STORY_URL)
    first = Archive(data, writer="shard-1-of-2")
    first.write_document(doc, record(checked="2026-11-30T06:00:00Z"))
    # N changed: the document's new owner checks it later and writes its own file
    second = Archive(data, writer="shard-2-of-3")
    second.write_document(doc, record(checked="2026-11-30T09:00:00Z"))
    assert doc in checks_file(first, "checks-shard-1-of-2.json")["documents"]
    assert doc in checks_file(first, "checks-shard-2-of-3.json")["documents"]
    for reader in (Archive(data), Archive(data, writer="shard-1-of-2")):
        assert checked_at(reader, doc) == "2026-11-30T09:00:00Z"
    assert verify_archive(data).problems == ()


def test_a_record_from_before_the_checks_file_keeps_its_schedule_until_its_next_check(
    archive: Archive,
) -> None:
    doc = document_id(STORY_URL)
    archive.write_document(doc, {"url": STORY_URL, "discovered_at": "2026-11-30T06:00:00Z"})
    path = archive.document_file(doc)
    old = {**json.loads(path.read_text()), **record(checked="2026-11-30T06:30:00Z")}
    path.write_text(json.dumps(old, indent=2, sort_keys=True) + "\n")
    assert checked_at(Archive(archive.root), doc) == "2026-11-30T06:30:00Z"
    archive = Archive(archive.root)
    archive.write_document(doc, record(checked="2026-11-30T07:00:00Z"))
    # the record is written before the entry: it keeps the schedule, up to date, for now
    assert json.loads(path.read_text())["schedule"]["last_checked_at"] == "2026-11-30T07:00:00Z"
    assert checked_at(Archive(archive.root), doc) == "2026-11-30T07:00:00Z"
    archive.write_document(doc, record(checked="2026-11-30T08:00:00Z"))
    assert "schedule" not in json.loads(path.read_text())
    assert checked_at(Archive(archive.root), doc) == "2026-11-30T08:00:00Z"


def test_verify_reports_a_checks_file_that_is_wrong(archive: Archive) -> None:
    doc = document_id(STORY_URL)
    archive.write_document(doc, record(checked="2026-11-30T06:00:00Z"))
    path = archive.layout.partition_dir(PARTITION) / "checks.json"
    good = json.loads(path.read_text())
    cases = {
        "no such document in this partition": {
            **good,
            "documents": {**good["documents"], document_id(OTHER_URL): {"schedule": {}}},
        },
        "partition: '2026/11/29' is not '2026/11/30'": {**good, "partition": "2026/11/29"},
        "not an object of http and schedule": {
            **good,
            "documents": {doc: {"schedule": {}, "title": "x"}},
        },
        "http and schedule must be objects": {**good, "documents": {doc: {"http": []}}},
    }
    for expected, wrong in cases.items():
        path.write_text(json.dumps(wrong, indent=2, sort_keys=True) + "\n")
        messages = [p.message for p in verify_archive(archive.root).problems]
        assert any(expected in m for m in messages), (expected, messages)
    path.write_text(json.dumps(good, indent=2, sort_keys=True) + "\n")
    stray = path.with_name("checks-copy.json")
    stray.write_text(path.read_text())
    messages = [p.message for p in verify_archive(archive.root).problems]
    assert any("a checks file is checks.json or" in m for m in messages), messages


def test_a_legacy_record_keeps_its_schedule_on_disk_until_its_entry_is_written(
    archive: Archive,
) -> None:
    # a record from before the checks file: its schedule and validators are in it
    doc = document_id(STORY_URL)
    archive.write_document(doc, {"url": STORY_URL, "discovered_at": "2026-11-30T06:00:00Z"})
    path = archive.document_file(doc)
    old = {**json.loads(path.read_text()), **record(checked="2026-11-30T06:30:00Z")}
    old["schedule"]["changes"] = 4
    path.write_text(json.dumps(old, indent=2, sort_keys=True) + "\n")
    # a batching run checks it, then is killed before its checks file is written
    running = Archive(archive.root)
    running.checks.batched = True
    rewritten = record(checked="2026-11-30T07:00:00Z", title="Budget passes")
    rewritten["schedule"]["changes"] = 5
    running.write_document(doc, rewritten)
    after_kill: Any = Archive(archive.root).read_document(doc)
    assert after_kill["title"] == "Budget passes"
    assert after_kill["schedule"]["changes"] == 5, "the schedule went with the kill"
    assert verify_archive(archive.root).problems == ()
    # once the entry is on disk, the record's next rewrite leaves the schedule out
    running.flush_checks()
    running.write_document(doc, {**rewritten, "title": "Budget passes, 30 to 12"})
    assert "schedule" not in json.loads(path.read_text())
    reread: Any = Archive(archive.root).read_document(doc)
    assert reread["schedule"]["changes"] == 5


def test_a_damaged_checks_file_of_another_writer_loses_no_entry_of_this_one(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    doc, other = document_id(STORY_URL), document_id(OTHER_URL)
    first = Archive(data, writer="shard-1-of-2")
    first.write_document(doc, record(checked="2026-11-30T06:00:00Z"))
    later = {**record(checked="2026-12-01T06:00:00Z"), "url": OTHER_URL}
    first.write_document(other, {**later, "discovered_at": "2026-12-01T06:00:00Z"})
    # a file this writer never writes is damaged (a bad merge, a hand edit)
    damaged = first.layout.partition_dir(PARTITION) / "checks-shard-2-of-2.json"
    damaged.write_text("<<<<<<< HEAD\n", encoding="utf-8")
    running = Archive(data, writer="shard-1-of-2")
    running.checks.batched = True
    running.write_document(doc, record(checked="2026-11-30T09:00:00Z"))
    running.write_document(
        other,
        {**later, "discovered_at": "2026-12-01T06:00:00Z"}
        | {"schedule": {"last_checked_at": "2026-12-01T09:00:00Z"}},
    )
    running.flush_checks()  # this writer's own files are all it writes
    own = checks_file(running, "checks-shard-1-of-2.json")["documents"][doc]
    assert own["schedule"]["last_checked_at"] == "2026-11-30T09:00:00Z"
    again: Any = json.loads(
        (running.layout.partition_dir("2026/12/01") / "checks-shard-1-of-2.json").read_text()
    )
    assert again["documents"][other]["schedule"]["last_checked_at"] == "2026-12-01T09:00:00Z"
