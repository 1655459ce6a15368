"""Which archive documents an hourly run still needs to read (pure).

Documents live in the partition of the day they were first seen. A run plans its checks
from the records of documents the re-check policy has not retired; a retired document need
not be read (nor checked out) again, until it comes back in a feed, which the run then
registers and so reads. An edited article stays observed for weeks while most of its
partition has retired, so what a run reads is kept per document, not per partition: the
sparse checkout then holds the documents still observed, not every partition one of them
is in. The list is saved at the end of each run and read at the start of the next
(``state/partitions.json``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from quietedit.decide.memory import DocumentState
from quietedit.decide.profiles import profile_sample
from quietedit.decide.recheck import Candidate, FeedTrust, RecheckPolicy, is_retired, plan_run
from quietedit.model import JSON


@dataclass(frozen=True, slots=True)
class Observed:
    """What of ``documents/`` a run reads: ``whole`` partitions (today's and yesterday's,
    where new documents go, and any a list names without its documents), and single
    ``documents`` (``(partition, id)``) of the others."""

    whole: frozenset[str] = frozenset()
    documents: frozenset[tuple[str, str]] = frozenset()

    def partitions(self) -> tuple[str, ...]:
        """Every partition read, whole or in part, sorted."""
        return tuple(sorted(self.whole | {partition for partition, _ in self.documents}))

    def single(self) -> dict[str, tuple[str, ...]]:
        """The partitions read in part → their documents read (sorted); the documents of a
        partition read whole are left out."""
        found: dict[str, list[str]] = {}
        for partition, document in sorted(self.documents):
            if partition not in self.whole:
                found.setdefault(partition, []).append(document)
        return {partition: tuple(documents) for partition, documents in found.items()}

    def union(self, other: Observed) -> Observed:
        return Observed(self.whole | other.whole, self.documents | other.documents)

    def with_whole(self, partitions: Iterable[str]) -> Observed:
        """This list with ``partitions`` read whole as well."""
        return Observed(self.whole | frozenset(partitions), self.documents)

    def reads(self, partition: str, document: str) -> bool:
        """Whether a run reading this list reads ``document`` of ``partition``."""
        return partition in self.whole or (partition, document) in self.documents


def observed_from_lists(
    active: Iterable[str], documents: Mapping[str, Iterable[str]] | None
) -> Observed:
    """The list as saved: ``active`` partitions, of which those in ``documents`` are read
    for the documents named there only (a list saved before documents were named has none:
    every partition it names is read whole)."""
    named = documents or {}
    whole = frozenset(partition for partition in active if partition not in named)
    single = frozenset(
        (partition, document) for partition, ids in named.items() for document in ids
    )
    return Observed(whole, single)


def still_observed(candidate: Candidate, *, policy: RecheckPolicy, now: datetime) -> bool:
    """Whether a run may still check ``candidate``: not retired, or a feed's claim is
    pending (a claim makes even a retired article due), or it was never fetched."""
    if candidate.last_checked_at is None and candidate.last_failure_at is None:
        return True
    claimed, checked = candidate.claimed_at, candidate.last_checked_at
    pending = claimed is not None and (checked is None or claimed > checked)
    return pending or not is_retired(candidate, policy=policy, now=now)


def observed_documents(
    documents: Iterable[tuple[str, str, Candidate]],
    *,
    policy: RecheckPolicy,
    now: datetime,
    touched: Iterable[tuple[str, str]] = (),
) -> Observed:
    """The documents still observed at ``now``, given as ``(partition, id, candidate)``,
    and every ``(partition, id)`` in ``touched`` (written by the run, or unreadable: read
    again next time)."""
    found = set(touched)
    for partition, document, candidate in documents:
        if still_observed(candidate, policy=policy, now=now):
            found.add((partition, document))
    return Observed(documents=frozenset(found))


SCHEDULE_FIELDS: Final = ("url", "host", "discovered_at", "first_seen", "published_at", "feeds")
"""The parts of a document's record that its schedule entry keeps (with ``schedule`` and
the count of its revisions): what the re-check policy, the feeds' include/exclude filters,
a shard and the choice of pages a host's template is learnt from read of it."""


def schedule_entry(record: Mapping[str, JSON]) -> dict[str, JSON]:
    """What the saved list keeps of a document still observed (its record and checks
    entry merged): enough to plan a run without reading its record
    (:func:`~quietedit.decide.memory.document_from_record` reads it back)."""
    entry: dict[str, JSON] = {key: record[key] for key in SCHEDULE_FIELDS if key in record}
    schedule = record.get("schedule")
    if isinstance(schedule, dict):
        entry["schedule"] = schedule
    seen = record.get("seen")
    revisions = seen.get("revisions") if isinstance(seen, dict) else None
    if isinstance(revisions, int) and revisions > 0:
        entry["seen"] = {"revisions": revisions}
    return entry


def due_documents(
    states: Mapping[tuple[str, str], DocumentState],
    *,
    policy: RecheckPolicy,
    now: datetime,
    max_articles: int,
    trust: Mapping[str, FeedTrust] | None = None,
    host_budget: Mapping[str, int] | None = None,
) -> frozenset[tuple[str, str]]:
    """The documents (``(partition, id)`` of ``states``) a run at ``now`` is expected to
    read: those the re-check policy selects (as the run's own plan does, with the same
    budgets), and the pages each of their hosts' templates is learnt from. A run's feed
    claims may make others due: those it reads too, fetched on demand."""
    by_id = {pair[1]: pair for pair in states}
    plan = plan_run(
        (state.candidate for state in states.values()),
        policy=policy,
        now=now,
        max_articles=max_articles,
        trust=trust,
        host_budget=host_budget,
    )
    selected = {decision.key for decision in plan.selected}
    hosts = {states[by_id[key]].candidate.host for key in selected}
    sample = profile_sample(states.values(), hosts=hosts)
    chosen = selected | {document for documents in sample.values() for document in documents}
    return frozenset(by_id[document] for document in chosen)
