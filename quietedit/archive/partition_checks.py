"""A partition's checks file: what the checks of its documents leave behind (I/O).

A check that finds nothing new still moves the document's schedule on (when it was
checked, its failures) and may bring new HTTP validators. Kept in the document's record,
that would rewrite the record, and every git tree above it, for each of the ~25 checks an
article gets in its first weeks: most of what the branch would grow by. So those two
parts of the record, ``schedule`` and ``http`` (:data:`CHECK_FIELDS`), live in one file per
partition, ``documents/<YYYY>/<MM>/<DD>/checks.json``, an object from document id to
``{"http": …, "schedule": …}``; the record keeps the rest and changes only when what is
known of the document does. Git stores each new version of the checks file as a small
delta of the last (about 30 bytes a check, measured; a record rewritten per check cost
about 160 bytes with its trees).

Each writer keeps a file of its own (a sharded run: ``checks-shard-K-of-N.json``), so
shards never write the same file; readers merge every writer's file, the entry with the
newest check time winning (a document moves to another shard only when N changes, and its
new owner's entries are newer). A record written before this file existed keeps its own
``schedule`` and ``http``, which count until the document's first entry here.

A run batches its entries (:attr:`PartitionChecks.batched`) and writes each partition's file
once at its end, and every :data:`FLUSH_SECONDS` meanwhile. A run killed in between loses
only those entries: as a check killed before its record, each such article is checked once
more by the next run, and nothing is stored twice. What a later write takes for granted is
flushed before it (a known document's feed claim before the feed record that took it in:
:func:`~quietedit.ingest.register.apply_registration`); the entry of a check that stored a
revision, whose schedule restarts, is written at once (``at_once``); and a record that
still holds its own ``schedule`` keeps it, up to date, until its entry is on disk
(:meth:`~quietedit.archive.store.Archive.write_document`).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from quietedit.archive.files import listdir, stamp
from quietedit.archive.layout import CHECKS_NAME_PATTERN, Layout
from quietedit.archive.records import dump_json
from quietedit.errors import ArchiveError
from quietedit.model import JSON, parse_timestamp
from quietedit.revisions import SCHEMA_VERSION

CHECK_FIELDS: Final = ("http", "schedule")
"""The parts of a document's record kept in its partition's checks file."""

FLUSH_SECONDS: Final = 60.0
"""How long a batching run keeps entries before writing them (a kill loses at most these)."""

_MOMENTS: Final = ("last_checked_at", "last_failure_at", "claimed_at")
_EARLIEST: Final = datetime.min.replace(tzinfo=UTC)

Entry = dict[str, JSON]


@dataclass(frozen=True, slots=True)
class _Read:
    """A partition's checks files as read: their stamp, every writer's entries merged, and
    the entries of the file this object writes."""

    stamp: tuple[tuple[str, tuple[int, int, int] | None], ...]
    merged: dict[str, Entry]
    own: dict[str, Entry]
    own_name: str


class PartitionChecks:
    """The checks files of an archive's partitions, read and written for one writer.

    ``read`` parses a file into its checked envelope (raising ``ArchiveError``);
    ``replace`` writes a file atomically (:func:`~quietedit.archive.files.replace_file`).
    Safe to share between the threads of a run."""

    def __init__(
        self,
        layout: Layout,
        *,
        read: Callable[[Path], dict[str, JSON] | None],
        replace: Callable[[Path, bytes], None],
    ) -> None:
        self.layout = layout
        self._read_file = read
        self._replace = replace
        self.batched = False
        """Keep entries in memory until :meth:`flush` (or :data:`FLUSH_SECONDS` pass)."""
        self._cache: dict[str, _Read] = {}
        self._pending: dict[tuple[str, str], dict[str, Entry]] = {}
        self._lock = threading.RLock()
        self._flushed = time.monotonic()

    def entry(self, partition: str, document: str, *, writer: str) -> Entry | None:
        """The newest entry for ``document`` in ``partition``: this object's unwritten
        one, else the newest of every writer's file; ``None`` when it has none."""
        with self._lock:
            pending = self._pending.get((partition, writer), {}).get(document)
            if pending is not None:
                return pending
            return self._load(partition, writer).merged.get(document)

    def written(self, partition: str, document: str, *, writer: str) -> bool:
        """Whether a checks file on disk (any writer's) has an entry for ``document``."""
        with self._lock:
            return document in self._load(partition, writer).merged

    def put(
        self, partition: str, document: str, entry: Entry, *, writer: str, at_once: bool = False
    ) -> None:
        """Record ``entry`` for ``document``: written now, or with the batch. ``at_once``
        writes the partition's file now even in a batch (with the entries it holds)."""
        with self._lock:
            self._pending.setdefault((partition, writer), {})[document] = entry
            if not self.batched or time.monotonic() - self._flushed >= FLUSH_SECONDS:
                self.flush()
            elif at_once:
                self.flush(only=(partition, writer))

    def flush(self, *, only: tuple[str, str] | None = None) -> None:
        """Write every partition's file that has unwritten entries (each written whole,
        atomically: its own earlier entries and the new ones). Only this writer's own files
        are read for it, so another writer's damaged file stops nothing here; a file that
        cannot be read or written keeps its entries for the next flush, the others are
        written, and the first error is raised at the end. ``only``: the file of this
        ``(partition, writer)`` alone."""
        with self._lock:
            if only is None:
                self._flushed = time.monotonic()
            failed: ArchiveError | None = None
            for partition, writer in sorted(self._pending):
                if only is not None and (partition, writer) != only:
                    continue
                entries = self._pending[partition, writer]
                path = self.layout.checks_file(partition, writer=writer)
                try:
                    own = _entries(path, self._read_file(path), partition)
                    record: dict[str, JSON] = {
                        "documents": dict(sorted({**own, **entries}.items())),
                        "partition": partition,
                        "schema": SCHEMA_VERSION,
                        "type": "checks",
                    }
                    self._replace(path, dump_json(record))
                except ArchiveError as exc:
                    failed = failed or exc
                    continue
                del self._pending[partition, writer]
                self._cache.pop(partition, None)  # read again, with the new stamp
            if failed is not None:
                raise failed

    def _load(self, partition: str, writer: str, *, fresh: bool = False) -> _Read:
        """Every writer's checks file of ``partition`` merged (kept once read; ``fresh``
        reads again what changed since). An unreadable file raises ``ArchiveError``."""
        folder = self.layout.partition_dir(partition)
        own_name = self.layout.checks_file(partition, writer=writer).name
        cached = self._cache.get(partition)
        if cached is not None and not fresh and cached.own_name == own_name:
            return cached
        files = [folder / name for name in listdir(folder) if CHECKS_NAME_PATTERN.fullmatch(name)]
        stamps = tuple((path.name, stamp(path)) for path in files)
        if cached is not None and cached.stamp == stamps and cached.own_name == own_name:
            return cached
        merged: dict[str, Entry] = {}
        own: dict[str, Entry] = {}
        for path in files:  # sorted by name: of two entries as new, the later file's wins
            entries = _entries(path, self._read_file(path), partition)
            for document, entry in entries.items():
                if document not in merged or _moment(entry) >= _moment(merged[document]):
                    merged[document] = entry
            if path.name == own_name:
                own = entries
        self._cache[partition] = _Read(stamps, merged, own, own_name)
        return self._cache[partition]


def split_record(record: Mapping[str, JSON]) -> tuple[dict[str, JSON], Entry]:
    """A document record's two parts: what its record file keeps, and its checks entry
    (:data:`CHECK_FIELDS` it holds)."""
    kept = {key: value for key, value in record.items() if key not in CHECK_FIELDS}
    entry = {key: record[key] for key in CHECK_FIELDS if key in record}
    return kept, entry


def has_check_fields(data: bytes | None) -> bool:
    """Whether a record file's bytes hold :data:`CHECK_FIELDS` of its own (one written
    before the checks file existed)."""
    if data is None or not any(f'"{key}"'.encode() in data for key in CHECK_FIELDS):
        return False
    try:
        record = json.loads(data)
    except ValueError:
        return False
    return isinstance(record, dict) and any(key in record for key in CHECK_FIELDS)


def _entries(path: Path, record: dict[str, JSON] | None, partition: str) -> dict[str, Entry]:
    if record is None:
        return {}
    documents = record.get("documents")
    if record.get("partition") != partition or not isinstance(documents, dict):
        raise ArchiveError(path, "not this partition's checks file; run quietedit verify")
    found: dict[str, Entry] = {}
    for document, entry in documents.items():
        if not isinstance(entry, dict):
            raise ArchiveError(path, f"{document}: not an object; run quietedit verify")
        found[document] = entry
    return found


def _moment(entry: Entry) -> datetime:
    """When an entry was made, as far as it says: its newest check, failure or claim."""
    schedule = entry.get("schedule")
    found = [_EARLIEST]
    for key in _MOMENTS:
        moment = schedule.get(key) if isinstance(schedule, dict) else None
        if isinstance(moment, str):
            with contextlib.suppress(ValueError):
                found.append(parse_timestamp(moment))
    return max(found)
