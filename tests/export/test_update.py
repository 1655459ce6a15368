"""``quietedit export sqlite --update``: last week's database brought up to date holds the
same rows as a full export of the same archive, in a git checkout and outside one, after
rounds of new documents, new revisions, events, a derived series and a removed document;
anything that makes the old rows untrustworthy gives a full export, and an interrupted
update leaves the database as it was."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from collections.abc import Iterable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from quietedit.archive import treeids
from quietedit.archive.derived import derived_to_record, new_derived
from quietedit.archive.files import create_file
from quietedit.archive.records import dump_json
from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.cli import cli
from quietedit.export import state
from quietedit.export import update as update_module
from quietedit.export.schema import STATE_TABLES, TABLES
from quietedit.export.sqlite import export_sqlite
from quietedit.export.update import KEYED_BY_DOCUMENT, update_sqlite
from quietedit.model import Block
from tests.analysis.wire_stories import OUTLET_A, OUTLET_B, OUTLET_C
from tests.conftest import T0, observation
from tests.export.conftest import STORIES, at, write_archive
from tests.export.test_stories_and_derived import URLS, store

FTS = ("revisions_fts", "texts_fts", "texts_removed_fts")


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=root,
        check=True,
        capture_output=True,
    )


def commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)


def contents(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table (the update's own included), in key order, and what
    each full-text index finds, with its rank, and counts."""
    found: dict[str, list[tuple[object, ...]]] = {}
    with sqlite3.connect(db) as conn:
        for name in [t.name for t in TABLES] + list(state.NAMES):
            found[name] = sorted(
                conn.execute(f'select * from "{name}"').fetchall(),  # noqa: S608
                key=repr,
            )
        for fts, content, key in (
            ("revisions_fts", "revisions", "id"),
            ("texts_fts", "texts", "id"),
            ("texts_removed_fts", "texts", "id"),
        ):
            for term in ("the", "council", "stadium", "ferry", "said"):
                found[f"{fts}:{term}"] = conn.execute(
                    f"select c.{key}, round(bm25({fts}), 6) from {fts} f "  # noqa: S608
                    f"join {content} c on c.rowid = f.rowid where {fts} match ? order by c.{key}",
                    (term,),
                ).fetchall()
            found[f"{fts}:rows"] = conn.execute(f"select count(*) from {fts}_docsize").fetchall()  # noqa: S608
    return found


def check_indexes(db: Path) -> None:
    """Each full-text index counts each row once and agrees with its table."""
    with sqlite3.connect(db) as conn:
        for fts, table in (("revisions_fts", "revisions"), ("texts_fts", "texts")):
            conn.execute(f"insert into {fts}({fts}) values ('integrity-check')")  # noqa: S608
            [(rows,)] = conn.execute(f"select count(*) from {table}").fetchall()  # noqa: S608
            [(indexed,)] = conn.execute(f"select count(*) from {fts}_docsize").fetchall()  # noqa: S608
            [(block,)] = conn.execute(f"select block from {fts}_data where id = 1").fetchall()  # noqa: S608
            assert _varint(block) == indexed == rows, fts
        [(removed,)] = conn.execute("select count(*) from texts_removed_fts_docsize").fetchall()
        [(block,)] = conn.execute(
            "select block from texts_removed_fts_data where id = 1"
        ).fetchall()
        assert _varint(block) == removed


def _varint(data: bytes) -> int:
    value = 0
    for byte in data:
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            break
    return value


def add_story(archive: Archive, key: str, *, hours: float, revisions: int = 2) -> str:
    url = f"https://news.example.org/uk/2026/12/0{1 + int(hours // 24)}/{key}"
    doc = document_id(url)
    when = T0 + timedelta(hours=hours)
    archive.write_document(
        doc,
        {
            "url": url,
            "discovered_at": when.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "feeds": ["courier-uk"],
            "status": "active",
        },
    )
    for n in range(revisions):
        lede = f"The council said the {key} would open on Monday."
        if n:
            lede += f" The date moved {n} times."
        seen = observation(
            lede, "The stadium plans were approved.", at=when + timedelta(hours=n), url=url
        )
        archive.append_revision(doc, seen)
    return doc


def change_round(archive: Archive, ids: dict[str, str], number: int) -> None:
    """One week's kinds of change: new documents, new revisions of old ones, events, a
    derived series, a removed document."""
    if number == 1:
        store(archive, "a", OUTLET_A, hours=0)  # one story told by two outlets
        store(archive, "b", OUTLET_B, hours=1.5)
        add_story(archive, "new-bridge", hours=30)
        add_story(archive, "new-library", hours=31, revisions=3)
        ferry = ids[STORIES[0].url]
        seen = archive.revisions(ferry)[-1]
        archive.append_revision(
            ferry,
            replace(
                observation(
                    "The ferry service will run a full timetable again from Friday.",
                    *(b.text for b in seen.article.blocks[1:]),
                    title="Ferry timetable restored",
                    at=at("2026-12-02T12:00:00"),
                    url=STORIES[0].url,
                ),
            ),
        )
        archive.append_event(ferry, "gone", observed_at=at("2026-12-02T13:00:00"), revision=None)
    elif number == 2:
        doc = ids[STORIES[1].url]
        first = archive.revisions(doc)[0]
        article = replace(first.article, blocks=(Block("Read again by a later extractor."),))
        reading = new_derived(first, article, number=1, extractor="quietedit-extract/2")
        path = archive.layout.derived_file(doc, archive.partition(doc) or "", 1)
        create_file(archive.layout.tmp_dir, path, dump_json(derived_to_record(reading)))
        gone = ids[STORIES[2].url]
        shutil.rmtree(archive.layout.document_dir(gone, archive.partition(gone) or ""))
        add_story(archive, "new-pool", hours=55)
        store(archive, "c", OUTLET_C, hours=3)  # a third outlet joins the story
    elif number == 3:  # a change not committed: stamped by its content
        add_story(archive, "new-park", hours=56)
        bridge = document_id("https://news.example.org/uk/2026/12/02/new-bridge")
        archive.append_revision(
            bridge,
            observation(
                "The council said the bridge opens on Tuesday.",
                url="https://news.example.org/uk/2026/12/02/new-bridge",
                at=T0 + timedelta(hours=40),
            ),
        )


@pytest.mark.parametrize("in_git", [True, False], ids=["git", "no-git"])
def test_an_update_after_each_round_of_changes_holds_a_full_export_s_rows(
    tmp_path: Path, in_git: bool
) -> None:
    root = tmp_path / "data"
    ids = write_archive(root)
    if in_git:
        git(root, "init", "-q")
        commit(root, "archive")
    db = tmp_path / "weekly.db"
    export_sqlite(Archive(root), db)
    check_indexes(db)
    for number in (1, 2, 3):
        change_round(Archive(root), ids, number)
        if in_git and number < 3:
            commit(root, f"round {number}")
        report = update_sqlite(Archive(root), db, jobs=2 if number == 2 else 1)
        assert report.note.startswith("updated:"), report.note
        reference = tmp_path / f"full-{number}.db"
        export_sqlite(Archive(root), reference)
        assert contents(db) == contents(reference), number
        check_indexes(db)
        with sqlite3.connect(db) as conn:
            assert conn.execute("pragma foreign_key_check").fetchall() == []
            assert conn.execute("pragma integrity_check").fetchall() == [("ok",)]
    assert "new-park" in str(contents(db)["documents"])
    assert len(contents(db)["stories"]) == 3  # a, b, then c
    # nothing changed: nothing read again, and still the same rows
    before = db.read_bytes()
    report = update_sqlite(Archive(root), db)
    assert report.note.startswith("updated: 0 documents read again (new or changed), 0 removed")
    assert contents(db) == contents(tmp_path / "full-3.db")
    assert len(db.read_bytes()) == len(before)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_in_git_only_the_changed_documents_are_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "data"
    ids = write_archive(root)
    git(root, "init", "-q")
    commit(root, "archive")
    db = tmp_path / "weekly.db"
    export_sqlite(Archive(root), db)
    change_round(Archive(root), ids, 1)
    commit(root, "round 1")
    archive = Archive(root)
    with sqlite3.connect(db) as conn:
        previous = state.read_previous(conn)
    assert isinstance(previous, state.Previous)
    partitions: list[list[str]] = []
    listing = archive.documents

    def documents(chosen: Iterable[str] | None = None) -> list[tuple[str, str]]:
        partitions.append(sorted(chosen or []))
        return listing(chosen)

    monkeypatch.setattr(archive, "documents", documents)
    changes = update_module.find_changes(
        archive, previous, treeids.read(root, previous.folders), jobs=1
    )
    read = sorted(doc for _, doc in changes.read)
    new = [
        document_id(f"https://news.example.org/uk/2026/12/02/{k}")
        for k in ("new-bridge", "new-library")
    ]
    told = [document_id(URLS[k]) for k in ("a", "b")]
    changed = [ids[STORIES[0].url], *new, *told]
    # the other documents of the days that gained one, and of the days after a new day
    # (its room comes before theirs): their texts are numbered anew
    days = {day for day, _ in listing()}
    gained = {archive.partition(doc) or "" for doc in [*new, *told]}
    first_new = min(gained - {r.partition for r in previous.documents.values()})
    assert first_new < max(days)
    renumbered = {doc for day, doc in listing() if day in gained or day > first_new}
    renumbered -= set(changed)
    assert renumbered and changes.renumbered == len(renumbered)
    assert read == sorted([*changed, *renumbered])
    assert changes.removed == [] and changes.unchanged == len(STORIES) - 1 - len(renumbered)
    # only the days whose folders changed are listed (those renumbered are recorded)
    assert partitions == [sorted({archive.partition(doc) or "" for doc in changed})]
    assert len(partitions[0]) < len(archive.partitions())


def test_every_table_is_keyed_by_document_or_written_again_whole() -> None:
    assert set(state.NAMES) == set(STATE_TABLES)  # made there, described in the schema
    whole = {"sources", "stories", "feed_entries"}
    assert KEYED_BY_DOCUMENT | whole == {t.name for t in TABLES}
    assert not KEYED_BY_DOCUMENT & whole


def full_export_because(tmp_path: Path, db: Path, reason: str) -> None:
    root = tmp_path / "data"
    report = update_sqlite(Archive(root), db)
    assert report.note == f"exported whole: {reason}"
    export_sqlite(Archive(root), tmp_path / "reference.db")
    assert db.read_bytes() == (tmp_path / "reference.db").read_bytes()


@pytest.fixture
def exported_once(tmp_path: Path) -> Path:
    write_archive(tmp_path / "data")
    db = tmp_path / "weekly.db"
    export_sqlite(Archive(tmp_path / "data"), db)
    return db


def test_a_missing_database_gives_a_full_export(tmp_path: Path) -> None:
    write_archive(tmp_path / "data")
    db = tmp_path / "weekly.db"
    full_export_because(tmp_path, db, f"there is no database at {db}")


def test_a_foreign_file_gives_a_full_export(tmp_path: Path) -> None:
    write_archive(tmp_path / "data")
    db = tmp_path / "weekly.db"
    db.write_bytes(b"<html>a release page, not the database</html>")
    full_export_because(tmp_path, db, "it is not a SQLite database")


def test_a_database_without_update_state_gives_a_full_export(
    tmp_path: Path, exported_once: Path
) -> None:
    with sqlite3.connect(exported_once) as conn:
        conn.execute("drop table _export_documents")
    full_export_because(
        tmp_path,
        exported_once,
        "it holds no update state (not written by this version of quietedit export)",
    )


@pytest.mark.parametrize(
    ("key", "what"),
    [
        ("version", "another version of the export"),
        ("analysis", "another version of the analysis (diff and classifier)"),
        ("sources", "other sources (feeds.yaml changed)"),
    ],
)
def test_a_database_written_otherwise_gives_a_full_export(
    tmp_path: Path, exported_once: Path, key: str, what: str
) -> None:
    with sqlite3.connect(exported_once) as conn:
        conn.execute("update _export set value = 'older' where key = ?", (key,))
    full_export_because(tmp_path, exported_once, f"it was written with {what}")


def test_a_damaged_database_gives_a_full_export(tmp_path: Path, exported_once: Path) -> None:
    data = bytearray(exported_once.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the schema's page overwritten
    exported_once.write_bytes(bytes(data))
    root = tmp_path / "data"
    report = update_sqlite(Archive(root), exported_once)
    assert report.note.startswith("exported whole: its update state cannot be read"), report.note
    export_sqlite(Archive(root), tmp_path / "reference.db")
    assert exported_once.read_bytes() == (tmp_path / "reference.db").read_bytes()


def test_an_interrupted_update_leaves_the_database_as_it_was(
    tmp_path: Path, exported_once: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = contents(exported_once)
    add_story(Archive(tmp_path / "data"), "new-bridge", hours=30)
    calls = []

    def interrupted(*args: object) -> None:
        calls.append(args)
        raise KeyboardInterrupt

    monkeypatch.setattr(update_module, "insert_document", interrupted)
    with pytest.raises(KeyboardInterrupt):
        update_sqlite(Archive(tmp_path / "data"), exported_once)
    assert calls and contents(exported_once) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["weekly.db"]


def test_the_command_says_what_it_updated_or_why_it_exported_whole(
    tmp_path: Path, feeds_yaml: Path
) -> None:
    root = tmp_path / "data"
    write_archive(root)
    out = tmp_path / "quietedit.db"
    args = ["export", "sqlite", str(out), "--data", str(root), "--config", str(feeds_yaml)]
    first = CliRunner().invoke(cli, [*args, "--update"])
    assert first.exit_code == 0, first.output
    assert f"exported whole: there is no database at {out}" in first.stdout
    add_story(Archive(root), "new-bridge", hours=30)
    second = CliRunner().invoke(cli, [*args, "--update"])
    assert second.exit_code == 0, second.output
    assert (  # the other document of its day has its texts numbered anew
        "updated: 2 documents read again (new or changed; 1 of them for their texts' "
        "numbers), 0 removed, 4 unchanged"
    ) in second.stdout
    third = CliRunner().invoke(cli, [*args[:-2], "--update"])  # no feeds.yaml: other sources
    assert "exported whole: it was written with other sources" in third.stdout


def segments(db: Path) -> dict[str, int]:
    """Each full-text index's segments: the rows of its ``_data`` table past the
    structure records are keyed ``segment << 37 | page``."""
    with sqlite3.connect(db) as conn:
        return {
            name: conn.execute(
                f"select count(distinct id >> 37) from {name}_data where id >= 1 << 37"  # noqa: S608
            ).fetchone()[0]
            for name in update_module.TEXT_INDEXES
        }


def test_an_update_with_optimize_merges_each_full_text_index_into_one_segment(
    tmp_path: Path,
) -> None:
    root = tmp_path / "data"
    ids = write_archive(root)
    db = tmp_path / "weekly.db"
    export_sqlite(Archive(root), db)
    assert set(segments(db).values()) == {1}
    for number in (1, 2):
        change_round(Archive(root), ids, number)
        update_sqlite(Archive(root), db)
    weekly = segments(db)
    # each weekly update adds segments (to the indexes whose rows it changes)
    assert weekly["texts_fts"] > 1 and weekly["revisions_fts"] > 1, weekly
    change_round(Archive(root), ids, 3)
    report = update_sqlite(Archive(root), db, optimize=True)
    assert report.note.startswith("updated:") and report.note.endswith(
        "; full-text indexes merged"
    ), report.note
    assert set(segments(db).values()) == {1}
    reference = tmp_path / "full.db"
    export_sqlite(Archive(root), reference)
    assert contents(db) == contents(reference)
    check_indexes(db)


def test_optimize_goes_with_update(tmp_path: Path) -> None:
    root = tmp_path / "data"
    write_archive(root)
    out = tmp_path / "quietedit.db"
    result = CliRunner().invoke(
        cli, ["export", "sqlite", str(out), "--data", str(root), "--optimize"]
    )
    assert result.exit_code == 2
    assert "--optimize goes with --update" in result.output
    assert not out.exists()
