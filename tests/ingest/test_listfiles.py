"""The observed list is kept as a head and one part per partition: a save rewrites the
parts that changed only, a save killed half-way leaves a readable list, shards keep their
own parts, and a list saved whole before parts existed is read as it is."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.decide.partitions import Observed, observed_from_lists
from quietedit.decide.shard import WHOLE, parse_shard
from quietedit.ingest.listfiles import head_of_part, read_list, write_list
from quietedit.ingest.partitions import Schedules, load_active, load_schedules, save_active
from quietedit.model import JSON

NOW = datetime(2026, 12, 1, 10, 17, tzinfo=UTC)
OLD, OLDER = "2026/11/20", "2026/11/12"
IDS = [f"news-example-org-{n:016x}" for n in range(1, 7)]


def entry(n: int) -> dict[str, JSON]:
    return {
        "url": f"https://news.example.org/story/{n}",
        "host": "news.example.org",
        "discovered_at": "2026-11-20T06:00:00Z",
        "schedule": {"next_check_at": f"2026-12-0{1 + n % 3}T06:00:00Z", "checks": n},
    }


def observed() -> tuple[Observed, Schedules]:
    pairs = [(OLD, IDS[0]), (OLD, IDS[1]), (OLDER, IDS[2]), ("2026/12/01", IDS[3])]
    keep = Observed(frozenset({"2026/11/30", "2026/12/01"}), frozenset(pairs))
    return keep, {pair: entry(n) for n, pair in enumerate(pairs)}


def as_read(keep: Observed) -> Observed:
    """``keep`` as a list reads it back: a partition read whole names no documents."""
    return observed_from_lists(keep.partitions(), keep.single())


def parts(archive: Archive) -> dict[str, int]:
    """Each part's state name → its file's inode (a rewrite is a new inode)."""
    return {
        name: archive.layout.state_file(name).stat().st_ino
        for name in archive.state_names()
        if head_of_part(name) is not None
    }


def test_a_save_rewrites_the_parts_that_changed_only(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "data")
    keep, schedules = observed()
    save_active(archive, keep, shard=WHOLE, now=NOW, schedules=schedules)
    before = parts(archive)
    assert len(before) == 3  # one per partition with documents or entries
    head = archive.read_state("partitions") or {}
    assert "documents" not in head and "schedules" not in head  # in the parts only

    moved: Schedules = {**schedules, (OLD, IDS[0]): {**entry(0), "schedule": {"checks": 9}}}
    save_active(archive, keep, shard=WHOLE, now=NOW + timedelta(hours=1), schedules=moved)
    after = parts(archive)
    assert len(after) == 3
    kept = set(before) & set(after)
    assert len(kept) == 2 and all(before[name] == after[name] for name in kept)  # untouched
    [new] = set(after) - set(before)
    assert new.startswith("partitions-2026-11-20-")  # the part of the moved entry, renamed
    assert load_schedules(archive) == moved
    assert load_active(archive) == as_read(keep)

    # a partition no document is observed in any more: its part goes
    left = Observed(keep.whole, frozenset(p for p in keep.documents if p[0] != OLDER))
    rest = {pair: e for pair, e in moved.items() if pair[0] != OLDER}
    save_active(archive, left, shard=WHOLE, now=NOW + timedelta(hours=2), schedules=rest)
    assert not [name for name in parts(archive) if "2026-11-12" in name]
    assert load_active(archive) == as_read(left) and load_schedules(archive) == rest


def test_the_list_reads_back_as_it_was_saved(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "data")
    keep, schedules = observed()
    save_active(archive, keep, shard=WHOLE, now=NOW, schedules=schedules)
    whole = read_list(archive, "partitions") or {}
    assert whole["active"] == ["2026/11/12", "2026/11/20", "2026/11/30", "2026/12/01"]
    assert whole["documents"] == {OLDER: [IDS[2]], OLD: [IDS[0], IDS[1]]}
    # today's partition is read whole: its document named by its entry alone
    assert set(whole["schedules"]) == {OLDER, OLD, "2026/12/01"}  # type: ignore[arg-type]
    # saved without entries (as a list before entries were kept): none read back
    save_active(archive, keep, shard=WHOLE, now=NOW)
    assert "schedules" not in (read_list(archive, "partitions") or {})
    assert load_schedules(archive) is None and load_active(archive) == as_read(keep)
    assert len(parts(archive)) == 2  # the partitions read in part only


def test_a_save_killed_before_its_head_leaves_the_list_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = Archive(tmp_path / "data")
    keep, schedules = observed()
    save_active(archive, keep, shard=WHOLE, now=NOW, schedules=schedules)
    moved: Schedules = {pair: {**e, "schedule": {"checks": 5}} for pair, e in schedules.items()}
    real = archive.write_state

    def killed(name: str, record: dict[str, JSON], *, final: bool = False) -> None:
        if name == "partitions":
            raise KeyboardInterrupt  # the process ends between the parts and the head
        real(name, record, final=final)

    monkeypatch.setattr(archive, "write_state", killed)
    with pytest.raises(KeyboardInterrupt):
        save_active(archive, keep, shard=WHOLE, now=NOW + timedelta(hours=1), schedules=moved)
    monkeypatch.undo()
    assert len(parts(archive)) == 6  # the new parts beside the old ones
    assert load_schedules(archive) == schedules  # the old head, with its parts
    assert verify_archive(archive.root).ok
    save_active(archive, keep, shard=WHOLE, now=NOW + timedelta(hours=2), schedules=moved)
    assert len(parts(archive)) == 3 and load_schedules(archive) == moved  # leftovers gone


def test_a_head_naming_a_missing_part_is_read_as_no_list(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    archive = Archive(tmp_path / "data")
    keep, schedules = observed()
    save_active(archive, keep, shard=WHOLE, now=NOW, schedules=schedules)
    gone = sorted(parts(archive))[0]
    archive.layout.state_file(gone).unlink()
    with caplog.at_level(logging.WARNING):
        assert load_active(archive) is None  # every partition is read: slower, never wrong
    assert f"state/{gone}.json is missing" in caplog.text
    assert load_schedules(archive) is None


def test_a_damaged_part_is_written_again_by_the_next_save(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "data")
    keep, schedules = observed()
    save_active(archive, keep, shard=WHOLE, now=NOW, schedules=schedules)
    damaged = archive.layout.state_file(sorted(parts(archive))[0])
    damaged.write_text("{", encoding="utf-8")
    assert load_active(archive) is None  # unreadable: every partition is read this time
    save_active(archive, keep, shard=WHOLE, now=NOW + timedelta(hours=1), schedules=schedules)
    assert load_active(archive) == as_read(keep) and load_schedules(archive) == schedules


def test_shards_keep_parts_of_their_own(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "data")
    keep, schedules = observed()
    first, second = parse_shard("1/2"), parse_shard("2/2")
    save_active(archive, keep, shard=first, now=NOW, schedules=schedules)
    theirs = set(parts(archive))
    assert all(name.startswith("partitions-shard-1-of-2-") for name in theirs)
    other = Observed(keep.whole, frozenset({(OLD, IDS[4])}))
    save_active(archive, other, shard=second, now=NOW, schedules={(OLD, IDS[4]): entry(4)})
    save_active(archive, other, shard=second, now=NOW, schedules={(OLD, IDS[5]): entry(5)})
    assert theirs <= set(parts(archive))  # the second shard's save left the first's alone
    assert load_active(archive) == as_read(keep).union(other)
    assert (load_schedules(archive) or {})[OLD, IDS[0]] == schedules[OLD, IDS[0]]


def test_a_list_saved_whole_before_parts_is_read_and_then_split(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "data")
    keep, schedules = observed()
    single: dict[str, JSON] = {OLD: [IDS[0], IDS[1]], OLDER: [IDS[2]]}
    by_partition: dict[str, dict[str, JSON]] = {}
    for (partition, document), found in schedules.items():
        by_partition.setdefault(partition, {})[document] = found
    old: dict[str, JSON] = {
        "active": list(keep.partitions()),
        "documents": dict(single.items()),
        "schedules": dict(by_partition.items()),
        "saved_at": "2026-12-01T09:17:00Z",
    }
    archive.write_state("partitions", old)
    assert load_active(archive) == as_read(keep) and load_schedules(archive) == schedules
    write_list(archive, "partitions", read_list(archive, "partitions") or {})
    head = json.loads(archive.layout.state_file("partitions").read_text(encoding="utf-8"))
    assert set(head["parts"]) == {OLD, OLDER, "2026/12/01"} and "documents" not in head
    assert load_active(archive) == as_read(keep) and load_schedules(archive) == schedules
