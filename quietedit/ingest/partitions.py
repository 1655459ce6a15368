"""The observed lists: which documents of ``documents/`` a run reads.

Each run writes its own list (``state/partitions.json``, or
``state/partitions-shard-K-of-N.json`` for a shard; :mod:`quietedit.decide.shard`), kept
as a head and one part per partition so that a run rewrites only the parts it changed
(:mod:`quietedit.ingest.listfiles`), and a run reads the union of all of them. A list
names the partitions a run reads (``active``) and, for each partition read only in part,
the documents still observed there (``documents``); a partition it names without
documents (today's and yesterday's, or any in a list written before documents were named)
is read whole. With no list at all (a new or just migrated archive) every partition on
disk is read, once; the run then writes the first list. A list that cannot be read is
logged, and every partition is read: slower, never wrong.

A list also keeps, for each document it names, its schedule entry (``schedules``:
:func:`~quietedit.decide.partitions.schedule_entry`): the next run plans from those without
reading the documents' records, and the hourly checkout (``quietedit sparse-paths``)
holds only what that plan reads (:func:`checkout_list`), not every document still
observed. The records a run wrote are read again for their entries when it saves its
list; a document a list names without an entry (a list saved before entries were kept)
has its record read.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from quietedit.archive.layout import is_partition, partition_of
from quietedit.archive.store import Archive
from quietedit.article.identity import is_document_id
from quietedit.decide.memory import DocumentState, document_from_record
from quietedit.decide.partitions import Observed, observed_from_lists
from quietedit.decide.shard import Shard, is_partitions_name
from quietedit.errors import ArchiveError
from quietedit.ingest.listfiles import read_list, write_list
from quietedit.model import JSON, format_timestamp

logger = logging.getLogger(__name__)


def load_active(archive: Archive) -> Observed | None:
    """The union of every run's list; ``None`` to read every partition."""
    names = [name for name in archive.state_names() if is_partitions_name(name)]
    if not names:
        return None
    found = Observed()
    for name in names:
        try:
            record = read_list(archive, name)
        except ArchiveError as exc:
            logger.warning("%s; every partition is read this time", exc)
            return None
        listed = _read_list(record or {})
        if listed is None:
            logger.warning(
                "state/%s.json: active is not a list of partitions, or documents not an "
                "object from partition to document ids; every partition is read",
                name,
            )
            return None
        found = found.union(listed)
    return found


def _read_list(record: dict[str, JSON]) -> Observed | None:
    listed = record.get("active")
    if not isinstance(listed, list) or not all(
        isinstance(p, str) and is_partition(p) for p in listed
    ):
        return None
    named = record.get("documents", {})
    if not isinstance(named, dict):
        return None
    documents: dict[str, list[str]] = {}
    for partition, ids in named.items():
        if partition not in listed or not isinstance(ids, list):
            return None
        if not all(isinstance(doc, str) and is_document_id(doc) for doc in ids):
            return None
        documents[partition] = [str(doc) for doc in ids]
    return observed_from_lists((str(p) for p in listed), documents)


Schedules = dict[tuple[str, str], dict[str, JSON]]
"""``(partition, id)`` → the document's schedule entry."""


def load_schedules(archive: Archive) -> Schedules | None:
    """The schedule entries of every run's list; ``None`` when there is no list, or one
    keeps none (saved before entries were kept): the run then reads the records."""
    names = [name for name in archive.state_names() if is_partitions_name(name)]
    if not names:
        return None
    found: Schedules = {}
    for name in names:
        try:
            record = read_list(archive, name)
        except ArchiveError:
            return None  # load_active has said so
        kept = _read_schedules(record or {})
        if kept is None:
            return None
        found.update(kept)
    return found


def _read_schedules(record: dict[str, JSON]) -> Schedules | None:
    named = record.get("schedules")
    if not isinstance(named, dict):
        return None
    found: Schedules = {}
    for partition, entries in named.items():
        if not is_partition(partition) or not isinstance(entries, dict):
            return None
        for document, entry in entries.items():
            if not is_document_id(document) or not isinstance(entry, dict):
                return None
            found[partition, document] = entry
    return found


def list_record(
    observed: Observed, *, now: datetime, schedules: Schedules | None = None
) -> dict[str, JSON]:
    """The state record of ``observed``: every partition read in ``active``; the documents
    of those read in part, by partition, in ``documents`` (sorted: the same list, the
    same bytes, and git stores the next hour's as a small delta); the ``schedules``
    entries of the documents it names, by partition, when given."""
    single: dict[str, JSON] = {
        partition: list(documents) for partition, documents in observed.single().items()
    }
    record: dict[str, JSON] = {
        "active": list(observed.partitions()),
        "documents": single,
        "saved_at": format_timestamp(now),
    }
    if schedules is not None:
        by_partition: dict[str, dict[str, JSON]] = {}
        for (partition, document), entry in sorted(schedules.items()):
            if (partition, document) in observed.documents:
                by_partition.setdefault(partition, {})[document] = entry
        record["schedules"] = dict(by_partition.items())
    return record


def save_active(
    archive: Archive,
    observed: Observed,
    *,
    shard: Shard,
    now: datetime,
    schedules: Schedules | None = None,
) -> None:
    """Write this run's list (the run's last write with the ledger: losing it to a power
    cut is a run killed before its end, and the next run reads the list before it)."""
    record = list_record(observed, now=now, schedules=schedules)
    write_list(archive, shard.partitions_name, record, final=True)


def recent(now: datetime) -> set[str]:
    """Today's and yesterday's partitions (UTC): where a run at ``now`` puts new documents."""
    return {partition_of(now), partition_of(now - timedelta(days=1))}


def ensure_recent(archive: Archive, *, shard: Shard, now: datetime) -> Observed | None:
    """The list as read at the start of a run (``None``: read every partition), first
    saved with the :func:`recent` partitions added (whole) when it lacks them. Saved before
    the run writes a document: a run killed after registering new documents (their feed
    entries known from then on, so never registered again) still leaves their partition
    to the next run. Not a final write: the run's documents come after it. The archive's
    index learns where the documents the list names are, and those of the partitions
    read whole that are on disk (:func:`learn_placed`)."""
    active = load_active(archive)
    learn_placed(archive, active)
    if active is None or recent(now) <= active.whole:
        return active
    active = active.with_whole(recent(now))
    try:  # this run's own list keeps its entries
        own = _read_schedules(read_list(archive, shard.partitions_name) or {})
    except ArchiveError:
        own = None
    # and those of the documents of the partitions it read whole: a partition no longer
    # recent is read for them from then on (the checkout holds only those due)
    named = active.union(
        Observed(documents=frozenset(pair for pair in own or {} if pair[0] in active.whole))
    )
    write_list(archive, shard.partitions_name, list_record(named, now=now, schedules=own))
    return active


def learn_placed(archive: Archive, active: Observed | None) -> None:
    """Tell ``archive``'s index the partition of each document ``active`` names, and of
    each document on disk in a partition it reads whole (listed, the index learns them:
    :meth:`Archive.documents`): the documents a run's feeds list
    and its checks read are then found without their index shards, which a sparse
    checkout leaves out (each a request), so a run reads the shards of the documents new
    to it, not of every document its feeds list."""
    if active is None:
        return
    archive.index.learn(active.documents)
    archive.documents(p for p in active.whole if archive.layout.partition_dir(p).is_dir())


def checkout_list(
    archive: Archive,
    *,
    now: datetime,
    due: Callable[[dict[tuple[str, str], DocumentState]], frozenset[tuple[str, str]]] | None = None,
) -> Observed | None:
    """What an hourly run needs on disk: today's and yesterday's partitions (UTC) whole,
    where the run's new documents go, and of the other documents still observed those
    ``due`` picks from their schedule entries (the documents the run's plan will read), or
    every one (no ``due``, or a list without entries); ``None`` (all of ``documents/``)
    when no run has saved a list yet."""
    active = load_active(archive)
    if active is None:
        return None
    schedules = load_schedules(archive) if due is not None else None
    if due is None or schedules is None:
        return active.with_whole(recent(now))
    states = {
        pair: document_from_record(pair[1], entry)
        for pair, entry in schedules.items()
        # a list names the documents of a partition it reads whole (today's and yesterday's
        # when it was saved) by their entries alone
        if pair in active.documents or pair[0] in active.whole
    }
    unknown = {pair for pair in active.documents if pair not in schedules}
    # a partition a list names whole without entries for its documents (a list saved before
    # entries were kept, or a record unreadable) stays whole
    whole = (active.whole - recent(now)) & _bare(archive)
    return Observed(frozenset(recent(now) | whole), due(states) | unknown)


def _bare(archive: Archive) -> set[str]:
    """The partitions a list names whole and keeps no schedule entries for (of any list)."""
    found: set[str] = set()
    for name in (name for name in archive.state_names() if is_partitions_name(name)):
        try:
            record = read_list(archive, name) or {}
        except ArchiveError:
            continue  # load_active has said so
        listed, kept = _read_list(record), _read_schedules(record) or {}
        if listed is not None:
            found |= listed.whole - {partition for partition, _ in kept}
    return found


def plan_records(archive: Archive, *, now: datetime) -> tuple[list[tuple[str, str]], Schedules]:
    """What a run plans from: the ``(partition, id)`` whose records it reads (sorted), and
    the schedule entries it takes instead of reading the records of the others. With
    entries kept: the documents on disk in the partitions read whole (today's and
    yesterday's), those this run's feed polls wrote, and those a list names without an
    entry; without: every document the lists name, those of the partitions read whole and
    those written (with no list: every document on disk), and no entries."""
    active = load_active(archive)
    if active is None:
        return archive.documents(), {}
    whole = active.whole | recent(now)
    found = set(archive.documents(whole))
    found.update(archive.written_documents)
    schedules = load_schedules(archive)
    if schedules is None:
        found.update(pair for pair in active.documents if pair[0] not in whole)
        return sorted(found), {}
    found.update(pair for pair in active.documents if pair not in schedules)
    kept = {pair: entry for pair, entry in schedules.items() if pair not in found}
    return sorted(found), kept
