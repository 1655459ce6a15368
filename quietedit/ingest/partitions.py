"""The observed lists: which documents of ``documents/`` a run reads.

Each run writes its own list (``state/partitions.json``, or
``state/partitions-shard-K-of-N.json`` for a shard; :mod:`quietedit.decide.shard`), and a
run reads the union of all of them. A list names the partitions a run reads
(``active``) and, for each partition read only in part, the documents still observed
there (``documents``); a partition it names without documents (today's and yesterday's, or
any in a list written before documents were named) is read whole. With no list at all (a
new or just migrated archive) every partition on disk is read, once; the run then writes
the first list. A list that cannot be read is logged, and every partition is read: slower,
never wrong.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from quietedit.archive.layout import is_partition, partition_of
from quietedit.archive.store import Archive
from quietedit.article.identity import is_document_id
from quietedit.decide.partitions import Observed, observed_from_lists
from quietedit.decide.shard import Shard, is_partitions_name
from quietedit.errors import ArchiveError
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
            record = archive.read_state(name)
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


def list_record(observed: Observed, *, now: datetime) -> dict[str, JSON]:
    """The state record of ``observed``: every partition read in ``active``; the documents
    of those read in part, by partition, in ``documents`` (sorted: the same list, the
    same bytes, and git stores the next hour's as a small delta)."""
    single: dict[str, JSON] = {
        partition: list(documents) for partition, documents in observed.single().items()
    }
    return {
        "active": list(observed.partitions()),
        "documents": single,
        "saved_at": format_timestamp(now),
    }


def save_active(archive: Archive, observed: Observed, *, shard: Shard, now: datetime) -> None:
    """Write this run's list (the run's last write with the ledger: losing it to a power
    cut is a run killed before its end, and the next run reads the list before it)."""
    archive.write_state(shard.partitions_name, list_record(observed, now=now), final=True)


def recent(now: datetime) -> set[str]:
    """Today's and yesterday's partitions (UTC): where a run at ``now`` puts new documents."""
    return {partition_of(now), partition_of(now - timedelta(days=1))}


def ensure_recent(archive: Archive, *, shard: Shard, now: datetime) -> Observed | None:
    """The list as read at the start of a run (``None``: read every partition), first
    saved with the :func:`recent` partitions added (whole) when it lacks them. Saved before
    the run writes a document: a run killed after registering new documents (their feed
    entries known from then on, so never registered again) still leaves their partition
    to the next run. Not a final write: the run's documents come after it."""
    active = load_active(archive)
    if active is None or recent(now) <= active.whole:
        return active
    active = active.with_whole(recent(now))
    archive.write_state(shard.partitions_name, list_record(active, now=now))
    return active


def checkout_list(archive: Archive, *, now: datetime) -> Observed | None:
    """What an hourly run needs on disk: every document still observed, and today's and
    yesterday's partitions (UTC) whole, where the run's new documents go; ``None`` (all of
    ``documents/``) when no run has saved a list yet."""
    active = load_active(archive)
    if active is None:
        return None
    return active.with_whole(recent(now))
