"""``quietedit export sqlite``: the archive as one database, its example queries answered."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from quietedit.archive.store import Archive
from quietedit.cli import cli
from quietedit.export import gather as gather_module
from quietedit.export import sqlite as export_module
from quietedit.export.datasette import QUERIES, metadata
from quietedit.export.schema import TABLES
from quietedit.export.sqlite import export_sqlite
from quietedit.publish import BuildOptions, build_site
from quietedit.publish import stories as stories_module
from quietedit.publish.paths import CACHE_DIR
from tests.export.conftest import COURIER, DAILY, STORIES, write_archive

FERRY, STADIUM, TAXES, FLOODS, BAKERY = (s.url for s in STORIES)


@pytest.fixture(scope="module")
def exported(
    archive_ids: tuple[Path, dict[str, str]],
    feeds_yaml: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, dict[str, str]]:
    root, ids = archive_ids
    out = tmp_path_factory.mktemp("export") / "quietedit.db"
    args = ["export", "sqlite", str(out), "--data", str(root), "--config", str(feeds_yaml)]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    assert "5 documents, 10 revisions" in result.stdout
    return out, ids


def query(db: Path, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchall()


def example(name: str) -> str:
    return next(q.sql for q in QUERIES if q.name == name)


def test_silent_headline_changes_are_counted_per_outlet_and_month(
    exported: tuple[Path, dict[str, str]],
) -> None:
    db, _ = exported
    # the stadium's headline, rewritten twice without a word; the floods headline was
    # rewritten with dateModified bumped, so it is not silent
    assert query(db, example("silent_headline_changes")) == [
        ("courier-uk", "2026-11", 1),
        ("courier-uk", "2026-12", 1),
    ]


def test_a_correction_35_minutes_after_publication_is_found(
    exported: tuple[Path, dict[str, str]],
) -> None:
    db, ids = exported
    assert query(db, example("early_corrections")) == [
        (
            f"{ids[FERRY]}/2",
            "courier-uk",
            "Ferry timetable cut after vessel fails inspection",
            "2026-11-24T08:00:00Z",
            "2026-11-24T08:35:00Z",
            35,
        )
    ]


def test_silent_fact_changes_are_counted_per_outlet(exported: tuple[Path, dict[str, str]]) -> None:
    db, _ = exported
    # the ferry's corrected cost was admitted; the stadium's capacity was changed silently
    assert query(db, example("silent_fact_changes")) == [
        ("courier-uk", 3, 2, 1),
        ("daily-politics", 2, 0, 0),
    ]


def test_text_taken_out_is_found_by_full_text_search(exported: tuple[Path, dict[str, str]]) -> None:
    db, ids = exported
    assert query(db, example("removed_text"), phrase="raise taxes") == [
        (
            ids[TAXES],
            "“We will not raise taxes this year,” she said, adding that the budget was balanced.",
            1,
            1,
            2,
        )
    ]
    removed = query(db, example("removed_text"), phrase="economists")
    assert [row[1] for row in removed] == [
        "Economists said the forecast relied on optimistic growth figures."
    ]
    assert query(db, example("removed_text"), phrase="bakery") == []  # still there


def test_blocks_added_or_changed_after_the_first_revision_come_from_provenance(
    exported: tuple[Path, dict[str, str]],
) -> None:
    db, ids = exported
    rows = query(db, example("paragraphs_added_later"))
    assert [(r[0], r[4], r[5], r[6]) for r in rows] == [
        (ids[STADIUM], 4, 2, 1),  # the capacity changed in 3, the parking paragraph added in 3
        (ids[FERRY], 3, 1, 1),
        (ids[TAXES], 2, 1, 1),
        (ids[FLOODS], 3, 1, 0),
    ]
    assert query(
        db,
        "select position, first_appeared, last_changed, since, basis from provenance "
        "where document = :doc order by position",
        doc=ids[STADIUM],
    ) == [
        (0, 1, 3, f"{ids[STADIUM]}/3", "last-changed"),
        (1, 1, None, f"{ids[STADIUM]}/1", "first-appeared"),
        (2, 1, None, f"{ids[STADIUM]}/1", "first-appeared"),
        (3, 3, None, f"{ids[STADIUM]}/3", "first-appeared"),
    ]


EVERY_TEXT_TAKEN_OUT = """select t.document, t.text,
  min(b.number) as first_revision, max(b.number) as last_revision,
  r.number as newest_revision
from texts_fts f
join texts t on t.id = f.rowid
join blocks b on b.text = t.id
join revisions r on r.document = t.document
  and r.number = (select max(number) from revisions where document = t.document)
where texts_fts match :phrase
group by t.id
having max(b.number) < r.number
order by t.document, first_revision"""
"""``removed_text`` as it searched every text, before the index of the texts taken out."""

PROVENANCE_COUNTED = """select p.document, d.source, d.title, d.revisions,
  count(*) as blocks,
  sum(p.since <> p.document || '/1') as not_in_first,
  sum(p.basis = 'last-changed') as changed_since
from provenance p
join documents d on d.id = p.document
group by p.document
having not_in_first > 0
order by not_in_first desc, p.document"""
"""``paragraphs_added_later`` as it counted the provenance rows, before the counts kept."""


@pytest.mark.parametrize("phrase", ["the", "said", "million", "raise taxes", "seat", "bridge"])
def test_the_index_of_text_taken_out_finds_what_a_search_of_every_text_keeps(
    exported: tuple[Path, dict[str, str]], phrase: str
) -> None:
    db, _ = exported
    every = query(db, EVERY_TEXT_TAKEN_OUT, phrase=phrase)
    assert query(db, example("removed_text"), phrase=phrase) == every
    assert every or phrase in {"seat", "bridge"}  # "seat": in the newest revision only


def test_the_kept_counts_of_provenance_are_its_rows_counted(
    exported: tuple[Path, dict[str, str]],
) -> None:
    db, _ = exported
    assert query(db, example("paragraphs_added_later")) == query(db, PROVENANCE_COUNTED)
    # every document, those whose blocks all date from revision 1 too
    assert query(
        db,
        "select d.id, d.blocks, d.blocks_not_in_first, d.blocks_changed_since from documents d "
        "order by d.id",
    ) == query(
        db,
        "select d.id, count(p.position), coalesce(sum(p.since <> d.id || '/1'), 0), "
        "coalesce(sum(p.basis = 'last-changed'), 0) from documents d "
        "left join provenance p on p.document = d.id group by d.id order by d.id",
    )


def test_each_table_has_its_rows_and_every_foreign_key_holds(
    exported: tuple[Path, dict[str, str]],
) -> None:
    db, ids = exported
    counts = {t.name: query(db, f'select count(*) from "{t.name}"')[0][0] for t in TABLES}  # noqa: S608
    assert counts == {
        "sources": 2,
        "documents": 5,
        "revisions": 10,
        "texts": 18,
        "blocks": 28,
        "edits": 5,
        "edit_ops": 6,
        "edit_kinds": 14,
        "edit_signals": 25,
        "events": 1,
        "provenance": 14,
        "derived": 0,  # filled in test_stories_and_derived.py
        "stories": 0,
        "feed_entries": 7,
    }
    assert query(db, "pragma foreign_key_check") == []
    declared = {(r[3], r[2], r[4]) for r in query(db, "pragma foreign_key_list(blocks)")}
    assert declared == {("revision", "revisions", "id"), ("document", "documents", "id"),
                        ("text", "texts", "id")}  # fmt: skip
    assert query(db, "select document, link from feed_entries where document is null") == [
        (None, f"{COURIER}/not-archived"),
        (None, f"{DAILY}/not-archived"),
    ]
    assert query(db, "select kind, revision, detail from events") == [
        ("gone", f"{ids[BAKERY]}/1", '{"status":410}')
    ]


def test_an_edit_row_carries_its_ops_kinds_verdict_and_signals(
    exported: tuple[Path, dict[str, str]],
) -> None:
    db, ids = exported
    edit = f"{ids[FERRY]}/2"
    assert query(
        db,
        "select significance, silent, kinds, changed, words_added, words_removed "
        "from edits where id = :edit",
        edit=edit,
    ) == [("substantive", 0, '["correction","facts"]', 1, 2, 2)]  # "1.2": two words
    [(op, old, new, words)] = query(
        db, "select op, old, new, words from edit_ops where edit = :edit", edit=edit
    )
    assert (op, old, new) == ("changed", "1", "1")
    assert ["-", "1.2 "] in json.loads(words) and ["+", "2.1 "] in json.loads(words)
    signals = dict(query(db, "select name, seen from edit_signals where edit = :e", e=edit))
    assert signals["note"] == 1 and signals["date-modified"] == 1


def test_titles_and_block_text_are_searchable(exported: tuple[Path, dict[str, str]]) -> None:
    db, ids = exported
    titles = query(
        db,
        "select r.id from revisions_fts f join revisions r on r.rowid = f.rowid "
        "where revisions_fts match 'gasworks'",
    )
    assert titles == [(f"{ids[STADIUM]}/3",)]
    texts = query(db, "select rowid from texts_fts where texts_fts match '\"rest centre\"'")
    assert len(texts) == 1


def _varint(data: bytes) -> int:
    """The first of SQLite's variable-length integers in ``data`` (as FTS5 writes them)."""
    value = 0
    for byte in data[:8]:
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value
    return (value << 8) | data[8]


def test_each_full_text_index_counts_each_row_once(exported: tuple[Path, dict[str, str]]) -> None:
    # An index filled twice finds the same rows but counts each twice in its averages,
    # and every rank (bm25) it gives is off.
    db, _ = exported
    for fts, rows in (
        ("revisions_fts", "select count(*) from revisions"),
        ("texts_fts", "select count(*) from texts"),
        ("texts_removed_fts", "select count(*) from texts_removed_fts_docsize"),
    ):
        [(averages,)] = query(db, f"select block from {fts}_data where id = 1")  # noqa: S608
        [(count,)] = query(db, rows)
        assert _varint(averages) == count > 0, fts


def test_the_same_archive_gives_the_same_bytes(
    archive_ids: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    root, _ = archive_ids
    first = export_sqlite(Archive(root), tmp_path / "a.db")
    export_sqlite(Archive(root), tmp_path / "b.db")
    assert (tmp_path / "a.db").read_bytes() == (tmp_path / "b.db").read_bytes()
    assert first.rows["documents"] == 5
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.db", "b.db"]  # no temp file left


def test_worker_processes_and_a_site_build_s_saved_diffs_give_the_same_bytes(
    archive_ids: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _ = archive_ids
    export_sqlite(Archive(root), tmp_path / "one.db", jobs=1)
    export_sqlite(Archive(root), tmp_path / "two.db", jobs=2)
    assert (tmp_path / "one.db").read_bytes() == (tmp_path / "two.db").read_bytes()
    site = tmp_path / "site"
    report = build_site(BuildOptions(data=root, out=site, base_url="https://example.org/"))
    assert not report.failures

    def recompute(*args: object, **kwargs: object) -> None:
        raise AssertionError("a comparison the site saved was computed again")

    monkeypatch.setattr(gather_module, "compare_revisions", recompute)
    monkeypatch.setattr(stories_module, "group_stories", recompute)  # the months it grouped
    monkeypatch.setattr(stories_module, "parts_key", recompute)  # nor their inputs hashed
    monkeypatch.setattr(export_module, "story_sketch", recompute)  # and the sketches it made
    export_sqlite(Archive(root), tmp_path / "cached.db", site_cache=site / CACHE_DIR)
    assert (tmp_path / "cached.db").read_bytes() == (tmp_path / "one.db").read_bytes()
    monkeypatch.chdir(tmp_path)  # a cache named by a relative path, as on the command line
    export_sqlite(Archive(root), tmp_path / "relative.db", site_cache=Path("site") / CACHE_DIR)
    assert (tmp_path / "relative.db").read_bytes() == (tmp_path / "one.db").read_bytes()


def test_a_crash_during_the_export_leaves_the_old_database_in_place(
    archive_ids: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _ = archive_ids
    out = tmp_path / "quietedit.db"
    out.write_bytes(b"the previous export")

    def crash(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(export_module, "document_rows", crash)
    with pytest.raises(KeyboardInterrupt):
        export_sqlite(Archive(root), out)
    assert out.read_bytes() == b"the previous export"
    assert [p.name for p in tmp_path.iterdir()] == ["quietedit.db"]


def test_a_broken_document_is_reported_and_the_others_are_exported(
    tmp_path: Path, feeds_yaml: Path
) -> None:
    root = tmp_path / "data"
    ids = write_archive(root)
    archive = Archive(root)
    broken = ids[TAXES]
    next(archive.revisions_dir(broken).glob("*.json")).write_text("{not json", "utf-8")
    out = tmp_path / "out.db"
    args = ["export", "sqlite", str(out), "--data", str(root), "--config", str(feeds_yaml)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1
    assert f"Error: {broken}" in result.stderr
    assert "4 documents" in result.stdout and "1 documents could not be read" in result.stdout
    assert query(out, "select count(*) from documents where id = :d", d=broken) == [(0,)]
    assert query(out, "select count(*) from documents") == [(4,)]


def test_metadata_describes_every_table_and_column_and_offers_the_queries(
    exported: tuple[Path, dict[str, str]],
) -> None:
    db, _ = exported
    written = json.loads(db.with_name("quietedit.metadata.json").read_text("utf-8"))
    assert written == json.loads(json.dumps(metadata("quietedit")))
    tables = written["databases"]["quietedit"]["tables"]
    for table in TABLES:
        columns = [r[1] for r in query(db, f'pragma table_info("{table.name}")')]
        assert sorted(tables[table.name]["columns"]) == sorted(columns)
        assert all(tables[table.name]["columns"].values())
    assert sorted(written["databases"]["quietedit"]["queries"]) == sorted(q.name for q in QUERIES)


def test_a_missing_archive_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["export", "sqlite", str(tmp_path / "x.db"), "--data", str(tmp_path / "nowhere")]
    )
    assert result.exit_code == 1
    assert "no archive folder here; pass --data" in result.stderr
    assert not (tmp_path / "x.db").exists()


def test_the_docs_show_each_example_query_as_it_runs_and_every_option() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "commands.md").read_text("utf-8")
    section = page[page.index("## `quietedit export`") : page.index("## `quietedit extract`")]
    for q in QUERIES:
        assert f"```sql\n{q.sql}\n```" in section, q.name
    group = cli.get_command(click.Context(cli), "export")
    assert isinstance(group, click.Group)
    for name, command in group.commands.items():
        assert f"### `quietedit export {name} OUT`" in section
        for param in command.params:
            for flag in getattr(param, "opts", []) if isinstance(param, click.Option) else []:
                assert f"`{flag}" in section, flag
