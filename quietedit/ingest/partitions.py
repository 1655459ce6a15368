"""The active-partition lists: which partitions of ``documents/`` a run reads.

Each run writes its own list (``state/partitions.json``, or
``state/partitions-shard-K-of-N.json`` for a shard; :mod:`quietedit.decide.shard`), and a
run reads the union of all of them. With no list at all (a new or just migrated archive)
every partition on disk is read, once; the run then writes the first list. A list that
cannot be read is logged, and every partition is read: slower, never wrong.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from quietedit.archive.layout import is_partition, partition_of
from quietedit.archive.store import Archive
from quietedit.decide.shard import Shard, is_partitions_name
from quietedit.errors import ArchiveError
from quietedit.model import JSON, format_timestamp

logger = logging.getLogger(__name__)


def load_active(archive: Archive) -> set[str] | None:
    """The union of every run's active partitions; ``None`` to read them all."""
    names = [name for name in archive.state_names() if is_partitions_name(name)]
    if not names:
        return None
    found: set[str] = set()
    for name in names:
        try:
            record = archive.read_state(name)
        except ArchiveError as exc:
            logger.warning("%s; every partition is read this time", exc)
            return None
        listed = record.get("active") if record else None
        if not isinstance(listed, list) or not all(
            isinstance(p, str) and is_partition(p) for p in listed
        ):
            logger.warning("state/%s.json: active is not a list of partitions; reading all", name)
            return None
        found.update(str(partition) for partition in listed)
    return found


def save_active(
    archive: Archive, partitions: tuple[str, ...], *, shard: Shard, now: datetime
) -> None:
    """Write this run's list (the run's last write with the ledger: losing it to a power
    cut is a run killed before its end, and the next run reads the list before it)."""
    record: dict[str, JSON] = {"active": list(partitions), "saved_at": format_timestamp(now)}
    archive.write_state(shard.partitions_name, record, final=True)


def recent(now: datetime) -> set[str]:
    """Today's and yesterday's partitions (UTC): where a run at ``now`` puts new documents."""
    return {partition_of(now), partition_of(now - timedelta(days=1))}


def ensure_recent(archive: Archive, *, shard: Shard, now: datetime) -> set[str] | None:
    """The list as read at the start of a run (``None``: read every partition), first
    saved with the :func:`recent` partitions added when it lacks them. Saved before the
    run writes a document: a run killed after registering new documents (their feed
    entries known from then on, so never registered again) still leaves their partition
    to the next run. Not a final write: the run's documents come after it."""
    active = load_active(archive)
    if active is None or recent(now) <= active:
        return active
    active |= recent(now)
    listed: list[JSON] = [*sorted(active)]
    record: dict[str, JSON] = {"active": listed, "saved_at": format_timestamp(now)}
    archive.write_state(shard.partitions_name, record)
    return active


def checkout_partitions(archive: Archive, *, now: datetime) -> list[str] | None:
    """The partitions an hourly run needs on disk: every active one, and today's and
    yesterday's (UTC), where the run's new documents go; ``None`` (all of them) when no
    run has saved a list yet."""
    active = load_active(archive)
    if active is None:
        return None
    return sorted(active | recent(now))
