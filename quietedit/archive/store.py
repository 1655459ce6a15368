"""Reading and writing ``data/``: create-only revisions and events, atomic state files.

Every write goes through the two primitives of :mod:`quietedit.archive.files`: a
create-only file appears complete or not at all and is never overwritten; a mutable file
is replaced atomically. The API offers no way to rewrite or delete a revision.

What the checks of a partition's documents leave behind (each one's schedule and HTTP
validators) is not kept in the document's record but in the partition's checks file
(:mod:`quietedit.archive.partition_checks`), so a check that finds nothing new rewrites
one file per partition instead of a record (and the git trees above it) per document.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Final

from quietedit.archive import sparse, treeids
from quietedit.archive.files import (
    create_file,
    listdir,
    load_json,
    replace_file,
)
from quietedit.archive.index import DocumentIndex
from quietedit.archive.layout import (
    DERIVED_FOLDER,
    DOCUMENT_FILE,
    EVENTS_FOLDER,
    REVISIONS_FOLDER,
    Layout,
    index_shard,
    is_partition,
)
from quietedit.archive.partition_checks import CHECK_FIELDS, PartitionChecks, split_record
from quietedit.archive.records import (
    OPTIONAL_REVISION_FIELDS,
    REVISION_FIELDS,
    check_event_record,
    check_revision_record,
    check_state_record,
    dump_json,
    event_from_record,
    event_to_record,
    new_revision,
    revision_from_record,
    revision_to_record,
)
from quietedit.article.identity import is_document_id
from quietedit.errors import ArchiveError, UnsafePathError
from quietedit.model import JSON
from quietedit.revisions import SCHEMA_VERSION, Event, Observation, Revision

logger = logging.getLogger(__name__)


class Archive:
    """The archive folder ``root`` (``data/``); created on first write.

    Documents are found through the index (:mod:`quietedit.archive.index`): the shard of
    an id names the partition its folder is in. One object may be shared by the threads of
    a run: index and checks-file updates are serialised.
    """

    def __init__(self, root: Path, *, writer: str = "") -> None:
        self.root = root
        self.layout = Layout(root)
        self.writer = writer
        """Whose index and checks files this object writes: ``""`` for an unsharded run, or
        ``shard-K-of-N`` (:attr:`~quietedit.decide.shard.Shard.writer`), so that shards
        running at once never write the same file (each reads every shard's)."""
        self.checks = PartitionChecks(
            self.layout,
            read=lambda path: self._read_state(path, kind="checks"),
            replace=lambda path, data: self._replace(path, data, final=True),
        )
        """The partitions' checks files: each document's schedule and HTTP validators."""
        self.index = DocumentIndex(
            self.layout,
            read=lambda path: self._read_state(path, kind="index"),
            replace=lambda path, data: self._replace(path, data, final=False),
        )
        """The index: the partition of every document (:mod:`quietedit.archive.index`)."""
        self.written_partitions: set[str] = set()
        """Partitions whose document records this object wrote (a run reads them again)."""
        self.written_documents: set[tuple[str, str]] = set()
        """``(partition, id)`` of the document records this object wrote."""

    # -- the index ------------------------------------------------------------------

    def partition(self, document: str) -> str | None:
        """The partition ``document`` lives in, or ``None`` for a document never stored."""
        return self.index.partition(document, writer=self.writer)

    def _home(self, document: str) -> str:
        """The partition of a stored document, its folder on disk (that folder alone
        fetched into a sparse checkout when it is missing there, with its partition's
        checks files); ``ArchiveError`` for a document never stored."""
        partition = self.partition(document)
        if partition is None:
            raise ArchiveError(
                self.layout.index_file(index_shard(document)),
                f"{document} is not in the index: no such document",
            )
        folder = self.layout.document_dir(document, partition)
        if not folder.is_dir():
            sparse.fetch_folder(self.root, folder)
        return partition

    def prefetch(self, documents: Iterable[str]) -> int:
        """Bring the folders of ``documents`` (those stored) that a sparse checkout leaves
        out into it at once (:func:`~quietedit.archive.sparse.fetch_folders`); how many
        came. An unreadable index entry is skipped: that document is fetched when read."""
        missing = []
        for document in documents:
            try:
                partition = self.partition(document)
            except ArchiveError:
                continue
            if partition is not None:
                folder = self.layout.document_dir(document, partition)
                if not folder.is_dir():
                    missing.append(folder)
        return sparse.fetch_folders(self.root, missing) if missing else 0

    def outside_checkout(self) -> Callable[[str, str], bool]:
        """A test of whether a document missing from disk, given as ``(partition, id)``,
        is left out by the checkout (its partition is not on disk, or a sparse git checkout
        does not hold its folder) rather than deleted (its folder missing from what is
        checked out, or the index, which every checkout holds, no longer naming it there).
        Reads the sparse checkout's list once: the test is for one pass."""
        cone = sparse.checkout_cone(self.root)
        resolved = Layout(self.root.resolve())
        partitions: dict[str, bool] = {}

        def outside(partition: str, document: str) -> bool:
            try:
                folder = resolved.document_dir(document, partition)
            except UnsafePathError:
                return True  # no such folder can exist: never taken for a deletion
            try:
                if self.partition(document) != partition:
                    return False  # removed from the index: deleted, not left out
            except ArchiveError:
                return True  # an unreadable index deletes nothing
            if partition not in partitions:
                partitions[partition] = folder.parent.is_dir()
            return not partitions[partition] or (cone is not None and not cone.holds(folder))

        return outside

    # -- paths of one document ---------------------------------------------------------

    def document_dir(self, document: str) -> Path:
        """The folder of a stored document (``ArchiveError`` if it was never stored)."""
        return self.layout.document_dir(document, self._home(document))

    def document_file(self, document: str) -> Path:
        return self.document_dir(document) / DOCUMENT_FILE

    def revisions_dir(self, document: str) -> Path:
        return self.layout.revisions_dir(document, self._home(document))

    def revision_file(self, document: str, number: int) -> Path:
        return self.layout.revision_file(document, self._home(document), number)

    def events_dir(self, document: str) -> Path:
        return self.layout.events_dir(document, self._home(document))

    def event_file(self, document: str, number: int) -> Path:
        return self.layout.event_file(document, self._home(document), number)

    # -- documents -----------------------------------------------------------------

    def partitions(self) -> list[str]:
        """Every partition folder on disk (``YYYY/MM/DD``), sorted."""
        found = []
        top = self.layout.documents_dir
        for year in listdir(top):
            for month in listdir(top / year):
                for day in listdir(top / year / month):
                    name = f"{year}/{month}/{day}"
                    if is_partition(name) and (top / name).is_dir():
                        found.append(name)
        return found

    def documents(self, partitions: Iterable[str] | None = None) -> list[tuple[str, str]]:
        """``(partition, id)`` of every document with a record in ``partitions`` (default:
        every partition on disk), sorted by partition, then id."""
        chosen = self.partitions() if partitions is None else sorted(set(partitions))
        found: list[tuple[str, str]] = []
        for partition in chosen:
            folder = self.layout.partition_dir(partition)
            found.extend((partition, p.parent.name) for p in folder.glob(f"*/{DOCUMENT_FILE}"))
        return sorted(found)

    def document_ids(self, partitions: Iterable[str] | None = None) -> list[str]:
        """Ids of every document with a record in ``partitions`` (default: every
        partition on disk), sorted."""
        return sorted(document for _, document in self.documents(partitions))

    def read_document(self, document: str) -> dict[str, JSON] | None:
        """The document's record, or ``None`` if it has none yet: its record file with its
        partition's checks entry (:mod:`~quietedit.archive.partition_checks`) laid over it."""
        partition = self.partition(document)
        if partition is None:
            return None
        record = self._read_state(self.document_file(document), kind="document")
        entry = self.checks.entry(partition, document, writer=self.writer)
        return {**record, **entry} if record is not None and entry else record

    def write_document(
        self, document: str, record: dict[str, JSON], *, final: bool = False, at_once: bool = False
    ) -> None:
        """Store the document's record (``schema``/``type``/``id`` are set here): its
        ``schedule`` and ``http`` go to its partition's checks entry, the rest replaces its
        record file atomically when it differs. A new document is entered in the index
        first, in the partition of its record's ``discovered_at``. ``final``: the last write
        of its unit, which nothing written later refers to (see :meth:`_replace`).
        ``at_once``: the checks entry is written now even by a batching run (a check that
        stored a revision: its schedule restarts, and a kill must not lose that)."""
        partition, new = self.index.place(document, record, writer=self.writer)
        if not new:
            self._home(document)  # a folder outside a sparse checkout comes back first
        elif not self.layout.partition_dir(partition).is_dir():
            # a partition a sparse checkout leaves out: its checks files come first, or the
            # new entry would be written to a file without the other documents' entries
            sparse.fetch_folder(self.root, self.layout.document_dir(document, partition))
        kept, entry = split_record(record)
        path = self.layout.document_file(document, partition)
        old = _contents(path)
        if (
            entry
            and _has_check_fields(old)
            and not self.checks.written(partition, document, writer=self.writer)
        ):
            # a record from before the checks file holds the only schedule on disk: it
            # keeps it (brought up to date) until the entry is written, or a run killed
            # before its flush would lose the schedule, not just this check's entry
            kept = {**kept, **entry}
        full = {**kept, "schema": SCHEMA_VERSION, "type": "document", "id": document}
        data = dump_json(full)
        if old != data:
            self._replace(path, data, final=final)
        if entry:  # after the record: an entry always names a document on disk
            self.checks.put(partition, document, entry, writer=self.writer, at_once=at_once)
        self.written_partitions.add(partition)
        self.written_documents.add((partition, document))

    def flush_checks(self) -> None:
        """Write the checks entries a batching run holds (:attr:`PartitionChecks.batched`)."""
        self.checks.flush()

    # -- revisions -----------------------------------------------------------------

    def revisions(self, document: str, *, shallow: bool = False) -> list[Revision]:
        """The document's revisions, oldest first, each checked on the way in.

        ``shallow`` checks each record's place, fields and types but not its own hash:
        for the site build, which reads every changed document and for which re-hashing
        would cost more than rendering (``quietedit verify``, run before the build in CI,
        checks hashes and chains)."""
        partition = self._home(document)
        paths = _numbered(
            self.layout.revisions_dir(document, partition),
            lambda n: self.layout.revision_file(document, partition, n),
            what="revision",
        )
        read = read_revision_shallow if shallow else self._read_revision
        return [read(path) for path in paths]

    def latest_revision(self, document: str) -> Revision | None:
        """The newest revision, or ``None`` for a document never successfully observed."""
        if self.partition(document) is None:
            return None
        folder = self.revisions_dir(document)
        paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
        return self._read_revision(paths[-1]) if paths else None

    def append_revision(
        self, document: str, observation: Observation, *, fingerprint: str | None = None
    ) -> Revision:
        """Store ``observation`` as the document's next revision and return it.

        The document needs a record first (``write_document``), so no revision is ever
        an orphan. Its evidence, if any, is stored before (outside the archive, as WARC).
        Raises ``UnchangedContentError`` if the content equals the newest revision's and
        ``RevisionExistsError`` if another writer took the number first.
        """
        self._require_record(document, before="append_revision")
        revision = new_revision(
            document, observation, previous=self.latest_revision(document), fingerprint=fingerprint
        )
        path = self.revision_file(document, revision.number)
        self._create(path, dump_json(revision_to_record(revision)))
        logger.debug("stored %s", path)
        return revision

    # -- events --------------------------------------------------------------------

    def events(self, document: str) -> list[Event]:
        """The document's events, oldest first, each checked on the way in."""
        partition = self._home(document)
        paths = _numbered(
            self.layout.events_dir(document, partition),
            lambda n: self.layout.event_file(document, partition, n),
            what="event",
        )
        found = []
        for path in paths:
            record = load_json(path)
            problems = check_event_record(record)
            if problems or not isinstance(record, dict):
                raise ArchiveError(path, "; ".join(problems))
            found.append(event_from_record(record))
        return found

    def append_event(
        self,
        document: str,
        kind: str,
        *,
        observed_at: datetime,
        revision: int | None = None,
        detail: dict[str, JSON] | None = None,
    ) -> Event:
        """Record an event of the document (create-only, numbered like revisions)."""
        self._require_record(document, before="append_event")
        folder = self.events_dir(document)
        numbers = [int(p.stem) for p in folder.glob("*.json") if p.stem.isdigit()]
        number = max(numbers, default=0) + 1
        event = Event(document, number, kind, observed_at, revision=revision, detail=detail or {})
        self._create(self.event_file(document, number), dump_json(event_to_record(event)))
        return event

    def _require_record(self, document: str, *, before: str) -> None:
        """Raise ``ArchiveError`` unless ``document`` has a record (no orphan files)."""
        if self.partition(document) is None or not self.document_file(document).is_file():
            raise ArchiveError(
                self.layout.documents_dir / document,
                f"no document record; write_document() before {before}()",
            )

    # -- feed and run state ----------------------------------------------------------

    def feed_slugs(self) -> list[str]:
        """Slugs of every feed that has a record, sorted."""
        folder = self.root / "feeds"
        return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []

    def read_feed(self, slug: str) -> dict[str, JSON] | None:
        return self._read_state(self.layout.feed_file(slug), kind="feed")

    def write_feed(self, slug: str, record: dict[str, JSON], *, final: bool = False) -> None:
        """Atomically replace the feed's record; ``final`` as for :meth:`write_document`."""
        full = {**record, "schema": SCHEMA_VERSION, "type": "feed", "slug": slug}
        self._replace(self.layout.feed_file(slug), dump_json(full), final=final)

    def read_departed(self, slug: str, day: str) -> dict[str, JSON] | None:
        """The day file of feed ``slug`` for ``day`` (``None``: there is none); its folder
        is fetched into a sparse checkout that leaves it out. ``ArchiveError`` when it
        cannot be read (or fetched)."""
        path = self.layout.departed_file(slug, day)
        if not path.parent.is_dir():
            sparse.fetch_folder(self.root, path.parent)
        record = self._read_state(path, kind="departed")
        if record is not None and (record.get("slug") != slug or record.get("day") != day):
            raise ArchiveError(path, "slug or day does not match the file's path")
        return record

    def write_departed(self, slug: str, day: str, record: dict[str, JSON]) -> None:
        """Atomically replace the day file of feed ``slug`` for ``day``; flushed, as the
        feed record written next refers to it."""
        full = {**record, "schema": SCHEMA_VERSION, "type": "departed", "slug": slug, "day": day}
        self._replace(self.layout.departed_file(slug, day), dump_json(full), final=False)

    def prefetch_departed(self, days: Iterable[str]) -> int:
        """Bring the day folders of ``days`` that a sparse checkout leaves out into it at
        once; how many came."""
        missing = [self.layout.departed_dir(day) for day in sorted(set(days))]
        missing = [folder for folder in missing if not folder.is_dir()]
        return sparse.fetch_folders(self.root, missing) if missing else 0

    def state_names(self) -> list[str]:
        """Names of every run-level state file in ``state/``, sorted."""
        folder = self.root / "state"
        return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []

    def read_state(self, name: str) -> dict[str, JSON] | None:
        return self._read_state(self.layout.state_file(name), kind="state")

    def write_state(self, name: str, record: dict[str, JSON], *, final: bool = False) -> None:
        """Atomically replace a state file; ``final`` as for :meth:`write_document`."""
        full = {**record, "schema": SCHEMA_VERSION, "type": "state", "name": name}
        self._replace(self.layout.state_file(name), dump_json(full), final=final)

    def sweep_temp(self) -> int:
        """Remove what interrupted writes left in ``.tmp/``; only while holding the run
        lock, when no other writer can be at work. Returns how many files went."""
        folder = self.layout.tmp_dir
        if not folder.is_dir():
            return 0
        swept = 0
        for path in folder.iterdir():
            if path.name != "ingest.lock" and path.is_file():
                path.unlink(missing_ok=True)
                swept += 1
        return swept

    # -- the site build's shallow reads -------------------------------------------------

    def document_stamps(self, trees: treeids.Trees | None = None) -> dict[str, str]:
        """Every document folder holding a record, by name, sorted → its *stamp*.

        In a git checkout (``trees``, :func:`treeids.read`), the stamp of a document
        whose files are as committed is its folder's tree id, which survives a clone.
        Else a stamp is read with three ``stat`` calls and no file opened: the modification
        times of the record and of the revision and event folders (and of the derived
        folder, when there is one). A new revision or event moves its folder's time and a
        rewritten record (replaced by a rename) its own, so an
        unchanged stamp means unchanged files, short of someone resetting times by hand. A
        changed stamp only says to look again with :meth:`content_key`. Folder names that
        are not document ids are included, for the caller to report.
        """
        found = {}
        present = self.partitions()
        committed = trees.documents(present) if trees is not None else {}
        for partition in present:
            root = os.path.join(self.layout.documents_dir, partition)
            for name in listdir(Path(root)):
                home = os.path.join(root, name)
                try:
                    times = [str(os.stat(os.path.join(home, DOCUMENT_FILE)).st_mtime_ns)]
                except (FileNotFoundError, NotADirectoryError):
                    continue  # not a document (yet): revisions never come before the record
                tree = committed.get(name, ("", ""))
                clean = trees is not None and name not in trees.dirty  # as committed
                if clean and tree[0] == partition:
                    found[name] = treeids.PREFIX + tree[1]
                    continue
                for folder in (REVISIONS_FOLDER, EVENTS_FOLDER):
                    try:
                        times.append(str(os.stat(os.path.join(home, folder)).st_mtime_ns))
                    except FileNotFoundError:
                        times.append("-")
                with contextlib.suppress(FileNotFoundError):  # re-extractions, when any
                    times.append(str(os.stat(os.path.join(home, DERIVED_FOLDER)).st_mtime_ns))
                found[name] = " ".join(times)
        return dict(sorted(found.items()))

    def content_key(self, document: str) -> str:
        """A hash of everything the document's record, revisions and events hold, read
        without parsing a revision: equal keys mean equal content.

        Revision, event and derived files are create-only and numbered, so their names fix the set
        and the newest file's bytes fix the content (a revision's hash chains every older
        one; an event is never rewritten). Raises ``ArchiveError`` when a file cannot be
        read.
        """
        digest = hashlib.sha256()
        record = self.document_file(document)
        try:
            digest.update(record.read_bytes())
            home = record.parent
            for folder in (home / REVISIONS_FOLDER, home / EVENTS_FOLDER, home / DERIVED_FOLDER):
                try:
                    names = [n for n in os.listdir(folder) if n.endswith(".json")]
                except FileNotFoundError:
                    names = []
                if folder.name == DERIVED_FOLDER and not names:
                    continue  # no re-extraction: the key of a document without one is as before
                digest.update(f"\0{len(names)}\0".encode())
                if names:
                    newest = max(names, key=lambda n: (len(n), n))  # numbers may outgrow padding
                    digest.update(newest.encode() + b"\0")
                    digest.update((folder / newest).read_bytes())
        except OSError as exc:
            raise ArchiveError(
                record.parent, f"cannot read: {exc.strerror}; run quietedit verify"
            ) from exc
        return digest.hexdigest()

    def legacy_documents(self) -> list[str]:
        """Folders of the schema-1 layout (``documents/<id>/``) still here, sorted: an
        archive to migrate (or a migration to finish) before anything else is written."""
        top = self.layout.documents_dir
        return [name for name in listdir(top) if is_document_id(name) and (top / name).is_dir()]

    def require_current(self) -> None:
        """Raise ``ArchiveError`` when the archive still has schema-1 document folders."""
        legacy = self.legacy_documents()
        if legacy:
            raise ArchiveError(
                self.layout.documents_dir / legacy[0],
                f"a schema-1 archive ({len(legacy)} document folders in the old layout); "
                "run quietedit migrate first",
            )

    # -- the two write primitives (:mod:`quietedit.archive.files`) -------------------

    def _create(self, path: Path, data: bytes) -> None:
        create_file(self.layout.tmp_dir, path, data)

    def _replace(self, path: Path, data: bytes, *, final: bool) -> None:
        replace_file(self.layout.tmp_dir, path, data, final=final)

    # -- reading -------------------------------------------------------------------

    def _read_revision(self, path: Path) -> Revision:
        record = load_json(path)
        problems = check_revision_record(record, deep=False)
        if problems or not isinstance(record, dict):
            raise ArchiveError(path, "; ".join(problems))
        return revision_from_record(record)

    def _read_state(self, path: Path, *, kind: str) -> dict[str, JSON] | None:
        if not path.exists():
            return None
        record = load_json(path)
        problems = check_state_record(record, kind=kind)
        if problems or not isinstance(record, dict):
            raise ArchiveError(path, "; ".join(problems))
        return record


def _contents(path: Path) -> bytes | None:
    """The bytes of the file at ``path``; ``None`` when it cannot be read."""
    try:
        return path.read_bytes()
    except OSError:
        return None


def _has_check_fields(data: bytes | None) -> bool:
    """Whether a record file's bytes hold :data:`CHECK_FIELDS` of its own (one written
    before the checks file existed)."""
    if data is None or not any(f'"{key}"'.encode() in data for key in CHECK_FIELDS):
        return False
    try:
        record = json.loads(data)
    except ValueError:
        return False
    return isinstance(record, dict) and any(key in record for key in CHECK_FIELDS)


def read_revision_shallow(path: Path) -> Revision:
    """A revision whose fields and types are checked, its hashes not (``revisions``'s
    ``shallow`` read; the export reads the same way)."""
    record = load_json(path)
    if not isinstance(record, dict) or not set(REVISION_FIELDS) <= set(record) <= _KNOWN_FIELDS:
        raise ArchiveError(path, "not a revision record; run quietedit verify")
    wrong = [k for k, kind in REVISION_FIELDS.items() if not isinstance(record[k], kind)]
    if wrong:
        raise ArchiveError(path, f"{', '.join(wrong)}: wrong type; run quietedit verify")
    try:
        return revision_from_record(record)
    except (TypeError, ValueError) as exc:
        raise ArchiveError(path, f"unreadable revision ({exc}); run quietedit verify") from exc


_KNOWN_FIELDS: Final = frozenset(REVISION_FIELDS) | frozenset(OPTIONAL_REVISION_FIELDS)


def _numbered(folder: Path, expected: Callable[[int], Path], *, what: str) -> list[Path]:
    """The files 1..n of a create-only series, in order; a gap or a stray name is an error."""
    paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    for number, path in enumerate(paths, start=1):
        if path != expected(number):
            raise ArchiveError(path, f"expected {what} {number} here; run quietedit verify")
    return paths
