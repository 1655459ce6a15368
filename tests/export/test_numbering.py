"""The texts' numbers (``texts.id``): compact, fixed by the archive's listing, never shared
by two documents; a day that gains a document renumbers that day only, unless it outgrows
its room; a document of many texts is numbered past its slot, one of too many is left out
with the reason; a full export and an update number the same."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest

from quietedit.archive.store import Archive
from quietedit.errors import ExportError
from quietedit.export import numbering
from quietedit.export.numbering import (
    MAX_SLOT,
    MAX_TEXTS,
    OVERFLOW,
    OVERFLOW_TEXTS,
    ROOM,
    SLOT,
    slots,
    text_number,
)
from quietedit.export.sqlite import export_sqlite
from quietedit.export.update import update_sqlite
from tests.conftest import observation
from tests.export.conftest import write_archive
from tests.export.test_update import add_story, check_indexes, contents


def day_of(number: int) -> str:
    return f"2026/11/{number:02d}"


def listing(days: dict[int, int]) -> list[tuple[str, str]]:
    """``days[d]`` documents in day ``d``, ids ``d<d>-<n>``."""
    return [(day_of(d), f"d{d:02d}-{n:04d}") for d, count in days.items() for n in range(count)]


def test_a_day_s_documents_are_ranked_by_id_after_the_rooms_of_the_days_before() -> None:
    found = slots([(day_of(2), "c"), (day_of(1), "b"), (day_of(1), "a"), (day_of(3), "d")])
    assert found == {"a": 0, "b": 1, "c": ROOM, "d": 2 * ROOM}


def test_a_document_added_to_an_old_day_moves_that_day_s_numbers_only() -> None:
    listed = listing({20: 100, 21: 100, 22: 100})
    before = slots(listed)
    after = slots([*listed, (day_of(21), "d21-0049x")])
    moved = {doc for doc in before if before[doc] != after[doc]}
    assert moved == {f"d21-{n:04d}" for n in range(50, 100)}


def test_a_day_that_outgrows_its_room_moves_the_days_after_it() -> None:
    listed = listing({20: 10, 21: ROOM, 22: 10})
    before = slots(listed)
    after = slots([*listed, (day_of(21), "d21-9999")])
    moved = {doc for doc in before if before[doc] != after[doc]}
    assert moved == {f"d22-{n:04d}" for n in range(10)}
    assert all(after[doc] == before[doc] + ROOM for doc in moved)


def test_no_two_documents_share_a_number() -> None:
    places = [*range(SLOT + 3), OVERFLOW_TEXTS + SLOT - 1]
    numbers = [text_number(slot, place, document="d") for slot in range(4) for place in places]
    assert len(set(numbers)) == len(numbers)
    assert all(0 < n < 2**63 for n in numbers)
    # a slot's first SLOT texts are numbered one after another
    assert [text_number(2, p, document="d") for p in range(SLOT)] == list(
        range(2 * SLOT + 1, 3 * SLOT + 1)
    )
    last = text_number(MAX_SLOT, MAX_TEXTS - 1, document="d")
    assert OVERFLOW <= last < 2**63


def test_texts_past_a_slot_are_numbered_above_every_slot_s() -> None:
    assert text_number(0, SLOT, document="d") == OVERFLOW
    assert text_number(1, SLOT, document="d") == OVERFLOW + OVERFLOW_TEXTS
    assert text_number(MAX_SLOT, SLOT - 1, document="d") < OVERFLOW


def test_a_document_of_too_many_texts_cannot_be_numbered() -> None:
    with pytest.raises(ExportError, match=r"x: more than 1,048,704 distinct texts"):
        text_number(0, MAX_TEXTS, document="x")


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=root,
        check=True,
        capture_output=True,
    )


def commit(root: Path) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "change")


def text_ids(db: Path) -> list[tuple[int, str, str]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("select id, document, text from texts order by id").fetchall()


@pytest.fixture
def archive_in_git(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    write_archive(root)
    git(root, "init", "-q")
    commit(root)
    export_sqlite(Archive(root), tmp_path / "weekly.db")
    return root


def test_a_document_added_to_an_old_day_renumbers_that_day_as_a_full_export_does(
    tmp_path: Path, archive_in_git: Path
) -> None:
    archive = Archive(archive_in_git)
    late = add_story(archive, "late-ferry", hours=20)  # first seen in an old day
    day = archive.partition(late) or ""
    assert day < max(archive.partitions())
    others = [doc for _, doc in archive.documents([day]) if doc != late]
    assert others
    commit(archive_in_git)
    db = tmp_path / "weekly.db"
    report = update_sqlite(Archive(archive_in_git), db)
    assert report.note.startswith(
        f"updated: {1 + len(others)} documents read again (new or changed; "
        f"{len(others)} of them for their texts' numbers), 0 removed"
    ), report.note
    export_sqlite(Archive(archive_in_git), tmp_path / "full.db")
    assert text_ids(db) == text_ids(tmp_path / "full.db")
    assert contents(db) == contents(tmp_path / "full.db")
    check_indexes(db)


def test_a_live_blog_is_numbered_past_its_slot_as_a_full_export_numbers_it(
    tmp_path: Path, archive_in_git: Path
) -> None:
    archive = Archive(archive_in_git)
    blog = add_story(archive, "live-blog", hours=60, revisions=1)
    for n in range(1, 4):  # 1 + 3 * 60 distinct texts
        posts = [f"Update {n}.{k}: the ferry crossed the strait at {k} knots." for k in range(60)]
        archive.append_revision(blog, observation(*posts, url=f"https://x.example/{n}"))
    commit(archive_in_git)
    db = tmp_path / "weekly.db"
    assert update_sqlite(Archive(archive_in_git), db).note.startswith("updated:")
    export_sqlite(Archive(archive_in_git), tmp_path / "full.db")
    assert text_ids(db) == text_ids(tmp_path / "full.db")
    assert contents(db) == contents(tmp_path / "full.db")
    check_indexes(db)
    numbers = [n for n, doc, _ in text_ids(db) if doc == blog]
    assert len(numbers) == 1 + 3 * 60 + 1  # and the story's second paragraph
    dense, past = numbers[:SLOT], numbers[SLOT:]
    assert dense == list(range(dense[0], dense[0] + SLOT))
    assert all(n >= OVERFLOW for n in past) and past == list(range(past[0], past[0] + len(past)))
    with sqlite3.connect(db) as conn:
        found = conn.execute(
            "select t.text from texts_fts f join texts t on t.rowid = f.rowid "
            "where texts_fts match '\"Update 3.59\"'"
        ).fetchall()
    assert found == [("Update 3.59: the ferry crossed the strait at 59 knots.",)]


def test_a_document_of_more_texts_than_can_be_numbered_is_left_out_with_the_reason(
    tmp_path: Path, archive_in_git: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(numbering, "OVERFLOW_TEXTS", 2)
    monkeypatch.setattr(numbering, "MAX_TEXTS", SLOT + 2)
    archive = Archive(archive_in_git)
    blog = add_story(archive, "live-blog", hours=60, revisions=1)
    posts = [f"Update {k}: the ferry crossed the strait." for k in range(SLOT + 2)]
    archive.append_revision(blog, observation(*posts, url="https://x.example/1"))
    report = export_sqlite(archive, tmp_path / "full.db")
    assert report.failures == [
        f"{blog}: {blog}: more than 130 distinct texts, the most a document's texts can be "
        "numbered: the document is left out of the export"
    ]
    found = {doc for _, doc, _ in text_ids(tmp_path / "full.db")}
    assert blog not in found and len(found) == len(archive.documents()) - 1
