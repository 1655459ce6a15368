"""Which archive partitions an hourly run still needs to read (pure).

Documents live in the partition of the day they were first seen. A run plans its checks
from the records of documents the re-check policy has not retired; a partition all of
whose documents have retired need not be read (nor checked out) again, until one of them
comes back in a feed, which the run then registers and so reads. The list is saved at the
end of each run and read at the start of the next (``state/partitions.json``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from quietedit.decide.recheck import Candidate, RecheckPolicy, is_retired


def still_observed(candidate: Candidate, *, policy: RecheckPolicy, now: datetime) -> bool:
    """Whether a run may still check ``candidate``: not retired, or a feed's claim is
    pending (a claim makes even a retired article due), or it was never fetched."""
    if candidate.last_checked_at is None and candidate.last_failure_at is None:
        return True
    claimed, checked = candidate.claimed_at, candidate.last_checked_at
    pending = claimed is not None and (checked is None or claimed > checked)
    return pending or not is_retired(candidate, policy=policy, now=now)


def active_partitions(
    documents: Iterable[tuple[str, Candidate]],
    *,
    policy: RecheckPolicy,
    now: datetime,
    touched: Iterable[str] = (),
) -> tuple[str, ...]:
    """The partitions (sorted) holding a document still observed at ``now``, given as
    ``(partition, candidate)`` pairs, and every partition in ``touched``."""
    found = set(touched)
    for partition, candidate in documents:
        if partition not in found and still_observed(candidate, policy=policy, now=now):
            found.add(partition)
    return tuple(sorted(found))
