"""Where each kind of file lives in ``data/`` — the one module that knows the layout (pure).

Schema 2::

    README.md                                        what this folder is (data/README.md)
    index/<hh>/<hhh>/entries-<hhh>.json              document id → partition, a shard's open file
    index/<hh>/<hhh>/sealed-<NNNN>-<hhh>.json        a shard's full file, sealed
    documents/<YYYY>/<MM>/<DD>/checks.json           the partition's check state (schedules)
    documents/<YYYY>/<MM>/<DD>/<bb>/<id>/document.json   the document's mutable record
    documents/<YYYY>/<MM>/<DD>/<bb>/<id>/revisions/<NNNNNN>-<tail>.json   a revision (create-only)
    documents/<YYYY>/<MM>/<DD>/<bb>/<id>/events/<NNNNNN>.json      one event (create-only)
    documents/<YYYY>/<MM>/<DD>/<bb>/<id>/derived/<NNNNNN>-<tail>.json  a re-extraction (create-only)
    feeds/<slug>.json                                one feed's mutable state
    departed/<YYYY>/<MM>/<DD>/<slug>.json            the entries that left a feed that day
    state/<name>.json                                run-level mutable state
    .tmp/                                            temp files of writes in progress

What each check of a document changes (when it was checked, its failures, the HTTP
validators, a pending feed claim) is kept per partition in ``checks.json`` (a sharded run:
``checks-shard-K-of-N.json``), not in the document's record: a check that finds nothing new
then rewrites one small-delta file per partition, not a record and the trees above it per
document. The record changes only when what is known of the document does.

A document lives in the *partition* of the UTC day it was first seen (``2026/11/30``), so
no folder grows past about a day's articles and a commit rewrites only small trees; the
index, 4,096 shards keyed by the first three hex digits of the id's hash, each in a folder
of its own below a folder of its first two digits, finds the partition of any id without
listing a folder. A shard holds about 90 entries after a year at 1,000 articles a day,
and its open file at most :data:`INDEX_CHUNK_ENTRIES` (then sealed), so a run that enters a
few dozen documents rewrites a few dozen small files at any age (schema 2 kept 256 shards
in ``index/<hh>.json``, schema 3 one file per shard, each rewritten whole as it grew with
the archive); and each shard alone can be checked out of a sparse clone, since a cone-mode
checkout of a folder brings no file of its siblings. Raw pages live outside ``data/`` as WARC files
(:mod:`quietedit.archive.evidence`).

Inside a partition each document folder sits in a *bucket*, ``<bb>``: the first two hex
digits of the id's hash part (:func:`bucket_of`), 256 buckets of about 4 documents at
1,000 articles a day. An hourly sparse checkout holds a few documents of each older
partition, and git needs the listing of every folder beside each one it holds (a
sparse index keeps each as one entry): in a flat partition that is every other document
of the day, in a bucketed one the 256 buckets and the few documents beside each one held.
:meth:`Layout.document_dir` is the one place that says where a document's folder is.
Until ``quietedit migrate`` moves them, folders of the flat layout
(``<YYYY>/<MM>/<DD>/<id>/``, :func:`classify_flat_path`) are still read where they are.

A feed's record holds the entries the feed carries; the snapshot of one that left it goes
to the feed's *day file* of the day a run found it gone, which the runs of later days no
longer write (:mod:`quietedit.decide.departed`).

Schema 1 kept every document in ``documents/<id>/`` with its raw pages in
``documents/<id>/evidence/``; :func:`classify_legacy_path` names those paths for
``quietedit migrate`` and the git audit of the migrating commit, and the index files of
schema 2 (``index/<hh>.json``), which ``quietedit migrate`` moves into shard folders.

Every path is built from validated parts, so no id, slug, name or partition can leave the
folder.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from enum import Enum
from pathlib import Path, PurePosixPath
from typing import Final

from quietedit.archive.records import HASH_PATTERN
from quietedit.article.identity import is_document_id
from quietedit.errors import UnsafePathError

REVISION_DIGITS: Final = 6
SLUG_PATTERN: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
STATE_NAME_PATTERN: Final = SLUG_PATTERN
TMP_DIR: Final = ".tmp"
DOCUMENTS_DIR: Final = "documents"
INDEX_DIR: Final = "index"
DEPARTED_DIR: Final = "departed"
DOCUMENT_FILE: Final = "document.json"
REVISIONS_FOLDER: Final = "revisions"
EVENTS_FOLDER: Final = "events"
DERIVED_FOLDER: Final = "derived"
PARTITION_PATTERN: Final = re.compile(r"(?P<year>[0-9]{4})/(?P<month>[0-9]{2})/(?P<day>[0-9]{2})")
BUCKET_DIGITS: Final = 2
"""Hex digits of a document's bucket inside its partition: 256 buckets, about 4 documents
each at 1,000 articles a day (the figures: docs/archive.md)."""
BUCKET_PATTERN: Final = re.compile(rf"[0-9a-f]{{{BUCKET_DIGITS}}}")
INDEX_SHARD_DIGITS: Final = 3
"""Hex digits of an index shard's key: 4,096 shards, about 90 entries each after a year at
1,000 articles a day (900 after ten), so a run's new entries rewrite small files."""
SHARD_PATTERN: Final = re.compile(rf"[0-9a-f]{{{INDEX_SHARD_DIGITS}}}")
INDEX_SCHEMA: Final = 4
"""The schema of an index file: 4 since a shard's entries are kept in sealed files of at
most :data:`INDEX_CHUNK_ENTRIES` and one open file (3 kept one file per writer and shard,
rewritten whole at every new entry; 2 kept 256 files ``index/<hh>.json``). ``quietedit
migrate`` moves both."""
INDEX_SCHEMAS_READ: Final = (3, INDEX_SCHEMA)
"""Index file schemas read: 3 is 4's record in a shard not migrated yet."""
INDEX_CHUNK_ENTRIES: Final = 64
"""Entries of an open index file at which it is sealed (renamed, its bytes unchanged) and a
new one begun: a new entry rewrites a file of at most this many entries, so what git
stores per new entry is bounded at any age (no shard seals before ~day 262 at 1,000
articles a day), and a shard read brings its ~90 entries of a year in two files
(bench/index_growth.py has the figures)."""
WRITER_PATTERN: Final = re.compile(r"shard-[1-9][0-9]*-of-[1-9][0-9]*")
INDEX_NAME_PATTERN: Final = re.compile(
    r"(?:entries|sealed-(?P<number>[0-9]{4,}))"
    r"(?:-(?P<writer>shard-[1-9][0-9]*-of-[1-9][0-9]*))?(?:-(?P<key>[0-9a-f]{3}))?\.json"
)
"""An index file's name in its shard's folder: the open file (``entries``) or a sealed one
(``sealed-<NNNN>``, numbered from 1 per writer), the ingest shard that writes it (none for
an unsharded run's), and the shard's key last. The key ends the name so that git, which
looks for a file's earlier versions among files whose names end alike, finds them: named
alike in every shard, each new version was stored nearly whole. Schema 3's names,
``entries[-shard-K-of-N].json`` (no key), are read as sealed files until ``quietedit
migrate`` renames them (:func:`index_name_problem` tells a valid name)."""
LEGACY_INDEX_NAME_PATTERN: Final = re.compile(
    r"(?P<shard>[0-9a-f]{2})(?:-(?P<writer>shard-[1-9][0-9]*-of-[1-9][0-9]*))?\.json"
)
"""A schema-2 index file's name in ``index/``: its two-digit shard and its writer."""
CHECKS_NAME_PATTERN: Final = re.compile(
    r"checks(?:-(?P<writer>shard-[1-9][0-9]*-of-[1-9][0-9]*))?\.json"
)
"""A partition's checks file's name, and the ingest shard that writes it."""


class PathKind(Enum):
    """What a path inside the archive is, and so which rules apply to it."""

    README = "readme"
    INDEX = "index"
    CHECKS = "checks"
    DOCUMENT = "document"
    REVISION = "revision"
    EVENT = "event"
    DERIVED = "derived"  # a revision's page read again by a later extractor
    EVIDENCE = "evidence"  # schema 1 only: a raw page kept inside the archive
    FEED = "feed"
    DEPARTED = "departed"  # a feed's entries that left it one day
    STATE = "state"
    TEMP = "temp"

    @property
    def create_only(self) -> bool:
        """Whether files of this kind are written once and never modified or deleted."""
        return self in (PathKind.REVISION, PathKind.EVENT, PathKind.DERIVED, PathKind.EVIDENCE)


_PARTITION: Final = r"(?P<partition>[0-9]{4}/[0-9]{2}/[0-9]{2})"
_DOCUMENT: Final = rf"documents/{_PARTITION}/(?P<bucket>[^/]+)/(?P<id>[^/]+)"
_FLAT_DOCUMENT: Final = rf"documents/{_PARTITION}/(?P<id>[^/]+)"
_PATTERNS: Final = (
    (PathKind.README, re.compile(r"README\.md")),
    (
        PathKind.INDEX,
        re.compile(r"index/(?P<group>[^/]+)/(?P<shard>[^/]+)/(?P<name>[^/]+\.json)"),
    ),
    (PathKind.CHECKS, re.compile(rf"documents/{_PARTITION}/(?P<name>checks[^/]*\.json)")),
    (PathKind.DOCUMENT, re.compile(rf"{_DOCUMENT}/document\.json")),
    (
        PathKind.REVISION,
        re.compile(rf"{_DOCUMENT}/revisions/(?P<number>[0-9]{{6,}})(?:-(?P<tail>[^/]*))?\.json"),
    ),
    (PathKind.EVENT, re.compile(rf"{_DOCUMENT}/events/(?P<number>[0-9]{{6,}})\.json")),
    (
        PathKind.DERIVED,
        re.compile(rf"{_DOCUMENT}/derived/(?P<number>[0-9]{{6,}})(?:-(?P<tail>[^/]*))?\.json"),
    ),
    (PathKind.FEED, re.compile(r"feeds/(?P<slug>[^/]+)\.json")),
    (PathKind.DEPARTED, re.compile(rf"{DEPARTED_DIR}/{_PARTITION}/(?P<slug>[^/]+)\.json")),
    (PathKind.STATE, re.compile(r"state/(?P<name>[^/]+)\.json")),
    (PathKind.TEMP, re.compile(rf"{re.escape(TMP_DIR)}/.*")),
)
_FLAT_PATTERNS: Final = tuple(
    (kind, re.compile(pattern.pattern.replace(_DOCUMENT, _FLAT_DOCUMENT)))
    for kind, pattern in _PATTERNS
    if kind in (PathKind.DOCUMENT, PathKind.REVISION, PathKind.EVENT, PathKind.DERIVED)
)
"""The document files of a partition without buckets (``<YYYY>/<MM>/<DD>/<id>/…``),
which ``quietedit migrate`` moves into their buckets."""
_LEGACY_PATTERNS: Final = (
    (PathKind.DOCUMENT, re.compile(r"documents/(?P<id>[^/]+)/document\.json")),
    (
        PathKind.REVISION,
        re.compile(r"documents/(?P<id>[^/]+)/revisions/(?P<number>[0-9]{6,})\.json"),
    ),
    (PathKind.EVENT, re.compile(r"documents/(?P<id>[^/]+)/events/(?P<number>[0-9]{6,})\.json")),
    (
        PathKind.EVIDENCE,
        re.compile(r"documents/(?P<id>[^/]+)/evidence/(?P<hex>[0-9a-f]{64})-(?P<tail>[^/]+)\.html"),
    ),
)


def classify_path(relative: PurePosixPath) -> tuple[PathKind, dict[str, str]] | None:
    """The kind of a file at ``relative`` (POSIX, relative to the archive) and its parts.

    ``None`` when the schema-2 layout has no place for such a file. Parts are not
    validated here: a document folder with an invalid id is classified, then reported by
    ``verify``.
    """
    return _match(_PATTERNS, relative.as_posix())


def classify_flat_path(relative: PurePosixPath) -> tuple[PathKind, dict[str, str]] | None:
    """As :func:`classify_path`, for the document files of a partition without buckets
    (``documents/<YYYY>/<MM>/<DD>/<id>/…``, before ``quietedit migrate`` moved them);
    ``None`` for anything else."""
    return _match(_FLAT_PATTERNS, relative.as_posix())


def classify_legacy_path(relative: PurePosixPath) -> tuple[PathKind, dict[str, str]] | None:
    """As :func:`classify_path`, for the document files of the schema-1 layout
    (``documents/<id>/…``, raw pages in ``evidence/``); ``None`` for anything else (the
    index files of schema 2: :func:`legacy_index_path`)."""
    return _match(_LEGACY_PATTERNS, relative.as_posix())


def _match(
    patterns: tuple[tuple[PathKind, re.Pattern[str]], ...], text: str
) -> tuple[PathKind, dict[str, str]] | None:
    for kind, pattern in patterns:
        match = pattern.fullmatch(text)
        if match:
            return kind, match.groupdict()
    return None


def partition_of(moment: datetime) -> str:
    """The partition of a document first seen at ``moment``: its UTC day, ``2026/11/30``."""
    return moment.astimezone(UTC).strftime("%Y/%m/%d")


def is_partition(text: str) -> bool:
    """Whether ``text`` names a partition: ``YYYY/MM/DD``, a real calendar day."""
    match = PARTITION_PATTERN.fullmatch(text)
    if match is None:
        return False
    try:
        date(int(match["year"]), int(match["month"]), int(match["day"]))
    except ValueError:
        return False
    return True


def revision_name(document: str, number: int) -> str:
    """The file name of revision ``number`` of ``document``: ``<NNNNNN>-<tail>.json``, the
    tail being the 16 hex digits that end the id. Git chooses which files to store as
    deltas of each other by the end of their paths; a name ending the same way for every
    revision of one article, and differently for another's, lets it store an edit as a
    small delta of the revision before (measured: 18 % less for the revisions of a month
    with 22 % of them edits), where ``<NNNNNN>.json`` paired it with other articles'."""
    if number < 1:
        raise UnsafePathError(DOCUMENTS_DIR, f"revision {number} < 1")
    return f"{number:0{REVISION_DIGITS}d}-{document[-16:]}.json"


def event_name(number: int) -> str:
    """The file name of event ``number``: ``<NNNNNN>.json``."""
    if number < 1:
        raise UnsafePathError(EVENTS_FOLDER, f"event {number} < 1")
    return f"{number:0{REVISION_DIGITS}d}.json"


def bucket_of(document: str) -> str:
    """The bucket of ``document`` inside its partition: the first two hex digits of its
    hash part, as its index shard begins."""
    if not is_document_id(document):
        raise UnsafePathError(
            DOCUMENTS_DIR, f"{document!r} is not a document id (<host>-<16 hex digits>)"
        )
    return document[-16 : -16 + BUCKET_DIGITS]


def document_path(document: str, partition: str) -> str:
    """The folder of ``document`` in ``partition``, relative to the archive:
    ``documents/<YYYY>/<MM>/<DD>/<bb>/<id>`` (what :meth:`Layout.document_dir` builds, and
    the site's links into the archive name)."""
    if not is_partition(partition):
        raise UnsafePathError(DOCUMENTS_DIR, f"{partition!r} is not a partition (YYYY/MM/DD)")
    return f"{DOCUMENTS_DIR}/{partition}/{bucket_of(document)}/{document}"


def index_file_shard(relative: PurePosixPath) -> str | None:
    """The index shard of the file at ``relative`` (below the archive): its folder's name
    when the file is an index file of it (``index/<hh>/<hhh>/<name>``, ``<hh>`` the first
    two digits of ``<hhh>``, ``<name>`` as :data:`INDEX_NAME_PATTERN`); ``None`` for any
    other path."""
    parts = relative.parts
    if len(parts) != 4 or parts[0] != INDEX_DIR:
        return None
    group, shard = parts[1], parts[2]
    if not SHARD_PATTERN.fullmatch(shard) or shard[:2] != group:
        return None
    return shard if index_name_problem(parts[3], shard) is None else None


def index_name_problem(name: str, shard: str) -> str | None:
    """Why ``name`` is not the name of an index file in the folder of ``shard`` (``None``:
    it is one). A sealed file names its shard; the open file of schema 3 did not."""
    match = INDEX_NAME_PATTERN.fullmatch(name)
    if match is None:
        return "not an index file's name"
    if match["key"] is None and match["number"] is not None:
        return "a sealed index file's name ends with its shard's key"
    if match["key"] is not None and match["key"] != shard:
        return f"names shard {match['key']}, in the folder of shard {shard}"
    return None


def index_file_writer(name: str) -> tuple[str, int | None] | None:
    """The writer of the index file ``name`` (``""``: an unsharded run) and its sealed
    number (``None``: the open file; 0: an open file of schema 3, sealed since); ``None``
    for a name that is not an index file's."""
    match = INDEX_NAME_PATTERN.fullmatch(name)
    if match is None:
        return None
    if match["number"] is not None:
        return match["writer"] or "", int(match["number"])
    return match["writer"] or "", None if match["key"] is not None else 0


def legacy_index_path(relative: PurePosixPath) -> str | None:
    """The two-digit shard of a schema-2 index file, ``index/<hh>[-shard-K-of-N].json``
    (``relative`` to the archive); ``None`` for any other path."""
    parts = relative.parts
    if len(parts) != 2 or parts[0] != INDEX_DIR:
        return None
    match = LEGACY_INDEX_NAME_PATTERN.fullmatch(parts[1])
    return match["shard"] if match else None


def index_shard(document: str) -> str:
    """The index shard holding ``document``: the first three hex digits of its hash part."""
    if not is_document_id(document):
        raise UnsafePathError(INDEX_DIR, f"{document!r} is not a document id (<host>-<16 hex>)")
    return document[-16 : -16 + INDEX_SHARD_DIGITS]


class Layout:
    """Builds the path of every archive file below ``root`` from validated parts."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def tmp_dir(self) -> Path:
        return self.root / TMP_DIR

    @property
    def documents_dir(self) -> Path:
        return self.root / DOCUMENTS_DIR

    @property
    def index_dir(self) -> Path:
        return self.root / INDEX_DIR

    def index_folder(self, shard: str) -> Path:
        """The folder of index ``shard`` (3 hex digits): ``index/<hh>/<hhh>``, below the
        folder of its first two digits."""
        if not SHARD_PATTERN.fullmatch(shard):
            raise UnsafePathError(
                self.index_dir, f"{shard!r} is not an index shard ({INDEX_SHARD_DIGITS} hex)"
            )
        return self.index_dir / shard[:2] / shard

    def index_file(self, shard: str, *, writer: str = "") -> Path:
        """The file of index ``shard`` that ``writer`` (``""``: an unsharded run, or
        ``shard-K-of-N``) writes, its open file: ``index/<hh>/<hhh>/entries-<hhh>.json`` or
        ``index/<hh>/<hhh>/entries-shard-K-of-N-<hhh>.json``."""
        folder = self.index_folder(shard)
        if writer and not WRITER_PATTERN.fullmatch(writer):
            raise UnsafePathError(folder, f"{writer!r} is not shard-<k>-of-<n>")
        return folder / (f"entries-{writer}-{shard}.json" if writer else f"entries-{shard}.json")

    def sealed_index_file(self, shard: str, number: int, *, writer: str = "") -> Path:
        """Sealed index file ``number`` (from 1) of ``shard`` that ``writer`` wrote:
        ``index/<hh>/<hhh>/sealed-<NNNN>[-shard-K-of-N]-<hhh>.json``."""
        folder = self.index_file(shard, writer=writer).parent
        if number < 1:
            raise UnsafePathError(folder, f"sealed index file {number} < 1")
        name = f"sealed-{number:04d}-{writer}" if writer else f"sealed-{number:04d}"
        return folder / f"{name}-{shard}.json"

    def legacy_index_file(self, shard: str, *, writer: str = "") -> Path:
        """A schema-2 index file, ``index/<hh>.json`` or ``index/<hh>-shard-K-of-N.json``
        (read until ``quietedit migrate`` has moved it)."""
        if not re.fullmatch(r"[0-9a-f]{2}", shard):
            raise UnsafePathError(self.index_dir, f"{shard!r} is not a schema-2 index shard")
        if writer and not WRITER_PATTERN.fullmatch(writer):
            raise UnsafePathError(self.index_dir, f"{writer!r} is not shard-<k>-of-<n>")
        return self.index_dir / (f"{shard}-{writer}.json" if writer else f"{shard}.json")

    def partition_dir(self, partition: str) -> Path:
        if not is_partition(partition):
            raise UnsafePathError(
                self.documents_dir, f"{partition!r} is not a partition (YYYY/MM/DD)"
            )
        return self.documents_dir / partition

    def checks_file(self, partition: str, *, writer: str = "") -> Path:
        """The checks file of ``partition`` that ``writer`` writes: ``checks.json`` or
        ``checks-shard-K-of-N.json``."""
        folder = self.partition_dir(partition)
        if writer and not WRITER_PATTERN.fullmatch(writer):
            raise UnsafePathError(folder, f"{writer!r} is not shard-<k>-of-<n>")
        return folder / (f"checks-{writer}.json" if writer else "checks.json")

    def document_dir(self, document: str, partition: str) -> Path:
        if not is_document_id(document):
            raise UnsafePathError(
                self.documents_dir / repr(document),
                f"{document!r} is not a document id (expected <host>-<16 hex digits>)",
            )
        return self.root / document_path(document, partition)

    def flat_document_dir(self, document: str, partition: str) -> Path:
        """Where a partition without buckets kept ``document``: ``<partition>/<id>``
        (read until ``quietedit migrate`` has moved it into its bucket)."""
        if not is_document_id(document):
            raise UnsafePathError(self.documents_dir, f"{document!r} is not a document id")
        return self.partition_dir(partition) / document

    def document_file(self, document: str, partition: str) -> Path:
        return self.document_dir(document, partition) / DOCUMENT_FILE

    def revisions_dir(self, document: str, partition: str) -> Path:
        return self.document_dir(document, partition) / REVISIONS_FOLDER

    def revision_file(self, document: str, partition: str, number: int) -> Path:
        if number < 1:
            raise UnsafePathError(self.revisions_dir(document, partition), f"revision {number} < 1")
        return self.revisions_dir(document, partition) / revision_name(document, number)

    def events_dir(self, document: str, partition: str) -> Path:
        return self.document_dir(document, partition) / EVENTS_FOLDER

    def event_file(self, document: str, partition: str, number: int) -> Path:
        if number < 1:
            raise UnsafePathError(self.events_dir(document, partition), f"event {number} < 1")
        return self.events_dir(document, partition) / event_name(number)

    def derived_dir(self, document: str, partition: str) -> Path:
        return self.document_dir(document, partition) / DERIVED_FOLDER

    def derived_file(self, document: str, partition: str, number: int) -> Path:
        """Derived record ``number`` (:mod:`quietedit.archive.derived`), named like a revision."""
        if number < 1:
            raise UnsafePathError(self.derived_dir(document, partition), f"derived {number} < 1")
        return self.derived_dir(document, partition) / revision_name(document, number)

    def legacy_document_dir(self, document: str) -> Path:
        """A schema-1 document folder, ``documents/<id>`` (read by ``quietedit migrate``)."""
        if not is_document_id(document):
            raise UnsafePathError(self.documents_dir, f"{document!r} is not a document id")
        return self.documents_dir / document

    def legacy_evidence_file(self, document: str, hash_: str) -> Path:
        """Where schema 1 kept the raw page hashing to ``hash_``: the name ends with the
        document id so that git packed successive pages of one article as deltas."""
        if not HASH_PATTERN.fullmatch(hash_):
            raise UnsafePathError(
                self.legacy_document_dir(document),
                f"{hash_!r} is not a sha256:<64 hex digits> hash",
            )
        hex_ = hash_.removeprefix("sha256:")
        return self.legacy_document_dir(document) / "evidence" / f"{hex_}-{document}.html"

    def feed_file(self, slug: str) -> Path:
        if not SLUG_PATTERN.fullmatch(slug):
            raise UnsafePathError(
                self.root / "feeds",
                f"{slug!r} is not a feed slug ([a-z0-9-], 1-63 chars)",
            )
        return self.root / "feeds" / f"{slug}.json"

    def departed_dir(self, day: str) -> Path:
        """The folder of the day files of ``day`` (``YYYY/MM/DD``)."""
        if not is_partition(day):
            raise UnsafePathError(self.root / DEPARTED_DIR, f"{day!r} is not a day (YYYY/MM/DD)")
        return self.root / DEPARTED_DIR / day

    def departed_file(self, slug: str, day: str) -> Path:
        """The day file of feed ``slug``: the snapshots of its entries that left on ``day``."""
        if not SLUG_PATTERN.fullmatch(slug):
            raise UnsafePathError(
                self.root / DEPARTED_DIR, f"{slug!r} is not a feed slug ([a-z0-9-], 1-63 chars)"
            )
        return self.departed_dir(day) / f"{slug}.json"

    def state_file(self, name: str) -> Path:
        if not STATE_NAME_PATTERN.fullmatch(name):
            raise UnsafePathError(
                self.root / "state",
                f"{name!r} is not a state name ([a-z0-9-], 1-63 chars)",
            )
        return self.root / "state" / f"{name}.json"
