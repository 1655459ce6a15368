"""``quietedit migrate``: move a schema-1 archive to schema 2, idempotent and crash-safe;
and the index of schema 2 into the shard folders of schema 3 (first, by
:mod:`quietedit.archive.migrate_index`), then each document folder directly in its
partition into its bucket (:mod:`quietedit.archive.migrate_buckets`).

Schema 1 kept every document in ``documents/<id>/`` with its raw pages in ``evidence/``;
schema 2 keeps it in the partition of the day it was first seen, found through the index,
with the raw pages outside ``data/`` as WARC records (data/README.md, "Schema changes").
First every document's index entry (the partition of its record's ``discovered_at``),
each index shard written once, before any new folder exists, as the store orders them.
Then per schema-1 document folder, in this order:

1. its ``evidence/*.html`` pages handed to ``keep_page`` (appended to the WARC evidence as
   ``resource`` records: schema 1 never kept the headers), each page removed once
   ``keep_page`` returned, which is when its record is on disk;
2. ``document.json`` rewritten as schema 2 in the new folder, then every revision and
   event file hard-linked there (the same bytes: they are never rewritten; copied when the
   file system cannot link, and then only under a new name);
3. the old files removed, the record last, then the empty folders.

Feed and state files are then rewritten as schema 2. A process killed at any point leaves
a state the next run finishes: every step is skipped when already done, and nothing is
removed before its copy is complete and on disk. Until then ``quietedit verify`` says to
rerun the migration. One document whose files cannot be moved (a conflicting file at the
new place, an unreadable record) is reported and left in place; the others go on.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Final, Self

from quietedit.archive.checks import Problem, discovered_partition
from quietedit.archive.files import fsync_dir, make_folders, replace_file, write_temp
from quietedit.archive.index import index_record
from quietedit.archive.layout import (
    DOCUMENT_FILE,
    EVENTS_FOLDER,
    REVISIONS_FOLDER,
    Layout,
    index_shard,
    partition_of,
    revision_name,
)
from quietedit.archive.migrate_buckets import move_into_buckets
from quietedit.archive.migrate_index import move_index
from quietedit.archive.records import digest, dump_json
from quietedit.archive.store import Archive
from quietedit.decide.shard import WHOLE
from quietedit.errors import ArchiveError
from quietedit.model import JSON, format_timestamp, parse_timestamp
from quietedit.revisions import SCHEMA_VERSION, EvidenceRef

if TYPE_CHECKING:  # the WARC writer loads warcio, which only a migration needs
    from quietedit.archive.evidence import EvidenceLog

logger = logging.getLogger(__name__)

PageKeeper = Callable[[str, str, datetime, bytes], EvidenceRef]
"""``keep_page(document, url, observed_at, body)``: keep a schema-1 evidence page as a
WARC ``resource`` record and return its reference, once the record is on disk."""

EVIDENCE_FOLDER: Final = "evidence"
MUTABLE_FOLDERS: Final = (("feeds", "feed", "slug"), ("state", "state", "name"))


@dataclass
class MigrationReport:
    """What one run of ``quietedit migrate`` did, and what it could not do."""

    documents: int = 0
    revisions: int = 0
    events: int = 0
    pages: int = 0
    index_entries: int = 0
    index_files: int = 0
    """Schema-2 index files moved into the shard folders (and removed)."""
    index_sealed: int = 0
    """Schema-3 open index files renamed as sealed ones."""
    bucketed: int = 0
    """Document folders moved from their partition into their bucket."""
    rewritten: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def legacy_documents(root: Path) -> list[str]:
    """The schema-1 document folders (``documents/<id>/``) still in ``root``, sorted."""
    return Archive(root).legacy_documents()


def migrate_archive(root: Path, *, keep_page: PageKeeper) -> MigrationReport:
    """Move the archive at ``root`` to the current layout (see the module docstring); a
    second run finds nothing left to do. The caller holds the run lock."""
    migration = _Migration(root, keep_page)
    moved = move_index(root)
    migration.report.index_files = moved.files
    migration.report.index_entries = moved.entries
    migration.report.index_sealed = moved.sealed
    migration.report.problems.extend(moved.problems)
    bucketed = move_into_buckets(root)
    migration.report.bucketed = bucketed.folders
    migration.report.problems.extend(bucketed.problems)
    for document in migration.enter_all(legacy_documents(root)):
        try:
            migration.move(document)
        except ArchiveError as exc:
            migration.report.problems.append(Problem(str(exc.path), exc.message))
        except OSError as exc:  # a full disk, a folder without permission: the next goes on
            where = exc.filename or Layout(root).legacy_document_dir(document)
            migration.report.problems.append(
                Problem(str(where), f"not moved ({exc.strerror}); run quietedit migrate again")
            )
    for folder, kind, key in MUTABLE_FOLDERS:
        migration.rewrite_state(root / folder, kind=kind, key=key)
    return migration.report


class _Migration:
    def __init__(self, root: Path, keep_page: PageKeeper) -> None:
        self.root = root
        self.layout = Layout(root)
        self.keep_page = keep_page
        self.report = MigrationReport()
        self.index: dict[str, dict[str, JSON]] = {}

    def move(self, document: str) -> None:
        old = self.layout.legacy_document_dir(document)
        record = _read_object(old / DOCUMENT_FILE) if (old / DOCUMENT_FILE).exists() else None
        revisions = _series(old / REVISIONS_FOLDER)
        events = _series(old / EVENTS_FOLDER)
        observed = [_read_object(path) for path in revisions]
        partition = str(self._entries(index_shard(document))[document])
        self._keep_pages(document, old / EVIDENCE_FOLDER, record, observed)
        new = self.layout.document_dir(document, partition)
        if record is not None:
            full = {**record, "schema": SCHEMA_VERSION}
            if discovered_partition({"discovered_at": full.get("discovered_at")}) is None:
                seen = _first_seen(record, observed, folder=old)
                full["discovered_at"] = format_timestamp(seen)
            _replace(self.layout, new / DOCUMENT_FILE, dump_json(full))
        elif not (new / DOCUMENT_FILE).is_file():
            raise ArchiveError(old, "no document.json in this schema-1 folder: left in place")
        moved = [
            *(self._link(path, _revision_path(new, document, path)) for path in revisions),
            *(self._link(path, new / EVENTS_FOLDER / path.name) for path in events),
        ]
        # the new names on disk before the old ones go (removals need no flush: one a
        # power cut undid leaves a file whose copy is in place, and the next run removes it)
        for folder in {path.parent for path in moved} | {new.parent}:
            fsync_dir(folder)
        for path in [*revisions, *events]:
            path.unlink()
        if record is not None:
            (old / DOCUMENT_FILE).unlink()
        for folder in (old / REVISIONS_FOLDER, old / EVENTS_FOLDER, old / EVIDENCE_FOLDER, old):
            _remove_empty(folder)
        self.report.documents += 1
        self.report.revisions += len(revisions)
        self.report.events += len(events)
        logger.debug("moved %s to %s", document, partition)

    def enter_all(self, documents: list[str]) -> list[str]:
        """Enter every document of ``documents`` the index lacks, in the partition of its
        first sighting, each shard written once, before any new folder exists (an entry
        whose folder does not exist yet is allowed; the reverse never is). Returns the
        documents that have their entry; the others are reported."""
        added: dict[str, dict[str, str]] = {}
        entered = []
        for document in documents:
            shard = index_shard(document)
            try:
                if document not in self._entries(shard):
                    seen = self._first_seen_of(document)
                    added.setdefault(shard, {})[document] = partition_of(seen)
            except ArchiveError as exc:
                self.report.problems.append(Problem(str(exc.path), exc.message))
                continue
            entered.append(document)
        for shard, entries in sorted(added.items()):
            merged = dict(sorted({**self._entries(shard), **entries}.items()))
            data = index_record(shard, {doc: str(part) for doc, part in merged.items()})
            _replace(self.layout, self.layout.index_file(shard), data)
            self.index[shard] = dict(merged)
            self.report.index_entries += len(entries)
        return entered

    def _entries(self, shard: str) -> dict[str, JSON]:
        """The entries of the index file of ``shard`` this migration writes (read once)."""
        if shard not in self.index:
            path = self.layout.index_file(shard)
            record = _read_object(path) if path.exists() else {}
            entries = record.get("documents", {})
            if not isinstance(entries, dict):
                raise ArchiveError(path, "documents: not an object; run quietedit verify")
            self.index[shard] = entries
        return self.index[shard]

    def _first_seen_of(self, document: str) -> datetime:
        old = self.layout.legacy_document_dir(document)
        record = _read_object(old / DOCUMENT_FILE) if (old / DOCUMENT_FILE).exists() else {}
        first = _series(old / REVISIONS_FOLDER)[:1]
        return _first_seen(record, [_read_object(path) for path in first], folder=old)

    def _keep_pages(
        self,
        document: str,
        folder: Path,
        record: dict[str, JSON] | None,
        observed: list[dict[str, JSON]],
    ) -> None:
        """Hand each raw page to ``keep_page`` with the URL and time of the first revision
        naming it (a page no revision names, left by a crash, with the document's), then
        remove it: ``keep_page`` returns when the record is on disk."""
        pages = sorted(folder.glob("*.html")) if folder.is_dir() else []
        if not pages:
            return
        first: dict[str, tuple[str, datetime]] = {}
        for revision in observed:
            evidence, url, at = (revision.get(key) for key in ("evidence", "url", "observed_at"))
            if isinstance(evidence, str) and isinstance(url, str) and isinstance(at, str):
                first.setdefault(evidence, (url, parse_timestamp(at)))
        url = str((record or {}).get("url", ""))
        seen = _first_seen(record or {}, observed, folder=folder.parent)
        for page in pages:
            body = page.read_bytes()
            page_url, kept_at = first.get(digest(body), (url, seen))
            self.keep_page(document, page_url, kept_at, body)
            page.unlink()  # a removal a power cut undid: the page is kept again, same record
            self.report.pages += 1

    def _link(self, old: Path, new: Path) -> Path:
        """``new`` holding ``old``'s bytes: a hard link, else a complete copy linked in;
        an existing ``new`` must already hold the same bytes."""
        make_folders(new.parent)
        try:
            os.link(old, new)
        except FileExistsError:
            if new.read_bytes() != old.read_bytes():
                raise ArchiveError(
                    new, f"already exists with other bytes than {old}; both left in place"
                ) from None
        except OSError:  # a file system without hard links: copy, then link the copy in
            tmp = write_temp(self.layout.tmp_dir, new, old.read_bytes())
            try:
                os.link(tmp, new)
            finally:
                tmp.unlink(missing_ok=True)
        return new

    def rewrite_state(self, folder: Path, *, kind: str, key: str) -> None:
        """Rewrite the schema-1 ``kind`` files of ``folder`` as schema 2 (the same fields)."""
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            try:
                record = _read_object(path)
            except ArchiveError as exc:
                self.report.problems.append(Problem(str(exc.path), exc.message))
                continue
            if record.get("schema") == 1 and record.get("type") == kind:
                _replace(self.layout, path, dump_json({**record, "schema": SCHEMA_VERSION}))
                self.report.rewritten += 1


def _first_seen(
    record: dict[str, JSON], observed: list[dict[str, JSON]], *, folder: Path
) -> datetime:
    """When a schema-1 document was first seen: its ``discovered_at``, else the
    ``first_seen`` older records kept, else its first revision's time."""
    candidates = [record.get("discovered_at"), record.get("first_seen")]
    candidates += [revision.get("observed_at") for revision in observed[:1]]
    for value in candidates:
        if isinstance(value, str):
            try:
                return parse_timestamp(value)
            except ValueError:
                continue
    raise ArchiveError(
        folder,
        "no discovered_at, first_seen or revision time to choose a partition: left in place",
    )


def _revision_path(new: Path, document: str, old: Path) -> Path:
    """Where the schema-1 revision file ``old`` goes in ``new``, named as schema 2 names it
    (:func:`~quietedit.archive.layout.revision_name`)."""
    if not old.stem.isdigit() or int(old.stem) < 1:
        raise ArchiveError(old, "not a numbered revision file: left in place")
    return new / REVISIONS_FOLDER / revision_name(document, int(old.stem))


def _series(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def _read_object(path: Path) -> dict[str, JSON]:
    try:
        value = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise ArchiveError(path, f"cannot read ({exc}): left in place") from exc
    if not isinstance(value, dict):
        raise ArchiveError(path, "not a JSON object: left in place")
    return value


def _remove_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise ArchiveError(folder, f"not removed ({exc.strerror}): unexpected files?") from exc


def _replace(layout: Layout, path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically, on disk when this returns."""
    if path.is_file() and path.read_bytes() == data:
        return  # done by an earlier, interrupted run
    replace_file(layout.tmp_dir, path, data, final=False)


class WarcPageKeeper:
    """Keeps schema-1 pages as WARC/1.1 ``resource`` records (gzip per record) in one new
    file of ``folder`` named from ``now``, like a run's evidence file
    (:class:`~quietedit.archive.evidence.EvidenceLog`); each record is on disk when the
    call returns. The record id is a UUID5 of document, time and payload hash, so a page
    kept twice (a run killed between keeping and removing it) is the same record twice.
    A context manager: closing it closes the file."""

    def __init__(self, folder: Path, *, now: datetime) -> None:
        self.folder = folder
        self.now = now.astimezone(UTC)
        self._log: EvidenceLog | None = None

    @property
    def name(self) -> str:
        """The file's name in ``folder`` (empty before the first page)."""
        return "" if self._log is None else self._log.name

    def _new_file(self) -> str:
        """A file name no earlier run used, so each migration run has a file of its own."""
        from quietedit.archive.evidence import evidence_file_name  # loads warcio

        moment = self.now
        while True:
            name = evidence_file_name(moment, shard=WHOLE)
            if not (self.folder / name).exists():
                return name
            moment += timedelta(seconds=1)

    def __call__(self, document: str, url: str, observed_at: datetime, body: bytes) -> EvidenceRef:
        from quietedit.archive.evidence import EvidenceLog  # loads warcio

        if self._log is None:
            self._log = EvidenceLog(self.folder, self._new_file())
        return self._log.append_resource(
            document=document, url=url, observed_at=observed_at, content_type="text/html", body=body
        )

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
