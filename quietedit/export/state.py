"""What the SQLite export keeps in its database to update it later (I/O).

Beside the tables researchers query (:mod:`quietedit.export.schema`), every export writes
four tables whose names start with ``_export`` (Datasette's metadata hides them):

- ``_export``: what the database was made with: the export's version (its tables and the
  code that makes their rows), the analysis version (the diff and the classifier), the
  sources (feeds.yaml's, or the feed records' without one), the story grouping's
  parameters, and how documents were stamped (``git`` tree ids or ``content`` keys);
- ``_export_documents``: each document read, with its partition, its *stamp* (below),
  and what the story grouping needs of it (source, first sight, sketch);
- ``_export_folders``: the git tree id of every year, month and day folder of
  ``data/documents`` (none outside git);
- ``_export_story_days``: the stories of each day and the key of the day's inputs.

A document's stamp says whether its files changed. In a git checkout it is its folder's
tree id (:func:`quietedit.archive.stamps.document_stamps`): the same in every clone, so a
stamp written by last week's job in its clone still holds in this week's. Outside git, or
for a folder whose files differ from the commit, it is a hash of what the folder holds
(:func:`quietedit.archive.stamps.content_key`), which costs a read of the record and of
the newest revision and event. A document that could not be read has the empty stamp,
which no folder has: an update reads it again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from quietedit.archive import stamps, treeids
from quietedit.archive.layout import DOCUMENT_FILE, Layout
from quietedit.export.schema import TABLES
from quietedit.publish.changes import ANALYSIS_VERSION
from quietedit.publish.stories import PARAMETERS as STORY_PARAMETERS
from quietedit.version import __version__

FORMAT: Final = 1
"""The update state's own format: raised when these tables or their meaning change."""

META: Final = "_export"
DOCUMENTS: Final = "_export_documents"
FOLDERS: Final = "_export_folders"
STORY_DAYS: Final = "_export_story_days"
NAMES: Final = (META, DOCUMENTS, FOLDERS, STORY_DAYS)

_CREATE: Final = (
    f"CREATE TABLE {META} (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
    f"CREATE TABLE {DOCUMENTS} (id TEXT PRIMARY KEY, partition TEXT NOT NULL, "
    "stamp TEXT NOT NULL, source TEXT NOT NULL, first_seen TEXT NOT NULL, sketch BLOB) "
    "WITHOUT ROWID",
    f"CREATE TABLE {FOLDERS} (path TEXT PRIMARY KEY, tree TEXT NOT NULL) WITHOUT ROWID",
    f"CREATE TABLE {STORY_DAYS} (day TEXT PRIMARY KEY, key TEXT NOT NULL, "
    "stories TEXT NOT NULL) WITHOUT ROWID",
)


EXPORT_VERSION: Final = hashlib.sha256(
    "\n".join(
        [
            f"{FORMAT}",
            __version__,
            *(table.create_sql() for table in TABLES),
            *_CREATE,
            *(
                (Path(__file__).parent / name).read_text("utf-8")
                for name in ("rows.py", "numbering.py", "sqlite.py", "gather.py", "reading.py")
            ),
        ]
    ).encode()
).hexdigest()[:16]
"""The version of the export: its tables, the code that makes their rows, the update's
state and the package's version. A database of another version is exported again whole."""

FAILED: Final = ""
"""The stamp of a document that could not be read (no folder has it)."""


def fingerprint(sources_key: str, *, git: bool) -> dict[str, str]:
    """What an export is made with (``_export``): a database made otherwise is not
    updated but exported again whole. ``sources_key``: :func:`sources_key`."""
    return {
        "version": EXPORT_VERSION,
        "analysis": ANALYSIS_VERSION,
        "sources": sources_key,
        "stories": STORY_PARAMETERS,
        "stamps": "git" if git else "content",
    }


_WHAT: Final = {
    "version": "another version of the export",
    "analysis": "another version of the analysis (diff and classifier)",
    "sources": "other sources (feeds.yaml changed)",
    "stories": "other story grouping parameters",
    "stamps": "documents stamped otherwise (a git checkout then, not now, or the reverse)",
}


def sources_key(sources: Iterable[Sequence[str]], configured: Iterable[str]) -> str:
    """A hash of the sources a document's source is chosen among (their slugs, names,
    URLs and kinds) and of the configured slugs."""
    text = json.dumps([sorted(list(s) for s in sources), sorted(configured)])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(slots=True)
class Recorded:
    """One document as ``_export_documents`` holds it."""

    partition: str
    stamp: str
    source: str
    first_seen: str
    sketch: bytes | None


@dataclass(slots=True)
class Previous:
    """What a database's ``_export`` tables hold."""

    meta: dict[str, str]
    documents: dict[str, Recorded]
    folders: dict[str, str]
    days: dict[str, tuple[str, list[list[str]]]] = field(default_factory=dict)

    def mismatch(self, expected: Mapping[str, str]) -> str | None:
        """Why the database's rows cannot be kept (``None``: they can)."""
        for key, value in expected.items():
            if self.meta.get(key) != value:
                return f"it was written with {_WHAT.get(key, key)}"
        return None


def create(conn: sqlite3.Connection) -> None:
    for statement in _CREATE:
        conn.execute(statement)


def read_previous(conn: sqlite3.Connection) -> Previous | str:
    """The state of the database open on ``conn``, or why there is none to trust."""
    try:
        names = {
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '\\_export%' "
                "ESCAPE '\\'"
            )
        }
        if not set(NAMES) <= names:
            return "it holds no update state (not written by this version of quietedit export)"
        meta = dict(conn.execute(f"SELECT key, value FROM {META}"))  # noqa: S608 - a constant
        documents = {
            doc: Recorded(partition, stamp, source, first_seen, sketch)
            for doc, partition, stamp, source, first_seen, sketch in conn.execute(
                f"SELECT id, partition, stamp, source, first_seen, sketch FROM {DOCUMENTS}"  # noqa: S608
            )
        }
        folders = dict(conn.execute(f"SELECT path, tree FROM {FOLDERS}"))  # noqa: S608
        days = {
            day: (key, json.loads(stories))
            for day, key, stories in conn.execute(f"SELECT day, key, stories FROM {STORY_DAYS}")  # noqa: S608
        }
    except (sqlite3.Error, ValueError) as exc:
        return f"its update state cannot be read ({exc})"
    return Previous(meta, documents, folders, days)


def write_meta(conn: sqlite3.Connection, meta: Mapping[str, str]) -> None:
    conn.execute(f"DELETE FROM {META}")  # noqa: S608 - a constant
    conn.executemany(f"INSERT INTO {META} VALUES (?, ?)", sorted(meta.items()))  # noqa: S608


def write_documents(conn: sqlite3.Connection, found: Mapping[str, Recorded]) -> None:
    """Insert or replace the rows of ``found``, in id order."""
    conn.executemany(
        f"INSERT OR REPLACE INTO {DOCUMENTS} VALUES (?, ?, ?, ?, ?, ?)",  # noqa: S608 - a constant
        (
            (doc, r.partition, r.stamp, r.source, r.first_seen, r.sketch)
            for doc, r in sorted(found.items())
        ),
    )


def delete_documents(conn: sqlite3.Connection, documents: Iterable[str]) -> None:
    conn.executemany(f"DELETE FROM {DOCUMENTS} WHERE id = ?", ((d,) for d in documents))  # noqa: S608


def write_folders(conn: sqlite3.Connection, folders: Mapping[str, str]) -> None:
    conn.execute(f"DELETE FROM {FOLDERS}")  # noqa: S608 - a constant
    conn.executemany(f"INSERT INTO {FOLDERS} VALUES (?, ?)", sorted(folders.items()))  # noqa: S608


def write_days(
    conn: sqlite3.Connection,
    days: Mapping[str, tuple[str, list[list[str]]]],
    before: Mapping[str, tuple[str, list[list[str]]]] | None = None,
) -> None:
    """The stories of each day: those that differ from ``before`` (all without it)."""
    if before is None:
        changed = sorted(days.items())
    else:
        gone = [(day,) for day in before if day not in days]
        conn.executemany(f"DELETE FROM {STORY_DAYS} WHERE day = ?", gone)  # noqa: S608
        changed = sorted((d, v) for d, v in days.items() if before.get(d) != v)
    conn.executemany(
        f"INSERT OR REPLACE INTO {STORY_DAYS} VALUES (?, ?, ?)",  # noqa: S608 - a constant
        ((day, key, json.dumps(stories, separators=(",", ":"))) for day, (key, stories) in changed),
    )


def git_stamps(layout: Layout, partitions: Sequence[str], trees: treeids.Trees) -> dict[str, str]:
    """The tree-id stamps of the documents of ``partitions`` whose files are as committed
    (the others are stamped by their content, :func:`content_stamp`)."""
    found = stamps.document_stamps(layout.documents_dir, partitions, trees)
    return {doc: stamp for doc, stamp in found.items() if stamp.startswith(treeids.PREFIX)}


def content_stamp(layout: Layout, partition: str, document: str) -> str:
    """The stamp of a document by its content; ``ArchiveError`` when it cannot be read."""
    home = layout.document_dir(document, partition)
    if not home.is_dir():  # a partition quietedit migrate has not bucketed yet
        home = layout.flat_document_dir(document, partition)
    return "key " + stamps.content_key(home / DOCUMENT_FILE)


def readable(path: Path) -> str | None:
    """Why ``path`` holds no database an update can start from (``None``: it may)."""
    if not path.is_file():
        return f"there is no database at {path}"
    with contextlib.suppress(OSError), path.open("rb") as handle:
        if handle.read(16) == b"SQLite format 3\x00":
            return None
        return "it is not a SQLite database"
    return f"{path} cannot be read"
