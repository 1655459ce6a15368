"""Reading and writing ``data/``: documents, their create-only revisions and events, state.

Every write goes through the two primitives of :mod:`quietedit.archive.files`: a
create-only file appears complete or not at all and is never overwritten; a mutable file
is replaced atomically. The API offers no way to rewrite or delete a revision.

What the checks of a partition's documents leave behind (each one's schedule and HTTP
validators) is not kept in the document's record but in the partition's checks file
(:mod:`quietedit.archive.partition_checks`), so a check that finds nothing new rewrites
one file per partition instead of a record (and the git trees above it) per document.

Beside the documents, this class is the one door to the rest of ``data/``; each part it
opens has its own module: the index (:mod:`~quietedit.archive.index`), the checks files
(:mod:`~quietedit.archive.partition_checks`), the reading of a document's revisions and
events (:mod:`~quietedit.archive.series`), the feed and state files
(:mod:`~quietedit.archive.statefiles`), the site build's stamps and content keys
(:mod:`~quietedit.archive.stamps`) and the folders a sparse checkout leaves out
(:mod:`~quietedit.archive.sparse`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from pathlib import Path

from quietedit.archive import sparse, stamps, treeids
from quietedit.archive.eventrecords import event_to_record
from quietedit.archive.files import (
    contents,
    create_file,
    listdir,
    load_json,
    remove_file,
    replace_file,
    sweep_temp,
)
from quietedit.archive.index import DocumentIndex
from quietedit.archive.layout import (
    DOCUMENT_FILE,
    EVENTS_FOLDER,
    REVISIONS_FOLDER,
    Layout,
    event_name,
    index_shard,
    is_partition,
    revision_name,
)
from quietedit.archive.partition_checks import PartitionChecks, has_check_fields, split_record
from quietedit.archive.records import (
    check_state_record,
    dump_json,
    new_revision,
    revision_to_record,
)
from quietedit.archive.series import (
    read_events,
    read_latest_revision,
    read_revision_shallow,
    read_revisions,
)
from quietedit.archive.statefiles import StateFiles
from quietedit.article.identity import is_document_id
from quietedit.errors import ArchiveError
from quietedit.model import JSON
from quietedit.revisions import SCHEMA_VERSION, Event, Observation, Revision

__all__ = ["Archive", "read_revision_shallow"]  # the latter's home: archive.series

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
            read=lambda path: load_json(path) if path.exists() else None,
            replace=lambda path, data: self._replace(path, data, final=False),
            bring=lambda folders: sparse.fetch_folders(self.root, folders, strict=True),
        )
        """The index: the partition of every document (:mod:`quietedit.archive.index`)."""
        self.state_files = StateFiles(
            self.layout,
            read=lambda path, kind: self._read_state(path, kind=kind),
            replace=lambda path, data, final: self._replace(path, data, final=final),
            remove=self._remove,
        )
        """The feed records, their day files and the run-level state files."""
        self.written_partitions: set[str] = set()
        """Partitions whose document records this object wrote (a run reads them again)."""
        self.written_documents: set[tuple[str, str]] = set()
        """``(partition, id)`` of the document records this object wrote."""

    # -- the index ------------------------------------------------------------------

    def partition(self, document: str) -> str | None:
        """The partition ``document`` lives in, or ``None`` for a document never stored."""
        return self.index.partition(document, writer=self.writer)

    def _home(self, document: str) -> str:
        """The partition of a stored document, its folder on disk (:meth:`document_dir`);
        ``ArchiveError`` for a document never stored."""
        return self._place(document)[0]

    def _place(self, document: str) -> tuple[str, Path]:
        """The partition and folder of a stored document: the folder of its bucket, or,
        in a partition ``quietedit migrate`` has not bucketed yet, the folder it has there
        (that folder alone fetched into a sparse checkout when it is missing there, with
        its partition's checks files); ``ArchiveError`` for a document never stored."""
        partition = self.partition(document)
        if partition is None:
            raise ArchiveError(
                self.layout.index_file(index_shard(document)),
                f"{document} is not in the index: no such document",
            )
        folder = self.layout.document_dir(document, partition)
        if folder.is_dir():
            return partition, folder
        flat = self.layout.flat_document_dir(document, partition)
        if flat.is_dir():
            return partition, flat
        sparse.fetch_folder(self.root, folder)
        if not folder.is_dir() and sparse.fetch_folder(self.root, flat) and flat.is_dir():
            return partition, flat  # an archive not migrated yet, in a sparse checkout
        return partition, folder

    def prefetch(self, documents: Iterable[str], *, placed: Mapping[str, str] | None = None) -> int:
        """Bring the folders of ``documents`` (those stored) that a sparse checkout leaves
        out into it at once (:func:`~quietedit.archive.sparse.fetch_folders`); how many
        came. Their index shards the checkout leaves out come first, at once (of those
        the index has not learnt). An unreadable index entry is skipped: that document is
        fetched when read.

        ``placed``: document → the partition a record of the caller's (a site build's
        cache) says it is in. Those folders are fetched first, without their index
        shards, in one fetch; a folder that came is the document's place, as one found on
        disk is (:meth:`documents`). Those that did not come (a record out of date) are
        fetched as the others, through the index."""
        documents = list(documents)
        came = 0
        guessed: dict[str, Path] = {}
        if placed:
            guessed = {
                doc: self.layout.document_dir(doc, partition)
                for doc in documents
                if (partition := placed.get(doc)) is not None
                and is_document_id(doc)
                and is_partition(partition)
            }
            missing = [folder for folder in guessed.values() if not folder.is_dir()]
            if missing:
                sparse.fetch_folders(self.root, missing)
                came = sum(folder.is_dir() for folder in missing)
            here = {doc for doc, folder in guessed.items() if folder.is_dir()}
            self.index.learn((placed[doc], doc) for doc in sorted(here))
            documents = [doc for doc in documents if doc not in here]
            if not documents:
                return came
        self.index.prefetch(documents)
        missing = []
        for document in documents:
            try:
                partition = self.partition(document)
            except ArchiveError:
                continue
            if partition is not None:
                folder = self.layout.document_dir(document, partition)
                # not asked for twice (where the caller placed it: not there at all)
                if not folder.is_dir() and guessed.get(document) != folder:
                    missing.append(folder)
        if missing:
            sparse.fetch_folders(self.root, missing)
        return came + sum(folder.is_dir() for folder in missing)

    def outside_checkout(self) -> Callable[[str, str], bool]:
        """A test of whether a document missing from disk, given as ``(partition, id)``,
        is left out by the checkout rather than deleted (:func:`sparse.outside_checkout`);
        for one pass."""
        return sparse.outside_checkout(
            self.root, lambda document: self.index.peek(document, writer=self.writer)
        )

    # -- paths of one document ---------------------------------------------------------

    def document_dir(self, document: str) -> Path:
        """The folder of a stored document (``ArchiveError`` if it was never stored)."""
        return self._place(document)[1]

    def document_file(self, document: str) -> Path:
        return self.document_dir(document) / DOCUMENT_FILE

    def revisions_dir(self, document: str) -> Path:
        return self.document_dir(document) / REVISIONS_FOLDER

    def revision_file(self, document: str, number: int) -> Path:
        return self.revisions_dir(document) / revision_name(document, number)

    def events_dir(self, document: str) -> Path:
        return self.document_dir(document) / EVENTS_FOLDER

    def event_file(self, document: str, number: int) -> Path:
        return self.events_dir(document) / event_name(number)

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
        every partition on disk), sorted by partition, then id. The index learns them
        (:meth:`DocumentIndex.learn`): a document found on disk needs no index shard,
        which a sparse checkout leaves out."""
        chosen = self.partitions() if partitions is None else sorted(set(partitions))
        found: list[tuple[str, str]] = []
        for partition in chosen:
            folder = self.layout.partition_dir(partition)
            found.extend((partition, p.parent.name) for p in folder.glob(f"*/*/{DOCUMENT_FILE}"))
            # and those a migration has not moved into their buckets yet
            found.extend((partition, p.parent.name) for p in folder.glob(f"*/{DOCUMENT_FILE}"))
        self.index.learn(found)
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
        if not new:  # a folder outside a sparse checkout comes back first
            path = self.document_file(document)
        else:
            path = self.layout.document_file(document, partition)
            if not self.layout.partition_dir(partition).is_dir():
                # a partition a sparse checkout leaves out: its checks files come first, or
                # the new entry would be written to a file without the other documents'
                sparse.fetch_folder(self.root, path.parent)
        kept, entry = split_record(record)
        old = contents(path)
        if (
            entry
            and has_check_fields(old)
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
        return read_revisions(self.document_dir(document), document, shallow=shallow)

    def latest_revision(self, document: str, *, shallow: bool = False) -> Revision | None:
        """The newest revision, or ``None`` for a document never successfully observed
        (``shallow`` as for :meth:`revisions`)."""
        if self.partition(document) is None:
            return None
        return read_latest_revision(self.revisions_dir(document), shallow=shallow)

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
        return read_events(self.document_dir(document), document)

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

    # -- feed and run state (:mod:`quietedit.archive.statefiles`) ----------------------

    def feed_slugs(self) -> list[str]:
        return self.state_files.feed_slugs()

    def read_feed(self, slug: str) -> dict[str, JSON] | None:
        return self.state_files.read_feed(slug)

    def write_feed(self, slug: str, record: dict[str, JSON], *, final: bool = False) -> None:
        self.state_files.write_feed(slug, record, final=final)

    def read_departed(self, slug: str, day: str) -> dict[str, JSON] | None:
        return self.state_files.read_departed(slug, day)

    def write_departed(self, slug: str, day: str, record: dict[str, JSON]) -> None:
        self.state_files.write_departed(slug, day, record)

    def prefetch_departed(self, days: Iterable[str]) -> int:
        return self.state_files.prefetch_departed(days)

    def state_names(self) -> list[str]:
        return self.state_files.state_names()

    def read_state(self, name: str) -> dict[str, JSON] | None:
        return self.state_files.read_state(name)

    def write_state(self, name: str, record: dict[str, JSON], *, final: bool = False) -> None:
        self.state_files.write_state(name, record, final=final)

    def holds_state(self, name: str, record: dict[str, JSON]) -> bool:
        return self.state_files.holds_state(name, record)

    def remove_state(self, name: str) -> None:
        self.state_files.remove_state(name)

    def sweep_temp(self) -> int:
        """Remove what interrupted writes left in ``.tmp/`` (:func:`files.sweep_temp`)."""
        return sweep_temp(self.layout.tmp_dir)

    # -- the site build's shallow reads -------------------------------------------------

    def document_stamps(self, trees: treeids.Trees | None = None) -> dict[str, str]:
        """Every document folder holding a record, by name, sorted → its *stamp*
        (:func:`stamps.document_stamps`; ``trees``: :func:`treeids.read`)."""
        return stamps.document_stamps(self.layout.documents_dir, self.partitions(), trees)

    def content_key(self, document: str) -> str:
        """A hash of everything the document holds, read without parsing a revision
        (:func:`stamps.content_key`); ``ArchiveError`` when a file cannot be read."""
        return stamps.content_key(self.document_file(document))

    # -- the schema ------------------------------------------------------------------

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

    def _remove(self, path: Path) -> None:
        """Delete a mutable file (a state a run no longer keeps); never a create-only one."""
        remove_file(path)

    # -- the checked read of a state, index or checks file ------------------------------

    def _read_state(self, path: Path, *, kind: str) -> dict[str, JSON] | None:
        if not path.exists():
            return None
        record = load_json(path)
        problems = check_state_record(record, kind=kind)
        if problems or not isinstance(record, dict):
            raise ArchiveError(path, "; ".join(problems))
        return record
