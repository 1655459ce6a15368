"""The SQLite export's writer: rows in, tables, full-text indexes and indexes out.

A bulk load of a file built from nothing, as SQLite loads best:

- no journal and no syncs while it is written (the file is a temporary one, renamed into
  place when complete: a crash discards it whole), one transaction per batch of rows;
- the documents come in id order (:func:`~quietedit.export.sqlite.export_sqlite` reads
  them so), and every key of a table keyed by document starts with the document's id
  (``<id>/…``), each document's rows sorted by key: those tables (every ``WITHOUT ROWID``
  table but the three written after the documents) are appended to, their pages filled
  from the first to the last, with no copy and no sort. Inserting them where their keys
  fall, in the archive's order (by day), would instead read, split and write again a page
  at a random place of a B-tree larger than the page cache for nearly every document;
- the rows that cannot come in key order are appended to a staging database beside the
  file and copied once, when all are in, sorted by key: ``texts``, numbered by the
  archive's days (:mod:`~quietedit.export.numbering`, so that the full-text index stays
  small and an update numbers a document as a full export does), not by id; and the
  tables not keyed by document (sources, stories, feed entries), written at the end;
- the full-text indexes are built once, from their tables, when those are complete, and
  merged into one segment; the other indexes after them.

The order of every step is fixed, so the same rows give the same file, byte for byte.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from quietedit.export.schema import FEED_ENTRIES, SOURCES, STORIES, TABLES, TEXTS, Table

PAGE_SIZE: Final = 4096
"""SQLite's default page size, fixed so the file does not depend on the library's build."""
CACHE_KIB: Final = 256 * 1024
"""SQLite's page cache while the database is written, in KiB."""

STAGE: Final = "stage"
"""The schema name of the staging database, attached while the rows are written."""
REMOVED: Final = f"{STAGE}.removed_texts"
"""The numbers of the texts a document's newest revision lacks, while the rows are
written: the rows :data:`REMOVED_FTS` indexes (in the staging database, not in the file)."""
REMOVED_FTS: Final = "texts_removed_fts"
"""The full-text index of the texts a document's newest revision no longer has: the
example query ``removed_text`` searches these alone, not every text ever published."""


def staging_path(tmp: Path) -> Path:
    """The staging database of the database being written at ``tmp``."""
    return tmp.with_name(f"{tmp.name}.stage")


def _names(columns: Iterable[str]) -> str:
    return ", ".join(f'"{c}"' for c in columns)


AFTER_DOCUMENTS: Final = frozenset((SOURCES.name, STORIES.name, FEED_ENTRIES.name))
"""The tables written after every document's rows, in no key order."""


def staged(table: Table) -> bool:
    """Whether ``table``'s rows are staged and copied in key order: ``texts``, whose
    numbers follow the archive's days, not the documents' ids
    (:mod:`~quietedit.export.numbering`), and the tables written after the documents.
    The others come in key order (module docstring)."""
    return table.name == TEXTS.name or table.name in AFTER_DOCUMENTS


class Writer:
    """Rows held per table, written in batches in the order they came; :meth:`finish`
    makes the file whole. ``counts`` gets each table's rows written."""

    def __init__(self, conn: sqlite3.Connection, stage: Path, counts: dict[str, int]) -> None:
        self.conn = conn
        self.counts = counts
        self.held: dict[str, list[tuple[Any, ...]]] = {t.name: [] for t in TABLES}
        self.removed: list[tuple[int]] = []  # texts a newest revision lacks, numbered
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        conn.execute("PRAGMA journal_mode = OFF")  # a temporary file: a crash discards it whole
        conn.execute("PRAGMA synchronous = OFF")
        # Room for the indexes being built and the full-text index's merges: without it
        # each index build sorts through a 2 MiB cache. Neither changes a byte of the file.
        conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        stage.unlink(missing_ok=True)
        conn.execute(f"ATTACH DATABASE ? AS {STAGE}", (str(stage),))
        conn.execute(f"PRAGMA {STAGE}.journal_mode = OFF")
        conn.execute(f"PRAGMA {STAGE}.synchronous = OFF")
        for table in TABLES:
            conn.execute(table.create_sql())
            if staged(table):  # its rows staged in the order they come, no key
                conn.execute(f'CREATE TABLE {STAGE}."{table.name}" ({_names(table.column_names)})')
            counts[table.name] = 0
        conn.execute(f"CREATE TABLE {REMOVED} (id INTEGER PRIMARY KEY)")

    def add(self, table: Table, found: Iterable[tuple[Any, ...]]) -> None:
        """Hold rows of ``table``, each a tuple of its columns in order."""
        self.held[table.name].extend(found)

    def add_document(self, tables: dict[str, list[tuple[Any, ...]]], removed: list[int]) -> None:
        """Hold one document's rows by table, and the numbers of its texts its newest
        revision lacks."""
        for name, table_rows in tables.items():
            self.held[name].extend(table_rows)
        self.removed.extend((number,) for number in removed)

    def flush(self) -> None:
        """Write the rows held, in one transaction."""
        self.conn.execute("BEGIN")
        self.conn.executemany(f"INSERT INTO {REMOVED} VALUES (?)", self.removed)  # noqa: S608 - a name of this module
        self.removed.clear()
        for table in TABLES:
            held = self.held[table.name]
            if held:
                into = f'{STAGE}."{table.name}"' if staged(table) else f'"{table.name}"'
                placeholders = ", ".join("?" for _ in table.columns)
                self.conn.executemany(
                    f"INSERT INTO {into} ({_names(table.column_names)}) VALUES ({placeholders})",  # noqa: S608 - names from the schema
                    held,
                )
                self.counts[table.name] += len(held)
                held.clear()
        self.conn.execute("COMMIT")

    def finish(self) -> None:
        """The staged tables copied in key order, the full-text indexes, then the other
        indexes; the staging database detached (its file is the caller's to delete)."""
        self.flush()
        conn = self.conn
        # The sorts spill to temporary files, not memory: a year's blocks are 700 MB.
        conn.execute("PRAGMA temp_store = FILE")
        for table in TABLES:
            if staged(table):
                names = _names(table.column_names)
                conn.execute("BEGIN")
                conn.execute(
                    f'INSERT INTO "{table.name}" ({names}) SELECT {names} '  # noqa: S608 - names from the schema
                    f'FROM {STAGE}."{table.name}" ORDER BY {_names(table.pk)}'
                )
                conn.execute(f'DROP TABLE {STAGE}."{table.name}"')
                conn.execute("COMMIT")
        # The full-text indexes first, each merged into one segment ('optimize': a year's
        # texts_fts is about 40 % smaller than as the inserts leave it, and faster to
        # query). The pages the merge frees are zeroed, and the other indexes, built next,
        # reuse them.
        conn.execute("PRAGMA temp_store = MEMORY")
        conn.execute("PRAGMA secure_delete = ON")
        for table in TABLES:
            if table.search:
                _index_text(conn, table, f"{table.name}_fts")
        _index_text(conn, TEXTS, REMOVED_FTS, only=REMOVED)
        conn.execute(f"DETACH DATABASE {STAGE}")
        conn.execute("PRAGMA secure_delete = OFF")
        for table in TABLES:
            for columns in table.indexes:
                name = "idx_" + "_".join([table.name, *columns])
                conn.execute(f'CREATE INDEX "{name}"\n    ON "{table.name}" ({_names(columns)})')
        conn.execute("PRAGMA journal_mode = DELETE")


def _index_text(conn: sqlite3.Connection, table: Table, fts: str, *, only: str = "") -> None:
    """The FTS5 index ``fts`` of ``table``'s searched columns, with ``table`` as its
    content (the text is not stored twice), filled once from the table, when it is
    complete (from the rows whose rowid the table ``only`` lists, if given), and merged
    into one segment."""
    columns = _names(table.search)
    if only:
        create = f'"{fts}" USING FTS5 ({columns}, content="{table.name}")'
        source = f'"{table.name}" t JOIN {only} r ON r.id = t.rowid'
    else:
        create = f'"{fts}" USING FTS5 (\n    {columns},\n    content="{table.name}"\n)'
        source = f'"{table.name}" t'
    conn.execute(f"CREATE VIRTUAL TABLE {create}")
    picked = ", ".join(f't."{c}"' for c in table.search)
    conn.execute(
        f'INSERT INTO "{fts}" (rowid, {columns}) SELECT t.rowid, {picked} FROM {source} '  # noqa: S608 - names from the schema
        "ORDER BY t.rowid"
    )
    conn.execute(f'INSERT INTO "{fts}"("{fts}") VALUES (\'optimize\')')  # noqa: S608
