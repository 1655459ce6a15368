"""The build cache's sums: what the site-wide pages count, kept by SQLite triggers.

An hourly build shows totals of the whole archive (documents and revisions per source
and per day, each month's estimated bytes, edits per source, kind, delay and verdict);
counting them again over a year's rows each hour made its time grow with the archive.
These tables hold those sums, a few rows per day and source, and triggers on the rows
they count keep them in the same transaction as every write (a row inserted, deleted or
changed), so they are exactly as current as the rows. A cache whose sums do not add up
to its rows, or that lacks a trigger, is written whole (:func:`check_sums`).
"""

from __future__ import annotations

import sqlite3
from typing import Final

_ADD: Final = (
    "INSERT INTO document_sums VALUES (NEW.partition, NEW.source, 1, NEW.published,"
    " NEW.revisions, NEW.files, NEW.open_size, NEW.folded_size)"
    " ON CONFLICT (partition, source) DO UPDATE SET documents = documents + 1,"
    " published = published + excluded.published, revisions = revisions + excluded.revisions,"
    " files = files + excluded.files, open_size = open_size + excluded.open_size,"
    " folded_size = folded_size + excluded.folded_size;"
)
_TAKE: Final = (
    "UPDATE document_sums SET documents = documents - 1, published = published - OLD.published,"
    " revisions = revisions - OLD.revisions, files = files - OLD.files,"
    " open_size = open_size - OLD.open_size, folded_size = folded_size - OLD.folded_size"
    " WHERE partition = OLD.partition AND source = OLD.source;"
    " DELETE FROM document_sums WHERE partition = OLD.partition AND source = OLD.source"
    " AND documents = 0;"
)
"""A document's row added to, and taken from, its partition's and source's sums."""

DOCUMENT_SUMS: Final = (
    # the documents' sums per partition and source, kept by triggers in the same
    # transactions as their rows: totals, per source, per day and per month are summed
    # over these rows (a few per day), not over every document (``catalog``)
    "CREATE TABLE document_sums (partition TEXT NOT NULL, source TEXT NOT NULL,"
    " documents INTEGER NOT NULL, published INTEGER NOT NULL, revisions INTEGER NOT NULL,"
    " files INTEGER NOT NULL, open_size INTEGER NOT NULL, folded_size INTEGER NOT NULL,"
    " PRIMARY KEY (partition, source)) STRICT, WITHOUT ROWID",
    f"CREATE TRIGGER document_sums_insert AFTER INSERT ON documents BEGIN {_ADD} END",
    f"CREATE TRIGGER document_sums_delete AFTER DELETE ON documents BEGIN {_TAKE} END",
    "CREATE TRIGGER document_sums_update AFTER UPDATE OF partition, source, published,"
    f" revisions, files, open_size, folded_size ON documents BEGIN {_TAKE} {_ADD} END",
)
"""The ``documents`` table's sums per partition and source (``catalog``)."""
EDIT_SUMS: Final = (
    # the counts of both, kept by triggers in the same transactions as their rows: the
    # counts and statistics of the site-wide pages are read from these few rows, not
    # counted again over the year's edits (``edittable``)
    "CREATE TABLE edit_sums (source TEXT NOT NULL, event INTEGER NOT NULL,"
    " delay INTEGER NOT NULL, silent INTEGER NOT NULL, edits INTEGER NOT NULL,"
    " PRIMARY KEY (source, event, delay, silent)) STRICT, WITHOUT ROWID",
    "CREATE TRIGGER edit_sums_insert AFTER INSERT ON edits BEGIN"
    " INSERT INTO edit_sums VALUES (NEW.source, NEW.event != '', NEW.delay,"
    " coalesce(NEW.silent, -1), 1) ON CONFLICT (source, event, delay, silent)"
    " DO UPDATE SET edits = edits + 1; END",
    "CREATE TRIGGER edit_sums_delete AFTER DELETE ON edits BEGIN"
    " UPDATE edit_sums SET edits = edits - 1 WHERE source = OLD.source"
    " AND event = (OLD.event != '') AND delay = OLD.delay AND silent = coalesce(OLD.silent, -1);"
    " DELETE FROM edit_sums WHERE edits = 0; END",
    "CREATE TRIGGER edit_sums_update AFTER UPDATE OF source, event, delay, silent ON edits BEGIN"
    " UPDATE edit_sums SET edits = edits - 1 WHERE source = OLD.source"
    " AND event = (OLD.event != '') AND delay = OLD.delay AND silent = coalesce(OLD.silent, -1);"
    " INSERT INTO edit_sums VALUES (NEW.source, NEW.event != '', NEW.delay,"
    " coalesce(NEW.silent, -1), 1) ON CONFLICT (source, event, delay, silent)"
    " DO UPDATE SET edits = edits + 1;"
    " DELETE FROM edit_sums WHERE edits = 0; END",
    "CREATE TABLE kind_sums (kind TEXT NOT NULL, event INTEGER NOT NULL, edits INTEGER NOT NULL,"
    " PRIMARY KEY (kind, event)) STRICT, WITHOUT ROWID",
    "CREATE TRIGGER kind_sums_insert AFTER INSERT ON edit_kinds BEGIN"
    " INSERT INTO kind_sums VALUES (NEW.kind, NEW.event != '', 1) ON CONFLICT (kind, event)"
    " DO UPDATE SET edits = edits + 1; END",
    "CREATE TRIGGER kind_sums_delete AFTER DELETE ON edit_kinds BEGIN"
    " UPDATE kind_sums SET edits = edits - 1 WHERE kind = OLD.kind"
    " AND event = (OLD.event != ''); DELETE FROM kind_sums WHERE edits = 0; END",
    "CREATE TRIGGER kind_sums_update AFTER UPDATE OF kind, event ON edit_kinds BEGIN"
    " UPDATE kind_sums SET edits = edits - 1 WHERE kind = OLD.kind"
    " AND event = (OLD.event != '');"
    " INSERT INTO kind_sums VALUES (NEW.kind, NEW.event != '', 1) ON CONFLICT (kind, event)"
    " DO UPDATE SET edits = edits + 1; DELETE FROM kind_sums WHERE edits = 0; END",
)
"""The ``edits`` and ``edit_kinds`` tables' counts (``edittable``)."""
TRIGGERS: Final = frozenset(
    statement.split()[2]
    for statement in (*DOCUMENT_SUMS, *EDIT_SUMS)
    if statement.startswith("CREATE TRIGGER")
)
"""The triggers that keep the sums."""
_TOTALS: Final = (
    "SELECT (SELECT TOTAL(edits) FROM edit_sums), (SELECT TOTAL(edits) FROM kind_sums),"
    " (SELECT TOTAL(documents) FROM document_sums), (SELECT COUNT(*) FROM documents)"
)


def check_sums(db: sqlite3.Connection, edits: int, kinds: int) -> None:
    """``sqlite3.DatabaseError`` unless every trigger is there and the sums count as many
    edits, kinds of edits (``edits``, ``kinds``: the rows counted) and documents as the
    tables hold. (A sum changed by hand while the totals stay is not found, as a row
    changed by hand to other valid values is not: the cache is the build's own, and
    ``build --full`` trusts none of it.)"""
    query = "SELECT name FROM sqlite_master WHERE type = 'trigger'"
    if {name for (name,) in db.execute(query)} != TRIGGERS:
        raise sqlite3.DatabaseError("the triggers that keep its sums are not all there")
    summed_edits, summed_kinds, summed_documents, documents = db.execute(_TOTALS).fetchone()
    if (int(summed_edits), int(summed_kinds), int(summed_documents)) != (edits, kinds, documents):
        raise sqlite3.DatabaseError("its sums differ from the rows they count")
