"""The build cache: what the previous build made, and from which inputs.

It lives in ``<out>/.quietedit-cache/`` (a dot-folder: the Pages upload and ``quietedit
serve`` leave it out):

``state.sqlite``
    an SQLite database (the standard library's ``sqlite3``; portable across Python
    versions and machines, and readable with any SQLite tool). Table ``site``: per
    site-wide file the SHA-256 of its bytes and the key of its inputs (a search bundle's
    files are read only for the bundles a build indexes again or drops; ``meta``'s
    ``bundles`` names the bundles whose files it holds). Table ``meta``:
    the months the site folded (``folded``, a JSON list), the fingerprint of the build
    that wrote it (``fingerprint``: code, templates, base URL, sources), since when its
    edits have share images (``share_since``, :mod:`~quietedit.publish.share`), how
    many rows its edits tables hold (``edit_rows``, :mod:`~quietedit.publish.edittable`)
    and which build wrote it (``generation``, :mod:`~quietedit.publish.storyrows`). Table
    ``documents`` (indexed by partition): per document its *stamp*
    (``Archive.document_stamps``: a cheap "unchanged" test), its *content key*
    (``Archive.content_key``), its *key* (the content key with the build's fingerprint),
    how many files it has and their bytes (whether folded away or not), its summary and
    partition, one :class:`~quietedit.publish.listing.EditRef` per edit (JSON), whether it
    has pages and its estimated bytes with pages and folded (``folding``), a CRC-32 of
    all of that, and apart, the edits' rows (JSON) with a CRC-32 of their own. Tables
    ``edits``, ``edit_kinds`` and ``edit_terms``: every edit's reference, its kinds and the
    watched terms it added or removed (``edittable``; the silent, headline and significant
    edits, and each source's of a kind or a term, indexed apart for their feeds). Tables
    ``document_sums`` (per partition and source), ``edit_sums`` and ``kind_sums``: the
    counts and sums of those rows that the site-wide pages show, kept by SQLite triggers
    in the same transaction as every write of a row (``cachesums``).
``diffs/<id>.json``
    the document's computed comparisons, keyed by both revisions' hashes and the
    analysis version, so each diff is computed once.

The database is private to the build. :class:`BuildState` is what a build reads of it
before rendering; :mod:`~quietedit.publish.catalog` writes it (in place, in one
transaction, or whole under a temporary name then renamed) and queries it for the
site-wide pages. Either way a build killed half-way leaves the previous one. It is checked
before it is used: a cache that is absent, not an SQLite file, damaged (SQLite's own
structure, or a document's CRC-32), of another application or schema (``application_id``,
``user_version``), or of an unexpected shape counts as absent, and the build is then a
full one (every page rendered and compared with the bytes on disk). The checksum is
against damage, not forgery: the cache is as trusted as the site folder that holds it.
Site rows carry no checksum: a damaged digest only makes a file be compared with the
disk, a damaged key a page be rendered again.

The stamp only says when to recompute the content key; the content key is what decides.

A build reads what the hour changed, not what a year holds. When the cache was written
by a build of the same fingerprint (so every row's key is current), it reads the rows of
the partitions on disk (the hourly job's sparse checkout holds the documents still
observed; a document of such a partition that the checkout leaves out keeps its row as it
is, one missing from a folder it holds was deleted) and, of the others, only which
documents have pages (to render again those whose pages are missing); a row is read as
a plain tuple, its checksum checked, and its summary and edit references made from it
when asked for. The edits' rows, the bulk of the file, are read only for the edits a
build renders again (listing pages and feeds that changed), one document at a time, each
checked against its own checksum. A damaged value found that
late raises :class:`CacheDamagedError`, and the build starts again as a full one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import sqlite3
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from quietedit.publish import buckets
from quietedit.publish.cacherows import (
    COLUMNS,
    CacheDamagedError,
    DocumentEntry,
)
from quietedit.publish.cachesums import DOCUMENT_SUMS, EDIT_SUMS
from quietedit.publish.edittable import FEED_INDEXES

logger = logging.getLogger(__name__)

CACHE_SCHEMA: Final = 15
"""``PRAGMA user_version`` of the database: bumped with any change to its tables."""
STATE_FILE: Final = "state.sqlite"
APPLICATION_ID: Final = 0x71656263  # "qebc": says the file is a quietedit build cache
_EDIT_TABLES: Final = (
    "CREATE TABLE edits (document TEXT NOT NULL, number INTEGER NOT NULL,"
    " day TEXT NOT NULL, rank INTEGER NOT NULL, observed_at TEXT NOT NULL,"
    " source TEXT NOT NULL, kinds TEXT NOT NULL, delay INTEGER NOT NULL, silent INTEGER,"
    " digest TEXT NOT NULL, headline INTEGER NOT NULL, watched TEXT NOT NULL,"
    " event TEXT NOT NULL, month TEXT NOT NULL, PRIMARY KEY (document, number))"
    " STRICT, WITHOUT ROWID",
    # the archive pages' order (by time), and the front pages' (by significance)
    "CREATE INDEX edits_time ON edits (observed_at, document, number)",
    "CREATE INDEX edits_order ON edits (day, rank, observed_at, document, number)",
    "CREATE INDEX edits_source_time ON edits (source, observed_at, document, number)",
    "CREATE INDEX edits_source_order ON edits (source, day, rank, observed_at, document, number)",
    # an edit's kinds, each with what the kind's listing counts by: its orders, whether it
    # is an event and its document's month
    "CREATE TABLE edit_kinds (kind TEXT NOT NULL, observed_at TEXT NOT NULL,"
    " document TEXT NOT NULL, number INTEGER NOT NULL, day TEXT NOT NULL,"
    " rank INTEGER NOT NULL, event TEXT NOT NULL, month TEXT NOT NULL, source TEXT NOT NULL,"
    " PRIMARY KEY (kind, observed_at, document, number)) STRICT, WITHOUT ROWID",
    "CREATE INDEX edit_kinds_order ON edit_kinds (kind, day, rank, observed_at, document, number)",
    "CREATE INDEX edit_kinds_of ON edit_kinds (document, number)",
    # a source's feed of one kind: its newest edits of the kind, not a walk back through
    # the kind's edits of every source until enough of this one's are found
    "CREATE INDEX edit_kinds_source ON edit_kinds"
    " (kind, source, event, observed_at, document, number, month)",
    # the watched terms each edit (not an event) added or removed, for their feeds
    "CREATE TABLE edit_terms (term TEXT NOT NULL, observed_at TEXT NOT NULL,"
    " document TEXT NOT NULL, number INTEGER NOT NULL, source TEXT NOT NULL,"
    " month TEXT NOT NULL, PRIMARY KEY (term, observed_at, document, number))"
    " STRICT, WITHOUT ROWID",
    "CREATE INDEX edit_terms_source ON edit_terms"
    " (term, source, observed_at, document, number, month)",
    "CREATE INDEX edit_terms_of ON edit_terms (document, number)",
    *FEED_INDEXES,  # the silent, headline and significant edits, for their feeds
    *EDIT_SUMS,
)
"""The ``edits``, ``edit_kinds`` and ``edit_terms`` tables (``edittable``): every edit's
reference, in the orders of the listings and feeds, and their counts (``edit_sums``,
``kind_sums``)."""
BUNDLES_ROOT: Final = "search/index/"
"""Where the search bundles' folders are (``search.BUNDLE_ROOT``)."""
_SITE_BUT_BUNDLES: Final = (
    "SELECT path, digest, key FROM site WHERE path < 'search/index/'"
    " OR path >= 'search/index0' OR path = 'search/index/shards.txt'"
)
"""The rows of ``site`` but those of the search bundles' files (two ranges of the key)."""


def is_bundle_file(path: str) -> bool:
    """Whether the site path ``path`` is a file of a search bundle."""
    return path.startswith(BUNDLES_ROOT) and path.count("/") >= 4


def bundle_of(path: str) -> str:
    """The bundle folder of a search bundle's file ``path``."""
    return "/".join(path.split("/")[:4]) + "/"


_OLD_FILES: Final = ("manifest.json", "summaries.json", "state.json", "state.bin")

_TABLES: Final = (
    "CREATE TABLE site (path TEXT PRIMARY KEY, digest TEXT NOT NULL, key TEXT NOT NULL)"
    " STRICT, WITHOUT ROWID",
    "CREATE TABLE documents (id TEXT PRIMARY KEY, stamp TEXT NOT NULL,"
    " content TEXT NOT NULL, key TEXT NOT NULL, files INTEGER NOT NULL, url TEXT,"
    " title TEXT NOT NULL, source TEXT NOT NULL, revisions INTEGER NOT NULL,"
    " first_seen TEXT NOT NULL, last_seen TEXT NOT NULL, events TEXT NOT NULL,"
    " refs TEXT NOT NULL, rows TEXT NOT NULL, partition TEXT NOT NULL, size INTEGER NOT NULL,"
    " published INTEGER NOT NULL, open_size INTEGER NOT NULL, folded_size INTEGER NOT NULL,"
    " crc32 INTEGER NOT NULL, rows_crc32 INTEGER NOT NULL) STRICT",
    "CREATE INDEX documents_partition ON documents (partition, published)",
    # the sitemap's order: a chunk is read from its place, not after every article before it
    "CREATE INDEX documents_articles ON documents (published, first_seen, id)",
    # what the sums and lists of every document read, apart from the rows' long columns
    # (the edits' JSON): SQLite answers them from this index alone
    "CREATE INDEX documents_sums ON documents (published, partition, source, revisions,"
    " files, open_size, folded_size, last_seen, stamp, id)",
    # the few documents with events, for the sources' sums of them
    "CREATE INDEX documents_events ON documents (id, source, events) WHERE events != '{}'",
    # the newest observation (of the documents with pages): the last entry, not a scan
    "CREATE INDEX documents_seen ON documents (published, last_seen)",
    *DOCUMENT_SUMS,
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT, WITHOUT ROWID",
    buckets.TABLE,
    *_EDIT_TABLES,
)


class _RowsReader:
    """The edits' rows of cached documents, read one document at a time (the connection is
    opened on the first call, after any render worker has been forked)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.db: sqlite3.Connection | None = None
        # once the build writes the database, it is read through the writing connection
        # (another one could find it locked, and must not see it half written)
        self.via: Callable[[str], str] | None = None

    def __call__(self, doc: str) -> str:
        if self.via is not None:
            return self.via(doc)
        try:
            if self.db is None:
                self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            # every row fetched, so that no read lock outlives the statement
            found = next(
                iter(
                    self.db.execute(
                        "SELECT rows, rows_crc32 FROM documents WHERE id = ?", (doc,)
                    ).fetchall()
                ),
                None,
            )
        except sqlite3.Error as exc:
            raise CacheDamagedError(f"build cache {self.path}: {exc}") from exc
        if found is None or zlib.crc32(str(found[0]).encode()) != found[1]:
            raise CacheDamagedError(f"build cache: edits of {doc!r} missing or damaged")
        return str(found[0])

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None


@dataclass(slots=True)
class BuildState:
    """What ``state.sqlite`` says of the previous build: site-wide files by output path,
    the months folded, the build's fingerprint; its documents are read when asked for
    (:meth:`select`), or all of them (:attr:`documents`)."""

    site: dict[str, tuple[str, str]] = field(default_factory=dict)  # path → (digest, key)
    loaded: bool = False  # False: there was no usable cache
    folded: frozenset[str] = frozenset()  # months ("2026-09") folded into archive pages
    fingerprint: str = ""  # of the build that wrote it (``build._fingerprint``)
    # edits observed since then have share images on its pages ("": none has; ``share``)
    share_since: str = ""
    # the digest of what every listing page shows besides its edits (``sitewide``): while
    # it stays, the archive pages before a listing's first change are kept unread
    listings: str = ""
    # which build wrote it (a count): the stories file says the same when saved by that
    # build, and is then read in part (``storyrows``)
    generation: str = ""
    # the search bundles (``search/index/<source>/<part>/``) whose files' rows the table
    # ``site`` holds, apart from :attr:`site` (read per bundle: :meth:`bundle_site`)
    bundles: frozenset[str] = frozenset()
    path: Path | None = None
    reader: _RowsReader | None = None
    every: dict[str, DocumentEntry] | None = None

    def bundle_site(self, bundle: str) -> dict[str, tuple[str, str]]:
        """The rows of ``site`` of the files of the search bundle ``bundle`` (its folder,
        ending in ``/``): path → (digest, key)."""
        upper = bundle[:-1] + chr(ord("/") + 1)  # every path starting with ``bundle``
        query = "SELECT path, digest, key FROM site WHERE path >= ? AND path < ?"
        rows = self.query(query, (bundle, upper))
        return {str(p): (str(d), str(k)) for p, d, k in rows}

    @classmethod
    def load(cls, cache_root: Path) -> BuildState:
        """The previous build's state, or an empty one when absent, damaged or of another
        application or schema (logged: the build then renders everything)."""
        path = cache_root / STATE_FILE
        if not path.is_file():
            return cls()
        try:
            # never created here (a file that is not a database must not be turned into
            # one), but writable: the journal of a build killed while saving is rolled back
            connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True)
        except sqlite3.Error as exc:
            logger.warning("build cache %s unreadable (%s); building in full", path, exc)
            return cls()
        try:
            with contextlib.closing(connection):
                return cls._read(connection, path)
        except (sqlite3.Error, TypeError, ValueError) as exc:
            logger.warning("build cache %s not usable (%s); building in full", path, exc)
            return cls()

    @classmethod
    def _read(cls, db: sqlite3.Connection, path: Path) -> BuildState:
        (application,) = db.execute("PRAGMA application_id").fetchone()
        (schema,) = db.execute("PRAGMA user_version").fetchone()
        if application != APPLICATION_ID or schema != CACHE_SCHEMA:
            raise ValueError(
                f"application {application:#x} schema {schema}, "
                f"not a quietedit build cache of schema {CACHE_SCHEMA}"
            )
        db.execute("SELECT id, rows_crc32 FROM documents LIMIT 1").fetchall()  # its shape
        db.execute("SELECT document, month FROM edits LIMIT 1").fetchall()
        db.execute("SELECT kind, month, source FROM edit_kinds LIMIT 1").fetchall()
        db.execute("SELECT term, month, source FROM edit_terms LIMIT 1").fetchall()
        # a search bundle's files are read only for the bundles a build indexes again
        site = {p: (d, k) for p, d, k in db.execute(_SITE_BUT_BUNDLES)}
        meta = dict(db.execute("SELECT key, value FROM meta"))
        months = json.loads(meta.get("folded", "[]"))
        if not isinstance(months, list) or not all(isinstance(m, str) for m in months):
            raise ValueError("meta: folded months are not a list of names")
        bundles = json.loads(meta.get("bundles", "[]"))
        if not isinstance(bundles, list) or not all(
            isinstance(b, str) and is_bundle_file(b + "x") and bundle_of(b + "x") == b
            for b in bundles
        ):
            raise ValueError("meta: search bundles are not a list of their folders")
        return cls(
            site, loaded=True, folded=frozenset(months), fingerprint=meta.get("fingerprint", ""),
            share_since=meta.get("share_since", ""), path=path.resolve(), reader=_RowsReader(path),
            listings=meta.get("listings", ""), generation=meta.get("generation", ""),
            bundles=frozenset(bundles),
        )  # fmt: skip

    def select(self, where: str = "", params: tuple[object, ...] = ()) -> dict[str, DocumentEntry]:
        """The documents whose rows match the SQL condition ``where``, each checked against
        its checksum (``CacheDamagedError`` when one fails)."""
        found = self.query(f"SELECT {COLUMNS}, crc32 FROM documents {where}", params)  # noqa: S608
        out = {}
        for *fields, crc in found:
            try:
                doc, entry = DocumentEntry.from_row(tuple(fields), crc, self.reader)
            except ValueError as exc:
                raise CacheDamagedError(f"build cache: {exc}") from exc
            out[doc] = entry
        return out

    def query(self, sql: str, params: tuple[object, ...] = ()) -> list[Any]:
        """The rows of a read-only SQL query of the cache (none without one)."""
        if self.path is None:
            return []
        try:
            with contextlib.closing(
                sqlite3.connect(f"{self.path.as_uri()}?mode=ro", uri=True)
            ) as db:
                return db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise CacheDamagedError(f"build cache {self.path}: {exc}") from exc

    @property
    def documents(self) -> dict[str, DocumentEntry]:
        """Every document's entry (read on first use: a full build keeps the documents of
        partitions not on disk, and a changed fingerprint checks each one's key)."""
        if self.every is None:
            self.every = self.select()
        return self.every

    def close(self) -> None:
        """Close the connection that reads cached edits (if one was opened)."""
        if self.reader is not None:
            self.reader.close()


JOURNALS: Final = ("-journal", "-wal", "-shm")
_PLACES: Final = ", ".join("?" * 21)  # the 19 columns of a row and the 2 checksums
INSERT_DOCUMENT: Final = f"INSERT INTO documents VALUES ({_PLACES})"  # noqa: S608
"""A document's row (written after its old row is deleted: not ``INSERT OR REPLACE``,
whose deletion fires no trigger, so its sums would count the old row too)."""


def stored_row(doc: str, entry: DocumentEntry) -> tuple[object, ...]:
    """``doc``'s row as stored: its :data:`Row` with the edits' rows put in their column,
    and both checksums."""
    row = entry.to_row(doc)
    crc = entry.checksum(doc)
    edits = entry.edits_row()
    return (*row[:13], edits, *row[13:], crc, zlib.crc32(edits.encode()))


def create_tables(db: sqlite3.Connection) -> None:
    """Make an empty cache database of this schema."""
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {CACHE_SCHEMA}")
    for table in _TABLES:
        db.execute(table)


def check_schema(db: sqlite3.Connection) -> None:
    """``sqlite3.DatabaseError`` unless ``db`` is a build cache of this schema."""
    (application,) = db.execute("PRAGMA application_id").fetchone()
    (schema,) = db.execute("PRAGMA user_version").fetchone()
    if application != APPLICATION_ID or schema != CACHE_SCHEMA:
        raise sqlite3.DatabaseError("not the build cache this build loaded")


def drop_leftovers(cache_root: Path) -> None:
    for name in _OLD_FILES:
        (cache_root / name).unlink(missing_ok=True)
    for left in cache_root.glob(f"{STATE_FILE}.*.tmp"):  # of builds killed while saving
        left.unlink(missing_ok=True)


def code_fingerprint(folder: Path) -> str:
    """A hash of the ``*.py`` files in ``folder``: changed code re-renders every page."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
