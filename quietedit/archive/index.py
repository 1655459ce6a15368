"""The index: which partition each document's folder is in (I/O).

4,096 shards, each a folder ``index/<hh>/<hhh>/`` keyed by the first three hex digits of
the id's hash part (:func:`~quietedit.archive.layout.index_shard`), holding objects from
document id to partition. Each writer keeps files of its own in the shard's folder (an
unsharded run: ``entries-<hhh>.json``; a sharded one: ``entries-shard-K-of-N-<hhh>.json``),
so shards never write the same file; readers merge every writer's files, and a document
indexed twice in two partitions is an error. An entry is written before its document's
folder (:meth:`DocumentIndex.place`), so a crash never leaves a folder the index does not
know.

A writer's open file is *sealed* when it holds
:data:`~quietedit.archive.layout.INDEX_CHUNK_ENTRIES` entries: its bytes are kept in the
writer's next ``sealed-<NNNN>[-shard-K-of-N]-<hhh>.json``, never written again, and the
open file begins anew. A new entry so rewrites a file of at most that many entries at any
age of the archive, not a shard that grows with it; the sealed copy is the same blob as
the open file's last version.

In a sparse checkout the hourly clone leaves the shard folders out (they grow with the
archive: 4.7 MB at 89,000 documents): a shard read whose folder is missing is brought in
first (``bring``: :func:`~quietedit.archive.sparse.fetch_folders`), and :meth:`prefetch`
brings those of many documents at once. What a run already knows of a document's
partition, from the list of documents still observed or their folders on disk
(:meth:`learn`), needs no shard at all, so a run reads the shards of the documents new to
it (a new article, an old one reappearing in a feed), not one per document its feeds list.

The index files of schema 2 (``index/<hh>.json``, 256 shards) are read as well until
``quietedit migrate`` has moved their entries (:mod:`quietedit.archive.migrate_index`):
an archive not migrated yet, or a migration cut short, finds every document all the same.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from quietedit.archive.checks import discovered_partition
from quietedit.archive.files import listdir, stamp
from quietedit.archive.layout import (
    INDEX_CHUNK_ENTRIES,
    INDEX_DIR,
    INDEX_NAME_PATTERN,
    INDEX_SCHEMA,
    INDEX_SCHEMAS_READ,
    Layout,
    index_file_writer,
    index_shard,
    is_partition,
    legacy_index_path,
)
from quietedit.archive.records import dump_json
from quietedit.article.identity import is_document_id
from quietedit.errors import ArchiveError
from quietedit.model import JSON
from quietedit.revisions import SCHEMA_VERSION

logger = logging.getLogger(__name__)


class DocumentIndex:
    """The index files of an archive, read (every writer's merged) and written for one
    writer. Shards read are kept for the object's life, and its own writes update them, so
    a run reads each shard once. Safe to share between the threads of a run: updates are
    serialised.

    ``read`` parses a file (raising ``ArchiveError``; ``None`` when it does not exist);
    ``replace`` writes a file atomically and durably; ``bring`` brings missing shard
    folders into a sparse checkout (nothing, outside one), raising ``ArchiveError`` when
    git cannot."""

    def __init__(
        self,
        layout: Layout,
        *,
        read: Callable[[Path], JSON | None],
        replace: Callable[[Path, bytes], None],
        bring: Callable[[list[Path]], object] = lambda folders: None,
    ) -> None:
        self.layout = layout
        self._index_dir = str(layout.index_dir)  # for :meth:`peek`, asked per document
        self._read_file = read
        self._replace = replace
        self._bring = bring
        self._shards: dict[str, _Shard] = {}
        self._legacy: dict[str, list[Path]] | None = None
        self._learnt: dict[str, str] = {}
        self._brought: set[str] = set()  # shards asked for once: an empty one has no folder
        self._lock = threading.Lock()

    def learn(self, placed: Iterable[tuple[str, str]]) -> None:
        """Take ``(partition, document)`` pairs as known without reading their shards:
        those of a stored list or of folders on disk, which an index entry written before
        each folder (:meth:`place`) already agrees with. A document learnt is never
        entered again. Only those whose shard folder is not on disk are kept (a sparse
        checkout's): a full checkout reads its shards, and keeps no copy of them here."""
        present: dict[str, bool] = {}
        with self._lock:
            for partition, document in placed:
                if not is_document_id(document):
                    continue
                shard = index_shard(document)
                if shard not in present:
                    present[shard] = self.layout.index_folder(shard).is_dir()
                if not present[shard]:
                    self._learnt[document] = partition

    def prefetch(self, documents: Iterable[str]) -> int:
        """Bring the shard folders of ``documents`` (those not learnt, nor read yet) that
        a sparse checkout leaves out, at once; how many were asked for."""
        with self._lock:
            shards = {index_shard(doc) for doc in documents if doc not in self._learnt}
            missing = sorted(
                shard
                for shard in shards - self._brought
                if shard not in self._shards and not self.layout.index_folder(shard).is_dir()
            )
            if missing:
                try:
                    self._bring([self.layout.index_folder(shard) for shard in missing])
                except ArchiveError as exc:  # each is asked for again when read
                    logger.warning("%s; each shard is fetched when read", exc)
                    return 0
                self._brought.update(missing)
            return len(missing)

    def peek(self, document: str, *, writer: str) -> tuple[bool, str | None]:
        """Whether the partition of ``document`` is known here without fetching its shard
        (learnt, or its shard on disk), and that partition (``None``: never stored)."""
        shard = index_shard(document)
        with self._lock:
            if document in self._learnt:
                return True, self._learnt[document]
            # the shard's folder (``Layout.index_folder``) as text: a build peeks at every
            # document of the partitions it reads that the checkout leaves out
            folder = os.path.join(self._index_dir, shard[:2], shard)
            if shard not in self._shards and not os.path.isdir(folder):
                return False, None
            return True, self._read_shard(shard, writer=writer).entries.get(document)

    def partition(self, document: str, *, writer: str) -> str | None:
        """The partition ``document`` lives in, or ``None`` for a document never stored."""
        shard = index_shard(document)
        with self._lock:
            if document in self._learnt:
                return self._learnt[document]
            found = self._read_shard(shard, writer=writer).entries.get(document)
            if found is None:  # another writer (object or process) may have added it since
                found = self._read_shard(shard, writer=writer, fresh=True).entries.get(document)
            return found

    def legacy_files(self) -> dict[str, list[Path]]:
        """The schema-2 index files still in ``index/``, by their two-digit shard (listed
        once: only ``quietedit migrate`` removes them, holding the run lock)."""
        if self._legacy is None:
            found: dict[str, list[Path]] = {}
            for name in listdir(self.layout.index_dir):
                old = legacy_index_path(PurePosixPath(INDEX_DIR, name))
                if old is not None:
                    found.setdefault(old, []).append(self.layout.index_dir / name)
            self._legacy = found
        return self._legacy

    def _read_shard(self, shard: str, *, writer: str, fresh: bool = False) -> _Shard:
        """The shard's entries from every writer's file (the caller holds the lock); an
        unreadable file raises. Kept once read; ``fresh`` reads again what changed since."""
        cached = self._shards.get(shard)
        if cached is not None and not fresh:
            return cached
        folder = self.layout.index_folder(shard)
        if shard not in self._brought and not folder.is_dir():
            # left out by a sparse checkout, or never written; a shard git could not bring
            # raises, or a new entry would be written without the others of its shard
            self._bring([folder])
            self._brought.add(shard)
        files = [folder / name for name in listdir(folder) if INDEX_NAME_PATTERN.fullmatch(name)]
        stamps = tuple((path.name, stamp(path)) for path in files)
        if cached is not None and stamps == cached.stamp and cached.writer == writer:
            return cached
        entries: dict[str, str] = {}
        own: dict[str, str] = {}
        others: dict[str, str] = {}
        sealed = 0
        mine = self.layout.index_file(shard, writer=writer)
        older = self.legacy_files().get(shard[:2], [])
        for path in [*files, *older]:
            found = self._read_index_file(path, legacy=path.parent != folder)
            if path.parent != folder:
                found = {doc: part for doc, part in found.items() if index_shard(doc) == shard}
            for document, partition in found.items():
                if entries.setdefault(document, partition) != partition:
                    raise ArchiveError(
                        path,
                        f"{document}: placed in {partition} here and in {entries[document]} "
                        "by another file of the shard; a document is indexed once: run "
                        "quietedit verify",
                    )
            if path == mine:
                own = found
            else:
                others.update(found)
                sealed = max(sealed, _sealed_number(path.name, writer))
        self._shards[shard] = _Shard(stamps, entries, own, writer, others, sealed)
        return self._shards[shard]

    def _read_index_file(self, path: Path, *, legacy: bool) -> dict[str, str]:
        record = self._read_file(path)
        if record is None:
            return {}
        schemas = (SCHEMA_VERSION,) if legacy else INDEX_SCHEMAS_READ
        if not isinstance(record, dict) or record.get("type") != "index":
            raise ArchiveError(path, "not an index record; run quietedit verify")
        if record.get("schema") not in schemas:
            raise ArchiveError(
                path,
                f"schema: {record.get('schema')!r} is not {schemas[-1]}; written by another "
                "quietedit version (upgrade, or run quietedit migrate)",
            )
        found: dict[str, str] = {}
        documents = record.get("documents")
        if not isinstance(documents, dict):
            raise ArchiveError(path, "documents: not an object; run quietedit verify")
        for document, partition in documents.items():
            if not isinstance(partition, str) or not is_partition(partition):
                raise ArchiveError(path, f"{document}: {partition!r} is not a partition")
            found[document] = partition
        return found

    def place(self, document: str, record: dict[str, JSON], *, writer: str) -> tuple[str, bool]:
        """The partition of ``document``, entered in the index first if it is new: from
        the record's ``discovered_at``. The entry is written before the folder, so a crash
        between the two leaves an entry whose folder does not exist yet, never a folder
        the index does not know (data/README.md, "Layout"). Entries go to this object's
        own file of the shard (``writer``)."""
        shard = index_shard(document)
        with self._lock:
            if document in self._learnt:
                return self._learnt[document], False
            known = self._read_shard(shard, writer=writer, fresh=True)
            if document in known.entries:
                return known.entries[document], False
            partition = discovered_partition(record)
            if partition is None:
                seen = record.get("discovered_at", record.get("first_seen"))
                raise ArchiveError(
                    self.layout.documents_dir,
                    f"{document}: discovered_at {seen!r} is not an RFC 3339 time; a new "
                    "document's record needs it to choose its partition",
                )
            own = {**known.own, document: partition}
            if len(known.own) >= INDEX_CHUNK_ENTRIES:
                self._seal(shard, known, writer=writer)
                own = {document: partition}
            path = self.layout.index_file(shard, writer=writer)
            self._replace(path, index_record(shard, own))
            self._shards.pop(shard, None)  # read again, with the new file's stamp, next time
            return partition, True

    def _seal(self, shard: str, known: _Shard, *, writer: str) -> None:
        """Keep the entries of ``writer``'s full open file of ``shard`` in its next sealed
        file, the same bytes (git stores no new blob for it), before the open file begins
        again. A process killed between the two leaves the entries in both files, which
        readers and ``verify`` accept (the same partition twice); the next write then finds
        them sealed already and does not seal them again."""
        if known.own.items() <= known.others.items():
            return  # sealed by a write killed before it began the open file again
        sealed = self.layout.sealed_index_file(shard, known.sealed + 1, writer=writer)
        self._replace(sealed, index_record(shard, known.own))


def index_record(shard: str, entries: dict[str, str]) -> bytes:
    """The bytes of an index file of ``shard`` holding ``entries`` (sorted by id)."""
    full: dict[str, JSON] = {
        "documents": dict(sorted(entries.items())),
        "schema": INDEX_SCHEMA,
        "shard": shard,
        "type": "index",
    }
    return dump_json(full)


@dataclass(frozen=True, slots=True)
class _Shard:
    """One index shard as read: every writer's entries, those of ``writer``'s own file, and
    the stamp of the files they came from."""

    stamp: tuple[tuple[str, tuple[int, int, int] | None], ...]
    entries: dict[str, str]
    own: dict[str, str]
    writer: str
    others: dict[str, str]  # the entries of every other file: sealed, other writers', older
    sealed: int  # the number of ``writer``'s last sealed file (0: none)


def _sealed_number(name: str, writer: str) -> int:
    """The number of the sealed file ``name`` when ``writer`` wrote it, else 0."""
    found = index_file_writer(name)
    return (found[1] or 0) if found is not None and found[0] == writer else 0
